#!/usr/bin/env python3
"""Attack 7b, one half: listen on 127.0.0.1 ``--port P`` from the start, so that an
accomplice bot can connect and the two can share what they see (each other's cards)."""

import socket
import threading

from cheatlib import flag, play, report, why


def serve(server: socket.socket) -> None:
    while True:
        try:
            conn, _ = server.accept()
        except OSError:
            return
        with conn:
            conn.settimeout(2)
            try:
                said = conn.recv(100).decode("utf-8", "replace").strip()
            except OSError:
                said = ""
        report("net_accept", accepted=True, said=said)


def start() -> None:
    try:
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", int(flag("port"))))
        server.listen(8)
    except OSError as exc:
        report("net_listen", listening=False, error=why(exc))
        return
    report("net_listen", listening=True)
    threading.Thread(target=serve, args=(server,), daemon=True).start()


play("net-listener", on_start=start)
