"""The worked examples SQ-01 .. SQ-24 of docs/rules/squint.md §14, one test each.

Vectors about contract determination, scoring and game end test those functions directly;
flow vectors (squint handling, passing, deal order) drive the engine through its interface."""

from __future__ import annotations

import pytest

from tests.games.squint import oracle
from tests.games.squint.util import bid_all, bids_of, listing, new_state
from trickcore import _core
from trickcore.game import competition_ranks
from trickcore.games import squint as sq
from trickcore.games.squint import (
    DECK,
    Contract,
    card_id,
    determine_contract,
    game_over,
    null_score,
    resolve_choice,
    score_deal,
)

S = {c: i for i, c in enumerate("CDHS")}


def scores(contract, p1, p2, p3, p4, p0, h=1, clean=None):
    return score_deal(contract, listing(p1, p2, p3, p4, p0), clean, h)


def flow_bids(p1, p2, p3, p4, p0):
    """dealer-0 state whose seats hold their bid cards; the bids applied."""
    names = listing(p1, p2, p3, p4, p0)
    st = new_state(0, hands={s: [names[s]] for s in range(5)})
    bid_all(st, dict(enumerate(names)))
    return st


def test_SQ_01_ace_deuce_court_multiple_contract():
    c = determine_contract(bids_of("AS", "KH", "7C", "2D", "9H"), 0)
    assert c.kind == "multiple" and c.aces == (1,) and c.deuces == (4,) and c.trump == sq.NO_SUIT
    assert scores(c, 6, 1, 2, 0, 1) == listing(20, 0, 0, 25, 0)
    assert scores(c, 5, 2, 1, 1, 1) == listing(-20, 0, 0, -25, 0)
    # h is always 1 in a multiple contract, and the squint is dead: play starts at once.
    assert scores(c, 6, 1, 2, 0, 1, h=2) == listing(20, 0, 0, 25, 0)
    st = flow_bids("AS", "KH", "7C", "2D", "9H")
    assert st.decision() == "play" and st.current_player() == 1 and st.mult == 1
    assert st.squint_left == sq.mask(st.squint) and st.squint_log == []


def test_SQ_02_two_aces_and_queen():
    c = determine_contract(bids_of("5S", "AH", "AD", "QS", "3C"), 0)
    assert c.kind == "multiple" and c.aces == (2, 3) and c.deuces == ()
    assert scores(c, 1, 6, 3, 0, 0) == listing(0, 20, -60, 0, 0)


def test_SQ_03_five_contractors():
    c = determine_contract(bids_of("AS", "AH", "2C", "2D", "AD"), 0)
    assert c.kind == "multiple" and set(c.aces) == {1, 2, 0} and set(c.deuces) == {3, 4}
    assert set(c.contractors) == {0, 1, 2, 3, 4}
    assert scores(c, 6, 2, 0, 1, 1) == listing(20, -80, 25, -25, -100)


def test_SQ_04_two_miseres_only():
    c = determine_contract(bids_of("2H", "2S", "6C", "JD", "TD"), 0)
    assert c.kind == "multiple" and c.deuces == (1, 2) and c.aces == ()
    assert scores(c, 0, 3, 4, 2, 1) == listing(25, -75, 0, 0, 0)
    st = flow_bids("2H", "2S", "6C", "JD", "TD")
    assert st.decision() == "play"


def test_SQ_05_single_ace_solo_beats_courts():
    c = determine_contract(bids_of("4H", "JD", "AC", "8S", "KS"), 0)
    assert c == Contract("ace", (3,), aces=(3,))
    st = flow_bids("4H", "JD", "AC", "8S", "KS")
    assert st.decision() == "squint" and st.current_player() == 3
    assert st.legal_action_strings() == ["TAKE", "HAND"]
    assert sq.ace_score(7, 1) == 40
    assert sq.ace_score(7, 2) == 80
    assert sq.ace_score(4, 1) == -40
    assert sq.ace_score(10, 2) == 200
    assert sq.ace_score(0, 1) == -120
    assert scores(c, 0, 0, 7, 0, 3, h=2) == listing(0, 0, 80, 0, 0)


def test_SQ_06_single_misere_beats_king():
    c = determine_contract(bids_of("9D", "3C", "KH", "6S", "2S"), 0)
    assert c == Contract("misere", (0,), deuces=(0,))
    assert scores(c, 3, 3, 2, 2, 0, h=2) == listing(0, 0, 0, 0, 50)
    assert scores(c, 3, 3, 2, 2, 0, h=1) == listing(0, 0, 0, 0, 25)
    assert scores(c, 3, 3, 2, 0, 2, h=1) == listing(0, 0, 0, 0, -50)
    assert scores(c, 3, 3, 2, 1, 1, h=2) == listing(0, 0, 0, 0, -50)
    st = flow_bids("9D", "3C", "KH", "6S", "2S")
    assert st.decision() == "squint" and st.current_player() == 0
    st.apply_action("HAND", seat=0)
    assert st.mult == 2 and st.decision() == "play" and st.current_player() == 1


def test_SQ_07_grand_solo_king_tie():
    c = determine_contract(bids_of("QH", "8S", "KD", "KS", "JC"), 0)
    assert c.kind == "grand" and c.contractors == (3,) and c.trump == S["D"]
    assert sq.grand_score(8, 1) == 45
    assert sq.grand_score(6, 2) == 30
    assert sq.grand_score(4, 1) == -30
    assert sq.grand_score(0, 2) == -180


def test_SQ_08_queen_tie_dealer_relative():
    bids = bids_of("5H", "QS", "7D", "9C", "QH")
    a = determine_contract(bids, 0)
    assert a.kind == "grand" and a.contractors == (2,) and a.trump == S["S"]
    b = determine_contract(bids, 3)
    assert b.kind == "grand" and b.contractors == (0,) and b.trump == S["H"]


def test_SQ_09_court_overrides_numeral_pattern():
    c = determine_contract(bids_of("JS", "3S", "4S", "5S", "6S"), 0)
    assert c.kind == "grand" and c.contractors == (1,) and c.trump == S["S"]


def test_SQ_10_pattern_221_plain_solo():
    c = determine_contract(bids_of("3S", "9S", "4H", "TH", "6C"), 0)
    assert c.kind == "plain" and c.contractors == (0,) and c.trump == S["C"] and c.pattern == "2-2-1"

    def solo(s, p1, p2, p3, p4, h):
        return scores(c, p1, p2, p3, p4, s, h=h)[0]

    assert solo(3, 2, 2, 2, 1, 1) == 10
    assert solo(3, 3, 2, 1, 1, 1) == -15
    assert solo(5, 2, 1, 1, 1, 2) == 60
    assert solo(2, 4, 2, 1, 1, 1) == -20
    assert solo(0, 4, 3, 2, 1, 2) == -40
    assert solo(2, 2, 2, 2, 2, 1) == -10
    assert solo(10, 0, 0, 0, 0, 1) == 80
    assert scores(c, 2, 2, 2, 1, 3) == listing(0, 0, 0, 0, 10)  # opponents score 0


def test_SQ_11_pattern_41_solo_chosen():
    bids = ("3S", "4S", "9H", "7S", "8S")
    c = determine_contract(bids_of(*bids), 0)
    assert c.kind == "choice" and c.contractors == (3,) and c.pattern == "4-1"
    st = flow_bids(*bids)
    assert st.decision() == "choice" and st.current_player() == 3
    assert st.legal_action_strings() == ["SOLO", "NULL"]
    st.apply_action("SOLO", seat=3)
    assert st.contract == Contract("plain", (3,), trump=S["H"], pattern="4-1")
    assert st.decision() == "squint" and st.current_player() == 3
    st.apply_action("TAKE", seat=3)
    assert st.decision() == "discard" and len(st.observation(3)["hand"]) == 12
    assert len(st.legal_actions()) == 66
    assert scores(st.contract, 3, 1, 4, 1, 1) == listing(0, 0, 20, 0, 0)


def test_SQ_12_pattern_41_null_chosen():
    bids = ("3S", "4S", "9H", "7S", "8S")
    st = flow_bids(*bids)
    st.apply_action("NULL", seat=3)
    assert st.contract == Contract("null", (), penalty=S["S"], pattern="4-1")
    assert st.decision() == "pass" and st.current_player() == 1          # eldest, holding 12
    assert len(st.observation(1)["hand"]) == 12
    tricks = (2, 2, 3, 1, 2)
    clean = (1, 2, 2, 0, 0)
    assert scores(st.contract, *tricks, clean=listing(*clean)) == listing(10, 40, 20, 0, 0)
    assert sum(tricks) - sum(clean) == 5


def test_SQ_13_pattern_2111_duo():
    bids = listing("5D", "7S", "8D", "3H", "TC")
    st = new_state(0, hands={s: [bids[s]] for s in range(5)}, squint=("KC", "QH"))
    c = determine_contract([card_id(b) for b in bids], 0)
    assert c.kind == "duo" and c.contractors == (3, 1) and c.trump == S["D"] and c.pattern == "2-1-1-1"
    bid_all(st, dict(enumerate(bids)))
    assert st.decision() == "squint" and st.current_player() == 3
    st.apply_action("TAKE", seat=3)
    obs3 = st.observation(3)
    assert obs3["squint_cards"] == ["QH"] and len(obs3["hand"]) == 11      # the top card
    assert st.decision() == "discard" and len(st.legal_actions()) == 11
    st.apply_action("QH", seat=3)
    assert st.decision() == "squint" and st.current_player() == 1
    assert st.observation(1)["squint_decisions"] == [{"seat": 3, "choice": "TAKE"}]
    st.apply_action("TAKE", seat=1)
    assert st.observation(1)["squint_cards"] == ["KC"]                      # the bottom card
    assert st.observation(1)["squint_cards"] != st.observation(3)["squint_cards"]
    st.apply_action(st.legal_actions()[0], seat=1)
    assert st.decision() == "play" and st.mult == 1 and st.current_player() == 1
    assert all(len(st.observation(s)["hand"]) == 10 for s in range(5))
    assert scores(c, 2, 0, 5, 1, 2) == listing(20, 0, 20, 0, 0)


def test_SQ_14_pattern_32_duo():
    bids = ("4C", "6H", "9H", "TC", "5C")
    c = determine_contract(bids_of(*bids), 0)
    assert c.kind == "duo" and c.contractors == (3, 2) and c.trump == S["H"] and c.pattern == "3-2"
    st = flow_bids(*bids)
    assert st.current_player() == 3
    st.apply_action("HAND", seat=3)
    st.apply_action("HAND", seat=2)
    assert st.mult == 2 and st.decision() == "play"
    assert scores(c, 0, 3, 3, 2, 2, h=2) == listing(0, 20, 20, 0, 0)
    assert scores(c, 3, 2, 2, 2, 1, h=2) == listing(0, -40, -40, 0, 0)
    assert scores(c, 0, 4, 6, 0, 0, h=2) == listing(0, 100, 100, 0, 0)


def test_SQ_15_pattern_311_null():
    c = determine_contract(bids_of("3D", "5D", "9S", "7D", "4H"), 0)
    assert c.kind == "null" and c.penalty == S["D"] and c.trump == sq.NO_SUIT and c.pattern == "3-1-1"
    tricks, clean = (3, 4, 0, 2, 1), (3, 2, 0, 0, 1)
    assert scores(c, *tricks, clean=listing(*clean)) == listing(60, 20, 0, 0, 20)
    assert sum(tricks) - sum(clean) == 4


def test_SQ_16_pattern_50_null():
    c = determine_contract(bids_of("3H", "5H", "8H", "TH", "9H"), 0)
    assert c.kind == "null" and c.penalty == S["H"] and c.pattern == "5-0"
    assert scores(c, 5, 0, 1, 2, 2, clean=listing(3, 0, 0, 1, 2)) == listing(30, 0, 0, 10, 40)
    assert [null_score(t, k) for t, k in ((5, 3), (0, 0), (1, 0), (2, 1), (2, 2))] == [30, 0, 0, 10, 40]


def test_SQ_17_null_squint_chain():
    hands = {1: ["3D", "AD"], 2: ["5D", "QC"], 3: ["9S", "9D", "8D"], 4: ["7D", "JC", "2H"], 0: ["5H", "QD"]}
    st = new_state(0, hands=hands, squint=("KS", "4H"))
    bid_all(st, {1: "3D", 2: "5D", 3: "9S", 4: "7D", 0: "5H"})
    assert st.contract.kind == "null" and st.contract.penalty == S["D"]
    o1 = st.observation(1)
    assert len(o1["hand"]) == 12 and sorted(o1["squint_cards"]) == ["4H", "KS"]
    assert st.observation(2)["squint_cards"] is None
    st.apply_action("KS+AD", seat=1)
    o2 = st.observation(2)
    assert sorted(o2["received"]) == ["AD", "KS"] and len(o2["hand"]) == 12
    assert o2["squint_cards"] is None             # P2 does not learn where KS came from
    assert st.observation(3)["received"] is None  # P3 sees only that a pass happened
    assert st.observation(3)["passes"] == [{"seat": 1, "to": 2}]
    st.apply_action("AD+QC", seat=2)
    st.apply_action("9D+8D", seat=3)
    st.apply_action("JC+2H", seat=4)
    assert st.decision() == "discard" and st.current_player() == 0 and len(st.legal_actions()) == 66
    st.apply_action("QD+JC", seat=0)  # passing on / discarding a card just received is legal
    for s in range(5):
        obs = st.observation(s)
        assert obs["null_discards"] == ["JC", "QD"]
        assert len(obs["hand"]) == 10 and obs["hand_sizes"] == [10] * 5
        assert "QD" not in obs["hand"] and "JC" not in obs["hand"]
    assert st.decision() == "play" and st.current_player() == 1
    while st.decision() == "play" and st.deal_no == 0:
        st.apply_action(st.legal_actions()[0])
    cards = {sq.card_name(m) for t in st._tp.tricks for m in t[1]}
    assert "QD" not in cards and "JC" not in cards and len(cards) == 50  # they belong to no trick
    assert st.results[0]["null_discards"] == ["JC", "QD"]


def test_SQ_18_trick_with_trumps():
    trick = ["9S", "KS", "3H", "AS", "2H"]
    res = _core.resolve_trick(DECK, 5, _core.FOLLOW_SUIT, _core.WIN_TRUMP, S["H"], 2,
                              [card_id(c) for c in trick])
    assert res["winner"] == 4 and res["next_leader"] == 4
    assert oracle.winner_seat(2, trick, "H") == 4


def test_SQ_19_trick_without_trumps():
    trick = ["5D", "KC", "7D", "AH", "6D"]
    res = _core.resolve_trick(DECK, 5, _core.FOLLOW_SUIT, _core.WIN_TRUMP, _core.NO_SUIT, 1,
                              [card_id(c) for c in trick])
    assert res["winner"] == 3
    assert oracle.winner_seat(1, trick, None) == 3


def test_SQ_20_trump_lead():
    trick = ["QS", "4S", "AD", "KS", "2S"]
    res = _core.resolve_trick(DECK, 5, _core.FOLLOW_SUIT, _core.WIN_TRUMP, S["S"], 3,
                              [card_id(c) for c in trick])
    assert res["winner"] == 1
    assert oracle.winner_seat(3, trick, "S") == 1


def test_SQ_21_legal_plays():
    hand = ["KS", "4S", "9H", "5H", "JH", "AD", "TD", "3D", "6D", "8D"]
    m = sq.mask(card_id(c) for c in hand)

    def legal(led):
        moves = [card_id(led)] if led else []
        got = _core.legal_cards(DECK, 5, _core.FOLLOW_SUIT, _core.WIN_TRUMP, S["H"], 1, moves, m)
        assert set(sq.names(got)) == oracle.legal(hand, [led] if led else [])
        return set(sq.names(got))

    assert legal(None) == set(hand)
    assert legal("7S") == {"KS", "4S"}
    assert legal("8H") == {"9H", "5H", "JH"}
    assert legal("3C") == set(hand)


def test_SQ_22_deal_order_and_rotation():
    order = list(range(52))
    hands, squint = sq.deal_hands(order, 3)
    assert hands[4] >> 0 & 1 and hands[0] >> 1 & 1 and hands[1] >> 2 & 1 and hands[2] >> 3 & 1
    assert hands[3] >> 4 & 1 and hands[3] >> 49 & 1
    assert squint == (50, 51)
    for k in range(50):
        assert hands[(4 + k) % 5] >> order[k] & 1
    assert all(bin(h).count("1") == 10 for h in hands)
    # Through the engine: eldest P4 bids first and leads the first trick; P4 deals next.
    st = new_state(3, hands={4: ["AS"], 0: ["AH"]}, options={"deal_limit": 2})
    assert st.current_player() == 4 and st.decision() == "bid"
    assert st.squint == (st.order[50], st.order[51])
    bid_all(st, {4: "AS", 0: "AH", 1: sq.card_name(sq.cards_of(st.hands[1])[0]),
                 2: sq.card_name(sq.cards_of(st.hands[2])[0]), 3: sq.card_name(sq.cards_of(st.hands[3])[0])})
    assert st.decision() == "play" and st.current_player() == 4
    while st.deal_no == 0:
        st.apply_action(st.legal_actions()[0])
    assert st.dealer == 4 and st.eldest == 0 and st.current_player() == 0


def test_SQ_23_game_end():
    totals = listing(148, 155, 160, 20, -30)
    assert game_over(totals, 7, 150, 0, 200)
    assert competition_ranks(totals) == listing(3, 2, 1, 4, 5)
    tied = listing(100, 160, 160, 20, -30)
    assert game_over(tied, 3, 150, 0, 200)
    assert competition_ranks(tied) == listing(3, 1, 1, 4, 5)
    at10 = listing(90, 120, 75, 120, -10)
    assert not game_over(at10, 9, 150, 10, 200)
    assert game_over(at10, 10, 150, 10, 200)
    assert competition_ranks(at10) == listing(3, 1, 4, 1, 5)
    assert not game_over(listing(149, 0, 0, 0, 0), 5, 150, 0, 200)   # checked with >=
    assert not game_over(listing(500, 0, 0, 0, 0), 5, 0, 0, 200)     # target disabled
    assert game_over(listing(0, 0, 0, 0, 0), 200, 0, 0, 200)         # safeguard


@pytest.mark.parametrize("both_hand", [False, True])
def test_SQ_24_duo_mixed_squint_decisions(both_hand):
    bids = listing("TH", "5S", "8D", "3H", "9C")
    st = new_state(0, hands={s: [bids[s]] for s in range(5)}, squint=("KC", "QH"))
    bid_all(st, dict(enumerate(bids)))
    assert st.contract.kind == "duo" and st.contract.contractors == (1, 4) and st.contract.trump == S["H"]
    st.apply_action("HAND", seat=1)
    if both_hand:
        st.apply_action("HAND", seat=4)
        assert st.mult == 2
    else:
        st.apply_action("TAKE", seat=4)
        assert st.observation(4)["squint_cards"] == ["KC"]  # the bottom card
        st.apply_action(st.legal_actions()[0], seat=4)
        assert st.mult == 1
        assert st.squint_left == sq.mask([card_id("QH")])  # the top card stays out, unseen
        assert all("QH" not in st.observation(s)["hand"] for s in range(5))
    assert st.decision() == "play"
    expected = -20 if both_hand else -10
    assert scores(st.contract, 3, 1, 2, 2, 2, h=st.mult) == listing(expected, 0, 0, expected, 0)


def test_resolve_choice_rejects_other_contracts():
    with pytest.raises(ValueError):
        resolve_choice(Contract("null", (), penalty=0), "SOLO")
