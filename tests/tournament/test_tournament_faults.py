"""Every failure class with its policy: the tournament finishes, the record says what
happened, and the other games are intact."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.support import bot_cmd, mock, quick_doc
from tournament.config import ConfigError, parse_config
from tournament.results import read_results
from tournament.runner import run_tournament

GOOD = {"name": "good", "command": bot_cmd("random_bot.py")}
# Generous limits for everything a test does not exercise (the suite must pass on a loaded
# machine); tests of timeouts set short ones explicitly.
FAST = {"startup_ms": 5000, "ready_ms": 2000, "decision_ms": 2000, "shutdown_ms": 100}
SHORT = {"ready_ms": 300, "decision_ms": 300}


def run(tmp_path: Path, bad_args: list[str], deals: int = 1, **sections):
    doc = quick_doc([{"name": "bad", "command": mock(*bad_args)}, GOOD], deals=deals,
                    time={**FAST, **sections.pop("time", {})}, **sections)
    summary = run_tournament(parse_config(doc), tmp_path / "out")
    records = read_results(tmp_path / "out")
    assert summary.errors == []
    assert len(records) == summary.total  # the tournament finished: every game is recorded
    return summary, records


def faults(record, cls=None):
    return [f for f in record["faults"] if cls is None or f["class"] == cls]


def bad_seat(record):
    return record["bots"].index("bad")


def test_crash_forfeits_by_default_and_bot_restarts(tmp_path):
    summary, records = run(tmp_path, ["--crash", "--at", "2"], deals=2)
    for rec in records:  # the bot is restarted for the second game and crashes again
        (f,) = faults(rec, "crash")
        assert f["outcome"] == "forfeit" and "exited with code 3" in f["detail"]
        seat = bad_seat(rec)
        assert rec["forfeited"] == [seat]
        assert rec["result"]["ranks"][seat] == 2
        assert rec["result"]["scores"][seat] == min(rec["scores"])
        assert [a["by"] for a in rec["actions"] if a["seat"] == seat][1:] == ["substitute"] * 4
        # stderr of failed games is kept
        log = (tmp_path / "out" / rec["stderr"][str(seat)]).read_text()
        assert "crashing on purpose" in log
        assert "fault crash (forfeit)" in (tmp_path / "out" / rec["transcript"]).read_text()
    standing = {s.name: s for s in summary.standings}
    assert standing["bad"].forfeits == 2 and standing["bad"].faults["crash"] == 2
    assert standing["good"].win_share == 1.0


def test_crash_with_substitute_policy(tmp_path):
    _, (rec,) = run(tmp_path, ["--crash", "--at", "2"], failures={"crash": {"action": "substitute"}})
    first, *later = faults(rec, "crash")
    assert first["outcome"] == "substitute" and rec["forfeited"] == []
    # Every later decision of the removed bot is a crash fault too, substituted under the policy.
    seat = bad_seat(rec)
    assert len(later) == sum(1 for a in rec["actions"] if a["seat"] == seat) - 2  # asked twice, the 2nd crashed
    assert all(f["outcome"] == "substitute" and "removed for the rest of the game" in f["detail"] for f in later)
    assert rec["removed"][str(seat)]["class"] == "crash"


def test_hang_times_out_and_is_killed(tmp_path):
    _, (rec,) = run(tmp_path, ["--hang", "--at", "2"], time=SHORT)
    first, *later = faults(rec)
    assert first["class"] == "timeout" and first["outcome"] == "substitute"
    assert "within 300 ms" in first["detail"]
    seat = bad_seat(rec)
    # After the failed barrier it is not asked again (one wait, not one per decision) ...
    assert [a["by"] for a in rec["actions"] if a["seat"] == seat] == ["bot"] + ["substitute"] * 4
    # ... but it does not get off lighter than a crashed bot: each decision it cannot be asked
    # is a timeout under the policy (forfeit_after = 3), and the record says it was removed.
    assert [(f["class"], f["outcome"]) for f in later] == [("timeout", "substitute"), ("timeout", "forfeit")]
    assert all("removed for the rest of the game: stalled after a timeout" in f["detail"] for f in later)
    assert rec["forfeited"] == [seat] and rec["removed"][str(seat)]["class"] == "timeout"
    assert "stalled after a timeout" in (tmp_path / "out" / rec["transcript"]).read_text()


def test_slow_bot_times_out_then_forfeits_after_three(tmp_path):
    _, (rec,) = run(tmp_path, ["--slow", "450", "--at", "2"], time=SHORT)
    timeouts = faults(rec, "timeout")
    assert [f["outcome"] for f in timeouts] == ["substitute", "substitute", "forfeit"]
    assert rec["forfeited"] == [bad_seat(rec)]
    assert rec["notes"][str(bad_seat(rec))]["stale_replies"] >= 1  # late answers were ignored


def test_game_budget(tmp_path):
    _, (rec,) = run(tmp_path, ["--slow", "120"], time={"game_ms": 300, "decision_ms": 1000},
                    failures={"timeout": {"forfeit_after": 0}})
    details = [f["detail"] for f in faults(rec, "timeout")]
    assert any("game budget game_ms = 300 ms used up" in d for d in details)
    assert rec["think_ms"][bad_seat(rec)] <= 300 + 150


def test_flood_of_lines(tmp_path):
    _, (rec,) = run(tmp_path, ["--flood", "lines"], limits={"max_lines_per_request": 50})
    f = faults(rec, "flood")[0]
    assert "more than max_lines_per_request = 50 lines" in f["detail"]


def test_flood_long_line(tmp_path):
    _, (rec,) = run(tmp_path, ["--flood", "long", "--at", "2"], limits={"max_line_bytes": 4096})
    f = faults(rec, "flood")[0]
    assert "longer than max_line_bytes = 4096" in f["detail"]


def test_garbage_is_substituted_and_play_continues(tmp_path):
    _, (rec,) = run(tmp_path, ["--garbage", "--at", "2"])
    (f,) = faults(rec)
    assert f["class"] == "garbage" and "not UTF-8" in f["detail"] and f["outcome"] == "substitute"
    seat = bad_seat(rec)
    assert [a["by"] for a in rec["actions"] if a["seat"] == seat] == ["bot", "substitute", "bot", "bot", "bot"]


def test_illegal_option(tmp_path):
    _, (rec,) = run(tmp_path, ["--illegal", "--at", "3"])
    (f,) = faults(rec)
    assert f["class"] == "illegal" and "'NOT-AN-OPTION' is not a toy-tricks action" in f["detail"]
    rejected = [a for a in rec["actions"] if "rejected" in a]
    assert rejected[0]["rejected"] == "NOT-AN-OPTION" and rejected[0]["by"] == "substitute"
    assert rec["forfeited"] == []


def test_illegal_option_forfeit_policy(tmp_path):
    _, (rec,) = run(tmp_path, ["--illegal", "--at", "3"], failures={"illegal": {"action": "forfeit"}})
    assert faults(rec, "illegal")[0]["outcome"] == "forfeit"
    assert rec["forfeited"] == [bad_seat(rec)]


def test_reply_to_a_request_never_sent_is_a_protocol_error(tmp_path):
    _, (rec,) = run(tmp_path, ["--future-id", "--at", "2"])
    (f,) = faults(rec)
    assert f["class"] == "protocol" and "which was never sent" in f["detail"]


def test_stale_request_id_is_ignored_then_times_out(tmp_path):
    _, (rec,) = run(tmp_path, ["--stale-id", "--at", "2"], time=SHORT)
    (f,) = faults(rec)
    assert f["class"] == "timeout"
    assert rec["notes"][str(bad_seat(rec))]["stale_replies"] == 1


def test_bot_that_closes_stdin(tmp_path):
    _, (rec,) = run(tmp_path, ["--close-stdin", "--at", "2"], time=SHORT)
    assert {f["class"] for f in faults(rec)} == {"timeout"} and rec["forfeited"] == [bad_seat(rec)]
    assert "unreachable" in (tmp_path / "out" / rec["transcript"]).read_text()


@pytest.mark.parametrize("args,startup_ms,detail", [
    (["--bad-handshake"], 5000, "answered 'trickcoreok 99', but this runner speaks protocol version 1"),
    (["--no-handshake"], 300, "no 'trickcoreok' within startup_ms = 300 ms"),
    (["--die-at-start"], 5000, "crash during the handshake: stdout closed; process exited with code 2"),
    # The process exits while a child it forked keeps its stdout open.  In the sandbox the child
    # ends with the bot (its PID namespace goes), so the stdout closes.
    (["--fork-exit"], 10000, "stdout closed; process exited with code 3"),
    # Without a sandbox the child lives on and no EOF ever comes, so the runner watches the
    # process itself (and must not wait out startup_ms).
    (["--fork-exit", "no-sandbox"], 10000,
     "process exited with code 3; its stdout is still held open by another process"),
])
def test_handshake_failures(tmp_path, args, startup_ms, detail):
    # preflight = "warn": play anyway, so the handshake failure policy applies to every game.
    sandbox = {"kind": "none"} if "no-sandbox" in args else {}
    args = [a for a in args if a != "no-sandbox"]
    summary, records = run(tmp_path, args, deals=2, time={"startup_ms": startup_ms},
                           tournament={"preflight": "warn"}, sandbox=sandbox)
    assert any(detail in w for w in summary.warnings)  # the preflight check says so up front
    for rec in records:
        (f,) = faults(rec)
        assert f["class"] == "handshake" and detail in f["detail"] and f["outcome"] == "forfeit"
        assert rec["forfeited"] == [bad_seat(rec)]
        assert {a["by"] for a in rec["actions"] if a["seat"] == bad_seat(rec)} == {"substitute"}
        if "exited" in detail:  # an exit is noticed at once, long before startup_ms runs out
            assert rec["setup_s"] < startup_ms / 2000


def test_a_bot_that_cannot_start_stops_the_tournament_before_any_game(tmp_path):
    doc = quick_doc([{"name": "bad", "command": mock("--die-at-start")}, GOOD], deals=3, time=FAST)
    with pytest.raises(ConfigError) as err:
        run_tournament(parse_config(doc), tmp_path / "out")
    assert "bot 'bad' (bots[0]) failed its handshake in the preflight check" in str(err.value)
    assert 'tournament.preflight = "warn"' in str(err.value)
    assert read_results(tmp_path / "out") == []  # nothing was played


def test_disqualify_after(tmp_path):
    doc = quick_doc([{"name": "bad", "command": mock("--crash")}, GOOD,
                     {"name": "good2", "command": bot_cmd("example_bot.py")}],
                    time=FAST, failures={"crash": {"disqualify_after": 1}})
    summary = run_tournament(parse_config(doc), tmp_path / "out")
    records = read_results(tmp_path / "out")
    assert summary.disqualified == {"bad": "1 crash faults (failures.crash.disqualify_after = 1)"}
    by_bots = {tuple(sorted(r["bots"])): r for r in records}
    assert by_bots[("bad", "good")]["status"] == "played"
    skipped = by_bots[("bad", "good2")]
    assert skipped["status"] == "skipped" and skipped["reason"].startswith("bad disqualified")
    assert by_bots[("good", "good2")]["status"] == "played" and by_bots[("good", "good2")]["faults"] == []
    assert summary.skipped == 1 and {s.name: s for s in summary.standings}["bad"].disqualified


def test_preflight_rejects_unknown_option_and_missing_program(tmp_path):
    doc = quick_doc([{"name": "opt", "command": mock("--options"), "options": {"depth": 3, "dpeth": 4}},
                     {"name": "ghost", "command": ["/nonexistent/bot"]}], time=FAST)
    with pytest.raises(ConfigError) as info:
        run_tournament(parse_config(doc), tmp_path / "out")
    assert info.value.problems == [
        "bots[0].options.dpeth: bot 'opt' declares no option 'dpeth' (it declares: depth, label, style, "
        "temperature, verbose)",
        "bots[1].command: cannot start '/nonexistent/bot': there is no folder /nonexistent (for bot) (relative "
        "paths in a bot command are taken from its cwd, else from the config file's folder; on the command line, "
        "from the current folder)"]


def test_preflight_checks_option_types(tmp_path):
    doc = quick_doc([{"name": "opt", "command": mock("--options"), "options": {"depth": 30}}, GOOD], time=FAST)
    with pytest.raises(ConfigError, match=r"bots\[0\].options.depth: must be <= 10, got 30"):
        run_tournament(parse_config(doc), tmp_path / "out")
