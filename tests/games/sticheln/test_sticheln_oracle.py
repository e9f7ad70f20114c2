"""Property tests: the C core's free-play legal moves and the Sticheln winner rules
(WIN_OFFLEAD_HIGH / WIN_OFFLEAD_LOW) against the rules-text oracle, on random tricks of the real
deck for every player count."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from trickcore import _core
from trickcore.games import sticheln as S

from . import oracle


@st.composite
def tricks(draw):
    n = draw(st.integers(3, 8))
    cards = _core.cards_list(S.USED[n])
    random.Random(draw(st.integers(0, 2**64 - 1))).shuffle(cards)
    length = draw(st.integers(1, n))
    leader = draw(st.integers(0, n - 1))
    low = draw(st.booleans())
    hand_len = draw(st.integers(1, S.SETUP[n][2]))
    return n, leader, cards[:length], cards[length:length + hand_len], low


def rule(low):
    return _core.WIN_OFFLEAD_LOW if low else _core.WIN_OFFLEAD_HIGH


@settings(max_examples=300, deadline=None)
@given(tricks(), st.integers(0, 2**32))
def test_winner_matches_oracle(t, seed):
    check_winner(*t)
    rng = random.Random(seed)  # and 20 more random tricks per example (hypothesis is slow per example)
    for _ in range(20):
        n = rng.randint(3, 8)
        cards = rng.sample(_core.cards_list(S.USED[n]), rng.randint(1, n))
        check_winner(n, rng.randrange(n), cards, [], rng.random() < 0.5)


def check_winner(n, leader, trick, _hand, low):
    res = _core.resolve_trick(S.DECK, n, _core.FOLLOW_FREE, rule(low), _core.NO_SUIT, leader, trick)
    idx = oracle.winner([(S.CARD_COLOUR[c], S.CARD_VALUE[c]) for c in trick], low)
    assert res["winner"] == (leader + idx) % n
    assert res["next_leader"] == res["winner"]
    assert res["winner2"] == -1
    assert res["led"] == S.CARD_COLOUR[trick[0]]
    assert res["points"] == sum(S.CARD_VALUE[c] for c in trick)


@settings(max_examples=200, deadline=None)
@given(tricks())
def test_legal_matches_oracle(t):
    n, leader, trick, hand, low = t
    trick = trick[:n - 1]
    hmask = sum(1 << c for c in hand)
    legal = _core.legal_cards(S.DECK, n, _core.FOLLOW_FREE, rule(low), _core.NO_SUIT, leader, trick, hmask)
    assert set(_core.cards_list(legal)) == oracle.legal(set(hand), trick)
    moves = _core.legal_moves(S.DECK, n, _core.FOLLOW_FREE, rule(low), _core.NO_SUIT, leader, trick, hmask)
    assert moves == sorted(hand)


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 8), st.integers(0, 2**32), st.booleans())
def test_zero_and_tie_heavy_tricks(n, seed, low):
    """Tricks made mostly of zeros and equal values: the corner cases of C6/C7."""
    rng = random.Random(seed)
    n_col = S.SETUP[n][0]
    vals = [0, 0, 1, rng.randrange(S.SETUP[n][1] + 1)]
    pool = [S.card_id(c, v) for c in range(n_col) for v in set(vals)]
    rng.shuffle(pool)
    trick = pool[:n]
    leader = rng.randrange(n)
    res = _core.resolve_trick(S.DECK, n, _core.FOLLOW_FREE, rule(low), _core.NO_SUIT, leader, trick)
    idx = oracle.winner([(S.CARD_COLOUR[c], S.CARD_VALUE[c]) for c in trick], low)
    assert len(trick) == n and res["winner"] == (leader + idx) % n
