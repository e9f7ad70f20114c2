"""Squint: dense actions and the tensor of a seat's view (docs/games/squint.md, "Tensor
encoding"; the view is the one of docs/rules/squint.md §10).

Cards (C = 52): id order, suit-major (C D H S), ranks 2..A."""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from trickcore.encodings.base import CardEncoding
from trickcore.games import squint as sq

KINDS = ("ace", "misere", "multiple", "grand", "plain", "duo", "null", "choice")
#: The largest score change of one deal (misère with every trick at the highest multiplier).
DEAL_BOUND = 1000


class SquintEncoding(CardEncoding):
    game = "squint"
    DECISIONS = ("bid", "choice", "squint", "discard", "pass", "play")

    def __init__(self, players: int, options: dict[str, Any]):
        self._cards_setup([sq.card_name(c) for c in range(52)])
        super().__init__(players, options)

    def _action_ids(self) -> Iterable[int]:
        cards = range(52)
        yield from cards
        yield from (sq.BID_BASE + c for c in cards)
        yield from (sq.DISCARD1_BASE + c for c in cards)
        yield from (sq.TAKE, sq.HAND, sq.SOLO, sq.NULL)
        yield from (sq.PAIR_BASE + a * 52 + b for a in cards for b in cards if a < b)

    def _layout(self) -> None:
        n, c = self.players, self.n_cards
        self._common_layout()
        self.o_deal = self._field("deal", (3,), "the deal number, the target score and the deal limit (raw)")
        self.o_dealer = self._field("dealer", (n,), "one-hot: relative seat of the dealer")
        self.o_bid = self._field("own_bid", (c,), "the observer's bid card once chosen")
        self.o_bids_chosen = self._field("bids_chosen", (n,), "1 where the relative seat has chosen its bid card")
        self.o_bids = self._field("bids", (n, c), "every relative seat's bid card, once all are revealed")
        self.o_kind = self._field("contract", (len(KINDS),), "one-hot: the contract, in the order " + ", ".join(KINDS))
        self.o_contractors = self._field("contractors", (n,), "1 for each relative seat among the contractors")
        self.o_trump = self._field("contract_trump", (4,), "one-hot: the trump suit (C, D, H, S), if any")
        self.o_penalty = self._field("contract_penalty", (4,), "one-hot: the Null penalty suit, if any")
        self.o_aces = self._field("aces", (n,), "relative seats that bid an Ace")
        self.o_deuces = self._field("deuces", (n,), "relative seats that bid a Deuce")
        self.o_offer = self._field("choice_suits", (2, 4),
                                   "a 4-1 choice: row 0 the solo trump suit, row 1 the Null penalty suit")
        self.o_squint = self._field("squint_decisions", (n, 2), "each relative seat's TAKE / HAND decision")
        self.o_mult = self._field("multiplier", (1,), "the deal's multiplier")
        self.o_squint_cards = self._field("squint_cards", (c,), "the squint cards the observer has seen")
        self.o_discards = self._field("discards", (c,), "the observer's own discards")
        self.o_passes = self._field("passes", (n,), "1 where the relative seat has passed cards (Null)")
        self.o_passed = self._field("passed", (c,), "cards the observer passed")
        self.o_received = self._field("received", (c,), "cards the observer received")
        self.o_null_discards = self._field("null_discards", (c,), "the dealer's face-up Null discards")
        self.o_clean = self._field("clean_tricks", (n,), "clean tricks of each relative seat (Null)")

    def _encoder(self, compiled: ModuleType) -> Any:
        ci = self.card_index
        return compiled.SquintEncoder(self, sq.SquintState, [ci[sq.card_name(c)] for c in range(52)], KINDS, sq.NO_SUIT)

    def _deals(self) -> int:
        limit, most = int(self.options["deal_limit"]), int(self.options["max_deals"])
        return min(limit, most) if limit else most

    def score_bounds(self) -> tuple[float, float]:
        bound = float(DEAL_BOUND * self._deals())
        return -bound, bound

    def max_game_length(self) -> int:
        # per deal: 5 bids, a 4-1 choice, squint decisions and discards, Null passes, 50 cards
        return 70 * self._deals()
