"""Every game as a PettingZoo AEC environment (trickcore.integrations.pettingzoo): PettingZoo's own
api_test on every game and variant, random agents playing whole matches (rewards at the end of
each deal adding up to the match scores), seeding and rendering.  The training-loop example of
docs/integrations.md runs with the docs' examples (conftest.py at the root)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

import trickcore
from trickcore.encodings import encoding
from trickcore.integrations.pettingzoo import env, raw_env

from .configs import CONFIGS, ONE_PER_GAME, config_id
from .view_tensors import view_tensor

# api_test's advice for environments without action masks; ours are dicts of tensor and mask.
pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_test(config):
    game, players, options = config
    api_test(env(game=game, players=players, options=options), num_cycles=300)


@pytest.mark.parametrize("config", ONE_PER_GAME, ids=config_id)
def test_random_agents_play_whole_matches(config):
    """Seeded random agents (seeds 0, 1): every mask is the legal set of the agent to act, the
    rewards come when a deal ends and add up to each seat's match score."""
    game, players, options = config
    enc = encoding(game, players, options)
    for seed in (0, 1):
        e = env(game=game, players=players, options=options)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total = {agent: 0.0 for agent in e.possible_agents}
        state = e.unwrapped.trickcore_state
        paid = 0
        for agent in e.agent_iter(max_iter=100_000):
            obs, reward, terminated, truncated, info = e.last()
            total[agent] += reward
            if terminated or truncated:
                e.step(None)
                continue
            seat = e.unwrapped.agent_name_mapping[agent]
            assert seat == state.current_player() and info["decision"] == state.decision()
            assert [enc.action_of(i, state) for i in np.flatnonzero(obs["action_mask"])] == list(state.legal_actions())
            assert np.array_equal(obs["observation"], view_tensor(enc, state.observation(seat)))
            deal = state.deal_number()
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if any(e.unwrapped.rewards.values()):      # paid only when a deal (or the match) ends
                assert state.deal_number() != deal or state.is_terminal()
                paid += 1
        assert state.is_terminal() and not e.agents and paid >= 1
        assert [total[a] for a in e.possible_agents] == state.scores()


def test_seeds_replay_the_same_match():
    e = raw_env(game="squint", options={"deal_limit": 1})
    e.reset(seed=12)
    first = e.trickcore_state.to_record()
    e.reset(seed=12)
    assert e.trickcore_state.to_record() == first
    e.reset(seed=13)
    assert e.trickcore_state.to_record() != first
    e.reset(options={"game_seed": 99})
    assert e.trickcore_state.seed == 99


def test_render_ansi_and_illegal_actions():
    e = env(game="beim-jupiter", players=4, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "Beim Jupiter" in text and text.count("  seat ") == 4
    assert raw_env(game="reference").render_mode is None
    with pytest.raises(ValueError):
        raw_env(game="reference", render_mode="human")
    with pytest.raises(trickcore.GameConfigError):
        raw_env(game="hattrick", players=3)
    agent = e.agent_selection
    obs = e.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)                           # PettingZoo's wrapper: the match ends, -1 for the offender
    assert e.rewards[agent] == -1 and all(e.terminations.values())
