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
        if flag("read"):
            report("honest_reads", readable={p: os.access(p, os.R_OK) for p in flag("read").split(",")})


play("honest", on_request=first, slow_s=float(flag("slow", "0")))
