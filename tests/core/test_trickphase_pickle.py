"""A trick phase pickles as what it started from and the moves played, and loads by starting
again and playing them through the core's checks (trickcore/_core.pyx, TrickPhase.__reduce__):
a pickle changed by hand, or by an attacker, raises an error and never reaches the C structs."""

from __future__ import annotations

import pickle
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
