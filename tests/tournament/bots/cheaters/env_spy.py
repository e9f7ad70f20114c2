#!/usr/bin/env python3
"""Attack 6: read the organiser's environment (its own, inherited) and the other bots'
``env`` secrets through /proc/<pid>/environ of its parent and of the processes
cheatlib.others names (every visible one inside a sandbox; ``--only WORD`` picks them
outside).  It also reports the planted secrets of its own environment, which must include
its own ``env``."""

import os

from cheatlib import flag, others, play, report, secrets_in, why


def attack(n: int) -> None:
    if n != 1:
        return
    own = secrets_in("\n".join(f"{k}={v}" for k, v in os.environ.items()))
    foreign, errors = set(), {}
    for pid in others(flag("only")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as fh:
                foreign.update(secrets_in(fh.read()))
        except OSError as exc:
            errors[str(pid)] = why(exc)
    report("environment", own_secrets=own, env_keys=sorted(os.environ), foreign_secrets=sorted(foreign),
           errors=errors)


play("env-spy", on_request=attack)
