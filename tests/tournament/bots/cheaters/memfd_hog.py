#!/usr/bin/env python3
"""Memory outside the count, 1: at its first request, write ``--total`` MiB (default 512) into
memfd files of ``--each`` MiB (default 32, below file_size_mb), never mapping them: memory the
kernel holds for the bot that no proportional set size shows.  It holds them ``--hold`` seconds
(default 3) and reports how much it held; the runner must stop it first."""

import os
import time

from cheatlib import flag, play, report, why

held = []


def attack(n: int) -> None:
    if n != 1:
        return
    total, each = int(flag("total", "512")), int(flag("each", "32"))
    chunk = b"\x01" * (1 << 20)
    written, error = 0, None
    report("memfd_hog", total_mib=total)
    try:
        while written < total:
            fd = os.memfd_create("hog")
            held.append(fd)
            for _ in range(min(each, total - written)):
                os.write(fd, chunk)
                written += 1
    except OSError as exc:
        error = why(exc)
    report("memfd_hog", written_mib=written, files=len(held), error=error)
    time.sleep(float(flag("hold", "3")))
    report("memfd_hog", held_mib=written, survived=True)


play("memfd-hog", on_request=attack)
