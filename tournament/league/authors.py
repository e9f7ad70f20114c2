"""Authors and their tokens.

A token is ``<author id>.<secret>``: the id finds the author's row, the secret is compared with
the stored hash in constant time (``hmac.compare_digest``), so neither a lookup by secret nor
the comparison tells a guesser how much of a token was right.  Only the secret's SHA-256 is
stored: a secret is 256 random bits, not a password a person chose, so no slow password hash
is needed against guessing, and a copy of the database gives no token away.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from tournament.league.db import Author
from tournament.league.errors import LeagueError, TokenRefused

__all__ = ["LeagueError", "add_author", "author_of_token", "check_name"]

#: Names of authors and bots: shown on pages and used in folder names, so letters, digits and
#: ``-_.`` only (a name can hold no markup and no path).
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def check_name(name: str, what: str) -> str:
    if not NAME.fullmatch(name):
        raise LeagueError(f"{what} name {name!r} is not allowed: 1 to 64 letters, digits, '-', '_' or '.', "
                          f"starting with a letter or digit")
    return name


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def add_author(engine: Engine, name: str) -> str:
    """Add an author; return their token (shown once: only its hash is kept)."""
    check_name(name, "author")
    secret = secrets.token_urlsafe(32)
    with Session(engine) as session, session.begin():
        if session.scalar(select(Author).where(Author.name == name)) is not None:
            raise LeagueError(f"an author named {name!r} exists already")
        author = Author(name=name, token_hash=_hash(secret))
        session.add(author)
        session.flush()
        return f"{author.id}.{secret}"


def author_of_token(session: Session, token: str | None) -> Author:
    """The author a token belongs to; LeagueError, the same for every wrong token, otherwise."""
    refused = TokenRefused("wrong or missing author token")
    if not token:
        raise refused
    ident, _, secret = token.strip().partition(".")
    author = session.get(Author, int(ident)) if ident.isdigit() and len(ident) < 12 else None
    # Compare even when no author has that id, so that the time taken does not say whether one has.
    stored = author.token_hash if author is not None else _hash("")
    if not hmac.compare_digest(_hash(secret), stored) or author is None or not secret:
        raise refused
    return author
