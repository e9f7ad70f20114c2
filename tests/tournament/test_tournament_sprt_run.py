"""A paired run that stops when its sequential test decides ([stop] sprt): the config, real runs
that accept H1 and H0, resume, and the records (docs/tournament.md, "Testing a change to a bot")."""

from __future__ import annotations

import html
import json

import pytest
from click.testing import CliRunner

from tests.tournament.support import bot_cmd, quick_doc
from tournament.cli import margin_command, match_command
from tournament.config import ConfigError, parse_config
from tournament.paired import pair_rows, paired_margin
from tournament.ratings import t95
from tournament.runner import run_tournament
from tournament.schedule import PAIRED_BLOCK_DEALS, paired_seatings
from tournament.sequential import SPRT_FILE

FAST = {"startup_ms": 10000, "ready_ms": 5000, "decision_ms": 5000, "shutdown_ms": 200}


def sprt_doc(a: str, b: str, deals: int = 4 * PAIRED_BLOCK_DEALS, **sprt) -> dict:
    """Hattrick, one game a match, 4 seats: candidate A and B (bundled bots), heuristic fillers."""
    bots = [{"name": "a", "command": bot_cmd(a), "options": {"seed": 1}},
            {"name": "b", "command": bot_cmd(b), "options": {"seed": 2}}]
    doc = quick_doc(bots, game="hattrick", players=4, fmt="paired", deals=deals, time=FAST)
    doc["game"]["options"] = {"games": 1}
    doc["tournament"]["candidates"] = ["a", "b"]
    doc["tournament"]["concurrency"] = 2
    doc["stop"] = {"sprt": {"m0": 0, "m1": 1, "alpha": 0.05, "beta": 0.05, "min_samples": 4, **sprt}}
    return doc


def problems(doc: dict) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_config(doc)
    return info.value.problems


def test_sprt_config_errors():
    doc = sprt_doc("heuristic_bot.py", "random_bot.py", m1=-1, beta=2, tail=3)
    assert problems(doc) == [
        "stop.sprt.tail: unknown key; allowed here: m0, m1, alpha, beta, min_samples",
        "stop.sprt.m1: must be greater than m0 (H1 says A is better by more than H0 does), got m0 = 0 and m1 = -1",
        "stop.sprt.beta: must be between 0 and 1 (exclusive), got 2"]
    doc = sprt_doc("heuristic_bot.py", "random_bot.py")
    doc["tournament"]["format"] = "duplicate"
    del doc["tournament"]["candidates"]
    assert any(p.startswith("stop.sprt: needs format 'paired'") for p in problems(doc))
    doc = sprt_doc("heuristic_bot.py", "random_bot.py")
    doc["stop"]["sprt"] = 3
    assert problems(doc) == ["stop.sprt: must be a table, e.g. sprt = { m0 = 0, m1 = 2 }, got an integer"]


def test_config_effective_keeps_the_test():
    config = parse_config(sprt_doc("heuristic_bot.py", "random_bot.py"))
    again = parse_config(json.loads(json.dumps(config.effective())))
    assert again.sprt == config.sprt and again.fingerprint() == config.fingerprint()


def check_sprt_file(out, summary, decision: str) -> dict:
    data = json.loads((out / SPRT_FILE).read_text())
    status = data["status"]
    assert status["decision"] == decision and data["stopped_early"] is True
    assert status["decided_at"] >= 4 and len(status["llr_path"]) == status["samples"] == data["deals"]
    crossed = status["llr_path"][status["decided_at"] - 1]
    assert crossed >= status["upper"] if decision == "H1" else crossed <= status["lower"]
    assert data["candidates"] == ["a", "b"] and data["games_played"] == summary.played + summary.resumed
    assert summary.stopped_early and summary.played < summary.total and f"{decision} accepted" in summary.sprt
    # The outcome also goes into summary.json and run.json, without the path.
    for name in ("summary.json", "run.json"):
        outcome = json.loads((out / name).read_text())["sprt"]
        assert outcome["decision"] == decision and outcome["decided_at"] == status["decided_at"]
        assert outcome["games_played"] == data["games_played"] and "llr_path" not in outcome
    return data


def test_a_clearly_better_bot_is_accepted_early_and_the_rest_is_not_played(tmp_path):
    summary = run_tournament(parse_config(sprt_doc("heuristic_bot.py", "random_bot.py")), tmp_path)
    data = check_sprt_file(tmp_path, summary, "H1")
    # Samples are whole deals: every seating of a counted deal has both games.
    seatings = len(paired_seatings(parse_config(sprt_doc("heuristic_bot.py", "random_bot.py"))))
    assert data["pairs"] >= data["deals"] * seatings
    assert summary.paired is not None and summary.paired.mean > 1


def test_a_clearly_worse_bot_is_rejected(tmp_path):
    summary = run_tournament(parse_config(sprt_doc("random_bot.py", "heuristic_bot.py")), tmp_path)
    check_sprt_file(tmp_path, summary, "H0")


def test_resume_reaches_the_decision_of_one_go_and_a_decided_run_plays_nothing_more(tmp_path):
    doc = sprt_doc("heuristic_bot.py", "random_bot.py")
    doc["tournament"]["concurrency"] = 1
    config = parse_config(doc)
    whole = run_tournament(config, tmp_path / "whole")

    def stop_after(done: int, total: int, record: dict, note: str) -> None:
        if done >= PAIRED_BLOCK_DEALS * 4:     # inside the first block: nothing counted yet
            raise KeyboardInterrupt

    cut = run_tournament(config, tmp_path / "cut", progress=stop_after)
    assert cut.interrupted and cut.sprt is not None and "undecided" in cut.sprt
    resumed = run_tournament(config, tmp_path / "cut", resume=True)
    first = json.loads((tmp_path / "whole" / SPRT_FILE).read_text())["status"]
    again = json.loads((tmp_path / "cut" / SPRT_FILE).read_text())["status"]
    assert (again["decision"], again["decided_at"]) == (first["decision"], first["decided_at"]) == ("H1",
                                                                                                    first["decided_at"])
    assert resumed.played + resumed.resumed == whole.played
    idle = run_tournament(config, tmp_path / "cut", resume=True)
    assert idle.played == 0 and "H1 accepted" in idle.sprt


def test_report_every_rewrites_the_report_while_the_run_goes_on(tmp_path):
    doc = sprt_doc("heuristic_bot.py", "random_bot.py")
    doc["tournament"]["concurrency"] = 1
    doc["records"] = {"report_every": 8}
    seen = {}

    def watch(done: int, total: int, record: dict, note: str) -> None:
        page = tmp_path / "report.html"
        if page.exists():
            seen.setdefault(done, page.stat().st_mtime_ns)
        if done == 7:
            assert not page.exists()         # not before the 8th game
        if done >= 17:
            raise KeyboardInterrupt

    summary = run_tournament(parse_config(doc), tmp_path, progress=watch)
    assert summary.interrupted and min(seen) == 8 and 16 in seen
    assert summary.sprt is not None and "undecided" in summary.sprt
    # sprt.json is there from the start, so the page has its SPRT section before any deal counts
    assert json.loads((tmp_path / SPRT_FILE).read_text())["deals"] == 0
    assert 'id="sprt"' in (tmp_path / "report.html").read_text()


def test_the_progress_note_of_a_paired_run_gives_its_margin_so_far(tmp_path):
    doc = sprt_doc("heuristic_bot.py", "random_bot.py", deals=PAIRED_BLOCK_DEALS)
    del doc["stop"]
    config = parse_config(doc)
    notes, records = [], []

    def watch(done: int, total: int, record: dict, note: str) -> None:
        records.append(record)
        notes.append(note)
        # At every game, the figure the summary would give for the pairs recorded so far.
        rows = pair_rows(config, records)
        if rows:
            m = paired_margin(rows, "a", "b")
            spread = "" if m.ci95 is None else f" ± {m.ci95:.2f}"
            assert note.startswith(f"paired a - b: {m.mean:+.2f}{spread} over {m.deals} deal"), (done, note)

    summary = run_tournament(config, tmp_path, progress=watch)
    assert notes[0] == "paired a - b: no pair complete yet (1 games)"
    assert notes[-1].startswith("paired a - b: ") and f"over {PAIRED_BLOCK_DEALS} deals" in notes[-1]
    assert f"{summary.paired.mean:+.2f} ± {summary.paired.ci95:.2f}" in notes[-1]
    assert summary.sprt is None and not (tmp_path / SPRT_FILE).exists()


# ---- trickcore match --sprt -------------------------------------------------------------------

STRONG_SEED = "5eed" * 8   # 128 bits: no warning of a searchable seed


def test_match_sprt_takes_min_deals_from_the_command_line_and_honours_it(tmp_path):
    """A null case: A and B the same random bot with the same seed (-o a.seed, -o b.seed), so both
    games of every pair go alike and every margin is 0 = m0.  The LLR then falls ln 2 a deal and
    is past the lower bound at deal 5; with MIN_DEALS = 8 the test decides at deal 8, not before."""
    random_bot = " ".join(bot_cmd("random_bot.py"))
    done = CliRunner().invoke(match_command, [
        "toy-tricks", random_bot, random_bot, "--format", "paired", "--deals", str(2 * PAIRED_BLOCK_DEALS),
        "--sprt", "0,1,0.05,0.05,8", "-o", "a.seed=5", "-o", "b.seed=5", "--seed", STRONG_SEED,
        "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    data = json.loads((tmp_path / SPRT_FILE).read_text())
    assert data["spec"] == {"m0": 0.0, "m1": 1.0, "alpha": 0.05, "beta": 0.05, "min_samples": 8}
    status = data["status"]
    pairs = json.loads((tmp_path / "pairs.json").read_text())["pairs"]
    assert pairs and all(row["margin"] == 0 for row in pairs)
    first_below = next(i + 1 for i, llr in enumerate(status["llr_path"]) if llr <= status["lower"])
    assert first_below == 5 < 8
    assert (status["decision"], status["decided_at"]) == ("H0", 8)
    assert "SPRT H0 accepted (A - B <= 0) at deal 8" in done.output and data["stopped_early"]


def test_match_sprt_refuses_a_malformed_option():
    random_bot = " ".join(bot_cmd("random_bot.py"))
    for given, message in (("0,1,0.05", "give M0,M1 or M0,M1,ALPHA,BETA or M0,M1,ALPHA,BETA,MIN_DEALS"),
                           ("0,1,0.05,0.05,8.5", "MIN_DEALS a whole number")):
        done = CliRunner().invoke(match_command, ["toy-tricks", random_bot, random_bot, "--format", "paired",
                                                  "--sprt", given])
        assert done.exit_code == 2 and message in done.output, (given, done.output)
    done = CliRunner().invoke(match_command, ["toy-tricks", random_bot, random_bot, "--format", "paired",
                                              "--sprt", "0,1,0.05,0.05,0"])
    assert done.exit_code == 2 and "stop.sprt.min_samples: must be >= 1, got 0" in done.output, done.output


def test_one_run_shows_one_interval_in_summary_margin_progress_line_and_report(tmp_path):
    """The paired margin of one run and its 95% interval, as the summary line, `trickcore margin`,
    the last progress line and the report (its paired line and its SPRT section) print it: one
    figure, Student's t over the deals."""
    heuristic, random_bot = (" ".join(bot_cmd(script)) for script in ("heuristic_bot.py", "random_bot.py"))
    done = CliRunner().invoke(match_command, [
        "toy-tricks", heuristic, random_bot, "--format", "paired", "--deals", str(PAIRED_BLOCK_DEALS),
        "--sprt", "0,1,0.05,0.05,4", "--seed", STRONG_SEED, "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    margin = json.loads((tmp_path / "summary.json").read_text())["paired_margin"]
    assert margin["ci95"] == pytest.approx(t95(margin["deals"] - 1) * margin["se"])
    figure = f"{margin['mean']:+.2f} ± {margin['ci95']:.2f}"
    summary_line = next(line for line in done.output.splitlines() if line.startswith("paired: "))
    assert f": {figure} (95%) per game, paired over {margin['deals']} deals" in summary_line
    progress = [line.strip() for line in done.output.splitlines() if line.strip().startswith("paired a-")]
    assert progress and progress[-1].startswith(f"paired a-heuristic_bot - b-random_bot: {figure} over ")
    assert "; SPRT " in progress[-1]
    again = CliRunner().invoke(margin_command, [str(tmp_path)])
    assert again.exit_code == 0 and f": {figure} (95%) per game" in again.output, again.output
    page = html.unescape((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert page.count(figure) == 2     # the paired line at the top and the SPRT section's margin
    assert f"{figure} (95%: Student's t over the {margin['deals']} deals" in page
    # the SPRT line gives the test alone: the margin is printed once, on the paired line
    sprt_line = next(line for line in done.output.splitlines() if line.startswith("SPRT "))
    assert "±" not in sprt_line
