#!/usr/bin/env python3
"""Attack 4: SIGSTOP, then SIGKILL, every other process it can see, so that its opponents
time out or crash and forfeit.  Inside a sandbox it also tries ``kill(-1, ...)`` (every
process it may signal).  Targets: ``--only WORD`` (processes whose command line holds WORD),
else every visible process -- inside a sandbox only (cheatlib.targets).  ``--idle`` plays the
same moves without attacking (the baseline to compare results with)."""

import os
import signal

from cheatlib import flag, has, in_sandbox, play, report, targets, why


def attack(n: int) -> None:
    if n != 1 or has("idle"):
        return
    victims = targets(flag("only"))
    delivered: dict[str, list[int]] = {"SIGSTOP": [], "SIGKILL": []}
    errors: dict[str, str] = {}
    for sig in (signal.SIGSTOP, signal.SIGKILL):
        for pid in victims:
            try:
                os.kill(pid, sig)
                delivered[sig.name].append(pid)
            except OSError as exc:
                errors[f"{sig.name} {pid}"] = why(exc)
    broadcast = None
    if in_sandbox() and not flag("only"):
        try:
            os.kill(-1, signal.SIGKILL)  # all it may signal but itself (and its namespace's init)
            broadcast = "sent"
        except OSError as exc:
            broadcast = why(exc)
    report("signal", targets=victims, delivered=delivered, errors=errors, broadcast=broadcast)


play("signaller", on_request=attack)
