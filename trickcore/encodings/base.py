"""The common part of every game's encoding: a dense action index, legal-action masks, a
fixed-shape ``float32`` tensor per seat built from ``observation(seat)`` alone, and the
observation and information-state strings.

``tensor(view)`` is the definition of a tensor, built from the view dict; ``state_tensor(state,
seat)`` gives the same tensor written straight from the state by the compiled encoder of the
game (``_fast.pyx`` beside this module), several times faster.  A build without it
(``TRICKCORE_PURE_PYTHON=1``, setup.py) falls back to ``tensor(state.observation(seat))``.

A game's encoding (one module per game beside this one) lists its action ids in the game's own
id scheme (``0..255`` card moves, ``>= 256`` other decisions) and its tensor fields, and fills the
tensor from the view dict.  Seats in the tensor are *relative*: index 0 is the observing seat,
1 the next seat to its left, and so on, so one network serves every seat.  Every field is
documented in the game's page (``docs/games/<game>.md``, section "Tensor encoding").
"""

from __future__ import annotations

import dataclasses
import json
import operator
from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from trickcore.game import GameState, Observation

try:
    from trickcore.encodings import _fast as _compiled
except ImportError:  # built with TRICKCORE_PURE_PYTHON=1: tensors are built from the views
    _compiled = None  # type: ignore[assignment]

__all__ = ["Encoding", "Field", "FloatArray", "MaskArray"]

#: The compiled encoders (trickcore/encodings/_fast.pyx), None in a pure-Python build.
FAST: ModuleType | None = _compiled

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


@dataclasses.dataclass(frozen=True)
class Field:
    """One named block of the tensor: ``shape`` (row-major), starting at ``offset``."""

    name: str
    shape: tuple[int, ...]
    offset: int
    doc: str

    @property
    def size(self) -> int:
        out = 1
        for d in self.shape:
            out *= d
        return out


class Encoding:
    """The encodings of one game configuration (game, player count, options).

    Subclasses set ``game`` and implement :meth:`_action_ids`, :meth:`_layout` (calling
    :meth:`_field` for every block, in order) and :meth:`_fill` (appending the indices of the
    ones and the (index, value) pairs of the numbers of one view)."""

    game: str = ""

    def __init__(self, players: int, options: Mapping[str, Any]):
        self.players = players
        self.options = dict(options)
        every = sorted(set(self._action_ids()))
        canonical = self._canonical
        ids = tuple(a for a in every if canonical(a) == a)
        #: Engine action id of every dense index, ascending (the dense order is the id order).
        self.action_ids: tuple[int, ...] = ids
        self._index = {a: i for i, a in enumerate(ids)}
        #: Ids that share the index of another id (alike cards: Beim Jupiter's lambs), and the
        #: indices that stand for several ids (resolved against the legal actions).
        self._shared: dict[int, tuple[int, ...]] = {}
        for a in every:
            if canonical(a) != a:
                i = self._index[canonical(a)]
                self._index[a] = i
                self._shared[i] = self._shared.get(i, (ids[i],)) + (a,)
        self.fields: tuple[Field, ...] = ()
        self.size = 0
        self._layout()
        self._by_name: dict[str, Field] = {}
        block: Field
        for block in self.fields:
            self._by_name[block.name] = block
        #: The compiled encoder of this configuration (None without one): ``state_tensor``
        #: is then its ``encode``, called directly (no Python frame in between).
        self.fast: Any = None if FAST is None else self._fast_encoder(FAST)
        if self.fast is not None:
            self.state_tensor = self.fast.encode  # type: ignore[method-assign]

    # An encoding is the fixed description of one configuration (``encoding()`` shares one per
    # configuration): copies are the same object, and pickling rebuilds it.
    def __copy__(self) -> Encoding:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Encoding:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.players, self.options))

    # ---- to implement ------------------------------------------------------------------
    def _action_ids(self) -> Iterable[int]:
        raise NotImplementedError

    def _canonical(self, action: int) -> int:
        """The id whose dense index ``action`` shares (itself but for alike cards)."""
        return action

    def _layout(self) -> None:
        raise NotImplementedError

    def _fill(self, obs: Observation, ones: list[int], at: list[int], values: list[float]) -> None:
        raise NotImplementedError

    def _fast_encoder(self, fast: ModuleType) -> Any:
        """The game's encoder in ``fast`` (the compiled module), or None to build tensors from
        the views."""
        return None

    def score_bounds(self) -> tuple[float, float]:
        """Bounds of ``scores()`` of every seat over a whole match (OpenSpiel's utility range)."""
        raise NotImplementedError

    def max_game_length(self) -> int:
        """An upper bound on the number of actions of a whole match."""
        raise NotImplementedError

    #: Bound of the game's other numbers (card points, meld values, counts).
    VALUE_BOUND = 1000.0

    def value_bound(self) -> float:
        """A bound of the absolute value of every tensor entry: the scores, the match length,
        the option values (deal numbers, targets) and the game's own numbers."""
        low, high = self.score_bounds()
        ints = [abs(v) for v in self.options.values() if isinstance(v, int) and not isinstance(v, bool)]
        return float(max(-low, high, self.max_game_length(), self.VALUE_BOUND, *ints))

    # ---- layout ------------------------------------------------------------------------
    def _field(self, name: str, shape: Sequence[int], doc: str) -> int:
        f = Field(name, tuple(shape), self.size, doc)
        self.fields += (f,)
        self.size += f.size
        return f.offset

    def field(self, name: str) -> Field:
        return self._by_name[name]

    def views(self, tensor: FloatArray) -> dict[str, FloatArray]:
        """The fields of ``tensor`` as named, reshaped views (no copy)."""
        return {f.name: tensor[f.offset:f.offset + f.size].reshape(f.shape) for f in self.fields}

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    # ---- actions -----------------------------------------------------------------------
    @property
    def num_distinct_actions(self) -> int:
        return len(self.action_ids)

    def index_of(self, action: int) -> int:
        """Dense index of an engine action id (ValueError for anything else than an id of the
        game's action space)."""
        try:
            return self._index[action]
        except (KeyError, TypeError):
            raise ValueError(f"{action!r} is not an action id of this encoding") from None

    def action_of(self, index: int, state: GameState | None = None) -> int:
        """Engine action id of a dense index (an int, numpy's too; ValueError for anything else,
        or an index out of range).  An index that stands for several alike cards (Beim
        Jupiter's lambs) is the one ``state`` offers among its legal actions (the lowest lamb
        held); without a state, the lowest id."""
        try:
            index = operator.index(index) if not isinstance(index, bool) else -1
        except TypeError:
            index = -1
        if not 0 <= index < len(self.action_ids):
            raise ValueError(f"dense action index {index!r} is not in 0..{len(self.action_ids) - 1}")
        group = self._shared.get(index)
        if group is not None and state is not None:
            legal = state.legal_actions()
            for a in group:
                if a in legal:
                    return a
        return self.action_ids[index]

    def legal_indices(self, state: GameState) -> list[int]:
        """Dense indices of the legal actions of ``state``, ascending (ids and indices share
        their order); ValueError for a state of another game or configuration."""
        if state.num_players != self.players or state.info.name != self.game:
            raise ValueError(f"a state of {state.info.name!r} with {state.num_players} players; this encoding "
                             f"is {self.game!r} with {self.players}")
        index = self._index
        try:
            return [index[a] for a in state.legal_actions()]
        except KeyError as exc:
            raise ValueError(f"action {exc.args[0]!r} of this state is not in this encoding's space: "
                             f"a state of another game or configuration") from None

    def legal_mask(self, state: GameState, out: MaskArray | None = None) -> MaskArray:
        """``int8`` mask over the dense actions: 1 where legal."""
        if out is None:
            out = np.zeros(len(self.action_ids), np.int8)
        else:
            out.fill(0)
        if not state.is_terminal():
            out[self.legal_indices(state)] = 1
        return out

    # ---- tensors -----------------------------------------------------------------------
    def tensor(self, obs: Observation, out: FloatArray | None = None) -> FloatArray:
        """The ``float32`` tensor of one view (``state.observation(seat)``), built from the
        dict alone; into ``out`` when given."""
        ones: list[int] = []
        at: list[int] = []
        values: list[float] = []
        if not isinstance(obs, Mapping):
            raise ValueError(f"a view is the dict observation(seat) returns, not {type(obs).__name__}")
        try:
            self._fill(obs, ones, at, values)
        except (KeyError, TypeError, IndexError, AttributeError, ValueError, OverflowError) as exc:
            raise ValueError(f"not a view of this encoding's game and players ({type(exc).__name__}: "
                             f"{exc})") from None
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        if ones:
            out[np.fromiter(ones, np.intp, len(ones))] = 1.0    # faster than indexing by the list
        if at:
            out[at] = values
        return out

    def state_tensor(self, state: GameState, seat: int, out: FloatArray | None = None) -> FloatArray:
        """The tensor of ``seat``'s view of ``state``: equal, bit for bit, to
        ``tensor(state.observation(seat), out)``, written straight from the state's hands,
        tricks and attributes by the compiled encoder, without building the view (into ``out``,
        a float32 array of ``size`` values, when given).  ValueError for a seat out of range,
        TypeError for a state of another game.  Without the compiled module (a pure-Python
        build), it is ``tensor(state.observation(seat), out)``."""
        return self.tensor(state.observation(seat), out)

    def observation_tensor(self, state: GameState, seat: int, out: FloatArray | None = None) -> FloatArray:
        return self.state_tensor(state, seat, out)

    # ---- strings -----------------------------------------------------------------------
    @staticmethod
    def observation_string(obs: Observation) -> str:
        """The whole view as canonical JSON: equal strings for equal views."""
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))

    def information_state_string(self, state: GameState, seat: int) -> str:
        """What ``seat`` knows: its current view and every event it has seen since the match
        began (its own private ones and the public ones), as canonical JSON.  Two states give
        the same string exactly when the seat cannot tell them apart."""
        events, _ = state.events_for(seat)
        return json.dumps([state.observation(seat), events], sort_keys=True, separators=(",", ":"))

    # ---- helpers for _fill -------------------------------------------------------------
    def describe(self) -> list[dict[str, Any]]:
        """Every field: name, shape, offset and meaning (what the docs tabulate)."""
        return [{"name": f.name, "shape": list(f.shape), "offset": f.offset, "size": f.size, "doc": f.doc}
                for f in self.fields]


def one_hot_index(choices: Sequence[Any], value: Any) -> int:
    """Index of ``value`` in ``choices``; -1 when absent."""
    try:
        return choices.index(value)
    except ValueError:
        return -1


class CardEncoding(Encoding):
    """An encoding with the blocks every trick-taking game shares, seats relative to the
    observer (0 = the observer, 1 = the next seat to its left, ...):

    ``hand`` [C], ``trick`` [n, C] (the open trick's cards by who played them), ``trick_leader``
    [n], ``played`` [n, C] (cards each seat played in the completed tricks of this deal),
    ``last_trick`` [n, C] and ``last_trick_winner`` [n] (the view's ``last_trick``), ``to_move``
    [n], ``decision`` [D] (one-hot over ``DECISIONS``), ``hand_sizes`` [n], ``tricks_won`` [n]
    and ``scores`` [n] (raw numbers, match scores as ``scores()`` gives them).

    A subclass sets ``DECISIONS`` and ``cards`` (card names in index order; ``aliases`` maps
    other texts of a card, such as a declared God card, to its name), calls
    :meth:`_common_layout` first in ``_layout`` and :meth:`_fill_common` first in ``_fill``."""

    DECISIONS: tuple[str, ...] = ("play",)
    #: The view key holding the completed tricks of the deal, and the open trick's key.
    TRICKS_KEY = "tricks"
    TRICK_KEY = "trick"

    cards: tuple[str, ...] = ()
    aliases: Mapping[str, str] = {}

    def _cards_setup(self, cards: Sequence[str], aliases: Mapping[str, str] | None = None) -> None:
        self.cards = tuple(cards)
        self.n_cards = len(self.cards)
        ci = {name: i for i, name in enumerate(self.cards)}
        for alias, name in (aliases or {}).items():
            ci[alias] = ci[name]
        self.card_index = ci

    def _common_layout(self) -> None:
        n, c = self.players, self.n_cards
        self._decision_index = {d: i for i, d in enumerate(self.DECISIONS)}
        self._trick_memo: dict[int, tuple[Mapping[str, Any], list[list[int] | None]]] = {}
        self.o_hand = self._field("hand", (c,), "1 for each card in the observer's hand")
        self.o_trick = self._field("trick", (n, c), "the open trick: row r has the card played by relative seat r")
        self.o_leader = self._field("trick_leader", (n,), "one-hot: relative seat that led the open trick")
        self.o_played = self._field("played", (n, c),
                                    "cards each relative seat played to the completed tricks of this deal")
        self.o_last = self._field("last_trick", (n, c),
                                  "the view's last_trick: row r has the card relative seat r played to it")
        self.o_last_winner = self._field("last_trick_winner", (n,), "one-hot: relative seat that won last_trick")
        self.o_to_move = self._field("to_move", (n,), "one-hot: relative seat to act (all 0 when the game is over)")
        self.o_decision = self._field("decision", (len(self.DECISIONS),),
                                      "one-hot: the decision asked, in the order " + ", ".join(self.DECISIONS))
        self.o_sizes = self._field("hand_sizes", (n,), "cards in each relative seat's hand (a count)")
        self.o_won = self._field("tricks_won", (n,), "tricks each relative seat won in this deal (a count)")
        self.o_scores = self._field("scores", (n,), "match score of each relative seat (raw, as scores() gives it)")

    def _fill_common(self, obs: Observation, ones: list[int], at: list[int], values: list[float]) -> None:
        n, ci = self.players, self.card_index
        me = obs["seat"]
        o = self.o_hand
        for name in obs.get("hand") or ():
            ones.append(o + ci[name])
        trick = obs.get(self.TRICK_KEY)
        if trick:
            self._trick_cards(trick, self.o_trick, me, ones)
            ones.append(self.o_leader + (trick["leader"] - me) % n)
        tricks = obs.get(self.TRICKS_KEY)
        if tricks:
            memo = self._trick_memo
            for t in tricks:
                entry = memo.get(id(t))
                if entry is None or entry[0] is not t:
                    entry = self._remember(t)
                rows = entry[1]
                found = rows[me]
                if found is None:
                    found = rows[me] = self._played_indices(t, me)
                ones.extend(found)
        last = obs.get("last_trick")
        if last:
            self._trick_cards(last, self.o_last, me, ones)
            ones.append(self.o_last_winner + (last["winner"] - me) % n)
        mover = obs.get("to_move", -1)
        if mover is not None and mover >= 0:
            ones.append(self.o_to_move + (mover - me) % n)
        d = self._decision_index.get(obs.get("decision", ""))
        if d is not None:
            ones.append(self.o_decision + d)
        self._numbers(self.o_sizes, obs.get("hand_sizes"), me, at, values)
        self._numbers(self.o_won, obs.get("tricks_won"), me, at, values)
        self._numbers(self.o_scores, obs.get("scores"), me, at, values)

    #: Completed tricks remembered (their view dicts are shared and never change, game.py).
    MEMO_SIZE = 4096

    def _remember(self, trick: Mapping[str, Any]) -> tuple[Mapping[str, Any], list[list[int] | None]]:
        memo = self._trick_memo
        if len(memo) >= self.MEMO_SIZE:
            memo.clear()
        entry: tuple[Mapping[str, Any], list[list[int] | None]] = (trick, [None] * self.players)
        memo[id(trick)] = entry              # the entry holds the dict, so its id stays its own
        return entry

    def _played_indices(self, trick: Mapping[str, Any], me: int) -> list[int]:
        """The ``played`` entries of one completed trick for observer ``me``."""
        n, c, ci = self.players, self.n_cards, self.card_index
        lead = trick["leader"] - me
        o = self.o_played
        return [o + (lead + i) % n * c + ci[name] for i, name in enumerate(trick["cards"])]

    def _trick_cards(self, trick: Mapping[str, Any], offset: int, me: int, ones: list[int]) -> None:
        n, c, ci = self.players, self.n_cards, self.card_index
        lead = trick["leader"] - me
        for i, name in enumerate(trick["cards"]):
            ones.append(offset + (lead + i) % n * c + ci[name])

    def _numbers(self, offset: int, numbers: Sequence[float] | None, me: int,
                 at: list[int], values: list[float]) -> None:
        """Per-seat numbers, rotated so that index 0 is the observer."""
        if not numbers:
            return
        n = self.players
        for s, v in enumerate(numbers):
            if v:
                at.append(offset + (s - me) % n)
                values.append(float(v))

    def _seat(self, offset: int, seat: int | None, me: int, ones: list[int]) -> None:
        """A one-hot relative seat (nothing for None or a negative seat)."""
        if seat is not None and seat >= 0:
            ones.append(offset + (seat - me) % self.players)

    def _card_set(self, offset: int, names: Iterable[str] | None, ones: list[int]) -> None:
        if names:
            ci = self.card_index
            for name in names:
                ones.append(offset + ci[name])
