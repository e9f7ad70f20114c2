"""The one validator of what the runner reads: a tournament config (tournament/config.py), its
``[stop] sprt`` table (tournament/sprt.py), a league's settings, and a run's files when they are
read back (tournament/report_data.py).

A :class:`Checker` walks a document (TOML or JSON, read into dicts) and collects every problem
at once, each under its full key (``stop.sprt.alpha: must be between 0 and 1 ...``), with a close
name offered for a key it does not know; the caller raises its own error with the list once the
walk is over, so that a user fixes everything in one round."""

from __future__ import annotations

import difflib
from typing import Any, overload


def type_name(value: Any) -> str:
    """The TOML/JSON name of a value's type, with its article: "an integer", "a table"."""
    return {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)


def join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


class Checker:
    """Collects problems (``"key: message"``) while a document is walked.  Each reader returns
    the value, or the default when the value is missing or wrong (the problem is recorded)."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def error(self, key: str, message: str) -> None:
        self.problems.append(f"{key}: {message}")

    def unknown_keys(self, table: dict[str, Any], allowed: tuple[str, ...], prefix: str) -> None:
        for key in table:
            if key not in allowed:
                hint = difflib.get_close_matches(key, allowed, n=1)
                self.error(join(prefix, key), "unknown key" + (f" (did you mean {hint[0]!r}?)" if hint else
                                                                 f"; allowed here: {', '.join(allowed)}"))

    def table(self, doc: dict[str, Any], key: str, prefix: str = "", required: bool = False) -> dict[str, Any]:
        full = join(prefix, key)
        if key not in doc:
            if required:
                self.error(full, "missing (a table)")
            return {}
        value = doc[key]
        if not isinstance(value, dict):
            self.error(full, f"must be a table, got {type_name(value)}")
            return {}
        return value

    @overload
    def integer(self, table: dict[str, Any], key: str, prefix: str, default: int, minimum: int | None = None,
                maximum: int | None = None, required: bool = False) -> int: ...

    @overload
    def integer(self, table: dict[str, Any], key: str, prefix: str, default: None, minimum: int | None = None,
                maximum: int | None = None, required: bool = False) -> int | None: ...

    def integer(self, table: dict[str, Any], key: str, prefix: str, default: int | None,
                minimum: int | None = None, maximum: int | None = None, required: bool = False) -> int | None:
        full = join(prefix, key)
        if key not in table:
            if required:
                self.error(full, "missing (an integer)")
            return default
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(full, f"must be an integer, got {type_name(value)} {value!r}")
            return default
        if minimum is not None and value < minimum:
            self.error(full, f"must be >= {minimum}, got {value}")
            return default
        if maximum is not None and value > maximum:
            self.error(full, f"must be <= {maximum}, got {value}")
            return default
        return value

    @overload
    def number(self, table: dict[str, Any], key: str, prefix: str, default: float, minimum: float | None = 0.0,
               required: str = "") -> float: ...

    @overload
    def number(self, table: dict[str, Any], key: str, prefix: str, default: None, minimum: float | None = 0.0,
               required: str = "") -> float | None: ...

    def number(self, table: dict[str, Any], key: str, prefix: str, default: float | None,
               minimum: float | None = 0.0, required: str = "") -> float | None:
        """A number (an integer or a float).  ``required``: the value is required, and this is
        what the message of a missing one says it is ("a number, in seconds")."""
        full = join(prefix, key)
        if key not in table:
            if required:
                self.error(full, f"missing ({required})")
            return default
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.error(full, f"must be a number, got {type_name(value)} {value!r}")
            return default
        if minimum is not None and value < minimum:
            self.error(full, f"must be >= {minimum:g}, got {value}")
            return default
        return value

    @overload
    def string(self, table: dict[str, Any], key: str, prefix: str, default: str, choices: tuple[str, ...] = (),
               required: bool = False) -> str: ...

    @overload
    def string(self, table: dict[str, Any], key: str, prefix: str, default: None, choices: tuple[str, ...] = (),
               required: bool = False) -> str | None: ...

    def string(self, table: dict[str, Any], key: str, prefix: str, default: str | None,
               choices: tuple[str, ...] = (), required: bool = False) -> str | None:
        full = join(prefix, key)
        if key not in table:
            if required:
                self.error(full, "missing (a string)" if not choices else f"missing (one of {', '.join(choices)})")
            return default
        value = table[key]
        if not isinstance(value, str):
            self.error(full, f"must be a string, got {type_name(value)} {value!r}")
            return default
        if choices and value not in choices:
            self.error(full, f"must be one of {', '.join(choices)}, got {value!r}")
            return default
        return value

    def strings(self, table: dict[str, Any], key: str, prefix: str, count: int | None = None,
                required: bool = False) -> list[str] | None:
        """An array of strings (of exactly ``count`` when given)."""
        full = join(prefix, key)
        if key not in table:
            if required:
                self.error(full, "missing (an array of strings)")
            return None
        value = table[key]
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            self.error(full, f"must be an array of strings, got {type_name(value)} {value!r}")
            return None
        if count is not None and len(value) != count:
            self.error(full, f"must hold {count} strings, got {len(value)}")
            return None
        return value

    def boolean(self, table: dict[str, Any], key: str, prefix: str, default: bool, required: bool = False) -> bool:
        full = join(prefix, key)
        if key not in table:
            if required:
                self.error(full, "missing (true or false)")
            return default
        value = table[key]
        if not isinstance(value, bool):
            self.error(full, f"must be true or false, got {type_name(value)} {value!r}")
            return default
        return value
