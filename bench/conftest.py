"""pytest-benchmark suites: run with `pytest bench --benchmark-enable`.

Each benchmark records ns per card play and its ratio to the floor loop
(bench/floor.c) measured in the same session, in `extra_info`."""

import c_loops
import pytest


@pytest.fixture(scope="session")
def floor_ns():
    return min(c_loops.floor(20000)[0] for _ in range(5))


@pytest.fixture
def record(benchmark, floor_ns):
    def _record(ns_per_play: float):
        benchmark.extra_info["ns_per_play"] = round(ns_per_play, 2)
        benchmark.extra_info["ratio_to_floor"] = round(ns_per_play / floor_ns, 2)
    return _record
