"""Encodings of every game for machine learning: a dense action index (``num_distinct_actions``)
with legal-action masks, a fixed-shape ``float32`` tensor per seat holding exactly what
``observation(seat)`` holds, and observation and information-state strings.

    from trickcore.encodings import encoding
    enc = encoding("sticheln", 4, {"verkehrt": True})
    enc.num_distinct_actions, enc.shape
    enc.state_tensor(state, seat, out), enc.legal_mask(state)
    state.apply_action(enc.action_of(index))

``state_tensor`` is the game's compiled encoder (``_fast.pyx``, always built with the package),
which writes the tensor straight from the state (its trick phase and the state fields the game's
page lists) without building the view; the tests check it,
bit for bit, against the tensor built from the view dict (tests/integrations/view_tensors.py).

They need numpy (``pip install "trickcore[pettingzoo]"`` or ``"trickcore[openspiel]"`` bring it).
The OpenSpiel and PettingZoo adapters (``trickcore.integrations``) are built on them; every field
is documented in the game's page, docs/games/<game>.md, section "Tensor encoding".
"""

from __future__ import annotations

import collections
import importlib
import json
from typing import Any

from trickcore.encodings.base import CardEncoding, Encoding, Field
from trickcore.game import GameConfigError
from trickcore.games import get_game, list_games

__all__ = ["CardEncoding", "Encoding", "Field", "encoded_games", "encoding"]

#: Encodings kept for reuse: the ENCODINGS_KEPT configurations used last (an encoding holds its
#: index tables, about 120 KB), the least recently used dropped first, so that ever new
#: configurations cannot grow memory without bound.
ENCODINGS_KEPT = 64
_CACHE: collections.OrderedDict[tuple[str, int, str], Encoding] = collections.OrderedDict()


def encoded_games() -> list[str]:
    """The registered games that name an encoding (``GameInfo.encoding``), by name."""
    return [info.name for info in list_games() if info.encoding]


def encoding(game: str, players: int, options: dict[str, Any] | None = None) -> Encoding:
    """The encoding of one configuration (options are checked and completed as ``new_game``
    does); built once and shared while it is among the ENCODINGS_KEPT used last.  The game names
    its encoding class in its ``GameInfo.encoding`` (``"module:Class"``)."""
    info = get_game(game)
    info.check_players(players)
    resolved = info.resolve_options(options, players)
    key = (info.name, players, json.dumps(resolved, sort_keys=True))
    enc = _CACHE.get(key)
    if enc is not None:
        _CACHE.move_to_end(key)
        return enc
    if not info.encoding:
        raise GameConfigError(f"game {info.name!r} has no encoding (GameInfo.encoding)")
    module, _, cls = info.encoding.partition(":")
    made: Encoding = getattr(importlib.import_module(module), cls)(players, resolved)
    enc = _CACHE[key] = made
    if len(_CACHE) > ENCODINGS_KEPT:
        _CACHE.popitem(last=False)
    return enc
