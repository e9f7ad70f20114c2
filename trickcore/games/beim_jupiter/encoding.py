"""Beim Jupiter: dense actions and the tensor of a seat's view (docs/games/beim_jupiter.md,
"Tensor encoding"; the view is the one of docs/rules/beim_jupiter.md §11).

Cards (C = 4 (M + 1) + 3): for each suit B R Y G the number cards 1..M and the God card, in the
deck's id order, then ``JUP``, ``JUNO`` and one index for every lamb (the lambs are alike:
``hand_lambs`` counts them)."""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from trickcore.encodings.base import CardEncoding
from trickcore.games import beim_jupiter as bj

BID_SLOTS = 2 * bj.MAX_T + 1          # T unlocked, T locked, the zero-tricks card
TRUMPS = ("B", "R", "Y", "G", "none")


class BeimJupiterEncoding(CardEncoding):
    game = "beim-jupiter"
    DECISIONS = ("colour", "bid", "play")

    def __init__(self, players: int, options: dict[str, Any]):
        d = bj.DECK_INFO[players]
        self.deck = d
        self._lambs = frozenset(d.lambs)
        names = [d.names[c] for c in range(d.n_cards) if not d.is_lamb[c]] + ["LAMB"]
        aliases = {f"{s}god={v}": f"{s}god" for s in bj.SUITS for v in bj.GOD_DECL}
        aliases.update({d.names[c]: "LAMB" for c in d.lambs})
        self._cards_setup(names, aliases)
        super().__init__(players, options)

    def _action_ids(self) -> Iterable[int]:
        d = self.deck
        for c in range(d.n_cards):
            yield c
            if d.is_god[c]:
                yield c | 128
            if d.is_number[c]:
                yield bj.COLOUR_BASE + c
        for t in range(1, bj.MAX_T + 1):
            yield bj.BID_BASE + t
            yield bj.LOCK_BASE + t
        yield bj.ZERO

    def _canonical(self, action: int) -> int:
        """Every lamb is one move: the engine offers the lowest lamb held (rule 2.2, TWIN)."""
        if action in self._lambs:
            return self.deck.lambs[0]
        return action

    def _layout(self) -> None:
        n, c = self.players, self.n_cards
        self._common_layout()
        self.o_lambs = self._field("hand_lambs", (1,), "number of lambs in the observer's hand")
        self.o_god = self._field("trick_god_high", (n,),
                                 "1 where the relative seat's card in the open trick is a God card declared 15")
        self.o_round = self._field("round", (bj.ROUNDS,), "one-hot: the round 1..8")
        self.o_t = self._field("tricks_this_round", (1,), "tricks this round (13 - round)")
        self.o_dealer = self._field("dealer", (n,), "one-hot: relative seat of the dealer")
        self.o_start = self._field("start_player", (n,), "one-hot: relative seat of the start player")
        self.o_colour = self._field("colour_cards", (n, c),
                                    "colour cards by relative seat: the observer's own once chosen, "
                                    "the others' after the reveal")
        self.o_chosen = self._field("colour_chosen", (n,), "1 where the relative seat has chosen its colour card")
        self.o_trump = self._field("trump", (len(TRUMPS),),
                                   "one-hot: trump suit B, R, Y, G or none (all 0 before the reveal)")
        self.o_bids = self._field("bids", (n, BID_SLOTS),
                                  "one-hot bid per relative seat: T-1 for T unlocked, 12+T-1 for T locked, "
                                  "24 for the zero-tricks card")
        self.o_table = self._field("table", (bj.MAX_T, c), "row T-1: the cards lying at trick count T")
        self.o_table_owner = self._field("table_owner", (bj.MAX_T, n),
                                         "row T-1: how many of the cards at count T each relative seat owns")
        self.o_table_locked = self._field("table_locked", (bj.MAX_T, n),
                                          "row T-1: how many locked cards at count T each relative seat owns")
        self.o_victory = self._field("victory_cards", (n, c), "each relative seat's victory cards")
        self.o_zero = self._field("zero_used", (n,), "1 where the relative seat has used its zero-tricks card")
        self.o_removed = self._field("removed_cards", (c,), "cards removed from the game (rule 8.1)")
        self.o_points = self._field("trick_points", (n,), "trick points each relative seat won this round")

    def _encoder(self, compiled: ModuleType) -> Any:
        d, ci = self.deck, self.card_index
        bids = [str(t) for t in range(1, bj.MAX_T + 1)] + [f"{t}+L" for t in range(1, bj.MAX_T + 1)] + ["ZERO"]
        return compiled.BeimJupiterEncoder(
            self, bj.BeimJupiterState, [ci[d.names[c]] for c in range(d.n_cards)], d.lambs, d.value,
            {b: _bid_slot(b) for b in bids}, BID_SLOTS, bj.MAX_T)

    def score_bounds(self) -> tuple[float, float]:
        m = bj.MAX_VALUE[self.players]
        return 0.0, float(4 * m * (m + 1) // 2)

    def max_game_length(self) -> int:
        n = self.players
        return sum(2 * n + n * bj.tricks_in_round(r) for r in range(1, bj.ROUNDS + 1))


def _bid_slot(text: str) -> int:
    if text == "ZERO":
        return 2 * bj.MAX_T
    if text.endswith("+L"):
        return bj.MAX_T + int(text[:-2]) - 1
    return int(text) - 1
