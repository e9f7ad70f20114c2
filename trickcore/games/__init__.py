"""Game authors: docs/contributing.md (section 5) has the conventions, the notation and the test
checklist for game modules.

The game registry: every game and variant with its player counts.

Games register themselves by module (``register(GameInfo(...))`` when the module is imported):
the built-in games are the modules of ``BUILTIN``, the one list of them; an installed package
adds games through the ``trickcore.games`` entry-point group.  The registry imports them lazily,
so that ``trickcore games``, the tournament runner, the encodings, the mirror and the replay
viewer see every game without any game-specific code of their own: what they need of a game is
in its ``GameInfo`` (docs/game-interface.md).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import random
import warnings
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Any, cast

from trickcore import _core
from trickcore.game import CardFace, GameConfigError, GameInfo, GameState

#: The built-in games: the modules that register them when imported.  The one place a built-in
#: game is listed; the build compiles each (setup.py: every module here with a .pxd beside it).
BUILTIN = (
    "trickcore.games.beim_jupiter",
    "trickcore.games.sticheln",
    "trickcore.games.hattrick",
    "trickcore.games.klaberjass",
    "trickcore.games.squint",
    "trickcore.games.reference",
)

#: Entry-point group through which an installed package adds games: each entry point names a
#: module that registers its games when imported (as the built-in ones do), or a GameInfo.
GAME_GROUP = "trickcore.games"

_REGISTRY: dict[str, GameInfo] = {}
_ALIASES: dict[str, str] = {}
_loaded = False
_plugins_loaded = False


def register(info: GameInfo, aliases: tuple[str, ...] = ()) -> GameInfo:
    """Add a game to the registry; a state class given as its factory gets the info as its
    ``info`` class attribute."""
    _REGISTRY[info.name] = info
    if isinstance(info.factory, type):
        state_class: Any = info.factory      # a game's state class (GameState.info)
        state_class.info = info
    for a in aliases:
        _ALIASES[a] = info.name
    return info


def unregister(name: str) -> None:
    """Remove a game (and its aliases) from the registry; used by tests that register toy games."""
    _REGISTRY.pop(name, None)
    for alias in [a for a, target in _ALIASES.items() if target == name]:
        del _ALIASES[alias]


def _load(plugins: bool = True) -> None:
    """Import the built-in games, and with ``plugins`` the games of installed packages: looking
    through every installed package costs tens of milliseconds, which a process that asks for a
    built-in game by its name (a bot, a table) does not pay."""
    global _loaded, _plugins_loaded
    if plugins and not _plugins_loaded:
        _plugins_loaded = True
        _load(plugins=False)
        _load_plugins()
    if _loaded:
        return
    _loaded = True
    for mod in BUILTIN:
        importlib.import_module(mod)


def _load_plugins() -> None:
    """Register the games of every installed ``trickcore.games`` entry point.  One that fails to
    load is reported (a warning, never hidden) and every other game still works; a name already
    registered keeps its first registration."""
    for entry in entry_points(group=GAME_GROUP):
        try:
            loaded = entry.load()
        except Exception as exc:  # a broken plugin must not take the built-in games down
            warnings.warn(f"games of {entry.value!r} (entry point {entry.name!r}) unavailable: {exc}",
                          RuntimeWarning, stacklevel=3)
            continue
        if isinstance(loaded, GameInfo) and loaded.name not in _REGISTRY:
            register(loaded)


def list_games() -> list[GameInfo]:
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def get_game(name: str) -> GameInfo:
    if _loaded and type(name) is str and name in _REGISTRY:   # a registered name as written
        return _REGISTRY[name]
    _load(plugins=False)
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    if _ALIASES.get(key, key) not in _REGISTRY:                # not a built-in game: an installed one?
        _load()
    key = _ALIASES.get(key, key)
    try:
        return _REGISTRY[key]
    except KeyError:
        raise GameConfigError(
            f"unknown game {name!r}; known games: {', '.join(sorted(_REGISTRY))}") from None


def policy_of(name: str) -> Callable[[dict[str, Any], list[str], random.Random], str] | None:
    """The game's heuristic policy (``GameInfo.policy``), ``choose(observation, legal, rng) ->
    option``; None for a game without one.  A policy written without the ``rng`` argument is
    given one it ignores."""
    info = get_game(name)
    if not info.policy:
        return None
    module, _, function = info.policy.partition(":")
    choose = getattr(importlib.import_module(module), function or "choose", None)
    if not callable(choose):
        raise GameConfigError(f"{info.name}: its policy {info.policy!r} names no function")
    if _takes_rng(choose):
        return cast(Callable[[dict[str, Any], list[str], random.Random], str], choose)
    return lambda observation, legal, rng: choose(observation, legal)


#: What every game's table shares, so that a game's table.py describes only its own: the fields
#: of the common interface (docs/game-interface.md), which the page draws itself (hand, trick,
#: dealer, turn) or counts, and how the events' common fields are drawn.  A game's own entry for
#: one of these keys wins.
INTERFACE_FIELDS: dict[str, Any] = {key: {"at": "none"} for key in (
    "game", "seat", "players", "decision", "to_move", "dealer", "hand", "hand_sizes", "trick", "last_trick",
    "tricks")}
INTERFACE_EVENT_FIELDS: dict[str, Any] = {
    "seat": {"how": "seat"}, "dealer": {"how": "seat"}, "leader": {"how": "seat"}, "winner": {"how": "seat"},
    "card": {"how": "card"}, "cards": {"how": "cards"}, "scores": {"how": "list", "item": {"how": "number"}},
    "totals": {"how": "list", "item": {"how": "number"}}, "trump": {"how": "suit"},
}


def table_of(name: str) -> dict[str, Any]:
    """How the game's view is shown to a person (``GameInfo.table``): a JSON-able dict with
    ``fields`` (view key -> ``at``, ``label``, ``how``), ``decisions`` (decision kind -> ``ask``,
    ``rule``), ``event_fields``, ``events``, ``suits`` and ``rules``: the game's own description
    over the interface's shared one (INTERFACE_FIELDS, INTERFACE_EVENT_FIELDS); an empty
    description for a game without one."""
    info = get_game(name)
    if not info.table:
        return {"fields": {}, "decisions": {}, "suits": {}, "rules": ""}
    module, _, attribute = info.table.partition(":")
    table = getattr(importlib.import_module(module), attribute or "TABLE", None)
    if not isinstance(table, dict):
        raise GameConfigError(f"{info.name}: its table {info.table!r} names no dict")
    return {**table, "fields": {**INTERFACE_FIELDS, **table.get("fields", {})},
            "event_fields": {**INTERFACE_EVENT_FIELDS, **table.get("event_fields", {})}}


def _takes_rng(function: Callable[..., Any]) -> bool:
    try:
        params = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 3 or any(p.kind == p.VAR_POSITIONAL for p in params)


def new_game(name: str, players: int, options: dict[str, Any] | None = None, seed: int = 0) -> GameState:
    """Create a new state of game ``name`` for ``players`` seats."""
    return get_game(name).factory(players, options, seed)


def replay(record: dict[str, Any] | str) -> GameState:
    """Rebuild a state from :meth:`GameState.to_record` (or its JSON string): the game is
    created from its name, player count, options and seed, and the history is applied.

    Raises :class:`GameConfigError` for anything that is not such a record, and
    :class:`IllegalActionError` (with the legal options) for a history entry the game refuses."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except ValueError as exc:
            raise GameConfigError(f"a game record must be a JSON object: {exc}") from None
    if not isinstance(record, dict):
        raise GameConfigError(f"a game record must be a dict (GameState.to_record()), not {type(record).__name__}")
    missing = [key for key in ("game", "players") if key not in record]
    if missing:
        raise GameConfigError(f"a game record needs {' and '.join(repr(k) for k in missing)}; "
                              f"it has {sorted(record) or 'no keys'}")
    history = record.get("history", [])
    if not isinstance(history, list):
        raise GameConfigError(f"a game record's 'history' must be a list, not {type(history).__name__}")
    state = new_game(record["game"], record["players"], record.get("options"), record.get("seed", 0))
    for text in history:
        state.apply_action(text)
    return state


# ---- card faces (GameInfo.faces) ----------------------------------------------------------------

def card_faces(name: str, players: int, options: dict[str, Any] | None = None) -> dict[str, CardFace]:
    """How each card of a configuration's deck is drawn: card text -> CardFace, from the game's
    ``GameInfo.deck`` and ``GameInfo.faces``, ``declared`` set for a card the deck declares as it
    is played.  Empty for a game that gives no deck or no faces (its cards are shown as text)."""
    info = get_game(name)
    info.check_players(players)
    if info.deck is None or info.faces is None:
        return {}
    deck = info.deck(players, info.resolve_options(options, players))
    faces = {}
    for text, face in info.faces(deck).items():
        if text in deck.names and deck.role(deck.card_id(text)) & _core.ROLE_DECLARED:
            face = dataclasses.replace(face, declared=True)
        faces[text] = face
    return faces


#: The French suits by their letter (docs/notation.md): the suit in words, its page symbol and colour.
FRENCH_SUITS = {"C": ("clubs", "black"), "D": ("diamonds", "crimson"), "H": ("hearts", "crimson"),
                "S": ("spades", "black")}
_RANKS = {"T": ("10", "ten"), "J": ("J", "jack"), "Q": ("Q", "queen"), "K": ("K", "king"), "A": ("A", "ace")}


def french_faces(deck: _core.Deck) -> dict[str, CardFace]:
    """The faces of a French-suited deck written rank then suit (``AS``, ``TD``, ``7C``:
    docs/notation.md), for ``GameInfo.faces``."""
    faces = {}
    for name in deck.names:
        rank, suit = name[:-1], name[-1]
        word, colour = FRENCH_SUITS[suit]
        value, rank_word = _RANKS.get(rank, (rank, rank))
        faces[name] = CardFace(f"{rank_word} of {word}", "french", colour, value=value, symbol=word)
    return faces


def colour_faces(deck: _core.Deck, colours: Mapping[str, str]) -> dict[str, CardFace]:
    """The faces of the cards of a colour-number deck written colour letter then number (``R7``:
    docs/notation.md); ``colours`` maps each letter to its colour's name (``{"R": "red"}``).
    Cards written otherwise are left out, for the game to add."""
    faces = {}
    for name in deck.names:
        letter, number = name[:1], name[1:]
        if letter in colours and number.isdigit():
            faces[name] = CardFace(f"{colours[letter]} {number}", "colour", colours[letter], value=number,
                                   letter=letter)
    return faces
