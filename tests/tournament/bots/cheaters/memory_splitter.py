#!/usr/bin/env python3
"""Attack 8, split: get ``--total`` MiB in all (default 1 GiB) by asking for it in ``--split N``
processes (default 8), each below ``memory_mb``.  At its first request it forks N children;
each allocates its share and writes to every page of it (memory really used, not only address
space), says whether that worked, and holds it until all have answered (at most 5 seconds).
It reports how much its processes held at once, and plays on -- if it is still running."""

import os
import select
import time

from cheatlib import flag, play, report, why

PAGE = 4096


def attack(n: int) -> None:
    if n != 1:
        return
    count = int(flag("split", "8"))
    share = (int(flag("total", "1024")) << 20) // count
    answers, release = os.pipe(), os.pipe()
    children, error = [], None
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError as exc:
            error = why(exc)
            break
        if pid == 0:
            os.close(answers[0])
            os.close(release[1])
            try:
                block = bytearray(share)
                for i in range(0, share, PAGE):  # touch every page
                    block[i] = 1
                os.write(answers[1], b"1")
                os.read(release[0], 1)  # hold it until the parent has counted (EOF)
                del block
            except MemoryError:
                os.write(answers[1], b"0")
            finally:
                os._exit(0)
        children.append(pid)
    os.close(answers[1])
    os.close(release[0])
    got = b""
    deadline = time.monotonic() + 5
    while len(got) < len(children) and time.monotonic() < deadline:
        ready, _, _ = select.select([answers[0]], [], [], 0.1)
        if ready:
            chunk = os.read(answers[0], 64)
            if not chunk:
                break
            got += chunk
    os.close(release[1])  # the children let go and exit
    os.close(answers[0])
    for pid in children:
        os.waitpid(pid, 0)
    held = got.count(b"1")
    report("memory_split", processes=len(children), held=held, share_mib=share >> 20,
           held_mib=(held * share) >> 20, fork_error=error)


play("memory-splitter", on_request=attack)
