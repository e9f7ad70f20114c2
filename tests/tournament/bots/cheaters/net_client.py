#!/usr/bin/env python3
"""Attack 7a: connect to a TCP listener on the host's loopback (``--port P``) and send it
``--token T``: a bot with the network can reach the organiser's services or another bot."""

import socket

from cheatlib import flag, play, report, why


def attack(n: int) -> None:
    if n != 1:
        return
    try:
        with socket.create_connection(("127.0.0.1", int(flag("port"))), timeout=2) as s:
            s.sendall((flag("token", "") + "\n").encode())
        report("net_connect", connected=True)
    except OSError as exc:
        report("net_connect", connected=False, error=why(exc))


play("net-client", on_request=attack)
