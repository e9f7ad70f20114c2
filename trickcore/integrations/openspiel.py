"""Every trickcore game as an OpenSpiel game (``pip install "trickcore[openspiel]"``).

Importing this module registers each game, and each named variant of a game, with ``pyspiel``::

    import pyspiel
    import trickcore.integrations.openspiel  # noqa: F401 (registers the games)

    game = pyspiel.load_game("trickcore_sticheln", {"players": 4, "rounds": 1})
    game = pyspiel.load_game("trickcore_sticheln_verkehrt_nebel", {"players": 5})

Names are ``trickcore_<game>`` (dashes become underscores) with every game option as a
parameter, plus ``trickcore_<game>_<variant>`` for each named variant (``+`` becomes ``_``), whose
variant flags are fixed.  Every game also takes ``players`` and ``seed`` (the generator that
draws the deal seed of each new initial state).

* Game type: sequential, imperfect information, general sum, *sampled* chance (the deals are
  drawn inside the state from its seed, as everywhere in trickcore).  Returns are the final
  ``scores()`` (terminal rewards, what OpenSpiel's MCTS requires); with the parameter
  ``deal_rewards=True`` the reward model is per step instead: rewards at the end of each deal
  (the change of ``scores()``) and returns ``scores()`` so far.
* Actions are the dense indices of ``trickcore.encodings`` (``num_distinct_actions`` per
  configuration); observers give the observation tensor and string and the information-state
  string of ``trickcore.encodings``.
* ``resample_from_infostate`` draws a world from the engine's world sampler
  (``GameState.determinize``): what OpenSpiel's IS-MCTS needs.

docs/integrations.md shows it in use with OpenSpiel's MCTS and IS-MCTS bots.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from trickcore.encodings import Encoding, encoded_games, encoding
from trickcore.game import GameInfo, GameState
from trickcore.games import get_game, new_game
from trickcore.integrations.worlds import world

__all__ = ["TrickcoreGame", "TrickcoreObserver", "TrickcoreState", "game_names", "load", "register", "short_name"]

PREFIX = "trickcore_"
_REGISTERED: dict[str, type[TrickcoreGame]] = {}


def short_name(game: str, variant: str | None = None) -> str:
    """The pyspiel name of a game (and of one of its named variants)."""
    name = PREFIX + get_game(game).name.replace("-", "_")
    return name if variant is None else name + "_" + variant.replace("+", "_")


def _default_players(info: GameInfo) -> int:
    return 4 if 4 in info.players else info.players[0]


class TrickcoreGame(pyspiel.Game):  # type: ignore[misc]
    """One trickcore game configuration as a pyspiel game (a subclass per registered name)."""

    info: GameInfo
    fixed: dict[str, Any] = {}

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        info = self.info
        players = int(params.pop("players", _default_players(info)))
        seed = int(params.pop("seed", 0))
        self.deal_rewards = bool(params.pop("deal_rewards", False))
        options = {spec.name: params.get(spec.name, spec.default) for spec in info.options
                   if spec.name not in self.fixed}
        options.update(self.fixed)
        info.check_players(players)
        self.players = players
        self.options = info.resolve_options(options, players)
        self.encoding: Encoding = encoding(info.name, players, self.options)
        low, high = self.encoding.score_bounds()
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_distinct_actions, max_chance_outcomes=0,
            num_players=players, min_utility=low, max_utility=high,
            max_game_length=self.encoding.max_game_length())
        game_type = self._game_type()
        if self.deal_rewards:
            game_type = _with_deal_rewards(game_type)
        super().__init__(game_type, game_info, {"players": players, "seed": seed, "deal_rewards": self.deal_rewards,
                                                **{k: v for k, v in self.options.items() if k not in self.fixed}})
        self._rng = np.random.RandomState(seed)

    @classmethod
    def _game_type(cls) -> Any:
        return _REGISTERED_TYPES[cls]

    def new_initial_state(self) -> TrickcoreState:
        """A new match whose deals come from a seed drawn from this game's generator."""
        seed = int(self._rng.randint(0, 2**62, dtype=np.int64))
        return TrickcoreState(self, new_game(self.info.name, self.players, self.options, seed))

    def state_of(self, state: GameState) -> TrickcoreState:
        """A pyspiel state wrapping an existing trickcore state of this configuration."""
        if (state.info.name, state.num_players, state.options) != (self.info.name, self.players, self.options):
            raise ValueError(f"a {state.info.name} state for {state.num_players} players with {state.options} "
                             f"is not a state of {self}")
        return TrickcoreState(self, state)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> TrickcoreObserver:
        if params:
            raise ValueError(f"trickcore observers take no parameters; got {params}")
        return TrickcoreObserver(self.encoding, iig_obs_type)

    def __str__(self) -> str:
        return f"{self.get_type().short_name}(players={self.players}, options={self.options})"


class TrickcoreState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state over a trickcore state (``.trickcore``); actions are dense indices."""

    def __init__(self, game: TrickcoreGame, state: GameState):
        super().__init__(game)
        self._tc = state
        self._enc = game.encoding
        self._deal_rewards = game.deal_rewards
        self._rewards = [0.0] * state.num_players

    @property
    def trickcore(self) -> GameState:
        """The trickcore state (read it; act through ``apply_action`` so pyspiel keeps its history)."""
        return self._tc

    def current_player(self) -> int:
        p = self._tc.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if p < 0 else p

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._tc.current_player():
            return []
        return self._enc.legal_indices(self._tc)

    def _apply_action(self, action: int) -> None:
        tc = self._tc
        if self._deal_rewards:
            before = tc.scores()
            tc.apply_action(self._enc.action_of(action, tc))
            self._rewards = [a - b for a, b in zip(tc.scores(), before)]
        else:
            tc.apply_action(self._enc.action_of(action, tc))
            if tc.is_terminal():
                self._rewards = tc.scores()

    def _action_to_string(self, player: int, action: int) -> str:
        return self._tc.action_to_string(self._enc.action_of(action, self._tc))

    def is_terminal(self) -> bool:
        return self._tc.is_terminal()

    def returns(self) -> list[float]:
        if self._deal_rewards or self._tc.is_terminal():
            return self._tc.scores()
        return [0.0] * self._tc.num_players

    def rewards(self) -> list[float]:
        if self._deal_rewards or self._tc.is_terminal():
            return list(self._rewards)
        return [0.0] * self._tc.num_players

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> TrickcoreState:
        """A state ``player_id`` cannot tell from this one: a world of the engine's sampler,
        seeded from the sampler's uniform draw."""
        seed = int(probability_sampler() * 2**62)
        return TrickcoreState(self.get_game(), world(self._tc, player_id, seed))

    def __deepcopy__(self, memo: dict[int, Any]) -> TrickcoreState:
        out = TrickcoreState(self.get_game(), self._tc.clone())
        out._rewards = list(self._rewards)
        return out

    def __str__(self) -> str:
        tc = self._tc
        lines = [f"{tc.info.title}, {tc.num_players} players, seed {tc.seed}",
                 f"to move: {tc.current_player()} ({tc.decision() or 'game over'}); scores: {tc.scores()}"]
        lines += [f"history: {' '.join(tc.history[-24:])}"]
        return "\n".join(lines)


class TrickcoreObserver:
    """pyspiel's PyObserver: ``tensor`` and its named views ``dict`` (the encoding's fields);
    ``string_from`` gives the information-state string for perfect-recall observation types and
    the observation string otherwise."""

    def __init__(self, enc: Encoding, iig_obs_type: Any = None):
        self._enc = enc
        self._perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("trickcore games observe from one seat (private_info=SINGLE_PLAYER)")
        self.tensor = np.zeros(enc.size, np.float32)
        self.dict = enc.views(self.tensor)

    def set_from(self, state: TrickcoreState, player: int) -> None:
        # written straight from the engine's state (equal to the tensor of its view)
        self._enc.state_tensor(state.trickcore, int(player), out=self.tensor)

    def string_from(self, state: TrickcoreState, player: int) -> str:
        if self._perfect_recall:
            return self._enc.information_state_string(state.trickcore, player)
        return self._enc.observation_string(state.trickcore.observation(player))


_REGISTERED_TYPES: dict[type, Any] = {}


def _with_deal_rewards(game_type: Any) -> Any:
    """The same game type with rewards per step (at the end of each deal)."""
    return pyspiel.GameType(
        short_name=game_type.short_name, long_name=game_type.long_name, dynamics=game_type.dynamics,
        chance_mode=game_type.chance_mode, information=game_type.information, utility=game_type.utility,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=game_type.max_num_players, min_num_players=game_type.min_num_players,
        provides_information_state_string=game_type.provides_information_state_string,
        provides_information_state_tensor=game_type.provides_information_state_tensor,
        provides_observation_string=game_type.provides_observation_string,
        provides_observation_tensor=game_type.provides_observation_tensor,
        parameter_specification=game_type.parameter_specification)


def _register_one(name: str, info: GameInfo, fixed: dict[str, Any], long_name: str) -> None:
    if name in _REGISTERED:
        return
    params: dict[str, Any] = {"players": _default_players(info), "seed": 0, "deal_rewards": False}
    params.update({spec.name: spec.default for spec in info.options if spec.name not in fixed})
    game_type = pyspiel.GameType(
        short_name=name, long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(info.players), min_num_players=min(info.players),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params)
    cls = type(f"TrickcoreGame_{name}", (TrickcoreGame,), {"info": info, "fixed": dict(fixed)})
    _REGISTERED_TYPES[cls] = game_type
    _REGISTERED[name] = cls
    pyspiel.register_game(game_type, cls)


def register() -> list[str]:
    """Register every game and named variant with pyspiel (again: nothing); their names."""
    for game in encoded_games():
        info = get_game(game)
        _register_one(short_name(game), info, {}, f"trickcore {info.title}")
        for variant in info.variants:
            _register_one(short_name(game, variant), info, info.variant_options(variant),
                          f"trickcore {info.title} ({variant})")
    return game_names()


def game_names() -> list[str]:
    return sorted(_REGISTERED)


def load(game: str, players: int | None = None, options: dict[str, Any] | None = None,
         seed: int = 0) -> TrickcoreGame:
    """``pyspiel.load_game`` of a trickcore game by its trickcore name, player count and options."""
    params: dict[str, Any] = dict(options or {})
    if players is not None:
        params["players"] = players
    params["seed"] = seed
    game_obj: TrickcoreGame = pyspiel.load_game(short_name(game), params)
    return game_obj


register()
