"""The scenario vectors ST-01..ST-28 of docs/rules/sticheln.md §8 (the Hattrick
vectors ST-06, ST-07, ST-29..ST-37 live in tests/games/hattrick), plus the rules that
carry no vector (§3.6 forbidden combinations, variant list)."""

from __future__ import annotations

import pytest

import trickcore
from trickcore import _core
from trickcore.game import competition_ranks
from trickcore.games import sticheln as S

from . import oracle
from .helpers import crafted, cv, resolve


def check_trick(texts, expected, leader=0, n=None, verkehrt=False, monkeypatch=None):
    """Winner by the core, by the oracle and (P0 leading, a monkeypatch given) by a real
    game in which the trick is played as the first trick of round 1."""
    n = n or len(texts)
    assert resolve(texts, leader, n, verkehrt) == expected
    idx = oracle.winner([cv(t) for t in texts], verkehrt)
    assert (leader + idx) % n == expected
    if monkeypatch is not None and leader == 0:
        state = crafted(monkeypatch, n, {s: [t] for s, t in enumerate(texts)}, {"verkehrt": verkehrt})
        while state.decision() == "layout":  # lay out any card that is not in the trick
            legal = state.legal_action_strings()
            state.apply_action(next(a for a in legal if a not in texts))
        for t in texts:
            state.apply_action(t)
        assert state._tp.tricks[0][2] == expected


def test_ST_01_lead_colour_only(monkeypatch):
    check_trick(["R6", "R2", "R9", "R11"], 3, monkeypatch=monkeypatch)


def test_ST_02_lead_colour_plus_zero():
    # P3 leads: P3 blue 4, P0 blue 8, P1 yellow 0, P2 blue 10 -> P2
    check_trick(["B4", "B8", "Y0", "B10"], 2, leader=3)


def test_ST_03_trump_beats_every_lead_card():
    # P2 leads: P2 green 9, P3 red 0, P0 brown 3, P1 green 11 -> P0
    check_trick(["G9", "R0", "N3", "G11"], 0, leader=2)


def test_ST_04_equal_highest_trumps_first_wins(monkeypatch):
    check_trick(["Y4", "B6", "G10", "R10"], 2, monkeypatch=monkeypatch)


def test_ST_05_scoring_example():
    won = [cv("R2"), cv("R5")] + [cv(f"B{v}") for v in range(7)] + [cv(f"G{v}") for v in range(1, 8)]
    assert len(won) == 16
    assert S.round_score([cv("R4")], [0], won) == 3
    assert oracle.score([cv("R4")], [0], won) == 3


def test_ST_08_zero_led_followers_in_lead_colour(monkeypatch):
    check_trick(["R0", "R4", "B0", "R2"], 1, monkeypatch=monkeypatch)


def test_ST_09_zero_led_small_trump(monkeypatch):
    check_trick(["R0", "R11", "Y1", "G0"], 2, monkeypatch=monkeypatch)


def test_ST_10_only_zeros_first_zero_wins(monkeypatch):
    check_trick(["R0", "B0", "G0", "Y0"], 0, monkeypatch=monkeypatch)


def test_ST_11_nonzero_lead_all_others_zeros(monkeypatch):
    check_trick(["N5", "R0", "B0", "G0"], 0, monkeypatch=monkeypatch)


def test_ST_12_trump_equal_to_lead_value(monkeypatch):
    check_trick(["B9", "R9", "B11", "G1"], 1, monkeypatch=monkeypatch)


def test_ST_13_three_equal_highest_trumps_six_players(monkeypatch):
    check_trick(["V3", "R12", "N12", "V14", "Y12", "G0"], 1, n=6, monkeypatch=monkeypatch)


def test_ST_14_verkehrt_lowest_trump_zero_ignored(monkeypatch):
    check_trick(["R8", "B0", "G3", "Y1"], 3, verkehrt=True, monkeypatch=monkeypatch)


def test_ST_15_verkehrt_tie_for_lowest_trump(monkeypatch):
    check_trick(["R8", "B2", "G2", "Y5"], 1, verkehrt=True, monkeypatch=monkeypatch)


def test_ST_16_verkehrt_without_trumps_highest_lead_card(monkeypatch):
    check_trick(["R3", "R7", "G0", "R1"], 1, verkehrt=True, monkeypatch=monkeypatch)


def test_ST_17_verkehrt_zero_led(monkeypatch):
    check_trick(["R0", "B5", "G2", "Y0"], 2, verkehrt=True, monkeypatch=monkeypatch)


def test_ST_18_verkehrt_scoring():
    won = [cv("G3"), cv("G10")] + [cv(f"R{v}") for v in range(10)]
    assert S.round_score([cv("G6")], [2], won, verkehrt=True) == 9
    assert oracle.score([cv("G6")], [2], won, verkehrt=True) == 9


def test_ST_19_mild_scoring_vs_classic():
    won = [cv("Y11"), cv("Y2")] + [cv(f"R{v}") for v in range(10)]
    assert S.round_score([cv("Y0")], [3], won, mild=True) == -5
    assert S.round_score([cv("Y0")], [3], won) == -3
    assert oracle.score([cv("Y0")], [3], won, mild=True) == -5


def test_ST_20_verschaerft_scoring():
    won = [cv("R7"), cv("B3")] + [cv(f"G{v}") for v in range(10)]
    laid = [cv("R1"), cv("B0")]
    assert S.round_score(laid, [0, 1], won) == -1
    assert S.round_score(laid, [0, 1], won, mild=True) == -10


def test_ST_21_verschaerft_choice_legality(monkeypatch):
    state = crafted(monkeypatch, 5, {0: ["R0", "R7", "B3", "G12"]}, {"verschaerft": True})
    assert state.current_player() == 0 and state.decision() == "layout"
    legal = state.legal_action_strings()
    assert "R0+B3" in legal and "R0+R7" not in legal
    assert state.action_to_string(state.string_to_action("B3+R0")) == "R0+B3"  # unordered
    with pytest.raises(trickcore.IllegalActionError):
        state.apply_action("R0+R7")
    # a hand of all fifteen red cards 0-14: any pair, one annoyance colour, 13 tricks
    mono = crafted(monkeypatch, 5, {0: [f"R{v}" for v in range(15)]}, {"verschaerft": True})
    legal = mono.legal_action_strings()
    assert len(legal) == 15 * 14 // 2 and "R0+R7" in legal
    mono.apply_action("R0+R7")
    while mono.decision() == "layout":
        mono.apply_action(mono.legal_actions()[0])
    assert mono.observation(0)["special_colours"][0] == ["R"]
    assert mono._tp.tricks_left == 13


def test_ST_22_verspaetet_choice():
    won = [cv(t) for t in ("R2", "R4", "R9", "B0", "G5", "G6", "G7", "Y11")]
    choices = S.colour_choices([c for c, _v in won], pair=False)
    assert choices == [(0,), (1,), (2,), (3,)]  # brown (4) is not among the won cards
    scores = {ch: S.round_score([], ch, won) for ch in choices}
    assert scores == {(0,): -10, (1,): 7, (2,): -13, (3,): -4}
    assert max(scores.values()) == 7
    assert S.colour_choices([], pair=False) == [] and S.round_score([], (), []) == 0


def test_ST_23_verspaetet_combinations():
    won = [cv(t) for t in ("R2", "R4", "R9", "B0", "G5", "G6", "G7", "Y11")]
    pairs = S.colour_choices([c for c, _v in won], pair=True)
    assert len(pairs) == 6 and (1, 3) in pairs
    scores = {p: S.round_score([], p, won) for p in pairs}
    assert scores[(1, 3)] == -5 and max(scores.values()) == -5
    assert scores[(0, 1)] == -11
    assert S.round_score([], (1,), won, mild=True) == 2
    assert S.round_score([], (3,), won, mild=True) == 2
    # one colour only: that colour alone
    assert S.colour_choices([2, 2, 2], pair=True) == [(2,)]


def test_ST_24_im_nebel(monkeypatch):
    state = crafted(monkeypatch, 4, {0: ["R4"]}, {"nebel": True})
    state.apply_action("R4")
    while state.decision() == "layout":
        state.apply_action(state.legal_actions()[0])
    tricks = 0
    while not state.is_terminal():
        for seat in (1, 2, 3):
            obs = state.observation(seat)
            assert obs["laid_out"][0] is None and obs["laid_out_count"][0] == 1
            assert obs["special_colours"][0] is None
            assert "R4" not in str(obs)
        assert state.observation(0)["laid_out"][0] == ["R4"]
        state.apply_action(state.legal_actions()[0])
        tricks += 1
    reveal = [e for e in state.events_for(1)[0] if e["type"] == "reveal"]
    assert reveal and reveal[0]["laid_out"]["0"] == ["R4"]
    assert tricks == 14 * 4
    won = [cv("R2"), cv("R5")] + [cv(f"B{v}") for v in range(7)] + [cv(f"G{v}") for v in range(1, 8)]
    assert S.round_score([cv("R4")], [0], won) == 3
    assert S.round_score([cv("R4")], [0], won, mild=True) == -1


@pytest.mark.parametrize("n,opts,cards,hand,aside,tricks", [
    (7, {}, 108, 15, 3, 14),
    (8, {"verschaerft": True}, 114, 14, 2, 12),
    (8, {"verspaetet": True}, 114, 14, 2, 14),
    (3, {"verschaerft": True}, 45, 15, 0, 13),
])
def test_ST_25_counts(n, opts, cards, hand, aside, tricks):
    state = trickcore.new_game("sticheln", n, dict(opts, rounds=1), seed=3)
    assert _core.cards_count(S.USED[n]) == cards
    assert state.hand_size == hand and state.n_aside == aside and state.n_tricks == tricks
    obs = state.observation(0)
    assert obs["hand_sizes"] == [hand] * n and obs["aside"] == aside
    assert _core.cards_count(state._aside) == aside
    assert sum(_core.cards_count(h) for h in state.hands) + aside == cards
    while state.phase == "layout":
        state.apply_action(state.legal_actions()[0])
    assert state._tp.tricks_left == tricks
    k = 0 if opts.get("verspaetet") else (2 if opts.get("verschaerft") else 1)
    assert all(len(laid) == k for laid in state.laid)


def test_ST_26_rotation():
    for n, expect in ((4, [(3, 0), (0, 1), (1, 2), (2, 3), (3, 0)]), (3, [(2, 0), (0, 1), (1, 2), (2, 0), (0, 1)])):
        state = trickcore.new_game("sticheln", n, {}, seed=1)
        got = []
        while not state.is_terminal():
            obs = state.observation(0)
            if not got or got[-1][0] != obs["round"]:
                got.append((obs["round"], obs["dealer"], obs["leader"]))
                if state.decision() == "layout":
                    assert state.current_player() == obs["leader"]
            state.apply_action(state.legal_actions()[0])
        assert [(d, leader) for _r, d, leader in got] == expect
        # the first trick of each round is led by the round's leader
        assert len(state.round_scores) == 5


def test_ST_27_match_winner():
    assert competition_ranks([12, 12, -3]) == [1, 1, 3]
    assert competition_ranks([-4, -9, -20]) == [1, 2, 3]


def test_ST_28_no_tricks_won():
    assert S.round_score([cv("N3")], [4], []) == -3
    assert S.round_score([cv("Y5")], [3], [], verkehrt=True) == 5
    assert S.round_score([cv("R9")], [0], [], mild=True) == -5
    assert S.round_score([], [], []) == 0  # verspaetet, nothing won


@pytest.mark.parametrize("a,b", [("mild", "verkehrt"), ("nebel", "verspaetet")])
def test_forbidden_combinations_rejected(a, b):
    with pytest.raises(trickcore.GameConfigError) as err:
        trickcore.new_game("sticheln", 4, {a: True, b: True})
    assert a in str(err.value) and b in str(err.value)
    with pytest.raises(trickcore.GameConfigError):
        trickcore.new_game("sticheln", 4, {a: True, b: True, "verschaerft": True})


def test_variant_list_is_the_18_rulesets_of_3_6():
    info = trickcore.get_game("sticheln")
    assert len(info.variants) == 18 and len(set(info.variants)) == 18
    assert info.variants[:6] == ("classic", "verkehrt", "mild", "verschaerft", "nebel", "verspaetet")
    for name in info.variants:
        opts = S.variant_options(name)
        state = trickcore.new_game("sticheln", 4, dict(opts, rounds=1), seed=1)
        assert state.variant == name
    assert info.players == (3, 4, 5, 6, 7, 8)
    with pytest.raises(trickcore.GameConfigError):
        trickcore.new_game("sticheln", 2)
    with pytest.raises(trickcore.GameConfigError):
        trickcore.new_game("sticheln", 9)
