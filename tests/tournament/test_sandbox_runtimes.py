"""Honest bots in other runtimes start and play under the sandbox's default limits: a JVM, Node,
a compiled C program and a shell script, each a whole game against a bundled bot.

A JVM reserves address space far beyond what it touches (its heap, code cache and class space
are reserved at start), so a limit on address space refused it; memory is counted by what a
bot holds (tournament/sandbox.py, "memory of a bot as a whole")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.support import BOTS, HERE
from tournament.config import SandboxSettings, parse_config
from tournament.results import read_results
from tournament.runner import run_tournament

RUNTIMES = HERE / "bots" / "runtimes"
TIME = {"startup_ms": 20000, "ready_ms": 10000, "decision_ms": 5000, "shutdown_ms": 2000}



def need(program: str) -> str:
    """The program's path; in CI a missing one is an error (.ci/run installs them), else a skip."""
    found = shutil.which(program)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{program} is not installed; .ci/run installs it")
        pytest.skip(f"{program} is not installed on this machine")
    return found


def readable_folder(tmp_path: Path) -> Path:
    """A folder the bot's own user id (the runner as root) can read."""
    folder = tmp_path / "bot"
    folder.mkdir()
    for p in (tmp_path, folder):
        p.chmod(0o755)
    return folder


def play_one(tmp_path: Path, command: list[str], cwd: Path | None = None) -> dict:
    """One whole game of the bot against the bundled random bot under the default [sandbox]."""
    entry: dict = {"name": "runtime", "command": command}
    if cwd is not None:
        entry["cwd"] = str(cwd)
    doc = {"game": {"name": "toy-tricks", "players": 2},
           "tournament": {"format": "gauntlet", "candidate": "runtime", "deals": 1, "seed": 3, "concurrency": 1,
                          "output": str(tmp_path / "out")},
           "time": TIME, "records": {"report": False, "stderr": "all"},
           "bots": [entry, {"name": "random", "command": [sys.executable, str(BOTS / "random_bot.py")]}]}
    config = parse_config(doc)
    assert config.sandbox == SandboxSettings()  # the defaults
    summary = run_tournament(config)
    records = list(read_results(tmp_path / "out"))
    assert summary.played == summary.total == len(records) >= 1
    for rec in records:
        seat = rec["bots"].index("runtime")
        assert rec["status"] == "played"
        assert not rec["faults"] and not rec["forfeited"], (rec["faults"], rec.get("stderr"))
        # The bot itself made its decisions (no stand-in for a forfeited seat).
        assert any(a["seat"] == seat and a["by"] == "bot" for a in rec["actions"]), rec["actions"]
    return records[0]


def test_a_java_bot_plays_under_the_default_limits(sandbox, tmp_path):
    javac, java = need("javac"), need("java")
    folder = readable_folder(tmp_path)
    shutil.copy(RUNTIMES / "RandomBot.java", folder)
    built = subprocess.run([javac, "-d", str(folder), str(folder / "RandomBot.java")], capture_output=True,
                           text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    for f in folder.iterdir():
        f.chmod(0o644)
    play_one(tmp_path, [java, "-cp", str(folder), "RandomBot"], cwd=folder)


def test_a_node_bot_plays_under_the_default_limits(sandbox, tmp_path):
    node = need("node")
    folder = readable_folder(tmp_path)
    shutil.copy(RUNTIMES / "random_bot.js", folder)
    (folder / "random_bot.js").chmod(0o644)
    play_one(tmp_path, [node, str(folder / "random_bot.js")])


def test_a_c_bot_plays_under_the_default_limits(sandbox, tmp_path):
    names = (os.environ.get("CC"), "cc", "gcc", "clang")
    cc = next((shutil.which(c) for c in names if c and shutil.which(c)), None)
    if cc is None:
        pytest.skip("no C compiler on this machine")
    folder = readable_folder(tmp_path)
    built = subprocess.run([cc, "-std=c99", "-O2", "-o", str(folder / "random_bot"), str(BOTS / "c" / "random_bot.c")],
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    play_one(tmp_path, [str(folder / "random_bot")])


def test_a_shell_bot_plays_under_the_default_limits(sandbox, tmp_path):
    folder = readable_folder(tmp_path)
    shutil.copy(RUNTIMES / "random_bot.sh", folder)
    (folder / "random_bot.sh").chmod(0o755)
    play_one(tmp_path, ["/bin/sh", str(folder / "random_bot.sh")])
