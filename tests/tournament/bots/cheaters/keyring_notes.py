#!/usr/bin/env python3
"""Notes through the session keyring: at its first request, read the note any other bot process
left (``request_key("user", "fp-note")``), then leave its own with what it was dealt (its hand
and a token of this process).  bwrap and setpriv leave the organiser's session keyring in place:
when the organiser has one (an ssh login, a systemd unit), the next process of this bot, or
another bot at the table, could read the note.  Reports what it wrote and what it read."""

import ctypes
import json
import os
import secrets

from cheatlib import CURRENT, play, report

# x86-64 and ARM64 numbers (the filter refuses these where it knows the architecture)
_CALLS = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}
KEY_SPEC_SESSION_KEYRING = -3
KEYCTL_READ = 11
TOKEN = secrets.token_hex(4)
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def attack(n: int) -> None:
    if n != 1:
        return
    add_key, request_key, keyctl = _CALLS[os.uname().machine]
    found, read_error = None, None
    serial = libc.syscall(request_key, b"user", b"fp-note", None, 0)
    if serial < 0:
        read_error = os.strerror(ctypes.get_errno())
    else:
        buf = ctypes.create_string_buffer(4096)
        size = libc.syscall(keyctl, KEYCTL_READ, ctypes.c_long(serial), buf, 4096)
        found = buf.raw[:max(size, 0)].decode("utf-8", "replace") if size >= 0 else None
    note = json.dumps({"process": TOKEN, "hand": CURRENT["request"].get("view", {}).get("hand")}).encode()
    added = libc.syscall(add_key, b"user", b"fp-note", note, len(note), KEY_SPEC_SESSION_KEYRING)
    report("keyring", process=TOKEN, wrote=note.decode(), added=added >= 0,
           add_error=None if added >= 0 else os.strerror(ctypes.get_errno()), found=found, read_error=read_error)


play("keyring-notes", on_request=attack)
