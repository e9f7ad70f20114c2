"""What the runner's speed-ups must not change, and the runner benchmark's plumbing
(functional checks only: timing is for `trickcore bench-runner`, never for tests)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from tests.tournament.support import bot_cmd
from tournament import wire
from tournament.match import EventFeed
from trickcore.checkout import bench_module
from trickcore.games import list_games, new_game

# bench/runner_bench.py: a benchmark of the checkout, not of the package
bench = bench_module("runner_bench", "trickcore bench-runner")


def quick_options(name: str) -> dict:
    return {"squint": {"deal_limit": 1}, "hattrick": {"games": 1}, "sticheln": {"rounds": 1}}.get(name, {})


@pytest.mark.parametrize("name", sorted(g.name for g in list_games()))
def test_event_feed_gives_each_seat_exactly_its_events(name):
    """Events encoded once and shared must equal the per-seat public API, for every game."""
    info = next(g for g in list_games() if g.name == name)
    for players in sorted(info.players)[:2]:
        for seed in (1, 2):
            state = new_game(name, players, quick_options(name), seed)
            feed = EventFeed(state, players)
            cursors = [0] * players

            def reference(seat: int, state=state, cursors=cursors) -> list[str]:
                """The per-seat public API, encoded per seat."""
                events, cursors[seat] = state.events_for(seat, cursors[seat])
                return [wire.event(e) for e in events]

            rng = random.Random(seed)
            got = [[] for _ in range(players)]
            want = [[] for _ in range(players)]
            steps = 0
            while not state.is_terminal() and steps < 400:
                state.apply_action(rng.choice(state.legal_action_strings()))
                feed.sync()
                steps += 1
                for seat in range(players):
                    if rng.random() < 0.5:  # seats read at different times, as with on-request delivery
                        got[seat] += feed.pending(seat)
                        want[seat] += reference(seat)
            for seat in range(players):
                got[seat] += feed.pending(seat)
                want[seat] += reference(seat)
                assert got[seat] == want[seat], (name, players, seed, seat)
                assert all(line.startswith("event {") for line in got[seat])


def test_random_bot_reports_its_think_time(tmp_path):
    timing = tmp_path / "timing.txt"
    payload = json.dumps({"legal": ["a", "b"], "view": {}})
    lines = ["trickcore 1", "isready 1"] + [f"request {i} 2 {payload}" for i in range(1, 4)] + ["quit"]
    proc = subprocess.run(bot_cmd("random_bot.py"), input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=30, env={"TRICKCORE_BOT_TIMING": str(timing), "PATH": ""})
    assert proc.returncode == 0 and proc.stdout.count("action ") == 3
    think, requests = timing.read_text().split()
    assert int(requests) == 3 and 0 < float(think) < 1


def test_runner_benchmark_plumbing():
    """Tiny sizes: checks that the figures are computed and consistent, not how fast they are."""
    floor = bench.measure_floor(concurrency=2, exchanges=200, warmup=20)
    assert floor.concurrency == 2 and floor.wall_us > 0 and floor.driver_cpu_us > 0
    assert floor.overhead_us <= floor.wall_us
    run = bench.measure_runner(concurrency=1, games=2, game="toy-tricks", players=2)
    assert run.games == 2 and run.decisions > 0 and run.think_s > 0
    assert run.play_s <= run.wall_s and run.decisions_per_s > 0 and run.cpu_us > 0
    pinned = bench.measure_floor(concurrency=1, exchanges=100, warmup=10, pinned=True)
    assert pinned.pinned == hasattr(__import__("os"), "sched_setaffinity")
    table_run = bench.measure_runner(concurrency=2, games=2, game="toy-tricks", players=2, affinity="table")
    assert table_run.affinity == "table" and table_run.games == 2
    sandboxed = bench.measure_runner(concurrency=1, games=2, game="toy-tricks", players=2, sandbox="bwrap")
    assert sandboxed.decisions == run.decisions and sandboxed.decisions_per_s > 0
    # The minimal referee runs in its own process, so it plays a registered game (not the toy).
    referee = bench.measure_minimal_referee(concurrency=1, games=1, game="reference", players=4, pinned=True)
    assert referee.decisions == 52 and referee.overhead_us > 0 and referee.cpu_us > 0
    empty = bench.measure_minimal_referee(concurrency=2, games=1, game="reference", players=4, view="empty")
    assert empty.concurrency == 2 and empty.decisions == 52 and not empty.pinned
    row = bench.BenchRow(1, "on-request", "none", run, floor, referee, [run.overhead_us], [floor.overhead_us],
                         [referee.overhead_us])
    assert row.ratio == pytest.approx(run.overhead_us / floor.overhead_us)
    assert row.vs_referee == pytest.approx(run.overhead_us / referee.overhead_us)
    table = bench.format_rows([row])
    assert "decisions/s" in table and "min referee µs" in table and table.count("\n") == 2
    narrow = bench.format_rows([row], width=80).splitlines()     # the runner's overhead and floor stay
    assert max(map(len, narrow)) <= 80 and narrow[0].split()[3:7] == ["decisions/s", "overhead", "µs", "floor"]
    assert " ".join(narrow).endswith("(left out at this width: runner_us p50, floor CPU µs, min ref CPU µs, runner "
                                     "CPU µs, bot think µs, runner/min ref, min ref/floor, min referee µs)")
    assert set(row.to_json()) >= {"decisions_per_s", "overhead_us", "floor_us", "ratio", "runner_cpu_us",
                                  "min_referee_us", "min_referee_ratio", "vs_min_referee"}


def test_bench_runner_command_runs(monkeypatch):
    from click.testing import CliRunner

    from tournament.cli import bench_runner_command

    result = CliRunner().invoke(bench_runner_command, ["--games", "1", "--repeat", "1", "--exchanges", "100",
                                                       "-j", "1", "--delivery", "immediate", "--affinity", "table",
                                                       "--game", "reference", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    (row,) = figures["rows"]
    cost = figures["sandbox"]["1"]  # per number of tables (-j)
    assert set(figures["sandbox"]) == {"1"}
    assert cost["decisions"] > 0 and cost["ratio"] > 0 and cost["startup_ms"]["bwrap"] > 0
    assert len(cost["runs"]) == 5  # pairs of runs: at least five, whatever --repeat says
    assert row["concurrency"] == 1 and row["event_delivery"] == "immediate" and row["decisions"] > 0
    assert row["cpu_affinity"] == "table"


def test_bench_runner_without_a_checkout_says_where_it_runs(monkeypatch, tmp_path):
    """An installed wheel has no bench/ folder: one line that says where the benchmark runs."""
    from click.testing import CliRunner

    from tournament.cli import bench_runner_command

    monkeypatch.setattr("trickcore.checkout.BENCH_DIR", tmp_path / "bench")
    result = CliRunner().invoke(bench_runner_command, ["--games", "1"])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "source checkout" in result.output
    assert "git clone" in result.output and "trickcore bench-runner" in result.output


def test_wire_garbage_check():
    assert not wire.is_garbage("action 3 KH\tnote")
    assert all(wire.is_garbage(f"action 3 K{c}") for c in ("\x00", "\x07", "\x1b", "\x7f", "\n"))
    assert not wire.is_garbage("info naïve ünïcode")


def test_no_history_rebuild_per_decision(tmp_path, monkeypatch):
    """``GameState.history`` is O(actions); calling it per decision made long games quadratic."""
    from tests.tournament.toygame import ToyState
    from tournament.config import parse_config
    from tournament.runner import run_tournament

    calls = []
    original = ToyState.history   # GameState's: the toy game is a Python class, so it can be patched
    monkeypatch.setattr(ToyState, "history", property(lambda self: calls.append(1) or original.__get__(self)))
    doc = {"game": {"name": "toy-tricks", "players": 2}, "tournament": {"deals": 2, "seed": 1, "concurrency": 1},
           "bots": [{"name": f"r{i}", "command": [sys.executable, bot_cmd("random_bot.py")[1]]} for i in range(2)]}
    summary = run_tournament(parse_config(doc), tmp_path / "out", check_bots=False)
    assert summary.played == 2
    assert len(calls) <= 2 * 2  # to_record() at the end of each game, not once per decision


@pytest.mark.skipif(not hasattr(__import__("os"), "sched_setaffinity"), reason="no CPU affinity on this platform")
def test_cpu_affinity_table_pins_the_table_and_its_bots(tmp_path):
    import os
    import time

    from tournament.config import parse_config
    from tournament.process import BotProcess
    from tournament.runner import run_tournament, table_cpus

    cpu = max(os.sched_getaffinity(0))
    proc = BotProcess((sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)), flush=True); "
                                             "input()"), None, None, 4096, 4096, cpu=cpu)
    try:
        assert proc.next_output(time.perf_counter() + 10).text == f"[{cpu}]"
    finally:
        proc.kill()
    doc = {"game": {"name": "toy-tricks", "players": 2},
           "tournament": {"deals": 4, "seed": 1, "concurrency": 2, "cpu_affinity": "table"},
           "bots": [{"name": f"r{i}", "command": bot_cmd("random_bot.py")} for i in range(2)]}
    config = parse_config(doc)
    assert table_cpus(config) == sorted(os.sched_getaffinity(0))
    assert table_cpus(parse_config({**doc, "tournament": {**doc["tournament"], "cpu_affinity": "none"}})) == []
    summary = run_tournament(config, tmp_path / "out")
    assert summary.played == 4 and summary.errors == []
    assert sorted(os.sched_getaffinity(0)) == table_cpus(config)  # the main thread is not pinned
