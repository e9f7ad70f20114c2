"""Property tests: the C core's FOLLOW_DOUBLE / WIN_DOUBLE (legal cards, pile of every
card, both trick winners, the next leader of H5) against the rules-text oracle, on random double
tricks of the real deck for every player count."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from trickcore import _core
from trickcore.games import hattrick as H

from . import oracle


def cv(c):
    return H.colour_of(c), H.value_of(c)


@st.composite
def doubles(draw):
    n = draw(st.integers(4, 7))
    cards = _core.cards_list(H.USED[n])
    random.Random(draw(st.integers(0, 2**64 - 1))).shuffle(cards)
    length = draw(st.integers(1, n))
    leader = draw(st.integers(0, n - 1))
    hand_len = draw(st.integers(1, H.SETUP[n][1]))
    return n, leader, cards[:length], cards[length:length + hand_len]


def check(n, leader, trick):
    res = _core.resolve_trick(H.DECK, n, _core.FOLLOW_DOUBLE, _core.WIN_DOUBLE, _core.NO_SUIT, leader, trick)
    cards = [cv(c) for c in trick]
    piles = oracle.classify(cards)
    assert res["piles"] == [H.PILE_PASS if p == oracle.PASS else p for p in piles]
    w0, w1, nxt = oracle.resolve(cards)
    seat = lambda i: -1 if i is None else (leader + i) % n  # noqa: E731
    assert (res["winner"], res["winner2"], res["next_leader"]) == (seat(w0), seat(w1), seat(nxt))
    assert res["points"] == len(trick)  # points = 1 per card


@settings(max_examples=300, deadline=None)
@given(doubles(), st.integers(0, 2**32))
def test_double_trick_matches_oracle(t, seed):
    n, leader, trick, _hand = t
    check(n, leader, trick)
    rng = random.Random(seed)  # and 20 more random double tricks per example
    for _ in range(20):
        n = rng.randint(4, 7)
        check(n, rng.randrange(n), rng.sample(_core.cards_list(H.USED[n]), rng.randint(1, n)))


@settings(max_examples=200, deadline=None)
@given(st.integers(4, 7), st.integers(0, 2**32))
def test_tie_heavy_double_tricks(n, seed):
    """Two colours with equal value lists (H5 steps 2-3), lone cards, passes."""
    rng = random.Random(seed)
    a, b = rng.sample(range(3), 2)
    vals = rng.sample(range(H.SETUP[n][0], 21), rng.randint(1, n // 2))
    trick = [H.card_id(a, v) for v in vals] + [H.card_id(b, v) for v in vals[:rng.randint(1, len(vals))]]
    third = 3 - a - b
    trick += [H.card_id(third, v) for v in rng.sample(range(H.SETUP[n][0], 21), n - len(trick))]
    first = trick[0]
    rest = trick[1:]
    rng.shuffle(rest)
    check(n, rng.randrange(n), ([first] + rest)[:n])


@settings(max_examples=200, deadline=None)
@given(doubles())
def test_legal_matches_oracle(t):
    n, leader, trick, hand = t
    trick = trick[:n - 1]
    hmask = sum(1 << c for c in hand)
    legal = _core.legal_cards(H.DECK, n, _core.FOLLOW_DOUBLE, _core.WIN_DOUBLE, _core.NO_SUIT, leader, trick, hmask)
    kinds = oracle.legal([cv(c) for c in hand], [cv(c) for c in trick])
    assert {cv(c) for c in _core.cards_list(legal)} == set(kinds)
    assert _core.legal_moves(H.DECK, n, _core.FOLLOW_DOUBLE, _core.WIN_DOUBLE, _core.NO_SUIT, leader, trick,
                             hmask) == sorted(hand)
    # what each card does once played agrees with the oracle's meaning
    for c in hand:
        res = _core.resolve_trick(H.DECK, n, _core.FOLLOW_DOUBLE, _core.WIN_DOUBLE, _core.NO_SUIT, leader,
                                  list(trick) + [c])
        kind = kinds[cv(c)]
        assert (res["piles"][-1] == H.PILE_PASS) == (kind == "pass")
