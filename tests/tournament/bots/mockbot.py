#!/usr/bin/env python3
"""A random bot that misbehaves on request, to test runners (like fastchess's test engines).

Standard library only.  Misbehaviours start at request number ``--at N`` (1-based,
counted over the process's life) and, unless said otherwise, last for that one request:

  --crash            exit with code 3 instead of answering
  --hang             stop reading and answering (sleeps forever, also ignores isready)
  --slow MS          sleep MS milliseconds before every answer from request N on
  --flood lines|long|wide  print 100000 info lines, or one 10 MB line, or 1001 info lines of
                     --flood-bytes characters (default 60000), instead of answering
  --garbage          print binary bytes instead of answering
  --illegal          answer with an option that is not legal
  --stale-id         answer with the previous request id (the real answer never comes)
  --future-id        answer with a request id that was never sent (a protocol error)
  --close-stdin      close stdin and sleep (the runner's next write fails)
  --bad-handshake    answer the handshake with an unsupported protocol version
  --no-handshake     never answer the handshake (stays alive)
  --die-at-start     exit before the handshake
  --fork-exit        start a child that keeps stdout open, then exit before the handshake
  --unknown          print unknown lines before every answer
  --crlf             end every line with CR LF
  --index            answer with '#k' (an index into the legal options) instead of the text
  --options          declare one option of each type
  --record FILE      append every line received to FILE
  --kill-parent-once FILE  SIGKILL the process that started the bot (its table) unless FILE
                     exists, creating FILE first: the table dies once, mid-game
  --events VALUE     say 'feature events VALUE' in the handshake (off, on, or anything to test)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--at", type=int, default=1)
    for flag in ("crash", "hang", "garbage", "illegal", "stale-id", "future-id", "close-stdin", "bad-handshake",
                 "no-handshake", "die-at-start", "fork-exit", "unknown", "crlf", "index", "options"):
        p.add_argument(f"--{flag}", action="store_true")
    p.add_argument("--slow", type=float, default=0.0)
    p.add_argument("--flood", choices=("lines", "long", "wide"))
    p.add_argument("--flood-bytes", type=int, default=60000)
    p.add_argument("--record")
    p.add_argument("--kill-parent-once")
    p.add_argument("--events")
    p.add_argument("--name", default="mockbot")
    args = p.parse_args(argv)

    end = "\r\n" if args.crlf else "\n"
    out = sys.stdout

    def send(line: str) -> None:
        out.write(line + end)
        out.flush()

    if args.die_at_start:
        print("mockbot: dying at start", file=sys.stderr)
        return 2
    if args.fork_exit:
        if os.fork() == 0:  # the child inherits stdout and keeps it open for a minute
            time.sleep(60)
            os._exit(0)
        print("mockbot: exiting, a child keeps stdout open", file=sys.stderr)
        return 3
    record = open(args.record, "a", encoding="utf-8") if args.record else None
    requests = 0
    for raw in sys.stdin:
        if record:
            record.write(raw)
            record.flush()
        command, _, rest = raw.rstrip("\r\n").partition(" ")
        if command == "trickcore":
            if args.no_handshake:
                continue
            send(f"id name {args.name}")
            send("id author trickcore tests")
            if args.options:
                for decl in ("option depth int 3 1 10", "option temperature float 0.5 0 1",
                             "option verbose bool false", "option style choice safe safe wild",
                             "option label string hello world"):
                    send(decl)
            if args.events is not None:
                send(f"feature events {args.events}")
            send("trickcoreok 99" if args.bad_handshake else "trickcoreok 1")
        elif command == "isready":
            send(f"readyok {rest}")
        elif command == "request":
            requests += 1
            request_id, _count, payload = rest.split(" ", 2)
            legal = json.loads(payload)["legal"]
            choice = random.Random(payload).choice(legal)
            active = requests == args.at
            print(f"mockbot: request {request_id} ({requests}), legal {legal}", file=sys.stderr, flush=True)
            if args.unknown:
                send("hello runner, this is not a command")
                send("# neither is this")
            if requests >= args.at and args.slow:
                time.sleep(args.slow / 1000)
            if active and args.kill_parent_once:
                try:
                    open(args.kill_parent_once, "x").close()
                except FileExistsError:
                    pass
                else:
                    print("mockbot: killing my table process on purpose", file=sys.stderr, flush=True)
                    os.kill(os.getppid(), 9)
            if active and args.crash:
                print("mockbot: crashing on purpose", file=sys.stderr, flush=True)
                return 3
            if active and args.hang:
                while True:
                    time.sleep(3600)
            if active and args.flood == "lines":
                for i in range(100000):
                    out.write(f"info flood line {i}{end}")
                out.flush()
                continue
            if active and args.flood == "wide":
                line = "info " + "w" * args.flood_bytes + end
                for _ in range(1001):
                    out.write(line)
                out.flush()
                continue
            if active and args.flood == "long":
                out.write("info " + "x" * 10_000_000 + end)
                out.flush()
                continue
            if active and args.garbage:
                sys.stdout.buffer.write(b"\x00\xff\xfe\x01garbage\x80\n")
                sys.stdout.buffer.flush()
                continue
            if active and args.illegal:
                send(f"action {request_id} NOT-AN-OPTION")
                continue
            if active and args.stale_id:
                send(f"action {int(request_id) - 1} {choice}")
                continue
            if active and args.future_id:
                send(f"action {int(request_id) + 1000} {choice}")
                continue
            if active and args.close_stdin:
                os.close(0)
                while True:
                    time.sleep(3600)
            if args.index:
                send(f"action {request_id} #{legal.index(choice)}")
            else:
                send(f"action {request_id} {choice}")
        elif command == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
