"""Whole tournaments: determinism, resume after a kill, output files, the CLI, shipped configs."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import tomli_w
from click.testing import CliRunner

from tests.tournament.support import HERE, ROOT, bot_cmd, mock, quick_doc
from tournament.cli import compliance_command, match_command, tournament_command
from tournament.config import load_config, parse_config
from tournament.results import RESULTS_FILE, ResumeError, comparable, read_results
from tournament.runner import run_tournament
from trickcore.game import GameConfigError
from trickcore.games import get_game

FAST = {"startup_ms": 5000, "ready_ms": 2000, "decision_ms": 2000, "shutdown_ms": 200}


def three_bots() -> list[dict]:
    return [{"name": "random", "command": bot_cmd("random_bot.py"), "options": {"seed": 3}},
            {"name": "example", "command": bot_cmd("example_bot.py")},
            {"name": "heuristic", "command": bot_cmd("heuristic_bot.py")}]


def duplicate_doc(deals=3, concurrency=1) -> dict:
    doc = quick_doc(three_bots(), players=3, fmt="duplicate", deals=deals, time=FAST)
    doc["tournament"]["concurrency"] = concurrency
    return doc


def by_job(out: Path) -> dict[str, dict]:
    return {r["job"]: comparable(r) for r in read_results(out)}


def test_results_do_not_depend_on_concurrency(tmp_path):
    s1 = run_tournament(parse_config(duplicate_doc(concurrency=1)), tmp_path / "c1")
    s2 = run_tournament(parse_config(duplicate_doc(concurrency=2)), tmp_path / "c2")
    assert s1.played == s2.played == 3 * 6
    assert by_job(tmp_path / "c1") == by_job(tmp_path / "c2")
    assert [(s.name, s.mean_score, s.mu) for s in s1.standings] == [(s.name, s.mean_score, s.mu) for s in s2.standings]
    # Results grouped by deal, and the standings files.
    deals = json.loads((tmp_path / "c1" / "deals.json").read_text())["deals"]
    assert [(d["deal"], d["games"]) for d in deals] == [(0, 6), (1, 6), (2, 6)]
    standings = json.loads((tmp_path / "c1" / "standings.json").read_text())["standings"]
    assert {s["name"] for s in standings} == {"random", "example", "heuristic"}
    assert all(s["games"] == 18 and s["groups"] == 3 and s["ci95"] is not None for s in standings)
    assert (tmp_path / "c1" / "standings.csv").read_text().startswith("bot,games,mean_score,ci95,")
    summary = json.loads((tmp_path / "c1" / "summary.json").read_text())
    assert summary["games_played"] == 18 and summary["runner_latency_us"]["decisions"] > 0
    rec = read_results(tmp_path / "c1")[0]
    assert all("runner_us" in a and "ms" in a for a in rec["actions"] if a["by"] == "bot")
    # By default only games with faults keep a transcript (docs/tournament.md, [records]).
    assert rec["faults"] == [] and rec["transcript"] is None and not (tmp_path / "c1" / "transcripts").exists()
    # The effective config is written back and loads to the same fingerprint.
    assert load_config(tmp_path / "c1" / "config.toml").fingerprint() == parse_config(duplicate_doc()).fingerprint()


def test_resume_after_killing_the_runner(tmp_path):
    config_path = tmp_path / "t.toml"
    doc = duplicate_doc(deals=4, concurrency=2)
    # One bot thinks 20 ms per decision, so the kill below lands mid-run: with instant bots
    # the whole run can finish between two looks at the results file.
    doc["bots"][0] = {"name": "random", "command": mock("--slow", "20")}
    config_path.write_text(tomli_w.dumps(doc))
    reference = run_tournament(load_config(config_path), tmp_path / "whole")
    out = tmp_path / "killed"
    runner = subprocess.Popen([sys.executable, str(HERE / "toy_cli.py"), "tournament", str(config_path), "--out",
                               str(out), "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = out / RESULTS_FILE
    deadline = time.time() + 60
    while time.time() < deadline:
        if results.exists() and results.read_text().count("\n") >= 5:
            break
        time.sleep(0.01)
    os.kill(runner.pid, signal.SIGKILL)  # like a power loss: no cleanup at all
    runner.wait()
    done_before = len(read_results(out))
    assert 5 <= done_before < reference.total
    with open(results, "a") as fh:  # and a torn last line, as a crash mid-write leaves
        fh.write('{"job": "t0-d3-s5", "status": "pla')
    resumed = run_tournament(load_config(config_path), out, resume=True)
    assert resumed.resumed == done_before and resumed.played == reference.total - done_before
    lines = results.read_text().splitlines()
    assert len(lines) == len({json.loads(x)["job"] for x in lines}) == reference.total  # nothing lost or doubled
    assert by_job(out) == by_job(tmp_path / "whole")
    assert [(s.name, s.mean_score) for s in resumed.standings] == [(s.name, s.mean_score) for s in reference.standings]


def test_ctrl_c_stops_cleanly_and_resume_finishes(tmp_path):
    config_path = tmp_path / "t.toml"
    config_path.write_text(tomli_w.dumps(duplicate_doc(deals=4, concurrency=2)))
    out = tmp_path / "out"
    runner = subprocess.Popen([sys.executable, str(HERE / "toy_cli.py"), "tournament", str(config_path), "--out",
                               str(out), "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and not ((out / RESULTS_FILE).exists() and
                                          (out / RESULTS_FILE).read_text().count("\n") >= 3):
        time.sleep(0.01)
    runner.send_signal(signal.SIGINT)
    _, err = runner.communicate(timeout=30)
    assert runner.returncode == 130, err
    assert "run again with --resume" in err
    summary = run_tournament(load_config(config_path), out, resume=True)
    assert summary.resumed + summary.played == summary.total == 24


def test_resume_refusals(tmp_path):
    config = parse_config(duplicate_doc(deals=1))
    run_tournament(config, tmp_path / "out")
    with pytest.raises(ResumeError, match="already holds 6 game records.*pass --resume"):
        run_tournament(config, tmp_path / "out")
    changed = parse_config(duplicate_doc(deals=2))
    with pytest.raises(ResumeError, match=r"the config changed since the run started \(changed: tournament.deals\)"):
        run_tournament(changed, tmp_path / "out", resume=True)
    # Same config, more tables in parallel: allowed, nothing to play.
    again = run_tournament(parse_config(duplicate_doc(deals=1, concurrency=2)), tmp_path / "out", resume=True)
    assert again.played == 0 and again.resumed == 6


def test_partnership_game_rates_teams(tmp_path):
    bots = [{"name": f"b{i}", "command": bot_cmd("random_bot.py"), "options": {"seed": i}} for i in range(4)]
    summary = run_tournament(parse_config(quick_doc(bots, game="toy-partners", players=4, fmt="duplicate",
                                                    time=FAST)), tmp_path / "out")
    records = read_results(tmp_path / "out")
    assert len(records) == 4
    for r in records:  # partners are always seated together
        assert {frozenset((r["bots"][0], r["bots"][2])), frozenset((r["bots"][1], r["bots"][3]))} == \
            {frozenset(("b0", "b2")), frozenset(("b1", "b3"))}
    s = {x.name: x for x in summary.standings}
    assert s["b0"].mu == pytest.approx(s["b2"].mu) and s["b1"].mu == pytest.approx(s["b3"].mu)


# ---- CLI ----------------------------------------------------------------------------

def write_config(tmp_path, doc) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(tomli_w.dumps(doc))
    return path


def test_cli_tournament(tmp_path):
    path = write_config(tmp_path, duplicate_doc(deals=1))
    result = CliRunner().invoke(tournament_command, [str(path), "--out", str(tmp_path / "o"), "-j", "2"])
    assert result.exit_code == 0, result.output
    assert "score" in result.output and "heuristic" in result.output
    assert "6 games played, 0 already recorded, 0 skipped (of 6)" in result.output
    again = CliRunner().invoke(tournament_command, [str(path), "--out", str(tmp_path / "o")])
    assert again.exit_code == 2 and "pass --resume" in again.output
    resumed = CliRunner().invoke(tournament_command, [str(path), "--out", str(tmp_path / "o"), "--resume"])
    assert resumed.exit_code == 0 and "0 games played, 6 already recorded" in resumed.output


def test_cli_check_and_errors(tmp_path):
    path = write_config(tmp_path, duplicate_doc(deals=1))
    result = CliRunner().invoke(tournament_command, [str(path), "--check", "--set", "time.decision_ms=250",
                                                     "--deals", "5"])
    assert result.exit_code == 0
    assert "deals = 5" in result.output and "decision_ms = 250" in result.output
    bad = CliRunner().invoke(tournament_command, [str(path), "--set", "tournament.format=swiss"])
    assert bad.exit_code == 2
    assert "tournament.format: must be one of round-robin, duplicate, gauntlet, paired, got 'swiss'" in bad.output


def test_cli_match(tmp_path):
    cmd = " ".join(bot_cmd("random_bot.py"))
    result = CliRunner().invoke(match_command, ["toy-tricks", cmd, " ".join(bot_cmd("example_bot.py")),
                                                "--deals", "2", "--out", str(tmp_path / "m")])
    assert result.exit_code == 0, result.output
    assert "4 games played" in result.output and "p1-random_bot" in result.output


def test_cli_compliance():
    ok = CliRunner().invoke(compliance_command, ["--game", "toy-tricks", "--", *bot_cmd("example_bot.py")])
    assert ok.exit_code == 0 and ok.output.strip().endswith("compliant")
    bad = CliRunner().invoke(compliance_command, ["--game", "toy-tricks", "--decision-ms", "500", "--",
                                                  *mock("--illegal", "--unknown")])
    assert bad.exit_code == 1
    assert "FAIL  games:" in bad.output and "illegal" in bad.output
    assert "FAIL  no unknown lines" in bad.output
    dead = CliRunner().invoke(compliance_command, ["--game", "toy-tricks", "--startup-ms", "300", "--",
                                                   *mock("--no-handshake")])
    assert dead.exit_code == 1 and "FAIL  handshake: no 'trickcoreok' within startup_ms = 300 ms" in dead.output


# ---- shipped configs ------------------------------------------------------------------

def registered(name: str) -> bool:
    try:
        get_game(name)
        return True
    except GameConfigError:
        return False


@pytest.mark.skipif(not registered("reference"), reason="game 'reference' is not registered yet")
def test_reference_round_robin_config_end_to_end(tmp_path):
    config = load_config(ROOT / "configs" / "reference-round-robin.toml", {"tournament.deals": 1})
    summary = run_tournament(config, tmp_path / "rr")
    assert summary.errors == [] and summary.played == 5  # C(5, 4) tables x 1 deal
    assert all(r["faults"] == [] for r in read_results(tmp_path / "rr"))


def test_cli_replay_rebuilds_a_recorded_game(tmp_path):
    from tournament.cli import replay_command

    run_tournament(parse_config(duplicate_doc(deals=1)), tmp_path / "o")
    record = read_results(tmp_path / "o")[2]
    result = CliRunner().invoke(replay_command, [str(tmp_path / "o" / RESULTS_FILE), "--job", record["job"],
                                                 "--seat", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.count("  legal: ") == sum(1 for a in record["actions"] if a["seat"] == 1)
    assert f"ranks {record['ranks']}" in result.output
    missing = CliRunner().invoke(replay_command, [str(tmp_path / "o" / RESULTS_FILE), "--job", "t9-d9-s9"])
    assert missing.exit_code == 2 and "no game 't9-d9-s9'" in missing.output


# ---- progress and the final table -----------------------------------------------------

def test_progress_line_with_eta_in_logs_and_redrawn_on_a_terminal():
    import io

    from tournament.cli import _Progress

    log = io.StringIO()
    progress = _Progress(False, stream=log, tty=False)
    record = {"actions": [{"by": "bot"}] * 10 + [{"by": "substitute"}]}
    for done in range(1, 21):
        progress(done, 20, record)
    progress.close()
    lines = log.getvalue().splitlines()
    assert len(lines) == 10  # one line every 10%
    assert lines[0].startswith("[") and "2/20 games  10%" in lines[0] and "ETA " in lines[0]
    assert "decisions/s" in lines[0] and "20/20 games 100%" in lines[-1] and "ETA 0:00" in lines[-1]

    term = io.StringIO()
    progress = _Progress(False, stream=term, tty=True)
    for done in range(6, 11):  # resumed at 5 of 10: the ETA counts only this run's games
        progress(done, 10, record)
    progress.close()
    out = term.getvalue()  # a rich bar, redrawn in place (control codes), ending on a new line
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out)
    frames = [f.strip() for f in plain.replace("\n", "\r").split("\r") if f.strip()]
    assert "\x1b[" in out and frames[0].startswith("━") and " 5/10 games" in frames[0]  # the resumed base
    assert frames[-1].endswith("decisions/s") and "10/10 games 100%" in frames[-1] and "ETA" in frames[-1]
    assert plain.rstrip("\x1b[?25h").endswith("\n")

    quiet = io.StringIO()
    progress = _Progress(True, stream=quiet, tty=True)
    progress(1, 2, record)
    progress.close()
    assert quiet.getvalue() == ""


def test_final_standings_table_columns(tmp_path):
    path = write_config(tmp_path, duplicate_doc(deals=2))
    result = CliRunner().invoke(tournament_command, [str(path), "--out", str(tmp_path / "o"), "-j", "2"])
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if line.startswith("#"))
    for column in ("bot", "games", "score", "±95%", "win%", "mu±sigma", "faults", "forfeit"):
        assert column in header.split(), column
    rows = [line.split() for line in result.output.splitlines() if line[:1].isdigit() and "heuristic" in line]
    assert rows and rows[0][2] == "12" and rows[0][4] != "-"  # 2 deal groups: a confidence interval
    quiet = CliRunner().invoke(tournament_command, [str(path), "--out", str(tmp_path / "q"), "-q"])
    assert quiet.exit_code == 0 and "mu±sigma" not in quiet.output and "ETA" not in quiet.output


# ---- tables in processes ----------------------------------------------------------------

def test_tables_in_processes_or_threads_play_the_same_games(tmp_path):
    from tournament.runner import use_processes

    doc = duplicate_doc(deals=2, concurrency=2)
    doc["records"] = {"transcripts": "all"}
    threads = parse_config({**doc, "tournament": {**doc["tournament"], "workers": "threads"}})
    processes = parse_config({**doc, "tournament": {**doc["tournament"], "workers": "processes"}})
    assert not use_processes(threads, 2) and use_processes(processes, 2) and use_processes(parse_config(doc), 2)
    assert not use_processes(parse_config(duplicate_doc(concurrency=1)), 1)  # one table stays in-process
    s1 = run_tournament(threads, tmp_path / "t")
    s2 = run_tournament(processes, tmp_path / "p")
    assert s1.played == s2.played == 12 and s1.errors == s2.errors == []
    assert by_job(tmp_path / "t") == by_job(tmp_path / "p")
    assert (tmp_path / "p" / read_results(tmp_path / "p")[0]["transcript"]).exists()  # written by the table process


def _marked_bot(marker: str) -> list[str]:
    """The random bot, with ``marker`` in its command line so that the test finds its processes
    (a sandboxed bot cannot write anywhere the test could read, and its pid is its namespace's)."""
    code = "import runpy, sys; sys.argv = sys.argv[2:]; runpy.run_path(sys.argv[0], run_name='__main__')"
    return [sys.executable, "-c", code, marker, bot_cmd("random_bot.py")[1]]


def _marked(marker: str) -> list[tuple[int, str]]:
    """(pid, program) of every live process whose command line holds ``marker``: the bots, and
    the sandboxes around them."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if marker.encode() in argv and _alive(int(entry.name)):
            found.append((int(entry.name), argv[0].decode(errors="replace")))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return not any(line.startswith("State:") and "Z" in line.split()[1] for line in fh)
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc to see processes")
@pytest.mark.parametrize("how", ["SIGINT", "SIGINT-group", "SIGKILL"])
def test_no_bot_survives_its_runner(tmp_path, how):
    """Ctrl-C (to the runner, or to its whole process group as a terminal sends it), and even
    a killed runner, leave no bot process behind (tables in processes)."""
    marker = f"trickcore-test-bot-{uuid.uuid4().hex}"
    bots = [{"name": f"b{i}", "command": _marked_bot(marker), "options": {"seed": i}} for i in range(3)]
    doc = quick_doc(bots, players=3, fmt="duplicate", deals=30, time=FAST)
    doc["tournament"].update(concurrency=2, workers="processes")
    config_path = write_config(tmp_path, doc)
    out = tmp_path / "out"
    runner = subprocess.Popen([sys.executable, str(HERE / "toy_cli.py"), "tournament", str(config_path), "--out",
                               str(out), "-q", "--no-preflight"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, start_new_session=True)
    deadline = time.time() + 60
    bots_running = lambda: [pid for pid, program in _marked(marker) if program == sys.executable]  # noqa: E731
    playing = False  # games recorded, and both tables' three bots seen running at one moment
    while time.time() < deadline and not playing:
        playing = ((out / RESULTS_FILE).exists() and (out / RESULTS_FILE).read_text().count("\n") >= 2
                   and len(bots_running()) >= 6)
        time.sleep(0 if playing else 0.01)
    # (not counted again: between two games a table's bots are started afresh, so a second
    # count can catch one bot gone and its successor not yet there)
    assert playing
    if how == "SIGINT-group":
        os.killpg(runner.pid, signal.SIGINT)
    else:
        runner.send_signal(getattr(signal, how))
    try:
        _, err = runner.communicate(timeout=30)
    except subprocess.TimeoutExpired as exc:  # something still holds the runner's stderr: say what
        runner.kill()
        pytest.fail(f"the runner's stderr is still open 30 s after {how}; its stderr so far:\n{exc.stderr}\n"
                    f"marked processes alive: {_marked(marker)}")
    deadline = time.time() + 10
    while time.time() < deadline and _marked(marker):
        time.sleep(0.05)
    assert not _marked(marker)  # no bot, and no sandbox around one
    if how != "SIGKILL":
        assert runner.returncode == 130 and "run again with --resume" in err
        assert "error:" not in err, err  # an interrupted table is not a runner error
