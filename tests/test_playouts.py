"""Playouts in C from any trick-phase state (docs/search.md): reproducible, per-move
evaluation consistent with playing the move first, the original state untouched, and the
C playouts statistically the same game as random play through the Python interface."""

from __future__ import annotations

import math
import random
import zlib

import pytest

import trickcore
from trickcore.cli import game_state_in_trick_phase

CASES = [(g.name, n) for g in trickcore.list_games() for n in g.players]


def _state(name, players):
    state = game_state_in_trick_phase(name, players, seed=zlib.crc32(f"{name}/{players}".encode()) % 1000)
    assert state is not None
    return state


@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_playouts_are_reproducible_and_leave_the_state_alone(name, players):
    state = _state(name, players)
    state.apply_action(state.legal_actions()[0])          # from inside a trick, too
    before = (state.to_record(), [state.observation(s) for s in range(players)], state.legal_actions())
    a = state.playouts(300, seed=5)
    assert a == state.playouts(300, seed=5) and a != state.playouts(300, seed=6)
    assert (state.to_record(), [state.observation(s) for s in range(players)], state.legal_actions()) == before
    assert a["n"] == 300 and len(a["tricks"]) == len(a["points"]) == players
    tp = state._trick_phase
    won_before = sum(tp.tricks_won())
    per_trick = 2 if name == "hattrick" else 1                # Hattrick: two tricks per double trick
    assert math.isclose(sum(a["tricks"]), won_before + per_trick * tp.tricks_left, abs_tol=1e-9) or name == "hattrick"


@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_per_move_evaluation_is_playing_each_move_then_playing_out(name, players):
    state = _state(name, players)
    per_move = state.playouts(40, policy="greedy", seed=9, per_move=True)
    assert list(per_move) == list(state.legal_actions())
    # The same generator stream, move by move: the C per-move loop equals playing the move on
    # a copy of the trick phase and then running playouts from there.
    rng = trickcore._core.Rng(9)
    for move in state.legal_actions():
        after = state._trick_phase.copy()
        after.play(move)
        tricks, points = after.playouts(40, rng, trickcore._core.POLICY_GREEDY)
        assert per_move[move]["tricks"] == tricks and per_move[move]["points"] == points


@pytest.mark.parametrize("name,players", [("reference", 4), ("sticheln", 4), ("klaberjass", 3), ("beim-jupiter", 4),
                                          ("squint", 5), ("hattrick", 5)])
def test_c_playouts_match_random_play_through_the_interface(name, players):
    """The mean tricks of one seat over C playouts equal those of random games through
    apply_action from the same state (a z-test at 4.5 sigma, fixed seeds): the C loop plays
    the same rules as the interface."""
    state = _state(name, players)
    n = 3000
    c_mean = state.playouts(n, seed=1)["tricks"][0]
    rng = random.Random(2)
    samples = []
    for _ in range(n):
        copy = state.clone()
        phase = copy._tp                 # the copy's own trick phase: play until it ends
        while copy._tp is phase and not phase.over:
            copy.apply_action(rng.choice(copy.legal_actions()))
        samples.append(phase.tricks_won()[0])
    mean = sum(samples) / n
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    assert abs(mean - c_mean) <= 4.5 * math.sqrt(2 * var / n) + 1e-9, (mean, c_mean)


def test_bad_arguments_are_refused():
    state = trickcore.new_game("reference", 4, seed=1)
    for kwargs in ({"n": 0}, {"n": True}, {"policy": "best"}):
        with pytest.raises(ValueError):
            state.playouts(**kwargs)
    bidding = trickcore.new_game("squint", 5, seed=1)
    with pytest.raises(ValueError, match="trick phase"):
        bidding.playouts(10)


@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_finish_trick_phase_is_applying_the_cards_one_by_one(name, players, policy):
    """finish_trick_phase plays in C what apply_action would: the same history, views, events
    and scores, the game's flow after the last card included (scoring, the next decision)."""
    state = _state(name, players)
    state.apply_action(state.legal_actions()[-1])
    finished = state.clone()
    finished.finish_trick_phase(policy, seed=9)
    cards = finished.action_ids[len(state.action_ids):]
    assert cards and finished._tp is not state._tp
    stepped = state.clone()
    for card in cards:
        stepped.apply_action(card)
    assert finished.history == stepped.history
    assert [finished.observation(s) for s in range(players)] == [stepped.observation(s) for s in range(players)]
    assert finished.events_since(0)[0] == stepped.events_since(0)[0]
    assert finished.scores() == stepped.scores() and finished.legal_actions() == stepped.legal_actions()
    again = state.clone()
    again.finish_trick_phase(policy, seed=9)
    assert again.history == finished.history                       # seeded


def test_finish_trick_phase_only_in_a_trick_phase():
    state = trickcore.new_game("squint", 5, seed=1)                # a bid decision
    with pytest.raises(ValueError, match="trick phase"):
        state.finish_trick_phase()
    with pytest.raises(ValueError, match="policy"):
        _state("hattrick", 4).finish_trick_phase("clever")
