"""Every bundled heuristic policy, driven through whole games for every seat count: each
decision returns a legal option, and a policy error is raised, never swallowed (the bundled
heuristic bot decides what a policy bug costs at a tournament, not the policy)."""

from __future__ import annotations

import random

import pytest

import trickcore
from trickcore.games import policy_of

#: Every registered game that names a policy (GameInfo.policy), with each of its player counts.
POLICIES = [info.name for info in trickcore.list_games() if info.policy]
CASES = [(name, n) for name in POLICIES for n in sorted(trickcore.get_game(name).players)]
MAX_DECISIONS = 3000  # long Squint matches are cut; each game's own tests play whole matches


@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_policy_answers_every_decision_legally(name, players):
    choose = policy_of(name)
    for seed in (1, 2):
        state = trickcore.new_game(name, players, seed=seed)
        rng = random.Random(seed)
        for _ in range(MAX_DECISIONS):
            if state.is_terminal():
                break
            seat = state.current_player()
            legal = state.legal_action_strings()
            choice = choose(state.observation(seat), legal, rng)
            assert choice in legal, (name, players, seed, state.decision(), choice, legal)
            state.apply_action(choice)


def test_every_game_but_the_benchmark_game_has_a_policy():
    """A new game without a heuristic would pass every policy test by having none."""
    assert sorted(info.name for info in trickcore.list_games() if not info.policy) == ["reference"]


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_policy_errors_surface(name):
    choose = policy_of(name)
    state = trickcore.new_game(name, min(trickcore.get_game(name).players), seed=3)
    legal = state.legal_action_strings()
    if len(legal) < 2:  # a forced first decision: move on to one with a choice
        while len(state.legal_action_strings()) < 2:
            state.apply_action(state.legal_action_strings()[0])
        legal = state.legal_action_strings()
    broken = {"decision": state.decision()}  # an observation with every other key missing
    with pytest.raises((KeyError, ValueError, TypeError, IndexError)):
        choose(broken, legal, random.Random(0))
