#!/usr/bin/env python3
"""Attack 9: start ``--count`` processes (default 200) at its first request, to fill the
machine's process table, after trying to lift its process limit.  Bounded: each child only
sleeps ``--sleep`` seconds (default 3) and exits.  It catches the error when a fork is
refused, reports how many it got, and plays on."""

import os
import time

from cheatlib import flag, play, raise_limit, report, why

children: list[int] = []


def attack(n: int) -> None:
    for pid in list(children):  # reap the ones that are done
        try:
            if os.waitpid(pid, os.WNOHANG)[0]:
                children.remove(pid)
        except ChildProcessError:
            children.remove(pid)
    if n != 1:
        return
    count, sleep = int(flag("count", "200")), float(flag("sleep", "3"))
    lifted = raise_limit("NPROC")
    error = None
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError as exc:
            error = why(exc)
            break
        if pid == 0:
            try:
                time.sleep(sleep)
            finally:
                os._exit(0)
        children.append(pid)
    report("fork", forked=len(children), error=error, lift_limit=lifted)


play("fork-bomb", on_request=attack)
