"""What sits in a seat: the one protocol between the referee and a seat's player.

The referee (tournament/match.py) asks a seat's :class:`Player` for its answer to each of the
seat's decisions and parses and applies every answer itself; a bot's session
(:class:`~tournament.session.BotSession`, over the wire protocol) and a person's page
(``trickcore play``, tournament/play.py) are the two players.  Like fastchess's player between a
match and an engine process, or OpenSpiel's bots and its human bot, the referee does not know
which one it asks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Protocol

from trickcore.game import GameState


@dataclasses.dataclass(slots=True)
class Decision:
    """One decision put to a seat."""

    seat: int
    kind: str  # GameState.decision(): "bid", "play", ...
    legal: list[str]  # the options, as action texts
    view: dict[str, Any]  # GameState.observation(seat): what the seat may see
    budget_s: float  # the time control's seconds for it (a timed player's)
    game_left_ms: float | None  # what is left of the player's game budget, if the game has one
    events: list[str]  # the seat's event lines not yet delivered, sent with a bot's request
    # The referee's work that waiting for the answer can hide (immediate event delivery to the
    # other seats): the player calls it once the decision is put, before waiting.
    while_waiting: Callable[[], None] | None = None


@dataclasses.dataclass(slots=True)
class Answer:
    """A player's answer, not yet parsed: the referee parses it, and applies it if it is legal."""

    action: str  # the option as the player gave it (a bot's index reply already resolved)
    by: str  # who made it, as the game record says: "bot" or "person"
    think_ms: float  # from the decision put to the answer read
    received: float  # perf_counter when the answer came
    sent: float | None = None  # perf_counter just before a bot's request was written


class Player(Protocol):
    """A seat's player for one game: started, asked each of the seat's decisions, shown the game.

    ``ask`` and ``ready`` raise :class:`~tournament.session.BotFault` for anything that is not an
    answer (a crash, a timeout, a protocol error); the referee applies the fault's policy."""

    #: The time control applies (bots); a person's seat is never timed.
    timed: bool
    #: The player takes the wire protocol's ``event`` lines (a bot that did not turn them off).
    wants_events: bool

    def start(self, state: GameState, newgame: dict[str, Any]) -> None:
        """The game begins (``newgame``: the wire message of docs/protocol.md for this seat)."""

    def ready(self) -> None:
        """Return once the player is ready for the first decision (a bot's readiness barrier)."""

    def tell(self, *lines: str) -> None:
        """Wire lines for the seat: its events, ``gameover``."""

    def ask(self, decision: Decision) -> Answer:
        """The player's answer to ``decision``."""

    def seen(self, state: GameState, mover: int) -> None:
        """After every action of the game (``mover``'s) is applied."""

    def fault_seen(self, fault: dict[str, Any]) -> None:
        """A fault of any seat of the game, as the game record holds it."""
