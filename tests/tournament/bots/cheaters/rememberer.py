#!/usr/bin/env python3
"""Attack: remember a deal.  In duplicate every deal comes round again under each seating; a
process that plays it twice has seen, by the end of the first game, every card each seat
played, and so knows the hands of the others the second time.  This bot only names the process
it runs in (a random token per process) at each request, so that a test can see which
processes were dealt which deals; the runner must never deal one process the same deal twice."""

import secrets

from cheatlib import play, report

TOKEN = secrets.token_hex(8)


def name_the_process(n: int) -> None:
    report("remember", process=TOKEN, request=n)


play("rememberer", on_request=name_the_process)
