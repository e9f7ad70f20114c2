"""The common part of every game's encoding: a dense action index, legal-action masks, a
fixed-shape ``float32`` tensor per seat, and the observation and information-state strings.

A tensor is defined by what ``observation(seat)`` holds, and written straight from the state by
the game's compiled encoder (``_fast.pyx`` beside this module, built with the package): the only
encoder, which ``state_tensor(state, seat, out)`` is.  It reads the state's trick phase (the
core's C structs) and the game's public state fields that the game's page lists; no view dict is
built.  The tests build the same tensors from the views (tests/integrations/view_tensors.py) and
compare the two bit for bit.

A game's encoding (``trickcore/games/<game>/encoding.py``) lists its action ids in the game's own
id scheme (``0..255`` card moves, ``>= 256`` other decisions), lays out its tensor fields and
makes its compiled encoder.  Seats in the tensor are *relative*: index 0 is the observing seat,
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

from trickcore.encodings import _fast
from trickcore.game import GameState, Observation

__all__ = ["Encoding", "Field", "FloatArray", "MaskArray"]

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
    :meth:`_field` for every block, in order) and :meth:`_encoder` (the game's compiled
    encoder, which writes those blocks)."""

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
        #: The compiled encoder of this configuration (trickcore/encodings/_fast.pyx):
        #: ``state_tensor`` is its ``encode``, called directly (no Python frame in between).
        self.encoder: Any = self._encoder(_fast)
        self.state_tensor = self.encoder.encode  # type: ignore[method-assign]

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

    def _encoder(self, compiled: ModuleType) -> Any:
        """The game's encoder of this configuration, made from its class in ``compiled`` (the
        module trickcore/encodings/_fast.pyx)."""
        raise NotImplementedError

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
    def state_tensor(self, state: GameState, seat: int, out: FloatArray | None = None) -> FloatArray:
        """The ``float32`` tensor of ``seat``'s view of ``state`` (what ``state.observation(seat)``
        holds, as the game's page documents it), written straight from the state by the
        compiled encoder, without building the view (into ``out``, a C-contiguous float32 array
        of ``size`` values, when given).  ValueError for a seat out of range, TypeError for a
        state of another game.  ``__init__`` binds the encoder's ``encode`` in this method's
        place; this body serves calls through the class."""
        result: FloatArray = self.encoder.encode(state, seat, out)
        return result

    def observation_tensor(self, state: GameState, seat: int, out: FloatArray | None = None) -> FloatArray:
        """``state_tensor`` by OpenSpiel's name."""
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

    # ---- documentation -----------------------------------------------------------------
    def describe(self) -> list[dict[str, Any]]:
        """Every field: name, shape, offset and meaning (what the docs tabulate)."""
        return [{"name": f.name, "shape": list(f.shape), "offset": f.offset, "size": f.size, "doc": f.doc}
                for f in self.fields]


class CardEncoding(Encoding):
    """An encoding with the blocks every trick-taking game shares, seats relative to the
    observer (0 = the observer, 1 = the next seat to its left, ...):

    ``hand`` [C], ``trick`` [n, C] (the open trick's cards by who played them), ``trick_leader``
    [n], ``played`` [n, C] (cards each seat played in the completed tricks of this deal),
    ``last_trick`` [n, C] and ``last_trick_winner`` [n] (the view's ``last_trick``), ``to_move``
    [n], ``decision`` [D] (one-hot over ``DECISIONS``), ``hand_sizes`` [n], ``tricks_won`` [n]
    and ``scores`` [n] (raw numbers, match scores as ``scores()`` gives them).

    A subclass sets ``DECISIONS`` and ``cards`` (card names in index order; ``aliases`` maps
    other texts of a card, such as a declared God card, to its name) and calls
    :meth:`_common_layout` first in ``_layout``; the compiled encoders (``_Encoder`` in
    ``_fast.pyx``) write these blocks for every game alike."""

    DECISIONS: tuple[str, ...] = ("play",)

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
