"""Per-game benchmarks for every registered game and player count: full random games
through the Python interface, the C playout of one trick phase, worlds and search."""

import engine_bench as bench
import pytest

from trickcore.games import list_games

CASES = [(g.name, n) for g in list_games() if g.name != "reference" for n in g.players]


@pytest.mark.parametrize("name,players", CASES)
def test_full_random_games(benchmark, name, players):
    stats = benchmark(lambda: bench.game_random_full_games(name, players, 2))
    benchmark.extra_info.update({k: round(v, 2) for k, v in stats.items()})


@pytest.mark.parametrize("name,players", CASES)
def test_trick_phase_playout_c(benchmark, record, name, players):
    tp = bench.game_trick_phase(name, players)
    if tp is None:
        pytest.skip(f"{name} reached no trick phase")
    ns = benchmark(lambda: bench.c_playouts(tp, 200))
    record(ns)


@pytest.mark.parametrize("name,players", CASES)
def test_worlds_and_search(benchmark, name, players):
    """One world per round (state.worlds) and the rollouts of a 20 ms PIMC search."""
    found = bench.worlds_and_search(name, players, 20, 20.0)
    if found is None:
        pytest.skip(f"{name} reached no trick phase")
    per_world, per_rollout, rollouts = benchmark(lambda: bench.worlds_and_search(name, players, 20, 20.0))
    benchmark.extra_info.update(ns_per_world=round(per_world), ns_per_rollout=round(per_rollout), rollouts=rollouts)
