"""The least a referee can do: the second reference point of the runner benchmark.

    python bench/minimal_referee.py GAME PLAYERS GAMES CPU BOT_COMMAND_JSON TIMING_FILE [VIEW]

A pipe ping-pong (the benchmark's floor) exchanges two short lines and does nothing else.
A referee of this protocol cannot be that cheap: for every decision it must send the
seat's complete view as JSON and apply the reply to the game.  This program is that
referee and nothing more -- no records, no transcripts, no timing per action, no fault
handling, no time control, no events (the bundled random bot asks for none) -- written as
tightly as Python allows:

* per game: ``newgame`` and a readiness barrier to every bot, then ``gameover``;
* per decision: the request (the same JSON as the runner's: decision, legal, seat, time,
  view), one ``write``, ``poll``, ``read``, the reply's option applied to the state.

It plays ``GAMES`` games of ``GAME`` with one process per seat (the command, pinned to
``CPU`` with this process when ``CPU >= 0``) and prints JSON: the wall time of the games
(start-up and handshakes excluded, as the runner benchmark excludes ``setup_s``), the
decisions, its own CPU time.  The bots write their
think times to ``TIMING_FILE`` (``TRICKCORE_BOT_TIMING``) when they exit.

``VIEW`` is ``full`` (the default: ``GameState.observation(seat)``, as the protocol
requires) or ``empty`` (``{}``): an experiment that shows what is left when the view costs
nothing -- the round trip, the legal options and applying the reply.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time

import orjson

from tournament.wire import ORJSON_OPTIONS as _OPTIONS  # the runner's own encoding
from trickcore.games import new_game


class _Bot:
    def __init__(self, command: list[str], env: dict[str, str]):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        assert self.proc.stdin is not None and self.proc.stdout is not None  # PIPE
        self.fin, self.fout = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        self.poller = select.poll()
        self.poller.register(self.fout, select.POLLIN | select.POLLHUP)
        self.buffer = b""

    def line(self) -> bytes:
        while b"\n" not in self.buffer:
            if not self.poller.poll(10_000):
                raise RuntimeError("a bot did not answer within 10 s")
            data = os.read(self.fout, 65536)
            if not data:
                raise RuntimeError("a bot closed its stdout")
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def barrier(self, token: int, *preceding: bytes) -> None:
        os.write(self.fin, b"".join(preceding) + b"isready %d\n" % token)
        while self.line() != b"readyok %d" % token:
            pass


def play(game: str, players: int, seed: int, bots: list[_Bot], empty_view: bool = False) -> int:
    state = new_game(game, players, {}, seed)
    for seat, bot in enumerate(bots):
        bot.barrier(seed, b"newgame " + orjson.dumps({"game": game, "options": state.options, "players": players,
                                                      "seat": seat}, option=_OPTIONS) + b"\n")
    request_id = decisions = 0
    budget = {"decision_ms": 1000.0, "game_left_ms": None}
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_action_strings()
        request_id += 1
        payload = {"decision": state.decision(), "legal": legal, "seat": seat, "time": budget,
                   "view": {} if empty_view else state.observation(seat)}
        bot = bots[seat]
        os.write(bot.fin, b"request %d %d " % (request_id, len(legal)) + orjson.dumps(payload, option=_OPTIONS)
                 + b"\n")
        _action, _id, option = bot.line().decode().split(" ", 2)
        if option.startswith("#"):
            option = legal[int(option[1:])]
        state.apply_action(state.string_to_action(option))
        decisions += 1
    result = orjson.dumps({"scores": state.scores(), "ranks": state.ranks()}, option=_OPTIONS)
    for bot in bots:
        os.write(bot.fin, b"gameover " + result + b"\n")
    return decisions


def main(argv: list[str]) -> None:
    game, players, games, cpu, command, timing = (argv[0], int(argv[1]), int(argv[2]), int(argv[3]),
                                                 json.loads(argv[4]), argv[5])
    view = argv[6] if len(argv) > 6 else "full"
    if view not in ("full", "empty"):
        raise SystemExit(f"VIEW must be full or empty, not {view!r}")
    if cpu >= 0:
        os.sched_setaffinity(0, {cpu})  # the bots inherit it: the whole table on one CPU
    env = {**os.environ, "TRICKCORE_BOT_TIMING": timing}
    bots = [_Bot(command, env) for _ in range(players)]
    for i, bot in enumerate(bots):
        os.write(bot.fin, b"trickcore 1\nsetoption seed %d\n" % i)
        bot.barrier(1)
    new_game(game, players, {}, 0)  # imports and first-use costs, outside the measurement
    t0, c0 = time.perf_counter(), time.process_time()
    decisions = sum(play(game, players, seed, bots, view == "empty") for seed in range(1, games + 1))
    wall, cpu_s = time.perf_counter() - t0, time.process_time() - c0
    for bot in bots:
        os.write(bot.fin, b"quit\n")
        bot.proc.wait(timeout=10)
    print(json.dumps({"wall_s": wall, "cpu_s": cpu_s, "decisions": decisions}))


if __name__ == "__main__":
    main(sys.argv[1:])
