"""Core and binding benchmarks on the reference game (ns per card play vs the floor)."""

import c_loops
import engine_bench as bench


def test_floor(benchmark, record):
    ns = benchmark(lambda: c_loops.floor(2000)[0])
    record(ns)


def test_core_playout_reference(benchmark, record):
    ns = benchmark(lambda: c_loops.core_reference(2000)[0])
    record(ns)


def test_core_legal(benchmark, record):
    ns = benchmark(lambda: c_loops.core_legal(200_000)[0])
    record(ns)


def test_core_resolve(benchmark, record):
    ns = benchmark(lambda: c_loops.core_resolve(100_000)[0])
    record(ns)


def test_binding_calls(benchmark, record):
    legal_ns, play_ns = benchmark(lambda: bench.python_trickphase_calls(5000))
    record(play_ns)


def test_trickphase_limit(benchmark, record):
    record(benchmark(lambda: bench.python_trickphase_limit(20_000)))


def test_interface_play_reference(benchmark, record):
    ns = benchmark(lambda: bench.python_driven_reference(40))
    record(ns)
