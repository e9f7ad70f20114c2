"""Klaberjass: dense actions and the tensor of a seat's view (docs/games/klaberjass.md,
"Tensor encoding"; the view is the one of docs/rules/klaberjass.md §12).

Cards (C = 32): id order, suit-major (C D H S), ranks 7 8 9 T J Q K A."""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from trickcore.encodings.base import CardEncoding
from trickcore.games import klaberjass as kj

CALL_ROUNDS = ("orgi", "kleines", "besser", "name")
CALLS = ("pass", "take", "kleines", "besser") + tuple(kj.SUITS)
#: Deals assumed when the match has no deal limit (max_game_length only).
UNLIMITED_DEALS = 1000


class KlaberjassEncoding(CardEncoding):
    game = "klaberjass"
    DECISIONS = ("take", "kleines", "besser", "trump", "exchange", "meld", "kontra", "re", "play")

    def __init__(self, players: int, options: dict[str, Any]):
        self._cards_setup(kj.CARD_NAMES)
        super().__init__(players, options)

    def _action_ids(self) -> Iterable[int]:
        yield from range(kj.N_CARDS)
        yield from (kj.A_TAKE, kj.A_PASS, kj.A_KLEINES, kj.A_BESSER)
        yield from (kj.A_NAME + s for s in range(4))
        yield from (kj.A_EXCHANGE, kj.A_KEEP, kj.A_DECLARE, kj.A_KONTRA, kj.A_RE)
        yield from (kj.A_BELLE + c for c in range(kj.N_CARDS))

    def _layout(self) -> None:
        n, c = self.players, self.n_cards
        self._common_layout()
        self.o_deal = self._field("deal", (2,), "the deal number and the target die score (raw)")
        self.o_dealer = self._field("dealer", (n,), "one-hot: relative seat of the dealer")
        self.o_forehand = self._field("forehand", (n,), "one-hot: relative seat of forehand")
        self.o_packet = self._field("packet", (1,), "cards in the observer's unseen face-down packet (2 players)")
        self.o_turned = self._field("turned", (c,), "the turned card")
        self.o_stack_top = self._field("stack_top", (c,), "the top card of the dead stack (2 and 3 players)")
        self.o_calls = self._field("calls", (len(CALL_ROUNDS), n, len(CALLS)),
                                   "trump calls: [round (" + ", ".join(CALL_ROUNDS) + "), relative seat, call ("
                                   + ", ".join(CALLS) + ")]")
        self.o_kleines = self._field("kleines", (n,), "one-hot: relative seat that called kleines")
        self.o_trump = self._field("trump", (4,), "one-hot: the trump suit (C, D, H, S) once fixed")
        self.o_declarer = self._field("declarer", (n,), "one-hot: relative seat that fixed trump")
        self.o_exchange = self._field("exchange", (n + 1,),
                                      "one-hot relative seat asked to exchange the 7, then 1 if it exchanged")
        self.o_meld_calls = self._field("meld_calls", (n, 2), "per relative seat: has answered, has declared")
        self.o_melds = self._field("melds", (n, c), "cards of each relative seat's declared melds")
        self.o_my_melds = self._field("my_melds", (c,), "cards of the observer's melds while it is asked to meld")
        self.o_best = self._field("best_meld", (n + 1,), "one-hot relative seat of the best meld, then its value")
        self.o_meld_points = self._field("meld_points", (n,), "meld points of each relative seat")
        self.o_doubling = self._field("doubling", (n, 2), "per relative seat: said kontra, said re")
        self.o_mult = self._field("multiplier", (1,), "the deal's multiplier")
        self.o_belle = self._field("belle", (n, c), "the Belle card and who announced it")
        self.o_points = self._field("points_won", (n,), "card points each relative seat won this deal")

    def _encoder(self, compiled: ModuleType) -> Any:
        ci = self.card_index
        return compiled.KlaberjassEncoder(self, kj.KlaberjassState, [ci[name] for name in kj.CARD_NAMES], CALL_ROUNDS,
                                      CALLS, kj._DECISION)

    def score_bounds(self) -> tuple[float, float]:
        return 0.0, 6.0

    def max_game_length(self) -> int:
        deals = self.options["max_deals"] or UNLIMITED_DEALS
        # per deal: calls (four rounds), exchange, melds, kontra and re, 9 cards each
        return deals * (4 * self.players + 1 + self.players + 2 + 9 * self.players)
