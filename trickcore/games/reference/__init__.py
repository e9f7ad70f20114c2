"""Game authors: docs/contributing.md (section 5) has the conventions, the notation and the test
checklist for game modules.

Reference game: the plain trick-taking game of the benchmarks.

4 players x 13 cards of a 52-card deck, a trump suit drawn at random, must follow
suit, no bidding; one deal, each trick won scores 1.  It is the game the
benchmark floor loop (bench/floor.c) plays, and the smallest complete example of
the game interface: a game module describes the flow, the C core plays the tricks.

Action ids: 0..51 card plays (suit * 13 + rank, suits S H D C, ranks 2..A).
Notation: rank then suit, e.g. ``AS``, ``TH`` (docs/notation.md).

State fields the encoder reads (``enc.state_tensor``, trickcore/encodings/_fast.pyx; the other
games list theirs in their player pages), besides the trick phase:

- ``num_players``: the player count (it must be the encoding's).
- ``previous_phase``: the trick phase that ended last (None until the only one ends).
- ``trump``: the trump suit, 0..3 for S H D C, drawn from the seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trickcore import _core
from trickcore._core import Rng
from trickcore.game import TERMINAL, GameInfo, GameState
from trickcore.games import french_faces, register

SUITS = "SHDC"
DECK = _core.reference_deck()


class ReferenceState(GameState):
    def __init__(self, num_players: int = 4, options: dict[str, Any] | None = None, seed: int = 0):
        super().__init__(num_players, options, seed)
        rng = Rng(seed)
        self.trump = rng.below(4)
        hands, _rest = rng.deal(DECK.all, 4, 13)
        self._event({"type": "deal", "trump": SUITS[self.trump]})
        self._emit_hands("hand", hands, DECK.names_of)
        self._tricks: list[int] | None = None
        self._start_play(DECK, _core.FOLLOW_SUIT, _core.WIN_TRUMP, self.trump, hands, 0, 13)

    def _current_player(self) -> int:
        return TERMINAL

    def decision(self) -> str:
        return "" if self.is_terminal() else "play"

    def _legal(self) -> list[int]:
        return []

    def action_to_string(self, action: int) -> str:
        return DECK.move_text(action)

    def _parse(self, text: str) -> int:
        return DECK.parse_move(text)

    def _apply(self, action: int) -> None:  # every action is a card play
        raise AssertionError("unreachable: the reference game has only card plays")

    def _play_over(self) -> None:
        self._tricks = self._trick_phase.tricks_won()
        self._event({"type": "game_end", "scores": self.scores()})

    def _is_terminal(self) -> bool:
        return self._tricks is not None

    def deal_number(self) -> int:
        return 1           # one deal per game

    def scores(self) -> list[float]:
        return [float(t) for t in (self._tricks if self._tricks is not None else self._trick_phase.tricks_won())]

    def observation(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        tp = self._trick_phase
        leader, moves, _led, _open = tp.current_trick()
        return {
            "last_trick": self.last_trick(),
            "game": "reference", "seat": seat, "trump": SUITS[self.trump],
            "hand": DECK.names_of(tp.hand(seat)),
            "trick": {"leader": leader, "cards": [DECK.move_text(m) for m in moves]},
            "tricks": self._described_tricks(tp, _describe_trick),
            "tricks_won": tp.tricks_won(),
            "to_move": self.current_player(),
        }


def _describe_trick(t: tuple[Any, ...]) -> dict[str, Any]:
    return {"leader": t[0], "cards": [DECK.move_text(m) for m in t[1]], "winner": t[2]}


def _deck(players: int, options: Mapping[str, Any]) -> _core.Deck:
    """GameInfo.deck: the 52 cards."""
    return DECK


GAME_INFO = register(GameInfo(
    name="reference", title="Reference game (benchmark)", players=(4,), options=(),
    factory=ReferenceState, deck=_deck, faces=french_faces,
    encoding="trickcore.games.reference.encoding:ReferenceEncoding",
    table="trickcore.games.reference.table:TABLE",
    summary="4x13 cards, random trump, must follow suit; the benchmark reference game"))
