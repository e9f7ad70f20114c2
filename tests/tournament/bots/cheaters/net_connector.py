#!/usr/bin/env python3
"""Attack 7b, other half: connect to the accomplice listening on 127.0.0.1 ``--port P`` (tried
at each of its requests, 0.3 s each) and say hello."""

import socket

from cheatlib import flag, play, report, why

done = []


def attack(n: int) -> None:
    if done:
        return
    try:
        with socket.create_connection(("127.0.0.1", int(flag("port"))), timeout=0.3) as s:
            s.sendall(b"hello accomplice\n")
        done.append(n)
        report("net_peer", connected=True, request=n)
    except OSError as exc:
        report("net_peer", connected=False, request=n, error=why(exc))


play("net-connector", on_request=attack)
