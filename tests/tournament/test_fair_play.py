"""Fair play: cheating bots against the sandbox (tournament/sandbox.py).

Every cheater (tests/tournament/bots/cheaters/) plays legal moves and, at its first
request, tries one attack; it reports what it achieved as ``CHEAT {json}`` lines on its
stderr, which the runner keeps in the run folder (``[records] stderr = "all"``).  Where the
outcome can be seen from outside -- a victim that forfeits, a forged line in results.jsonl,
a process left on the machine, a file written, a connection made -- the test looks at that
directly as well, so nothing the test relies on passes through a channel the sandbox is
meant to block.

Each attack must fail under the default sandbox, and the games around it must be intact:
every scheduled game played, no fault or forfeit for the honest bot.  For the attacks whose
harm stays on this machine's test files and processes, a twin test runs the same cheater
with ``[sandbox] kind = "none"`` and shows the attack then works -- so that these tests can
fail.  (Without a sandbox, harmful attacks only go for processes whose command line holds a
word the test gives them, never for the rest of the machine.)

Most sandboxed attacks share one gauntlet: the honest victim against each cheater, two
tables.  The secrets the bots hunt for are planted by the test: the organiser's
environment (FPORG-...), the victim's ``env`` (FPVIC-..., also in the config and in the run
folder's run.json), and the spy's own ``env`` (FPOWN-...).

Where an attack still works, its test states what the sandbox promises and is marked
``xfail(strict=True)`` with the hole in its reason, so that it fails once the hole is closed
and the mark must go.  The tests pass as root (the runner then gives each bot a user id of
its own) and as an ordinary user; ``test_unprivileged_organiser`` runs a tournament as the
user nobody when the tests run as root.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
import tomli_w

from tests.tournament.support import BOTS, HERE, overlapping_games_of_a_deal
from tournament import sandbox as sandbox_module
from tournament.config import load_config
from tournament.results import RESULTS_FILE
from tournament.runner import RunSummary, run_tournament
from tournament.schedule import build_schedule

CHEATERS = HERE / "bots" / "cheaters"
TOY_CLI = HERE / "toy_cli.py"
LINUX = sys.platform.startswith("linux")

ORG = "FPORG-" + secrets.token_hex(8)  # in the organiser's (the runner's) environment
VIC = "FPVIC-" + secrets.token_hex(8)  # the victim's env table
OWN = "FPOWN-" + secrets.token_hex(8)  # the spy's own env table
MIB = 1 << 20
# Process 1 of a sandboxed bot's PID namespace is its own bwrap.  When the organiser is root,
# the bot runs under a user id of its own and cannot touch it; otherwise both run under the
# organiser's id and the bot may signal it, read its memory and environment (the bot's own) or
# open its stdin (the bot's own pipe): harm to itself only.
ROOT_ORGANISER = hasattr(os, "geteuid") and os.geteuid() == 0
OWN_BWRAP = set() if ROOT_ORGANISER else {1}

TIME = {"startup_ms": 10000, "ready_ms": 5000, "decision_ms": 5000, "shutdown_ms": 500}

# The twins without a sandbox need nothing but Linux (the attacks go through /proc); the
# sandboxed tests need the ``sandbox`` fixture, which skips only outside CI.
linux = pytest.mark.skipif(not LINUX, reason="the attacks go through Linux's /proc")


# ---- machinery ----------------------------------------------------------------------------

# (the `sandbox` fixture: conftest.py)


@pytest.fixture(scope="module", autouse=True)
def organiser_secret():
    """A secret in the organiser's environment (the runner's, and so every unsandboxed bot's)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FAIRPLAY_ORGANISER_SECRET", ORG)
        yield


@pytest.fixture(scope="module")
def arenas(tmp_path_factory):
    """A factory of fresh folders (under /tmp, where a sandboxed bot's own files may lie too:
    they are mounted over its scratch space)."""
    return lambda name="arena": tmp_path_factory.mktemp(name)


def make_arena(root: Path) -> Path:
    """A tournament folder: the cheaters (and the victim) copied into ``bots/``; the config
    and the run folder (``out``) go next to them, so a bot working in the folder has them in
    reach -- the sandbox must hide them."""
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o755)  # as root, the runner starts each bot under a user id of its own: readable by all
    (root / "bots").mkdir()
    for script in CHEATERS.glob("*.py"):
        shutil.copy(script, root / "bots" / script.name)
    return root


def bot(arena: Path, name: str, script: str, *args: str, cwd: bool = True, **more) -> dict:
    entry = {"name": name, "command": [sys.executable, str(arena / "bots" / f"{script}.py"), *map(str, args)]}
    if cwd:
        entry["cwd"] = str(arena)
    return {**entry, **more}


def victim(arena: Path, *args: str) -> dict:
    return bot(arena, "honest", "honest", *args, env={"FAIRPLAY_VICTIM_SECRET": VIC})


@dataclasses.dataclass
class Run:
    summary: RunSummary
    config_path: Path
    out: Path
    jobs: set[str]
    lines: list[str]  # results.jsonl as written
    records: list[dict]  # its lines that are JSON
    reports: dict[str, list[dict]]  # bot -> its CHEAT reports, in game order

    def report(self, bot: str, attack: str) -> list[dict]:
        return [r for r in self.reports.get(bot, []) if r.get("attack") == attack]

    def games(self, bot: str) -> list[dict]:
        return [r for r in self.records if bot in r["bots"]]


_STDERR_FILE = re.compile(r"^(?P<job>.+)-seat\d+-(?P<bot>.+)\.log$")


def play(arena: Path, bots: list[dict], kind: str = "bwrap", fmt: str = "gauntlet", deals: int = 1,
         concurrency: int = 1, **sections) -> Run:
    """Write ``arena/fairplay.toml`` (output ``arena/out``), run it in this process, read back."""
    tournament = {"format": fmt, "deals": deals, "seed": 5, "concurrency": concurrency, "output": str(arena / "out")}
    if fmt == "gauntlet":
        tournament["candidate"] = "honest"
    # cgroup = "none": the memory tests check the runner's own count, also where the runner has a
    # delegated cgroup (the kernel's count in a bot's cgroup: test_sandbox_cgroup.py).
    doc = {"game": {"name": "toy-tricks", "players": 2}, "tournament": {**tournament, **sections.pop("tournament", {})},
           "time": TIME, "records": {"stderr": "all", "report": False}, "sandbox": {"kind": kind, "cgroup": "none"},
           "bots": bots, **sections}
    config_path = arena / "fairplay.toml"
    config_path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    config = load_config(config_path)
    summary = run_tournament(config)
    out = Path(config.output)
    lines = (out / RESULTS_FILE).read_text(encoding="utf-8").splitlines()
    records = []
    for line in lines:
        with contextlib.suppress(ValueError):
            records.append(json.loads(line))
    order = {j.job_id: j.index for j in build_schedule(config)}
    reports: dict[str, list[tuple[int, dict]]] = {}
    for path in (out / "stderr").glob("*.log"):
        m = _STDERR_FILE.match(path.name)
        assert m, path
        for text in path.read_text(encoding="utf-8").splitlines():
            if text.startswith("CHEAT "):
                reports.setdefault(m["bot"], []).append((order.get(m["job"], -1), json.loads(text[6:])))
    return Run(summary, config_path, out, set(order), lines, records,
               {b: [r for _, r in sorted(rs, key=lambda x: x[0])] for b, rs in reports.items()})


def assert_intact(run: Run, faulty: tuple[str, ...] = ()) -> None:
    """Every scheduled game played and recorded once, each line a record of the schedule; no
    fault or forfeit of any bot outside ``faulty``."""
    s = run.summary
    assert not s.errors and not s.interrupted and s.skipped == 0, (s.errors, s.interrupted, s.skipped)
    assert s.played == s.total == len(run.jobs)
    assert len(run.lines) == len(run.records) == s.total, run.lines
    assert sorted(r["job"] for r in run.records) == sorted(run.jobs)
    for rec in run.records:
        assert rec["status"] == "played"
        for seat, name in enumerate(rec["bots"]):
            if name not in faulty:
                assert not rec["fault_counts"][seat] and seat not in rec["forfeited"], (rec["job"], name, rec["faults"])


def processes_with(marker: str) -> dict[int, str]:
    """Host processes (but this one) whose command line holds ``marker``."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            data = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in data:
            found[int(entry)] = data.replace(b"\0", b" ").decode("utf-8", "replace")[:300]
    return found


def wait_gone(marker: str, seconds: float = 5.0) -> dict[int, str]:
    """Wait up to ``seconds`` for every process with ``marker`` to end; what is left."""
    deadline = time.monotonic() + seconds
    while True:
        left = processes_with(marker)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def kill_all_with(marker: str) -> None:
    for pid in processes_with(marker):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


class Listener:
    """A TCP listener of the test on 127.0.0.1: what connecting bots say, one line each."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.said: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            with conn:
                conn.settimeout(2)
                with contextlib.suppress(OSError):
                    self.said.append(conn.recv(200).decode("utf-8", "replace").strip())

    def close(self):
        self._stop.set()
        self._thread.join(timeout=2)
        self.sock.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- the sandboxed gauntlet: the honest victim against each cheater ------------------------

@dataclasses.dataclass
class Gauntlet:
    run: Run
    arena: Path
    listener: Listener
    closed_token: str  # what net_client (no network) would say
    open_token: str  # what net_client_open (network = true) says
    escape_marker: str
    write_token: str


@pytest.fixture(scope="module")
def gauntlet(sandbox, arenas) -> Gauntlet:
    arena = make_arena(arenas("gauntlet"))
    listener = Listener()
    closed, opened = "FPNET-" + secrets.token_hex(6), "FPNET-" + secrets.token_hex(6)
    marker, token = "FPESC-" + secrets.token_hex(6), secrets.token_hex(6)
    bots = [
        victim(arena),
        bot(arena, "reader", "run_folder_reader", "--hint", arena / "out"),
        # Its own files are the cheaters' folder of the repository: the run folder is nowhere in reach.
        {"name": "reader_outside", "command": [sys.executable, str(CHEATERS / "run_folder_reader.py")]},
        bot(arena, "thief", "stdin_thief"),
        bot(arena, "memory_reader", "memory_reader"),
        bot(arena, "signaller", "signaller"),
        bot(arena, "signaller_idle", "signaller", "--idle"),
        bot(arena, "forger", "forger", "--hint", arena / "out"),
        bot(arena, "env_spy", "env_spy", env={"FAIRPLAY_OWN_SECRET": OWN}),
        bot(arena, "net_client", "net_client", "--port", listener.port, "--token", closed),
        bot(arena, "net_client_open", "net_client", "--port", listener.port, "--token", opened,
            sandbox={"network": True}),
        bot(arena, "memory_hog", "memory_hog", sandbox={"memory_mb": 256}),
        bot(arena, "memory_splitter", "memory_splitter", "--split", 8, "--total", 1024, sandbox={"memory_mb": 256}),
        bot(arena, "memfd_hog", "memfd_hog", "--total", 512, "--each", 32, sandbox={"memory_mb": 256}),
        bot(arena, "tmpfs_hog", "tmpfs_hog", "--each", 120, sandbox={"memory_mb": 128, "scratch_mb": 128}),
        bot(arena, "limit_liar", "limit_liar"),
        bot(arena, "fork_bomb", "fork_bomb", "--count", 200, "--sleep", 3, sandbox={"processes": 16}),
        bot(arena, "escaper", "escaper", "--marker", marker, "--file", arena / f"escaped-{marker}"),
        bot(arena, "scribbler", "scribbler", "--token", token, "--run-folder", arena / "out", "--file-mb", 4,
            "--fill-mb", 64, sandbox={"file_size_mb": 4, "scratch_mb": 8}),
    ]
    try:
        run = play(arena, bots, concurrency=2)
    finally:
        listener.close()
    yield Gauntlet(run, arena, listener, closed, opened, marker, token)
    kill_all_with(marker)


def test_gauntlet_games_are_intact(gauntlet):
    """Whatever the cheaters tried, every game was played and the victim never faulted; only
    the memory hog, which dies of its own limit, has faults (and the stdin thief, which can
    only steal its own requests, when the organiser is not root)."""
    faulty = ("memory_hog", "memory_splitter", "memfd_hog", "tmpfs_hog", "limit_liar")
    assert_intact(gauntlet.run, faulty=faulty if ROOT_ORGANISER else (*faulty, "thief"))
    # The victim got its own env, and nothing of the organiser's.
    assert gauntlet.run.report("honest", "honest")
    assert all(r["own_env_secrets"] == [VIC] for r in gauntlet.run.report("honest", "honest"))


# 1. The run folder and the config

def test_run_folder_and_config_are_hidden(gauntlet):
    arena, run = gauntlet.arena, gauntlet.run
    # There was something to find: run.json and the config hold the victim's env.
    assert VIC in (arena / "out" / "run.json").read_text() and VIC in run.config_path.read_text()
    for name in ("reader", "reader_outside"):
        reps = run.report(name, "run_folder")
        assert reps, name
        for rep in reps:
            assert rep["secrets"] == [], (name, rep)
            inside = [p for p in rep["read"] if p.startswith(str(arena / "out")) or p == str(run.config_path)]
            assert inside == [], (name, rep["read"])
    # The reader working in the tournament folder knew the paths (its own folder holds them)
    # and tried them.
    for rep in run.report("reader", "run_folder"):
        assert str(arena / "out" / "run.json") in rep["errors"], rep["errors"]


@linux
def test_run_folder_is_readable_without_sandbox(arenas):
    arena = make_arena(arenas())
    run = play(arena, [victim(arena), bot(arena, "reader", "run_folder_reader")], kind="none")
    assert_intact(run)
    [rep] = run.report("reader", "run_folder")[:1]
    assert VIC in rep["secrets"]
    assert str(arena / "out" / "run.json") in rep["read"] and str(run.config_path) in rep["read"]


def _reader_secrets(run: Run) -> list[str]:
    return sorted({s for r in run.report("reader", "run_folder") for s in r["secrets"]})


def test_run_folder_named_through_a_symlink_is_hidden(sandbox, arenas, tmp_path):
    """The output folder is named through a symbolic link to the bot's folder: still hidden."""
    arena = make_arena(arenas())
    (tmp_path / "link").symlink_to(arena)
    bots = [victim(arena), bot(arena, "reader", "run_folder_reader")]
    doc_out = tmp_path / "link" / "out"
    run = play(arena, bots, tournament={"output": str(doc_out)})
    assert run.out.resolve() == doc_out.resolve()
    assert_intact(run)
    assert _reader_secrets(run) == []


def test_run_folder_given_to_run_tournament_is_hidden(sandbox, arenas, tmp_path):
    """run_tournament(config, out_dir): the folder written to is the one hidden, not config.output."""
    arena = make_arena(arenas())
    bots = [victim(arena), bot(arena, "reader", "run_folder_reader")]
    doc = {"game": {"name": "toy-tricks", "players": 2},
           "tournament": {"format": "gauntlet", "candidate": "honest", "deals": 1, "seed": 5,
                          "output": str(tmp_path / "elsewhere")},
           "time": TIME, "records": {"stderr": "all", "report": False}, "bots": bots}
    config_path = arena / "fairplay.toml"
    config_path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    run_tournament(load_config(config_path), arena / "out")
    found = set()
    for path in (arena / "out" / "stderr").glob("*-reader.log"):
        for line in path.read_text().splitlines():
            if line.startswith("CHEAT "):
                found.update(json.loads(line[6:]).get("secrets", []))
    assert VIC in (arena / "out" / "run.json").read_text()
    assert found == set()


# 2. Other bots' stdin

def test_other_bots_stdin_is_out_of_reach(gauntlet):
    run = gauntlet.run
    reps = run.report("thief", "stdin_quit")
    assert reps
    for rep in reps:
        assert set(rep["quit_written"]) <= OWN_BWRAP and set(rep["opened_for_reading"]) <= OWN_BWRAP, rep
    assert all(set(map(int, r["per_pid"])) <= OWN_BWRAP for r in run.report("thief", "stdin_read"))
    # The victim at the thief's table got every request: no fault of it.
    assert [f for rec in run.games("thief") for f in rec["faults"] if rec["bots"][f["seat"]] != "thief"] == []


@linux
def test_other_bots_stdin_is_open_without_sandbox(arenas):
    arena = make_arena(arenas())
    only = str(arena / "bots" / "honest.py")
    run = play(arena, [victim(arena), bot(arena, "thief", "stdin_thief", "--only", only)], kind="none")
    [quit_rep] = run.report("thief", "stdin_quit")[:1]
    assert quit_rep["quit_written"], quit_rep
    stolen = run.report("thief", "stdin_read")
    assert stolen and stolen[-1]["stolen_bytes"] > 0 and re.search(r"(request|event) ", stolen[-1]["sample"])
    # The victim quit on the thief's word: a crash and a forfeit.
    assert any(f["class"] == "crash" for rec in run.records for f in rec["faults"]
               if rec["bots"][f["seat"]] == "honest")


# 3. The table's memory

def test_table_memory_is_unreadable(gauntlet):
    reps = gauntlet.run.report("memory_reader", "memory")
    assert reps
    for rep in reps:
        assert set(map(int, rep["readable"])) <= OWN_BWRAP and rep["secrets"] == [], rep


@linux
def test_table_memory_is_readable_without_sandbox(arenas):
    arena = make_arena(arenas())
    run = play(arena, [victim(arena), bot(arena, "memory_reader", "memory_reader")], kind="none")
    assert_intact(run)
    [rep] = run.report("memory_reader", "memory")[:1]
    assert str(rep["parent"]) in rep["readable"] and ORG in rep["secrets"], rep


# 4. Signals

def test_signals_reach_no_other_bot(gauntlet):
    run = gauntlet.run
    reps = run.report("signaller", "signal")
    assert reps
    for rep in reps:
        assert set(rep["delivered"]["SIGSTOP"] + rep["delivered"]["SIGKILL"]) <= OWN_BWRAP, rep
    # The signaller gained nothing: its games ended exactly as those of its idle twin, which
    # plays the same moves without attacking (no fault, no forfeit: see the intact check).
    def results(name):
        return {(r["deal"], r["seating"]): (r["bots"].index(name), r["result"]) for r in run.games(name)}
    assert results("signaller") == results("signaller_idle")
    assert all(not rec["forfeited"] for rec in run.games("signaller"))


@linux
def test_signals_reach_other_bots_without_sandbox(arenas):
    arena = make_arena(arenas())
    only = str(arena / "bots" / "honest.py")
    run = play(arena, [victim(arena), bot(arena, "signaller", "signaller", "--only", only)], kind="none")
    [rep] = run.report("signaller", "signal")[:1]
    assert rep["delivered"]["SIGKILL"], rep
    attacked = run.records[0]
    seat = attacked["bots"].index("honest")
    assert seat in attacked["forfeited"]
    assert attacked["result"]["ranks"][1 - seat] == 1  # the signaller won by it


# 5. Forged records

def test_no_forged_record(gauntlet):
    run = gauntlet.run
    reps = run.report("forger", "forge")
    assert reps
    for rep in reps:
        if ROOT_ORGANISER:  # else it may create a results.jsonl in the empty folder masking the run folder
            assert rep["appended"] == [], rep
        # No descriptor but its own pipes (and the one listing them) was handed to the bot.
        assert all(t.startswith(("pipe:", "/proc/")) for t in rep["own_fds"].values()), rep["own_fds"]
    assert not any("FORGED" in line for line in run.lines)  # the intact check counts the lines


@linux
def test_forged_record_lands_without_sandbox(arenas):
    arena = make_arena(arenas())
    run = play(arena, [victim(arena), bot(arena, "forger", "forger")], kind="none")
    [rep] = run.report("forger", "forge")[:1]
    assert rep["appended"]
    assert any("FORGED" in line for line in run.lines)


# 6. Environments

def test_environment_is_the_bots_own(gauntlet):
    run = gauntlet.run
    reps = run.report("env_spy", "environment")
    assert reps
    for rep in reps:
        assert rep["own_secrets"] == [OWN], rep  # its own env: yes; the organiser's: no
        assert set(rep["foreign_secrets"]) <= {OWN}, rep  # its own bwrap has its environment
        allowed = {"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "PWD", "PYTHONDONTWRITEBYTECODE",
                   "PYTHONUNBUFFERED", "FAIRPLAY_OWN_SECRET"}
        assert set(rep["env_keys"]) <= allowed, rep["env_keys"]


@linux
def test_environments_are_open_without_sandbox(arenas):
    arena = make_arena(arenas())
    only = str(arena / "bots" / "honest.py")
    spy = bot(arena, "env_spy", "env_spy", "--only", only, env={"FAIRPLAY_OWN_SECRET": OWN})
    run = play(arena, [victim(arena), spy], kind="none")
    assert_intact(run)
    [rep] = run.report("env_spy", "environment")[:1]
    assert ORG in rep["own_secrets"] and OWN in rep["own_secrets"]
    assert VIC in rep["foreign_secrets"]


# 7. Network

def test_no_network_unless_allowed(gauntlet):
    run = gauntlet.run
    closed = run.report("net_client", "net_connect")
    assert closed and not any(r["connected"] for r in closed), closed
    assert gauntlet.closed_token not in gauntlet.listener.said
    # network = true for one bot: the same connection goes through.
    opened = run.report("net_client_open", "net_connect")
    assert opened and all(r["connected"] for r in opened), opened
    assert gauntlet.open_token in gauntlet.listener.said


def _accomplices(arenas, kind: str) -> Run:
    arena = make_arena(arenas())
    port = free_port()
    bots = [bot(arena, "listener", "net_listener", "--port", port),
            bot(arena, "connector", "net_connector", "--port", port)]
    return play(arena, bots, kind=kind, fmt="round-robin")


def test_bots_cannot_reach_each_other(sandbox, arenas):
    run = _accomplices(arenas, "bwrap")
    assert_intact(run)
    assert run.report("listener", "net_listen") and all(r["listening"] for r in run.report("listener", "net_listen"))
    tries = run.report("connector", "net_peer")
    assert len(tries) >= 2 and not any(r["connected"] for r in tries), tries
    assert run.report("listener", "net_accept") == []


@linux
def test_bots_reach_each_other_without_sandbox(arenas):
    run = _accomplices(arenas, "none")
    assert_intact(run)
    assert any(r["connected"] for r in run.report("connector", "net_peer"))
    assert any(r["said"] == "hello accomplice" for r in run.report("listener", "net_accept"))


# 8. Memory

def test_memory_limit_stops_a_memory_hog(gauntlet):
    run = gauntlet.run
    games = run.games("memory_hog")
    assert games
    for rec in games:
        seat = rec["bots"].index("memory_hog")
        [fault] = [f for f in rec["faults"] if f["seat"] == seat]
        assert fault["class"] == "limit" and "memory_mb = 256" in fault["detail"], fault
        assert seat in rec["forfeited"]
        # The runner's own count stopped it, not a message of the bot's.
        assert "the runner counted" in fault["detail"] and "and stopped it" in fault["detail"], fault
    reps = run.report("memory_hog", "memory_hog")
    assert reps and {"attack": "memory_hog", "allocated": True} not in reps, reps


def test_memory_limit_bounds_the_bot_not_each_process(gauntlet):
    """1 GiB, asked for in 8 processes of 128 MiB each (each under the per-process cap of
    memory_mb = 256) and touched: the runner adds up what the sandbox's processes hold and
    stops the bot once they hold more than memory_mb together."""
    run = gauntlet.run
    games = run.games("memory_splitter")
    assert games
    first = games[0]
    seat = first["bots"].index("memory_splitter")
    [fault] = [f for f in first["faults"] if f["seat"] == seat]
    assert fault["class"] == "limit" and "memory_mb = 256" in fault["detail"], fault
    assert "the runner counted" in fault["detail"], fault
    for rep in run.report("memory_splitter", "memory_split"):  # if it ever got to report
        assert rep["held_mib"] < 1024, rep


_COUNTED = re.compile(r"the runner counted (?P<total>\d+) MiB: (?P<mapped>\d+) MiB mapped, (?P<shared>\d+) MiB in "
                      r"memory files and shared memory, (?P<scratch>\d+) MiB in /tmp and /dev/shm")


def _memory_stop(run: Run, name: str) -> list[dict[str, int]]:
    """For each game of ``name``: its one fault must be the runner's stop at memory_mb; what the
    runner counted, by kind."""
    games = run.games(name)
    assert games
    counted = []
    for rec in games:
        seat = rec["bots"].index(name)
        [fault] = [f for f in rec["faults"] if f["seat"] == seat]
        assert fault["class"] == "limit" and "memory_mb = " in fault["detail"], fault
        m = _COUNTED.search(fault["detail"])
        assert m, fault
        counted.append({k: int(v) for k, v in m.groupdict().items()})
    return counted


def test_memory_in_memfd_files_counts(gauntlet):
    """512 MiB written into memfd files and never mapped: memory no proportional set size shows.
    The runner counts the files and stops the bot at memory_mb = 256 before it holds them all."""
    run = gauntlet.run
    for counted in _memory_stop(run, "memfd_hog"):
        assert counted["total"] > 256 and counted["shared"] > 200, counted
    assert not any(r.get("survived") for r in run.report("memfd_hog", "memfd_hog")), run.report("memfd_hog",
                                                                                                 "memfd_hog")


def test_memory_in_scratch_counts(gauntlet):
    """120 MiB in /tmp and as much in /dev/shm (scratch_mb = 128 each), memory_mb = 128: the
    tmpfs mounts hold memory, and the runner counts it."""
    run = gauntlet.run
    for counted in _memory_stop(run, "tmpfs_hog"):
        assert counted["total"] > 128 and counted["scratch"] > 100, counted
    assert not any(r.get("survived") for r in run.report("tmpfs_hog", "tmpfs_hog"))


def test_a_bots_own_words_name_no_limit(gauntlet):
    """A bot that writes what runtimes print at a limit and exits has crashed: the runner
    enforced no limit on it, so none is recorded."""
    run = gauntlet.run
    assert run.report("limit_liar", "limit_liar")
    for rec in run.games("limit_liar"):
        seat = rec["bots"].index("limit_liar")
        [fault] = [f for f in rec["faults"] if f["seat"] == seat]
        assert fault["class"] == "crash" and "limit" not in fault["detail"], fault


# 9. Processes

def test_process_limit_stops_a_fork_bomb(gauntlet):
    reps = gauntlet.run.report("fork_bomb", "fork")
    assert reps
    for rep in reps:
        # The bot itself is one of its 16 processes; it caught the refusal and played on.
        assert rep["forked"] < 16 and rep["error"] == "EAGAIN" and rep["lift_limit"] != "ok", rep
    assert all(not rec["faults"] for rec in gauntlet.run.games("fork_bomb"))


# 10. Escaping processes

def test_no_process_outlives_its_sandbox(gauntlet):
    run = gauntlet.run
    assert run.report("escaper", "escape"), (run.reports.get("escaper"),
                                             [(r["job_id"], r["faults"], r["stderr"]) for r in run.games("escaper")])
    assert wait_gone(gauntlet.escape_marker) == {}


@linux
def test_a_process_escapes_without_sandbox(arenas, tmp_path):
    arena = make_arena(arenas())
    marker = "FPESC-" + secrets.token_hex(6)
    try:
        run = play(arena, [victim(arena), bot(arena, "escaper", "escaper", "--marker", marker, "--sleep", 20,
                                               "--file", tmp_path / "escaped")], kind="none")
        assert_intact(run)
        time.sleep(0.5)
        assert processes_with(marker), "the setsid() grandchild should have outlived the tournament"
    finally:
        kill_all_with(marker)


@pytest.mark.parametrize("concurrency", [1, 2], ids=["one-table", "table-processes"])
def test_killed_runner_leaves_no_process(sandbox, arenas, concurrency):
    """SIGKILL the runner mid-game: within seconds no table, bwrap, bot or escaped grandchild
    of it is left (bwrap dies with its parent, and its PID namespace with it)."""
    arena = make_arena(arenas())
    marker = "FPESC-" + secrets.token_hex(6)
    bots = [victim(arena, "--slow", "0.3"), bot(arena, "escaper", "escaper", "--marker", marker)]
    doc = {"game": {"name": "toy-tricks", "players": 2},
           "tournament": {"format": "gauntlet", "candidate": "honest", "deals": 4, "seed": 5,
                          "concurrency": concurrency, "output": str(arena / "out")},
           "time": TIME, "records": {"report": False}, "bots": bots}
    config = arena / "fairplay.toml"
    config.write_text(tomli_w.dumps(doc), encoding="utf-8")
    runner = subprocess.Popen([sys.executable, str(TOY_CLI), "tournament", str(config), "-q", "--no-report"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not any("open(sys.argv[2]" in cmd for cmd in processes_with(marker).values()):  # the grandchild
            assert runner.poll() is None, runner.stderr.read().decode()
            assert time.monotonic() < deadline, "the escaper's grandchild never started"
            time.sleep(0.05)
        assert processes_with(str(arena))  # the runner's bwrap and bots, by their paths
        runner.kill()
        runner.wait(timeout=10)
        assert wait_gone(str(arena)) == {}
        assert wait_gone(marker) == {}
    finally:
        if runner.poll() is None:
            os.killpg(runner.pid, signal.SIGKILL)
            runner.wait(timeout=10)
        kill_all_with(str(arena))
        kill_all_with(marker)


# 11. CPU

@pytest.fixture(scope="module")
def burners(sandbox, arenas) -> Run:
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("one CPU: every table shares it")
    arena = make_arena(arenas("burners"))
    # 4 deals, 8 games: both tables play some even when one of them starts late.
    return play(arena, [victim(arena), bot(arena, "burner", "cpu_burner", "--burn", 1)], deals=4, concurrency=2,
                tournament={"cpu_affinity": "table"})


def test_cpu_burner_is_confined_to_its_table(burners):
    """cpu_affinity = "table": every thread of the burner runs on its table's CPU only, and
    the two tables' burners on different CPUs."""
    assert_intact(burners)
    reps = burners.report("burner", "cpu")
    # A burner process per table and deal round (a table starts its bots afresh when a deal
    # comes round again), each reporting once.
    assert len(reps) >= 2, reps
    runner_cpus = {str(c) for c in os.sched_getaffinity(0)}
    for rep in reps:
        lists = set(rep["threads"].values())
        assert rep["tasks"] >= 2 and len(lists) == 1 and lists <= runner_cpus, rep
    assert len({rep["threads"]["main"] for rep in reps}) == 2, reps  # the two tables' CPUs


def test_cpu_burner_cannot_leave_its_cpu(burners):
    """Asking for every CPU (sched_setaffinity) is refused: the pinning holds."""
    reps = burners.report("burner", "cpu_escape")
    assert len(reps) >= 2, reps
    for rep in reps:
        assert rep["result"] != "ok" and "," not in rep["allowed_after"] and "-" not in rep["allowed_after"], rep


# 12. Writing

def test_writes_stay_in_scratch(gauntlet):
    arena, token = gauntlet.arena, gauntlet.write_token
    [rep] = gauntlet.run.report("scribbler", "write")[:1]
    res = rep["results"]
    for place in ("script", "usr"):
        assert not res[place]["ok"] and res[place]["error"] in ("EROFS", "EACCES"), (place, res)
    if ROOT_ORGANISER:
        # The bot runs under a user id of its own: the sandbox's own folders (its /, /etc and
        # /dev, the empty folder masking the run folder) are closed too.  Otherwise they are the
        # bot's, in memory, and not the machine's (test_no_space_outside_scratch).
        for place in ("etc", "root", "dev", "run"):
            assert not res[place]["ok"], (place, res)
    # Nothing landed on the machine.
    for folder in (arena / "bots", Path("/usr"), Path("/etc"), Path("/"), Path("/dev"), arena / "out", arena):
        assert not (folder / f"pwned-{token}").exists(), folder
    assert res["home"]["ok"] and res["home"]["read_back"] == 16, res["home"]  # HOME is its scratch
    big = res["big"]  # twice file_size_mb
    assert not big["ok"] and big["error"] == "EFBIG" and big["bytes"] <= 4 * MIB and big["lift_limit"] != "ok", big
    fill = res["fill"]  # more than scratch_mb
    assert not fill["ok"] and fill["error"] == "ENOSPC" and fill["bytes"] <= 8 * MIB, fill
    assert all(not rec["faults"] for rec in gauntlet.run.games("scribbler"))


def test_no_space_outside_scratch(gauntlet):
    """scratch_mb bounds all the space a bot can fill: nothing outside /tmp and /dev/shm."""
    [rep] = gauntlet.run.report("scribbler", "write")[:1]
    assert rep["results"]["spill"]["bytes"] == 0, rep["results"]["spill"]


@linux
def test_writes_land_without_sandbox(arenas):
    arena = make_arena(arenas())
    token = secrets.token_hex(6)
    scribbler = bot(arena, "scribbler", "scribbler", "--token", token, "--run-folder", arena / "out",
                    "--targets", "script,run")
    run = play(arena, [victim(arena), scribbler], kind="none")
    assert_intact(run)
    assert (arena / "bots" / f"pwned-{token}").exists() and (arena / "out" / f"pwned-{token}").exists()


# 14. Notes through the session keyring

# Joins a new session keyring (KEYCTL_JOIN_SESSION_KEYRING, as pam_keyinit does at an ssh login)
# and then becomes the tournament runner.
_IN_SESSION_KEYRING = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
keyctl = {"x86_64": 250, "aarch64": 219}[os.uname().machine]
if libc.syscall(keyctl, 1, b"fairplay-session") < 0:
    sys.exit("no session keyring: " + os.strerror(ctypes.get_errno()))
os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
"""


def _keyring_run(arenas, kind: str) -> list[dict]:
    """Two note-takers in duplicate (each deal under both seatings; a table starts its bots afresh
    when a deal comes round), run by a runner that has a session keyring of its own."""
    if os.uname().machine not in ("x86_64", "aarch64"):
        pytest.skip("the note-taker knows the key calls of x86-64 and ARM64 only")
    arena = make_arena(arenas())
    bots = [bot(arena, "notes_a", "keyring_notes"), bot(arena, "notes_b", "keyring_notes")]
    doc = {"game": {"name": "toy-tricks", "players": 2},
           "tournament": {"format": "duplicate", "deals": 3, "seed": 5, "output": str(arena / "out")},
           "time": TIME, "records": {"stderr": "all", "report": False}, "sandbox": {"kind": kind}, "bots": bots}
    config = arena / "fairplay.toml"
    config.write_text(tomli_w.dumps(doc), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _IN_SESSION_KEYRING, str(TOY_CLI), "tournament", str(config), "-q",
                           "--no-report"], capture_output=True, text=True, timeout=300)
    if "no session keyring" in done.stderr:
        pytest.skip(f"this machine gives no session keyring: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    reports = []
    for path in (arena / "out" / "stderr").glob("*.log"):
        reports += [json.loads(line[6:]) for line in path.read_text().splitlines() if line.startswith("CHEAT ")]
    notes = [r for r in reports if r.get("attack") == "keyring"]
    assert len(notes) >= 4, reports  # a process of each bot per deal round
    return notes


def test_no_notes_through_the_session_keyring(sandbox, arenas):
    """No note is left, none is found: the key calls are refused."""
    notes = _keyring_run(arenas, "bwrap")
    for note in notes:
        assert not note["added"] and note["add_error"] == os.strerror(1), note  # EPERM
        assert note["found"] is None, note


@linux
def test_notes_pass_through_the_session_keyring_without_sandbox(arenas):
    notes = _keyring_run(arenas, "none")
    assert all(note["added"] for note in notes), notes
    # A later process read a note another process (of either bot) wrote, hand and all.
    written = {n["wrote"] for n in notes}
    found = [n["found"] for n in notes if n["found"]]
    assert found and set(found) <= written and any(json.loads(f)["hand"] for f in found), notes


# 15. Signals through file locks

def _lock_run(arenas, kind: str) -> Run:
    arena = make_arena(arenas())
    bots = [bot(arena, "sender", "lock_signaller", "--send"), bot(arena, "receiver", "lock_signaller", "--receive")]
    return play(arena, bots, kind=kind, fmt="round-robin", deals=2)


def test_no_signal_through_file_locks(sandbox, arenas):
    """Two colluders at one table, both able to read /usr/bin/env: the sender cannot lock it, so
    the receiver sees no lock."""
    run = _lock_run(arenas, "bwrap")
    assert_intact(run)
    sent, seen = run.report("sender", "lock_send"), run.report("receiver", "lock_receive")
    assert sent and seen
    assert all(not r["locked"] and r["error"] == "EPERM" for r in sent), sent
    assert all(r["seen"] is None for r in seen), seen


@linux
def test_file_locks_signal_without_sandbox(arenas):
    run = _lock_run(arenas, "none")
    assert_intact(run)
    sent = {r["sent"] for r in run.report("sender", "lock_send") if r["locked"]}
    seen = {r["seen"] for r in run.report("receiver", "lock_receive")}
    assert sent and sent & seen, (sent, seen)


# 16. No two games of one deal at once

def test_copies_at_two_tables_never_hold_one_deal(sandbox, arenas):
    """Duplicate on two tables, one deal: its two seatings are never played at once, so two
    copies of a bot (here the lock colluders) at the two tables never hold the same deal --
    what a channel between them could carry is no hand of their own deal."""
    arena = make_arena(arenas())
    bots = [bot(arena, "sender", "lock_signaller", "--send"), bot(arena, "receiver", "lock_signaller", "--receive")]
    run = play(arena, bots, fmt="duplicate", deals=1, concurrency=2)
    assert_intact(run)
    assert len(run.records) == 2
    assert overlapping_games_of_a_deal(run.records) == []
    assert all(r["seen"] is None for r in run.report("receiver", "lock_receive"))


# ---- holes: each test states what the sandbox promises, and fails while the hole is open ------

def test_other_bots_files_are_hidden(sandbox, arenas, tmp_path):
    """The reader works in the tournament folder, which holds the victim's own folder with its
    private data: the victim's script is hidden, its data must be too."""
    arena = make_arena(arenas())
    bob = arena / "bob"  # the victim's own folder, inside the tournament folder the reader works in
    bob.mkdir()
    for name in ("honest.py", "cheatlib.py"):
        shutil.copy(CHEATERS / name, bob / name)
    (bob / "book.txt").write_text(f"bob's opening book, private: {VIC}\n")
    bots = [{"name": "honest", "command": [sys.executable, str(bob / "honest.py")]},
            bot(arena, "reader", "run_folder_reader")]
    run = play(arena, bots, tournament={"output": str(tmp_path / "out")})
    assert_intact(run)
    assert _reader_secrets(run) == []


def _own_files_run(arenas, tmp_path, kind: str) -> tuple[Run, Path, Path]:
    """Two bots working in one folder: the victim was given a model file to read (its own
    ``read_only``), and the organiser keeps private notes (mode 0600) there too."""
    arena = make_arena(arenas())
    models = arena / "models"
    models.mkdir(mode=0o755)
    model = models / "victim-model.txt"
    model.write_text(f"the victim's model: {VIC}\n")
    model.chmod(0o644)
    notes = arena / "organiser-notes.txt"
    notes.write_text(f"the organiser's notes: {ORG}\n")
    notes.chmod(0o600)
    honest = victim(arena)
    honest["env"]["FAIRPLAY_READ"] = str(model)  # not on its command line, which would make it the bot's own
    bots = [{**honest, "sandbox": {"read_only": [str(model)]}},
            bot(arena, "reader", "run_folder_reader")]  # it reads every file of the folder
    return play(arena, bots, kind=kind, tournament={"output": str(tmp_path / "out")}), model, notes


def test_a_bot_sees_its_own_files_only(sandbox, arenas, tmp_path):
    """Another bot's read_only file and the organiser's 0600 file in the folder both bots work
    in are hidden from the reader; the victim reads its own model."""
    run, model, _ = _own_files_run(arenas, tmp_path, "bwrap")
    assert_intact(run)
    assert _reader_secrets(run) == []
    [reads] = run.report("honest", "honest_reads")[:1]
    assert reads["readable"] == {str(model): True} and reads["secrets"] == [VIC], reads  # its own model, read


@linux
def test_other_files_are_readable_without_sandbox(arenas, tmp_path):
    run, _, _ = _own_files_run(arenas, tmp_path, "none")
    assert_intact(run)
    assert {VIC, ORG} <= set(_reader_secrets(run))


_LAUNCHER_WORD = re.compile(r"--nproc|--uid|--|[0-9]+")


def test_the_sandboxs_init_names_nothing_of_the_organisers(sandbox, arenas, tmp_path):
    """Process 1 of a sandbox is bwrap: its command line shows ``bwrap --args N --`` (the mounts
    are read from a file), then the limits' launcher and the bot's own command -- no folder
    bound, no path hidden."""
    arena = make_arena(arenas())
    spy = bot(arena, "init_reader", "init_reader")
    run = play(arena, [victim(arena), spy], tournament={"output": str(tmp_path / "out")})
    assert_intact(run)
    reps = run.report("init_reader", "init")
    assert reps
    for rep in reps:
        words = rep["words"]
        assert words[:2] == ["bwrap", "--args"] and words[2].isdigit() and words[3] == "--", words
        own = spy["command"]
        assert words[-len(own):] == own, words
        launch = words[4:-len(own)]  # the launcher (of the trickcore package the bot sees) and its options
        assert not launch or launch[0] == str(sandbox_module.LAUNCHER), words
        for word in launch[1:]:
            assert _LAUNCHER_WORD.fullmatch(word), words


# ---- 13. compliance under SIGTERM -----------------------------------------------------------

@dataclasses.dataclass
class Terminated:
    returncode: int | None
    stdout: str
    stderr: str
    processes_left: dict[int, str]
    temp_left: list[str]


@pytest.fixture(scope="module")
def compliance_terminated(sandbox, tmp_path_factory) -> Terminated:
    """``trickcore compliance`` on a slow bot, SIGTERMed while its games run."""
    tmp = tmp_path_factory.mktemp("compliance-tmp")
    marker = "FPCMP-" + secrets.token_hex(6)
    env = {**os.environ, "TMPDIR": str(tmp)}
    cmd = [sys.executable, str(TOY_CLI), "compliance", "--game", "toy-tricks", "--games", "6", "--",
           sys.executable, str(CHEATERS / "honest.py"), "--slow", "0.2", marker]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:  # both seats of a game running (the session check runs one bot alone)
            bots = [c for c in processes_with(marker).values() if c.startswith(f"{sys.executable} {CHEATERS}")]
            if len(bots) >= 2:
                break
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the compliance games never started"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        try:
            stdout, stderr = proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            stdout, stderr = "", "(still running 15 s after SIGTERM)"
        left = wait_gone(marker)
        return Terminated(proc.poll(), stdout, stderr, left, sorted(p.name for p in tmp.iterdir()))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        kill_all_with(marker)


def test_compliance_sigterm_leaves_no_process(compliance_terminated):
    assert compliance_terminated.returncode is not None, "compliance did not end on SIGTERM"
    assert compliance_terminated.processes_left == {}


def test_compliance_sigterm_leaves_no_temp_folder(compliance_terminated):
    assert compliance_terminated.returncode is not None
    assert compliance_terminated.temp_left == [], compliance_terminated


def test_compliance_sigterm_is_no_pass(compliance_terminated):
    assert compliance_terminated.returncode not in (None, 0), compliance_terminated
    assert "compliant" not in compliance_terminated.stdout.splitlines(), compliance_terminated.stdout


# ---- an unprivileged organiser ------------------------------------------------------------

def test_unprivileged_organiser(sandbox):
    """As root, run a small sandboxed tournament of bundled bots as the user nobody: the way
    most organisers run it (bwrap then needs an unprivileged user namespace)."""
    if not ROOT_ORGANISER:
        pytest.skip("the organiser is not root: every other test here already runs unprivileged")
    import pwd

    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user nobody")
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("no setpriv")
    as_nobody = [setpriv, f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"]
    env = {"PATH": "/usr/bin:/bin", "LANG": os.environ.get("LANG", "C.UTF-8")}
    check = subprocess.run([*as_nobody, sys.executable, "-c", "import tournament.sandbox, trickcore"], env=env,
                           cwd="/", capture_output=True, text=True, timeout=60)
    if check.returncode != 0:
        why = (f"user nobody cannot use this Python and its packages ({sys.executable}; is a folder above it "
               f"private?): {check.stderr.strip().splitlines()[-1] if check.stderr.strip() else check.returncode}")
        if os.environ.get("CI"):  # .ci/run opens the folders above them for this test
            pytest.fail(why)
        pytest.skip(why)
    probe_code = ("from tournament.config import SandboxSettings\nfrom tournament.sandbox import probe\n"
                  "probe(SandboxSettings())")
    probed = subprocess.run([*as_nobody, sys.executable, "-c", probe_code], env=env, cwd="/", capture_output=True,
                            text=True, timeout=60)
    if probed.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"CI must be able to sandbox bots as an unprivileged user: {probed.stderr}")
        pytest.skip(f"user nobody cannot sandbox bots here: {probed.stderr.strip()[-300:]}")
    folder = Path(tempfile.mkdtemp(prefix="fairplay-nobody-", dir="/tmp"))
    try:
        folder.chmod(0o755)
        out = folder / "out"
        out.mkdir()
        os.chown(out, nobody.pw_uid, nobody.pw_gid)
        doc = {"game": {"name": "toy-tricks", "players": 2},
               "tournament": {"format": "round-robin", "deals": 2, "seed": 3, "output": str(out)},
               "time": TIME, "records": {"report": False},
               "bots": [{"name": "random", "command": ["{python}", "{bots}/random_bot.py"]},
                        {"name": "example", "command": ["{python}", "{bots}/example_bot.py"]}]}
        config = folder / "fairplay.toml"
        config.write_text(tomli_w.dumps(doc), encoding="utf-8")
        config.chmod(0o644)
        done = subprocess.run(["timeout", "120", *as_nobody, sys.executable, str(TOY_CLI), "tournament", str(config),
                               "-q", "--no-report"], env={**env, "HOME": str(folder)}, cwd=str(folder),
                              capture_output=True, text=True, timeout=150)
        assert done.returncode == 0, done.stderr
        records = [json.loads(line) for line in (out / RESULTS_FILE).read_text().splitlines()]
        assert len(records) == 2 and all(not r["faults"] for r in records), records
        assert json.loads((out / "run.json").read_text())["config"]["sandbox"]["kind"] == "bwrap"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---- not attacks: what the sandbox must still let an honest bot do ---------------------------

def test_allowlisted_etc_files_are_readable(sandbox, arenas):
    arena = make_arena(arenas())
    wanted = [p for p in ("/etc/passwd", "/etc/os-release", "/etc/ld.so.cache", "/etc/ssl") if os.path.exists(p)]
    run = play(arena, [victim(arena, "--read", ",".join(wanted)),
                       {"name": "random", "command": [sys.executable, str(BOTS / "random_bot.py")]}],
               fmt="round-robin")
    assert_intact(run)
    [rep] = run.report("honest", "honest_reads")[:1]
    assert rep["readable"] == {p: True for p in wanted}, rep


# ---- a deal comes round again ---------------------------------------------------------------

def _processes_per_deal(run: Run) -> dict[int, dict[str, int]]:
    """For each deal, how many of its games each process of the rememberer played."""
    deal_of = {r["job"]: r["deal"] for r in run.records}
    seen: dict[int, dict[str, int]] = {}
    for path in (run.out / "stderr").glob("*-rememberer.log"):
        job = _STDERR_FILE.match(path.name)["job"]
        tokens = {json.loads(line[6:])["process"] for line in path.read_text().splitlines()
                  if line.startswith("CHEAT ")}
        for token in tokens:
            per = seen.setdefault(deal_of[job], {})
            per[token] = per.get(token, 0) + 1
    return seen


def _remember(arena: Path) -> Run:
    bots = [victim(arena), bot(arena, "rememberer", "rememberer")]
    return play(arena, bots, fmt="duplicate", deals=3)


def test_no_process_is_dealt_a_deal_twice(sandbox, arenas):
    """Duplicate: each deal under both seatings; the rememberer plays every game, yet no
    process of it sees a deal twice (the table starts it afresh when a deal comes round)."""
    run = _remember(make_arena(arenas()))
    assert_intact(run)
    per_deal = _processes_per_deal(run)
    assert sorted(per_deal) == [0, 1, 2]
    assert all(count == 1 for per in per_deal.values() for count in per.values()), per_deal
    # ... and a process is still kept from one deal to the next (not one process per game).
    tokens = [t for per in per_deal.values() for t in per]
    assert len(set(tokens)) < len(tokens)


def test_without_the_rule_a_process_sees_a_deal_again(sandbox, arenas, monkeypatch):
    """The check above can fail: with the table's rule switched off, one process plays both
    seatings of a deal."""
    from tournament import session

    class Forgetful(set):
        def __contains__(self, item):
            return False

    original = session.BotSession.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.deals_played = Forgetful()

    monkeypatch.setattr(session.BotSession, "__init__", init)
    per_deal = _processes_per_deal(_remember(make_arena(arenas())))
    assert any(count > 1 for per in per_deal.values() for count in per.values()), per_deal
