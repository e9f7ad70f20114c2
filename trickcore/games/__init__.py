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
from typing import Any

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
    _REGISTRY[info.name] = info
    for a in aliases:
        _ALIASES[a] = info.name
    return info


def unregister(name: str) -> None:
    """Remove a game (and its aliases) from the registry; used by tests that register toy games."""
    _REGISTRY.pop(name, None)
    for alias in [a for a, target in _ALIASES.items() if target == name]:
        del _ALIASES[alias]


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for mod in _MODULES:
        importlib.import_module(mod)


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
    info = get_game(name)
    info.check_players(players)
    return info.factory(players, options, seed)


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
