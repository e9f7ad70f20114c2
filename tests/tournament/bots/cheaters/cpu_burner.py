#!/usr/bin/env python3
"""Attack 11: a second thread that burns CPU (for ``--burn`` seconds, default 1), to take CPU
time from the other tables.

The burning thread notes the CPUs it may run on (``Cpus_allowed_list`` of its
/proc/self/task/<tid>/status), asks for every CPU of the machine (``sched_setaffinity``),
notes the outcome and burns.  The main thread reports all of it at once, with its own
list, before it answers its first request."""

import os
import secrets
import threading
import time

from cheatlib import flag, play, report, why

INSTANCE = secrets.token_hex(4)  # which process reported (every sandboxed bot is pid 2)
seen: dict[str, object] = {}


def allowed(tid: int | str = "self") -> str:
    path = "/proc/self/status" if tid == "self" else f"/proc/self/task/{tid}/status"
    with open(path) as fh:
        for line in fh:
            if line.startswith("Cpus_allowed_list:"):
                return line.split(":", 1)[1].strip()
    return "?"


def burn(seconds: float, noted: threading.Event) -> None:
    tid = threading.get_native_id()
    seen["burner"] = allowed(tid)
    wanted = set(range(os.cpu_count() or 1))
    try:
        os.sched_setaffinity(0, wanted)  # 0: this thread
        seen["escape"] = "ok"
    except OSError as exc:
        seen["escape"] = why(exc)
    seen["asked"] = sorted(wanted)
    seen["after"] = allowed(tid)
    noted.set()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def attack(n: int) -> None:
    if n != 1:
        return
    noted = threading.Event()
    threading.Thread(target=burn, args=(float(flag("burn", "1")), noted), daemon=True).start()
    noted.wait(5)
    report("cpu", instance=INSTANCE, threads={"main": allowed(), "burner": seen.get("burner")},
           tasks=len(os.listdir("/proc/self/task")))
    report("cpu_escape", instance=INSTANCE, asked=seen.get("asked"), result=seen.get("escape"),
           allowed_after=seen.get("after"))


play("cpu-burner", on_request=attack)
