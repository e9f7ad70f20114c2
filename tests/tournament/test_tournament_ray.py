"""The Ray executor on a real Ray instance on this machine (started once for the module):
the same records and standings as local tables, a table process killed mid-batch, resume
after the runner was killed, disqualification, bots shipped with working_dir, the CLI.

The cluster of several nodes with a node killed mid-run is in test_tournament_ray_cluster.py.
Games are real registered games (Ray workers are other processes: the toy games of these
tests are not registered there), small, with the bundled fast bots."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import ray
import tomli_w
from click.testing import CliRunner

from tests.tournament.support import HERE, ROOT, UNSANDBOXED, bot_cmd, mock, overlapping_games_of_a_deal, quick_doc
from tournament.cli import tournament_command
from tournament.config import ConfigError, load_config, parse_config
from tournament.results import RESULTS_FILE, comparable, read_results
from tournament.runner import run_tournament
from tournament.schedule import PAIRED_BLOCK_DEALS

FAST = {"startup_ms": 10000, "ready_ms": 5000, "decision_ms": 5000, "shutdown_ms": 200}
GAME = "beim-jupiter"  # 3 seats: 6 seatings per deal in duplicate, about 40 decisions a game


# Ray sends usage statistics over the network unless told not to (this and the runner's
# subprocesses inherit it).
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


@pytest.fixture(scope="module")
def ray_address():
    """One Ray instance for the module, with room for two tables; every run here uses it.
    ``address="local"``: always a new instance of this test's own, never a cluster that an earlier
    run on this machine left behind (test_tournament_ray_stale.py)."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR")
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def three_bots(first: list[str] | None = None) -> list[dict]:
    return [{"name": "random", "command": first or bot_cmd("random_bot.py"), "options": {} if first else {"seed": 3}},
            {"name": "example", "command": bot_cmd("example_bot.py")},
            {"name": "heuristic", "command": bot_cmd("heuristic_bot.py")}]


def doc(deals: int, concurrency: int = 2, kind: str = "local", first: list[str] | None = None, **sections) -> dict:
    d = quick_doc(three_bots(first), game=GAME, players=3, fmt="duplicate", deals=deals, time=FAST, **sections)
    d["tournament"]["concurrency"] = concurrency
    d["executor"] = {"kind": kind, "batch_games": 4}
    return d


def by_job(out: Path) -> dict[str, dict]:
    return {r["job"]: comparable(r) for r in read_results(out)}


def lines_by_job(out: Path) -> list[str]:
    return [json.loads(line)["job"] for line in (out / RESULTS_FILE).read_text().splitlines()]


def test_same_records_and_standings_as_local_tables(tmp_path, ray_address):
    local = run_tournament(parse_config(doc(3)), tmp_path / "local")
    remote = run_tournament(parse_config(doc(3, kind="ray", records={"transcripts": "all"})), tmp_path / "ray")
    assert remote.errors == [] and remote.played == local.played == 3 * 6
    assert by_job(tmp_path / "ray") == by_job(tmp_path / "local")
    assert [(s.name, s.games, s.mean_score, s.mu, s.sigma) for s in remote.standings] == \
        [(s.name, s.games, s.mean_score, s.mu, s.sigma) for s in local.standings]
    assert (tmp_path / "ray" / "deals.json").read_text() == (tmp_path / "local" / "deals.json").read_text()
    # Records name where each game ran; the runner wrote every remote table's transcript.
    records = read_results(tmp_path / "ray")
    node = ray.get_runtime_context().get_node_id()
    assert {r["node"] for r in records} == {node} and all(r["host"] and r["table_worker"] for r in records)
    assert {r["node"] for r in read_results(tmp_path / "local")} == {"local"}
    for r in records:
        text = (tmp_path / "ray" / r["transcript"]).read_text()
        assert text.count(" > request ") == sum(1 for a in r["actions"] if a["by"] == "bot"), r["job"]
    # Per-node throughput of this run: every game and decision on the one node.
    assert remote.executor == "ray" and [(n.node, n.games) for n in remote.nodes] == [(node, 18)]
    assert remote.nodes[0].decisions == sum(sum(1 for a in r["actions"] if a["by"] == "bot") for r in records)
    assert remote.nodes[0].tables == len({r["table_worker"] for r in records}) and remote.nodes[0].rate > 0


def test_paired_run_gives_the_same_pairs_as_local_tables(tmp_path, ray_address):
    """Format 'paired' (heuristic against random, the default heuristic fillers) on Ray tables:
    the records and the pairs, in pair order, are those of local tables."""
    def paired(kind: str) -> dict:
        bots = [{"name": "heuristic", "command": bot_cmd("heuristic_bot.py")},
                {"name": "random", "command": bot_cmd("random_bot.py"), "options": {"seed": 3}}]
        d = quick_doc(bots, game=GAME, players=3, fmt="paired", deals=2, time=FAST)
        d["tournament"].update(candidates=["heuristic", "random"], concurrency=2)
        d["executor"] = {"kind": kind, "batch_games": 4}
        return d

    local = run_tournament(parse_config(paired("local")), tmp_path / "local")
    remote = run_tournament(parse_config(paired("ray")), tmp_path / "ray")
    assert remote.errors == [] and remote.played == local.played == 2 * 2 * 3
    assert by_job(tmp_path / "ray") == by_job(tmp_path / "local")
    pairs = json.loads((tmp_path / "ray" / "pairs.json").read_text())
    assert len(pairs["pairs"]) == pairs["scheduled"] == 6
    assert (tmp_path / "ray" / "pairs.json").read_text() == (tmp_path / "local" / "pairs.json").read_text()
    assert remote.paired == local.paired


def test_a_sequential_test_stops_ray_tables_at_the_decision_of_local_ones(tmp_path, ray_address):
    """[stop] sprt on Ray tables: the test decides at the deal it decides at on local tables,
    no batch is handed out after the decision, and the run stops well short of its schedule."""
    def decided(kind: str) -> dict:
        bots = [{"name": "heuristic", "command": bot_cmd("heuristic_bot.py")},
                {"name": "random", "command": bot_cmd("random_bot.py"), "options": {"seed": 3}}]
        d = quick_doc(bots, game=GAME, players=3, fmt="paired", deals=6 * PAIRED_BLOCK_DEALS, time=FAST)
        d["tournament"].update(candidates=["heuristic", "random"], concurrency=2)
        d["executor"] = {"kind": kind, "batch_games": 4}
        d["stop"] = {"sprt": {"m0": 0, "m1": 1, "min_samples": 4}}
        return d

    local = run_tournament(parse_config(decided("local")), tmp_path / "local")
    remote = run_tournament(parse_config(decided("ray")), tmp_path / "ray")
    assert remote.errors == [] and remote.stopped_early and local.stopped_early
    status = {k: json.loads((tmp_path / k / "sprt.json").read_text())["status"] for k in ("local", "ray")}
    assert status["ray"]["decision"] == status["local"]["decision"] == "H1"
    assert status["ray"]["decided_at"] == status["local"]["decided_at"]
    # The games in flight at the decision are finished: at most AHEAD (2) batches of 4 per table
    # (2 tables).  Games of one deal never play at once (executor_ray._dispatch), so games of later
    # deals are handed out while a deal waits for the other table, and the deal that decides the
    # test completes later in the run than on local tables: how many later games are played by
    # then depends on the tables' timing (one run here: 83 against 47 local).  What holds is that
    # the run stops far short of its schedule.
    assert remote.played < remote.total // 2


def test_a_table_process_killed_mid_batch_loses_no_game_and_doubles_none(tmp_path, ray_address):
    """The random bot kills its table's process (the Ray actor) once, at its 200th request (in
    its third game: 84 requests a game): the batch's finished games are kept, its other games
    are played by a new table."""
    flag = tmp_path / "killed-once"
    killer = mock("--kill-parent-once", str(flag), "--at", "200")
    summary = run_tournament(parse_config(doc(6, kind="ray", first=killer, sandbox=UNSANDBOXED)), tmp_path / "ray")
    assert flag.exists()  # the table really was killed
    jobs = lines_by_job(tmp_path / "ray")
    assert summary.errors == [] and summary.played == summary.total == len(jobs) == len(set(jobs)) == 36
    assert summary.replayed >= 1 and any("died" in w for w in summary.warnings), summary.warnings
    # Three table workers recorded games: the killed one (its games before the kill, about
    # two), the other one, and the new one that took over.
    assert len({r["table_worker"] for r in read_results(tmp_path / "ray")}) == 3
    # The mock bot chooses by its request alone, so the games are those of the random bot
    # played on local tables with nothing killed.
    reference = run_tournament(parse_config(doc(6, first=mock())), tmp_path / "local")
    assert by_job(tmp_path / "ray") == by_job(tmp_path / "local")
    assert [(s.name, s.mean_score) for s in summary.standings] == [(s.name, s.mean_score) for s in reference.standings]


def test_resume_under_ray_after_killing_the_runner(tmp_path, ray_address):
    config_path = tmp_path / "t.toml"
    # One bot thinks 3 ms per decision (84 a game), so that the kill lands mid-run.
    config_path.write_text(tomli_w.dumps(doc(4, kind="ray", first=mock("--slow", "3"))))
    out = tmp_path / "killed"
    runner = subprocess.Popen([sys.executable, str(HERE / "toy_cli.py"), "tournament", str(config_path), "--out",
                               str(out), "-q", "--address", ray_address], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    results = out / RESULTS_FILE
    deadline = time.time() + 120
    while time.time() < deadline:
        if results.exists() and results.read_text().count("\n") >= 5:
            break
        time.sleep(0.01)
    os.kill(runner.pid, signal.SIGKILL)  # no cleanup at all; Ray ends the runner's tables
    runner.wait()
    done_before = len(read_results(out))
    assert 5 <= done_before < 24
    resumed = CliRunner().invoke(tournament_command, [str(config_path), "--out", str(out), "--resume",
                                                      "--executor", "ray"])
    assert resumed.exit_code == 0, resumed.output
    assert f"{24 - done_before} games played, {done_before} already recorded" in resumed.output
    # The per-node throughput table of this invocation.
    assert "decisions/s" in resumed.output.split("already recorded")[1]
    assert ray.get_runtime_context().get_node_id()[:12] in resumed.output
    jobs = lines_by_job(out)
    assert len(jobs) == len(set(jobs)) == 24  # nothing lost or doubled
    run_tournament(load_config(config_path, {"executor.kind": "local"}), tmp_path / "whole")
    assert by_job(out) == by_job(tmp_path / "whole")


def test_ctrl_c_under_ray_stops_cleanly_and_resume_finishes(tmp_path, ray_address):
    config_path = _write(tmp_path, doc(4, kind="ray", first=mock("--slow", "3")))
    out = tmp_path / "out"
    runner = subprocess.Popen([sys.executable, str(HERE / "toy_cli.py"), "tournament", str(config_path), "--out",
                               str(out), "-q", "--address", ray_address], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not ((out / RESULTS_FILE).exists() and
                                          (out / RESULTS_FILE).read_text().count("\n") >= 3):
        time.sleep(0.01)
    runner.send_signal(signal.SIGINT)
    _, err = runner.communicate(timeout=60)
    assert runner.returncode == 130, err
    assert "interrupted: finished games are recorded; run again with --resume" in err
    done_before = len(read_results(out))
    assert 3 <= done_before < 24
    # Finished on local tables: the executor may change between a run and its resume.
    summary = run_tournament(load_config(config_path, {"executor.kind": "local"}), out, resume=True)
    assert (summary.resumed, summary.played, summary.errors) == (done_before, 24 - done_before, [])
    jobs = lines_by_job(out)
    assert len(jobs) == len(set(jobs)) == 24


def test_disqualification_under_ray_as_with_one_local_table(tmp_path, ray_address):
    # The random bot crashes at its first request in every process (a crashed bot is started
    # again for its next game); after two crashes it is disqualified.
    crash = {"crash": {"action": "forfeit", "disqualify_after": 2}}
    local = run_tournament(parse_config(doc(2, concurrency=1, first=mock("--crash"), failures=crash)),
                           tmp_path / "local")
    remote = run_tournament(parse_config(doc(2, concurrency=1, kind="ray", first=mock("--crash"), failures=crash)),
                            tmp_path / "ray")
    assert local.played == 2 and local.skipped == 10 and "random" in local.disqualified
    assert (remote.played, remote.skipped, remote.disqualified) == (local.played, local.skipped, local.disqualified)
    assert by_job(tmp_path / "ray") == by_job(tmp_path / "local")


def test_bots_reach_the_workers_through_working_dir(tmp_path, ray_address):
    """With working_dir, Ray ships the folder to every node and {config_dir} names the copy
    there: the bot runs from the shipped copy, not from this folder."""
    shipped = tmp_path / "bots"
    shipped.mkdir()
    (shipped / "wrapped.py").write_text(
        "import os, runpy, sys\n"
        "sys.stderr.write('started from ' + os.path.abspath(__file__) + '\\n')\n"
        "sys.stderr.flush()\n"
        "sys.argv = sys.argv[1:]\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n")
    d = doc(1, concurrency=1, kind="ray", first=["{python}", "{config_dir}/wrapped.py", "{bots}/random_bot.py"],
            records={"stderr": "all"})
    d["executor"]["working_dir"] = "{config_dir}"
    config_path = shipped / "t.toml"
    config_path.write_text(tomli_w.dumps(d))
    # In a process of its own: Ray ships a folder for a whole job, when the runner connects.
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, str(HERE / "toy_cli.py"), "tournament", str(config_path), "--out",
                           str(out), "-q", "--address", ray_address], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    records = read_results(out)
    assert len(records) == 6
    # The bot writes to stderr when it starts (one process, reused for the table's six games).
    kept = [out / r["stderr"][seat] for r in records if (seat := str(r["bots"].index("random"))) in r["stderr"]]
    starts = {line for path in kept for line in path.read_text().splitlines() if line.startswith("started from ")}
    assert len(starts) == 1, starts
    where = Path(starts.pop().removeprefix("started from "))
    assert where.name == "wrapped.py" and shipped not in where.parents, where
    # This process is connected already, without the folder: the runner says how to ship it.
    with pytest.raises(ConfigError, match=r"executor.working_dir: this process is already connected to Ray"):
        run_tournament(load_config(config_path), tmp_path / "here")


def test_config_problems_on_the_worker_name_the_node(tmp_path, ray_address):
    """The preflight runs on a worker: a bot that cannot start there stops the run (exit code 2)
    before any game, and the error names the key and the node."""
    d = doc(1, concurrency=1, kind="ray", first=[str(tmp_path / "no-such-program")])
    result = CliRunner().invoke(tournament_command, [str(_write(tmp_path, d)), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    node = ray.get_runtime_context().get_node_id()[:12]
    assert f"on node {node} (" in result.output and "bots[0].command: cannot start" in result.output
    assert not (tmp_path / "o" / RESULTS_FILE).read_text()


def test_cluster_config_end_to_end(tmp_path, ray_address):
    """configs/cluster.toml as shipped (one deal, two tables), joining this module's Ray
    instance from its own process, which ships the configs folder with working_dir."""
    out = tmp_path / "cluster"
    done = subprocess.run([sys.executable, "-m", "tournament.cli", "tournament", str(ROOT / "configs" / "cluster.toml"),
                           "--deals", "1", "-j", "2", "--address", ray_address, "--out", str(out)],
                          capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "24 games played, 0 already recorded, 0 skipped (of 24)" in done.stdout
    node = ray.get_runtime_context().get_node_id()
    assert f"{node[:12]}" in done.stdout.split("(of 24)")[1]  # the per-node throughput table
    records = read_results(out)
    assert len(records) == 24 and {r["node"] for r in records} == {node}
    assert all(r["faults"] == [] for r in records)


def test_no_room_for_a_table_stops_after_start_timeout(tmp_path, ray_address):
    """A table that asks for more CPUs than the cluster has never starts: the run stops with
    an error naming the key once start_timeout_s has passed."""
    d = doc(1, concurrency=1, kind="ray")
    d["executor"].update(cpus_per_table=3, start_timeout_s=1)
    result = CliRunner().invoke(tournament_command, [str(_write(tmp_path, d)), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert "executor: no table started within start_timeout_s = 1 s" in result.output


def _write(tmp_path: Path, d: dict) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(tomli_w.dumps(d))
    return path


def test_bots_on_ray_tables_are_sandboxed_as_on_local_ones(tmp_path, ray_address):
    """The tables of a Ray cluster start their bots in the same sandbox: cheating bots there
    (test_fair_play.py) find neither the run folder nor the organiser's or another bot's
    secrets, and cannot signal the other bots."""
    from tests.tournament.test_fair_play import OWN, VIC, assert_intact, bot, make_arena, play, victim

    arena = make_arena(tmp_path / "arena")
    run = play(arena, [victim(arena), bot(arena, "reader", "run_folder_reader"),
                       bot(arena, "env_spy", "env_spy", env={"FAIRPLAY_OWN_SECRET": OWN}),
                       bot(arena, "signaller", "signaller")],
               concurrency=2, executor={"kind": "ray", "batch_games": 4},
               game={"name": GAME, "players": 3})  # a registered game: Ray's workers know no toy games
    assert_intact(run)
    assert {r["node"] for r in run.records} == {ray.get_runtime_context().get_node_id()}
    assert VIC in (arena / "out" / "run.json").read_text()  # there was something to find
    for rep in run.report("reader", "run_folder"):
        assert rep["secrets"] == [] and not [p for p in rep["read"] if p.startswith(str(arena / "out"))], rep
    spied = run.report("env_spy", "environment")
    assert spied and all(r["foreign_secrets"] == [] and r["own_secrets"] == [OWN] for r in spied), spied
    for rep in run.report("signaller", "signal"):
        assert not set(rep["delivered"]["SIGSTOP"] + rep["delivered"]["SIGKILL"]) - {1}, rep
    assert all(not rec["forfeited"] for rec in run.games("honest"))


def test_ray_tables_never_play_one_deal_at_once(tmp_path, ray_address):
    """Duplicate, one deal of six seatings, two tables, batches of two: a table gets no batch
    with a deal still to be played in another table's batches, so no two games of the deal
    overlap (copies of a bot at two tables never hold the same deal), and all six are played."""
    d = doc(1, kind="ray")
    d["executor"]["batch_games"] = 2
    summary = run_tournament(parse_config(d), tmp_path / "ray")
    assert summary.played == summary.total == 6 and not summary.errors, summary.errors
    assert overlapping_games_of_a_deal(read_results(tmp_path / "ray")) == []
