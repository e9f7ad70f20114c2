"""The C core's follow and winner rules on the Squint deck against the pure-Python oracle
(oracle.py, written from squint.md §7), plus contract determination against a second,
independent reading of §5."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.squint import oracle
from trickcore import _core
from trickcore.games import squint as sq
from trickcore.games.squint import DECK

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TRUMPS = st.sampled_from([None, "C", "D", "H", "S"])


def core_trump(t):
    return _core.NO_SUIT if t is None else "CDHS".index(t)


@st.composite
def positions(draw):
    k = draw(st.integers(0, 4))               # cards already in the trick
    hand_size = draw(st.integers(1, 12))
    cards = draw(st.lists(st.integers(0, 51), min_size=k + hand_size, max_size=k + hand_size, unique=True))
    leader = draw(st.integers(0, 4))
    trick = [sq.card_name(c) for c in cards[:k]]
    hand = [sq.card_name(c) for c in cards[k:]]
    return leader, trick, hand, draw(TRUMPS)


@SETTINGS
@given(positions())
def test_follow_rule_matches_oracle(pos):
    leader, trick, hand, trump = pos
    m = sq.mask(sq.card_id(c) for c in hand)
    moves = [sq.card_id(c) for c in trick]
    got = _core.legal_cards(DECK, 5, _core.FOLLOW_SUIT, _core.WIN_TRUMP, core_trump(trump), leader, moves, m)
    assert set(sq.names(got)) == oracle.legal(hand, trick)
    got_moves = _core.legal_moves(DECK, 5, _core.FOLLOW_SUIT, _core.WIN_TRUMP, core_trump(trump), leader, moves, m)
    assert sorted(sq.card_name(x) for x in got_moves) == sorted(oracle.legal(hand, trick))
    assert got_moves == sorted(got_moves)


@SETTINGS
@given(st.lists(st.integers(0, 51), min_size=1, max_size=5, unique=True), st.integers(0, 4), TRUMPS)
def test_winner_rule_matches_oracle(cards, leader, trump):
    trick = [sq.card_name(c) for c in cards]
    res = _core.resolve_trick(DECK, 5, _core.FOLLOW_SUIT, _core.WIN_TRUMP, core_trump(trump), leader,
                              [sq.card_id(c) for c in trick])
    assert res["winner"] == oracle.winner_seat(leader, trick, trump)
    assert res["points"] == 0


# ---- §5 read a second time, as literally as possible ---------------------------------------------
def spec_contract(bids: list[str], dealer: int) -> tuple:
    prio = [(dealer + 1 + i) % 5 for i in range(5)]
    rank = {s: bids[s][0] for s in range(5)}
    suit = {s: bids[s][1] for s in range(5)}
    A = [s for s in prio if rank[s] == "A"]
    Z = [s for s in prio if rank[s] == "2"]
    if A or Z:
        if len(A) + len(Z) == 1:
            return ("ace", A[0]) if A else ("misere", Z[0])
        return ("multiple", tuple(sorted(A)), tuple(sorted(Z)))
    for court in "KQJ":
        holders = [s for s in prio if rank[s] == court]
        if holders:
            return ("grand", holders[0], suit[holders[0]])
    counts = Counter(suit.values())
    shape = sorted(counts.values(), reverse=True)
    of = lambda n: [x for x, c in counts.items() if c == n]  # noqa: E731
    players = lambda x: sorted(s for s in range(5) if suit[s] == x)  # noqa: E731
    if shape == [2, 2, 1]:
        return ("plain", players(of(1)[0])[0], of(1)[0])
    if shape in ([2, 1, 1, 1], [3, 2]):
        return ("duo", tuple(players(of(2)[0])), of(2)[0])
    if shape == [3, 1, 1]:
        return ("null", of(3)[0])
    if shape == [4, 1]:
        return ("choice", players(of(1)[0])[0], of(1)[0], of(4)[0])
    assert shape == [5]
    return ("null", of(5)[0])


def summarise(c: sq.Contract) -> tuple:
    S = "CDHS"
    if c.kind in ("ace", "misere"):
        return (c.kind, c.contractors[0])
    if c.kind == "multiple":
        return ("multiple", tuple(sorted(c.aces)), tuple(sorted(c.deuces)))
    if c.kind in ("grand", "plain"):
        return (c.kind, c.contractors[0], S[c.trump])
    if c.kind == "duo":
        return ("duo", tuple(sorted(c.contractors)), S[c.trump])
    if c.kind == "null":
        return ("null", S[c.penalty])
    return ("choice", c.contractors[0], S[c.solo_trump], S[c.null_penalty])


NUMERALS = [c for c in range(52) if 3 <= sq.card_rank(c) <= 10]


@settings(max_examples=400, deadline=None)
@given(st.data(), st.integers(0, 4), st.booleans())
def test_contract_matches_second_reading(data, dealer, numerals_only):
    pool = st.sampled_from(NUMERALS) if numerals_only else st.integers(0, 51)
    bids = data.draw(st.lists(pool, min_size=5, max_size=5, unique=True))
    c = sq.determine_contract(bids, dealer)
    assert summarise(c) == spec_contract([sq.card_name(b) for b in bids], dealer)
    if c.kind == "duo":  # the higher bid card decides first (D-6)
        a, b = c.contractors
        assert sq.card_rank(bids[a]) > sq.card_rank(bids[b])
    if c.kind == "multiple":
        assert len(c.contractors) >= 2 and c.trump == sq.NO_SUIT


def test_contract_matches_second_reading_seeded_sweep():
    import random
    rng = random.Random(11)
    for i in range(8000):
        bids = rng.sample(NUMERALS if i % 2 else range(52), 5)
        dealer = rng.randrange(5)
        assert summarise(sq.determine_contract(bids, dealer)) == \
            spec_contract([sq.card_name(b) for b in bids], dealer)


def test_every_numeral_pattern_is_reachable():
    seen = Counter()
    import random
    rng = random.Random(5)
    nums = [c for c in range(52) if 3 <= sq.card_rank(c) <= 10]
    for _ in range(3000):
        seen[sq.determine_contract(rng.sample(nums, 5), rng.randrange(5)).pattern] += 1
    assert set(seen) == {"2-2-1", "2-1-1-1", "3-2", "3-1-1", "4-1", "5-0"}
