"""Every game as a single-agent Gymnasium environment (trickcore.integrations.gymnasium_env):
Gymnasium's own check_env on every game and variant, seeded episodes that replay exactly, the
learner's observation equal to its own encoded view (and unchanged in worlds where the cards it
may not see lie elsewhere), the mask and the reward, the other seats' policies.  The example of
docs/integrations.md runs with the docs' examples (conftest.py at the root)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import trickcore
from trickcore.integrations.gymnasium_env import TrickcoreEnv, env_id, register_games
from trickcore.integrations.worlds import world

from .configs import CONFIGS, ONE_PER_GAME, config_id
from .view_tensors import view_tensor


def _masked_random_episode(env: gymnasium.Env, seed: int):
    """Play one episode with a learner choosing uniformly among its legal actions (generator
    seeded with ``seed``); yields (observation, info) before each learner action and at the end.
    Every reward before the last is 0."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        yield obs, info
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        if terminated:
            yield obs, info
            return
        assert reward == 0.0


@pytest.mark.filterwarnings("error")      # a warning of the checker is a failure too
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_gymnasium_check_env(config):
    game, players, options = config
    env = gymnasium.make(env_id(game), players=players, options=options)
    check_env(env.unwrapped)
    env.close()


def test_every_game_of_the_registry_is_registered():
    """Every game with an encoding; one registered after the import joins on register_games()."""
    names = [info.name for info in trickcore.list_games() if info.encoding]
    assert register_games() == [f"trickcore/{name}-v0" for name in names]
    for name in names:
        assert gymnasium.spec(env_id(name)).kwargs == {"game": name}
    env = gymnasium.make("trickcore/beim-jupiter-v0", players=5)
    assert env.unwrapped.num_seats == 5 and env.unwrapped.game == "beim-jupiter"


@pytest.mark.parametrize("config", ONE_PER_GAME, ids=config_id)
def test_a_seeded_episode_replays_exactly(config):
    """Seed 4 twice: the same match (deal, the other seats' choices), the same observations,
    masks and reward; seed 5 another match.  With ``seat=None`` the drawn seat replays too."""
    game, players, options = config
    for seat in (0, None):
        runs = []
        for seed in (4, 4, 5):
            env = TrickcoreEnv(game, players, options, seat=seat)
            steps = list(_masked_random_episode(env, seed))
            runs.append((env.trickcore_state.to_record(), env.seat, steps))
        (record_a, seat_a, steps_a), (record_b, seat_b, steps_b), (record_c, _, _) = runs
        assert record_a == record_b and seat_a == seat_b and len(steps_a) == len(steps_b)
        for (obs_a, info_a), (obs_b, info_b) in zip(steps_a, steps_b):
            assert np.array_equal(obs_a, obs_b) and np.array_equal(info_a["action_mask"], info_b["action_mask"])
        assert record_c != record_a


@pytest.mark.parametrize("config", ONE_PER_GAME, ids=config_id)
def test_the_learner_sees_its_own_view_only(config):
    """At every learner step (seed 7, learner at the last seat): the observation is the
    learner's view encoded from the dict alone, it is unchanged in a world where the cards the
    learner may not see are redrawn, the mask is its legal actions, and the episode's reward is
    its match score."""
    game, players, options = config
    seat = players - 1
    env = TrickcoreEnv(game, players, options, seat=seat)
    enc = env.encoding
    state = None
    for i, (obs, info) in enumerate(_masked_random_episode(env, 7)):
        state = env.trickcore_state
        assert info["seat"] == seat and not info["illegal_action"]
        assert np.array_equal(obs, view_tensor(enc, state.observation(seat)))
        if state.is_terminal():
            assert not info["action_mask"].any()
            break
        assert state.current_player() == seat and info["decision"] == state.decision()
        assert [enc.action_of(a, state) for a in np.flatnonzero(info["action_mask"])] == list(state.legal_actions())
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        if i % 5 == 0:
            other = world(state, seat, seed=i)
            assert np.array_equal(obs, enc.state_tensor(other, seat)), f"seed 7, learner step {i}"
    assert state is not None and state.is_terminal()


@pytest.mark.parametrize("config", ONE_PER_GAME, ids=config_id)
def test_the_reward_is_the_learners_return(config):
    game, players, options = config
    for seed in (0, 1):
        env = TrickcoreEnv(game, players, options, seat=seed % players)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        rewards, terminated, info = [], False, env._info()
        while not terminated:
            _, reward, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            rewards.append(reward)
        state = env.trickcore_state
        assert state.is_terminal() and rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == state.returns()[env.seat]
        with pytest.raises(RuntimeError):
            env.step(0)


def test_an_illegal_action_ends_the_episode():
    env = TrickcoreEnv("sticheln", 4, {"rounds": 1})
    _, info = env.reset(seed=3)
    before = env.trickcore_state.to_record()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    low, _ = env.encoding.score_bounds()
    assert (reward, terminated, truncated, info["illegal_action"]) == (low - 1, True, False, True)
    assert env.trickcore_state.to_record() == before and not info["action_mask"].any()
    env = TrickcoreEnv("sticheln", 4, {"rounds": 1}, illegal_reward=-5.0)
    env.reset(seed=3)
    assert env.step(env.action_space.n)[1:3] == (-5.0, True)


def test_the_other_seats_are_played_by_their_policies():
    """A policy of one's own, per other seat: each is asked for its seat only, with that seat's
    view and legal options, and its choices are the ones played."""
    asked: dict[int, int] = {1: 0, 2: 0, 3: 0}

    def last_option(seat):
        def choose(observation, legal, rng):
            assert observation == env.trickcore_state.observation(seat)
            assert legal == env.trickcore_state.legal_action_strings()
            asked[seat] += 1
            return legal[-1]
        return choose

    env = TrickcoreEnv("hattrick", 4, {"games": 1}, opponents=[last_option(1), last_option(2), last_option(3)])
    _, info = env.reset(seed=2)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    state = env.trickcore_state
    assert state.is_terminal() and all(asked.values())
    replayed = trickcore.new_game("hattrick", 4, {"games": 1}, state.seed)
    others = 0
    for text in state.history:     # seat 0 played its first option, the others their last
        legal = replayed.legal_action_strings()
        learner = replayed.current_player() == 0
        others += not learner
        assert text == (legal[0] if learner else legal[-1])
        replayed.apply_action(text)
    assert sum(asked.values()) == others


def test_bad_configurations_are_refused():
    with pytest.raises(trickcore.GameConfigError, match="no heuristic policy"):
        TrickcoreEnv("reference", opponents="heuristic")
    assert TrickcoreEnv("reference").policies[0].__name__ == "_random_policy"   # the default without one
    with pytest.raises(trickcore.GameConfigError, match="3 other seats"):
        TrickcoreEnv("sticheln", 4, opponents=["random"])
    with pytest.raises(trickcore.GameConfigError):
        TrickcoreEnv("sticheln", 4, opponents="strongest")
    with pytest.raises(trickcore.GameConfigError):
        TrickcoreEnv("sticheln", 4, seat=4)
    with pytest.raises(trickcore.GameConfigError):
        TrickcoreEnv("hattrick", 3)
    with pytest.raises(RuntimeError, match="reset"):
        TrickcoreEnv("sticheln", 4).step(0)
