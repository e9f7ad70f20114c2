"""Records no bot can forge (docs/tournament.md, "Checked records").

Whatever reads a run folder -- ``--resume``, ``trickcore report``, ``trickcore replay``,
``read_results`` -- accepts exactly one record per scheduled game, with the job, index, table,
deal, seed, seating and bots of the schedule rebuilt from run.json (and the run's secret).  A
line that is not that is refused with its line number; nothing silently wins or counts twice.
A torn last line, as a crash mid-write leaves, is still dropped and its game played again.
"""

from __future__ import annotations

import json
import shutil

import orjson
import pytest
from click.testing import CliRunner

from tests.tournament.support import bot_cmd, quick_doc
from tournament.cli import replay_command
from tournament.config import parse_config
from tournament.report import ReportError, report_command, write_report
from tournament.results import MANIFEST_FILE, RESULTS_FILE, SECRET_FILE, RecordError, ResumeError, read_results
from tournament.runner import run_tournament
from tournament.schedule import legacy_deal_seed

FAST = {"startup_ms": 5000, "ready_ms": 2000, "decision_ms": 2000, "shutdown_ms": 200}


def config():
    """Two bots in duplicate over two deals (4 games); the seed is drawn for the run."""
    doc = quick_doc([{"name": f"b{i}", "command": bot_cmd("random_bot.py"), "options": {"seed": i}}
                     for i in range(2)], fmt="duplicate", deals=2, time=FAST)
    del doc["tournament"]["seed"]
    return parse_config(doc)


@pytest.fixture(scope="module")
def genuine(tmp_path_factory):
    out = tmp_path_factory.mktemp("records") / "run"
    summary = run_tournament(config(), out)
    assert summary.played == 4 and not summary.errors
    return out


@pytest.fixture
def run(genuine, tmp_path):
    """A copy of the genuine run folder to tamper with."""
    out = tmp_path / "run"
    shutil.copytree(genuine, out)
    return out


def lines(out) -> list[dict]:
    return [json.loads(x) for x in (out / RESULTS_FILE).read_text().splitlines()]


def write(out, records: list[dict]) -> None:
    (out / RESULTS_FILE).write_bytes(b"".join(orjson.dumps(r, option=orjson.OPT_SORT_KEYS) + b"\n" for r in records))


def refused_everywhere(out, pattern: str) -> None:
    """--resume, read_results, the report and the replay command all refuse the folder with the
    same message, and the refused resume changes nothing in it."""
    before = (out / RESULTS_FILE).read_bytes()
    with pytest.raises(RecordError, match=pattern):
        run_tournament(config(), out, resume=True)
    assert (out / RESULTS_FILE).read_bytes() == before
    with pytest.raises(ResumeError, match=pattern):
        read_results(out)
    with pytest.raises(ReportError, match=pattern):
        write_report(out, replays=0)
    report = CliRunner().invoke(report_command, [str(out), "--replays", "0"])
    assert report.exit_code == 2 and "error: " in report.output
    shown = CliRunner().invoke(replay_command, [str(out / RESULTS_FILE)])
    assert shown.exit_code == 2 and "error: " in shown.output


def test_a_genuine_folder_resumes_and_reports(run):
    again = run_tournament(config(), run, resume=True)
    assert again.resumed == 4 and again.played == 0 and not again.errors
    assert [r["job"] for r in read_results(run)] == ["t0-d0-s0", "t0-d1-s0", "t0-d0-s1", "t0-d1-s1"]
    report = CliRunner().invoke(report_command, [str(run), "--replays", "1"])
    assert report.exit_code == 0, report.output
    assert "(4 games," in report.output
    shown = CliRunner().invoke(replay_command, [str(run / RESULTS_FILE), "--job", "t0-d1-s1"])
    assert shown.exit_code == 0, shown.output


def test_a_forged_copy_of_a_played_game_is_refused_naming_the_line(run):
    records = lines(run)
    with open(run / RESULTS_FILE, "a") as fh:  # a bot appends a copy of a game it liked
        fh.write(json.dumps(records[1]) + "\n")
    refused_everywhere(run, r"results.jsonl, line 5: game 't0-d1-s0' is recorded a second time \(first on line 2; "
                            r"one of the two is not the runner's\)")
    # Before, --resume kept the last copy and the report counted 5 games of 4.
    with pytest.raises(ReportError, match="line 5"):
        write_report(run)


@pytest.mark.parametrize("change,what", [
    (lambda r: r.update(seed=r["seed"] ^ 1), " does not have the seed the schedule deals it"),
    (lambda r: r["record"].update(seed=r["record"]["seed"] ^ 1), r": its game record \(record.seed\) was not dealt"),
    (lambda r: r.update(seating=1 - r["seating"]), r" has seating \d, the schedule \d"),
    (lambda r: r.update(bots=r["bots"][::-1]), r" has bots \['b\d', 'b\d'\], the schedule \['b\d', 'b\d'\]"),
    (lambda r: r.update(deal=1 - r["deal"]), r" has deal \d, the schedule \d"),
    (lambda r: r.update(index=7), " has index 7, the schedule 2"),
    (lambda r: r.update(status="won"), " has status 'won'"),
], ids=["seed", "record-seed", "seating", "bots", "deal", "index", "status"])
def test_a_record_that_is_not_its_jobs_is_refused(run, change, what):
    records = lines(run)
    change(records[2])
    write(run, records)
    refused_everywhere(run, rf"results.jsonl, line 3: game 't0-d0-s1'{what}")


def test_a_refused_seed_is_not_written_into_the_message(run):
    records = lines(run)
    seed = records[0]["seed"]
    records[0]["seed"] = seed + 1
    write(run, records)
    with pytest.raises(RecordError) as info:
        read_results(run)
    assert str(seed) not in str(info.value) and str(seed + 1) not in str(info.value)


def test_an_unknown_job_is_refused(run):
    records = lines(run)
    forged = dict(records[0], job="t0-d7-s0", deal=7)
    write(run, [*records, forged])
    refused_everywhere(run, r"line 5: game 't0-d7-s0' is not in the run's schedule \(4 games\)")
    write(run, [*records[:1], {"status": "played"}])
    refused_everywhere(run, r"line 2: not a game record \(no job id\)")


def test_a_record_for_a_game_not_yet_played_needs_its_seed(run):
    """After an interrupted run, a forged record of a pending game must carry that game's seed,
    which comes from the secret: a seed of another deal is refused."""
    records = lines(run)
    pending = dict(records[2], job="t0-d1-s1", index=3, deal=1)  # deal 0's game passed off as deal 1's
    write(run, [records[0], records[1], pending])
    refused_everywhere(run, "line 3: game 't0-d1-s1' does not have the seed the schedule deals it")


def test_a_torn_last_line_is_still_dropped(run):
    records = lines(run)
    write(run, records[:3])
    with open(run / RESULTS_FILE, "a") as fh:
        fh.write(json.dumps(records[3])[:40])  # a crash mid-write: no newline
    assert [r["job"] for r in read_results(run)] == ["t0-d0-s0", "t0-d1-s0", "t0-d0-s1"]
    assert write_report(run, replays=0).games == 3  # the report leaves it out, and the file as it is
    resumed = run_tournament(config(), run, resume=True)
    assert resumed.resumed == 3 and resumed.played == 1
    assert [r["job"] for r in read_results(run)] == ["t0-d0-s0", "t0-d1-s0", "t0-d0-s1", "t0-d1-s1"]
    assert (run / RESULTS_FILE).read_text().count("\n") == 4


def test_a_damaged_line_with_lines_after_it_is_refused(run):
    text = (run / RESULTS_FILE).read_text().splitlines(keepends=True)
    text[1] = text[1][:30] + "\n"
    (run / RESULTS_FILE).write_text("".join(text))
    refused_everywhere(run, "results.jsonl, line 2: not JSON, and lines follow it: the file is damaged")


def test_records_of_another_run_are_refused(run, tmp_path):
    """Another run's folder has its own secret, so its records have other seeds."""
    other = tmp_path / "other"
    run_tournament(config(), other)
    shutil.copy(other / RESULTS_FILE, run / RESULTS_FILE)
    refused_everywhere(run, "line 1: game 't0-d0-s0' does not have the seed the schedule deals it")
    shutil.copy(other / SECRET_FILE, run / SECRET_FILE)  # with its secret but not its run.json
    with pytest.raises(ResumeError, match="is not the master seed this run was started with"):
        read_results(run)


def test_a_folder_of_the_older_derivation_is_checked_with_it_and_not_resumed(run):
    """run.json of runs made before deal seeds were keyed names no derivation: their records are
    checked with the old public hash, and such a run is not continued with the new one."""
    manifest = json.loads((run / MANIFEST_FILE).read_text())
    del manifest["deal_seeds"], manifest["seed_check"]
    manifest["config"]["tournament"]["seed"] = 11
    (run / MANIFEST_FILE).write_text(json.dumps(manifest))
    records = lines(run)
    for r in records:
        r["seed"] = r["record"]["seed"] = legacy_deal_seed(11, r["deal"])
    write(run, records)
    assert len(read_results(run)) == 4
    old = parse_config(dict(quick_doc([{"name": f"b{i}", "command": bot_cmd("random_bot.py"),
                                        "options": {"seed": i}} for i in range(2)], fmt="duplicate", deals=2,
                                      time=FAST)))
    manifest["fingerprint"] = old.fingerprint()
    manifest["config"] = old.effective()
    (run / MANIFEST_FILE).write_text(json.dumps(manifest))
    with pytest.raises(ResumeError, match="started by an older trickcore, which derived deal seeds"):
        run_tournament(old, run, resume=True)
