"""Every trickcore game as a PettingZoo AEC environment (``pip install "trickcore[pettingzoo]"``).

    from trickcore.integrations.pettingzoo import env

    e = env(game="sticheln", players=4, options={"rounds": 1}, render_mode="ansi")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

* Agents ``player_0`` .. ``player_{n-1}`` are the seats; the agent to act is the seat to move
  (decisions with one legal option are asked too, as in the engine).
* Observations: ``{"observation": float32 tensor, "action_mask": int8 mask}``, the tensor and the
  dense actions of ``trickcore.encodings`` (documented per game in docs/games/<game>.md).  The
  mask is all zero for an agent that is not to act.
* Rewards come at the end of each deal and of the match: the change of every seat's
  ``scores()`` over the deal, so an agent's cumulative reward is its match score.
* ``reset(seed=...)`` seeds the generator that draws each match's deal seed;
  ``reset(options={"game_seed": s})`` plays the match of trickcore seed ``s``.
* ``render_mode="ansi"``: ``render()`` returns the table as text (every hand shown).

``env()`` wraps the raw environment in PettingZoo's usual wrappers (order enforcement, bounds
checks, and the end of the match with reward -1 for an illegal action); ``raw_env`` is the bare
environment.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from trickcore.encodings import Encoding, encoding
from trickcore.game import GameState
from trickcore.games import get_game, new_game

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """A wrapped environment: ``env(game="beim-jupiter", players=4, options=None, render_mode=None)``."""
    out: AECEnv = raw_env(**kwargs)
    out = wrappers.TerminateIllegalWrapper(out, illegal_reward=-1)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    out = wrappers.OrderEnforcingWrapper(out)
    return out


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 (PettingZoo's naming)
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "trickcore_v0", "is_parallelizable": False}

    def __init__(self, game: str = "beim-jupiter", players: int | None = None,
                 options: dict[str, Any] | None = None, render_mode: str | None = None):
        super().__init__()
        info = get_game(game)
        if players is None:
            players = 4 if 4 in info.players else info.players[0]
        info.check_players(players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                             f"not {render_mode!r}")
        self.game = info.name
        self.num_seats = players
        self.options = info.resolve_options(options, players)
        self.render_mode = render_mode
        self.encoding: Encoding = encoding(info.name, players, self.options)
        self.metadata = dict(self.metadata, name=f"trickcore_{info.name.replace('-', '_')}_v0")
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        enc = self.encoding
        bound = enc.value_bound()
        self._observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(-bound, bound, enc.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (enc.num_distinct_actions,), np.int8),
        }) for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(enc.num_distinct_actions) for agent in self.possible_agents}
        self.state_: GameState | None = None
        self._np_random: np.random.Generator | None = None

    # ---- spaces ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # ---- the loop ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        game_seed = (options or {}).get("game_seed")
        if game_seed is None:
            game_seed = int(self._np_random.integers(0, 2**62))
        self.state_ = new_game(self.game, self.num_seats, self.options, int(game_seed))
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._scores = self.state_.scores()
        self._deal = self.state_.deal_number()
        self.agent_selection = self.possible_agents[self.state_.current_player()]
        self._update_info()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state()
        if action is None:
            raise ValueError(f"{agent} is to act ({state.decision()}): None is an action only after the end")
        self._cumulative_rewards[agent] = 0.0
        state.apply_action(self.encoding.action_of(int(action), state))
        self.rewards = {a: 0.0 for a in self.agents}
        terminal = state.is_terminal()
        deal = state.deal_number()
        if terminal or deal != self._deal:        # a deal (and maybe the match) is over
            scores = state.scores()
            self.rewards = {a: scores[i] - self._scores[i] for i, a in enumerate(self.possible_agents)}
            self._scores, self._deal = scores, deal
        if terminal:
            self.terminations = {a: True for a in self.agents}
            self.agent_selection = self.possible_agents[(self.agent_name_mapping[agent] + 1) % self.num_seats]
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        self._update_info()

    def observe(self, agent: str) -> dict[str, Any]:
        state = self._state()
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(self.encoding.num_distinct_actions, np.int8)
        if not state.is_terminal() and state.current_player() == seat:
            self.encoding.legal_mask(state, out=mask)
        return {"observation": self.encoding.state_tensor(state, seat), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi' (env(..., render_mode='ansi'))")
            return None
        return render_text(self._state())

    def close(self) -> None:
        pass

    # ---- helpers -----------------------------------------------------------------------
    @property
    def trickcore_state(self) -> GameState:
        """The engine's state of the current match (read-only use)."""
        return self._state()

    def _state(self) -> GameState:
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def _update_info(self) -> None:
        state = self._state()
        for agent in self.agents:
            self.infos[agent] = {"decision": state.decision() if self.agent_selection == agent else ""}


def render_text(state: GameState) -> str:
    """The table as text: whose turn, the scores, every seat's hand and the last actions."""
    lines = [f"{state.info.title}: deal {state.deal_number()}, "
             + (f"seat {state.current_player()} to {state.decision()}" if not state.is_terminal() else "game over")]
    scores = state.scores()
    for seat in range(state.num_players):
        hand = state.observation(seat).get("hand") or []
        lines.append(f"  seat {seat}  score {scores[seat]:g}  hand {' '.join(hand)}")
    if state.history:
        lines.append("  last actions: " + " ".join(state.history[-2 * state.num_players:]))
    return "\n".join(lines)
