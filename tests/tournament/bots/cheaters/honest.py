#!/usr/bin/env python3
"""The victim: an honest bot (random legal moves, seeded by the request).  It reports on
stderr which planted secrets its own environment holds, so a test can check that a bot gets
its own ``env`` (and nothing of the organiser's).  ``--read A,B`` also reports which of those
paths it may read.  ``--slow S`` waits S seconds before each answer; any other words on the
command line (e.g. a marker to find the process by) are ignored."""

import os

from cheatlib import flag, play, report, secrets_in


def first(n: int) -> None:
    if n == 1:
        report("honest", own_env_secrets=secrets_in("\n".join(f"{k}={v}" for k, v in os.environ.items())))
        # --read, or FAIRPLAY_READ in its env: a path on its command line is its own file to
        # the runner, one in its env is not (a file it was given by read_only).
        wanted = flag("read") or os.environ.get("FAIRPLAY_READ")
        if wanted:
            paths = wanted.split(",")
            found = []
            for p in paths:
                if os.path.isfile(p) and os.access(p, os.R_OK):
                    with open(p, "rb") as fh:
                        found += secrets_in(fh.read(1 << 20))
            report("honest_reads", readable={p: os.access(p, os.R_OK) for p in paths}, secrets=sorted(set(found)))


play("honest", on_request=first, slow_s=float(flag("slow", "0")))
