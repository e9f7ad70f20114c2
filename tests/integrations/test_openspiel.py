"""Every game through OpenSpiel (trickcore.integrations.openspiel): OpenSpiel's own consistency
checks for Python games (pyspiel.random_sim_test) on every registered game and variant, its MCTS
and IS-MCTS bots playing full matches of every game, an rl_environment episode, and worlds from
resample_from_infostate that the seat cannot tell from the real state."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import ismcts, mcts

import trickcore
from trickcore.encodings import encoded_games, encoding
from trickcore.integrations import openspiel as tos

from .configs import ONE_PER_GAME, config_id

#: Short parameters per registered name: one deal, round or game where the game has the option.
SHORT = {"trickcore_beim_jupiter": {"players": 3}, "trickcore_hattrick": {"players": 5, "games": 1},
         "trickcore_squint": {"deal_limit": 1}, "trickcore_klaberjass": {"players": 2, "max_deals": 2},
         "trickcore_reference": {}, "trickcore_sticheln": {"players": 6, "rounds": 1}}


def short_params(name: str) -> dict:
    if name.startswith("trickcore_sticheln_"):
        return {"players": 3 + len(name) % 6, "rounds": 1}
    return dict(SHORT[name])


def test_every_game_and_variant_is_registered():
    names = set(tos.game_names())
    expected = {tos.short_name(g) for g in encoded_games()}
    expected |= {tos.short_name(g, v) for g in encoded_games() for v in trickcore.get_game(g).variants}
    assert names == expected and len(names) == 6 + 18
    assert names <= {t.short_name for t in pyspiel.registered_games()}


@pytest.mark.parametrize("name", tos.register())
def test_openspiel_random_sim_test(name):
    """OpenSpiel's checks for a Python game: legal actions and masks, observation tensors and
    strings, clones, returns within the utility range, the game length bound."""
    game = pyspiel.load_game(name, short_params(name))
    # one match for the 18 variants and for Beim Jupiter's eight rounds, two for the others
    sims = 1 if name.startswith(("trickcore_sticheln_", "trickcore_beim_jupiter")) else 2
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_game_info_matches_the_encoding():
    game = tos.load("sticheln", 5, {"verkehrt": True, "rounds": 2}, seed=4)
    enc = encoding("sticheln", 5, {"verkehrt": True, "rounds": 2})
    assert game.num_distinct_actions() == enc.num_distinct_actions
    assert game.observation_tensor_shape() == [enc.size]
    assert game.num_players() == 5 and game.max_game_length() == enc.max_game_length()
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    variant = pyspiel.load_game("trickcore_sticheln_verkehrt", {"players": 5, "rounds": 2})
    assert variant.options == game.options
    with pytest.raises(trickcore.GameConfigError):
        tos.load("sticheln", 9)


def _seeded_resampler(seed: int):
    rng = np.random.RandomState(seed)
    return lambda state, player: state.resample_from_infostate(player, rng.uniform)


@pytest.mark.parametrize("config", ONE_PER_GAME, ids=config_id)
def test_mcts_and_ismcts_bots_play_a_full_match(config):
    """MCTS on even seats, IS-MCTS (worlds from resample_from_infostate) on odd seats, small
    budgets, everything seeded (seed 5)."""
    game_name, n, options = config
    game = tos.load(game_name, n, options, seed=5)
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    budget = 2 if game_name == "beim-jupiter" else 4
    bots = []
    for seat in range(n):
        if seat % 2:
            bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=budget, random_state=rng)
            bot.set_resampler(_seeded_resampler(seat))
        else:
            bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=budget, evaluator=evaluator, random_state=rng,
                               solve=False)
        bots.append(bot)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert state.trickcore.is_terminal() and len(state.history()) == moves == len(state.trickcore.history)
    assert state.returns() == state.trickcore.scores()
    low, high = game.min_utility(), game.max_utility()
    assert all(low <= r <= high for r in state.returns())


@pytest.mark.parametrize("config", ONE_PER_GAME, ids=config_id)
def test_resampled_states_look_the_same_to_the_seat(config):
    game_name, n, options = config
    game = tos.load(game_name, n, options, seed=8)
    state = game.new_initial_state()
    rng = np.random.RandomState(8)
    checked = moved = 0
    while not state.is_terminal():
        player = state.current_player()
        if rng.uniform() < 0.3:
            for _ in range(2):
                w = state.resample_from_infostate(player, rng.uniform)
                assert w.information_state_string(player) == state.information_state_string(player)
                assert w.observation_string(player) == state.observation_string(player)
                assert w.observation_tensor(player) == state.observation_tensor(player)
                assert w.legal_actions() == state.legal_actions()
                checked += 1
                moved += any(w.observation_string(q) != state.observation_string(q) for q in range(n) if q != player)
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked and moved > checked // 2


def test_rl_environment_episode():
    game = tos.load("sticheln", 4, {"rounds": 2}, seed=3)
    env = rl_environment.Environment(game, seed=3)
    step = env.reset()
    size = encoding("sticheln", 4, {"rounds": 2}).size
    rng = np.random.RandomState(3)
    length = 0
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        assert len(step.observations["info_state"][player]) == size
        step = env.step([rng.choice(legal)])
        length += 1
    assert length == 2 * 4 * 15          # per round and seat: a lay-out card and 14 tricks
    assert step.rewards == env.get_state.returns() == env.get_state.trickcore.scores()


def test_deal_rewards_sum_to_the_match_scores():
    game = pyspiel.load_game("trickcore_hattrick", {"players": 4, "games": 3, "deal_rewards": True, "seed": 2})
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    total = np.zeros(4)
    paid = 0
    while not state.is_terminal():
        deal = state.trickcore.deal_number()
        state.apply_action(rng.choice(state.legal_actions()))
        rewards = np.array(state.rewards())
        if rewards.any():
            paid += 1
            assert state.trickcore.deal_number() != deal or state.is_terminal()
        total += rewards
    assert list(total) == state.returns() == state.trickcore.scores()
    assert 1 <= paid <= 3


def test_clones_are_independent_and_engine_states_can_be_wrapped():
    game = tos.load("hattrick", 4, {"games": 1}, seed=6)
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    clone = state.clone()
    assert clone.history() == state.history() and clone.trickcore is not state.trickcore
    clone.apply_action(clone.legal_actions()[-1])
    assert len(state.history()) == len(state.trickcore.history) == 5
    assert len(clone.trickcore.history) == 6
    engine = trickcore.new_game("hattrick", 4, {"games": 1}, seed=77)
    wrapped = game.state_of(engine)
    assert wrapped.observation_string(0) == encoding("hattrick", 4, {"games": 1}).observation_string(
        engine.observation(0))
    with pytest.raises(ValueError):
        game.state_of(trickcore.new_game("hattrick", 5, {"games": 1}))
