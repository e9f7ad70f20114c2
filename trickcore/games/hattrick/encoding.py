"""Hattrick: dense actions and the tensor of a seat's view (docs/games/hattrick.md, "Tensor
encoding"; the view is the one of docs/rules/sticheln.md §7.2).

Cards (C): the cards in use for the player count (§1.3), in id order (R, B, G; value)."""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from trickcore.encodings.base import CardEncoding
from trickcore.games import hattrick as ht

PLAY_KINDS = ("open", "join", "pass")


class HattrickEncoding(CardEncoding):
    game = "hattrick"
    DECISIONS = ("play",)

    def __init__(self, players: int, options: dict[str, Any]):
        low, self.hand_size = ht.SETUP[players]
        self.used = [ht.card_id(col, v) for col in range(3) for v in range(low, ht.TOP + 1)]
        self._cards_setup([ht.DECK.names[c] for c in self.used])
        super().__init__(players, options)

    def _action_ids(self) -> Iterable[int]:
        return self.used

    def _layout(self) -> None:
        n, c = self.players, self.n_cards
        self._common_layout()
        self.o_kind = self._field("trick_plays", (n, len(PLAY_KINDS)),
                                  "what each relative seat's card in the open double trick did: "
                                  + ", ".join(PLAY_KINDS))
        self.o_open = self._field("open_colours", (2, 3),
                                  "row 0: colour of the first open trick, row 1: of the second (R, B, G)")
        self.o_winner2 = self._field("last_trick_winner2", (n,),
                                     "one-hot: relative seat that won the second trick of last_trick, if any")
        self.o_game = self._field("game", (2,), "the game number and the number of games of the match")
        self.o_dealer = self._field("dealer", (n,), "one-hot: relative seat of the dealer")
        self.o_first = self._field("game_leader", (n,), "one-hot: relative seat that led the game's first trick")
        self.o_stacks = self._field("won", (n, c), "cards in each relative seat's stacks (won cards)")
        self.o_passed = self._field("passed", (n, c), "each relative seat's pass cards")
        self.o_current = self._field("current_scores", (n,), "each relative seat's score of this game so far (H7)")

    def _encoder(self, compiled: ModuleType) -> Any:
        ci = self.card_index
        cards = [ci.get(name) for name in ht.DECK.names]
        return compiled.HattrickEncoder(self, ht.HattrickState, cards, [ht.colour_of(c) for c in range(ht.N_CARDS)])

    def score_bounds(self) -> tuple[float, float]:
        bound = float(3 * self.n_cards * self.options["games"])
        return -bound, bound

    def max_game_length(self) -> int:
        return int(self.options["games"]) * self.players * self.hand_size
