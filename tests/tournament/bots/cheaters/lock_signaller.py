#!/usr/bin/env python3
"""A channel between sandboxes through file locks.  ``--send``: before its handshake, take a
read lock on one byte of a file every sandbox can read (``--file``, default /usr/bin/env) at an
offset that encodes a number of its own (its process token, 1..4095), and keep it while it
runs.  ``--receive``: at its first request, ask the kernel which lock stands in the way of a
write lock on that file (F_GETLK) and read the number from the offset.  Both report what they
sent or saw; two copies of a colluding author at one table would share hidden hands this way."""

import fcntl
import os
import secrets
import struct

from cheatlib import flag, has, play, report, why

FILE = flag("file", "/usr/bin/env")
# struct flock: l_type, l_whence, l_start, l_len, l_pid (and the padding of x86-64 and ARM64)
FLOCK = "hhqqi4x"
NUMBER = 1 + secrets.randbelow(4095)
held = []


def send() -> None:
    try:
        fd = os.open(FILE, os.O_RDONLY)
        held.append(fd)
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, NUMBER, os.SEEK_SET)
        report("lock_send", sent=NUMBER, locked=True, error=None)
    except OSError as exc:
        report("lock_send", sent=NUMBER, locked=False, error=why(exc))


def receive(n: int) -> None:
    if n != 1:
        return
    seen, error = None, None
    try:
        fd = os.open(FILE, os.O_RDONLY)
        query = struct.pack(FLOCK, fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0)
        l_type, _, start, _, _ = struct.unpack(FLOCK, fcntl.fcntl(fd, fcntl.F_GETLK, query))
        if l_type != fcntl.F_UNLCK:
            seen = start
        os.close(fd)
    except OSError as exc:
        error = why(exc)
    report("lock_receive", seen=seen, error=error)


if has("send"):
    play("lock-sender", on_start=send)
else:
    play("lock-receiver", on_request=receive)
