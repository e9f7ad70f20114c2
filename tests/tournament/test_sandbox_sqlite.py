"""File locks in the sandbox: refused on every file, at once, and SQLite without them.

The seccomp filter refuses flock and fcntl's lock commands on every file (tournament/sandbox.py,
"the system calls a bot is refused"), so that two bots cannot signal through the locks of a
file both can read.  A bot alone with its own files needs no lock: SQLite opens a database in
its /tmp without locking with the URI parameter ``nolock=1`` (docs/protocol.md, "Notes for bot
authors").  These tests play whole games with such bots."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.tournament.support import BOTS
from tournament.config import parse_config
from tournament.results import read_results
from tournament.runner import run_tournament

TIME = {"startup_ms": 20000, "ready_ms": 10000, "decision_ms": 5000, "shutdown_ms": 2000}

# Keeps a row per decision in SQLite in its /tmp, opened without locks, and after each one reads
# them back through a second connection (so from the file) and reports the count.
KEEPER = '''
import sqlite3
import sys

from trickcore.bot import Bot, run

DATABASE = "file:/tmp/bot.db?nolock=1"


class Keeper(Bot):
    name = "sqlite-keeper"

    def __init__(self):
        super().__init__()
        self.db = sqlite3.connect(DATABASE, uri=True)
        self.db.execute("CREATE TABLE decisions (game INTEGER, options INTEGER, chosen TEXT)")
        self.games = 0

    def new_game(self, game):
        super().new_game(game)
        self.games += 1

    def choose(self, view, legal, request):
        self.db.execute("INSERT INTO decisions VALUES (?, ?, ?)", (self.games, len(legal), legal[0]))
        self.db.commit()
        reader = sqlite3.connect(DATABASE, uri=True)
        rows, games = reader.execute("SELECT COUNT(*), COUNT(DISTINCT game) FROM decisions").fetchone()
        reader.close()
        print(f"SQLITE rows={rows} games={games}", file=sys.stderr, flush=True)
        return legal[0]


run(Keeper())
'''

# At its first decision, tries a lock as an unaware program would: flock on a file of its own,
# then SQLite with its default (locking) connection, both in its TMPDIR; reports each outcome
# and plays on.
LOCKER = '''
import fcntl
import os
import sqlite3
import sys
import tempfile
import time

from trickcore.bot import Bot, run


def attempt(action):
    start = time.monotonic()
    try:
        action()
        outcome = "ok"
    except Exception as exc:
        outcome = f"{type(exc).__name__}: {exc}"
    return outcome, time.monotonic() - start


def flock():
    with open(os.path.join(tempfile.gettempdir(), "lockfile"), "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)


def sqlite_default():
    db = sqlite3.connect(os.path.join(tempfile.gettempdir(), "locked.db"), timeout=30)
    db.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
    db.commit()


class Locker(Bot):
    name = "locker"
    tried = False

    def choose(self, view, legal, request):
        if not self.tried:
            self.tried = True
            for name, action in (("flock", flock), ("sqlite", sqlite_default)):
                outcome, seconds = attempt(action)
                print(f"LOCK {name} {seconds:.3f} {outcome}", file=sys.stderr, flush=True)
        return legal[0]


run(Locker())
'''


def bot_folder(tmp_path: Path, name: str, source: str) -> Path:
    """The bot's script in a folder its own user id (the runner as root) can read."""
    folder = tmp_path / "bot"
    folder.mkdir()
    for p in (tmp_path, folder):
        p.chmod(0o755)
    script = folder / f"{name}.py"
    script.write_text(source, encoding="utf-8")
    script.chmod(0o644)
    return script


def play(tmp_path: Path, script: Path, kind: str = "bwrap") -> tuple[list[dict], dict[str, str]]:
    """One deal of the bot against the bundled random bot, a whole game in each seating (each with
    a fresh process); the records and the bot's stderr.  Without a sandbox the bot's TMPDIR is a
    folder of the test's, not the machine's /tmp.  The stderr is by game (job id)."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    tested = {"name": "tested", "command": [sys.executable, str(script)], "cwd": str(script.parent)}
    if kind == "none":
        tested["env"] = {"TMPDIR": str(scratch)}
    doc = {"game": {"name": "toy-tricks", "players": 2},
           "tournament": {"format": "gauntlet", "candidate": "tested", "deals": 1, "seed": 3, "concurrency": 1,
                          "output": str(tmp_path / "out")},
           "time": TIME, "records": {"report": False, "stderr": "all"}, "sandbox": {"kind": kind},
           "bots": [tested, {"name": "random", "command": [sys.executable, str(BOTS / "random_bot.py")]}]}
    summary = run_tournament(parse_config(doc))
    records = list(read_results(tmp_path / "out"))
    assert summary.played == summary.total == len(records) >= 1
    stderr = {rec["job"]: "".join(p.read_text(encoding="utf-8")
                                  for p in (tmp_path / "out" / "stderr").glob(f"{rec['job']}-seat*-tested.log"))
              for rec in records}
    for rec in records:
        assert rec["status"] == "played"
        assert not rec["faults"] and not rec["forfeited"], (rec["faults"], stderr)
    return records, stderr


def test_a_bot_keeps_its_decisions_in_sqlite_without_locks(sandbox, tmp_path):
    records, stderr = play(tmp_path, bot_folder(tmp_path, "keeper", KEEPER))
    for rec in records:  # a process per game: each has its own /tmp, and so its own database
        seat = rec["bots"].index("tested")
        decisions = sum(1 for a in rec["actions"] if a["seat"] == seat and a["by"] == "bot")
        assert decisions > 0, rec["actions"]
        reports = [line for line in stderr[rec["job"]].splitlines() if line.startswith("SQLITE")]
        assert reports == [f"SQLITE rows={n} games=1" for n in range(1, decisions + 1)], stderr


def _lock_outcomes(stderr: dict[str, str]) -> dict[str, tuple[float, str]]:
    found = {}
    for line in "".join(stderr.values()).splitlines():
        if line.startswith("LOCK "):
            _, name, seconds, outcome = line.split(" ", 3)
            found[name] = (float(seconds), outcome)
    return found


def test_a_lock_is_refused_at_once(sandbox, tmp_path):
    """flock fails with EPERM, SQLite's default connection with an error of its own, and neither
    waits: the bot that tried goes on to play the whole game within its decision time."""
    _, stderr = play(tmp_path, bot_folder(tmp_path, "locker", LOCKER))
    outcomes = _lock_outcomes(stderr)
    assert outcomes["flock"][1] == "PermissionError: [Errno 1] Operation not permitted", outcomes
    assert outcomes["sqlite"][1] == "OperationalError: access permission denied", outcomes


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the same bot, the runner on Linux")
def test_locks_work_without_the_sandbox(tmp_path):
    """The twin without a sandbox: the same attempts succeed, so the test above can fail."""
    _, stderr = play(tmp_path, bot_folder(tmp_path, "locker", LOCKER), kind="none")
    outcomes = _lock_outcomes(stderr)
    assert outcomes["flock"][1] == "ok" and outcomes["sqlite"][1] == "ok", outcomes
