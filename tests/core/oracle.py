"""A slow, obviously-correct pure-Python reference of every follow rule and winner rule.

Written from the rules texts, not from csrc/: each function is a transcription of
the rule it cites, on plain Python sets and lists.  The hypothesis tests in this
folder run it against the C core on random positions.

A card is described by a ``Card`` record; a played card is ``(card, decl)`` where
``decl`` is 0/1 for a declared card (God: 0 -> strength 0, 1 -> strength 15).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Card:
    id: int
    suit: int | None        # None: suitless (Jupiter, Juno, lambs)
    rank: int               # face value
    strength: int           # order in its suit (plain)
    trump_strength: int     # order in the trump suit
    points: int
    always: bool = False    # lamb: always playable, never wins, never sets the lead
    top_trump: bool = False  # Jupiter/Juno
    declared: bool = False  # God card
    twin: bool = False      # identical lambs


def power(card: Card, decl: int, trump: int | None, decl_strengths=(0, 15)) -> int:
    if card.declared:
        return decl_strengths[decl]
    if trump is not None and card.suit == trump:
        return card.trump_strength
    return card.strength


# ---- follow rules -----------------------------------------------------------------
def legal_free(hand: set[Card]) -> set[Card]:
    """Sticheln C5: no duty to follow; Hattrick H3: every card maps to a legal action."""
    return set(hand)


def led_category(trick: list[tuple[Card, int]], trump: int | None):
    """Beim Jupiter 6.3: the first card that is not a lamb sets the led category.
    Returns None (nothing led), "trump", or a suit."""
    for card, _ in trick:
        if card.always:
            continue
        if card.top_trump or (trump is not None and card.suit == trump):
            return "trump"
        return card.suit
    return None


def is_trump_card(card: Card, trump: int | None) -> bool:
    """Beim Jupiter 6.2: the trump cards are JUP, JUNO and every card of the trump suit."""
    return card.top_trump or (trump is not None and card.suit == trump)


def legal_follow_suit(hand: set[Card], trick: list[tuple[Card, int]], trump: int | None) -> set[Card]:
    """Must follow the led category if able, lambs always allowed (BJ 6.4; Squint 7.2)."""
    led = led_category(trick, trump)
    if led is None:
        return set(hand)                                        # 6.4 b
    if led == "trump":
        can = {c for c in hand if is_trump_card(c, trump)}      # 6.4 d
    else:
        can = {c for c in hand if c.suit == led and not c.top_trump}  # 6.4 c
    if not can:
        return set(hand)
    return can | {c for c in hand if c.always}                  # 6.4 a


def legal_overtrump(hand: set[Card], trick: list[tuple[Card, int]], trump: int) -> set[Card]:
    """Klaberjass §7.2, rule by rule."""
    if not trick:
        return set(hand)                                        # 1
    lead_suit = trick[0][0].suit
    trumps_in_hand = {c for c in hand if c.suit == trump}
    trumps_in_trick = [c for c, _ in trick if c.suit == trump]
    top = max((c.trump_strength for c in trumps_in_trick), default=None)

    def beating(cards):
        return {c for c in cards if top is not None and c.trump_strength > top}

    if lead_suit == trump:                                      # 2
        if not trumps_in_hand:
            return set(hand)
        return beating(trumps_in_hand) or trumps_in_hand
    same = {c for c in hand if c.suit == lead_suit}
    if same:                                                    # 3
        return same
    if trumps_in_hand:                                          # 4
        if top is None:
            return trumps_in_hand
        return beating(trumps_in_hand) or trumps_in_hand
    return set(hand)                                            # 5


# ---- winner rules -----------------------------------------------------------------
def winner_trump(trick: list[tuple[Card, int]], trump: int | None) -> int | None:
    """Index of the winning card: JUP/JUNO first played (BJ 6.7a), else the highest trump
    (6.7b; Klaberjass 7.3), else the highest card of the led suit (6.7c).  Lambs never win."""
    for i, (c, _) in enumerate(trick):
        if c.top_trump:
            return i
    best = None
    if trump is not None:
        for i, (c, d) in enumerate(trick):
            if not c.always and c.suit == trump and (best is None or power(c, d, trump) > power(*trick[best], trump)):
                best = i
        if best is not None:
            return best
    led = led_category(trick, trump)
    for i, (c, d) in enumerate(trick):
        if not c.always and c.suit == led and (best is None or power(c, d, trump) > power(*trick[best], trump)):
            best = i
    return best


def winner_offlead(trick: list[tuple[Card, int]], lowest: bool = False) -> int:
    """Sticheln C6/C7 (and verkehrt V2): every colour but the lead colour is trump, zeros
    never; the highest (lowest) trump wins, the first played of equal ones; else the
    highest lead-colour card."""
    lead = trick[0][0].suit
    trumps = [i for i, (c, _) in enumerate(trick) if c.suit != lead and c.rank != 0]
    if trumps:
        values = [trick[i][0].rank for i in trumps]
        target = min(values) if lowest else max(values)
        return next(i for i in trumps if trick[i][0].rank == target)
    lead_cards = [i for i, (c, _) in enumerate(trick) if c.suit == lead]
    return max(lead_cards, key=lambda i: trick[i][0].rank)


def double_trick(trick: list[tuple[Card, int]]):
    """Hattrick H3-H5: returns (piles, winner index per opened trick, index of the leader-to-be)."""
    opened: list[int] = []
    piles = []
    for c, _ in trick:
        if c.suit in opened:
            piles.append(opened.index(c.suit))
        elif len(opened) < 2:
            opened.append(c.suit)
            piles.append(len(opened) - 1)
        else:
            piles.append("pass")
    winners = []
    for p in range(len(opened)):
        members = [i for i, q in enumerate(piles) if q == p]
        winners.append(max(members, key=lambda i: trick[i][0].rank))
    if len(opened) == 1:
        return piles, winners, winners[0]
    lists = [sorted((trick[i][0].rank for i, q in enumerate(piles) if q == p), reverse=True) for p in (0, 1)]
    for k in range(max(map(len, lists))):
        a = lists[0][k] if k < len(lists[0]) else None
        b = lists[1][k] if k < len(lists[1]) else None
        if a != b:
            if b is None or (a is not None and a > b):
                return piles, winners, winners[0]
            return piles, winners, winners[1]
    first = 0 if opened[0] < opened[1] else 1          # colour order red, blue, green
    return piles, winners, winners[first]


def moves(legal: set[Card]) -> list[int]:
    """Distinct moves: a declared card gives two (id, id|128), identical lambs one (BJ A-16, A-19)."""
    out = []
    twins = sorted(c.id for c in legal if c.twin)
    for c in legal:
        if c.twin and c.id != twins[0]:
            continue
        out.append(c.id)
        if c.declared:
            out.append(c.id | 128)
    return sorted(out)
