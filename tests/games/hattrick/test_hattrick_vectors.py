"""The Hattrick scenario vectors of docs/rules/sticheln.md §8: ST-06, ST-07 and
ST-29..ST-37, each checked against the core, the oracle and (where a trick is played) a
real game."""

from __future__ import annotations

import pytest

import trickcore
from trickcore import _core
from trickcore.games import hattrick as H

from . import oracle
from .helpers import cid, crafted, cv, mask, resolve


def play_double(monkeypatch, n, texts, extra=None):
    """Play ``texts`` as the first double trick of game 1 (P0 leads) in a real game; return
    the state.  extra: more cards for some seats' hands."""
    fixed = {s: [t] + list((extra or {}).get(s, [])) for s, t in enumerate(texts)}
    state = crafted(monkeypatch, n, fixed)
    for t in texts:
        state.apply_action(t)
    return state


def check_double(monkeypatch, n, texts, w0, w1, nxt, passes=(), extra=None):
    res = resolve(texts, 0, n)
    assert (res["winner"], res["winner2"], res["next_leader"]) == (w0, -1 if w1 is None else w1, nxt)
    o0, o1, on = oracle.resolve([cv(t) for t in texts])
    assert (o0, o1, on) == (w0, w1, nxt)  # P0 leads, so indices are seats
    assert [i for i, p in enumerate(res["piles"]) if p == H.PILE_PASS] == list(passes)
    state = play_double(monkeypatch, n, texts, extra)
    leader, moves, win, win2, next_leader, _pts = state._tp.tricks[0]
    assert (win, win2, next_leader) == (w0, -1 if w1 is None else w1, nxt)
    assert state.current_player() == nxt
    for s in range(n):
        if s in passes:
            assert state._tp.passed(s) == mask([texts[s]])
        else:
            assert state._tp.passed(s) == 0
    return state


def test_ST_06_double_trick(monkeypatch):
    state = check_double(monkeypatch, 5, ["R7", "B12", "R16", "R3", "B18"], 2, 4, 4)
    assert state._tp.won(2) == mask(["R7", "R16", "R3"])
    assert state._tp.won(4) == mask(["B12", "B18"])
    obs = state.observation(1)
    assert obs["double_tricks"][0]["winners"] == {"R": 2, "B": 4}
    assert obs["double_tricks"][0]["next_leader"] == 4
    assert [p["action"] for p in obs["double_tricks"][0]["plays"]] == ["open", "open", "join", "join", "join"]


def test_ST_07_scoring():
    assert H.game_score(9, 2, 4, 1) == 1
    assert oracle.score(9, 2, 4, 1) == 1


def _kinds(hand, prefix, leader=0, n=4):
    """{card text: 'open'|'join'|'pass'} by the core: legal cards, and what each did."""
    legal = _core.legal_cards(H.DECK, n, _core.FOLLOW_DOUBLE, _core.WIN_DOUBLE, _core.NO_SUIT, leader,
                              [cid(t) for t in prefix], mask(hand))
    assert legal == mask(hand)  # H3: every card in hand is legal
    out = {}
    for t in hand:
        res = resolve(list(prefix) + [t], leader, n)
        pile = res["piles"][-1]
        colours_before = {t2[0] for t2 in prefix}
        if pile == H.PILE_PASS:
            out[t] = "pass"
        elif t[0] in colours_before:
            out[t] = "join"
        else:
            out[t] = "open"
    expect = oracle.legal([cv(t) for t in hand], [cv(t) for t in prefix])
    assert {f"{H.COLOURS[c]}{v}": k for (c, v), k in expect.items()} == out
    return out


def test_ST_29_legal_actions(monkeypatch):
    hand = ["R3", "R11", "G6", "B1", "B20"]
    # (a) P2 leads: all five legal, each opens the first trick
    assert _kinds(hand, [], leader=2) == {t: "open" for t in hand}
    # (b) only red open
    assert _kinds(hand, ["R5", "R9"]) == {"R3": "join", "R11": "join", "G6": "open", "B1": "open", "B20": "open"}
    # (c) red and green open
    assert _kinds(hand, ["R5", "G2"]) == {"R3": "join", "R11": "join", "G6": "join", "B1": "pass", "B20": "pass"}
    # (d) only blue cards: must pass
    assert _kinds(["B1", "B20"], ["R5", "G2"]) == {"B1": "pass", "B20": "pass"}
    # (e) no blue card: cannot pass
    assert _kinds(["R3", "G6"], ["R5", "G2"]) == {"R3": "join", "G6": "join"}
    # in a real game: P2's legal set is the whole hand
    state = crafted(monkeypatch, 4, {0: ["R5"], 1: ["G2"], 2: hand})
    state.apply_action("R5")
    state.apply_action("G2")
    assert set(hand) <= set(state.legal_action_strings())
    assert list(state.legal_actions()) == _core.cards_list(state._tp.hand(2))


def test_ST_30_lead_tie_second_value(monkeypatch):
    check_double(monkeypatch, 4, ["R15", "B15", "R9", "B4"], 0, 1, 0)


def test_ST_31_full_tie_colour_order(monkeypatch):
    check_double(monkeypatch, 4, ["G12", "B12", "G5", "B5"], 0, 1, 1)


def test_ST_32_shorter_trick_loses_the_tie(monkeypatch):
    state = check_double(monkeypatch, 4, ["R10", "G10", "G2", "B7"], 0, 1, 1, passes=(3,))
    assert H.seat_score(0, state._tp.passed(3)) == -2


def test_ST_33_one_trick_only(monkeypatch):
    state = check_double(monkeypatch, 4, ["R3", "R17", "R8", "R20"], 3, None, 3)
    assert state._tp.won(3) == mask(["R3", "R17", "R8", "R20"])


def test_ST_34_voluntary_pass(monkeypatch):
    state = check_double(monkeypatch, 4, ["R8", "G14", "B19", "R20"], 3, 1, 3, passes=(2,),
                         extra={2: ["R3"]})
    assert _core.cards_count(state._tp.passed(2)) == 1


def test_ST_35_seven_players_lone_zero(monkeypatch):
    state = check_double(monkeypatch, 7, ["G0", "R5", "R2", "B20", "R1", "B0", "R19"], 0, 6, 6,
                         passes=(3, 5))
    assert state._tp.won(0) == mask(["G0"])


def test_ST_36_scoring():
    assert H.game_score(5, 5, 2, 0) == -2
    assert H.game_score(0, 0, 0, 2) == -4
    assert H.game_score(6, 0, 0, 1) == 4
    assert H.game_score(0, 0, 0, 0) == 0
    for args in ((5, 5, 2, 0), (0, 0, 0, 2), (6, 0, 0, 1), (0, 0, 0, 0)):
        assert oracle.score(*args) == H.game_score(*args)


@pytest.mark.parametrize("n,doubles,used", [(4, 14, 60), (5, 11, 60), (6, 9, 60), (7, 8, 63)])
def test_ST_37_game_length(n, doubles, used):
    state = trickcore.new_game("hattrick", n, {"games": 1}, seed=5)
    assert _core.cards_count(H.USED[n]) == used
    tp = state._tp
    count = 0
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
        count += 1
    assert count == doubles * n and len(tp.tricks) == doubles
    assert all(_core.cards_count(tp.hand(s)) == 1 for s in range(n))
    won = sum(_core.cards_count(tp.won(s)) + _core.cards_count(tp.passed(s)) for s in range(n))
    assert won == doubles * n  # 56 for N = 4 and N = 7
    last = [e for e in state.events_for(0)[0] if e["type"] == "last_cards"]
    assert len(last) == 1 and sum(len(c) for c in last[0]["cards"]) == n
    if n == 7:
        assert won == 56 and sum(len(c) for c in last[0]["cards"]) == 7
    if n == 4:
        assert won == 56
