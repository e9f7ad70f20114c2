"""Game authors: docs/contributing.md (section 5) has the conventions, the notation and the test
checklist for game modules.

The game registry: every game and variant with its player counts.

Games register themselves by module; the registry imports the modules lazily so
that ``trickcore games`` and the tournament runner see every game without any
game-specific code of their own.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import warnings
from typing import Any

from trickcore import _core
from trickcore.game import GameConfigError, GameInfo, GameState

# name -> module that defines GAME_INFO (or GAME_INFOS) for it
_MODULES = (
    "trickcore.games.beim_jupiter",
    "trickcore.games.sticheln",
    "trickcore.games.hattrick",
    "trickcore.games.klaberjass",
    "trickcore.games.squint",
    "trickcore.games.reference",
)

_REGISTRY: dict[str, GameInfo] = {}
_ALIASES: dict[str, str] = {}
_loaded = False


def register(info: GameInfo, aliases: tuple[str, ...] = ()) -> GameInfo:
    """Add a game to the registry; a state class given as its factory gets the info as its
    ``info`` class attribute (also when the module is compiled and the class an extension type)."""
    _REGISTRY[info.name] = info
    if isinstance(info.factory, type):
        _core.set_class_attribute(info.factory, "info", info)
    for a in aliases:
        _ALIASES[a] = info.name
    return info


def unregister(name: str) -> None:
    """Remove a game (and its aliases) from the registry; used by tests that register toy games."""
    _REGISTRY.pop(name, None)
    for alias in [a for a, target in _ALIASES.items() if target == name]:
        del _ALIASES[alias]


#: Modules of the game flow that the build also compiles (setup.py, FLOW).
COMPILED = ("trickcore.game", "trickcore.worlds", *(m for m in _MODULES))


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for mod in _MODULES:
        importlib.import_module(mod)
    for mod in COMPILED:
        _warn_if_stale(mod)


def is_compiled(module: str) -> bool:
    """Whether ``module`` (one of COMPILED) was imported from its compiled extension."""
    return not sys.modules[module].__file__.endswith(".py")   # type: ignore[union-attr]


def _warn_if_stale(module: str) -> None:
    """Python imports a compiled module in place of its source: an edit of the source does
    nothing until the next build.  Say so, rather than run yesterday's rules."""
    path = sys.modules[module].__file__ or ""
    if path.endswith(".py"):
        return
    source = os.path.join(os.path.dirname(path), module.rsplit(".", 1)[1] + ".py")
    try:
        if os.stat(source).st_mtime > os.stat(path).st_mtime + 1:
            warnings.warn(f"{source} is newer than its compiled module {os.path.basename(path)}: "
                          f"the compiled one runs; rebuild with `pip install -e .` (setup.py)",
                          RuntimeWarning, stacklevel=3)
    except OSError:
        return


def list_games() -> list[GameInfo]:
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def get_game(name: str) -> GameInfo:
    _load()
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    key = _ALIASES.get(key, key)
    try:
        return _REGISTRY[key]
    except KeyError:
        raise GameConfigError(
            f"unknown game {name!r}; known games: {', '.join(sorted(_REGISTRY))}") from None


def new_game(name: str, players: int, options: dict[str, Any] | None = None, seed: int = 0) -> GameState:
    """Create a new state of game ``name`` for ``players`` seats."""
    return get_game(name).factory(players, options, seed)   # GameState.__init__ checks the player count


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
