"""Nothing lost, nothing doubled: ``trickcore league serve`` killed with SIGKILL at several
points (before its first game ends, in the middle of a table, as a table's last game is
recorded, between two tables), then started again, on SQLite and on a real PostgreSQL server.
After the last start every finished game is counted once, the interrupted games were played
again, every table is rated once, and the ratings equal a recomputation from the records."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import tomli_w
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tournament.league.authors import add_author
from tournament.league.config import LEAGUE_FILE
from tournament.league.db import Game, LeagueTable, RatingEntry, Version
from tournament.league.league import League, init_league, open_league
from tournament.league.scheduler import recompute_ratings, table_folder
from tournament.league.submit import submit
from tournament.results import read_results

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
TRICKCORE = str(Path(sys.executable).parent / "trickcore")
GAMES_PER_TABLE = 12  # beim-jupiter, 3 seats: 2 deals x 3! seatings
WAIT_S = 120  # the longest a kill point may take to come


def make_league(folder: Path, database: str | None, bots: int = 3, parallel_tables: int = 1) -> None:
    init_league(folder, "beim-jupiter", 3, database).close()
    doc = tomllib.loads((folder / LEAGUE_FILE).read_text())
    doc["league"]["deals_per_table"] = 2
    doc["league"]["parallel_tables"] = parallel_tables
    doc["submissions"]["compliance_games"] = 1
    doc["submissions"]["per_hour"] = bots
    (folder / LEAGUE_FILE).write_text(tomli_w.dumps(doc))
    league = open_league(folder)
    try:
        token = add_author(league.engine, "alice")
        for i in range(bots):
            script = ("example_bot.py", "random_bot.py")[i % 2]
            source = folder.parent / f"src{i}"
            source.mkdir()
            (source / "bot.py").write_bytes((ROOT / "tournament" / "bots" / script).read_bytes())
            (source / "bot.toml").write_text(f'name = "bot{i}"\nruntime = "python"\ncommand = ["bot.py"]\n')
            archive = folder.parent / f"bot{i}.tar"
            subprocess.run(["tar", "cf", str(archive), "-C", str(source), "."], check=True)
            outcome = submit(league, token, archive)
            assert outcome.accepted, outcome.report
    finally:
        league.close()


def lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def tables(league: League) -> list[tuple[int, str]]:
    with Session(league.engine) as session:
        return [(t.id, t.state) for t in session.scalars(select(LeagueTable).order_by(LeagueTable.id))]


def serve(folder: Path, *args: str) -> subprocess.Popen[bytes]:
    # the page on a free port: a server killed a moment ago may still hold its port through a
    # table process that has not yet noticed its death
    return subprocess.Popen([TRICKCORE, "league", "serve", str(folder), "-q", "--port", "0", *args],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)


def kill_when(proc: subprocess.Popen[bytes], ready: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not ready():
        assert proc.poll() is None, f"serve ended before {what}: {proc.stderr.read().decode() if proc.stderr else ''}"
        assert time.monotonic() < deadline, f"{what} did not come"
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # the server's bots die with it (bwrap --die-with-parent); its session is cleaned for safety
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_9_at_several_points_then_restart(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> None:
    database = request.getfixturevalue("postgres_database") if backend == "postgresql" else None
    folder = tmp_path / "lg"
    make_league(folder, database)
    league = open_league(folder)
    results = [table_folder(league, n) / "results.jsonl" for n in (1, 2, 3)]
    try:
        # 1. before any game is recorded: the table's row exists, its folder may not
        kill_when(serve(folder), lambda: bool(tables(league)), "the first table")
        assert tables(league) == [(1, "playing")] and lines(results[0]) < GAMES_PER_TABLE
        # 2. in the middle of the first table
        kill_when(serve(folder), lambda: lines(results[0]) >= 3, "three games of table 1")
        # 3. as the table's last game is recorded (before or after it is rated: both must hold)
        kill_when(serve(folder), lambda: lines(results[0]) >= GAMES_PER_TABLE, "the last game of table 1")
        # 4. between tables: table 1 rated, table 2 formed
        kill_when(serve(folder), lambda: len(tables(league)) >= 2, "table 2")
        # 5. in the middle of table 2
        kill_when(serve(folder), lambda: lines(results[1]) >= 2, "two games of table 2")
        final = serve(folder, "--tables", "2")
        assert final.wait(WAIT_S) == 0, final.stderr.read().decode() if final.stderr else ""
        assert [state for _, state in tables(league)][:2] == ["rated", "rated"]
        check_consistent(league)
    finally:
        league.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_tables_at_once_stopped_killed_and_restarted(tmp_path: Path, backend: str,
                                                         request: pytest.FixtureRequest) -> None:
    """Six bots for three seats, two tables playing at once: SIGTERM stops both (finished games
    kept), kill -9 while both play again, then a start that finishes them: each game counted
    once, each table rated once, in one rating order."""
    database = request.getfixturevalue("postgres_database") if backend == "postgresql" else None
    folder = tmp_path / "lg"
    make_league(folder, database, bots=6, parallel_tables=2)
    league = open_league(folder)
    results = [table_folder(league, n) / "results.jsonl" for n in (1, 2)]
    try:
        proc = serve(folder)
        deadline = time.monotonic() + WAIT_S
        while not all(lines(r) >= 1 for r in results):
            assert proc.poll() is None and time.monotonic() < deadline, "two tables did not play at once"
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGTERM)
        assert proc.wait(WAIT_S) == 130, proc.stderr.read().decode() if proc.stderr else ""
        assert [state for _, state in tables(league)][:2] == ["playing", "playing"]
        kept = [lines(r) for r in results]
        kill_when(serve(folder), lambda: all(lines(r) > n for r, n in zip(results, kept)), "more games of both tables")
        final = serve(folder, "--tables", "2")
        assert final.wait(WAIT_S) == 0, final.stderr.read().decode() if final.stderr else ""
        assert [state for _, state in tables(league)][:2] == ["rated", "rated"]
        check_consistent(league)
    finally:
        league.close()


def check_consistent(league: League) -> None:
    with Session(league.engine) as session:
        rated = list(session.scalars(select(LeagueTable).where(LeagueTable.state == "rated")
                                     .order_by(LeagueTable.rated_seq)))
        assert [t.rated_seq for t in rated] == list(range(1, len(rated) + 1))
        for table in rated:
            records = read_results(table_folder(league, table.id))
            jobs = [r["job"] for r in records]
            # every scheduled game once in the record file (a torn or interrupted one played again) ...
            assert len(jobs) == len(set(jobs)) == GAMES_PER_TABLE
            assert lines(table_folder(league, table.id) / "results.jsonl") == GAMES_PER_TABLE  # no line twice
            # ... and once in the database
            in_db = session.scalars(select(Game.job).where(Game.table_id == table.id)).all()
            assert sorted(in_db) == sorted(jobs)
            assert session.scalar(select(func.count()).select_from(RatingEntry)
                                  .where(RatingEntry.table_id == table.id)) == len(table.versions)
        versions = {v.id: v for v in session.scalars(select(Version))}
        total_games = session.scalar(select(func.count()).select_from(Game))
        assert sum(v.games for v in versions.values()) == 3 * total_games  # three seats per game
        recomputed = recompute_ratings(league)
        assert {i: (v.mu, v.sigma) for i, v in versions.items()} == recomputed
        assert any(v.sigma < league.config.rating.sigma for v in versions.values())  # the ratings moved


def table_processes(server: int) -> list[int]:
    """The server's table processes: its children forked from it (their command line is its own)."""
    def cmdline(pid: int | str) -> bytes:
        try:
            return Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return b""

    own, found = cmdline(server), []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == server and cmdline(entry.name) == own:
                found.append(int(entry.name))
    return found


def test_kill_9_of_a_worker_plays_its_game_again(tmp_path: Path) -> None:
    """With two games of a table at once, each runs in a table process of its own; one killed in
    the middle of its game leaves that game unrecorded, and the server plays it again before it
    rates the table."""
    folder = tmp_path / "lg"
    make_league(folder, None)
    doc = tomllib.loads((folder / LEAGUE_FILE).read_text())
    doc["league"]["concurrency"] = 2
    (folder / LEAGUE_FILE).write_text(tomli_w.dumps(doc))
    league = open_league(folder)
    try:
        proc = serve(folder, "--tables", "2")
        results = table_folder(league, 1) / "results.jsonl"
        deadline = time.monotonic() + WAIT_S
        while not (lines(results) >= 1 and len(workers := table_processes(proc.pid)) == 2):
            assert proc.poll() is None and time.monotonic() < deadline, "two table processes did not come"
            time.sleep(0.005)
        os.kill(workers[0], signal.SIGKILL)
        assert proc.wait(WAIT_S) == 0, proc.stderr.read().decode() if proc.stderr else ""
        assert [state for _, state in tables(league)][:2] == ["rated", "rated"]
        check_consistent(league)
    finally:
        league.close()
