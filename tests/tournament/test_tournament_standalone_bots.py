"""The protocol stands on its own: a bot in C (libc only), plain Python bots that cannot
import trickcore, and the 10-line SDK bot of docs/protocol.md, each in real tournaments."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.tournament.support import BOTS, ROOT, quick_doc
from tournament.compliance import run_compliance
from tournament.config import parse_config
from tournament.results import read_results
from tournament.runner import run_tournament
from trickcore.game import GameConfigError
from trickcore.games import get_game, replay

C_SOURCE = BOTS / "c" / "random_bot.c"
C_FLAGS = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-O2"]
FAST = {"startup_ms": 10000, "ready_ms": 5000, "decision_ms": 5000, "shutdown_ms": 500}

# Runs a bot file with trickcore made unimportable: any "import trickcore" fails.
NO_TRICKCORE = ("import runpy, sys; sys.modules['trickcore'] = None; path = sys.argv[1]; sys.argv = sys.argv[1:]; "
                "runpy.run_path(path, run_name='__main__')")


def compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory) -> str:
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang; or $CC) on this machine: the C example bot is not built")
    exe = tmp_path_factory.mktemp("cbot") / "random_bot"
    exe.parent.chmod(0o755)  # readable by the bot's own user id when the tests run as root
    proc = subprocess.run([cc, *C_FLAGS, "-o", str(exe), str(C_SOURCE)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"{cc} {' '.join(C_FLAGS)} failed:\n{proc.stderr}"
    assert proc.stderr == "", proc.stderr  # not even a warning
    return str(exe)


def plain(script: str) -> list[str]:
    """A bundled plain-Python bot run in isolated mode with trickcore unimportable."""
    return [sys.executable, "-I", "-c", NO_TRICKCORE, str(BOTS / script)]


def real_game() -> tuple[str, int]:
    for name, players in (("beim-jupiter", 4), ("klaberjass", 4), ("sticheln", 4), ("reference", 4)):
        try:
            get_game(name)
            return name, players
        except GameConfigError:
            continue
    pytest.skip("no real game registered yet")


def test_c_bot_conversation(c_bot):
    lines = ["trickcore 1", "setoption seed 5", "isready 3", "frobnicate 1 2", "newgame {}", 'event {"type":"x"}',
             'request 7 3 {"legal":["a","b","c"],"view":{}}\r', "request 8 1 {}", "gameover {}", "quit", "isready 9"]
    proc = subprocess.run([c_bot], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=10)
    out = proc.stdout.splitlines()
    assert proc.returncode == 0
    assert out[:5] == ["id name c-random", "id author trickcore", "option seed int 0 0 4294967295", "trickcoreok 1",
                       "readyok 3"]
    assert re.fullmatch(r"action 7 #[012]", out[5]) and out[6] == "action 8 #0" and len(out) == 7
    again = subprocess.run([c_bot], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=10)
    assert again.stdout == proc.stdout  # a function of the seed and the request


def test_c_bot_is_compliant(c_bot):
    report = run_compliance([c_bot], game="toy-tricks", games=2)
    assert report.ok, [c for c in report.checks if not c.ok]


def test_plain_python_bots_cannot_import_trickcore(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import trickcore.game\n")
    guarded = subprocess.run([sys.executable, "-I", "-c", NO_TRICKCORE, str(probe)], capture_output=True, text=True,
                             timeout=30, cwd=ROOT)
    assert guarded.returncode != 0 and "ModuleNotFoundError" in guarded.stderr and "trickcore" in guarded.stderr
    for script in ("random_bot.py", "example_bot.py"):
        report = run_compliance(plain(script), game="toy-tricks", games=1)
        assert report.ok, (script, [c for c in report.checks if not c.ok])


def test_real_tournament_with_c_and_plain_python_bots(c_bot, tmp_path):
    """C, plain Python (no trickcore) and the heuristic bot share a table of a real game."""
    game, players = real_game()
    bots = [{"name": "c-random", "command": [c_bot], "options": {"seed": 7}},
            {"name": "plain-random", "command": plain("random_bot.py"), "options": {"seed": 1}},
            {"name": "plain-example", "command": plain("example_bot.py")},
            {"name": "heuristic", "command": [sys.executable, str(BOTS / "heuristic_bot.py")]}][:players]
    doc = quick_doc(bots, game=game, players=players, fmt="round-robin", deals=players, time=FAST)
    doc["tournament"]["concurrency"] = 2
    summary = run_tournament(parse_config(doc), tmp_path / "out")
    assert summary.errors == [] and summary.played == players
    records = read_results(tmp_path / "out")
    for r in records:
        assert r["faults"] == [] and r["notes"] == {}, (r["faults"], r["notes"])
        assert replay(r["record"]).scores() == r["scores"]
    by_bot = {b["name"]: 0 for b in bots}
    for r in records:
        for a in r["actions"]:
            assert a["by"] == "bot"
            by_bot[r["bots"][a["seat"]]] += 1
    assert all(n > 0 for n in by_bot.values()), by_bot
    # Each bot sat in every seat once (round robin advances the seating with the deal).
    assert sorted(tuple(r["bots"]) for r in records) == sorted(set(tuple(r["bots"]) for r in records))


def sdk_listing() -> str:
    text = (ROOT / "docs" / "protocol.md").read_text()
    block = re.search(r"<!-- sdk-example:begin -->\n```python\n(.*?)```\n<!-- sdk-example:end -->", text, re.S)
    assert block, "docs/protocol.md lost its sdk-example markers"
    return block.group(1)


def test_sdk_listing_is_short_and_uses_the_public_sdk():
    code = sdk_listing()
    assert len(code.strip().splitlines()) <= 11
    assert "from trickcore.bot import run" in code


def test_sdk_listing_plays_a_tournament(tmp_path, monkeypatch):
    path = tmp_path / "first_option.py"
    path.write_text(sdk_listing())
    tmp_path.chmod(0o755)  # readable by the bot's own user id when the tests run as root
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    report = run_compliance([sys.executable, str(path)], game="toy-tricks", games=1)
    assert report.ok, [c for c in report.checks if not c.ok]
    game, players = real_game()
    bots = [{"name": "first-option", "command": [sys.executable, str(path)]}] + [
        {"name": f"random-{i}", "command": [sys.executable, str(BOTS / "random_bot.py")], "options": {"seed": i}}
        for i in range(1, players)]
    summary = run_tournament(parse_config(quick_doc(bots, game=game, players=players, deals=1, time=FAST)),
                             tmp_path / "out")
    assert summary.errors == [] and summary.played == 1
    record = read_results(tmp_path / "out")[0]
    assert record["faults"] == []
    seat = record["bots"].index("first-option")
    assert record["bot_info"][str(seat)]["name"] == "first-option"
    assert any(a["seat"] == seat and a["by"] == "bot" for a in record["actions"])
