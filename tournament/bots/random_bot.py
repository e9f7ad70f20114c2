#!/usr/bin/env python3
"""The bundled random bot: a uniformly random legal option, for every game.

Protocol-only and stateless: it imports nothing from trickcore and decides from the
request alone.  Its choice is a pure function of its ``seed`` option and the request,
so tournaments with it are reproducible whatever the concurrency.
"""

import json
import random
import sys


def main() -> None:
    seed = 0
    out = sys.stdout
    for raw in sys.stdin:
        command, _, rest = raw.rstrip("\r\n").partition(" ")
        if command == "trickcore":
            out.write("id name random\nid author trickcore\noption seed int 0 0 4294967295\ntrickcoreok 1\n")
        elif command == "setoption":
            key, _, value = rest.partition(" ")
            if key == "seed":
                seed = int(value)
        elif command == "isready":
            out.write(f"readyok {rest}\n")
        elif command == "request":
            request_id, _count, payload = rest.split(" ", 2)
            legal = json.loads(payload)["legal"]
            out.write(f"action {request_id} {random.Random(f'{seed}:{payload}').choice(legal)}\n")
        elif command == "quit":
            return
        else:
            continue  # newgame, event, gameover and future commands need no answer
        out.flush()


if __name__ == "__main__":
    main()
