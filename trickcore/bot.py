"""Write a trickcore bot in Python: a function ``choose(view, legal) -> option`` becomes a
program that speaks the bot protocol (docs/protocol.md) on stdin/stdout::

    from trickcore.bot import run

    def choose(view, legal):
        return legal[0]

    if __name__ == "__main__":
        run(choose, name="first-option")

``view`` is the seat's complete current view (its information set, exactly
``GameState.observation(seat)``) and ``legal`` the legal options in the game's notation.
Return one of them (or its index, an ``int``).  The helper answers the handshake, the
readiness barriers and ``quit`` itself and ignores what a stateless bot does not need.

For options, per-game state or events, subclass :class:`Bot` and pass an instance to
:func:`run`.  The module itself needs only the standard library and ``trickcore.protocol``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from typing import Any, TextIO

from trickcore.protocol import OPTION_TYPES, PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION", "Bot", "Option", "run", "seeded_choice"]

#: A JSON object of the protocol (a view, a request, a newgame or gameover payload, an event).
Payload = dict[str, Any]
#: ``choose(view, legal) -> option text or index``.
ChooseFunction = Callable[[Payload, list[str]], "str | int"]


class Option:
    """A typed option the bot declares in its handshake (docs/protocol.md section 2.2), e.g.
    ``Option("depth", "int", 3, 1, 10)`` or ``Option("style", "choice", "safe", choices=("safe", "wild"))``.
    The tournament config sets it; the value arrives in ``Bot.options[name]``."""

    TYPES = OPTION_TYPES

    def __init__(self, name: str, type: str, default: Any, minimum: float | None = None, maximum: float | None = None,
                 choices: tuple[str, ...] | list[str] = ()) -> None:
        if type not in self.TYPES:
            raise ValueError(f"option {name!r}: type must be one of {', '.join(self.TYPES)}, not {type!r}")
        if " " in name or not name:
            raise ValueError(f"option name {name!r} must be one word")
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
    """A bot with hooks.  Override :meth:`choose`; the other hooks are optional.

    ``self.game`` holds the current game's ``newgame`` payload (game, options, players,
    seat, names, teams, settings) and ``self.options`` the option values."""

    name = "python-bot"
    author = ""
    declared_options: tuple[Option, ...] = ()

    def __init__(self) -> None:
        self.options = {o.name: o.default for o in self.declared_options}
        self.game: Payload = {}

    def new_game(self, game: Payload) -> None:
        """A game starts; ``game`` is the newgame payload."""
        self.game = game

    def event(self, event: Payload) -> None:
        """An event this seat may see (for bots that track state; each request's view has it
        all anyway).  Events are only parsed when a subclass overrides this method."""

    def choose(self, view: Payload, legal: list[str], request: Payload) -> str | int:
        """Return one of ``legal`` (or its 0-based index).  ``request`` is the whole request:
        decision, legal, view, seat, time."""
        raise NotImplementedError

    def game_over(self, result: Payload) -> None:
        """The game ended: ``result`` has scores, ranks and forfeited seats."""


class _FunctionBot(Bot):
    def __init__(self, function: ChooseFunction, name: str, author: str) -> None:
        super().__init__()
        self.function, self.name, self.author = function, name, author

    def choose(self, view: Payload, legal: list[str], request: Payload) -> str | int:
        return self.function(view, legal)


def run(bot: Bot | ChooseFunction, name: str = "python-bot", author: str = "",
        stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Speak the protocol on stdin/stdout (or the given streams) until ``quit`` or end of input.

    ``bot`` is a function ``choose(view, legal)`` (named ``name``) or a :class:`Bot`."""
    if not isinstance(bot, Bot):
        if not callable(bot):
            raise TypeError(f"run() needs a function choose(view, legal) or a Bot, not {type(bot).__name__}")
        bot = _FunctionBot(bot, name, author)
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout

    def send(text: str) -> None:
        out.write(text + "\n")
        out.flush()  # a line that stays in the buffer never arrives: a timeout

    declared = {o.name: o for o in bot.declared_options}
    wants_events = type(bot).event is not Bot.event
    for raw in stdin:
        command, _, rest = raw.rstrip("\r\n").partition(" ")
        if command == "request":
            request_id, _count, payload = rest.split(" ", 2)
            request = json.loads(payload)
            choice = bot.choose(request["view"], request["legal"], request)
            if isinstance(choice, int) and not isinstance(choice, bool):
                choice = f"#{choice}"
            send(f"action {request_id} {choice}")
        elif command == "event":
            if wants_events:
                bot.event(json.loads(rest))
        elif command == "isready":
            send("readyok " + rest)
        elif command == "newgame":
            bot.new_game(json.loads(rest))
        elif command == "gameover":
            bot.game_over(json.loads(rest))
        elif command == "setoption":
            key, _, value = rest.partition(" ")
            if key in declared:
                bot.options[key] = declared[key].parse(value)
        elif command == "trickcore":
            lines = [f"id name {bot.name}"]
            if bot.author:
                lines.append(f"id author {bot.author}")
            lines += [option.declaration() for option in bot.declared_options]
            if not wants_events:
                lines.append("feature events off")  # every request carries the whole view anyway
            lines.append(f"trickcoreok {PROTOCOL_VERSION}")
            send("\n".join(lines))
        elif command == "quit":
            return
        # anything else: a command of a later protocol version, ignored


def seeded_choice(legal: list[str], *seed_parts: Any) -> str:
    """A random option that is a pure function of ``seed_parts`` (reproducible tournaments)."""
    return random.Random(json.dumps(seed_parts, sort_keys=True, default=str)).choice(legal)
