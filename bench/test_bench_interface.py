"""The Python user's loops, as trickcore bench measures them (bench/engine_bench.py): the
interpreter limit, the natural loop, the interface calls, and copies of every game's state."""

import engine_bench as bench
import pytest

from trickcore.games import list_games

CASES = [(g.name, n) for g in list_games() if g.name != "reference" for n in g.players]


def test_python_limit(benchmark, record):
    record(benchmark(lambda: bench.python_limit(20_000)))


def test_natural_loop_reference(benchmark, record):
    record(benchmark(lambda: bench.natural_loop_reference(40)))


def test_interface_calls(benchmark):
    calls = benchmark(lambda: bench.interface_calls(20_000))
    benchmark.extra_info.update({k: round(v, 2) for k, v in calls.items()})


@pytest.mark.parametrize("name,players", CASES)
def test_clone_and_pickle(benchmark, name, players):
    copies = benchmark(lambda: bench.game_copies(name, players, 2_000))
    if copies is None:
        pytest.skip(f"{name} reached no trick phase")
    benchmark.extra_info.update({k: round(v, 2) for k, v in copies.items()})
