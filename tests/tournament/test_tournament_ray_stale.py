"""A Ray head that died without shutting down (killed by the OOM killer, say) leaves
``/tmp/ray/ray_current_cluster`` behind.  Tests that start Ray must start their own local
instance regardless, or every one of them fails at setup on that machine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

HERE = Path(__file__).resolve().parent
# Where Ray looks for the cluster to join when ray.init() gets no address.
STALE = Path("/tmp/ray/ray_current_cluster")

# The shape of the fixture in test_tournament_ray.py, and the shape it had before.
START = ("import ray; ray.init({address}num_cpus=1, include_dashboard=False, logging_level='ERROR'); "
         "print(ray.get(ray.remote(lambda: 6 * 7).remote())); ray.shutdown()")


@pytest.fixture
def stale_cluster_file():
    """A cluster address with no Ray behind it, as a crashed head leaves it; the file as it was
    is put back afterwards."""
    before = STALE.read_bytes() if STALE.exists() else None
    STALE.parent.mkdir(parents=True, exist_ok=True)
    STALE.write_text("127.0.0.1:9")  # the discard port: nothing answers there
    try:
        yield
    finally:
        if before is None:
            STALE.unlink(missing_ok=True)
        else:
            STALE.write_bytes(before)


def _python(code: str, timeout: float = 180) -> subprocess.CompletedProcess:
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env)


def test_a_stale_cluster_file_breaks_ray_init_without_an_address(stale_cluster_file):
    """What the tests did before: ray.init() without an address tries to join the stale cluster.
    (Shows that the file planted here is the one Ray reads, so the next test can fail.)"""
    done = _python(START.format(address=""))
    assert done.returncode != 0
    assert "num_cpus" in done.stderr or "connect" in done.stderr.lower(), done.stderr[-2000:]


def test_the_ray_tests_pass_beside_a_stale_cluster_file(stale_cluster_file):
    assert _python(START.format(address="address='local', ")).stdout.strip() == "42"
    # The Ray tests themselves, one of them through the module's fixture, and the executor's own
    # start (address "" in a config: the runner starts Ray on this machine).
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                           str(HERE / "test_tournament_ray.py::test_config_problems_on_the_worker_name_the_node")],
                          capture_output=True, text=True, timeout=600, cwd=HERE.parents[1],
                          env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "1 passed" in done.stdout
