"""Squint: dense actions and the tensor of a seat's view (docs/games/squint.md, "Tensor
encoding"; the view is the one of docs/rules/squint.md §10).

Cards (C = 52): id order, suit-major (C D H S), ranks 2..A."""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from trickcore.encodings.base import CardEncoding
from trickcore.game import Observation
from trickcore.games import squint as sq

KINDS = ("ace", "misere", "multiple", "grand", "plain", "duo", "null", "choice")
SUITS = sq.SUITS
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

    def _fill(self, obs: Observation, ones: list[int], at: list[int], values: list[float]) -> None:
        self._fill_common(obs, ones, at, values)
        n, c, ci = self.players, self.n_cards, self.card_index
        me = obs["seat"]
        at += (self.o_deal, self.o_deal + 1, self.o_deal + 2, self.o_mult)
        values += (float(obs["deal"]), float(obs["target_score"]), float(obs["deal_limit"]),
                   float(obs["multiplier"]))
        self._seat(self.o_dealer, obs["dealer"], me, ones)
        if obs["bid"] is not None:
            ones.append(self.o_bid + ci[obs["bid"]])
        for s, chosen in enumerate(obs["bids_chosen"]):
            if chosen:
                ones.append(self.o_bids_chosen + (s - me) % n)
        if obs["bids"] is not None:
            for s, name in enumerate(obs["bids"]):
                ones.append(self.o_bids + (s - me) % n * c + ci[name])
        contract = obs["contract"]
        if contract is not None:
            ones.append(self.o_kind + KINDS.index(contract["kind"]))
            for s in contract["contractors"]:
                self._seat(self.o_contractors, s, me, ones)
            if contract["trump"] is not None:
                ones.append(self.o_trump + SUITS.index(contract["trump"]))
            if contract["penalty"] is not None:
                ones.append(self.o_penalty + SUITS.index(contract["penalty"]))
            for s in contract.get("aces", ()):
                self._seat(self.o_aces, s, me, ones)
            for s in contract.get("deuces", ()):
                self._seat(self.o_deuces, s, me, ones)
            if "solo_trump" in contract:
                ones.append(self.o_offer + SUITS.index(contract["solo_trump"]))
                ones.append(self.o_offer + 4 + SUITS.index(contract["null_penalty"]))
        for d in obs["squint_decisions"]:
            ones.append(self.o_squint + (d["seat"] - me) % n * 2 + (d["choice"] == "HAND"))
        self._card_set(self.o_squint_cards, obs["squint_cards"], ones)
        self._card_set(self.o_discards, obs["discards"], ones)
        for p in obs["passes"]:
            self._seat(self.o_passes, p["seat"], me, ones)
        self._card_set(self.o_passed, obs["passed"], ones)
        self._card_set(self.o_received, obs["received"], ones)
        self._card_set(self.o_null_discards, obs["null_discards"], ones)
        self._numbers(self.o_clean, obs.get("clean_tricks"), me, at, values)

    def _fast_encoder(self, fast: ModuleType) -> Any:
        ci = self.card_index
        return fast.SquintEncoder(self, sq.SquintState, [ci[sq.card_name(c)] for c in range(52)], KINDS, sq.NO_SUIT)

    def _deals(self) -> int:
        limit, most = int(self.options["deal_limit"]), int(self.options["max_deals"])
        return min(limit, most) if limit else most

    def score_bounds(self) -> tuple[float, float]:
        bound = float(DEAL_BOUND * self._deals())
        return -bound, bound

    def max_game_length(self) -> int:
        # per deal: 5 bids, a 4-1 choice, squint decisions and discards, Null passes, 50 cards
        return 70 * self._deals()
