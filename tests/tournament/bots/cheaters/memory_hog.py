#!/usr/bin/env python3
"""Attack 8: allocate 3 GiB at its first request, to starve the machine (and the other
tables) of memory.  It does not catch MemoryError: under the sandbox's ``memory_mb`` the
allocation fails (after it tried to lift the limit) and the bot dies of it, which the runner
records as a ``limit`` fault.
(``bytes(n)`` gets zeroed pages from the kernel lazily, so even where the limit were missing
the allocation would not touch 3 GiB of memory.)"""

from cheatlib import play, raise_limit, report

hoard = []


def attack(n: int) -> None:
    if n != 1:
        return
    report("memory_hog", allocating_mib=3 << 10, lift_limit=raise_limit("AS"))
    try:
        hoard.append(bytes(3 << 30))
    except MemoryError:
        report("memory_hog", allocated=False)
        raise SystemExit("memory-hog: MemoryError") from None
    report("memory_hog", allocated=True)
    hoard.clear()


play("memory-hog", on_request=attack)
