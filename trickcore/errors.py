"""Exceptions raised on bad input.  Kept apart so the compiled core can raise them."""


class TrickcoreError(Exception):
    """Base class of every error trickcore raises on bad input."""


class IllegalActionError(TrickcoreError, ValueError):
    """An action that is not legal now: unknown text, not in the legal set, or out of turn."""


class GameConfigError(TrickcoreError, ValueError):
    """Unknown game, bad player count or bad option."""


class CoreError(TrickcoreError, ValueError):
    """The C core rejected an argument; ``status`` is its tc_status code."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
