"""``league.toml``: a league's settings, validated as tournament configs are.

The sections a league shares with a tournament (``[game]``, ``[time]``, ``[limits]``,
``[sandbox]``, ``[failures]``) are checked by the tournament's own section checkers, so every
message reads the same and names its key; the league's own sections (``[league]``,
``[rating]``, ``[submissions]``, ``[runtimes]``, ``[server]``) are checked with the same
checker.  All problems of a file are reported together (``ConfigError``).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import Any

import tomli_w

from tournament.config import (
    ConfigError,
    FaultPolicy,
    Limits,
    SandboxSettings,
    TimeControl,
    _failures_section,
    _game_section,
    _limits_section,
    _sandbox_section,
    _time_section,
)
from tournament.validate import Checker

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as a package
    import tomli as tomllib

LEAGUE_FILE = "league.toml"
TOP_KEYS = ("league", "game", "time", "limits", "sandbox", "failures", "rating", "submissions", "runtimes", "server")
LEAGUE_KEYS = ("name", "database", "deals_per_table", "concurrency", "parallel_tables")
RATING_KEYS = ("mu", "sigma", "beta", "tau")
SUBMISSION_KEYS = ("max_archive_mb", "max_unpacked_mb", "max_files", "max_file_mb", "per_hour", "compliance_games")
SERVER_KEYS = ("host", "port", "people_tables")

#: The runtimes a new league offers: the words put before a bot's own command.  ``{python}`` is
#: the interpreter the league runs under; ``native`` runs a program of the bot's own files.
DEFAULT_RUNTIMES: dict[str, list[str]] = {"python": ["{python}"], "native": []}


@dataclasses.dataclass(frozen=True)
class RatingSettings:
    """openskill's Plackett-Luce model: a new bot's mean and deviation, the skill gap of one
    "class", and the deviation added before each table so that ratings can move again."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300


@dataclasses.dataclass(frozen=True)
class SubmissionLimits:
    max_archive_mb: float = 16  # the archive as uploaded
    max_unpacked_mb: float = 64  # all its files together once unpacked
    max_files: int = 500  # files and folders in it
    max_file_mb: float = 32  # the largest single file
    per_hour: int = 6  # submissions one author may make in an hour
    compliance_games: int = 2  # games the compliance check plays before a bot joins


@dataclasses.dataclass(frozen=True)
class LeagueConfig:
    folder: str  # the league's folder (absolute)
    name: str
    database: str  # an SQLAlchemy URL
    game: str
    players: int
    game_options: dict[str, Any]
    deals_per_table: int  # each deal of a table is played at every seating (duplicate)
    concurrency: int  # games of a table played at once
    parallel_tables: int  # tables played at once
    time: TimeControl
    limits: Limits
    sandbox: SandboxSettings
    failures: dict[str, FaultPolicy]
    rating: RatingSettings
    submissions: SubmissionLimits
    runtimes: dict[str, tuple[str, ...]]
    host: str
    port: int
    people_tables: int  # tables where an author plays against the ladder, at once (0: none)
    raw: dict[str, Any]  # the document as read: the tables' tournament configs copy its shared sections

    def table_doc(self, name: str, output: Path, bots: list[dict[str, Any]]) -> dict[str, Any]:
        """The tournament config of one table: duplicate deals of the league's game, under the
        league's time control, sandbox and failure policies, recorded as any tournament is."""
        doc: dict[str, Any] = {key: self.raw[key] for key in ("game", "time", "limits", "sandbox", "failures")
                               if key in self.raw}
        doc["tournament"] = {"name": name, "format": "duplicate", "deals": self.deals_per_table,
                             "concurrency": self.concurrency, "output": str(output),
                             "preflight": "warn"}
        doc["records"] = {"report": False}
        doc["bots"] = bots
        return doc


def default_database(folder: Path) -> str:
    return f"sqlite:///{folder / 'league.db'}"


def parse_league(doc: dict[str, Any], folder: Path, source: str = LEAGUE_FILE) -> LeagueConfig:
    folder = folder.resolve()
    c = Checker()
    c.unknown_keys(doc, TOP_KEYS, "")
    lt = c.table(doc, "league")
    c.unknown_keys(lt, LEAGUE_KEYS, "league")
    name = c.string(lt, "name", "league", folder.name)
    database = c.string(lt, "database", "league", "")
    if database and not database.startswith(("sqlite:///", "postgresql://", "postgresql+psycopg://")):
        c.error("league.database", f"must be an sqlite:///PATH or postgresql://... URL, got {database!r}")
    if database.startswith("postgresql://"):  # psycopg 3, not SQLAlchemy's default driver for the scheme
        database = "postgresql+psycopg://" + database[len("postgresql://"):]
    deals = c.integer(lt, "deals_per_table", "league", 1, minimum=1)
    concurrency = c.integer(lt, "concurrency", "league", 1, minimum=1)
    parallel_tables = c.integer(lt, "parallel_tables", "league", os.cpu_count() or 1, minimum=1)
    info, players, game_options = _game_section(c, doc)
    time_control = _time_section(c, doc)
    limits = _limits_section(c, doc)
    sandbox = _sandbox_section(c, doc, folder)
    failures = _failures_section(c, doc)
    rt = c.table(doc, "rating")
    c.unknown_keys(rt, RATING_KEYS, "rating")
    d = RatingSettings()
    rating = RatingSettings(mu=c.number(rt, "mu", "rating", d.mu), sigma=c.number(rt, "sigma", "rating", d.sigma, 1e-6),
                            beta=c.number(rt, "beta", "rating", d.beta, 1e-6), tau=c.number(rt, "tau", "rating", d.tau))
    st = c.table(doc, "submissions")
    c.unknown_keys(st, SUBMISSION_KEYS, "submissions")
    s = SubmissionLimits()
    submissions = SubmissionLimits(
        max_archive_mb=c.number(st, "max_archive_mb", "submissions", s.max_archive_mb, 0.001),
        max_unpacked_mb=c.number(st, "max_unpacked_mb", "submissions", s.max_unpacked_mb, 0.001),
        max_files=c.integer(st, "max_files", "submissions", s.max_files, minimum=1),
        max_file_mb=c.number(st, "max_file_mb", "submissions", s.max_file_mb, 0.001),
        per_hour=c.integer(st, "per_hour", "submissions", s.per_hour, minimum=1),
        compliance_games=c.integer(st, "compliance_games", "submissions", s.compliance_games, minimum=1))
    runtimes = _runtimes_section(c, doc)
    sv = c.table(doc, "server")
    c.unknown_keys(sv, SERVER_KEYS, "server")
    host = c.string(sv, "host", "server", "127.0.0.1")
    port = c.integer(sv, "port", "server", 8765, minimum=0, maximum=65535)
    people_tables = c.integer(sv, "people_tables", "server", 2, minimum=0)
    if players is not None and info is not None and not c.problems:
        _check_players(c, players)
    if c.problems:
        raise ConfigError(c.problems, source)
    assert info is not None and players is not None  # else a problem was recorded
    return LeagueConfig(folder=str(folder), name=name, database=database or default_database(folder),
                        game=info.name, players=players, game_options=game_options, deals_per_table=deals,
                        concurrency=concurrency, parallel_tables=parallel_tables, time=time_control,
                        limits=limits, sandbox=sandbox, failures=failures, rating=rating, submissions=submissions,
                        runtimes=runtimes, host=host, port=port, people_tables=people_tables, raw=doc)


def _check_players(c: Checker, players: int) -> None:
    # A table seats one version of each of `players` bots and plays every seating of each deal:
    # players! games per deal, which past six seats is no longer a table one waits for.
    if players > 6:
        c.error("game.players", f"a league table plays every seating of a deal ({players}! games for "
                                f"{players} seats); at most 6 seats, got {players}")


def _runtimes_section(c: Checker, doc: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """``[runtimes]``: name = [words put before a bot's command]; ``{python}`` is this interpreter."""
    raw = doc.get("runtimes", DEFAULT_RUNTIMES)
    if not isinstance(raw, dict):
        c.error("runtimes", "must be a table of name = [words before the bot's command]")
        return {}
    runtimes = {}
    for name, words in raw.items():
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            c.error(f"runtimes.{name}", f"must be an array of strings (the words before the bot's command), "
                                        f"got {words!r}")
            continue
        # Kept as written: a table's config expands {python} as every tournament config does, and
        # compares its bots as written when it resumes, so a restart under another path of the
        # interpreter (python3 for python, a moved virtual environment) resumes the same table.
        runtimes[name] = tuple(words)
    if not runtimes:
        c.error("runtimes", "offers no runtime: a bot's bot.toml names one of them")
    return runtimes


def load_league(folder: str | Path) -> LeagueConfig:
    folder = Path(folder)
    path = folder / LEAGUE_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError([f"no {LEAGUE_FILE} here; make a league with: trickcore league init {folder} "
                           f"--game GAME -p N"], str(path)) from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"not valid TOML: {exc}"], str(path)) from None
    return parse_league(doc, folder, str(path))


def new_league_doc(folder: Path, game: str, players: int, database: str | None) -> dict[str, Any]:
    """The league.toml that ``init`` writes: every setting at its default, written out so that an
    organiser sees what there is to change -- but ``parallel_tables``, whose default is the number
    of cores of the machine that serves the league."""
    t, s, r, sub = TimeControl(), SandboxSettings(), RatingSettings(), SubmissionLimits()
    league: dict[str, Any] = {"name": folder.resolve().name, "deals_per_table": 1, "concurrency": 1}
    if database:
        league["database"] = database
    return {
        "league": league,
        "game": {"name": game, "players": players},
        "time": {"startup_ms": t.startup_ms, "decision_ms": t.decision_ms, "game_ms": t.game_ms},
        "sandbox": {"memory_mb": s.memory_mb, "processes": s.processes, "scratch_mb": s.scratch_mb},
        "rating": dataclasses.asdict(r),
        "submissions": dataclasses.asdict(sub),
        "runtimes": DEFAULT_RUNTIMES,
        "server": {"host": "127.0.0.1", "port": 8765, "people_tables": 2},
    }


def dump_league_doc(doc: dict[str, Any]) -> str:
    return tomli_w.dumps(doc)
