"""A trick phase pickles as what it started from and the moves played, and loads by starting
again and playing them through the core's checks (trickcore/_core.pyx, TrickPhase.__reduce__):
a pickle changed by hand, or by an attacker, raises an error and never reaches the C structs."""

from __future__ import annotations

import pickle
import pickletools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trickcore import games
from trickcore.errors import CoreError


def _state_in_play(name: str, players: int, min_moves: int):
    for seed in range(40):
        state = games.new_game(name, players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            tp = state._tp
            if tp is not None and not tp.over and len(tp.moves_played()) >= min_moves:
                return state
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError(f"no {name} game reached {min_moves} card plays")


CASES = [("sticheln", 4), ("beim-jupiter", 3), ("hattrick", 5), ("klaberjass", 4), ("squint", 5)]


@pytest.mark.parametrize("name,players", CASES)
def test_a_pickled_phase_loads_as_the_same_phase(name, players):
    tp = _state_in_play(name, players, 7)._tp
    loaded = pickle.loads(pickle.dumps(tp))
    assert loaded.moves_played() == tp.moves_played() and loaded.tricks == tp.tricks
    assert [loaded.hand(p) for p in range(players)] == [tp.hand(p) for p in range(players)]
    assert (loaded.to_move, loaded.tricks_left, loaded.tricks_won(), loaded.points_won()) == \
        (tp.to_move, tp.tricks_left, tp.tricks_won(), tp.points_won())
    assert loaded.moves() == tp.moves() and loaded.perft(2) == tp.perft(2)


def test_tampered_phase_pickles_are_refused():
    tp = _state_in_play("sticheln", 4, 6)._tp
    func, args = tp.__reduce__()
    deck, rules, hands, leader, tricks, moves = args
    held = hands[leader]
    other = next(c for c in range(deck.n_cards) if not (held >> c) & 1)
    for bad in [
        (deck, rules, hands, leader, tricks, moves + (moves[0],)),           # a card played twice
        (deck, rules, hands, leader, tricks, (other,) + moves[1:]),          # a card not held
        (deck, rules, hands, leader, 0, moves),                              # no trick to play
        (deck, rules, hands, 9, tricks, moves),                              # no such seat
        (deck, rules, (hands[0],) * len(hands), leader, tricks, moves),      # one card in two hands
        (deck, rules, hands[:-1], leader, tricks, moves),                    # a hand short
        (deck, (4, 99, 0, 0), hands, leader, tricks, moves),                 # no such rule
        (deck, (4, 0, 0), hands, leader, tricks, moves),                     # rules cut short
        (deck, rules, hands, leader, tricks, (-1,)),                         # no such card
        (deck, rules, (1 << 200,) * len(hands), leader, tricks, ()),         # beyond any deck
        (deck, rules, hands, leader, 65, moves),                             # more tricks than 64
    ]:
        with pytest.raises((CoreError, ValueError, TypeError, OverflowError)):
            func(*bad)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_randomly_changed_phase_pickles_load_consistently_or_raise(data):
    """Any change of the arguments a pickle holds either raises or loads a phase that equals the
    replay of its own moves: never a phase the core could not have reached."""
    tp = _state_in_play("beim-jupiter", 4, 5)._tp
    func, args = tp.__reduce__()
    deck, rules, hands, leader, tricks, moves = args
    hands = list(hands)
    k = data.draw(st.integers(0, len(hands) - 1))
    hands[k] ^= 1 << data.draw(st.integers(0, deck.n_cards - 1))
    moves = list(moves)
    if moves and data.draw(st.booleans()):
        moves[data.draw(st.integers(0, len(moves) - 1))] = data.draw(st.integers(-5, 300))
    leader = data.draw(st.sampled_from([leader, data.draw(st.integers(-2, 9))]))
    try:
        loaded = func(deck, rules, tuple(hands), leader, tricks, tuple(moves))
    except (CoreError, ValueError, TypeError, OverflowError):
        return
    again = func(deck, rules, tuple(hands), leader, tricks, tuple(loaded.moves_played()))
    assert again.tricks == loaded.tricks and again.moves() == loaded.moves()


def _value_bytes(blob: bytes) -> list[int]:
    """Positions of the pickle's value bytes (ints and strings), never of its opcodes or lengths:
    a changed opcode is a different program for pickle itself (a memo index of a billion makes
    pickle allocate gigabytes), which is pickle's business, not the phase's."""
    ops = list(pickletools.genops(blob))
    positions = []
    for (op, _arg, pos), (_next_op, _next_arg, end) in zip(ops, ops[1:]):
        skip = {"BININT1": 1, "BININT2": 1, "BININT": 1, "LONG1": 2, "SHORT_BINUNICODE": 2,
                "SHORT_BINBYTES": 2, "BINBYTES": 5}.get(op.name)   # (bytes: what a struct pickle holds)
        if skip is not None:
            positions.extend(range(pos + skip, end))
    return positions


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_pickles_with_changed_bytes_raise_or_load_a_reachable_phase(data):
    """Value bytes of a pickled trick phase changed at random (its hands, moves, leader, trick
    count, the deck's cards): loading raises or gives a phase that plays on and equals the replay
    of its own moves.  A pickle of the C structs themselves let one changed byte (a trick's
    leader, a card count) read and write out of bounds; this runs under ASan in CI
    (.ci/sanitize)."""
    state = _state_in_play("sticheln", 4, 9)
    blob = bytearray(pickle.dumps(state._tp))
    positions = _value_bytes(bytes(blob))
    for _ in range(data.draw(st.integers(1, 4))):
        blob[data.draw(st.sampled_from(positions))] = data.draw(st.integers(0, 255))
    try:
        loaded = pickle.loads(bytes(blob))
    except Exception:  # noqa: BLE001 - any refusal will do (a changed name is pickle's ImportError); a crash would not get here
        return
    if type(loaded) is not type(state._tp):
        return
    moves, tricks = loaded.moves(), loaded.tricks
    func, args = loaded.__reduce__()
    again = func(*args)
    assert again.moves() == moves and again.tricks == tricks
    if not loaded.over:
        loaded.perft(2)
