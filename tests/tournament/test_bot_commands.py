"""Bot commands as their authors write them (docs/tournament.md, "Bot commands"): ``python
mybot.py`` run from the bot's folder, on the command line (compliance, match, play) and in a
config beside the bot; the bot starts in its own folder, sandboxed or not; a command that cannot
start says which path it tried and where it looked.  ``trickcore play`` starts its bots before
the page opens, prints a bot's faults in the terminal and says when the game has ended.

Every bot here is a real process in the real sandbox, started through the real commands."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
import tomli_w
from click.testing import CliRunner

import trickcore
from tests.tournament.support import BOTS, HERE
from tournament.cli import compliance_command, match_command, tournament_command
from tournament.config import check_command, command_folder, load_config, resolve_command
from tournament.results import read_results

#: The example bot, and one that says in its name the folder it was started in.
EXAMPLE = (BOTS / "example_bot.py").read_text()
SAYS_ITS_FOLDER = EXAMPLE.replace('send("id name example-bot")',
                                  'send("id name started-in:" + __import__("os").getcwd())')


@pytest.fixture
def bot_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bot's own folder holding mybot.py, and ``python`` on PATH the interpreter of these
    tests (as in an activated virtual environment); the tests run from that folder."""
    folder = tmp_path / "mybot"
    folder.mkdir()
    (folder / "mybot.py").write_text(SAYS_ITS_FOLDER)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.chdir(folder)
    return folder


def _started_in(output: str) -> str:
    """The folder a bot said it started in (the compliance check's handshake line)."""
    return output.split("started-in:", 1)[1].split("'", 1)[0]


# ---- the rule ------------------------------------------------------------------------------

def test_which_words_of_a_command_are_paths(tmp_path):
    (tmp_path / "mybot.py").write_text("")
    (tmp_path / "bot.js").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "data.bin").write_text("")
    base = str(tmp_path)
    assert resolve_command(["python", "mybot.py"], tmp_path) == ("python", f"{base}/mybot.py")
    assert resolve_command(["python", "-u", "mybot.py", "--book", "data.bin", "--depth", "3"], tmp_path) == (
        "python", "-u", f"{base}/mybot.py", "--book", f"{base}/data.bin", "--depth", "3")
    assert resolve_command(["node", "bot.js"], tmp_path) == ("node", f"{base}/bot.js")
    assert resolve_command(["java", "-cp", ".", "Bot"], tmp_path) == ("java", "-cp", base, "Bot")
    assert resolve_command(["./bot", "--fast"], tmp_path) == (f"{base}/bot", "--fast")
    assert resolve_command(["bot"], tmp_path) == ("bot",)  # a bare name is a program on PATH, as in a shell
    assert resolve_command(["python", "-m", "pkg"], tmp_path) == ("python", "-m", "pkg")
    assert resolve_command(["python", "-c", "mybot.py"], tmp_path) == ("python", "-c", "mybot.py")
    # A script that is not there is still a path, so that the error can name it.
    assert resolve_command(["python", "gone.py"], tmp_path) == ("python", f"{base}/gone.py")
    assert resolve_command(["python", "/abs/x.py"], tmp_path) == ("python", "/abs/x.py")


def test_the_folder_a_bot_starts_in(tmp_path):
    assert command_folder(["python", f"{tmp_path}/mybot.py"]) == str(tmp_path)
    assert command_folder(["java", "-cp", str(tmp_path), "Bot"]) == str(tmp_path)
    assert command_folder([f"{tmp_path}/bot", "--fast"]) == str(tmp_path)
    assert command_folder(["bot"]) is None
    assert command_folder([sys.executable, "-c", "pass"]) is None


def test_a_command_that_cannot_start_names_the_path_and_the_folder(tmp_path):
    with pytest.raises(FileNotFoundError) as missing:
        check_command(["python", f"{tmp_path}/mybot.py"])
    assert missing.value.strerror.startswith(f"there is no mybot.py in {tmp_path} (relative paths")
    with pytest.raises(FileNotFoundError) as no_folder:
        check_command([f"{tmp_path}/bots/bot"])
    assert no_folder.value.strerror.startswith(f"there is no folder {tmp_path}/bots (for bot)")
    with pytest.raises(FileNotFoundError) as not_on_path:
        check_command(["no-such-bot-program"])
    assert "no program 'no-such-bot-program' on PATH (" in not_on_path.value.strerror
    assert "e.g. ./no-such-bot-program" in not_on_path.value.strerror
    (tmp_path / "bot").write_text("#!/bin/sh\n")
    with pytest.raises(PermissionError) as not_executable:
        check_command([f"{tmp_path}/bot"])
    assert "is not executable (chmod +x" in not_executable.value.strerror


# ---- compliance ----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["bwrap", "none"])
def test_compliance_of_python_mybot_py_from_its_folder(request, bot_folder, kind):
    if kind == "bwrap":
        request.getfixturevalue("sandbox")
    ran = CliRunner().invoke(compliance_command, ["--games", "1", "--sandbox", kind, "--", "python", "mybot.py"])
    assert ran.exit_code == 0, ran.output
    assert "compliant" in ran.output and "NOT compliant" not in ran.output
    assert _started_in(ran.output) == str(bot_folder)


def test_compliance_of_a_script_in_a_subfolder_starts_in_the_script_folder(sandbox, bot_folder, monkeypatch):
    monkeypatch.chdir(bot_folder.parent)
    ran = CliRunner().invoke(compliance_command, ["--games", "1", "--", "python", "mybot/mybot.py"])
    assert ran.exit_code == 0, ran.output
    assert _started_in(ran.output) == str(bot_folder)


def test_compliance_of_a_missing_script_says_where_it_looked(sandbox, bot_folder):
    ran = CliRunner().invoke(compliance_command, ["--games", "1", "--", "python", "mybott.py"])
    assert ran.exit_code == 1
    assert f"cannot start 'python': there is no mybott.py in {bot_folder}" in ran.output


def test_compliance_of_a_program_of_the_folder_that_runs_its_script_by_a_relative_path(sandbox, bot_folder):
    # ./run.sh finds mybot.py only in its own folder: the folder the bot starts in.
    run = bot_folder / "run.sh"
    run.write_text("#!/bin/sh\nexec python3 mybot.py\n")
    run.chmod(0o755)
    ran = CliRunner().invoke(compliance_command, ["--games", "1", "--", "./run.sh"])
    assert ran.exit_code == 0, ran.output
    assert _started_in(ran.output) == str(bot_folder)
    # Without ./ the name is a program on PATH, as in a shell, and the error says so.
    bare = CliRunner().invoke(compliance_command, ["--games", "1", "--", "run.sh"])
    assert bare.exit_code == 1 and "no program 'run.sh' on PATH" in bare.output and "./run.sh" in bare.output


def test_compliance_of_python_m_a_package_of_the_folder(sandbox, bot_folder):
    (bot_folder / "mypkg").mkdir()
    (bot_folder / "mypkg" / "__main__.py").write_text(SAYS_ITS_FOLDER)
    ran = CliRunner().invoke(compliance_command, ["--games", "1", "--", "python", "-m", "mypkg"])
    assert ran.exit_code == 0, ran.output
    assert _started_in(ran.output) == str(bot_folder)


def test_compliance_of_a_program_found_on_path(sandbox, tmp_path, monkeypatch):
    # An installed bot (its own bin folder on PATH) starts in its scratch folder: it has no folder of its own.
    tool = tmp_path / "tool" / "bin"
    tool.mkdir(parents=True)
    program = tool / "mybot"
    program.write_text("#!/usr/bin/env python3\n" + SAYS_ITS_FOLDER)
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tool}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.chdir(tmp_path)
    ran = CliRunner().invoke(compliance_command, ["--games", "1", "--", "mybot"])
    assert ran.exit_code == 0, ran.output
    assert _started_in(ran.output) == "/tmp"


# ---- match and a config --------------------------------------------------------------------

def test_match_of_python_mybot_py_from_its_folder(sandbox, bot_folder, tmp_path):
    out = tmp_path / "out"
    ran = CliRunner().invoke(match_command, ["reference", "python mybot.py", "python mybot.py", "--deals", "1",
                                             "--out", str(out)])
    assert ran.exit_code == 0, ran.output
    records = read_results(out)
    assert records and all(r["status"] == "played" and r["faults"] == [] for r in records)


def test_a_config_beside_its_bot_runs_from_any_folder(sandbox, bot_folder, tmp_path, monkeypatch):
    config = bot_folder / "t.toml"
    config.write_text(tomli_w.dumps({
        "game": {"name": "reference", "players": 4},
        "tournament": {"format": "round-robin", "deals": 1, "seed": 7, "concurrency": 1, "output": "out"},
        "bots": [{"name": "relative", "command": ["python", "mybot.py"]},
                 {"name": "placeholder", "command": ["{python}", "{config_dir}/mybot.py"]},
                 {"name": "r1", "command": ["{python}", "{bots}/random_bot.py"]},
                 {"name": "r2", "command": ["{python}", "{bots}/random_bot.py"]}]}))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    loaded = load_config(config)
    assert loaded.bot("relative").command == ("python", str(bot_folder / "mybot.py"))
    assert loaded.bot("placeholder").command[1:] == (str(bot_folder / "mybot.py"),)
    ran = CliRunner().invoke(tournament_command, [str(config), "-q", "--no-report"])
    assert ran.exit_code == 0, ran.output
    records = read_results(elsewhere / "out")
    assert records and all(r["status"] == "played" and r["faults"] == [] for r in records)


def test_a_config_with_a_missing_script_names_the_config_folder(sandbox, bot_folder, tmp_path, monkeypatch):
    config = bot_folder / "t.toml"
    config.write_text(tomli_w.dumps({
        "game": {"name": "reference", "players": 4}, "tournament": {"format": "duplicate", "seed": 7},
        "bots": [{"name": f"b{i}", "command": ["python", "gone.py"]} for i in range(4)]}))
    monkeypatch.chdir(tmp_path)
    ran = CliRunner().invoke(tournament_command, [str(config), "--check"])
    assert ran.exit_code == 2
    assert f"bots[0].command: cannot start 'python': there is no gone.py in {bot_folder}" in ran.output


# ---- play ----------------------------------------------------------------------------------

def _play(folder: Path, *args: str) -> subprocess.Popen[str]:
    """``trickcore play ... --no-browser`` started from ``folder``, with ``python`` on PATH."""
    env = dict(os.environ, PYTHONPATH=str(Path(trickcore.__file__).parent.parent),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return subprocess.Popen([sys.executable, "-c", "from trickcore.cli import main; main()", "play", *args,
                             "--no-browser", "--pace", "0", "--out", str(folder.parent / "records")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder, env=env)


def _address(proc: subprocess.Popen[str]) -> str:
    """The websocket address of the page ``trickcore play`` printed."""
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("open "):
            base, _, key = line.split()[1].partition("/?t=")
            return base.replace("http://", "ws://") + "/ws?t=" + key
    raise AssertionError(f"no address printed; stderr: {proc.stderr.read() if proc.stderr else ''}")


def test_play_stops_before_the_page_with_the_stderr_of_a_bot_that_fails_its_handshake(sandbox, bot_folder):
    (bot_folder / "bad.py").write_text("import sys\nprint('cannot load weights.bin', file=sys.stderr)\nsys.exit(3)\n")
    proc = _play(bot_folder, "klaberjass", "python bad.py")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2
    assert "open " not in out  # no page
    assert "failed its handshake in the preflight check" in err and "cannot load weights.bin" in err


def test_play_stops_before_the_page_when_a_script_is_missing(sandbox, bot_folder):
    proc = _play(bot_folder, "klaberjass", "python mybott.py")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2 and "open " not in out
    assert f"there is no mybott.py in {bot_folder}" in err


def test_play_with_a_good_bot_shows_the_options_in_words_and_says_when_the_page_has_closed(sandbox, bot_folder):
    proc = _play(bot_folder, "sticheln", "python mybot.py", "-p", "3", "--option", "verkehrt=true",
                 "--option", "rounds=1")
    try:
        url = _address(proc)

        async def look() -> dict:
            async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
                hello = json.loads((await ws.receive(timeout=30)).data)
                return hello

        hello = asyncio.run(look())
        assert hello["options_text"] == "variant: verkehrt, rounds: 1"
        assert hello["names"][1:] == ["seat1-mybot", "seat2-mybot"]
        out, err = proc.communicate(timeout=120)  # the page has gone: the game ends after its linger
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "the page has closed; the game ends in 10 s unless the page is opened again" in err
    assert "the game has ended: the page was closed" in err
    assert err.index("the page has closed") < err.index("the game has ended")


def test_play_prints_a_fault_in_the_terminal(sandbox, bot_folder):
    shutil.copy(HERE / "bots" / "mockbot.py", bot_folder / "mockbot.py")
    proc = _play(bot_folder, "klaberjass", "python mockbot.py --crash --at 2", "--option", "target=1",
                 "--decision-ms", "2000")
    try:
        url = _address(proc)

        async def play_to_the_end() -> list[dict]:
            got = []
            async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
                while True:
                    message = json.loads((await ws.receive(timeout=60)).data)
                    got.append(message)
                    ask = message.get("ask") if message["type"] == "resume" else message
                    if ask and ask.get("type") == "ask":
                        await ws.send_str(json.dumps({"type": "act", "action": ask["legal"][0]}))
                    elif message["type"] == "pause":
                        await ws.send_str(json.dumps({"type": "continue"}))
                    elif message["type"] == "over":
                        await ws.send_str(json.dumps({"type": "quit"}))
                        return got

        got = asyncio.run(play_to_the_end())
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert [m["class"] for m in got if m["type"] == "fault"][:1] == ["crash"]  # on the page ...
    # ... and in the terminal: at once what happened, once the game is over what the bot did.
    assert "fault: seat 1 (seat1-mockbot): crash, it forfeits the game" in err
    assert "game 1, seat 1 (seat1-mockbot): crash: " in err
    assert err.index("fault: seat 1") < err.index("game 1, seat 1")
    assert "the game has ended: you quit on the page" in err
    assert proc.returncode == 0
