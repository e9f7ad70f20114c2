#!/usr/bin/env python3
"""Attack 8: take 3 GiB at its first request, to starve the machine (and the other tables) of
memory.  It writes every page (64 MiB at a time), so the memory is really held, not only
reserved, and first tries to lift the address-space limit (there is none in the sandbox: a
JVM must start).  The runner counts what the bot holds and stops it at ``memory_mb``, which it
records as a ``limit`` fault; the bot never gets to report that it got it all."""

from cheatlib import play, raise_limit, report

CHUNK = 64 << 20
hoard = []


def attack(n: int) -> None:
    if n != 1:
        return
    report("memory_hog", allocating_mib=3 << 10, lift_limit=raise_limit("AS"))
    try:
        for _ in range((3 << 30) // CHUNK):
            hoard.append(b"\x01" * CHUNK)  # a new object whose every page is written
    except MemoryError:
        report("memory_hog", allocated=False)
        raise SystemExit("memory-hog: MemoryError") from None
    report("memory_hog", allocated=True)
    hoard.clear()


play("memory-hog", on_request=attack)
