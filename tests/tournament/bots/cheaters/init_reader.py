#!/usr/bin/env python3
"""Reads what process 1 of its sandbox (bubblewrap's init) shows: its command line, where the
whole bwrap argument list would name every folder bound and every path hidden.  Reports the
words."""

from cheatlib import cmdline, in_sandbox, play, report


def attack(n: int) -> None:
    if n == 1:
        report("init", words=cmdline(1), sandboxed=in_sandbox())


play("init-reader", on_request=attack)
