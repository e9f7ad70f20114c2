"""Runner benchmarks (pytest-benchmark): run with `pytest bench/test_bench_runner.py --benchmark-enable`.

Each benchmark plays a real tournament of the bundled random bot over pipes (the reference
game, 4 seats) and records, in `extra_info`, decisions per second, the runner overhead per
decision, the pipe ping-pong floor and the minimal referee (bench/minimal_referee.py)
measured right before it in the same session, and their ratios.  Definitions: docs/tournament.md,
"Performance"; the same figures with repeats and medians: `trickcore bench-runner`.
"""

import pytest
import runner_bench as bench

GAMES_PER_TABLE = 30


@pytest.mark.parametrize("affinity", ["none", "table"])
@pytest.mark.parametrize("delivery", ["on-request", "immediate"])
@pytest.mark.parametrize("concurrency", [1, 2])
def test_runner_overhead_per_decision(benchmark, concurrency, delivery, affinity):
    floor = bench.measure_floor(concurrency, exchanges=4000, pinned=affinity == "table")
    referee = bench.measure_minimal_referee(concurrency, GAMES_PER_TABLE, pinned=affinity == "table")
    result = {}

    def play():
        result["run"] = bench.measure_runner(concurrency, GAMES_PER_TABLE * concurrency, delivery,
                                             affinity=affinity)

    benchmark.pedantic(play, rounds=1, iterations=1)
    run = result["run"]
    benchmark.extra_info.update({
        "concurrency": concurrency, "event_delivery": delivery, "cpu_affinity": affinity,
        "decisions": run.decisions,
        "decisions_per_s": round(run.decisions_per_s, 1), "overhead_us": round(run.overhead_us, 1),
        "floor_us": round(floor.overhead_us, 1), "ratio_to_floor": round(run.overhead_us / floor.overhead_us, 2),
        "min_referee_us": round(referee.overhead_us, 1),
        "ratio_to_min_referee": round(run.overhead_us / referee.overhead_us, 2),
        "bot_think_us": round(run.think_us, 1), "runner_cpu_us": round(run.cpu_us, 1),
        "floor_cpu_us": round(floor.driver_cpu_us, 1), "runner_us_p50": run.runner_us_p50})


@pytest.mark.parametrize("pinned", [False, True])
@pytest.mark.parametrize("concurrency", [1, 2])
def test_pipe_ping_pong_floor(benchmark, concurrency, pinned):
    result = {}

    def ping_pong():
        result["floor"] = bench.measure_floor(concurrency, exchanges=4000, pinned=pinned)

    benchmark.pedantic(ping_pong, rounds=3, iterations=1)
    f = result["floor"]
    benchmark.extra_info.update({"concurrency": concurrency, "pinned": pinned, "floor_us": round(f.overhead_us, 2),
                                 "wall_us": round(f.wall_us, 2), "driver_cpu_us": round(f.driver_cpu_us, 2)})


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_bot_startup(benchmark, sandbox):
    """One bundled random bot from its start to the end of its handshake, with and without the
    bots' sandbox (docs/tournament.md, "Fair play")."""
    benchmark.pedantic(bench.measure_startup, args=(sandbox, 1), rounds=15, iterations=1)
    benchmark.extra_info["sandbox"] = sandbox


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_tournament_decisions_per_second(benchmark, sandbox):
    """The tournament of test_runner_overhead_per_decision (one table) with and without the
    bots' sandbox; its start-up included."""
    result = {}

    def play():
        result["run"] = bench.measure_runner(1, GAMES_PER_TABLE, sandbox=sandbox)

    benchmark.pedantic(play, rounds=3, iterations=1)
    benchmark.extra_info.update({"sandbox": sandbox, "decisions": result["run"].decisions,
                                 "decisions_per_s": round(result["run"].decisions_per_s, 1)})
