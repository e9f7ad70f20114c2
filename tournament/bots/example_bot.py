#!/usr/bin/env python3
"""The example bot of docs/protocol.md: plays a random legal option.

Needs nothing but Python's standard library: everything it must know arrives in
each request (the seat's view and the list of legal options).
"""
import json
import random
import sys


def send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()  # a line the runner never sees is a timeout


for raw in sys.stdin:
    words = raw.rstrip("\r\n").split(" ", 3)
    command = words[0]
    if command == "trickcore":  # handshake: introduce yourself, then say ok
        send("id name example-bot")
        send("id author trickcore docs")
        send("trickcoreok 1")
    elif command == "isready":  # readiness barrier: echo the token
        send("readyok " + words[1])
    elif command == "request":  # request <id> <count> <json>
        request = json.loads(words[3])
        rng = random.Random(words[3])  # seeded by the request: same view, same move
        send(f"action {words[1]} {rng.choice(request['legal'])}")
    elif command == "quit":
        break
    # newgame, event, gameover, setoption and unknown commands need no answer
