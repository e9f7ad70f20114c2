"""Perft: the number of legal play sequences to the end of the trick phase from fixed
positions, and scored perft (per-seat sums of tricks and card points over all leaves).

Each position is counted three ways: by the C core (tc_perft), by a Python recursion
over the binding's TrickPhase (one C call per move), and by a recursion over the
pure-Python oracle.  The counts are pinned; on a mismatch the per-first-move split
("divide") is printed."""

from __future__ import annotations

import pytest

from tests.core import oracle
from tests.core.decks import hattrick_deck, jupiter_deck, klaberjass_deck, mask, plain52, sticheln_deck
from trickcore import _core


def oracle_perft(rule, n, hands, leader, trump, tricks_left, trick=None, won=None, pts=None, stats=None):
    """Plain recursion over the oracle; returns the leaf count and fills stats."""
    trick = trick or []
    won = won or [0] * n
    pts = pts or [0] * n
    if tricks_left == 0:
        stats["leaves"] += 1
        for p in range(n):
            stats["tricks"][p] += won[p]
            stats["points"][p] += pts[p]
        return 1
    seat = (leader + len(trick)) % n
    hand = hands[seat]
    if rule == "suit":
        legal = oracle.legal_follow_suit(hand, trick, trump)
    elif rule == "overtrump":
        legal = oracle.legal_overtrump(hand, trick, trump)
    else:
        legal = oracle.legal_free(hand)
    total = 0
    for move in oracle.moves(legal):
        card = next(c for c in hand if c.id == move & 127)
        new_hands = list(hands)
        new_hands[seat] = hand - {card}
        new_trick = trick + [(card, move >> 7)]
        if len(new_trick) < n:
            total += oracle_perft(rule, n, new_hands, leader, trump, tricks_left, new_trick, won, pts, stats)
            continue
        new_won, new_pts = list(won), list(pts)
        if rule == "double":
            piles, winners, nxt = oracle.double_trick(new_trick)
            for w in winners:
                new_won[(leader + w) % n] += 1
            next_leader = (leader + nxt) % n
        else:
            if rule in ("offlead", "offlead_low"):
                w = oracle.winner_offlead(new_trick, rule == "offlead_low")
            else:
                w = oracle.winner_trump(new_trick, trump)
            next_leader = (leader + w) % n
            new_won[next_leader] += 1
            new_pts[next_leader] += sum(c.points for c, _ in new_trick)
        total += oracle_perft(rule, n, new_hands, next_leader, trump, tricks_left - 1, None, new_won, new_pts, stats)
    return total


def binding_perft(tp) -> int:
    """Recursion through the Python binding: one TrickPhase copy and play per move."""
    if tp.over:
        return 1
    total = 0
    for m in tp.moves():
        child = tp.copy()
        child.play(m)
        total += binding_perft(child)
    return total


RULES = {
    "suit": (_core.FOLLOW_SUIT, _core.WIN_TRUMP),
    "overtrump": (_core.FOLLOW_OVERTRUMP, _core.WIN_TRUMP),
    "offlead": (_core.FOLLOW_FREE, _core.WIN_OFFLEAD_HIGH),
    "offlead_low": (_core.FOLLOW_FREE, _core.WIN_OFFLEAD_LOW),
    "double": (_core.FOLLOW_DOUBLE, _core.WIN_DOUBLE),
}

# id, deck, rule, trump, leader, hands (card names), tricks, pinned (count, tricks per seat, points per seat)
POSITIONS = [
    ("plain-4x3-trumpH", plain52, "suit", 2, 0,
     [["AS", "KH", "2C"], ["QS", "3H", "4D"], ["5S", "TC", "AH"], ["2S", "9D", "JH"]], 3, None),
    ("jupiter-4x3-gods-lambs", jupiter_deck, "suit", 1, 1,
     [["Bgod", "B3", "LAMB1"], ["JUP", "R5", "B9"], ["Rgod", "LAMB2", "Y4"], ["JUNO", "B1", "G7"]], 3, None),
    ("jupiter-3x4-notrump", lambda: jupiter_deck(8, 2), "suit", None, 0,
     [["Bgod", "B3", "LAMB1", "JUP"], ["R5", "B8", "Rgod", "G2"], ["JUNO", "LAMB2", "Y4", "B1"]], 4, None),
    ("klaberjass-3x3-trumpC", klaberjass_deck, "overtrump", 0, 2,
     [["JC", "AH", "7D"], ["9C", "TH", "8C"], ["AC", "QC", "KH"]], 3, None),
    ("klaberjass-4x3-trumpS", klaberjass_deck, "overtrump", 3, 0,
     [["JS", "AD", "7H"], ["9S", "TD", "8S"], ["AS", "QD", "KH"], ["7S", "KD", "TH"]], 3, None),
    ("sticheln-4x3", sticheln_deck, "offlead", None, 3,
     [["R0", "B7", "V18"], ["R5", "G7", "Y0"], ["B20", "N3", "R7"], ["G0", "Y7", "V3"]], 3, None),
    ("sticheln-verkehrt-4x3", sticheln_deck, "offlead_low", None, 3,
     [["R0", "B7", "V18"], ["R5", "G7", "Y0"], ["B20", "N3", "R7"], ["G0", "Y7", "V3"]], 3, None),
    ("hattrick-4x3", hattrick_deck, "double", None, 0,
     [["R20", "B3", "G7"], ["R5", "G19", "B11"], ["B20", "R7", "G1"], ["G20", "R19", "B2"]], 2, None),
]



def setup_position(deck_fn, hands_names, rule, trump, leader, tricks):
    deck, cards = deck_fn()
    by_name = {deck.name(c.id): c for c in cards}
    hands = [{by_name[name] for name in names} for names in hands_names]
    follow, winner = RULES[rule]
    tp = _core.TrickPhase(deck, len(hands), follow, winner, _core.NO_SUIT if trump is None else trump,
                          [mask(h) for h in hands], leader, tricks)
    return deck, hands, tp


@pytest.mark.parametrize("pos", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_perft_three_ways(pos, request):
    pid, deck_fn, rule, trump, leader, hands_names, tricks, _ = pos
    deck, hands, tp = setup_position(deck_fn, hands_names, rule, trump, leader, tricks)
    count, leaves, c_tricks, c_points = tp.perft()
    stats = {"leaves": 0, "tricks": [0] * len(hands), "points": [0] * len(hands)}
    expected = oracle_perft(rule, len(hands), hands, leader, trump, tricks, stats=stats)
    if count != expected:
        print(f"{pid}: divide (C core):")
        for move, sub in sorted(tp.divide().items()):
            print(f"  {deck.move_text(move)}: {sub}")
    assert count == expected == leaves
    assert binding_perft(tp) == count
    assert c_tricks == stats["tricks"], "scored perft: tricks per seat"
    assert c_points == stats["points"], "scored perft: points per seat"
    assert (count, c_tricks, c_points) == FROZEN[pid]
    if rule != "double":
        assert sum(c_tricks) == count * tricks, "every leaf has exactly `tricks` tricks"


def test_perft_pinned_table():
    """Frozen numbers: any change in legal-move generation or trick resolution moves one."""
    got = {}
    for pid, deck_fn, rule, trump, leader, hands_names, tricks, _ in POSITIONS:
        _, _, tp = setup_position(deck_fn, hands_names, rule, trump, leader, tricks)
        count, _, t, p = tp.perft()
        got[pid] = (count, t, p)
    assert got == FROZEN


# Taken from the oracle recursion, then frozen (aesthetics.md "perft for card games").
FROZEN = {
    "plain-4x3-trumpH": (58, [40, 23, 78, 33], [0, 0, 0, 0]),
    "jupiter-4x3-gods-lambs": (884, [100, 1601, 363, 588], [1300, 15434, 4338, 4564]),
    "jupiter-3x4-notrump": (13056, [15420, 22440, 14364], [82148, 151260, 66880]),
    "klaberjass-3x3-trumpC": (16, [32, 8, 8], [544, 56, 56]),
    "klaberjass-4x3-trumpS": (12, [24, 12, 0, 0], [492, 168, 0, 0]),
    "sticheln-4x3": (1296, [1249, 628, 1536, 475], [0, 0, 0, 0]),
    "sticheln-verkehrt-4x3": (1296, [488, 897, 1575, 928], [0, 0, 0, 0]),
    "hattrick-4x3": (1296, [1512, 1271, 1128, 1177], [0, 0, 0, 0]),
}


def test_free_play_closed_form():
    """Under free play one full trick counts the product of the hand sizes (aesthetics.md)."""
    deck, cards = sticheln_deck()
    hands = [{cards[i], cards[i + 30], cards[i + 60]} for i in range(4)]
    tp = _core.TrickPhase(deck, 4, _core.FOLLOW_FREE, _core.WIN_OFFLEAD_HIGH, _core.NO_SUIT,
                          [mask(h) for h in hands], 0, 3)
    assert tp.perft(4)[0] == 3 ** 4
    assert tp.perft()[0] == (3 * 2 * 1) ** 4


def test_depth_limited_perft_and_divide():
    _, _, tp = setup_position(plain52, POSITIONS[0][5], "suit", 2, 0, 3)
    split = tp.divide(2)
    assert sum(split.values()) == tp.perft(2)[0]
    assert tp.perft(0)[0] == 1
