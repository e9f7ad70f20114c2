"""A whole node of a Ray cluster dies mid-run: no game is lost, none is doubled.

Ray's own test utilities start a cluster of several nodes on this one machine (a head with
no CPUs, so that tables run only on the two worker nodes, one table each).  The tournament
runs in a thread; once the second node has recorded games, that node is killed (its raylet
and every process on it, tables and bots included, without a graceful shutdown).  The
unfinished games of its batches are played by the table on the other node."""

from __future__ import annotations

import json
import os
import threading
import time

import pytest
import ray
from ray.cluster_utils import Cluster

from tests.tournament.support import mock
from tests.tournament.test_tournament_ray import by_job, doc, lines_by_job
from tournament.config import parse_config
from tournament.results import RESULTS_FILE, read_results
from tournament.runner import run_tournament
from tournament.schedule import build_schedule

# Ray sends usage statistics over the network unless told not to (this and the runner's
# subprocesses inherit it).
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


@pytest.fixture(scope="module")
def cluster():
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    try:
        nodes = [cluster.add_node(num_cpus=1) for _ in range(2)]
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, logging_level="ERROR")
        yield cluster, nodes
    finally:
        ray.shutdown()
        cluster.shutdown()


def recorded_on(path, node_id: str) -> int:
    if not path.exists():
        return 0
    count = 0
    for line in path.read_text().splitlines():
        try:
            count += json.loads(line).get("node") == node_id
        except ValueError:  # a line being written
            pass
    return count


def test_a_node_killed_mid_run_loses_no_game_and_doubles_none(tmp_path, cluster):
    cluster_, (first, second) = cluster
    # One bot thinks 2 ms per decision (84 a game), so that the run outlasts the kill.
    config = parse_config(doc(6, kind="ray", first=mock("--slow", "2")))
    out = tmp_path / "ray"
    result: dict = {}
    run = threading.Thread(target=lambda: result.setdefault("summary", run_tournament(config, out)), daemon=True)
    run.start()
    deadline = time.time() + 120
    while time.time() < deadline and recorded_on(out / RESULTS_FILE, second.node_id) < 2:
        time.sleep(0.02)
    done_at_kill = len((out / RESULTS_FILE).read_text().splitlines())
    cluster_.remove_node(second, allow_graceful=False)  # the node's raylet, tables and bots, at once
    run.join(timeout=180)
    assert not run.is_alive() and "summary" in result
    summary = result["summary"]

    scheduled = [job.job_id for job in build_schedule(config)]
    jobs = lines_by_job(out)
    lost = set(scheduled) - set(jobs)
    doubled = len(jobs) - len(set(jobs))
    on_second = recorded_on(out / RESULTS_FILE, second.node_id)
    print(f"\nnode killed after {done_at_kill} of {len(scheduled)} games recorded: scheduled {len(scheduled)}, "
          f"played {summary.played}, lost {len(lost)}, doubled {doubled}, recorded on the killed node "
          f"{on_second}, played again elsewhere {summary.replayed}")
    assert done_at_kill < len(scheduled) and on_second >= 2
    assert summary.errors == [] and summary.played == len(scheduled) == 36
    assert not lost and doubled == 0
    assert summary.replayed >= 1 and any("died" in w for w in summary.warnings), summary.warnings
    # Both nodes appear in the per-node throughput; the killed one with the games it finished.
    assert {n.node: n.games for n in summary.nodes} == {
        first.node_id: 36 - on_second, second.node_id: on_second}
    # And the games are exactly those of local tables.
    run_tournament(parse_config(doc(6, first=mock("--slow", "2"))), tmp_path / "local")
    assert by_job(out) == by_job(tmp_path / "local")
    assert {r["node"] for r in read_results(out)} == {first.node_id, second.node_id}

