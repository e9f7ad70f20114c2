"""A game step by step as seats saw it: the one walker of recorded and live games.

A :class:`Step` is the game after one decision: who made it, what kind it was, the options and
the choice, and for every watched seat its view (``GameState.observation(seat)``) and the events
it was sent with this step (``GameState.events_for(seat)``, the stream its bot got).  Step 0 is
the game as dealt.  :func:`walk` replays a recorded game that way; :class:`SeatWatch` gives the
same steps of a game being played, after each action the referee applies.

The text replay (``trickcore replay``), the replay viewer (tournament/replay_html.py) and the
page of ``trickcore play`` are built from these steps, so what a seat is shown is computed in
one place.  A seat's view and events hold only what that seat may see; the mover, the options
and the choice are the organiser's knowledge, which each reader shows or hides.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from trickcore.game import GameState


@dataclasses.dataclass(frozen=True)
class Step:
    number: int  # decisions made so far: 0 is the game as dealt
    mover: int | None  # the seat that made this step's decision (None at step 0)
    decision: str | None  # the kind of that decision ("bid", "play", ...)
    legal: list[str]  # the options the mover had
    action: str | None  # the option chosen
    to_move: int  # the seat to move after the step
    next: str  # the kind of decision it faces
    views: dict[int, dict[str, Any]]  # watched seat -> its observation after the step
    events: dict[int, list[dict[str, Any]]]  # watched seat -> the events it was sent with the step


class SeatWatch:
    """What the watched ``seats`` of ``state`` have been shown, step by step: call :meth:`step`
    once for the game as it stands and then after every action applied to ``state``."""

    def __init__(self, state: GameState, seats: Sequence[int]) -> None:
        self.state = state
        self.seats = list(seats)
        self.cursors = dict.fromkeys(self.seats, 0)
        self.number = 0

    def step(self, mover: int | None = None, decision: str | None = None, legal: Sequence[str] = (),
             action: str | None = None) -> Step:
        """The step just made (the first call: the game as it stands, with every event so far)."""
        state = self.state
        if mover is not None:
            self.number += 1
        events: dict[int, list[dict[str, Any]]] = {}
        for seat in self.seats:
            events[seat], self.cursors[seat] = state.events_for(seat, self.cursors[seat])
        return Step(self.number, mover, decision, list(legal), action, state.current_player(), state.decision(),
                    {seat: state.observation(seat) for seat in self.seats}, events)


def walk(state: GameState, history: Iterable[str], seats: Sequence[int]) -> Iterator[Step]:
    """Replay ``history`` on ``state`` (a game as dealt, e.g. ``replay({**record, "history": []})``):
    step 0, then one step per action.  ``state`` ends as the last step left it."""
    watch = SeatWatch(state, seats)
    yield watch.step()
    for action in history:
        mover, decision, legal = state.current_player(), state.decision(), state.legal_action_strings()
        state.apply_action(action)
        yield watch.step(mover, decision, legal, action)
