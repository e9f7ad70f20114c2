"""A slow, obviously-correct reference of Klaberjass trick play, written from the rules text
(docs/rules/klaberjass.md §1.4, §7.2, §7.3), not from the C code.

Cards are plain strings in the common notation: rank then suit, e.g. "JC", "TH", "7S".
"""

from __future__ import annotations

# §1.4: trick rank high -> low, card points in the same order
TRUMP_ORDER = ["J", "9", "A", "T", "K", "Q", "8", "7"]
TRUMP_VALUES = [20, 14, 11, 10, 4, 3, 0, 0]
PLAIN_ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"]
PLAIN_VALUES = [11, 10, 4, 3, 2, 0, 0, 0]


def suit(card: str) -> str:
    return card[1]


def rank(card: str) -> str:
    return card[0]


def points(card: str, trump: str) -> int:
    """§1.4 card points."""
    if suit(card) == trump:
        return TRUMP_VALUES[TRUMP_ORDER.index(rank(card))]
    return PLAIN_VALUES[PLAIN_ORDER.index(rank(card))]


def trump_beats(c: str, other: str) -> bool:
    """c is ranked above other in the trump order (both trumps)."""
    return TRUMP_ORDER.index(rank(c)) < TRUMP_ORDER.index(rank(other))


def top_trump(trick: list[str], trump: str) -> str | None:
    """'top = the highest trump in P by trump rank, if P contains any trump'."""
    top = None
    for c in trick:
        if suit(c) == trump and (top is None or trump_beats(c, top)):
            top = c
    return top


def legal(hand: list[str], trick: list[str], trump: str) -> set[str]:
    """§7.2, rule by rule (H = hand, P = trick, T = trump, L = led suit)."""
    H, P, T = list(hand), list(trick), trump
    if not P:                                                   # rule 1
        return set(H)
    L = suit(P[0])
    trumps = [c for c in H if suit(c) == T]
    top = top_trump(P, T)
    if L == T:                                                  # rule 2
        if not trumps:
            return set(H)
        beating = [c for c in trumps if trump_beats(c, top)]
        return set(beating) if beating else set(trumps)
    led = [c for c in H if suit(c) == L]
    if led:                                                     # rule 3
        return set(led)
    if trumps:                                                  # rule 4
        if top is None:
            return set(trumps)
        beating = [c for c in trumps if trump_beats(c, top)]
        return set(beating) if beating else set(trumps)
    return set(H)                                               # rule 5


def winner_index(trick: list[str], trump: str) -> int:
    """§7.3: index (in play order) of the card that wins the trick."""
    top = top_trump(trick, trump)
    if top is not None:
        return trick.index(top)
    L = suit(trick[0])
    best = 0
    for i, c in enumerate(trick):
        if suit(c) == L and PLAIN_ORDER.index(rank(c)) < PLAIN_ORDER.index(rank(trick[best])):
            best = i
    return best


def trick_points(trick: list[str], trump: str) -> int:
    return sum(points(c, trump) for c in trick)


def perft(hands: list[list[str]], leader: int, trump: str, depth: int, trick: list[str] | None = None,
          trick_leader: int | None = None) -> int:
    """Number of legal play sequences of length depth (or until the hands are empty)."""
    n = len(hands)
    trick = list(trick or [])
    tl = leader if trick_leader is None else trick_leader
    if depth == 0 or all(not h for h in hands):
        return 1
    seat = (tl + len(trick)) % n
    total = 0
    for c in sorted(legal(hands[seat], trick, trump)):
        new_hands = [list(h) for h in hands]
        new_hands[seat].remove(c)
        t2 = trick + [c]
        if len(t2) == n:
            w = (tl + winner_index(t2, trump)) % n
            total += perft(new_hands, w, trump, depth - 1, [], w)
        else:
            total += perft(new_hands, leader, trump, depth - 1, t2, tl)
    return total
