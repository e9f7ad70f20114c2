"""Game authors: docs/contributing.md (section 5) has the conventions, the notation and the test
checklist for game modules.

The one game-state interface every trickcore game implements.

A game is a Python class that describes the *flow* of a game (deal, choices, bids,
scoring); the trick mechanics (legal cards, trick winners) come from the C core
through :mod:`trickcore._core`.  The contract, documented for users in
``docs/game-interface.md``:

* A state is created from ``(game name, player count, options, seed)`` and is a
  pure function of those four plus the list of actions applied to it.  Chance
  (shuffles, redeals) is drawn from a seeded generator inside the state, never
  from actions, so ``replay(seed, history)`` rebuilds the same state.
* ``current_player()`` is the seat to act, or ``TERMINAL`` (-1).
* ``decision()`` names the kind of decision (e.g. ``"colour"``, ``"bid"``,
  ``"play"``); ``""`` when terminal.
* ``legal_actions()`` returns ascending compact integer ids, never empty while
  the game runs; ``legal_action_strings()`` the same actions in the common text
  notation (``docs/notation.md``), in the same order.
* ``apply_action(a)`` takes an id or a string.  An illegal, malformed or
  out-of-turn action raises :class:`IllegalActionError` (a ``ValueError``)
  naming the action and the legal set, and leaves the state unchanged.
* ``observation(seat)`` is a JSON-serialisable dict holding exactly what that
  seat may know under the "Information" section of the game's rules page (docs/rules/).
* ``events_for(seat, start)`` yields the public (and the seat's own private)
  events since index ``start``, for bots that track state.
* Simultaneous secret choices are asked one seat at a time; their effect stays
  out of every other seat's observation until all have chosen.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import json
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, cast

from trickcore._core import ActionLog, Deck, StateCore, TrickPhase
from trickcore.errors import GameConfigError, IllegalActionError, TrickcoreError
from trickcore.worlds import WorldModel, draw_worlds

TERMINAL = -1

Action = int
Seat = int
#: What ``observation(seat)`` returns: a JSON-serialisable dict (docs/game-interface.md).
Observation = dict[str, Any]
#: One event: a JSON-serialisable dict with at least ``"type"``.
Event = dict[str, Any]
#: Game options by name, after defaults are filled in.
Options = dict[str, Any]
#: ``GameState.to_record()``: game, players, options, seed and history.
Record = dict[str, Any]
#: Who may see an event: None for everyone, else the set of seats.
Visibility = frozenset[int] | None


class _Plays:
    """Marks an event-list entry that stands for card plays not yet expanded."""

    def __reduce__(self) -> str:
        return "_PLAYS"  # a singleton: pickles by name, so ``is _PLAYS`` holds after loading


_PLAYS = _Plays()


class _Hands:
    """Marks an event-list entry that stands for a deal's hand events, not yet built."""

    def __reduce__(self) -> str:
        return "_HANDS"  # a singleton, as _PLAYS


_HANDS = _Hands()


class _Later:
    """Marks an event-list entry whose event is built when the events are read."""

    def __reduce__(self) -> str:
        return "_LATER"  # a singleton, as _PLAYS


_LATER = _Later()
#: The visibility of an event only one seat sees, shared (events never change).
_ONE_SEAT = tuple(frozenset((seat,)) for seat in range(8))
#: An entry of the event list: (visibility, event); (_PLAYS, (phase, from trick, from card, to
#: trick, to card)) for card plays, (_HANDS, (kind, names, hands)) for a deal's hands, or
#: (_LATER, (visibility, kind, data, write)) for ``{"type": kind, **data}`` (``**write(data)`` with
#: a ``write``), all expanded into events
#: when the events are read (``_expand_plays``).
_Entry = (tuple[Visibility, Event] | tuple[_Plays, tuple[TrickPhase, int, int, int, int]]
          | tuple[_Hands, tuple[str, Callable[[int], list[str]], tuple[int, ...]]]
          | tuple[_Later, tuple[Visibility, str, Any, Callable[[Any], Event] | None]])

__all__ = ["TERMINAL", "Action", "CardFace", "Event", "GameConfigError", "GameInfo", "GameState",
           "IllegalActionError", "Observation", "OptionSpec", "Options", "Record", "Seat", "ShownCards",
           "ShownChoices", "TrickcoreError", "Visibility", "competition_ranks"]


@dataclasses.dataclass(frozen=True)
class OptionSpec:
    """One typed game option (a variant flag or a match setting)."""

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        if self.type is bool:
            if not isinstance(value, bool):
                raise GameConfigError(f"option {self.name!r} must be true or false, got {value!r}")
        elif self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise GameConfigError(f"option {self.name!r} must be an integer, got {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise GameConfigError(f"option {self.name!r} must be >= {self.minimum}, got {value}")
            if self.maximum is not None and value > self.maximum:
                raise GameConfigError(f"option {self.name!r} must be <= {self.maximum}, got {value}")
        elif self.type is str:
            if not isinstance(value, str):
                raise GameConfigError(f"option {self.name!r} must be a string, got {value!r}")
        if self.choices is not None and value not in self.choices:
            hint = difflib.get_close_matches(str(value), [str(c) for c in self.choices], n=1)
            raise GameConfigError(
                f"option {self.name!r} must be one of {', '.join(map(str, self.choices))}; got {value!r}"
                + (f" (did you mean {hint[0]!r}?)" if hint else ""))
        return value


@dataclasses.dataclass(frozen=True)
class CardFace:
    """How one card is drawn (the replay viewer, ``GameInfo.faces``; docs/game-interface.md).

    ``style`` is ``"french"`` (the value large, the suit's ``symbol`` beside it), ``"colour"`` (a
    band of the colour with the ``letter`` on it, and the value, or the ``symbol`` in its place)
    or ``"picture"`` (the ``symbol`` alone, on a pale ground of the colour).  ``colour`` is a
    colour name of the page's palette (``red``, ``blue``, ``yellow``, ``green``, ``brown``,
    ``violet``, ``black``, ``crimson``, ``purple``, ``pink``, ``grey``) or any CSS colour; ``symbol`` one of
    the page's symbols (``clubs``, ``diamonds``, ``hearts``, ``spades``, ``bolt``, ``crown``,
    ``star``, ``lamb``); ``label`` the card in words, for screen readers and tooltips;
    ``declared`` whether the card's value is declared as it is played (written ``name=value``,
    ``Rgod=15``; ``trickcore.games.card_faces`` sets it from the deck)."""

    label: str
    style: str
    colour: str
    value: str = ""
    symbol: str = ""
    letter: str = ""
    declared: bool = False


#: What ``GameInfo.shown_cards`` yields for an event: (card text or list of texts, the place
#: they lie in, whether the event reveals an earlier hidden choice).
ShownCards = Iterable[tuple[str | list[str], Hashable, bool]]

#: What ``GameInfo.shown_choices`` yields for an event: (the seat that made an earlier hidden
#: choice, the text of that choice's action as ``action_to_string`` writes it).
ShownChoices = Iterable[tuple[Seat, str]]


@dataclasses.dataclass(frozen=True)
class GameInfo:
    """A registered game: its name, player counts, options and the state class, and what code
    outside the game needs to know of it (docs/game-interface.md, "Registering a game")."""

    name: str
    title: str
    players: tuple[int, ...]
    options: tuple[OptionSpec, ...]
    factory: Callable[..., GameState]
    summary: str = ""
    variants: tuple[str, ...] = ()
    #: Partnerships for a player count (None: everyone plays for himself at that count).
    teams: Callable[[int], tuple[tuple[int, ...], ...] | None] | None = None
    #: Checks combinations of options (raise GameConfigError); runs in resolve_options, so
    #: the tournament runner rejects a bad combination when it reads the config.
    validate: Callable[[Options], None] | None = None
    #: The deck of a configuration (players, options): every card a state of it names, by the ids
    #: its states use.  What the mirror (trickcore.mirror) and the replay viewer read cards with.
    deck: Callable[[int, Options], Deck] | None = None
    #: How each card of a deck from ``deck`` is drawn: card text -> CardFace (the replay viewer;
    #: without it, cards are shown as their text).
    faces: Callable[[Deck], Mapping[str, CardFace]] | None = None
    #: ``shown_cards(event, seat)``: the cards an event sent to ``seat`` shows lying somewhere,
    #: for a bot that rebuilds the game from its events (trickcore.mirror): (texts, place,
    #: revealed) -- place a seat (in its hand or secret choice) or a slot key of the game's
    #: world model; revealed True when the event shows an earlier hidden choice (a bid card
    #: turned up, cards passed).  Card plays and the seat's dealt hand are read without it.
    shown_cards: Callable[[Event, Seat], ShownCards] | None = None
    #: ``shown_choices(event, seat)``: the earlier hidden choices that name no card (Sticheln's
    #: verspätet colours) an event sent to ``seat`` turns up, as (seat, action text).  The mirror
    #: cannot place such a choice with the cards it redraws, and guessing it cannot scale: each
    #: seat's choice multiplies the odds that a later reveal agrees with all of them.
    shown_choices: Callable[[Event, Seat], ShownChoices] | None = None
    #: The game's encoding for machine learning, ``"module:Class"`` (trickcore.encodings).
    encoding: str = ""
    #: The game's heuristic policy, ``"module:function"``, a function ``choose(observation, legal,
    #: rng) -> option`` (trickcore.games.policy_of): what the bundled heuristic bot plays and the
    #: search's rollouts may follow.  Empty for a game without one.
    policy: str = ""
    #: How the game's view is shown to a person (``trickcore play``), ``"module:NAME"`` naming a
    #: dict in the game's folder (``table.py``): per field of the view its label, where it is shown
    #: and how its value is drawn, the prompt of each decision, the words of the suits
    #: (trickcore.games.table_of; docs/contributing.md, section 5).  Empty for a game without one.
    table: str = ""
    #: Options that make a short match of the game (one deal or round where the game allows it):
    #: what the cross-game tests and examples play every game with.
    short_options: Mapping[str, Any] = dataclasses.field(default_factory=dict, compare=False)
    #: What the search bot's ``auto`` options (``policy``, ``guide``, ``searched``) mean for this
    #: game, where something else than the default was measured stronger (docs/search.md).
    search_tuning: Mapping[str, str] = dataclasses.field(default_factory=dict, compare=False)
    _defaults: Options | None = dataclasses.field(default=None, init=False, repr=False, compare=False)

    def resolve_options(self, options: dict[str, Any] | None, num_players: int | None = None) -> Options:
        """Fill defaults and validate ``options``; raise GameConfigError naming the bad key."""
        if not options and type(options) in (dict, type(None)):   # the defaults, checked once
            defaults = self._defaults
            if defaults is None:
                defaults = self._resolve({})
                object.__setattr__(self, "_defaults", defaults)   # a cache, not a field
            return dict(defaults)
        return self._resolve(options)

    def _resolve(self, options: dict[str, Any] | None) -> Options:
        if options is not None and not isinstance(options, Mapping):
            raise GameConfigError(f"options of {self.name!r} are a dict of option names to values, "
                                  f"not {type(options).__name__}")
        options = dict(options or {})
        if not all(isinstance(key, str) for key in options):
            raise GameConfigError(f"option names of {self.name!r} are strings; got {sorted(map(repr, options))}")
        # Every problem at once, each with the option it is about, as the config's own keys are
        # reported (tournament/config.py).
        problems: list[tuple[str, str]] = []
        known = sorted(o.name for o in self.options)
        for name in sorted(set(options) - set(known)):
            hint = difflib.get_close_matches(name, known, n=1)
            problems.append((name, f"game {self.name!r} has no option {name!r}" + (
                f" (did you mean {hint[0]!r}?)" if hint else f"; options are: {', '.join(known) or '(none)'}")))
        out = {}
        for spec in self.options:
            try:
                out[spec.name] = spec.check(options.get(spec.name, spec.default))
            except GameConfigError as exc:
                problems.append((spec.name, str(exc)))
        if problems:
            raise GameConfigError("; ".join(message for _, message in problems), problems)
        if self.validate is not None:
            self.validate(out)
        return out

    def variant_options(self, variant: str) -> Options:
        """The option values a named variant (one of ``variants``) fixes: a variant is written as
        its on-flags joined by ``+`` (``mild+verschaerft``), ``classic`` for none; every other
        flag (bool option) is off."""
        if variant not in self.variants:
            raise GameConfigError(f"{self.name} has no variant {variant!r}; variants: {', '.join(self.variants)}")
        on = set(variant.split("+")) if variant != "classic" else set()
        return {spec.name: spec.name in on for spec in self.options if spec.type is bool}

    def check_players(self, num_players: int) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int) or num_players not in self.players:
            raise GameConfigError(
                f"game {self.name!r} is played by {_fmt_counts(self.players)} players, not {num_players!r}")


def _fmt_counts(counts: Sequence[int]) -> str:
    c = sorted(counts)
    if len(c) > 1 and c == list(range(c[0], c[-1] + 1)):
        return f"{c[0]}-{c[-1]}"
    return ", ".join(map(str, c))


#: Values a copy of a state shares with the original: immutable ones.
_IMMUTABLE = frozenset({int, float, str, bool, type(None), bytes, frozenset, range, _Plays, _Hands, _Later})


def _fresh(value: Any, memo: dict[int, Any]) -> Any:
    """``copy.deepcopy(value, memo)`` for the values game states hold (containers of plain data),
    several times faster; shared references stay shared (``memo``), anything else is deep-copied.
    Containers of immutable items, the usual case (hands, orders, scores, seats), are copied
    with one call (a tuple of them is itself)."""
    kind = type(value)
    if kind in _IMMUTABLE:
        return value
    done = memo.get(id(value))
    if done is not None:
        return done
    out: Any
    if kind is list:
        for item in value:
            if type(item) not in _IMMUTABLE:
                break
        else:
            out = memo[id(value)] = value.copy()
            return out
        out = memo[id(value)] = []
        out.extend([_fresh(item, memo) for item in value])
    elif kind is dict:
        for item in value.values():
            if type(item) not in _IMMUTABLE:
                break
        else:
            out = memo[id(value)] = value.copy()
            return out
        out = memo[id(value)] = {}
        for key, item in value.items():
            out[key] = _fresh(item, memo)
    elif kind is tuple:
        for item in value:
            if type(item) not in _IMMUTABLE:
                break
        else:
            return value
        items = [_fresh(item, memo) for item in value]
        out = memo[id(value)] = value if all(a is b for a, b in zip(items, value)) else tuple(items)
    elif kind is set:
        out = memo[id(value)] = set(value)        # of hashable, hence immutable, items here
    elif _frozen_dataclass(kind) or (issubclass(kind, tuple) and hasattr(kind, "_fields")):
        out = value                                # value objects (melds, contracts)
    else:
        out = copy.deepcopy(value, memo)
    return out


def _visibility(visible_to: Iterable[int] | None) -> Visibility:
    """An event's visibility: None (public) or the seats, shared for one seat (most private events)."""
    if visible_to is None:
        return None
    seats = tuple(visible_to)
    return _ONE_SEAT[seats[0]] if len(seats) == 1 else frozenset(seats)


def _frozen_dataclass(kind: type) -> bool:
    params = getattr(kind, "__dataclass_params__", None)
    return params is not None and bool(params.frozen)


class GameState(StateCore):
    """Base class of every game's state.  Subclasses implement the ``_``-methods.

    Card-play decisions run through the C fast path of :class:`StateCore` while a
    trick phase is active (``_start_play``); everything else comes here.  Action
    ids are state-independent within one game configuration: ``0..255`` are card
    moves (card id | declaration << 7), other decisions use ids >= 256, so
    ``action_to_string`` needs no state and the history is stored as ids."""

    info = cast(GameInfo, None)  # the game's registration: trickcore.games.register sets it
    # Set on sampled worlds only (trickcore.worlds): whether the state is one, the seat it was
    # drawn for, and how to replay its current deal from a fresh game (first action index of the
    # deal, constructor keywords that force the deal; None where nothing was hidden) — what tests
    # use to prove a world is reachable.
    # Class-level defaults, set on a world's own attributes only: a state keeps fewer attributes of
    # its own (CPython 3.11 shares the keys of instance dicts of at most 30 attributes).
    _is_world: bool = False
    _world_of: Seat | None = None
    _world_replay: tuple[int, dict[str, Any]] | None = None

    def __init__(self, num_players: int, options: dict[str, Any] | None = None, seed: int = 0):
        info = self.info
        if type(num_players) is not int or num_players not in info.players:
            info.check_players(num_players)    # raises, unless an int subclass of a valid count
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise GameConfigError(f"seed must be an integer in 0..2**64-1, got {seed!r}")
        self.num_players = num_players
        self.options = info.resolve_options(options, num_players)
        self.seed = seed
        self._actions = ActionLog()
        self._events: list[_Entry] = []
        # The trick phase that ended last: last_trick() reads its final trick when asked (a
        # finished phase never changes, so it is kept rather than described at every deal's end).
        # Public: the tensor encoders read it too (docs/games/<game>.md, "State fields").
        self.previous_phase: TrickPhase | None = None
        # (trick phase, completed tricks marked, cards of the open trick marked)
        self._ev_sync: tuple[TrickPhase | None, int, int, int] = (None, 0, 0, 0)  # ..., cards played
        self._ev_expanded = 0  # entries before this index hold no placeholder

    # ---- to implement -------------------------------------------------------------
    def _current_player(self) -> Seat:
        raise NotImplementedError

    def decision(self) -> str:
        raise NotImplementedError

    def _legal(self) -> Sequence[Action]:
        """Ascending legal action ids outside the card-play fast path (a list, or a tuple the
        game keeps for a decision whose choices never change)."""
        raise NotImplementedError

    def action_to_string(self, action: Action) -> str:
        raise NotImplementedError

    def _parse(self, text: str) -> Action:
        """Action id for ``text``; raise ValueError if it is not an action of this game."""
        raise NotImplementedError

    def _apply(self, action: Action) -> None:
        """Apply a legal non-card-play action (already checked)."""
        raise NotImplementedError

    def _play_over(self) -> None:
        """Hook: the trick phase started by ``_start_play`` has ended."""
        raise NotImplementedError

    def observation(self, seat: Seat) -> Observation:
        raise NotImplementedError

    def _is_terminal(self) -> bool:
        raise NotImplementedError

    def scores(self) -> list[float]:
        """Match score of every seat so far (final once terminal)."""
        raise NotImplementedError

    def deal_number(self) -> int:
        """A number that changes exactly when a deal (round, game of a match) ends and the next
        begins: what search uses to play a world to the end of the current deal."""
        raise NotImplementedError

    def _world_model(self, seat: Seat | None) -> WorldModel[GameState]:
        """What is hidden from ``seat`` (None: from everyone) and how to build a world from an
        assignment of the hidden cards (trickcore.worlds); built from the seat's knowledge only."""
        raise NotImplementedError(f"{self.info.name} does not sample worlds")

    # ---- trick phase helpers --------------------------------------------------------
    def _start_play(self, deck: Deck, follow: int, winner: int, trump: int, hands: Sequence[int],
                    leader: int, tricks: int) -> TrickPhase:
        self._mark_plays()
        self._tp = TrickPhase(deck, self.num_players, follow, winner, trump, list(hands), leader, tricks)
        self._fast = True
        self._slow_seat = -1
        return self._tp

    @property
    def _trick_phase(self) -> TrickPhase:
        """The trick phase started by the last ``_start_play``, for game code that runs only once
        one exists (scoring, views during play); a RuntimeError before the first one."""
        tp = self._tp
        if tp is None:
            raise RuntimeError(f"{self.info.name}: no trick phase has started")
        return tp

    def _move_text(self, move: int) -> str:
        """How a card move is written in events and views (a game may write some cards alike,
        as Beim Jupiter writes every lamb ``LAMB``)."""
        tp = self._tp
        assert tp is not None
        return tp.deck.move_text(move)

    def last_trick(self) -> Event | None:
        """The most recently completed trick, public to every seat: ``leader``, ``cards`` (in
        play order), ``winner``, and for a double trick ``winner2`` and ``next_leader``.  It
        stays the same from the moment its last card is played until the next trick completes,
        so the last trick of a deal is still there at the next deal's first decisions; None
        before the first trick of the game."""
        tp = self._tp
        if tp is not None and tp.n_tricks_done and not tp.over:
            return self._trick_of(tp)
        return None if self.previous_phase is None else self._trick_of(self.previous_phase)

    def _trick_of(self, tp: TrickPhase) -> Event | None:
        """The last completed trick of ``tp`` as ``last_trick`` shows it (None if none)."""
        if not tp.n_tricks_done:
            return None
        leader, moves, winner, winner2, next_leader, _points = tp.trick(tp.n_tricks_done - 1)
        trick: Event = {"leader": leader, "cards": [self._move_text(m) for m in moves], "winner": winner}
        if winner2 >= 0 or next_leader != winner:
            trick["winner2"], trick["next_leader"] = winner2, next_leader
        return trick

    def _check_seat(self, seat: Seat) -> None:
        """The argument check of ``observation``: a seat of this game, else ValueError."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise ValueError(f"seat {seat!r} is not in 0..{self.num_players - 1}")

    def _described_tricks(self, tp: TrickPhase, describe: Callable[[Any], Any]) -> list[Any]:
        """``[describe(t) for t in tp.tricks]``, each completed trick described only once.

        Views list every completed trick after every action; a completed trick never
        changes, so its description is kept on the trick phase and shared by all later
        views (and copies): callers must treat the entries as read-only.  One describe
        function per trick phase."""
        done = tp.described
        if len(done) < tp.n_tricks_done:
            done.extend([describe(t) for t in tp.tricks_from(len(done))])
        return list(done)

    def _on_play_over(self) -> None:
        # kept before the game's hook runs: the hook may deal the next hand and drop the phase
        self.previous_phase = self._trick_phase
        self._play_over()

    def _in_play(self) -> bool:
        return self._tp is not None and self._fast and not self._tp.over

    # ---- worlds (trickcore.worlds, docs/search.md) ------------------------------------
    def determinize(self, seat: Seat | None, seed: int | None = None,
                    require: Mapping[int, Hashable] | None = None) -> GameState:
        """A world: a complete state that agrees with everything ``seat`` knows (its
        observation and the public history), with every card it cannot see placed and every
        hidden choice made, uniformly among all such worlds.  ``seat=None`` samples from the
        public view (every hand hidden).  The world plays on like any state; its future deals
        are drawn afresh, so it tells nothing the seat could not know.  Raises
        InconsistentStateError for a state no legal game reaches."""
        return next(self.worlds(seat, 1, seed, require))

    def worlds(self, seat: Seat | None, n: int, seed: int | None = None,
               require: Mapping[int, Hashable] | None = None) -> Iterator[GameState]:
        """``n`` independent worlds for ``seat`` (see ``determinize``), drawn from one set of
        constraints: cheaper per world than ``n`` calls of ``determinize``.  ``require`` maps
        cards to the seat that must hold them (in hand or in a secret choice) or to the key of
        the slot they lie in (``("laid", 2)``; trickcore.worlds): knowledge from outside the
        state, as when a bot rebuilds a state from its events (trickcore.mirror)."""
        self._check_world_seat(seat)
        model = self._world_model(seat)
        if require:
            model = model.requiring(require)
        return draw_worlds(model, n, random.Random(seed))

    def _check_world_seat(self, seat: Seat | None) -> None:
        if seat is not None:
            self._check_seat(seat)

    def _world_base(self, seat: Seat | None, rng: random.Random) -> GameState:
        """A copy to turn into a world for ``seat``: the events it may not see are gone (so are
        the hidden events of other seats), and its future chance is drawn afresh from ``rng``.
        The game then writes the sampled cards into it.  A world records its events: its seed
        does not deal its cards, so they could not be recorded later."""
        world = self.clone()
        world._begin_edit()
        world._expand_plays()
        world._events = [entry for entry in world._events
                         if entry[0] is None or (seat is not None and seat in cast(frozenset[int], entry[0]))]
        world._ev_expanded = len(world._events)
        world.seed = rng.getrandbits(64)
        world._is_world = True
        world._world_of = seat
        return world

    def _world_trick_phase(self, hands: Sequence[int]) -> None:
        """Give this world's trick phase the current ``hands`` (the same plays replayed; a
        CoreError when they do not replay)."""
        old = self._trick_phase
        new = old.with_hands(hands)
        self._begin_edit()   # the legal actions listed for the old hands go
        self._tp = new
        sync = self._ev_sync
        if sync[0] is old:
            self._ev_sync = (new,) + sync[1:]

    # ---- provided -----------------------------------------------------------------
    @property
    def history(self) -> list[str]:
        """Every action applied so far, as text (enough to rebuild the state)."""
        return [self.action_to_string(a) for a in self._actions]

    @property
    def action_ids(self) -> list[int]:
        return list(self._actions)

    def legal_action_strings(self) -> list[str]:
        return [self.action_to_string(a) for a in self.legal_actions()]

    def string_to_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise IllegalActionError(f"an action is an int or a string, not {type(text).__name__}")
        # Any case is accepted (docs/notation.md), folded here and nowhere else: a game's parser
        # is given the text stripped and in upper case (the built-in games keep their notation's
        # tables in upper case), then as written, and a text that matches a legal action's but
        # for case is that action.
        written = text.strip()
        try:
            return self._parse(written.upper())
        except (ValueError, KeyError, IndexError) as exc:
            error: Exception = exc
        if written != written.upper():
            try:
                return self._parse(written)
            except (ValueError, KeyError, IndexError):
                pass
        folded = written.casefold()
        for action in self.legal_actions():
            if self.action_to_string(action).casefold() == folded:
                return action
        raise IllegalActionError(
            f"{text!r} is not a {self.info.name} action ({error}); legal now: "
            f"{' '.join(self.legal_action_strings())}") from None

    def _apply_slow(self, action: Action | str, seat: Seat | None) -> None:
        """The checked path of apply_action: parse, check turn and legality, apply."""
        if self.is_terminal():
            raise IllegalActionError(f"the game is over; no action {action!r} can be applied")
        if seat is not None and seat != self.current_player():
            raise IllegalActionError(
                f"seat {seat} acted out of turn: seat {self.current_player()} is to move ({self.decision()})")
        if isinstance(action, str):
            action = self.string_to_action(action)
        legal = self.legal_actions()
        if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
            try:
                shown = self.action_to_string(action) if isinstance(action, int) else repr(action)
            except (ValueError, KeyError, IndexError, OverflowError, TypeError):
                shown = repr(action)
            raise IllegalActionError(
                f"illegal {self.decision()} action {shown} for seat {self.current_player()}; legal: "
                f"{' '.join(self.action_to_string(a) for a in legal)}")
        action = int(action)   # an int subclass (an IntEnum) is recorded as the int it is
        if self._in_play():
            self._actions.append(action)
            self._play_move(action)
        else:
            self._actions.append(action)
            self._apply(action)

    def returns(self) -> list[float]:
        """Final result per seat: the match scores (the games are not zero-sum)."""
        return [float(s) for s in self.scores()]

    def ranks(self) -> list[int]:
        """Standard competition ranking of the scores (1, 1, 3, ...); ties share a place.  In a
        game played in partnerships (``GameInfo.teams``) the sides are ranked and each seat
        gets its side's place: partners 6, 2, 6, 2 give 1, 2, 1, 2."""
        scores = self.scores()
        teams = self.info.teams(self.num_players) if self.info.teams is not None else None
        if not teams:
            return competition_ranks(scores)
        side_ranks = competition_ranks([max(scores[s] for s in team) for team in teams])
        ranks = [0] * self.num_players
        for team, rank in zip(teams, side_ranks):
            for seat in team:
                ranks[seat] = rank
        return ranks

    def _unshare(self) -> None:
        """Give this copy its own game attributes (StateCore: clones share them until the first
        change from Python).  Events are immutable once recorded, so the event list is copied
        shallowly; the trick phase is already this copy's own."""
        self._shared = False
        memo: dict[int, Any] = {}
        for phase in (self._tp, self.previous_phase):   # this copy's own, and a finished one
            if phase is not None:
                memo[id(phase)] = phase
        attributes = self.__dict__
        events = attributes.get("_events")
        if events is not None:
            memo[id(events)] = list(events)
        for name, value in attributes.items():
            attributes[name] = _fresh(value, memo)

    # events --------------------------------------------------------------------------
    # Card plays on the fast path create no Python objects.  When another event is
    # emitted (or a new trick phase starts), a placeholder records which plays
    # happened since the last one; events_for() expands placeholders into "play"
    # and "trick" events on demand.  Expansion only ever touches entries after the
    # index handed out by the previous events_for() call, so indices stay valid.
    def _event(self, event: Event, visible_to: Iterable[int] | None = None) -> None:
        """Record ``event`` (a dict whose first key is ``"type"``), seen by the seats of
        ``visible_to``, or by everyone if it is None.  The event is kept as it is: callers build
        it for the purpose and never change it afterwards."""
        self._append_entry((None if visible_to is None else _visibility(visible_to), event))

    def _emit(self, kind: str, visible_to: Iterable[int] | None = None, **data: Any) -> None:
        """``_event({"type": kind, **data}, visible_to)``, written with keywords.  The game
        modules call ``_event`` with a dict literal: compiled, a call with keywords costs a
        dictionary of them and a second one for ``**data`` on top of the event itself."""
        self._event({"type": kind, **data}, visible_to)

    def _event_of(self, kind: str, data: Any, visible_to: Iterable[int] | None = None,
                  write: Callable[[Any], Event] | None = None) -> None:
        """``_event({"type": kind, **data}, visible_to)`` for a summary: one the game keeps as well
        (Squint's deal result in ``results``), or, with ``write``, one the game keeps in another
        form (Klaberjass's deals, Beim Jupiter's rounds), whose event is ``{"type": kind,
        **write(data)}``.  Either is merged (and written) only when the events are read, so a loop
        that never reads them pays nothing for the summary.  ``data`` must not change afterwards;
        ``write`` must pickle (a module-level function)."""
        self._append_entry((_LATER, (None if visible_to is None else _visibility(visible_to), kind, data, write)))

    def _emit_hands(self, kind: str, hands: Sequence[int], names: Callable[[int], list[str]]) -> None:
        """Record the events that show each seat its dealt hand (``hands[seat]``, a card mask):
        ``{"type": kind, "seat": seat, "cards": names(hand)}``, private to the seat.  One entry
        stands for all of them until the events are read: loops, rollouts and searches never read
        events, so a deal costs them no card-name lists.  ``names`` must pickle (a module-level
        function, or a method of a deck)."""
        self._append_entry((_HANDS, (kind, names, tuple(hands))))

    def _append_entry(self, entry: _Entry) -> None:
        """Append an entry to the event list, after marking the card plays that came before it."""
        if self._tp is not None:
            self._mark_plays()
        self._events.append(entry)

    def _mark_plays(self) -> None:
        tp = self._tp
        if tp is None:
            return
        phase, done, pos, marked = self._ev_sync
        played = tp.cards_played
        if phase is tp and played == marked:    # the usual case: nothing played since
            return
        if phase is not tp:
            done, pos = 0, 0
        end_done, end_pos = tp.n_tricks_done, tp.trick_len
        if end_done != done or end_pos != pos:
            self._events.append((_PLAYS, (tp, done, pos, end_done, end_pos)))
        self._ev_sync = (tp, end_done, end_pos, played)

    def _expand_plays(self) -> None:
        # Called after every action by referees (events_since): nothing new costs no work.
        if self._shared:  # it appends to and rewrites the event list a clone may share
            self._unshare()
        self._mark_plays()
        events, first = self._events, self._ev_expanded
        end = len(events)
        if first == end:
            return
        tail: list[_Entry] = []
        for entry in events[first:]:
            mark = entry[0]
            if mark is _PLAYS:
                span = cast(tuple[TrickPhase, int, int, int, int], entry[1])
                tail.extend([(None, ev) for ev in self._play_events(*span)])
            elif mark is _HANDS:
                kind, names, hands = cast(tuple[str, Callable[[int], list[str]], tuple[int, ...]], entry[1])
                tail.extend([(_ONE_SEAT[seat], {"type": kind, "seat": seat, "cards": names(hand)})
                             for seat, hand in enumerate(hands)])
            elif mark is _LATER:
                vis, kind, data, write = cast(tuple[Visibility, str, Any, Any], entry[1])
                tail.append((vis, {"type": kind, **(data if write is None else write(data))}))
            else:
                tail.append(entry)
        events[first:] = tail
        self._ev_expanded = len(events)

    def _play_events(self, tp: TrickPhase, done: int, pos: int, end_done: int, end_pos: int) -> list[Event]:
        n = self.num_players
        out: list[Event] = []
        move_text = self._move_text
        if end_done > done:
            for leader, moves, win, win2, nxt, pts in tp.tricks_from(done)[:end_done - done]:
                out.extend([{"type": "play", "seat": (leader + i) % n, "card": move_text(moves[i])}
                            for i in range(pos, len(moves))])
                ev = {"type": "trick", "leader": leader, "cards": [move_text(m) for m in moves],
                      "winner": win, "points": pts}
                if win2 >= 0 or nxt != win:
                    ev["winner2"] = win2
                    ev["next_leader"] = nxt
                out.append(ev)
                pos = 0
        if end_pos > pos:
            if end_done < tp.n_tricks_done:
                leader, moves = tp.trick(end_done)[:2]
            else:
                leader, moves, _led, _open = tp.current_trick()
            out.extend([{"type": "play", "seat": (leader + i) % n, "card": move_text(moves[i])}
                        for i in range(pos, end_pos)])
        return out

    def events_since(self, start: int = 0) -> tuple[list[tuple[Visibility, Event]], int]:
        """Every event with index >= ``start`` as (visible_to, event) pairs — visible_to is None
        for public events — and the next start index.  For referees that encode each event
        once and route it to the seats that may see it; the dicts must not be modified.
        ``start`` is a value returned by an earlier call (or 0); anything else is a ValueError."""
        events = self._expanded_events(start)
        return events[start:], len(events)

    def events_for(self, seat: Seat, start: int = 0) -> tuple[list[Event], int]:
        """Events visible to ``seat`` with index >= ``start``, and the next start index.
        ``start`` is a value returned by an earlier call (or 0); anything else is a ValueError."""
        self._check_seat(seat)
        events = self._expanded_events(start)
        return [dict(d) for vis, d in events[start:] if vis is None or seat in vis], len(events)

    def _expanded_events(self, start: int) -> list[tuple[Visibility, Event]]:
        """The event list with every placeholder expanded, after checking ``start`` against it."""
        self._expand_plays()
        events = cast(list[tuple[Visibility, Event]], self._events)  # expanded: no placeholder is left
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= len(events):
            raise ValueError(f"event index {start!r} is not in 0..{len(events)} (pass 0, or the index "
                             f"an earlier call returned)")
        return events

    # serialisation -------------------------------------------------------------------
    def to_record(self) -> Record:
        if self._is_world:
            raise TrickcoreError("a sampled world (determinize) is not the record of a game: its seed "
                                 "does not deal its cards")
        return {"game": self.info.name, "players": self.num_players, "options": dict(self.options),
                "seed": self.seed, "history": self.history}

    def to_string(self) -> str:
        return json.dumps(self.to_record(), sort_keys=True)

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.info.name} players={self.num_players} seed={self.seed} "
                f"actions={len(self._actions)} to_move={self.current_player()}>")


def competition_ranks(scores: Sequence[float]) -> list[int]:
    """1 + the number of strictly better scores (BJ-30: 41, 30, 41 -> 1, 3, 1)."""
    return [1 + sum(1 for t in scores if t > s) for s in scores]
