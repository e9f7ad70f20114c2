"""Every registered game and variant in a short configuration (its ``GameInfo.short_options``:
one deal, round or game where the game has such an option), for the encoding, adapter and other
cross-game tests: taken from the registry, so a new game is in all of them once it registers."""

from __future__ import annotations

import random
from typing import Any

import trickcore


def _configs() -> list[tuple[str, int, dict[str, Any]]]:
    """(game, players, options): every game at every player count, and every named variant of a
    game (player counts in turn), each with the game's short options."""
    out: list[tuple[str, int, dict[str, Any]]] = []
    for info in trickcore.list_games():
        short = dict(info.short_options)
        if not info.variants:
            out += [(info.name, players, dict(short)) for players in info.players]
            continue
        counts = sorted(info.players)
        out += [(info.name, counts[i % len(counts)], {**info.variant_options(variant), **short})
                for i, variant in enumerate(info.variants)]
    return out


#: (game, players, options) of every game and variant.
CONFIGS: list[tuple[str, int, dict[str, Any]]] = _configs()


def config_id(config: tuple[str, int, dict[str, Any]]) -> str:
    game, players, options = config
    flags = "+".join(k for k, v in options.items() if v is True)
    return f"{game}-{players}" + (f"-{flags}" if flags else "")


#: One configuration per game (the first of CONFIGS): the OpenSpiel bots and the slower loops
#: play these.
ONE_PER_GAME = [next(config for config in CONFIGS if config[0] == info.name) for info in trickcore.list_games()]


def random_states(game: str, players: int, options: dict[str, Any], seed: int, every: int = 1):
    """A seeded random match: yields the state before every ``every``-th action and at the end."""
    rng = random.Random(seed)
    state = trickcore.new_game(game, players, options, seed)
    i = 0
    while not state.is_terminal():
        if i % every == 0:
            yield state
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        i += 1
    yield state
