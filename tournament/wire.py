"""The trickcore bot protocol on the wire: encoding runner messages, parsing bot lines.

This module is pure (no processes, no clocks) so that the protocol spec in
``docs/protocol.md`` can be checked against it line by line.  One message is one
line of UTF-8 text; the first word is the command.

Runner -> bot::

    trickcore <version>                       handshake opener
    setoption <name> <value>                  after the handshake, one per configured option
    isready <token>                           readiness barrier
    newgame <json>                            start of a game (this bot's seat, game, options, settings)
    event <json>                              something the seat may see has happened
    request <id> <count> <json>               the seat must decide; <count> legal options
    gameover <json>                           final scores and ranks
    quit                                      exit now

Bot -> runner::

    id name <text> / id author <text>         during the handshake
    option <name> <type> <default> [...]      declare a typed option, during the handshake
    feature events off                        during the handshake: send this bot no event lines
    trickcoreok <version>                     end of the handshake
    readyok <token>                           answer to isready
    action <id> <option text> | action <id> #<index>
    info <text>                               free text, kept in the transcript
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from typing import Any

import orjson

from trickcore.protocol import FEATURES, OPTION_TYPES
from trickcore.protocol import PROTOCOL_VERSION as PROTOCOL_VERSION  # re-exported for the match
from trickcore.protocol import SUPPORTED_VERSIONS as SUPPORTED_VERSIONS  # re-exported for the session


class WireError(ValueError):
    """A bot line that uses a known command but breaks its syntax."""


# ---- runner -> bot ------------------------------------------------------------------

# Compact and ASCII-only: a line never contains a raw newline or a byte a naive reader
# could mis-decode, and sorted keys make transcripts byte-stable.  orjson encodes a view
# about ten times faster than the standard library, which matters because every request
# carries the seat's whole view; the standard encoder (same separators, sorted keys,
# ``\u`` escapes) takes over for the rare payload orjson cannot give as ASCII: non-ASCII
# text, or an integer beyond 64 bits.  Payloads are trees, so the standard encoder skips
# its circularity check.
ORJSON_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
_ENCODER = json.JSONEncoder(separators=(",", ":"), sort_keys=True, ensure_ascii=True, check_circular=False)


def _json(payload: Any) -> str:
    try:
        data = orjson.dumps(payload, option=ORJSON_OPTIONS)
    except TypeError:
        return _ENCODER.encode(payload)
    if data.isascii():
        return data.decode("ascii")
    return _ENCODER.encode(payload)


def hello() -> str:
    return f"trickcore {PROTOCOL_VERSION}"


def setoption(name: str, value: Any) -> str:
    return f"setoption {name} {format_option_value(value)}"


def isready(token: int) -> str:
    return f"isready {token}"


def newgame(payload: dict[str, Any]) -> str:
    return "newgame " + _json(payload)


def event(payload: dict[str, Any]) -> str:
    return "event " + _json(payload)


def request(request_id: int, payload: dict[str, Any]) -> str:
    return f"request {request_id} {len(payload['legal'])} " + _json(payload)


def gameover(payload: dict[str, Any]) -> str:
    return "gameover " + _json(payload)


def quit_() -> str:
    return "quit"


def format_option_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# ---- bot -> runner ------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class OptionDecl:
    """A typed option a bot declares in its handshake (``option depth int 3 1 10``)."""

    name: str
    type: str
    default: Any
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: Any) -> str | None:
        """None if ``value`` (from TOML) suits this option, else what is wrong with it."""
        if self.type == "bool":
            return None if isinstance(value, bool) else f"must be true or false (bool option), got {value!r}"
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return f"must be an integer (int option), got {value!r}"
        elif self.type == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return f"must be a number (float option), got {value!r}"
        elif self.type == "string":
            if not isinstance(value, str) or "\n" in value or "\r" in value:
                return f"must be a one-line string (string option), got {value!r}"
        elif self.type == "choice":
            if value not in self.choices:
                return f"must be one of {', '.join(self.choices)} (choice option), got {value!r}"
        if self.minimum is not None and value < self.minimum:
            return f"must be >= {format_option_value(self.minimum)}, got {value!r}"
        if self.maximum is not None and value > self.maximum:
            return f"must be <= {format_option_value(self.maximum)}, got {value!r}"
        return None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type, "default": self.default}
        if self.minimum is not None:
            out["min"] = self.minimum
        if self.maximum is not None:
            out["max"] = self.maximum
        if self.choices:
            out["choices"] = list(self.choices)
        return out


@dataclasses.dataclass(slots=True)
class BotLine:
    """One parsed bot line.  ``kind`` is the command, or ``"unknown"`` / ``"empty"``."""

    kind: str
    text: str
    request_id: int | None = None  # action
    action: str | None = None  # action: the option text, or "#<k>"
    token: str | None = None  # readyok, trickcoreok (version)
    key: str | None = None  # id: name / author
    option: OptionDecl | None = None
    # feature: the feature's name (``key``) and its value (``token``)


def _number(word: str, what: str, integer: bool) -> float | int:
    try:
        value = int(word) if integer else float(word)
    except ValueError:
        raise WireError(f"{what} {word!r} is not {'an integer' if integer else 'a number'}") from None
    if not integer and not math.isfinite(value):
        raise WireError(f"{what} {word!r} is not a finite number")
    return value


def parse_option(rest: str) -> OptionDecl:
    """Parse the words after ``option``: ``<name> <type> <default> [<min> <max> | <choice>...]``."""
    words = rest.split()
    if len(words) < 3:
        raise WireError("option needs at least a name, a type and a default: option <name> <type> <default>")
    name, kind, default_word, extra = words[0], words[1], words[2], words[3:]
    if kind not in OPTION_TYPES:
        raise WireError(f"option {name!r}: unknown type {kind!r}; types are {', '.join(OPTION_TYPES)}")
    if kind == "bool":
        if default_word not in ("true", "false") or extra:
            raise WireError(f"option {name!r}: a bool option is 'option {name} bool true|false'")
        return OptionDecl(name, kind, default_word == "true")
    if kind == "string":
        # A string default may contain spaces: everything after the type word.
        default = rest.split(None, 2)[2] if len(words) >= 3 else ""
        return OptionDecl(name, kind, default)
    if kind == "choice":
        choices = tuple(extra)
        if not choices or default_word not in choices:
            raise WireError(f"option {name!r}: a choice option lists its choices after the default, "
                            f"and the default must be one of them")
        return OptionDecl(name, kind, default_word, choices=choices)
    integer = kind == "int"
    number = _number(default_word, f"option {name!r} default", integer)
    if len(extra) not in (0, 2):
        raise WireError(f"option {name!r}: an {kind} option takes either no bounds or both: <min> <max>")
    low = high = None
    if extra:
        low = _number(extra[0], f"option {name!r} min", integer)
        high = _number(extra[1], f"option {name!r} max", integer)
        if not low <= number <= high:
            raise WireError(f"option {name!r}: default {default_word} is outside {extra[0]}..{extra[1]}")
    return OptionDecl(name, kind, number, low, high)


_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")


def is_garbage(text: str) -> bool:
    """Control characters other than TAB mean the bot wrote binary data, not protocol text."""
    return _CONTROL.search(text) is not None


def parse_bot_line(text: str) -> BotLine:
    """Parse one decoded line (line ending already removed).  Raises WireError on bad syntax
    of a known command; returns kind ``"unknown"`` for lines with an unknown first word."""
    stripped = text.strip()
    if not stripped:
        return BotLine("empty", text)
    head, _, rest = stripped.partition(" ")
    rest = rest.strip()
    if head == "action":
        id_word, _, action = rest.partition(" ")
        if not id_word:
            raise WireError("action without a request id: expected 'action <id> <option>'")
        try:
            request_id = int(id_word)
        except ValueError:
            raise WireError(f"action: request id {id_word!r} is not an integer") from None
        action = action.strip()
        if not action:
            raise WireError(f"action {request_id}: no option given")
        return BotLine("action", text, request_id=request_id, action=action)
    if head == "readyok":
        if not rest:
            raise WireError("readyok without the token of the isready it answers")
        return BotLine("readyok", text, token=rest.split()[0])
    if head == "trickcoreok":
        if not rest:
            raise WireError("trickcoreok without a protocol version")
        return BotLine("trickcoreok", text, token=rest.split()[0])
    if head == "id":
        key, _, value = rest.partition(" ")
        if key not in ("name", "author") or not value.strip():
            raise WireError("id must be 'id name <text>' or 'id author <text>'")
        return BotLine("id", text, key=key, token=value.strip())
    if head == "option":
        return BotLine("option", text, option=parse_option(rest))
    if head == "feature":
        name, _, value = rest.partition(" ")
        value = value.strip()
        if name not in FEATURES:
            return BotLine("unknown", text)  # a feature of a later protocol version
        if value not in FEATURES[name]:
            raise WireError(f"feature {name} must be one of {', '.join(FEATURES[name])}, got {value!r}")
        return BotLine("feature", text, key=name, token=value)
    if head == "info":
        return BotLine("info", text)
    return BotLine("unknown", text)


def resolve_action(action: str, legal: list[str]) -> str | None:
    """The option text a reply names: ``#<k>``, with ``k`` one or more ASCII digits (leading
    zeros allowed), is a 0-based index into ``legal`` (None when out of range); any other text
    is returned as is for the game to judge (docs/protocol.md section 2.6)."""
    index = action[1:]
    if action.startswith("#") and index.isascii() and index.isdigit():
        k = int(index)
        return legal[k] if k < len(legal) else None
    return action
