"""Replay, clone independence, perft from fixed positions (core vs Python recursion vs the
oracle), and bad actions (illegal, malformed, out of turn) for Sticheln."""

from __future__ import annotations

import json
import random

import pytest

import trickcore
from trickcore import _core
from trickcore.games import sticheln as S

from . import oracle

RULESETS = trickcore.get_game("sticheln").variants


def snapshot(state):
    n = state.num_players
    return (json.dumps(state.to_record(), sort_keys=True),
            json.dumps([state.observation(s) for s in range(n)], sort_keys=True),
            json.dumps([state.events_for(s)[0] for s in range(n)], sort_keys=True),
            state.current_player(), state.decision(), state.legal_actions(), state.scores())


# ---- replay and clone -----------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_replay_rebuilds_the_same_state(ruleset):
    n = 3 + len(ruleset) % 6
    state = trickcore.new_game("sticheln", n, dict(S.variant_options(ruleset), rounds=2), seed=4242)
    rng = random.Random(1)
    k = 0
    while not state.is_terminal():
        if k % 37 == 0:
            assert snapshot(trickcore.replay(state.to_record())) == snapshot(state)
            assert snapshot(trickcore.replay(state.to_string())) == snapshot(state)
        state.apply_action(rng.choice(state.legal_action_strings()))  # text actions
        k += 1
    again = trickcore.replay(state.to_record())
    assert snapshot(again) == snapshot(state)
    assert again.history == state.history and again.scores() == state.scores()
    assert again.action_ids == state.action_ids
    # the history texts parse back to the same ids at each step
    st = trickcore.new_game("sticheln", n, state.options, state.seed)
    for text, aid in zip(state.history, state.action_ids):
        assert st.string_to_action(text) == aid
        st.apply_action(text)


def test_same_seed_same_game_different_seed_different_deal():
    a = trickcore.new_game("sticheln", 5, {}, seed=11)
    b = trickcore.new_game("sticheln", 5, {}, seed=11)
    c = trickcore.new_game("sticheln", 5, {}, seed=12)
    assert a.observation(0) == b.observation(0) and a.observation(0)["hand"] != c.observation(0)["hand"]


@pytest.mark.parametrize("ruleset", ["classic", "verschaerft+nebel", "verkehrt+verschaerft+verspaetet"])
def test_clone_is_independent(ruleset):
    state = trickcore.new_game("sticheln", 4, dict(S.variant_options(ruleset), rounds=2), seed=8)
    rng = random.Random(3)
    for stop in (2, 30, 70):
        while len(state.history) < stop:
            state.apply_action(rng.choice(state.legal_actions()))
        before = snapshot(state)
        twin = state.clone()
        assert snapshot(twin) == before
        actions = []
        r2 = random.Random(stop)
        while not twin.is_terminal():
            a = r2.choice(twin.legal_actions())
            actions.append(a)
            twin.apply_action(a)
        assert snapshot(state) == before  # the original did not move
        for a in actions:
            state.apply_action(a)
        assert snapshot(state) == snapshot(twin)
        state = trickcore.new_game("sticheln", 4, dict(S.variant_options(ruleset), rounds=2), seed=8)


# ---- perft -------------------------------------------------------------------------------

def fixed_position(n, opts, plays):
    """Seed 2024; everyone lays out his first legal option, then ``plays`` first-legal cards."""
    state = trickcore.new_game("sticheln", n, dict(opts, rounds=1), seed=2024)
    while state.decision() == "layout":
        state.apply_action(state.legal_actions()[0])
    for _ in range(plays):
        state.apply_action(state.legal_actions()[0])
    return state


def python_perft(state, depth):
    """Leaf count and per-seat trick / point sums by recursion over the public interface."""
    if depth == 0 or state.decision() != "play":
        tp = state._tp
        return 1, tp.tricks_won(), tp.points_won()
    count, tricks, points = 0, [0] * state.num_players, [0] * state.num_players
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        c, t, p = python_perft(child, depth - 1)
        count += c
        tricks = [x + y for x, y in zip(tricks, t)]
        points = [x + y for x, y in zip(points, p)]
    return count, tricks, points


def oracle_perft(hands, leader, trick, left, depth, tricks, points, low):
    """The same from the oracle: hands are lists of (colour, value), trick of (seat, card)."""
    n = len(hands)
    if depth == 0 or left == 0:
        return 1, list(tricks), list(points)
    seat = (leader + len(trick)) % n
    total, tsum, psum = 0, [0] * n, [0] * n
    for card in sorted(oracle.legal(hands[seat], [c for _s, c in trick])):
        h2 = list(hands)
        h2[seat] = [c for c in hands[seat] if c != card]
        t2 = trick + [(seat, card)]
        tr, pt, lead2, left2 = list(tricks), list(points), leader, left
        if len(t2) == n:
            w = t2[oracle.winner([c for _s, c in t2], low)][0]
            tr[w] += 1
            pt[w] += sum(v for _s, (_c, v) in t2)
            t2, lead2, left2 = [], w, left - 1
        c, t, p = oracle_perft(h2, lead2, t2, left2, depth - 1, tr, pt, low)
        total += c
        tsum = [x + y for x, y in zip(tsum, t)]
        psum = [x + y for x, y in zip(psum, p)]
    return total, tsum, psum


def oracle_from(state, depth):
    tp = state._tp
    n = state.num_players
    hands = [[(S.CARD_COLOUR[c], S.CARD_VALUE[c]) for c in _core.cards_list(tp.hand(s))] for s in range(n)]
    leader, moves, _led, _open = tp.current_trick()
    trick = [((leader + i) % n, (S.CARD_COLOUR[m], S.CARD_VALUE[m])) for i, m in enumerate(moves)]
    return oracle_perft(hands, leader, trick, tp.tricks_left, depth, tp.tricks_won(), tp.points_won(),
                        state.flags["verkehrt"])


# Pinned numbers: (count == leaves, tricks per seat, points per seat) summed over the leaves.
PINNED = {
    # Classic, 4 players, seed 2024, 11 tricks played: 3 tricks (3 cards each) to the end.
    "classic_end": (1296, [6256, 5248, 5152, 1488], [133640, 130032, 119608, 28848]),
    # Classic, 4 players, seed 2024, start of the trick phase: 4 plies.
    "classic_d4": (38416, [384, 14066, 13843, 10123], [6592, 326267, 309728, 230005]),
    # verkehrt, 5 players, seed 2024, 11 tricks played + 2 cards: to the end.
    "verkehrt_end": (864, [2448, 1376, 3456, 2752, 2064], [88344, 36864, 153504, 88672, 68072]),
}


def positions():
    return {
        "classic_end": (fixed_position(4, {}, 44), -1),
        "classic_d4": (fixed_position(4, {}, 0), 4),
        "verkehrt_end": (fixed_position(5, {"verkehrt": True}, 57), -1),
    }


@pytest.mark.parametrize("name", list(PINNED))
def test_perft_pinned_and_cross_checked(name):
    state, depth = positions()[name]
    count, leaves, tricks, points = state._tp.perft(depth)
    assert count == leaves
    assert (count, tricks, points) == PINNED[name]
    o_count, o_tricks, o_points = oracle_from(state, depth if depth >= 0 else 10**6)
    assert (o_count, o_tricks, o_points) == (count, tricks, points)
    if count <= 5000:
        assert python_perft(state, depth if depth >= 0 else 10**6) == (count, tricks, points)
    divide = state._tp.divide(depth)
    assert sum(divide.values()) == count
    assert sorted(divide) == list(state.legal_actions())


# ---- bad actions ----------------------------------------------------------------------

BAD_TEXTS = ["", "  ", "Z9", "R99", "V19", "R7+", "+", "R+R", "R7+R7", "X+Y", "pass", "R7 B3", "R-1", "Y19"]


def assert_rejected(state, action, seat=None):
    before = snapshot(state)
    with pytest.raises(trickcore.IllegalActionError) as err:
        state.apply_action(action, seat=seat) if seat is not None else state.apply_action(action)
    assert str(err.value)
    assert snapshot(state) == before
    return str(err.value)


def test_bad_actions_every_decision():
    for ruleset in ("classic", "verschaerft", "verspaetet", "verschaerft+verspaetet"):
        state = trickcore.new_game("sticheln", 3, dict(S.variant_options(ruleset), rounds=1), seed=5)
        rng = random.Random(2)
        seen = set()
        while not state.is_terminal():
            legal = state.legal_actions()
            seat = state.current_player()
            kind = state.decision()
            if (kind, len(state.history) % 7) not in seen or kind == "colour":
                seen.add((kind, len(state.history) % 7))
                for text in BAD_TEXTS:
                    assert_rejected(state, text)
                for a in (-1, 10**9, 2**62, -2**62, None, 3.5, True, [1], 255):
                    assert_rejected(state, a)
                msg = assert_rejected(state, legal[0], seat=(seat + 1) % 3)  # out of turn
                assert "out of turn" in msg and f"seat {seat}" in msg
                other = (seat + 1) % 3
                # another seat's card, in every form
                if kind in ("play", "layout"):
                    hand = state._tp.hand(other) if kind == "play" else state.hands[other]
                    c = _core.cards_list(hand)[0]
                    msg = assert_rejected(state, S.DECK.names[c])
                    assert "legal" in msg
                    assert_rejected(state, c)
                    assert_rejected(state, S.LAYOUT + c)
                if kind == "layout":
                    own = _core.cards_list(state.hands[seat])[0]
                    assert_rejected(state, own)  # a card play id during the layout decision
                if kind == "play":
                    assert_rejected(state, S.LAYOUT + legal[0])  # a layout id during play
                    assert_rejected(state, S.COLOUR)
                if kind == "colour":
                    won = {S.CARD_COLOUR[c] for c in _core.cards_list(state._tp.won(seat))}
                    for col in set(range(5)) - won:
                        assert_rejected(state, S.COLOURS[col])
                    if not state.flags["verschaerft"]:
                        assert_rejected(state, "R+B")
                    assert_rejected(state, legal[0] + 10**4)
            state.apply_action(rng.choice(legal), seat=seat)
        assert_rejected(state, "R1")
        assert_rejected(state, 0)
        assert state.legal_actions() == () and state.current_player() == -1


def test_unknown_options_and_bad_config():
    with pytest.raises(trickcore.GameConfigError):
        trickcore.new_game("sticheln", 4, {"umgekehrt": True})
    with pytest.raises(trickcore.GameConfigError):
        trickcore.new_game("sticheln", 4, {"mild": 1})
    with pytest.raises(trickcore.GameConfigError):
        trickcore.new_game("sticheln", 4, {"rounds": 0})
    with pytest.raises(trickcore.GameConfigError):
        S.variant_options("classic+nothing")


def test_core_huge_int_action_during_card_play():
    state = trickcore.new_game("sticheln", 3, {"rounds": 1}, seed=5)
    while state.decision() == "layout":
        state.apply_action(state.legal_actions()[0])
    assert state.decision() == "play"
    assert_rejected(state, 2**70)
