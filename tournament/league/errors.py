"""The league's one error type, in a module of its own: the command line imports it before it
knows whether the league's database layer (the ``league`` extra) is installed."""

from __future__ import annotations


class LeagueError(ValueError):
    """A request the league refuses: the message says why, in words for the person who made it."""


class TokenRefused(LeagueError):
    """A wrong or missing author token."""


class RateLimited(LeagueError):
    """An author's submissions over the league's limit per hour."""


class TooLarge(LeagueError):
    """An upload over the league's limit."""
