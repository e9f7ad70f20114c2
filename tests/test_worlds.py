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
import math
import random
from collections import Counter
from typing import Any

import pytest

from trickcore import new_game
from trickcore.game import GameState
from trickcore.worlds import InconsistentStateError, Slot, WorldModel, WorldSampler, draw_worlds

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
        with pytest.raises(Exception, match="not the record"):   # a world of the public view too
            state.determinize(None, rng.getrandbits(32)).to_record()
        assert state.to_record()["history"] == state.history      # the state itself stays a record


# ---- uniformity against exact enumeration ---------------------------------------------------------

def _assignments(slots: list[Slot], cards: list[int]) -> Any:
    """Every placement of ``cards`` into the slots by size alone (allowed sets ignored)."""
    if not slots:
        yield {}
        return
    first, rest = slots[0], slots[1:]
    for chosen in itertools.combinations(cards, first.size):
        left = [c for c in cards if c not in chosen]
        for tail in _assignments(rest, left):
            yield {first.key: sum(1 << c for c in chosen), **tail}


def _consistent(state: GameState, seat: int, world: GameState) -> bool:
    if world.observation(seat) != state.observation(seat) or world.events_for(seat)[0] != state.events_for(seat)[0]:
        return False
    try:
        return _views(_rebuild(state, world)) == _views(world)
    except Exception:
        return False


def _recording(model: WorldModel, drawn: Counter[tuple[Any, ...]]) -> WorldModel:
    """``model`` with a builder that counts each assignment it builds a world from."""
    sized = {s.key for s in model.slots if s.size}

    def build(assignment: dict[Any, int], rng: random.Random) -> GameState:
        world = model.build(assignment, rng)
        drawn[tuple(sorted(((k, v) for k, v in assignment.items() if k in sized), key=repr))] += 1
        return world
    return WorldModel(model.seat, model.cards, model.slots, build)


def _small_positions(game: str, n: int, options: dict[str, Any], limit: int) -> list[tuple[GameState, int]]:
    """Late positions (few unknown cards) with between 4 and ``limit`` placements by size."""
    found: list[tuple[GameState, int]] = []
    for seed in range(1, 40):
        for state in _decision_points(game, n, options, seed, every=1):
            seat = state.current_player()
            model = state._world_model(seat)
            sizes = [s.size for s in model.slots if s.size]
            total, left = 1, sum(sizes)
            for size in sizes:
                total *= math.comb(left, size)
                left -= size
            if 4 <= total <= limit:
                found.append((state, total))
                break
        if len(found) >= 2:
            break
    return found


# Eight Sticheln hands in the fog keep every laid card hidden to the end: no small position.
UNIFORM = [(case, name) for case, name in zip(CASES, IDS) if case[1] < 8]


@pytest.mark.parametrize(("game", "n", "options"), [c for c, _ in UNIFORM], ids=[i for _, i in UNIFORM])
def test_worlds_are_uniform_over_the_consistent_ones(game: str, n: int, options: dict[str, Any]) -> None:
    """Enumerate every placement of the unknown cards by size alone; the consistent ones (the
    world builds, the seat sees the same, the history replays) must be exactly those the sampler
    may draw, and the draws must be uniform over them (chi-square, p > 0.001)."""
    positions = _small_positions(game, n, options, limit=800)
    assert positions, "no late position with few unknown cards was found"
    for state, _total in positions:
        seat = state.current_player()
        model = state._world_model(seat)
        slots = [s for s in model.slots if s.size]
        consistent = set()
        for assignment in _assignments(slots, [c for c in range(model.cards.bit_length()) if model.cards >> c & 1]):
            full = {s.key: 0 for s in model.slots} | assignment
            try:
                world = model.build(full, random.Random(0))
            except Exception:
                continue
            if _consistent(state, seat, world):
                key = tuple(sorted(assignment.items(), key=repr))
                assert all(full[s.key] & ~s.allowed == 0 for s in model.slots), \
                    f"a consistent world places a card where the model forbids it: {assignment}"
                consistent.add(key)
        assert consistent
        drawn: Counter[tuple[Any, ...]] = Counter()
        draws = 60 * len(consistent)
        # what state.worlds(seat, draws, seed=11) does, with the model recording each draw
        for _ in draw_worlds(_recording(model, drawn), draws, random.Random(11)):
            pass
        assert set(drawn) <= consistent, "the sampler drew an inconsistent world"
        expected = draws / len(consistent)
        chi2 = sum((drawn[k] - expected) ** 2 / expected for k in consistent)
        df = len(consistent) - 1
        if df:
            z = 3.09                                     # p = 0.001, Wilson-Hilferty
            critical = df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3
            assert chi2 < critical, f"chi2 {chi2:.1f} over {len(consistent)} worlds (df {df}) >= {critical:.1f}"


SAMPLER_CASES = [
    # two slots that allow the same cards (drawn as one and split), one of no size, a constrained one
    [Slot("a", 2, 0b1111110), Slot("b", 2, 0b1111110), Slot("none", 0, 0b1111111), Slot("c", 3, 0b0011111)],
    # a card allowed in one slot only, groups spread over several slots
    [Slot("a", 1, 0b0000001 | 0b1100000), Slot("b", 3, 0b1111110), Slot("c", 2, 0b0111110), Slot("d", 1, 0b1011110)],
]


@pytest.mark.parametrize("slots", SAMPLER_CASES, ids=["merged-slots", "constrained"])
def test_the_sampler_counts_and_draws_every_placement_alike(slots: list[Slot]) -> None:
    """Against every placement of seven cards that respects sizes and allowed sets."""
    cards = 0b1111111
    placements = {tuple(sorted(a.items())) for a in _assignments(slots, list(range(7)))
                  if all(a[s.key] & ~s.allowed == 0 for s in slots)}
    sampler = WorldSampler(slots, cards)
    assert sampler.total == len(placements)
    rng = random.Random(3)
    draws = 200 * len(placements)
    drawn = Counter(tuple(sorted(sampler.sample(rng).items())) for _ in range(draws))
    assert set(drawn) == placements
    expected = draws / len(placements)
    chi2 = sum((drawn[k] - expected) ** 2 / expected for k in placements)
    df = len(placements) - 1
    critical = df * (1 - 2 / (9 * df) + 3.09 * (2 / (9 * df)) ** 0.5) ** 3      # p = 0.001
    assert chi2 < critical, f"chi2 {chi2:.1f} over {len(placements)} placements >= {critical:.1f}"


# ---- inconsistent input ----------------------------------------------------------------------------

def test_impossible_constraints_are_a_clear_error() -> None:
    with pytest.raises(InconsistentStateError, match="3 unknown cards for slots holding 2"):
        WorldSampler([Slot("a", 1, 0b111), Slot("b", 1, 0b111)], 0b111)
    with pytest.raises(InconsistentStateError, match="card 2 may lie in no slot"):
        WorldSampler([Slot("a", 2, 0b011), Slot("b", 1, 0b011)], 0b111)
    with pytest.raises(InconsistentStateError, match="no placement"):   # a and b both want card 0
        WorldSampler([Slot("a", 1, 0b001), Slot("b", 1, 0b001), Slot("c", 1, 0b111)], 0b111)


def test_seat_argument_is_checked() -> None:
    state = new_game("squint", 5, seed=1)
    with pytest.raises(ValueError, match="seat 5 is not in 0..4"):
        state.determinize(5)
    with pytest.raises(ValueError):
        state.worlds(-1, 3)
