#!/usr/bin/env python3
"""The bundled random bot: a uniformly random legal option, for every game.

Protocol-only and stateless: it imports nothing from trickcore and decides from the
request alone.  Its choice is a pure function of its ``seed`` option and the request,
so tournaments with it are reproducible whatever the concurrency.

For the runner benchmark (``trickcore bench-runner``) the bot measures its own think
time, from having read a request line to just before writing its action, and, when the
environment variable ``TRICKCORE_BOT_TIMING`` names a file, appends
``<seconds thinking> <requests>`` to that file when it exits.
"""

import json
import os
import random
import sys
import time


def main() -> None:
    seed = 0
    out = sys.stdout
    clock = time.perf_counter
    think = 0.0
    requests = 0
    for raw in sys.stdin:
        start = clock()
        command, _, rest = raw.rstrip("\r\n").partition(" ")
        if command == "request":
            request_id, _count, payload = rest.split(" ", 2)
            legal = json.loads(payload)["legal"]
            answer = f"action {request_id} {random.Random(f'{seed}:{payload}').choice(legal)}\n"
            think += clock() - start
            requests += 1
            out.write(answer)
        elif command == "trickcore":
            # Stateless: it asks for no event lines (feature events off).
            out.write("id name random\nid author trickcore\noption seed int 0 0 4294967295\n"
                      "feature events off\ntrickcoreok 1\n")
        elif command == "setoption":
            key, _, value = rest.partition(" ")
            if key == "seed":
                seed = int(value)
            continue
        elif command == "isready":
            out.write(f"readyok {rest}\n")
        elif command == "quit":
            break
        else:
            continue  # newgame, event, gameover and future commands need no answer
        out.flush()
    timing = os.environ.get("TRICKCORE_BOT_TIMING")
    if timing:
        with open(timing, "a", encoding="utf-8") as fh:
            fh.write(f"{think!r} {requests}\n")


if __name__ == "__main__":
    main()
