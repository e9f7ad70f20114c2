"""Hattrick: random full games with invariants after every action and scores recomputed from
the public events with the oracle; information; replay and clone; perft; bad actions."""

from __future__ import annotations

import json
import random

import pytest

import trickcore
from trickcore import _core
from trickcore.games import hattrick as H

from . import oracle
from .helpers import cv


def snapshot(state):
    n = state.num_players
    return (json.dumps(state.to_record(), sort_keys=True),
            json.dumps([state.observation(s) for s in range(n)], sort_keys=True),
            json.dumps([state.events_for(s)[0] for s in range(n)], sort_keys=True),
            state.current_player(), state.decision(), state.legal_actions(), state.scores())


def check_invariants(state):
    n = state.num_players
    if state.is_terminal():
        assert state.legal_actions() == () and state.current_player() == -1 and state.decision() == ""
        return
    tp = state._tp
    leader, moves, _led, _open = tp.current_trick()
    places = [tp.hand(s) for s in range(n)] + [tp.won(s) for s in range(n)] + [tp.passed(s) for s in range(n)]
    places.append(sum(1 << m for m in moves))
    total = 0
    for p in places:
        assert total & p == 0
        total |= p
    assert total == state.used
    done = tp.n_tricks_done
    for s in range(n):
        played_now = 1 if (s - leader) % n < len(moves) else 0
        assert _core.cards_count(tp.hand(s)) == state.hand_size - done - played_now
    assert sum(tp.tricks_won()) == sum(1 + (t[3] >= 0) for t in tp.tricks)
    assert tp.points_won() == [_core.cards_count(tp.won(s)) for s in range(n)]
    assert list(state.legal_actions()) == _core.cards_list(tp.hand(state.current_player()))


def check_scores_from_events(state):
    n = state.num_players
    events, _ = state.events_for(0)
    totals = [0] * n
    games = 0
    for e in events:
        if e["type"] == "deal":
            counts = [[0, 0, 0] for _ in range(n)]
            passes = [0] * n
            nxt = e["leader"]
            doubles = 0
        elif e["type"] == "trick":
            assert e["leader"] == nxt
            cards = [cv(t) for t in e["cards"]]
            assert len(cards) == n
            piles = oracle.classify(cards)
            w0, w1, on = oracle.resolve(cards)
            seat = lambda i, e=e: -1 if i is None else (e["leader"] + i) % n  # noqa: E731
            assert e["winner"] == seat(w0)
            assert e.get("winner2", -1) == seat(w1)
            assert e.get("next_leader", e["winner"]) == seat(on)
            for i, (card, p) in enumerate(zip(cards, piles)):
                if p == oracle.PASS:
                    passes[(e["leader"] + i) % n] += 1
                else:
                    counts[seat(w0 if p == 0 else w1)][card[0]] += 1
            nxt = seat(on)
            doubles += 1
        elif e["type"] == "last_cards":
            assert doubles == state.n_tricks
            assert all(len(c) == 1 for c in e["cards"])
            assert sum(map(sum, counts)) + sum(passes) + n == _core.cards_count(state.used)
        elif e["type"] == "game_end":
            games += 1
            scores = [oracle.score(*counts[s], passes[s]) for s in range(n)]
            assert e["scores"] == scores
            totals = [t + x for t, x in zip(totals, scores)]
            assert e["totals"] == totals
    assert games == len(state.game_scores)
    assert state.scores() == [float(t) for t in totals]


def run_game(n, seed, games=1, every=True):
    state = trickcore.new_game("hattrick", n, {"games": games}, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        if every:
            check_invariants(state)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        assert steps <= games * state.n_tricks * n
    check_invariants(state)
    check_scores_from_events(state)
    return state


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_random_games(n):
    """4 player counts x 400 random games."""
    for seed in range(400):
        run_game(n, seed * 10 + n)


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_full_matches(n):
    for seed in range(5):
        state = run_game(n, 500 + seed, games=5, every=False)
        assert len(state.game_scores) == 5
        leaders = [e["leader"] for e in state.events_for(0)[0] if e["type"] == "deal"]
        dealers = [e["dealer"] for e in state.events_for(0)[0] if e["type"] == "deal"]
        assert leaders == [g % n for g in range(5)] and dealers == [(g - 1) % n for g in range(5)]
        assert [e for e in state.events_for(2)[0] if e["type"] == "match_end"][0]["scores"] == \
            [int(s) for s in state.scores()]


@pytest.mark.slow
@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_soak(n):
    for seed in range(3000):
        run_game(n, 10**6 + seed, games=2)


# ---- information -----------------------------------------------------------------------

def view(state, seat):
    return json.dumps(state.observation(seat), sort_keys=True), json.dumps(state.events_for(seat)[0], sort_keys=True)


def check_position(monkeypatch, state, seat, rng):
    before = view(state, seat)
    tp = state._tp
    u = _core.cards_list(sum(tp.hand(t) for t in range(state.num_players) if t != seat))
    perm = u[:]
    rng.shuffle(perm)
    pi = dict(zip(u, perm))
    game = state.game
    real = H._deal

    def fake(sd, g, used, nn, hand):
        hands = real(sd, g, used, nn, hand)
        if g != game:
            return hands
        return [sum(1 << pi.get(c, c) for c in _core.cards_list(h)) for h in hands]

    with monkeypatch.context() as m:
        m.setattr(H, "_deal", fake)
        alt = trickcore.new_game("hattrick", state.num_players, state.options, state.seed)
        for a in state.action_ids:
            alt.apply_action(a)
        if u:
            assert any(alt._tp.hand(t) != tp.hand(t) for t in range(state.num_players)) or len(set(u)) == 1 \
                or perm == u
        assert view(alt, seat) == before


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_observation_independent_of_other_hands(monkeypatch, n):
    rng = random.Random(n)
    state = trickcore.new_game("hattrick", n, {"games": 2}, seed=n + 7)
    k = 0
    total = 2 * n * state.n_tricks
    checkpoints = set(rng.sample(range(total), 6)) | {0, 1, total - 1}
    while not state.is_terminal():
        if k in checkpoints:
            for seat in range(n):
                check_position(monkeypatch, state, seat, rng)
        state.apply_action(rng.choice(state.legal_actions()))
        k += 1


def test_public_piles_and_last_cards():
    state = trickcore.new_game("hattrick", 4, {"games": 2}, seed=3)
    rng = random.Random(0)
    while state.game == 1:
        obs = [state.observation(s) for s in range(4)]
        for s in range(4):  # everything but the hand is the same for every seat
            a, b = dict(obs[s]), dict(obs[0])
            for key in ("seat", "hand"):
                a.pop(key)
                b.pop(key)
            assert a == b
        state.apply_action(rng.choice(state.legal_actions()))
    last = [e for e in state.events_for(1)[0] if e["type"] == "last_cards"]
    assert len(last) == 1 and state.observation(1)["previous_games"][0]["last_cards"] == last[0]["cards"]


# ---- replay and clone ---------------------------------------------------------------------

@pytest.mark.parametrize("n", [4, 7])
def test_replay_and_clone(n):
    state = trickcore.new_game("hattrick", n, {"games": 2}, seed=99)
    rng = random.Random(5)
    k = 0
    while not state.is_terminal():
        if k % 23 == 0:
            assert snapshot(trickcore.replay(state.to_record())) == snapshot(state)
            before = snapshot(state)
            twin = state.clone()
            r2 = random.Random(k)
            while not twin.is_terminal():
                twin.apply_action(r2.choice(twin.legal_actions()))
            assert snapshot(state) == before
        state.apply_action(rng.choice(state.legal_action_strings()))
        k += 1
    again = trickcore.replay(state.to_string())
    assert snapshot(again) == snapshot(state) and again.history == state.history


# ---- perft ----------------------------------------------------------------------------------

def fixed_position(n, plays):
    state = trickcore.new_game("hattrick", n, {"games": 1}, seed=2024)
    for _ in range(plays):
        state.apply_action(state.legal_actions()[0])
    return state


def python_perft(state, depth):
    if depth == 0 or state.is_terminal() or state._tp.over:
        tp = state._tp
        return 1, tp.tricks_won(), tp.points_won()
    count, tricks, points = 0, [0] * state.num_players, [0] * state.num_players
    for a in state.legal_actions():
        child = state.clone()
        tp = child._tp
        child.apply_action(a)
        if tp.over:  # the game ended: look at the finished trick phase, not the next one
            c, t, p = 1, tp.tricks_won(), tp.points_won()
        else:
            c, t, p = python_perft(child, depth - 1)
        count += c
        tricks = [x + y for x, y in zip(tricks, t)]
        points = [x + y for x, y in zip(points, p)]
    return count, tricks, points


def oracle_perft(hands, leader, trick, left, depth, tricks, points):
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
            cards = [c for _s, c in t2]
            piles = oracle.classify(cards)
            w0, w1, nx = oracle.resolve(cards)
            for w, pile in ((w0, 0), (w1, 1)):
                if w is not None:
                    tr[t2[w][0]] += 1
                    pt[t2[w][0]] += piles.count(pile)
            t2, lead2, left2 = [], t2[nx][0], left - 1
        c, t, p = oracle_perft(h2, lead2, t2, left2, depth - 1, tr, pt)
        total += c
        tsum = [x + y for x, y in zip(tsum, t)]
        psum = [x + y for x, y in zip(psum, p)]
    return total, tsum, psum


def oracle_from(state, depth):
    tp = state._tp
    n = state.num_players
    hands = [[cv(H.DECK.names[c]) for c in _core.cards_list(tp.hand(s))] for s in range(n)]
    leader, moves, _led, _open = tp.current_trick()
    trick = [((leader + i) % n, cv(H.DECK.names[m])) for i, m in enumerate(moves)]
    return oracle_perft(hands, leader, trick, tp.tricks_left, depth, tp.tricks_won(), tp.points_won())


PINNED = {
    # 4 players, seed 2024, 12 double tricks played: the last 2 double tricks.
    "four_end": (1296, [4944, 10432, 6464, 2784], [10704, 32656, 24560, 4656]),
    # 4 players, seed 2024, the start: 4 plies.
    "four_d4": (50625, [34394, 29256, 21967, 13933], [58298, 47808, 41909, 27428]),
    # 7 players, seed 2024, 6 double tricks + 3 cards: to the end.
    "seven_end": (10368, [512, 2304, 22016, 37376, 10368, 28512, 23328],
                  [3072, 13824, 38784, 203520, 62208, 137376, 121824]),
}


def positions():
    return {"four_end": (fixed_position(4, 48), -1), "four_d4": (fixed_position(4, 0), 4),
            "seven_end": (fixed_position(7, 45), -1)}


@pytest.mark.parametrize("name", list(PINNED))
def test_perft_pinned_and_cross_checked(name):
    state, depth = positions()[name]
    count, leaves, tricks, points = state._tp.perft(depth)
    assert count == leaves
    assert (count, tricks, points) == PINNED[name]
    assert oracle_from(state, depth if depth >= 0 else 10**6) == (count, tricks, points)
    if count <= 5000:
        assert python_perft(state, depth if depth >= 0 else 10**6) == (count, tricks, points)
    assert sum(state._tp.divide(depth).values()) == count


# ---- bad actions ---------------------------------------------------------------------------

def assert_rejected(state, action, seat=None):
    before = snapshot(state)
    with pytest.raises(trickcore.IllegalActionError) as err:
        state.apply_action(action, seat=seat) if seat is not None else state.apply_action(action)
    assert str(err.value)
    assert snapshot(state) == before
    return str(err.value)


def test_bad_actions():
    state = trickcore.new_game("hattrick", 4, {"games": 1}, seed=1)
    rng = random.Random(0)
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(state.history) % 9 == 0:
            for text in ("", " ", "R21", "Y3", "R7+B3", "pass", "R", "B-1", "R0"):
                assert_rejected(state, text)
            for a in (-1, 63, 64, 255, 256, 10**9, None, 2.0, True):
                assert_rejected(state, a)
            msg = assert_rejected(state, legal[0], seat=(seat + 2) % 4)
            assert "out of turn" in msg
            other = _core.cards_list(state._tp.hand((seat + 1) % 4))[0]
            msg = assert_rejected(state, H.DECK.names[other])
            assert "legal" in msg
            assert_rejected(state, other)
        state.apply_action(rng.choice(legal), seat=seat)
    assert_rejected(state, "R1")
    assert_rejected(state, 1)


def test_bad_config():
    for n in (3, 8):
        with pytest.raises(trickcore.GameConfigError):
            trickcore.new_game("hattrick", n)
    with pytest.raises(trickcore.GameConfigError):
        trickcore.new_game("hattrick", 4, {"games": 0})
    with pytest.raises(trickcore.GameConfigError):
        trickcore.new_game("hattrick", 4, {"verkehrt": True})
