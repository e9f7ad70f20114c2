"""Sticheln, every variant: dense actions and the tensor of a seat's view
(docs/games/sticheln.md, "Tensor encoding"; the view is the one of docs/rules/sticheln.md §7).

Cards (C): the cards in use for the player count (§1.2), in id order (colour-major)."""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from trickcore import _core
from trickcore.encodings.base import CardEncoding
from trickcore.games import sticheln as st

COLOURS = st.COLOURS


class StichelnEncoding(CardEncoding):
    game = "sticheln"
    DECISIONS = ("layout", "play", "colour")

    def __init__(self, players: int, options: dict[str, Any]):
        self.used = _core.cards_list(st.USED[players])
        self.n_colours = st.SETUP[players][0]
        self._cards_setup([st.DECK.names[c] for c in self.used])
        super().__init__(players, options)

    def _action_ids(self) -> Iterable[int]:
        flags = self.options
        k = st.laid_per_player(flags)
        used = self.used
        yield from used
        if k == 1:
            yield from (st.LAYOUT + c for c in used)
        elif k == 2:
            yield from (st.CARD_PAIR + a * 128 + b for i, a in enumerate(used) for b in used[i + 1:])
        if flags.get("verspaetet"):
            cols = range(self.n_colours)
            yield from (st.COLOUR + c for c in cols)
            if flags.get("verschaerft"):
                yield from (st.COLOUR_PAIR + i * 6 + j for i in cols for j in cols if i < j)

    def _layout(self) -> None:
        n, c = self.players, self.n_cards
        self._common_layout()
        self.o_round = self._field("round", (2,), "the round and the number of rounds of the match")
        self.o_flags = self._field("flags", (len(st.FLAGS),), "1 for each variant rule in force, in the order "
                                   + ", ".join(st.FLAGS))
        self.o_dealer = self._field("dealer", (n,), "one-hot: relative seat of the dealer")
        self.o_first = self._field("round_leader", (n,), "one-hot: relative seat that led the round's first trick")
        self.o_laid = self._field("laid_out", (n, c),
                                  "laid-out cards by relative seat, as far as the view shows them")
        self.o_laid_n = self._field("laid_out_count", (n,), "laid-out cards of each relative seat (a count)")
        self.o_chosen = self._field("chosen", (n,), "1 where the relative seat has made its hidden choice")
        self.o_special = self._field("special_colours", (n, 6),
                                     "annoyance (lucky) colours of each relative seat, as far as shown, "
                                     "colours in the order " + ", ".join(COLOURS))
        self.o_choice = self._field("own_colour_choice", (6,), "the observer's own end-of-round colour choice")
        self.o_won_cards = self._field("won", (n, c), "cards each relative seat has won this round")

    def _encoder(self, compiled: ModuleType) -> Any:
        ci = self.card_index
        cards = [ci.get(name) for name in st.DECK.names]
        return compiled.StichelnEncoder(self, st.StichelnState, cards, st.FLAGS)

    def score_bounds(self) -> tuple[float, float]:
        used = self.used
        per_round = max(5 * len(used), sum(_core_value(c) for c in used) + len(used))
        bound = float(per_round * self.options["rounds"])
        return -bound, bound

    def max_game_length(self) -> int:
        return int(self.options["rounds"]) * self.players * (st.SETUP[self.players][2] + 2)


def _core_value(card: int) -> int:
    return int(st.DECK.points(card))
