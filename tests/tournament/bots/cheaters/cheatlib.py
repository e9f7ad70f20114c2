"""What the cheating bots share: a protocol loop that plays only legal moves, the channel
they report on, and small helpers to look around /proc.

Each cheater plays like the example bot of docs/protocol.md (a random legal option seeded
by the request, so runs are reproducible) and, on its first request, tries its attack.  It
reports what it achieved as ``CHEAT {json}`` lines on its stderr, which the runner keeps in
the run folder (``[records] stderr = "all"``): a channel every bot legitimately has, so the
tests trust nothing the sandbox is meant to block.

Secrets the tests plant all look like ``FP<KIND>-<16 hex digits>``; ``secrets_in`` finds them.
Standard library only.
"""

from __future__ import annotations

import errno
import json
import os
import random
import re
import sys
from collections.abc import Callable

SECRET = re.compile(rb"FP(?:ORG|VIC|OWN)-[0-9a-f]{16}")


def report(attack: str, **facts) -> None:
    sys.stderr.write("CHEAT " + json.dumps({"attack": attack, **facts}, sort_keys=True, default=str) + "\n")
    sys.stderr.flush()


def send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def why(exc: BaseException) -> str:
    """An error as its errno name (EACCES, EROFS, ...) when it has one."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return errno.errorcode.get(exc.errno, str(exc.errno))
    return type(exc).__name__


def secrets_in(data: bytes | str) -> list[str]:
    if isinstance(data, str):
        data = data.encode("utf-8", "replace")
    return sorted({m.decode() for m in SECRET.findall(data)})


def raise_limit(name: str) -> str:
    """Try to lift the resource limit ``name`` (``"AS"``, ``"NPROC"``, ...) to unlimited: "ok",
    or why not (a limit set as soft and hard cannot be raised without privilege)."""
    import resource

    which = getattr(resource, f"RLIMIT_{name}")
    try:
        resource.setrlimit(which, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        return "ok"
    except (OSError, ValueError) as exc:
        return why(exc)


def pids() -> list[int]:
    return sorted(int(p) for p in os.listdir("/proc") if p.isdigit())


def cmdline(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return [w.decode("utf-8", "replace") for w in fh.read().split(b"\0") if w]
    except OSError:
        return []


def in_sandbox() -> bool:
    """True when process 1 is bubblewrap's init: this bot has a PID namespace of its own."""
    words = cmdline(1)
    return bool(words) and os.path.basename(words[0]) == "bwrap"


def targets(only: str | None) -> list[int]:
    """The processes a harmful attack goes for: those whose command line contains ``only``,
    else every process this bot can see but itself -- and then only inside a sandbox, so that
    a test run without one (or a broken sandbox) can never hit the machine's other processes."""
    me = os.getpid()
    if only:
        return [p for p in pids() if p != me and only in " ".join(cmdline(p))]
    if not in_sandbox():
        return []
    return [p for p in pids() if p != me]


def others(only: str | None = None) -> list[int]:
    """The processes a harmless look goes to: its parent and cheatlib.targets -- so that a bot
    run without a sandbox looks at its own runner, never at the rest of the machine."""
    me, parent = os.getpid(), os.getppid()
    return [parent] + [p for p in targets(only) if p not in (me, parent)]


# The request being answered, for an attack that wants the bot's view (its hand).
CURRENT: dict = {}


def play(name: str, on_request: Callable[[int], None] | None = None, on_start: Callable[[], None] | None = None,
         slow_s: float = 0.0) -> None:
    """Speak the protocol until ``quit``: legal moves only.  ``on_request(n)`` runs before the
    n-th request (counted over the process's life) is answered; an exception it raises is
    reported, never fatal.  ``on_start`` runs once, before the handshake is answered."""
    if on_start is not None:
        on_start()
    requests = 0
    for raw in sys.stdin:
        words = raw.rstrip("\r\n").split(" ", 3)
        command = words[0]
        if command == "trickcore":
            send(f"id name {name}")
            send("id author fair-play tests")
            send("trickcoreok 1")
        elif command == "isready":
            send("readyok " + words[1])
        elif command == "request":
            requests += 1
            CURRENT["request"] = json.loads(words[3])
            if on_request is not None:
                try:
                    on_request(requests)
                except Exception as exc:  # an attack that fails in an unforeseen way: say so, play on
                    report(name, crashed=f"{type(exc).__name__}: {exc}")
            if slow_s:
                import time

                time.sleep(slow_s)
            request = json.loads(words[3])
            rng = random.Random(words[3])
            send(f"action {words[1]} {rng.choice(request['legal'])}")
        elif command == "quit":
            break


def flag(name: str, default: str | None = None) -> str | None:
    """The value after ``--name`` on the command line (tiny, so bots need no argparse)."""
    args = sys.argv[1:]
    if f"--{name}" in args:
        i = args.index(f"--{name}")
        return args[i + 1] if i + 1 < len(args) else ""
    return default


def has(name: str) -> bool:
    return f"--{name}" in sys.argv[1:]
