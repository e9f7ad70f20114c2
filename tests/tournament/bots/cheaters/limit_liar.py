#!/usr/bin/env python3
"""Lies about its end: at its first request it writes what runtimes print when a limit refuses
them (out of memory, too many open files, no space left) to stderr and exits with status 1 --
an ordinary crash, which the runner must record as one and not as a limit it never enforced."""

import sys

from cheatlib import play, report


def attack(n: int) -> None:
    if n != 1:
        return
    report("limit_liar", exiting=1)
    sys.stderr.write("MemoryError: Cannot allocate memory (ENOMEM)\nstd::bad_alloc\nOutOfMemoryError\n"
                     "OSError: [Errno 24] Too many open files\nNo space left on device\nFile too large\n"
                     "can't start new thread\n")
    sys.stderr.flush()
    raise SystemExit(1)


play("limit-liar", on_request=attack)
