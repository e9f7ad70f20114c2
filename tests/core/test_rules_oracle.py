"""Differential property tests: the C core's follow and winner rules against the
pure-Python oracle (tests/core/oracle.py) on random positions of real decks."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core import oracle
from tests.core.decks import hattrick_deck, jupiter_deck, klaberjass_deck, mask, plain52, sticheln_deck
from trickcore import _core

DECKS = {
    "jupiter": jupiter_deck(),
    "jupiter3": jupiter_deck(8, 2),
    "sticheln": sticheln_deck(),
    "hattrick": hattrick_deck(),
    "klaberjass": klaberjass_deck(),
    "plain52": plain52(),
}
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw, deck_name: str, need_trump: bool = False, allow_no_trump: bool = True):
    """(deck, cards, n_players, leader, trick [(card, decl)], hand, trump)."""
    deck, cards = DECKS[deck_name]
    n_players = draw(st.integers(2, 8))
    leader = draw(st.integers(0, n_players - 1))
    k = draw(st.integers(0, n_players - 1))
    hand_size = draw(st.integers(1, 12))
    chosen = draw(st.lists(st.sampled_from(cards), min_size=k + hand_size, max_size=k + hand_size,
                           unique_by=lambda c: c.id))
    trick = [(c, draw(st.integers(0, 1)) if c.declared else 0) for c in chosen[:k]]
    hand = set(chosen[k:])
    suits = sorted({c.suit for c in cards if c.suit is not None})
    if need_trump or not allow_no_trump:
        trump = draw(st.sampled_from(suits))
    else:
        trump = draw(st.one_of(st.none(), st.sampled_from(suits)))
    return deck, cards, n_players, leader, trick, hand, trump


def core_trump(trump):
    return _core.NO_SUIT if trump is None else trump


def trick_moves(trick):
    return [c.id | (d << 7) for c, d in trick]


@pytest.mark.parametrize("deck_name", ["jupiter", "jupiter3", "plain52", "klaberjass"])
@SETTINGS
@given(data=st.data())
def test_follow_suit_matches_oracle(deck_name, data):
    deck, cards, n, leader, trick, hand, trump = data.draw(positions(deck_name))
    expected = oracle.legal_follow_suit(hand, trick, trump)
    got = _core.legal_cards(deck, n, _core.FOLLOW_SUIT, _core.WIN_TRUMP, core_trump(trump), leader,
                            trick_moves(trick), mask(hand))
    assert got == mask(expected)
    assert _core.legal_moves(deck, n, _core.FOLLOW_SUIT, _core.WIN_TRUMP, core_trump(trump), leader,
                             trick_moves(trick), mask(hand)) == oracle.moves(expected)


@SETTINGS
@given(data=st.data())
def test_overtrump_matches_oracle(data):
    deck, cards, n, leader, trick, hand, trump = data.draw(positions("klaberjass", need_trump=True))
    expected = oracle.legal_overtrump(hand, trick, trump)
    got = _core.legal_cards(deck, n, _core.FOLLOW_OVERTRUMP, _core.WIN_TRUMP, trump, leader,
                            trick_moves(trick), mask(hand))
    assert got == mask(expected)


@pytest.mark.parametrize("deck_name", ["sticheln", "hattrick"])
@SETTINGS
@given(data=st.data())
def test_free_play_matches_oracle(deck_name, data):
    deck, cards, n, leader, trick, hand, _ = data.draw(positions(deck_name))
    for follow in (_core.FOLLOW_FREE, _core.FOLLOW_DOUBLE):
        winner = _core.WIN_DOUBLE if follow == _core.FOLLOW_DOUBLE else _core.WIN_OFFLEAD_HIGH
        got = _core.legal_cards(deck, n, follow, winner, _core.NO_SUIT, leader, trick_moves(trick), mask(hand))
        assert got == mask(oracle.legal_free(hand))


@st.composite
def full_tricks(draw, deck_name: str, need_trump=False):
    deck, cards = DECKS[deck_name]
    n = draw(st.integers(2, 8))
    leader = draw(st.integers(0, n - 1))
    chosen = draw(st.lists(st.sampled_from(cards), min_size=n, max_size=n, unique_by=lambda c: c.id))
    trick = [(c, draw(st.integers(0, 1)) if c.declared else 0) for c in chosen]
    suits = sorted({c.suit for c in cards if c.suit is not None})
    trump = draw(st.sampled_from(suits)) if need_trump else draw(st.one_of(st.none(), st.sampled_from(suits)))
    return deck, n, leader, trick, trump


@pytest.mark.parametrize("deck_name", ["jupiter", "plain52", "klaberjass"])
@SETTINGS
@given(data=st.data())
def test_trump_winner_matches_oracle(deck_name, data):
    deck, n, leader, trick, trump = data.draw(full_tricks(deck_name))
    idx = oracle.winner_trump(trick, trump)
    if idx is None:            # every card a lamb: impossible in play (BJ A-18)
        return
    res = _core.resolve_trick(deck, n, _core.FOLLOW_SUIT, _core.WIN_TRUMP, core_trump(trump), leader,
                              trick_moves(trick))
    assert res["winner"] == (leader + idx) % n
    assert res["points"] == sum(c.points for c, _ in trick)


@pytest.mark.parametrize("lowest", [False, True])
@SETTINGS
@given(data=st.data())
def test_offlead_winner_matches_oracle(lowest, data):
    deck, n, leader, trick, _ = data.draw(full_tricks("sticheln"))
    rule = _core.WIN_OFFLEAD_LOW if lowest else _core.WIN_OFFLEAD_HIGH
    res = _core.resolve_trick(deck, n, _core.FOLLOW_FREE, rule, _core.NO_SUIT, leader, trick_moves(trick))
    assert res["winner"] == (leader + oracle.winner_offlead(trick, lowest)) % n


@SETTINGS
@given(data=st.data())
def test_double_trick_matches_oracle(data):
    deck, n, leader, trick, _ = data.draw(full_tricks("hattrick"))
    piles, winners, nxt = oracle.double_trick(trick)
    res = _core.resolve_trick(deck, n, _core.FOLLOW_DOUBLE, _core.WIN_DOUBLE, _core.NO_SUIT, leader,
                              trick_moves(trick))
    assert res["piles"] == [_core.PILE_PASS if p == "pass" else p for p in piles]
    assert res["winner"] == (leader + winners[0]) % n
    assert res["winner2"] == ((leader + winners[1]) % n if len(winners) > 1 else -1)
    assert res["next_leader"] == (leader + nxt) % n
