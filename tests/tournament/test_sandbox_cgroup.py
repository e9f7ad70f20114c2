"""A cgroup per bot where the organiser delegates one (tournament/cgroups.py).

Finding the runner's cgroup, and refusing a named folder that is none, are checked everywhere.
The kernel's count itself needs a delegated cgroup v2 with the memory controller: run the
tests inside one (``systemd-run --user --scope -p Delegate=yes python -m pytest ...``, see
docs/tournament.md, ``[sandbox]``) or name one in TRICKCORE_TEST_CGROUP; elsewhere that test is
skipped, and says what is missing."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.tournament.support import BOTS, HERE
from tournament import cgroups
from tournament.config import ConfigError, SandboxSettings, parse_config
from tournament.process import BotProcess
from tournament.results import read_results
from tournament.runner import run_tournament
from tournament.sandbox import MEMORY_WATCH

LINUX = sys.platform.startswith("linux")

# /proc/<pid>/mountinfo lines as Linux writes them: a unified hierarchy, and a hybrid one whose
# v2 part lies at /sys/fs/cgroup/unified (a space in a mount point is written \040).
UNIFIED = ("35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 "
           "rw,nsdelegate,memory_recursiveprot\n"
           "24 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n")
HYBRID = ("31 24 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755\n"
          "32 31 0:27 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw\n"
          "33 31 0:28 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:14 - cgroup cgroup rw,memory\n"
          "40 24 0:40 / /mnt/with\\040space rw - tmpfs tmpfs rw\n")


def test_the_runners_cgroup_from_proc():
    own = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/run-r1.scope\n"
    assert cgroups.own_cgroup(own, UNIFIED) == \
        "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/run-r1.scope"
    hybrid = "4:memory:/user.slice\n1:name=systemd:/user.slice/session-2.scope\n0::/user.slice/session-2.scope\n"
    assert cgroups.own_cgroup(hybrid, HYBRID) == "/sys/fs/cgroup/unified/user.slice/session-2.scope"
    assert cgroups.own_cgroup("0::/\n", UNIFIED) == "/sys/fs/cgroup"
    # cgroup v1 alone: no 0:: line, no cgroup2 mount.
    assert cgroups.own_cgroup("4:memory:/x\n", HYBRID.replace("cgroup2", "cgroup")) is None
    assert ("/mnt/with space", "tmpfs") in cgroups.mounts(HYBRID)


def _config(tmp_path: Path, cgroup: str):
    doc = {"game": {"name": "toy-tricks", "players": 2}, "sandbox": {"cgroup": cgroup},
           "bots": [{"name": f"r{i}", "command": [sys.executable, str(BOTS / "random_bot.py")]} for i in range(2)]}
    return parse_config(doc)


def test_a_named_cgroup_that_does_not_exist_is_a_config_error(tmp_path):
    missing = tmp_path / "no-such-cgroup"
    with pytest.raises(ConfigError) as err:
        _config(tmp_path, str(missing))
    assert f"sandbox.cgroup: {str(missing)!r} does not exist" in str(err.value), err.value


@pytest.mark.skipif(not LINUX, reason="reads /proc/self/mountinfo")
def test_a_folder_that_is_not_a_cgroup_v2_is_a_config_error(tmp_path):
    (tmp_path / "cgroup.controllers").write_text("memory pids\n")  # looks like one, is not on cgroup2
    with pytest.raises(ConfigError) as err:
        _config(tmp_path, str(tmp_path))
    assert "is not a cgroup v2 folder" in str(err.value), err.value


@pytest.mark.skipif(not LINUX, reason="reads /proc/self/mountinfo")
def test_a_cgroup_v1_folder_is_a_config_error(tmp_path):
    with open("/proc/self/mountinfo") as fh:
        v1 = [point for point, kind in cgroups.mounts(fh.read()) if kind == "cgroup" and os.path.isdir(point)]
    if not v1:
        pytest.skip("no cgroup v1 hierarchy is mounted here")
    with pytest.raises(ConfigError) as err:
        _config(tmp_path, v1[0])
    assert "is not a cgroup v2 folder (it lies on a file system of type cgroup" in str(err.value), err.value


def test_cgroup_none_and_auto(tmp_path):
    assert _config(tmp_path, "none").sandbox.cgroup == "none"
    assert _config(tmp_path, "").sandbox.cgroup == "" == SandboxSettings().cgroup
    assert cgroups.find("none") == (None, '[sandbox] cgroup = "none"')
    with pytest.raises(ConfigError) as err:
        parse_config({"game": {"name": "toy-tricks", "players": 2},
                      "bots": [{"name": f"r{i}", "command": [sys.executable, str(BOTS / "random_bot.py")],
                                "sandbox": {"cgroup": "none"}} for i in range(2)]})
    assert "cgroup" in str(err.value)  # [sandbox] only, not a bot's own


def _tree(folder: str) -> set[str]:
    return {root for root, _, _ in os.walk(folder)}


def test_no_cgroup_is_made_where_none_is_delegated(sandbox):
    """Where the runner was given no cgroup, a bot gets none, its memory is the runner's to
    count, and nothing is made in the cgroup the runner is in."""
    folder, why = cgroups.find("")
    if folder is not None:
        pytest.skip(f"this runner has a delegated cgroup ({why})")
    try:
        with open("/proc/self/cgroup") as fh, open("/proc/self/mountinfo") as mi:
            own = cgroups.own_cgroup(fh.read(), mi.read())
    except OSError:
        own = None
    before = _tree(own) if own and os.path.isdir(own) else set()
    proc = BotProcess((sys.executable, str(BOTS / "random_bot.py")), None, {}, 4096, 4096, sandbox=SandboxSettings())
    try:
        assert proc.cgroup is None
        assert proc.pid in MEMORY_WATCH._watched  # the runner counts
        if own and os.path.isdir(own):
            assert _tree(own) == before, why
    finally:
        proc.kill()


def _delegated() -> str:
    """The cgroup folder the kernel test runs in, or a skip naming what is missing."""
    named = os.environ.get("TRICKCORE_TEST_CGROUP", "")
    try:
        folder, why = cgroups.find(named)
    except cgroups.CgroupError as exc:
        pytest.skip(f"TRICKCORE_TEST_CGROUP: {exc.strerror}")
    if folder is None:
        pytest.skip(f"no delegated cgroup v2 with the memory controller: {why}")
    return named


def test_the_kernel_stops_a_memory_hog_in_its_cgroup(sandbox, tmp_path):
    named = _delegated()
    folder = tmp_path / "arena"
    folder.mkdir()
    for p in (tmp_path, folder):
        p.chmod(0o755)
    hog = folder / "memory_hog.py"
    for name in ("memory_hog.py", "cheatlib.py"):
        (folder / name).write_bytes((HERE / "bots" / "cheaters" / name).read_bytes())
        (folder / name).chmod(0o644)
    doc = {"game": {"name": "toy-tricks", "players": 2},
           "tournament": {"format": "gauntlet", "candidate": "hog", "deals": 1, "seed": 3, "concurrency": 1,
                          "output": str(tmp_path / "out")},
           "time": {"startup_ms": 20000, "ready_ms": 10000, "decision_ms": 10000, "shutdown_ms": 2000},
           "records": {"report": False, "stderr": "all"},
           "sandbox": {"cgroup": named, "memory_mb": 256},
           "bots": [{"name": "hog", "command": [sys.executable, str(hog)], "cwd": str(folder)},
                    {"name": "random", "command": [sys.executable, str(BOTS / "random_bot.py")]}]}
    config = parse_config(doc)
    base = cgroups.find(named)[0]
    assert base is not None
    summary = run_tournament(config)
    records = list(read_results(tmp_path / "out"))
    assert summary.played == summary.total == len(records) >= 1
    for rec in records:
        seat = rec["bots"].index("hog")
        [fault] = [f for f in rec["faults"] if f["seat"] == seat]
        assert fault["class"] == "limit" and "memory_mb = 256" in fault["detail"], fault
        # The kernel stopped it in its cgroup, and the runner read that from memory.events.
        assert "out-of-memory killer" in fault["detail"] and "oom_kill" in fault["detail"], fault
        assert seat in rec["forfeited"]
    # The bots' cgroups are gone.
    assert not [d for d in os.listdir(base) if d.startswith(f"bot-{os.getpid()}-")], os.listdir(base)
