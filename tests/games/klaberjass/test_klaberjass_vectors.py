"""The worked examples KJ-01..KJ-33 of docs/rules/klaberjass.md §13 that are not about single
tricks (those are in test_klaberjass_tricks.py): deck totals, trump selection, exchange, melds,
Belle, Kontra/Re, scoring, dice and the next dealer."""

from __future__ import annotations

import pytest

import trickcore
from trickcore.game import competition_ranks
from trickcore.games import klaberjass as kj
from trickcore.games.klaberjass import HALBER, TERZ, Meld

from .helpers import C, cards, make_order, new_state, play

S = kj.SUITS.index


def first_legal_to_end_of_deal(state):
    deal = state.deal_no
    while state.deal_no == deal and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])


def to_play(state):
    """Everybody passes melds and doublings."""
    while state.decision() in ("meld", "kontra", "re"):
        play(state, "pass")


# ---- KJ-01 --------------------------------------------------------------------------------------
def test_KJ_01_card_point_totals():
    h = S("H")
    assert sum(kj.card_points(C(r + "H"), h) for r in "789TJQKA") == 62
    for s in "CSD":
        assert sum(kj.card_points(C(r + s), h) for r in "789TJQKA") == 30
    assert sum(kj.card_points(c, h) for c in range(32)) == 152
    # a whole 4-player deal without melds or Belle: 152 card points, 162 with the last trick
    for seed in range(20):
        st = trickcore.new_game("klaberjass", 4, {"first_dealer": 0}, seed)
        first_legal_to_end_of_deal(st)
        r = st.results[-1]
        if r.get("throw_in"):
            continue
        assert sum(r["card_points"]) == 152
        assert sum(r["card_points"]) + sum(r["last_trick"]) == 162


# ---- trump selection ---------------------------------------------------------------------------
def test_KJ_02_orgi_taken():
    st = new_state(4, 0, make_order(4, {}, 0, turned="QS"))
    assert st.current_player() == 1 and st.decision() == "take"
    play(st, "pass", "take")
    assert st.trump == S("S") and st.declarer == 2
    assert st.observation(0)["trump_side"] == [0, 2]
    assert [(s, c) for _r, s, c in st.calls] == [(1, "pass"), (2, "take")]   # 3 and 0 not asked
    assert st.hands[0] >> C("QS") & 1           # the dealer took the turned card
    assert "QS" in st.observation(0)["hand"] and len(st.observation(0)["hand"]) == 8
    assert st.decision() == "meld"
    to_play(st)
    assert st.decision() == "play" and st.current_player() == 1


def test_KJ_03_kleines_beaten_by_besser():
    st = new_state(4, 0, make_order(4, {}, 0, turned="9H"))
    play(st, "pass", "pass", "pass", "pass")       # State A: 1 2 3 0
    assert st.decision() == "kleines" and st.current_player() == 1
    play(st, "pass", "kleines")                     # State B: 1 PASS, 2 KLEINES
    assert st.decision() == "besser"
    asked = []
    for call in ("pass", "besser"):
        asked.append(st.current_player())
        play(st, call)
    assert asked == [1, 3]
    assert st.trump == S("C") and st.declarer == 3 and st.kleines == 2
    assert st.observation(0)["trump_side"] == [1, 3]
    assert [c[1] for c in st.calls if c[0] == "besser"] == [1, 3]    # seat 0 not asked
    assert all(c[0] != "name" for c in st.calls)                    # no suit of seat 2 is ever named


def test_KJ_04_kleines_stands_and_names_clubs():
    st = new_state(4, 0, make_order(4, {}, 0, turned="8S"))
    play(st, "pass", "pass", "pass", "pass", "kleines")
    asked = []
    for _ in range(3):
        asked.append(st.current_player())
        play(st, "pass")
    assert asked == [2, 3, 0]
    assert st.decision() == "trump" and st.current_player() == 1
    assert st.legal_action_strings() == ["C", "D", "H"]
    before = st.to_record()
    with pytest.raises(trickcore.IllegalActionError):
        st.apply_action("spades")
    assert st.to_record() == before
    play(st, "clubs")
    assert st.trump == S("C") and st.declarer == 1
    assert st.observation(2)["trump_side"] == [1, 3]


def test_KJ_05_turned_card_is_a_club():
    st = new_state(4, 2, make_order(4, {}, 2, turned="TC"))
    assert st.forehand == 3
    play(st, "pass", "pass", "pass", "pass")
    assert st.current_player() == 3
    play(st, "pass", "pass", "kleines")            # 3, 0 pass, 1 kleines
    assert st.decision() == "trump" and st.current_player() == 1   # no besser round
    assert st.legal_action_strings() == ["D", "H", "S"]
    play(st, "diamonds")
    assert st.trump == S("D") and st.declarer == 1
    assert st.observation(1)["trump_side"] == [1, 3]


def test_KJ_06_throw_in():
    st = new_state(4, 0, make_order(4, {}, 0, turned="7C"))
    hands = list(st.hands)
    play(st, *["pass"] * 8)
    assert st.deal_no == 1 and st.dealer == 0 and st.dice == [0, 0]
    assert st.results[-1]["throw_in"] and st.decision() == "take" and st.current_player() == 1
    assert st.hands != hands                    # shuffled and dealt again
    assert st.calls == []


# ---- 2 and 3 players: pick-up and the exchange of the 7 ------------------------------------------
def test_KJ_07_two_players_besser_then_exchanging_a_non_trump_7():
    order = make_order(2, {}, 0, turned="JD", packets={1: "7D 8C 9C"})
    st = new_state(2, 0, order)
    assert st.current_player() == 1
    assert st.observation(1)["packet"] == 3 and "7D" not in st.observation(1)["hand"]
    play(st, "pass", "pass", "kleines", "besser")
    assert st.trump == S("C") and st.declarer == 0
    assert len(st.observation(0)["hand"]) == 9 and len(st.observation(1)["hand"]) == 9
    assert st.decision() == "exchange" and st.current_player() == 1
    play(st, "exchange")
    h = st.observation(1)["hand"]
    assert "JD" in h and "7D" not in h
    assert kj.card_points(C("JD"), st.trump) == 2
    for seat in (0, 1):
        o = st.observation(seat)
        assert o["stack_top"] == "7D" and o["exchange"] == {"seat": 1, "exchanged": True, "seven": "7D"}


def test_exchange_is_offered_only_if_the_7_is_held():
    # the 7 of the turned suit is dead in the stack: no exchange decision
    st = new_state(3, 0, make_order(3, {}, 0, turned="KH", stack="7H AD TC 8H"))
    play(st, "take")
    assert st.decision() == "meld"
    # the turned card is itself the 7
    st = new_state(2, 0, make_order(2, {}, 0, turned="7S"))
    play(st, "take")
    assert st.decision() == "meld"
    # 4 players never exchange
    st = new_state(4, 0, make_order(4, {1: "7H"}, 0, turned="KH"))
    play(st, "take")
    assert st.decision() == "meld"


KJ27_HANDS = {1: "7H 9C JC QC KC 7D 9S JS AS", 2: "8D 9D TD QD AC 8S TS QS TH",
              0: "7C 8C 9H JD KD JH QH AH KS"}


def test_KJ_27_a_three_player_deal():
    order = make_order(3, KJ27_HANDS, 0, turned="KH", stack="AD TC 7S 8H")
    st = new_state(3, 0, order)
    assert st.forehand == 1 and st._seats == [1, 2, 0]
    play(st, "pass", "pass", "pass")                 # State A
    play(st, "pass", "kleines")                      # State B: 1 PASS, 2 KLEINES
    asked = []
    for _ in range(2):
        asked.append(st.current_player())
        play(st, "pass")
    assert asked == [1, 0]
    assert st.current_player() == 2 and st.legal_action_strings() == ["C", "D", "S"]
    play(st, "spades")
    assert st.current_player() == 1 and st.decision() == "exchange"
    play(st, "exchange")
    assert "KH" in st.observation(1)["hand"] and st.observation(0)["stack_top"] == "7H"
    dead = cards("7H AD TC 7S 8H")
    trump = S("S")
    assert sum(kj.card_points(c, trump) for c in dead) == 21
    in_hands = [c for s in range(3) for c in kj.bits(st.hands[s])]
    assert sum(kj.card_points(c, trump) for c in in_hands) == 131
    play(st, "declare", "declare", "pass")           # melds: 1, 2 declare; 0 passes
    assert st.declared[1] == [Meld(TERZ, kj.RK, S("C"))]
    assert st.declared[2] == [Meld(TERZ, kj.RT, S("D"))]
    assert st.best[0] == 1 and st.meld_pts == [0, 20, 0]
    # the vector's card points: seat 0 23, seat 1 50, seat 2 the rest (58); seat 2 wins the last trick
    in_play = kj.mask_of(in_hands)
    won0, won1 = kj.mask_of(cards("AH TH JD")), kj.mask_of(cards("JS 9S TS KS JC"))
    won = [won0, won1, in_play & ~won0 & ~won1]
    r = kj.side_points(3, won, trump, 2, st.meld_pts, None)
    assert r["card_points"] == [23, 50, 58]
    assert r["points"] == [23, 70, 68]
    success, steps = kj.deal_steps(3, 2, r["points"], 1)
    assert not success and steps == [1, 1, 0]      # seat 0 gains although he scored least
    assert kj.next_dealer(3, 0, steps) == 1


def test_KJ_29_two_player_deal_and_next_dealer():
    dead = "AC TC KC 7H 8H 9H 7S 8S 9S 7C 8C 9C JC"   # 13 face-down dead cards, 27 points
    order = make_order(2, {0: "7D AS TS KS QS JS"}, 0, turned="JD", stack=dead)
    st = new_state(2, 0, order)
    play(st, "take")
    assert st.trump == S("D") and st.declarer == 1
    assert st.decision() == "exchange" and st.current_player() == 0
    play(st, "exchange")
    assert "JD" in st.observation(0)["hand"] and st.observation(1)["stack_top"] == "7D"
    trump = S("D")
    stack = st.stack
    assert stack[0] == C("7D")
    assert sum(kj.card_points(c, trump) for c in stack) == 27
    held = [c for s in range(2) for c in kj.bits(st.hands[s])]
    assert sum(kj.card_points(c, trump) for c in held) == 125
    success, steps = kj.deal_steps(2, 1, [71, 64], 1)
    assert not success and steps == [2, 0]
    assert kj.next_dealer(2, 0, steps) == 0
    assert kj.advance_dice([0, 0], steps) == [2, 0]
    # with Kontra (seat 0) and Re (seat 1)
    play(st, "pass", "pass", "kontra", "re")
    assert st.mult == 4 and st.decision() == "play"
    success, steps = kj.deal_steps(2, 1, [71, 64], 4)
    assert steps == [8, 0] and kj.advance_dice([0, 0], steps) == [6, 0]


# ---- melds ------------------------------------------------------------------------------------
def melds_of(text: str) -> list[Meld]:
    return kj.decompose_melds(kj.mask_of(cards(text)))


def test_KJ_18_meld_decomposition():
    a = melds_of("7H 8H 9H TH JH QH KH AS")
    assert a == [Meld(HALBER, kj.RK, S("H")), Meld(TERZ, kj.R9, S("H"))]
    assert sum(m.value for m in a) == 70 and a[0].cards == cards("TH JH QH KH")
    b = melds_of("8S 9S TS JS QS 7D 8D AC")
    assert b == [Meld(HALBER, kj.RQ, S("S"))] and b[0].cards == cards("9S TS JS QS")
    c = melds_of("QC KC AC 7H 8H 9H TD JD QD")
    assert sorted(c) == sorted([Meld(TERZ, kj.RA, S("C")), Meld(TERZ, kj.R9, S("H")), Meld(TERZ, kj.RQ, S("D"))])
    assert sum(m.value for m in c) == 60 and c[0] == Meld(TERZ, kj.RA, S("C"))
    # runs of 8, 6, and no wrap-around
    assert melds_of("7C 8C 9C TC JC QC KC AC") == [Meld(HALBER, kj.RA, 0), Meld(HALBER, kj.RT, 0)]
    assert melds_of("7C 8C 9C TC JC QC") == [Meld(HALBER, kj.RQ, 0)]
    assert melds_of("AC 7C 8C") == []


def test_KJ_19_halber_beats_two_terze():
    declared = {1: [Meld(TERZ, kj.RA, S("S")), Meld(TERZ, kj.RT, S("D"))], 2: [Meld(HALBER, kj.RT, S("C"))],
                0: [Meld(TERZ, kj.RK, S("H"))]}
    assert kj.best_meld(declared, S("H"), 4, 0) == (2, Meld(HALBER, kj.RT, S("C")))
    assert kj.meld_points(declared, S("H"), 4, 0) == [70, 0]


def test_KJ_20_higher_top_card_decides():
    declared = {0: [Meld(TERZ, kj.RK, S("D"))], 3: [Meld(TERZ, kj.RA, S("S"))]}
    assert kj.best_meld(declared, S("H"), 4, 0)[0] == 3
    assert kj.meld_points(declared, S("H"), 4, 0) == [0, 20]


def test_KJ_21_trump_suit_decides():
    declared = {1: [Meld(TERZ, kj.RJ, S("H"))], 2: [Meld(TERZ, kj.RJ, S("C"))]}
    assert kj.best_meld(declared, S("C"), 4, 0)[0] == 2
    assert kj.meld_points(declared, S("C"), 4, 0) == [20, 0]


def test_KJ_22_seat_order_decides():
    declared = {2: [Meld(TERZ, kj.RQ, S("H"))], 3: [Meld(TERZ, kj.RQ, S("S"))]}
    assert kj.meld_points(declared, S("D"), 4, 0) == [20, 0]
    assert kj.meld_points(declared, S("D"), 4, 2) == [0, 20]


def test_KJ_31_three_players_only_one_players_melds_count():
    declared = {1: [Meld(TERZ, kj.RT, S("H")), Meld(TERZ, kj.RK, S("D"))], 2: [Meld(HALBER, kj.RT, S("C"))],
                0: [Meld(TERZ, kj.RA, S("S"))]}
    assert kj.meld_points(declared, S("S"), 3, 0) == [0, 0, 50]


def test_KJ_32_an_undeclared_meld_neither_scores_nor_competes():
    order = make_order(4, {1: "JS QS KS AS 7C 9C JH TD", 2: "7D 8D 9D JC KC AH 9S 7S"},
                       0, turned="KH")
    st = new_state(4, 0, order)
    play(st, "take")
    assert st.trump == S("H")
    assert st.current_player() == 1 and st.legal_action_strings() == ["pass", "declare"]
    play(st, "pass")
    assert st.legal_action_strings() == ["pass", "declare"]
    play(st, "declare")
    while st.decision() == "meld":
        play(st, "pass")
    assert st.best == (2, Meld(TERZ, kj.R9, S("D")))
    assert st.meld_pts == [20, 0]
    o = st.observation(3)
    assert o["melds"][0] == {"seat": 1, "declared": False, "melds": []}
    assert o["melds"][1]["melds"][0]["cards"] == ["7D", "8D", "9D"]


def test_meld_pass_only_without_melds_and_all_players_asked():
    order = make_order(4, {1: "7C 9C JC KC 7D 9D JD KD", 2: "7H 9H JH KH 7S 9S JS KS",
                           3: "8C TC QC AC 8D TD QD AD"}, 0, turned="AH")
    st = new_state(4, 0, order)
    play(st, "take")
    asked = []
    while st.decision() == "meld":
        asked.append((st.current_player(), st.legal_action_strings()))
        play(st, "pass")
    assert [a[0] for a in asked] == [1, 2, 3, 0]
    assert asked[0][1] == ["pass"] and asked[1][1] == ["pass"] and asked[2][1] == ["pass"]


# ---- Belle ----------------------------------------------------------------------------------
def belle_state():
    order = make_order(4, {1: "AH 7C 8C 9C 7S 8S 9S JD", 2: "KH QH 7D 8D TC QC KS TS",
                           3: "JH 9H 7H TH AS AD JC AC"}, 0, turned="8H")
    st = new_state(4, 0, order)
    play(st, "take")        # seat 1 takes: trump hearts
    to_play(st)
    return st


def test_KJ_23_belle_while_following():
    st = belle_state()
    assert st.current_player() == 1 and not st._fast
    play(st, "AH")
    assert st.current_player() == 2
    assert st.legal_action_strings() == ["QH", "KH", "QH+belle", "KH+belle"]
    play(st, "QH+belle")
    assert st.belle == (2, C("QH")) and st._fast
    assert st.observation(0)["belle"] == {"seat": 2, "card": "QH"}
    # the rest of the deal: KH later brings nothing more
    while st.deal_no == 0:
        acts = st.legal_action_strings()
        assert not any(a.endswith("+belle") for a in acts)
        play(st, acts[0])
    assert st.results[0]["belle"] == [20, 0]


def test_KJ_23_belle_missed_is_lost():
    st = belle_state()
    play(st, "AH", "QH")
    assert st.belle is None and st._belle_holder is None and st._fast
    while st.deal_no == 0:
        acts = st.legal_action_strings()
        assert not any(a.endswith("+belle") for a in acts)
        play(st, acts[0])
    assert st.results[0]["belle"] == [0, 0]


def test_belle_when_leading_and_not_offered_with_other_cards():
    order = make_order(4, {1: "KH QH 7C 8C 9S 7D 8D JS"}, 0, turned="8H")
    st = new_state(4, 0, order)
    play(st, "take")
    to_play(st)
    assert st.current_player() == 1
    acts = st.legal_action_strings()
    assert "KH+belle" in acts and "QH+belle" in acts and not any(a in acts for a in ("7C+belle", "8C+belle"))
    with pytest.raises(trickcore.IllegalActionError):
        st.apply_action("7C+belle")
    play(st, "KH+belle")
    assert st.belle == (1, C("KH"))


# ---- Kontra / Re ----------------------------------------------------------------------------------
def test_KJ_26_order_of_kontra_and_re():
    st = new_state(4, 0, make_order(4, {}, 0, turned="9S"))
    play(st, "pass", "pass", "pass", "take")        # declarer 0, trump side A
    while st.decision() == "meld":
        play(st, "pass")
    asked = []
    for call in ("pass", "kontra", "pass", "re"):
        asked.append((st.current_player(), st.decision()))
        play(st, call)
    assert asked == [(1, "kontra"), (3, "kontra"), (2, "re"), (0, "re")]
    assert st.mult == 4 and st.decision() == "play"
    assert kj.deal_steps(4, 0, [100, 62], 4) == (True, [4, 0])
    assert kj.deal_steps(4, 0, [62, 100], 4) == (False, [0, 8])


def test_kontra_without_re_and_no_kontra():
    st = new_state(3, 0, make_order(3, {}, 0, turned="9S", stack="7S"))
    play(st, "pass", "take")                          # declarer 2
    while st.decision() == "meld":
        play(st, "pass")
    assert st.current_player() == 1 and st.decision() == "kontra"
    play(st, "kontra")
    assert st.current_player() == 2 and st.decision() == "re" and st.mult == 2
    play(st, "pass")
    assert st.decision() == "play" and st.mult == 2


# ---- scoring, dice, match end -------------------------------------------------------------------
def test_KJ_24_full_four_player_count():
    declared = {1: [Meld(TERZ, kj.RJ, S("D"))], 2: [Meld(TERZ, kj.RA, S("H"))]}
    mp = kj.meld_points(declared, S("S"), 4, 0)
    assert mp == [20, 0]
    total = [62 + 10 + mp[0], 90 + 20 + mp[1]]
    assert total == [92, 110]
    assert kj.deal_steps(4, 3, total, 1) == (True, [0, 1])


def test_KJ_25_tie_with_and_without_kontra():
    assert kj.deal_steps(4, 1, [81, 81], 1) == (False, [2, 0])
    assert kj.deal_steps(4, 1, [81, 81], 2) == (False, [4, 0])
    assert kj.advance_dice([3, 0], [4, 0]) == [6, 0]


def test_KJ_28_three_players_reach_six_together():
    success, steps = kj.deal_steps(3, 2, [40, 40, 30], 1)
    assert not success and steps == [1, 1, 0]
    dice = kj.advance_dice([5, 5, 2], steps)
    assert dice == [6, 6, 2]
    assert competition_ranks(dice) == [1, 1, 3]


def test_KJ_28_match_end_in_the_state():
    st = trickcore.new_game("klaberjass", 3, {"first_dealer": 0}, 4)
    st.dice = [5, 5, 2]
    # play deals with the first legal action until one moves a die; check the end condition
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert max(st.dice) == 6 and st.current_player() == trickcore.TERMINAL
    assert st.scores() == [float(d) for d in st.dice] and st.decision() == ""
    assert st.legal_actions() == ()


def test_KJ_33_how_the_die_reads():
    assert kj.die_face(0) == 6
    assert kj.die_face(kj.advance_dice([0], [1])[0]) == 1
    assert kj.die_face(kj.advance_dice([1], [2])[0]) == 3
    assert kj.advance_dice([5], [2]) == [6] and kj.die_face(6) == 6


def test_next_dealer_rotation_and_throw_in():
    assert kj.next_dealer(4, 3, [1, 0]) == 0
    assert kj.next_dealer(3, 2, [1, 1, 0]) == 0
    assert kj.next_dealer(2, 0, [0, 1]) == 1
    st = trickcore.new_game("klaberjass", 4, {"first_dealer": 2}, 9)
    while not st.is_terminal():
        before = st.dealer, len(st.results)
        st.apply_action(st.legal_actions()[-1])
        if len(st.results) > before[1] and not st.is_terminal():
            r = st.results[-1]
            assert st.dealer == (before[0] if r.get("throw_in") else (before[0] + 1) % 4)


def test_options_target_and_max_deals():
    st = trickcore.new_game("klaberjass", 4, {"target": 1, "first_dealer": 0}, 3)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert max(st.dice) == 1
    st = trickcore.new_game("klaberjass", 2, {"max_deals": 1}, 3)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[-1])
    assert st.deal_no == 1
    with pytest.raises(trickcore.GameConfigError):
        trickcore.new_game("klaberjass", 3, {"first_dealer": 3}, 3)
    with pytest.raises(trickcore.GameConfigError):
        trickcore.new_game("klaberjass", 3, {"target": 7}, 3)
