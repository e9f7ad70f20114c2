"""The league's database: SQLAlchemy 2 models, the engine (SQLite with WAL, or PostgreSQL through
psycopg 3), and the schema brought up to date by Alembic's migrations on every start.

The tables:

* ``authors``: a name and the hash of the author's token;
* ``bots`` and ``versions``: a bot is an author's name for a program, a version one accepted
  submission of it with its rating (openskill mu and sigma);
* ``submissions``: every upload, accepted or refused, with its compliance report;
* ``league_tables`` and ``games``: a table seats one version of each of ``players`` bots and plays
  duplicate deals; its games are read from its record file once the table is complete;
* ``ratings``: each version's rating after each table it played (its history);
* ``settings``: the league's state that survives a restart (paused).
"""

from __future__ import annotations

import datetime as dt
from importlib.resources import files
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class Author(Base):
    __tablename__ = "authors"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    created: Mapped[dt.datetime] = mapped_column(DateTime, default=now)


class Bot(Base):
    __tablename__ = "bots"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    author_id: Mapped[int] = mapped_column(ForeignKey("authors.id"))
    name: Mapped[str] = mapped_column(String(64), unique=True)
    banned: Mapped[bool] = mapped_column(Boolean, default=False)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[dt.datetime] = mapped_column(DateTime, default=now)


class Version(Base):
    __tablename__ = "versions"
    __table_args__ = (UniqueConstraint("bot_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    bot_id: Mapped[int] = mapped_column(ForeignKey("bots.id"))
    number: Mapped[int] = mapped_column(Integer)
    folder: Mapped[str] = mapped_column(Text)  # its files, relative to the league's folder
    command: Mapped[list[str]] = mapped_column(JSON)  # as the tables run it, relative to its folder
    runtime: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # its bot.toml's, set before each game
    active: Mapped[bool] = mapped_column(Boolean, default=True)  # the one version of its bot that plays
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    faults: Mapped[int] = mapped_column(Integer, default=0)
    last_game: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime, default=now)


class Submission(Base):
    __tablename__ = "submissions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    author_id: Mapped[int] = mapped_column(ForeignKey("authors.id"))
    bot_name: Mapped[str] = mapped_column(String(200))  # as given, also when refused
    accepted: Mapped[bool] = mapped_column(Boolean)
    report: Mapped[str] = mapped_column(Text)  # the reason it was refused, or the compliance report
    version_id: Mapped[int | None] = mapped_column(ForeignKey("versions.id"), nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime, default=now)


class LeagueTable(Base):
    __tablename__ = "league_tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    versions: Mapped[list[int]] = mapped_column(JSON)  # the version ids seated, in the config's order
    state: Mapped[str] = mapped_column(String(16), default="playing")  # playing | rated | void
    rated_seq: Mapped[int | None] = mapped_column(Integer, nullable=True, unique=True)  # order of rating
    created: Mapped[dt.datetime] = mapped_column(DateTime, default=now)
    finished: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("table_id", "job"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("league_tables.id"))
    job: Mapped[str] = mapped_column(String(64))
    seats: Mapped[list[int]] = mapped_column(JSON)  # version id per seat
    scores: Mapped[list[float]] = mapped_column(JSON)
    faults: Mapped[int] = mapped_column(Integer)


class RatingEntry(Base):
    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("version_id", "table_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("versions.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("league_tables.id"))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=now)


class Setting(Base):
    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


def _sqlite_pragmas(dbapi_connection: Any, record: Any) -> None:
    # WAL: the page server reads while the scheduler writes; a writer waits up to 30 s for
    # another's lock instead of failing at once.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(url: str) -> Engine:
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (tournament/league/migrations)."""
    config = Config()
    config.set_main_option("script_location", str(files("tournament.league").joinpath("migrations")))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def open_database(url: str) -> Engine:
    engine = make_engine(url)
    migrate(engine)
    return engine
