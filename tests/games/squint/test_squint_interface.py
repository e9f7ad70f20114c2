"""Replay, clones, perft from fixed trick-phase positions, registry/options, and bad actions."""

from __future__ import annotations

import json
import random

import pytest

from tests.games.squint import oracle
from tests.games.squint.util import bid_all, new_state, numeral_biased_action
from trickcore import IllegalActionError, replay
from trickcore.game import GameConfigError
from trickcore.games import get_game, new_game
from trickcore.games import squint as sq


# ---- registry and options ----------------------------------------------------------------------
def test_registered():
    info = get_game("squint")
    assert info.players == (5,) and info.name == "squint"
    assert {o.name for o in info.options} == {"target_score", "deal_limit", "max_deals", "first_dealer"}
    with pytest.raises(GameConfigError):
        new_game("squint", 4)
    with pytest.raises(GameConfigError):
        new_game("squint", 5, {"first_dealer": 5})
    with pytest.raises(GameConfigError):
        new_game("squint", 5, {"target": 100})


def test_first_dealer_option_and_seeded_default():
    assert all(new_game("squint", 5, {"first_dealer": d}, 9).dealer == d for d in range(5))
    dealers = {new_game("squint", 5, {}, seed).dealer for seed in range(40)}
    assert dealers == set(range(5))
    assert new_game("squint", 5, {}, 17).dealer == new_game("squint", 5, {}, 17).dealer


def test_target_and_deal_limit_end_the_match():
    rng = random.Random(1)
    s = new_game("squint", 5, {"deal_limit": 3, "target_score": 0}, 5)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    assert len(s.results) == 3
    s = new_game("squint", 5, {"target_score": 10}, 6)
    while not s.is_terminal():
        s.apply_action(numeral_biased_action(s, rng))
    assert max(s.totals) >= 10 and all(max(r["totals"]) < 10 for r in s.results[:-1])
    assert s.events_for(0)[0][-1]["type"] == "game_end"


# ---- replay and clones -------------------------------------------------------------------------
def random_state(seed: int, steps: int, options=None):
    s = new_game("squint", 5, options or {"deal_limit": 3}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_action(numeral_biased_action(s, rng))
    return s


@pytest.mark.parametrize("seed", range(12))
def test_replay_rebuilds_the_same_state(seed):
    s = random_state(seed, 40 + 13 * seed)
    record = s.to_record()
    json.dumps(record)
    r = replay(record)
    assert r.history == s.history and r.action_ids == s.action_ids and r.scores() == s.scores()
    assert r.current_player() == s.current_player() and r.legal_actions() == s.legal_actions()
    for seat in range(5):
        assert r.observation(seat) == s.observation(seat)
        assert r.events_for(seat)[0] == s.events_for(seat)[0]
    assert replay(s.to_string()).history == s.history


def test_replay_of_finished_games():
    for seed in range(6):
        s = random_state(100 + seed, 10_000)
        assert s.is_terminal()
        r = replay(s.to_record())
        assert r.is_terminal() and r.scores() == s.scores() and r.results == s.results


def test_clone_independence():
    for seed in range(6):
        s = random_state(200 + seed, 30 + 25 * seed)
        before = s.to_record(), [s.observation(p) for p in range(5)]
        c = s.clone()
        assert c.to_record() == before[0]
        rng = random.Random(seed)
        for _ in range(80):
            if c.is_terminal():
                break
            c.apply_action(rng.choice(c.legal_actions()))
        assert (s.to_record(), [s.observation(p) for p in range(5)]) == before
        # and the other way round
        c2 = s.clone()
        s.apply_action(s.legal_actions()[-1])
        assert c2.to_record() == before[0]


# ---- perft ---------------------------------------------------------------------------------------
def grand_position():
    """Grand solo by P1 (trumps spades) from hand; 22 cards played by the first legal move."""
    st = new_state(0, hands={1: ["KS"], 2: ["5H"], 3: ["7D"], 4: ["9C"], 0: ["3H"]}, seed=3)
    bid_all(st, {1: "KS", 2: "5H", 3: "7D", 4: "9C", 0: "3H"})
    st.apply_action("HAND")
    for _ in range(22):
        st.apply_action(st.legal_actions()[0])
    return st


def multiple_position(plays: int):
    """Ace solo P1 + Misère P2 (no trumps, squint dead); ``plays`` cards played first-legal."""
    st = new_state(0, hands={1: ["AS"], 2: ["2H"], 3: ["7D"], 4: ["9C"], 0: ["3H"]}, seed=4)
    bid_all(st, {1: "AS", 2: "2H", 3: "7D", 4: "9C", 0: "3H"})
    for _ in range(plays):
        st.apply_action(st.legal_actions()[0])
    return st


GRAND = [4, 8, 8, 40, 80, 287, 1046, 4374]
MULTIPLE = [3, 18, 108, 540, 2016, 7236, 23660, 109500]


def interface_perft(state, depth: int) -> int:
    if depth == 0 or state.decision() != "play" or state.deal_no:
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += interface_perft(child, depth - 1)
    return total


def oracle_perft(state, depth: int) -> int:
    tp = state._tp
    hands = {s: sq.names(tp.hand(s)) for s in range(5)}
    leader, moves, _led, _open = tp.current_trick()
    trump = "CDHS"[state.contract.trump] if state.contract.trump != sq.NO_SUIT else None
    return oracle.perft(hands, leader, [sq.card_name(m) for m in moves], trump, depth, tp.tricks_left)


def test_perft_grand_position():
    st = grand_position()
    assert st.history[-22:] == ['TC', '4C', '5C', '6C', '2C', 'QC', '6D', '7C', '9C', '3C', '5D', 'QD',
                                '3D', '2D', 'AD', 'AC', 'TD', 'KD', '8C', 'JC', '2H', '6H']
    assert [st._tp.perft(d)[0] for d in range(1, 9)] == GRAND
    count, leaves, tricks, points = st._tp.perft(8)
    assert leaves == 4374 and tricks == [9918, 10728, 822, 4560, 216] and points == [0] * 5
    assert [oracle_perft(st, d) for d in range(1, 8)] == GRAND[:7]
    assert [interface_perft(st, d) for d in range(1, 6)] == GRAND[:5]
    div = st._tp.divide(6)
    assert sum(div.values()) == GRAND[5]
    for move, n in div.items():
        child = st.clone()
        child.apply_action(move)
        assert oracle_perft(child, 5) == n


def test_perft_multiple_position():
    st = multiple_position(22)
    assert [st._tp.perft(d)[0] for d in range(1, 9)] == MULTIPLE
    assert [oracle_perft(st, d) for d in range(1, 6)] == MULTIPLE[:5]
    assert [interface_perft(st, d) for d in range(1, 5)] == MULTIPLE[:4]


def test_perft_to_the_end_of_the_deal():
    st = multiple_position(30)
    count, leaves, tricks, _points = st._tp.perft(-1)
    assert count == leaves == 48384 and tricks == [71776, 361536, 41856, 0, 8672]
    assert oracle_perft(st, -1) == 48384
    assert sum(tricks) == 48384 * 10  # tricks won over the whole deal, summed over the leaves


# ---- bad actions -------------------------------------------------------------------------------
def snapshot(s):
    return s.to_record(), [s.observation(p) for p in range(5)], s.legal_actions(), s.current_player()


def assert_rejected(s, action, seat=None, match=None):
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match=match):
        s.apply_action(action, seat=seat) if seat is not None else s.apply_action(action)
    assert snapshot(s) == before


def test_bad_actions_in_every_phase():
    seen = set()
    for seed in range(40):
        s = new_game("squint", 5, {"deal_limit": 1}, 300 + seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            kind = s.decision()
            if kind not in seen or rng.random() < 0.03:
                seen.add(kind)
                seat = s.current_player()
                assert_rejected(s, "ZZ", match="not a squint action")
                assert_rejected(s, "", match="not a squint action")
                assert_rejected(s, "AS+AS")
                assert_rejected(s, "AS+KS+QS")
                assert_rejected(s, 99_999)
                assert_rejected(s, -1)
                assert_rejected(s, True)
                assert_rejected(s, 3.5)
                assert_rejected(s, s.legal_actions()[0], seat=(seat + 1) % 5, match="out of turn")
                legal = set(s.legal_action_strings())
                for text in ("TAKE", "HAND", "SOLO", "NULL", "2C", "AS", "2C+AS"):
                    if text not in legal:
                        assert_rejected(s, text, match="illegal|not a squint")
                # a card of someone else's hand
                mine = {c for c in range(52) if s.observation(seat)["hand"].count(sq.card_name(c))}
                foreign = next(c for c in range(52) if c not in mine)
                assert_rejected(s, sq.card_name(foreign), match="illegal")
                assert_rejected(s, sq.BID_BASE + foreign)
                assert_rejected(s, foreign)
            s.apply_action(numeral_biased_action(s, rng))
        assert_rejected(s, "AS", match="game is over")
    assert {"bid", "squint", "discard", "play"} <= seen


def test_error_message_names_the_legal_set():
    s = new_game("squint", 5, {}, 1)
    with pytest.raises(IllegalActionError) as exc:
        s.apply_action("TAKE")
    assert "legal" in str(exc.value) and s.legal_action_strings()[0] in str(exc.value)


def test_action_text_roundtrip():
    s = new_game("squint", 5, {}, 1)
    for a in list(range(52)) + [sq.BID_BASE + c for c in range(52)] + [sq.DISCARD1_BASE + c for c in range(52)]:
        assert s.action_to_string(a) == sq.card_name(a % 64 if a < 256 else (a - 256) % 64)
    for a in (sq.TAKE, sq.HAND, sq.SOLO, sq.NULL):
        assert s._parse(s.action_to_string(a)) == a and s.string_to_action(s.action_to_string(a).lower()) == a
    for x in range(52):
        for y in range(x + 1, 52):
            pid = sq.pair_id(x, y)
            text = s.action_to_string(pid)
            assert text == f"{sq.card_name(x)}+{sq.card_name(y)}"
            assert s._parse(text) == pid and s._parse(f"{sq.card_name(y)}+{sq.card_name(x)}") == pid
    assert s.decision() == "bid"   # card texts are bids now
    assert s.string_to_action("10h") == s._parse("TH") == sq.BID_BASE + sq.card_id("TH")
    for bad in (52, 255, 372, 399, 404, 511, sq.PAIR_BASE + 51 * 52 + 51, sq.PAIR_BASE + 3 * 52 + 3):
        with pytest.raises(ValueError):
            s.action_to_string(bad)
