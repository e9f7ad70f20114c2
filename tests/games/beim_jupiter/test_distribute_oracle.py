"""The end of a round (rules 7.2-8.1 of docs/rules/beim_jupiter.md) in the core
(tc_bj_distribute, through ``distribute`` and the game's own ``_distribution``) against the module's
former Python implementation (oracle.distribute) on random rounds (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trickcore.errors import CoreError
from trickcore.games import beim_jupiter as bj

from . import oracle

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rounds(draw, players: st.SearchStrategy[int], top_value: int):
    """(n, start, t, table, bids, colour, tricks, points) of a round's end as the game reaches it:
    every bid card lies at its bid, a ZERO bidder's card in front of him, older cards at any count.
    A small ``top_value`` makes cards of equal value (rule 7.7's ties) common."""
    n = draw(players)
    t = draw(st.integers(1, 12))
    start = draw(st.integers(0, n - 1))
    pool = [f"{suit}{v}" for suit in bj.SUITS for v in range(1, top_value + 1)]
    old = draw(st.integers(0, min(12, len(pool) - n)))
    cards = draw(st.lists(st.sampled_from(pool), min_size=n + old, max_size=n + old, unique=True))
    colour = cards[:n]
    table: dict[int, list[str]] = {}
    bids, tricks, points = [], [], []
    for p in range(n):
        kind = draw(st.sampled_from(["ZERO", "open", "locked"]))
        bid = draw(st.integers(1, t))
        # often k = T: the locked bids that are fulfilled make the A claimants
        tricks.append(draw(st.one_of(st.just(bid), st.integers(0, t))))
        points.append(draw(st.sampled_from([0, 0, 5, 13, 20])))     # equal points are common
        if kind == "ZERO":
            bids.append("ZERO")
        else:
            bids.append(f"{bid}+L" if kind == "locked" else str(bid))
            table.setdefault(bid, []).append(colour[p])
    for card in cards[n:]:
        table.setdefault(draw(st.integers(1, 12)), []).append(card)
    table = {T: draw(st.permutations(lying)) for T, lying in table.items()}
    return n, start, t, table, bids, colour, tricks, points


def assert_same(got: bj.Distribution, expected: bj.Distribution) -> None:
    assert got.categories == expected.categories
    assert got.picks == expected.picks
    assert got.won == expected.won
    assert got.zero == expected.zero
    assert got.left == expected.left
    assert list(got.left) == list(expected.left)         # counts ascending
    assert got.removed == expected.removed
    assert got.table == expected.table
    assert got.gains() == expected.gains()


@SETTINGS
@given(data=st.data())
def test_distribute_matches_oracle(data):
    """Card names, any seat count the core takes, values spread (1..14) or crowded (1..3)."""
    top = data.draw(st.sampled_from([3, 14]))
    args = data.draw(rounds(st.integers(1, 8), top))
    assert_same(bj.distribute(*args), oracle.distribute(*args))


@SETTINGS
@given(data=st.data())
def test_the_games_distribution_matches_oracle(data):
    """The game's route: its own card ids and deck for 3, 4 or 5 players."""
    n = data.draw(st.sampled_from([3, 4, 5]))
    d = bj.DECK_INFO[n]
    n, start, t, table, bids, colour, tricks, points = data.draw(rounds(st.just(n), d.max_value))
    ids = {T: [d.deck.card_id(c) for c in lying] for T, lying in table.items()}
    colour_ids = [d.deck.card_id(c) for c in colour]
    got = bj._distribution(d.deck, start, t, ids, bids, colour_ids, tricks, points, d.suit_value_of)
    assert_same(got, oracle.distribute(n, start, t, ids, bids, colour_ids, tricks, points, d.suit_value_of))


def test_rounds_no_game_reaches_are_refused():
    table = {2: ["R4"], 3: ["B2"]}
    args = (3, 1, 6, table, ["2+L", "ZERO", "3"], ["R4", "Y6", "B2"], [2, 0, 4], [0, 0, 0])
    assert bj.distribute(*args).picks == [(0, 2, "R4")]          # BJ-25, as the game reaches it
    with pytest.raises(CoreError):                                # a bid card not at its bid
        bj.distribute(3, 1, 6, {2: ["R4"], 4: ["B2"]}, *args[4:])
    with pytest.raises(CoreError):                                # the ZERO card on the table
        bj.distribute(3, 1, 6, {2: ["R4"], 3: ["B2", "Y6"]}, *args[4:])
    with pytest.raises(CoreError):                                # one card twice
        bj.distribute(3, 1, 6, {2: ["R4"], 3: ["B2"], 5: ["R4"]}, *args[4:])
    with pytest.raises(ValueError):                               # not a number card
        bj.distribute(3, 1, 6, {2: ["R4"], 3: ["B2"], 5: ["R15"]}, *args[4:])
    with pytest.raises(ValueError):                               # a seat short
        bj.distribute(3, 1, 6, table, ["2+L", "ZERO"], ["R4", "Y6"], [2, 0], [0, 0])
