"""Heuristic policy for Sticheln (every ruleset): ``choose(observation, legal, rng)``.

Works from the observation alone (trickcore.games.sticheln, rules §7.1), as a bot would.

* Laying out (C3/S1): every legal option is scored by its colour(s) and cards.  Classic:
  the colour whose cards outside the own hand carry the least value (they are what others
  can dump on you), the lowest card of it; mild: the colour with the fewest cards outside,
  its highest card (a high annoyance card would otherwise win a trick and count); verkehrt
  (lucky colour): the highest card in hand, its colour.
* Card play: a one-ply estimate per card.  The trick as it would stand after the card is
  resolved by the Sticheln rules; if the card would win, the chance that no later player
  beats it is estimated from the unseen cards that could (per later player: 1 - (1 - B/U)^h,
  each played with probability 0.6); the gain of winning is the change of the own round
  score (its exact rules, with the best end-of-round choice for verspätet) from the trick's
  cards plus the expected cards still to come.  A small "keep" term prefers dumping the
  own special-colour cards and low cards when a trick is given away.
* Colour choice (verspätet, L2): the choice with the best round score (it is dominant).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from trickcore import _core, tricks
from trickcore.games import sticheln as ST

COLOURS = ST.COLOURS

Card = tuple[int, int]  # (colour index, value)


def _card(text: str) -> tuple[int, int]:
    return COLOURS.index(text[0]), int(text[1:])


def _score(laid: Sequence[Card], special: Iterable[int], won: Sequence[Card], verkehrt: bool, mild: bool) -> float:
    return ST.round_score(laid, special, won, verkehrt, mild)     # the game's own scoring rule


def _late_choices(won: Iterable[Card], pair: bool) -> list[tuple[int, ...]]:
    return ST.colour_choices((c for c, _v in won), pair)


def _ids(cards: Iterable[Card]) -> list[int]:
    return [ST.DECK.card_id(f"{COLOURS[c]}{v}") for c, v in cards]


def _rules(low: bool) -> tuple[_core.Deck, int, int, int]:
    return ST.DECK, _core.FOLLOW_FREE, _core.WIN_OFFLEAD_LOW if low else _core.WIN_OFFLEAD_HIGH, _core.NO_SUIT


def _winner(trick: Sequence[Card], low: bool) -> int:
    """Index of the winning card of a (partial) trick of (colour, value) cards (asked of the core)."""
    return tricks.winner_index(*_rules(low), _ids(trick))


def _beats(card: Card, trick: Sequence[Card], low: bool) -> bool:
    """Would ``card``, played after ``trick``, take the lead (asked of the core)?"""
    return tricks.takes_lead(*_rules(low), _ids(trick), _ids([card])[0])


class _Ctx:
    def __init__(self, obs: dict[str, Any]):
        self.obs = obs
        self.seat: int = obs["seat"]
        self.n: int = obs["players"]
        f = obs["flags"]
        self.verkehrt: bool = f["verkehrt"]
        self.mild: bool = f["mild"]
        self.pair: bool = f["verschaerft"]
        self.late: bool = f["verspaetet"]
        self.hand = [_card(t) for t in obs["hand"]]
        self.colours = range(len(obs["colours"]))
        self.top: int = obs["max_value"]
        me = self.seat
        self.laid = [_card(t) for t in (obs["laid_out"][me] or [])]
        self.special = [COLOURS.index(c) for c in (obs["special_colours"][me] or [])]
        self.won = [_card(t) for t in obs["won"][me]]
        seen = set(self.hand) | set(self.laid)
        for pile in obs["won"]:
            seen.update(_card(t) for t in pile)
        seen.update(_card(t) for t in obs["trick"]["cards"])
        for lo in obs["laid_out"]:
            if lo:
                seen.update(_card(t) for t in lo)
        self.unseen = [(c, v) for c in self.colours for v in range(self.top + 1) if (c, v) not in seen]

    def value(self, cards: Iterable[Card]) -> float:
        """Change of my round score if ``cards`` join my won pile."""
        if self.late:
            before = max((_score([], ch, self.won, self.verkehrt, self.mild)
                          for ch in _late_choices(self.won, self.pair)), default=0)
            won = self.won + list(cards)
            after = max(_score([], ch, won, self.verkehrt, self.mild) for ch in _late_choices(won, self.pair))
            return after - before
        return _score([], self.special, list(cards), self.verkehrt, self.mild)

    def mean_future(self) -> float:
        if not self.unseen:
            return 0.0
        if self.late:
            return 0.3 if not self.verkehrt else -0.7
        vals = []
        for card in self.unseen:
            v = self.value([card])
            if v < 0 and not self.verkehrt:
                v *= 1.5  # opponents dump annoyance cards on a player who wins
            vals.append(v)
        return sum(vals) / len(vals)

    def keep(self, card: Card) -> float:
        """How much holding ``card`` is worth for later tricks (subtracted when playing it)."""
        c, v = card
        if c in self.special:
            if self.verkehrt:
                return 0.05 * v
            return -0.3 * (5 if self.mild else v) - 0.5
        strength: float = (self.top - v) if self.verkehrt else v
        if v == 0:
            strength = 0.3 * self.top  # a zero is a safe dump for later
        return 0.08 * strength


def _layout(ctx: _Ctx, legal: list[str]) -> str:
    hand = ctx.hand
    full = {c: sum(range(ctx.top + 1)) for c in ctx.colours}
    mine_val = {c: sum(v for cc, v in hand if cc == c) for c in ctx.colours}
    mine_cnt = {c: sum(1 for cc, _v in hand if cc == c) for c in ctx.colours}
    per_colour = ctx.top + 1

    def colour_cost(c: int) -> float:
        if ctx.verkehrt:
            return -0.15 * (full[c] - mine_val[c]) / max(1, ctx.n - 1)
        if ctx.mild:
            return 5 * 0.35 * (per_colour - mine_cnt[c])
        return 0.35 * (full[c] - mine_val[c])

    def option_cost(text: str) -> float:
        cards = [_card(t) for t in text.split("+")]
        cols = {c for c, _v in cards}
        cost: float = sum(colour_cost(c) for c in cols)
        for _c, v in cards:
            if ctx.verkehrt:
                cost -= v
            elif ctx.mild:
                cost += 5 - 0.2 * v  # laying out a high annoyance card removes a trick-winner
            else:
                cost += v
        return cost

    return min(legal, key=lambda t: (option_cost(t), t))


def _colour(ctx: _Ctx, legal: list[str]) -> str:
    def val(text: str) -> float:
        ch = [COLOURS.index(c) for c in text.split("+")]
        return _score([], ch, ctx.won, ctx.verkehrt, ctx.mild)
    return max(legal, key=lambda t: (val(t), t))


def _play(ctx: _Ctx, legal: list[str], rng: random.Random) -> str:
    obs = ctx.obs
    trick = [_card(t) for t in obs["trick"]["cards"]]
    leader = obs["trick"]["leader"]
    later = [(leader + i) % ctx.n for i in range(len(trick) + 1, ctx.n)]
    sizes = obs["hand_sizes"]
    u = len(ctx.unseen)
    future = ctx.mean_future()
    low = ctx.verkehrt
    best: str | None = None
    best_score: float | None = None
    for text in legal:
        card = _card(text)
        cards = trick + [card]
        w = _winner(cards, low)
        if w != len(cards) - 1:
            p = 0.0
        else:
            beaters = sum(1 for x in ctx.unseen if _beats(x, cards, low)) if later else 0
            p = 1.0
            for s in later:
                h = sizes[s]
                hold = 1.0 - (1.0 - beaters / u) ** h if u else 0.0
                p *= 1.0 - 0.6 * hold
        gain = ctx.value(cards) + future * len(later) if p > 0 else 0.0
        score = p * gain - ctx.keep(card) + 1e-6 * rng.random()
        if best_score is None or score > best_score:
            best, best_score = text, score
    assert best is not None, "legal is not empty"
    return best


def choose(observation: dict[str, Any], legal: list[str], rng: random.Random | None = None) -> str:
    if len(legal) == 1:
        return legal[0]
    rng = rng or random.Random(0)
    ctx = _Ctx(observation)
    kind = observation.get("decision")
    if kind == "layout":
        return _layout(ctx, legal)
    if kind == "colour":
        return _colour(ctx, legal)
    return _play(ctx, legal, rng)
