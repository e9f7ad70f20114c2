"""Shared helpers of the Klaberjass tests: fixed deals, seeded random play."""

from __future__ import annotations

import random

from trickcore.games import klaberjass as kj

C = kj.parse_card


def cards(text: str) -> list[int]:
    return [C(t) for t in text.split()]


def make_order(n: int, hands: dict[int, str], dealer: int, turned: str | None = None,
               packets: dict[int, str] | None = None, stack: str | None = None, seed: int = 0) -> list[int]:
    """A deck order d[0..31] (§3) giving the listed cards to the listed places.

    ``hands`` maps seats to cards dealt into the hand (4p dealer: without the turned card),
    ``packets`` the 2-player face-down packets, ``stack`` the 2/3-player stack below the turned
    card (top first).  Unlisted places are filled from the remaining cards (seeded)."""
    lay = kj.LAYOUTS[n]
    seats = kj.seat_order(n, dealer)
    order: list[int | None] = [None] * 32
    used: set[int] = set()

    def put(positions, text):
        ids = cards(text)
        assert len(ids) <= len(positions), (positions, text)
        for pos, cid in zip(positions, ids):
            assert cid not in used, kj.CARD_NAMES[cid]
            order[pos] = cid
            used.add(cid)

    for seat, text in hands.items():
        put(lay.hands[seats.index(seat)], text)
    for seat, text in (packets or {}).items():
        put(lay.packets[seats.index(seat)], text)
    if turned is not None:
        put([lay.turned], turned)
    if stack is not None:
        put(lay.stack[1:], stack)
    rest = [c for c in range(32) if c not in used]
    random.Random(seed).shuffle(rest)
    for i in range(32):
        if order[i] is None:
            order[i] = rest.pop()
    return order  # type: ignore[return-value]


def new_state(n: int, dealer: int = 0, order: list[int] | None = None, seed: int = 1, **options):
    opts = {"first_dealer": dealer, **options}
    return kj.KlaberjassState(n, opts, seed, deal_orders={0: order} if order is not None else None)


def play(state, *texts: str) -> None:
    for t in texts:
        state.apply_action(t, seat=state.current_player())


def random_action(state, rng: random.Random) -> int:
    return rng.choice(state.legal_actions())
