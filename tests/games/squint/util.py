"""Helpers shared by the Squint tests."""

from __future__ import annotations

import random

from trickcore.games import squint as sq
from trickcore.games.squint import SquintState, card_id, card_name

SEATS = 5


def listing(p1, p2, p3, p4, p0):
    """Per-seat list from the rules' "P1, P2, P3, P4, P0" order (dealer P0)."""
    return [p0, p1, p2, p3, p4]


def bids_of(p1, p2, p3, p4, p0):
    return [card_id(x) for x in listing(p1, p2, p3, p4, p0)]


def make_order(dealer: int, hands: dict[int, list[str]] | None = None,
               squint: tuple[str, str] | None = None, seed: int = 0) -> list[int]:
    """A pack d[0..51] dealing the named cards to the named seats (the rest at random),
    with squint = (bottom d[50], top d[51])."""
    hands = hands or {}
    fixed = [card_id(c) for cs in hands.values() for c in cs] + [card_id(c) for c in (squint or ())]
    assert len(set(fixed)) == len(fixed), "a card is named twice"
    rest = [c for c in range(52) if c not in fixed]
    random.Random(seed).shuffle(rest)
    order = [None] * 52
    if squint:
        order[50], order[51] = card_id(squint[0]), card_id(squint[1])
    for seat, cs in hands.items():
        slots = [k for k in range(50) if (dealer + 1 + k) % 5 == seat]
        assert len(cs) <= 10
        for k, c in zip(slots, cs):
            order[k] = card_id(c)
    for k in range(52):
        if order[k] is None:
            order[k] = rest.pop()
    return order


def new_state(dealer: int = 0, hands=None, squint=None, seed: int = 0, options=None, overrides=None) -> SquintState:
    opts = {"first_dealer": dealer}
    opts.update(options or {})
    ov = dict(overrides or {})
    ov.setdefault(0, make_order(dealer, hands, squint, seed))
    return SquintState(5, opts, seed, _deal_overrides=ov)


def bid_all(state: SquintState, bids: dict[int, str]) -> None:
    """Apply the bids of a dict seat -> card, in the engine's order (priority order)."""
    for _ in range(5):
        seat = state.current_player()
        state.apply_action(bids[seat], seat=seat)


def locations(state: SquintState) -> dict[int, str]:
    """Where every card of the current deal is (asserting it is in exactly one place)."""
    where: dict[int, str] = {}

    def put(cards, place):
        for c in cards:
            assert c not in where, f"{card_name(c)} is both in {where[c]} and {place}"
            where[c] = place

    if state._play_tp is not None:
        tp = state._play_tp
        for s in range(5):
            put(sq.cards_of(tp.hand(s)), f"hand{s}")
        for k, t in enumerate(tp.tricks):
            put([m & 127 for m in t[1]], f"trick{k}")
        put([m & 127 for m in tp.current_trick()[1]], "trick")
    else:
        for s in range(5):
            put(sq.cards_of(state.hands[s]), f"hand{s}")
    put(sq.cards_of(state.squint_left), "squint")
    for s, cs in state.discards.items():
        put(cs, f"discard{s}")
    if state.null_discards is not None:
        put(state.null_discards, "null_discards")
    assert len(where) == 52, f"{52 - len(where)} cards are nowhere"
    return where


def numeral_biased_action(state: SquintState, rng: random.Random):
    """A random legal action, but bids favour numerals so every contract kind shows up."""
    legal = state.legal_actions()
    if state.decision() == "bid" and rng.random() < 0.9:
        nums = [a for a in legal if 3 <= sq.card_rank(a - sq.BID_BASE) <= 10]
        if nums:
            return rng.choice(nums)
    return rng.choice(legal)
