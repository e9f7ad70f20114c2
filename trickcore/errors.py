"""Exceptions raised on bad input.  Kept apart so the compiled core can raise them."""


class TrickcoreError(Exception):
    """Base class of every error trickcore raises on bad input."""


class IllegalActionError(TrickcoreError, ValueError):
    """An action that is not legal now: unknown text, not in the legal set, or out of turn."""


class GameConfigError(TrickcoreError, ValueError):
    """Unknown game, bad player count or bad option.  ``problems`` holds every problem found, as
    (option name or "", message) pairs, where one check found several (the options of a game:
    all of them are reported at once); the message joins them."""

    def __init__(self, message: str, problems: list[tuple[str, str]] | None = None):
        super().__init__(message)
        self.problems: list[tuple[str, str]] = problems if problems is not None else [("", message)]


class CoreError(TrickcoreError, ValueError):
    """The C core rejected an argument; ``status`` is its tc_status code."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
