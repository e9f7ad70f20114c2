"""Every game and variant in a short configuration (one deal, round or game where the game
has such an option), for the encoding and adapter tests."""

from __future__ import annotations

import random
from typing import Any

import trickcore
from trickcore.games import sticheln

#: (game, players, options): every game, every player count of the smaller games, every
#: Sticheln variant (player counts 3..8 in turn).
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("reference", 4, {}),
    ("beim-jupiter", 3, {}),
    ("beim-jupiter", 4, {"first_dealer": 2}),
    ("beim-jupiter", 5, {}),
    ("hattrick", 4, {"games": 1}),
    ("hattrick", 5, {"games": 1}),
    ("hattrick", 6, {"games": 1}),
    ("hattrick", 7, {"games": 1}),
    ("squint", 5, {"deal_limit": 2}),
    ("klaberjass", 2, {"max_deals": 3}),
    ("klaberjass", 3, {"max_deals": 3}),
    ("klaberjass", 4, {"max_deals": 3}),
] + [("sticheln", 3 + i % 6, dict(sticheln.variant_options(v), rounds=1))
     for i, v in enumerate(trickcore.get_game("sticheln").variants)]


def config_id(config: tuple[str, int, dict[str, Any]]) -> str:
    game, players, options = config
    flags = "+".join(k for k, v in options.items() if v is True)
    return f"{game}-{players}" + (f"-{flags}" if flags else "")


#: One configuration per game: the OpenSpiel bots and the slower loops play these.
ONE_PER_GAME = [
    ("reference", 4, {}),
    ("beim-jupiter", 3, {}),
    ("sticheln", 4, {"rounds": 1, "verschaerft": True}),
    ("hattrick", 4, {"games": 1}),
    ("squint", 5, {"deal_limit": 1}),
    ("klaberjass", 3, {"max_deals": 2}),
]


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
