"""Scenario vectors BJ-01..BJ-30 of docs/rules/beim_jupiter.md §12, one test each.

Trump determination and the distribution are tested as the module's pure functions, trick play
through the C core's legal/resolve functions on the game's real decks."""

from __future__ import annotations

import random

import pytest

import trickcore
from trickcore import _core
from trickcore.games import beim_jupiter as bj
from trickcore.games.beim_jupiter import determine_trump, distribute

from .bj_helpers import info, legal_texts, new, play_random, resolve, to_decision

B, R, Y, G = 0, 1, 2, 3


# ---- BJ-01 -------------------------------------------------------------------------------
RULE_3_3 = [  # r, dealt, t, deck n=3, n=4, n=5
    (1, 13, 12, 40, 53, 65), (2, 12, 11, 37, 49, 60), (3, 11, 10, 34, 45, 55), (4, 10, 9, 31, 41, 50),
    (5, 9, 8, 28, 37, 45), (6, 8, 7, 25, 33, 40), (7, 7, 6, 22, 29, 35), (8, 6, 5, 19, 25, 30)]


def test_BJ_01_round_arithmetic():
    for n, r, deck, dealt, left, t in [(3, 1, 40, 13, 1, 12), (4, 5, 37, 9, 1, 8), (5, 8, 30, 6, 0, 5)]:
        assert bj.deck_size(n, r) == deck
        assert bj.dealt_per_player(r) == dealt
        assert bj.left_over(n, r) == left
        assert bj.tricks_in_round(r) == t
    for r, dealt, t, *decks in RULE_3_3:
        assert bj.dealt_per_player(r) == dealt and bj.tricks_in_round(r) == t
        for n, size in zip((3, 4, 5), decks):
            assert bj.deck_size(n, r) == size
            assert bj.left_over(n, r) == (0 if n == 5 else 1)
    # the real decks (rule 2.2) and the real deals of a game, round by round
    for n, size, numbers in [(3, 40, 32), (4, 53, 44), (5, 65, 56)]:
        d = info(n)
        assert d.n_cards == size and sum(d.is_number) == numbers
        assert len(d.lambs) == (2 if n == 3 else 3)
        s = new(n, 11)
        rng = random.Random(11)
        for r, dealt, t, *decks in RULE_3_3:
            play_random(s, rng, until=lambda st, r=r: st.round == r)
            assert s.round == r and s.t == t and s.decision() == "colour"
            in_deck = sum(_core.cards_count(s.hand(p)) for p in range(n)) + _core.cards_count(s.leftover)
            assert in_deck == decks[(3, 4, 5).index(n)]
            assert all(_core.cards_count(s.hand(p)) == dealt for p in range(n))
            obs = s.observation(0)
            assert [e["count"] for e in obs["table"]] == list(range(1, t + 1))


# ---- trump determination (rule 5.5) ------------------------------------------------------------
def test_BJ_02_rulebook_trump_example():
    assert determine_trump(["B8", "B4", "R11", "R1", "Y13"]) == R


def test_BJ_04_count_beats_sum():
    old = ["B2", "R13"]
    assert determine_trump(old + ["B1", "B3", "R14", "Y12", "G5"]) == B


def test_BJ_05_sum_decides():
    assert determine_trump(["Y9", "Y4", "R10", "R2", "G14"]) == Y


def test_BJ_06_highest_card_among_suits_tied_on_sum():
    assert determine_trump(["Y1", "R8", "R4", "B7", "B5", "Y10"]) == R


def test_BJ_07_full_tie_old_cards_count():
    assert determine_trump(["B3", "G9", "B9", "G3", "R6", "Y11"]) is None
    assert determine_trump(["B9", "G3", "R6", "Y11"]) == Y          # without the old cards
    assert determine_trump([(B, 9), (G, 3), (R, 6), (Y, 11)]) == Y   # (suit, value) pairs work too
    for bad in ([(4, 9)], [(-1, 9)]):                                 # no such suit
        with pytest.raises(ValueError):
            determine_trump(bad)


def test_BJ_07_old_cards_enter_the_pool_in_a_real_game():
    """The state's pool is the revealed cards plus every card lying at a count (A-04)."""
    for seed in range(40):
        s = to_decision(4, seed, 3, "bid")
        d = info(4)
        pool = [d.names[c] for c in s.colour] + [d.names[e[0]] for T in s.table for e in s.table[T]
                                                   if e[0] not in s.colour]
        assert s.trump == determine_trump(pool)
        assert s.observation(0)["trump"] == ("none" if s.trump is None else "BRYG"[s.trump])


def test_BJ_08_four_single_cards():
    assert determine_trump(["B9", "R9", "Y4", "G2"]) is None


# ---- BJ-03 and BJ-20..27: the distribution (rules 7.2-8.1) --------------------------------------
def test_BJ_03_rulebook_distribution_example():
    # seats: Yellow 0, Red 1, Green 2, Blue 3 (player names only)
    table = {1: ["R8"], 2: ["Y1", "G4"], 4: ["Y9", "B6", "G5"]}
    res = distribute(4, 0, 12, table, ["4+L", "4+L", "1+L", "2"], ["B6", "G5", "R8", "G4"],
                     [4, 4, 2, 2], [47, 38, 60, 0])
    assert res.categories == ["A", "A", "C", "B"]
    assert res.picks == [(3, 2, "G4"), (2, 2, "Y1"), (0, 4, "Y9"), (1, 4, "B6")]
    assert res.gains() == [9, 6, 1, 4]
    assert res.left == {1: ["R8"], 4: ["G5"]}
    assert res.removed == [] and res.table == {1: ["R8"], 4: ["G5"]}


def test_BJ_20_failed_lock_B_before_C():
    table = {3: ["R10"], 2: ["B4"], 1: ["Y2"], 4: ["G6"]}
    res = distribute(4, 1, 8, table, ["4", "3+L", "2", "1"], ["G6", "R10", "B4", "Y2"],
                     [2, 2, 3, 1], [12, 30, 0, 0])
    assert res.categories == ["B", "C", "B", "B"]
    assert (2, 3, "R10") in res.picks and (0, 2, "B4") in res.picks and (3, 1, "Y2") in res.picks
    assert [p for p in res.picks if p[1] == 2] == [(0, 2, "B4")]       # P1 (C) gets nothing
    assert res.gains() == [4, 0, 10, 2]
    assert res.removed == [] and res.table == {4: ["G6"]}


def test_BJ_21_A_claimant_takes_unlocked_card_and_zero_tricks():
    table = {3: ["G7", "R5", "Y11"], 5: ["B2"], 1: ["B9"]}
    res = distribute(4, 1, 9, table, ["1+L", "3+L", "5", "3"], ["B9", "R5", "B2", "Y11"],
                     [3, 3, 3, 0], [0, 0, 0, 0])
    assert res.categories == ["C", "A", "B", "B"]
    assert res.picks == [(1, 3, "Y11"), (2, 3, "G7"), (0, 3, "R5")]
    assert res.gains() == [5, 11, 7, 0]
    assert res.left == {1: ["B9"], 5: ["B2"]} and res.removed == []


def test_BJ_22_equal_trick_points_within_B():
    table = {2: ["B11", "R3"], 3: ["Y6"], 4: ["G4"], 1: ["G9"]}
    bids, colour = ["1", "2", "3+L", "4"], ["G9", "R3", "Y6", "G4"]
    res = distribute(4, 1, 7, table, bids, colour, [0, 2, 3, 2], [0, 15, 0, 15])
    assert [p for p in res.picks if p[1] == 2] == [(1, 2, "B11"), (3, 2, "R3")]
    assert (2, 3, "Y6") in res.picks
    assert res.left == {1: ["G9"], 4: ["G4"]}
    # variant: P2 deals, P3 starts
    res = distribute(4, 3, 7, table, bids, colour, [0, 2, 3, 2], [0, 15, 0, 15])
    assert [p for p in res.picks if p[1] == 2] == [(3, 2, "B11"), (1, 2, "R3")]
    # variant: P3 has 16 points
    res = distribute(4, 1, 7, table, bids, colour, [0, 2, 3, 2], [0, 15, 0, 16])
    assert [p for p in res.picks if p[1] == 2] == [(3, 2, "B11"), (1, 2, "R3")]


def test_BJ_23_ties_in_card_value():
    table = {3: ["Y7", "R5", "G7", "B5"], 6: ["G2"], 2: ["R9"]}
    res = distribute(4, 0, 11, table, ["6", "2+L", "3+L", "3"], ["G2", "R9", "G7", "B5"],
                     [3, 3, 3, 2], [0, 0, 0, 0])
    assert res.categories == ["B", "C", "A", "B"]
    assert [p for p in res.picks if p[1] == 3] == [(2, 3, "G7"), (0, 3, "Y7"), (1, 3, "B5")]
    assert (3, 2, "R9") in res.picks
    assert res.gains() == [7, 5, 7, 9]
    assert res.left == {3: ["R5"], 6: ["G2"]}


def test_BJ_24_equal_trick_points_within_A():
    table = {2: ["Y11", "R4", "B6"], 4: ["B1"], 1: ["G8"]}
    bids, colour = ["1", "2+L", "4", "2+L"], ["G8", "R4", "B1", "B6"]
    k, pts = [0, 2, 3, 2], [0, 20, 0, 20]
    res = distribute(4, 1, 7, table, bids, colour, k, pts)
    assert res.picks == [(1, 2, "Y11"), (3, 2, "B6")]
    assert res.gains() == [0, 11, 0, 6]
    assert res.left == {1: ["G8"], 2: ["R4"], 4: ["B1"]}
    res = distribute(4, 3, 7, table, bids, colour, k, pts)          # variant: P3 starts
    assert res.picks == [(3, 2, "Y11"), (1, 2, "B6")]
    assert res.left == {1: ["G8"], 2: ["R4"], 4: ["B1"]}


def test_BJ_25_zero_bid_succeeds():
    table = {3: ["B2"], 2: ["R4"]}
    res = distribute(3, 1, 6, table, ["2+L", "ZERO", "3"], ["R4", "Y6", "B2"], [2, 0, 4], [0, 0, 0])
    assert res.zero == {1: True} and res.won[1] == ["Y6"]
    assert res.categories == ["A", None, "B"]
    assert res.picks == [(0, 2, "R4")]
    assert res.gains() == [4, 6, 0]
    assert res.left == {3: ["B2"]}
    # the zero-tricks card is used up: round 8 offers 10 bids to P1, no ZERO
    assert bj.bid_options(5, zero_unused=False) == [str(k) for k in range(1, 6)] + [f"{k}+L" for k in range(1, 6)]
    s = to_decision(3, 5, 8, "bid")
    p = s.current_player()
    s.zero_used[p] = True
    assert len(s.legal_action_strings()) == 10 and "ZERO" not in s.legal_action_strings()


def test_BJ_25_zero_card_is_used_once_per_game_in_play():
    """A ZERO bid in a real game uses the card up: the seat never gets ZERO again."""
    s = new(3, 2)
    rng = random.Random(2)
    zeroed = set()
    while not s.is_terminal():
        legal = s.legal_action_strings()
        if s.decision() == "bid":
            p = s.current_player()
            assert ("ZERO" in legal) == (p not in zeroed)
            choice = "ZERO" if "ZERO" in legal else rng.choice(legal)
            if choice == "ZERO":
                zeroed.add(p)
        else:
            choice = rng.choice(legal)
        s.apply_action(choice)
    assert zeroed == {0, 1, 2} and s.zero_used == [True] * 3


def test_BJ_26_zero_bid_fails():
    table = {5: ["B10"], 2: ["G5"], 3: ["Y3"]}
    res = distribute(4, 1, 11, table, ["3", "5+L", "ZERO", "2"], ["Y3", "B10", "R7", "G5"],
                     [0, 5, 2, 4], [0, 0, 0, 0])
    assert res.zero == {2: False}
    assert "R7" in res.removed
    assert res.picks == [(1, 5, "B10")]
    assert res.gains() == [0, 10, 0, 0]
    assert res.table == {2: ["G5"], 3: ["Y3"]}


def test_BJ_27_removing_the_highest_count():
    table = {6: ["B13", "R14"], 2: ["B9", "G2"], 1: ["Y1"], 3: ["G12"]}
    res = distribute(5, 1, 6, table, ["2+L", "6", "2+L", "1", "3"], ["G2", "R14", "B9", "Y1", "G12"],
                     [0, 1, 2, 0, 3], [0, 0, 0, 0, 0])
    assert res.categories == ["C", "B", "A", "B", "B"]
    assert res.picks == [(1, 1, "Y1"), (2, 2, "B9"), (4, 3, "G12")]
    assert sorted(res.removed) == ["B13", "R14"]
    assert res.table == {2: ["G2"]}


# ---- trick play through the core (rules 6.2-6.8) -----------------------------------------------
def test_BJ_09_jupiter_and_juno_in_one_trick():
    res = resolve(4, "R", 1, ["B5", "JUNO", "JUP", "Rgod=15"])
    assert res["winner"] == 2 and res["points"] == 5
    # P2, P3 and P0 hold no Blue, so each may play its card
    assert "JUNO" in legal_texts(4, "R", 1, ["B5"], ["JUNO", "R3"])
    assert "JUP" in legal_texts(4, "R", 1, ["B5", "JUNO"], ["JUP", "Y2"])
    assert "Rgod=15" in legal_texts(4, "R", 1, ["B5", "JUNO", "JUP"], ["Rgod", "G2"])


def test_BJ_10_god_declared_zero_wins_and_the_lamb_is_lower():
    res = resolve(4, "B", 1, ["Rgod=0", "LAMB", "Y11", "G3"])
    assert res["winner"] == 1 and res["points"] == 14
    res = resolve(4, "B", 1, ["Rgod=0", "LAMB", "Y11", "B1"])
    assert res["winner"] == 0 and res["points"] == 12


def test_BJ_11_trump_god_declared_zero_still_trumps():
    assert sorted(legal_texts(4, "R", 1, ["B11"], ["Rgod", "Y3"])) == ["Rgod=0", "Rgod=15", "Y3"]
    res = resolve(4, "R", 1, ["B11", "Rgod=0", "B10", "Y9"])
    assert res["winner"] == 2 and res["points"] == 30


def test_BJ_12_lamb_led_next_card_sets_the_suit():
    assert legal_texts(4, "G", 1, ["LAMB", "Y4"], ["Y9", "G2", "R5"]) == ["Y9"]
    assert sorted(legal_texts(4, "G", 1, ["LAMB", "Y4", "Y9"], ["G1", "B7"])) == ["B7", "G1"]
    res = resolve(4, "G", 1, ["LAMB", "Y4", "Y9", "G1"])
    assert res["winner"] == 0 and res["points"] == 14


def test_BJ_13_two_lambs_then_a_suit_card():
    assert legal_texts(4, None, 1, ["LAMB", "LAMB", "B3"], ["B2", "R11"]) == ["B2"]
    res = resolve(4, None, 1, ["LAMB", "LAMB", "B3", "B2"])
    assert res["winner"] == 3 and res["points"] == 5


def test_BJ_14_jupiter_led_with_no_trump_suit():
    assert legal_texts(4, None, 1, ["JUP"], ["JUNO", "R11", "B2"]) == ["JUNO"]
    assert sorted(legal_texts(4, None, 1, ["JUP", "JUNO"], ["R10", "Y5"])) == ["R10", "Y5"]
    res = resolve(4, None, 1, ["JUP", "JUNO", "R10", "B1"])
    assert res["winner"] == 1 and res["points"] == 11


def test_BJ_15_no_trump_other_suit_cannot_win():
    res = resolve(4, None, 1, ["Y2", "B11", "Y1", "Rgod=15"])
    assert res["winner"] == 1 and res["points"] == 14


def test_BJ_16_trump_led_jupiter_is_the_only_trump():
    assert legal_texts(4, "R", 1, ["R3"], ["JUP", "B7", "B9"]) == ["JUP"]
    assert sorted(legal_texts(4, "R", 1, ["R3", "JUP"], ["Rgod", "R11", "Y2"])) == ["R11", "Rgod=0", "Rgod=15"]
    assert sorted(legal_texts(4, "R", 1, ["R3", "JUP", "Rgod=15"], ["R1", "JUNO", "G5"])) == ["JUNO", "R1"]
    res = resolve(4, "R", 1, ["R3", "JUP", "Rgod=15", "R1"])
    assert res["winner"] == 2 and res["points"] == 4


def test_BJ_17_non_trump_led_jupiter_barred_god_must_follow():
    assert sorted(legal_texts(4, "R", 1, ["B8"], ["B2", "JUP", "R5", "LAMB"])) == ["B2", "LAMB"]
    assert legal_texts(4, "R", 1, ["B8", "B2"], ["Bgod", "R9", "Y4"]) == ["Bgod=0", "Bgod=15"]
    assert sorted(legal_texts(4, "R", 1, ["B8", "B2", "Bgod=15"], ["R6", "Y7"])) == ["R6", "Y7"]
    res = resolve(4, "R", 1, ["B8", "B2", "Bgod=15", "R6"])
    assert res["winner"] == 0 and res["points"] == 16


def test_BJ_18_lamb_then_juno_trump_is_led():
    assert legal_texts(4, "Y", 1, ["LAMB", "JUNO"], ["Y3", "B11"]) == ["Y3"]
    assert legal_texts(4, "Y", 1, ["LAMB", "JUNO", "Y3"], ["JUP", "G8"]) == ["JUP"]
    res = resolve(4, "Y", 1, ["LAMB", "JUNO", "Y3", "JUP"])
    assert res["winner"] == 2 and res["points"] == 3


@pytest.mark.parametrize("trump,trick,expected", [
    ("Y", [], {"Bgod=0", "Bgod=15", "B3", "LAMB", "JUP"}),
    ("Y", ["B5"], {"Bgod=0", "Bgod=15", "B3", "LAMB"}),
    ("Y", ["R5"], {"Bgod=0", "Bgod=15", "B3", "LAMB", "JUP"}),
    ("Y", ["Y5"], {"JUP", "LAMB"}),
    ("Y", ["JUNO"], {"JUP", "LAMB"}),
    ("Y", ["LAMB"], {"Bgod=0", "Bgod=15", "B3", "LAMB", "JUP"}),
    (None, ["JUNO"], {"JUP", "LAMB"}),
])
def test_BJ_19_move_counts(trump, trick, expected):
    hand = ["Bgod", "B3", "LAMB", "LAMB", "JUP"]
    got = legal_texts(4, trump, 1, trick, hand)
    assert len(got) == len(expected) and set(got) == expected


def test_BJ_19_move_counts_through_the_game_interface():
    """The same hand in a real trick phase: the game offers exactly these moves as texts."""
    s = to_decision(4, 3, 1, "play")
    d = info(4)
    hand = d.mask(["Bgod", "B3", "LAMB", "LAMB", "JUP"])
    p = s.current_player()
    hands = [0] * 4
    hands[p] = hand
    others = [c for c in d.cards(d.all & ~hand) if not d.is_lamb[c]]   # 5 cards for each other seat
    for i, q in enumerate(x for x in range(4) if x != p):
        hands[q] = sum(1 << c for c in others[i * 5:(i + 1) * 5])
    s._start_play(d.deck, _core.FOLLOW_SUIT, _core.WIN_TRUMP, Y, hands, p, 5)
    assert sorted(s.legal_action_strings()) == sorted(["Bgod=0", "Bgod=15", "B3", "LAMB", "JUP"])
    s.apply_action("LAMB")
    assert s.history[-1] == "LAMB"


# ---- BJ-28..30 -------------------------------------------------------------------------------------
def test_BJ_28_redeal():
    d = info(3)
    void = d.mask(["JUP", "JUNO", "LAMB", "LAMB", "Rgod", "Ggod"])
    ok = d.mask(["Bgod", "JUP", "JUNO", "LAMB", "LAMB", "Y1"])
    rest = d.number_mask & ~ok
    filler = [sum(1 << c for c in d.cards(rest)[i * 6:(i + 1) * 6]) for i in range(2)]
    assert bj.is_void_deal([void, filler[0], filler[1]], 3)
    assert not bj.is_void_deal([ok, filler[0], filler[1]], 3)
    # D1 options of the valid hand: {Y1}
    s = to_decision(3, 1, 8, "colour")
    s.hands[s.current_player()] = ok
    assert s.legal_action_strings() == ["Y1"]
    # a real void deal: the same dealer reshuffles all 19 cards and deals again
    pool = d.all & ~s.selected
    assert _core.cards_count(pool) == 19
    found = 0
    for seed in range(3000):
        hands, rest, void_deals = bj.deal_round(_core.Rng(seed), pool, 3, 8)
        first, _ = _core.Rng(seed).deal(pool, 3, 6)
        assert (void_deals > 0) == bj.is_void_deal(first, 3)
        assert not bj.is_void_deal(hands, 3)
        assert sum(hands) | rest == pool and _core.cards_count(rest) == 1
        found += void_deals > 0
    assert found > 0


def test_BJ_28_void_deals_are_invisible(monkeypatch):
    """Force a void first deal in round 8 (a round generator chosen so that its first deal is void)
    and check that the game redeals silently: one deal event per seat, nothing else about it."""
    s = to_decision(3, 4, 8, "colour")
    history = s.history
    pool = info(3).all & ~s.selected
    custom = next(c for c in range(100000) if bj.deal_round(_core.Rng(c), pool, 3, 8)[2] > 0)
    hands, rest, void_deals = bj.deal_round(_core.Rng(custom), pool, 3, 8)
    assert void_deals >= 1
    orig = bj._round_rng
    monkeypatch.setattr(bj, "_round_rng", lambda seed, r: _core.Rng(custom) if r == 8 else orig(seed, r))
    t = new(3, 4)
    for a in history:
        t.apply_action(a)
    assert t.round == 8 and t.dealer == s.dealer and t.hands == hands and t.leftover == rest
    for seat in range(3):
        events, _ = t.events_for(seat)
        last = events[max(i for i, e in enumerate(events) if e["type"] == "round_start"):]
        assert [e["type"] for e in last] == ["round_start", "deal"]
        assert last[1]["cards"] == info(3).texts(hands[seat])
        assert "void" not in str(t.observation(seat)) and "redeal" not in str(events)
    play_random(t, random.Random(1))
    assert t.is_terminal()


def test_BJ_29_bid_options():
    s = to_decision(4, 7, 5, "bid")
    assert s.t == 8
    p = s.current_player()
    s._begin_edit()
    s.zero_used[p] = False
    legal = s.legal_action_strings()
    assert len(legal) == 17 and legal == bj.bid_options(8, True)
    s._begin_edit()
    s.zero_used[p] = True
    assert len(s.legal_action_strings()) == 16 and "ZERO" not in s.legal_action_strings()
    s._begin_edit()
    s.zero_used[p] = False
    before = s.to_record()
    for bad in ("9", "0", "ZERO+L", "9+L", "-1", "13"):
        with pytest.raises(trickcore.IllegalActionError):
            s.apply_action(bad)
    assert s.to_record() == before


def test_BJ_30_final_ranking():
    assert trickcore.game.competition_ranks([41, 30, 41]) == [1, 3, 1]
    s = new(3, 0)
    d = info(3)
    s.victory = [[d.deck.card_id(c) for c in cards] for cards in (
        ["B8", "R8", "Y8", "G8", "B7", "B2"], ["G6", "B5", "R5", "Y5", "G5", "B4"],
        ["R7", "Y7", "G7", "B6", "R6", "Y6", "B1", "R1"])]
    assert s.scores() == [41.0, 30.0, 41.0]
    assert s.ranks() == [1, 3, 1]
