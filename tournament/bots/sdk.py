"""Turn a Python function ``choose(view, legal) -> option`` into a protocol-speaking bot.

Standard library only (no trickcore import), so a bot built on it runs anywhere::

    from tournament.bots.sdk import run

    def choose(view, legal):
        return legal[0]

    if __name__ == "__main__":
        run(choose, name="first-option")

For bots that track state or take options, subclass :class:`Bot` instead and pass an
instance to :func:`run`.  The protocol itself is specified in docs/protocol.md.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any, Callable, TextIO

PROTOCOL_VERSION = 1


class Option:
    """A typed option the bot declares in its handshake (see docs/protocol.md, "option")."""

    def __init__(self, name: str, type: str, default: Any, minimum=None, maximum=None, choices=()):
        self.name, self.type, self.default = name, type, default
        self.minimum, self.maximum, self.choices = minimum, maximum, tuple(choices)

    def declaration(self) -> str:
        default = ("true" if self.default else "false") if self.type == "bool" else str(self.default)
        words = ["option", self.name, self.type, default]
        if self.minimum is not None:
            words += [str(self.minimum), str(self.maximum)]
        words += list(self.choices) if self.type == "choice" else []
        return " ".join(words)

    def parse(self, text: str) -> Any:
        if self.type == "bool":
            return text == "true"
        if self.type == "int":
            return int(text)
        if self.type == "float":
            return float(text)
        return text


class Bot:
    """Override :meth:`choose`; the other hooks are optional."""

    name = "python-bot"
    author = ""
    declared_options: tuple[Option, ...] = ()

    def __init__(self) -> None:
        self.options = {o.name: o.default for o in self.declared_options}
        self.game: dict = {}

    def new_game(self, game: dict) -> None:
        """``game`` is the newgame payload: game, options, players, seat, names, teams, settings."""
        self.game = game

    def event(self, event: dict) -> None:
        """An event the seat may see (for bots that track state; the view has it all anyway)."""

    def choose(self, view: dict, legal: list[str], request: dict) -> str:
        raise NotImplementedError

    def game_over(self, result: dict) -> None:
        """Final scores and ranks of the game."""


class _FunctionBot(Bot):
    def __init__(self, function: Callable[[dict, list[str]], str], name: str, author: str):
        super().__init__()
        self.function, self.name, self.author = function, name, author

    def choose(self, view, legal, request):
        return self.function(view, legal)


def run(bot: Bot | Callable[[dict, list[str]], str], name: str = "python-bot", author: str = "",
        stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Speak the protocol on stdin/stdout until ``quit`` or end of input."""
    if not isinstance(bot, Bot):
        bot = _FunctionBot(bot, name, author)
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout

    def send(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    declared = {o.name: o for o in bot.declared_options}
    for raw in stdin:
        command, _, rest = raw.rstrip("\r\n").partition(" ")
        if command == "trickcore":
            send(f"id name {bot.name}")
            if bot.author:
                send(f"id author {bot.author}")
            for option in bot.declared_options:
                send(option.declaration())
            send(f"trickcoreok {PROTOCOL_VERSION}")
        elif command == "setoption":
            key, _, value = rest.partition(" ")
            if key in declared:
                bot.options[key] = declared[key].parse(value)
        elif command == "isready":
            send("readyok " + rest)
        elif command == "newgame":
            bot.new_game(json.loads(rest))
        elif command == "event":
            bot.event(json.loads(rest))
        elif command == "request":
            request_id, _count, payload = rest.split(" ", 2)
            request = json.loads(payload)
            send(f"action {request_id} {bot.choose(request['view'], request['legal'], request)}")
        elif command == "gameover":
            bot.game_over(json.loads(rest))
        elif command == "quit":
            return


def seeded_choice(legal: list[str], *seed_parts: Any) -> str:
    """A random option that is a pure function of ``seed_parts`` (reproducible tournaments)."""
    return random.Random(json.dumps(seed_parts, sort_keys=True, default=str)).choice(legal)
