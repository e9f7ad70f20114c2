#!/usr/bin/env python3
"""Memory outside the count, 2: at its first request, fill its /tmp and its /dev/shm (both are
tmpfs: memory) with ``--each`` MiB (default 120) apiece, in files of 32 MiB.  It holds them ``--hold``
seconds (default 3) and reports how much it wrote; the runner must stop it first."""

import time

from cheatlib import flag, play, report, why

chunk = b"\x02" * (1 << 20)


def fill(folder: str, mib: int) -> tuple[int, str | None]:
    """Write ``mib`` MiB into ``folder`` in files of 32 MiB (below file_size_mb)."""
    written = 0
    try:
        while written < mib:
            with open(f"{folder}/hoard-{written}", "wb") as fh:
                for _ in range(min(32, mib - written)):
                    fh.write(chunk)
                    fh.flush()
                    written += 1
    except OSError as exc:
        return written, why(exc)
    return written, None


def attack(n: int) -> None:
    if n != 1:
        return
    each = int(flag("each", "120"))
    results = {folder: fill(folder, each) for folder in ("/tmp", "/dev/shm")}
    report("tmpfs_hog", written_mib={k: v[0] for k, v in results.items()}, errors={k: v[1] for k, v in results.items()})
    time.sleep(float(flag("hold", "3")))
    report("tmpfs_hog", survived=True)


play("tmpfs-hog", on_request=attack)
