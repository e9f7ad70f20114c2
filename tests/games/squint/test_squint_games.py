"""Random full games (seeded) with the game's invariants checked after every action:
card conservation, hand sizes, trick counts, scores recomputed from the recorded tricks by
an independent reading of §8, the §9 end condition, and termination."""

from __future__ import annotations

import json
import random

import pytest

from tests.games.squint import oracle
from tests.games.squint.util import locations, numeral_biased_action
from trickcore.games import new_game
from trickcore.games import squint as sq


def spec_scores(contract: dict, tricks: list[int], clean: list[int] | None, h: int) -> list[int]:
    """§8 table, read independently of the module's scoring functions."""
    out = [0] * 5
    kind = contract["kind"]
    if kind == "multiple":
        h = 1
    for s in contract.get("aces", []):
        t = tricks[s]
        out[s] = (20 * (t - 5) if t >= 6 else -20 * (6 - t)) * h
    for s in contract.get("deuces", []):
        t = tricks[s]
        out[s] = (25 if t == 0 else -25 * t) * h
    if kind == "grand":
        (s,) = contract["contractors"]
        t = tricks[s]
        out[s] = (15 * (t - 5) if t >= 6 else -15 * (6 - t)) * h
    elif kind == "plain":
        (s,) = contract["contractors"]
        M = max(t for o, t in enumerate(tricks) if o != s)
        out[s] = (10 * (tricks[s] - 2) if tricks[s] > M else -5 * M) * h
    elif kind == "duo":
        T = sum(tricks[s] for s in contract["contractors"])
        for s in contract["contractors"]:
            out[s] = (10 * (T - 5) if T >= 6 else -10 * (6 - T)) * h
    elif kind == "null":
        for s in range(5):
            t, c = tricks[s], clean[s]
            out[s] = 0 if t == 0 else 20 * t if c == t else 10 * c
    return out


def check_deal_result(state, result, tricks_log, prev_totals):
    """A finished deal: tricks, clean tricks and scores from the recorded tricks."""
    assert len(tricks_log) == 10
    tricks = [0] * 5
    clean = [0] * 5
    contract = result["contract"]
    trump = contract["trump"]
    for leader, moves, winner, *_ in tricks_log:
        cards = [sq.card_name(m) for m in moves]
        assert winner == oracle.winner_seat(leader, cards, trump)
        tricks[winner] += 1
        if contract["kind"] == "null" and all(c[1] != contract["penalty"] for c in cards):
            clean[winner] += 1
    assert result["tricks"] == tricks and sum(tricks) == 10
    if contract["kind"] == "null":
        assert result["clean"] == clean
        assert sum(tricks) - sum(clean) >= 3   # §8 sanity check: >= 11 penalty cards in play
    else:
        assert result["clean"] is None
    h = result["multiplier"]
    assert h in (1, 2)
    if contract["kind"] in ("multiple", "null"):
        assert h == 1
    assert result["scores"] == spec_scores(contract, tricks, clean, h)
    assert result["totals"] == [a + b for a, b in zip(prev_totals, result["scores"])]
    # opponents score 0 (D-3)
    scorers = set(range(5)) if contract["kind"] == "null" else set(contract["contractors"])
    assert all(result["scores"][s] == 0 for s in range(5) if s not in scorers)


def check_state(state):
    if state.is_terminal():
        assert state.current_player() == -1 and state.legal_actions() == () and state.decision() == ""
        return
    where = locations(state)
    phase = state.phase
    sizes = [sum(1 for p in where.values() if p == f"hand{s}") for s in range(5)]
    legal = state.legal_actions()
    assert legal and list(legal) == sorted(set(legal))
    seat = state.current_player()
    if phase in ("bid", "choice"):
        assert sizes == [10] * 5
    elif phase == "squint":
        assert sizes == [10] * 5 and list(legal) == [sq.TAKE, sq.HAND]
    elif phase == "discard":
        assert sizes[seat] == 10 + state.discard_n
        assert len(legal) == (66 if state.discard_n == 2 else 11)
        assert sum(sizes) == 50 + state.discard_n
    elif phase == "pass":
        assert sizes[seat] == 12 and sum(sizes) == 52 and len(legal) == 66
    elif phase == "play":
        tp = state._tp
        done = tp.n_tricks_done
        assert sum(tp.tricks_won()) == done
        in_trick = tp.trick_len
        assert sum(sizes) == 50 - 5 * done - in_trick
        assert len(where) == 52
        hand = sq.names(tp.hand(seat))
        trick = [sq.card_name(m) for m in tp.current_trick()[1]]
        assert {sq.card_name(a) for a in legal} == oracle.legal(hand, trick)


def play_game(seed: int, options: dict, picker, check_every_action: bool) -> tuple:
    state = new_game("squint", 5, options, seed)
    rng = random.Random(seed * 7919 + 1)
    n_actions = 0
    n_results = 0
    totals = [0] * 5
    kinds = []
    while not state.is_terminal():
        if check_every_action:
            check_state(state)
        tp_before = state._play_tp
        state.apply_action(picker(state, rng))
        n_actions += 1
        assert n_actions < 70 * options.get("max_deals", 200) + 10
        if len(state.results) > n_results:
            result = state.results[-1]
            check_deal_result(state, result, tp_before.tricks, totals)
            totals = result["totals"]
            kinds.append(result["contract"]["kind"])
            n_results += 1
            o = state.options
            ended = sq.game_over(totals, n_results, o["target_score"], o["deal_limit"], o["max_deals"])
            assert ended == state.is_terminal()
    check_state(state)
    assert state.scores() == [float(t) for t in totals]
    assert state.ranks() == [1 + sum(1 for u in totals if u > t) for t in totals]
    json.dumps(state.observation(0))
    return state, kinds


OPTION_SETS = [
    {"deal_limit": 1},
    {"deal_limit": 2, "target_score": 0},
    {"deal_limit": 3, "target_score": 40},
    {"target_score": 30, "max_deals": 6},
    {"deal_limit": 5, "first_dealer": 2},
]


@pytest.mark.parametrize("biased", [False, True])
@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_games_checked_every_action(options, biased):
    picker = numeral_biased_action if biased else (lambda s, r: r.choice(s.legal_actions()))
    seen = set()
    for seed in range(60):
        _state, kinds = play_game(seed + 1000 * biased, options, picker, True)
        seen.update(kinds)
    if biased:
        assert {"duo", "null", "plain"} <= seen


def test_thousands_of_random_games():
    """Many short matches, checking every deal result and the end condition."""
    seen = set()
    for seed in range(2000):
        options = dict(OPTION_SETS[seed % len(OPTION_SETS)])
        picker = numeral_biased_action if seed % 2 else (lambda s, r: r.choice(s.legal_actions()))
        _state, kinds = play_game(50_000 + seed, options, picker, False)
        seen.update(kinds)
    assert seen == {"ace", "misere", "multiple", "grand", "plain", "duo", "null"}


def test_default_options_full_matches():
    """Default options: random play rarely reaches 150, so max_deals (200) ends these."""
    for seed in range(2):
        state, kinds = play_game(seed, {}, lambda s, r: r.choice(s.legal_actions()), False)
        assert len(kinds) <= 200 and state.is_terminal()


@pytest.mark.slow
def test_soak_random_games():
    for seed in range(20000):
        options = dict(OPTION_SETS[seed % len(OPTION_SETS)])
        play_game(900_000 + seed, options, numeral_biased_action, seed % 10 == 0)
