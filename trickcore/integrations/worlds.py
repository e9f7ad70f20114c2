"""Worlds for the adapters: ``GameState.determinize`` where the game module samples worlds, and
for a game whose module does not (the reference game) a sampler built here from the hands
alone, to move into the game module when it gets one."""

from __future__ import annotations

import random
from collections.abc import Hashable

from trickcore._core import cards_count
from trickcore.game import GameState
from trickcore.worlds import Slot, WorldModel, draw_worlds

__all__ = ["world"]


def world(state: GameState, seat: int, seed: int) -> GameState:
    """A world for ``seat`` (``GameState.determinize``); for a game whose module has no world
    model (the reference game), one built here from the hands alone: the other seats' cards
    placed uniformly, respecting the suits each seat has shown it lacks."""
    try:
        return state.determinize(seat, seed=seed)
    except NotImplementedError:
        return next(draw_worlds(_hands_model(state, seat), 1, random.Random(seed)))


def _hands_model(state: GameState, seat: int) -> WorldModel[GameState]:
    tp = state._trick_phase
    n = state.num_players
    hands = [tp.hand(q) for q in range(n)]
    hidden = [q for q in range(n) if q != seat]
    cards = 0
    for q in hidden:
        cards |= hands[q]
    slots = [Slot(("hand", q), cards_count(hands[q]), cards & ~tp.exclusions(q, cards)) for q in hidden]

    def build(assignment: dict[Hashable, int], rng: random.Random) -> GameState:
        out = state._world_base(seat, rng)
        if not tp.over:
            out._world_trick_phase([assignment["hand", q] if q != seat else hands[q] for q in range(n)])
        return out
    return WorldModel(seat, cards, slots, build)
