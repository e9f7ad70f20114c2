"""Every trickcore game as a single-agent Gymnasium environment (``pip install "trickcore[gymnasium]"``).

One seat is the learner; the other seats are played inside ``step`` by bundled policies (the
game's heuristic policy, ``trickcore.games.policy_of``, or uniform random play) or by functions
of your own with the policies' signature, ``choose(observation, legal, rng) -> option``::

    import gymnasium
    import numpy as np
    import trickcore.integrations.gymnasium_env  # registers trickcore/<game>-v0

    env = gymnasium.make("trickcore/sticheln-v0", players=4, options={"rounds": 1})
    obs, info = env.reset(seed=0)
    rng, terminated = np.random.default_rng(0), False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)

* Observations are the learner's ``float32`` tensor of ``trickcore.encodings`` (what
  ``observation(seat)`` holds, seats relative to the learner); actions are the dense indices,
  ``Discrete(num_distinct_actions)``.
* ``info["action_mask"]`` is the ``int8`` mask of the learner's legal actions (all zero once the
  match is over); ``action_masks()`` gives it as booleans, the method sb3-contrib's MaskablePPO
  looks for.
* The reward is 0 at every step but the last, and the learner's return, ``returns()[seat]`` (its
  match score), when the match ends.  An illegal action ends the episode with ``illegal_reward``
  (by default one below the lowest match score the game allows), ``info["illegal_action"]`` True.
  Episodes end by termination only (a match always ends).
* ``reset(seed=s)`` seeds the generator that draws each match's deal seed, the learner's seat
  when ``seat=None`` and the random generators of the other seats' policies, so a seeded episode
  replays exactly; ``reset(options={"game_seed": s})`` plays the match of trickcore seed ``s``.

The other seats are not bot programs: the engine never imports the tournament runner, whose bot
sessions drive a whole game themselves (events and requests to every seat) rather than answer one
step at a time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from trickcore.encodings import Encoding, encoding
from trickcore.encodings.base import FloatArray, MaskArray
from trickcore.game import GameConfigError, GameState
from trickcore.games import get_game, list_games, new_game, policy_of

__all__ = ["Policy", "TrickcoreEnv", "env_id", "register_games"]

#: A seat's policy: ``choose(observation, legal, rng) -> option`` (an option text of ``legal``).
Policy = Callable[[dict[str, Any], list[str], random.Random], str]
#: How another seat is played: ``"heuristic"`` (the game's policy), ``"random"``, or a Policy.
Opponent = str | Policy

NAMESPACE = "trickcore"


def env_id(game: str) -> str:
    """The Gymnasium id of a game: ``trickcore/<game>-v0``."""
    return f"{NAMESPACE}/{get_game(game).name}-v0"


def _random_policy(observation: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def _policy(game: str, opponent: Opponent) -> Policy:
    if callable(opponent):
        return opponent
    if opponent == "random":
        return _random_policy
    if opponent == "heuristic":
        choose = policy_of(game)
        if choose is None:
            raise GameConfigError(f"game {game!r} has no heuristic policy; play its other seats with "
                                  f"opponents='random' or a function of your own")
        return choose
    raise GameConfigError(f"an opponent is 'heuristic', 'random' or a function choose(observation, legal, rng), "
                          f"not {opponent!r}")


class TrickcoreEnv(gymnasium.Env[FloatArray, np.int64]):
    """One seat of a trickcore match, the other seats played by policies (module docstring).

    ``opponents`` is one opponent for every other seat or a sequence of one per other seat in
    seat order; None means the game's heuristic policy, or random play for a game without one.
    ``seat`` is the learner's seat, or None for a seat drawn at every reset."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, game: str, players: int | None = None,
                 options: dict[str, Any] | None = None, seat: int | None = 0,
                 opponents: Opponent | Sequence[Opponent] | None = None,
                 illegal_reward: float | None = None, render_mode: str | None = None):
        info = get_game(game)
        if players is None:
            players = 4 if 4 in info.players else info.players[0]
        info.check_players(players)
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise GameConfigError(f"seat is a seat 0..{players - 1} or None (drawn at each reset), not {seat!r}")
        if render_mode is not None:
            raise ValueError(f"this environment has no render modes, not {render_mode!r}")
        self.game = info.name
        self.num_seats = players
        self.options = info.resolve_options(options, players)
        self.encoding: Encoding = encoding(info.name, players, self.options)
        if opponents is None:
            opponents = "heuristic" if info.policy else "random"
        if isinstance(opponents, str) or callable(opponents):
            chosen = [opponents] * (players - 1)
        else:
            chosen = list(opponents)
            if len(chosen) != players - 1:
                raise GameConfigError(f"opponents: one for each of the {players - 1} other seats, "
                                      f"not {len(chosen)}")
        #: The policies of the other seats, in seat order after the learner's.
        self.policies = [_policy(info.name, o) for o in chosen]
        self.fixed_seat = seat
        low, _ = self.encoding.score_bounds()
        self.illegal_reward = float(low - 1.0 if illegal_reward is None else illegal_reward)
        bound = self.encoding.value_bound()
        self.observation_space = spaces.Box(-bound, bound, self.encoding.shape, np.float32)
        self.action_space = spaces.Discrete(self.encoding.num_distinct_actions)
        self.render_mode = render_mode
        self.seat = 0 if seat is None else seat
        self.state_: GameState | None = None
        self._rngs: list[random.Random] = []
        self._over = False

    # ---- the loop ----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[FloatArray, dict[str, Any]]:
        super().reset(seed=seed)
        draw = self.np_random
        game_seed = (options or {}).get("game_seed")
        if game_seed is None:
            game_seed = int(draw.integers(0, 2**62))
        self.seat = int(draw.integers(self.num_seats)) if self.fixed_seat is None else self.fixed_seat
        self._rngs = [random.Random(int(draw.integers(0, 2**62))) for _ in self.policies]
        self.state_ = new_game(self.game, self.num_seats, self.options, int(game_seed))
        self._over = False
        self._play_others()
        return self._observe(), self._info()

    def step(self, action: int | np.integer[Any]) -> tuple[FloatArray, float, bool, bool, dict[str, Any]]:
        state = self._state()
        if self._over:
            raise RuntimeError("the match is over: call reset()")
        index = int(action)
        if not (0 <= index < self.encoding.num_distinct_actions) or not self._mask()[index]:
            self._over = True
            return self._observe(), self.illegal_reward, True, False, self._info(illegal=True)
        state.apply_action(self.encoding.action_of(index, state))
        self._play_others()
        if state.is_terminal():
            self._over = True
            return self._observe(), state.returns()[self.seat], True, False, self._info()
        return self._observe(), 0.0, False, False, self._info()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The learner's legal actions as booleans (sb3-contrib's MaskablePPO calls this)."""
        return self._mask().astype(bool)

    # ---- helpers -----------------------------------------------------------------------
    @property
    def trickcore_state(self) -> GameState:
        """The engine's state of the current match (read-only use)."""
        return self._state()

    def _state(self) -> GameState:
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def _play_others(self) -> None:
        """Play the other seats until the learner is to act or the match is over."""
        state = self._state()
        n = self.num_seats
        while not state.is_terminal() and (seat := state.current_player()) != self.seat:
            other = (seat - self.seat - 1) % n          # index among the other seats, after the learner
            choice = self.policies[other](state.observation(seat), state.legal_action_strings(), self._rngs[other])
            state.apply_action(choice)

    def _observe(self) -> FloatArray:
        return self.encoding.state_tensor(self._state(), self.seat)

    def _mask(self) -> MaskArray:
        state = self._state()
        mask = np.zeros(self.encoding.num_distinct_actions, np.int8)
        if not self._over and not state.is_terminal():
            self.encoding.legal_mask(state, out=mask)
        return mask

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        state = self._state()
        over = self._over or state.is_terminal()
        return {"action_mask": self._mask(), "seat": self.seat,
                "decision": "" if over else state.decision(), "illegal_action": illegal}


def register_games() -> list[str]:
    """Register ``trickcore/<game>-v0`` with Gymnasium for every game in trickcore's registry
    (done when this module is imported); the ids registered."""
    ids = []
    for info in list_games():
        if not info.encoding:
            continue
        name = env_id(info.name)
        if name not in gymnasium.registry:
            gymnasium.register(name, entry_point=f"{__name__}:TrickcoreEnv", kwargs={"game": info.name},
                               disable_env_checker=False)
        ids.append(name)
    return ids


register_games()
