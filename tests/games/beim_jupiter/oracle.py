"""A slow, obviously-correct reference of Beim Jupiter's trick rules, written from the rules text
(rules 6.2-6.8 of docs/rules/beim_jupiter.md), not from the C code; and of the end of a round
(rules 7.2-8.1), the game module's Python implementation before the core took that rule over.

Cards are described by the game's card *names* only ("R11", "Bgod", "JUP", "JUNO", "LAMB..."), so
nothing here depends on the core's deck tables.  A move is (name, declaration) with declaration 0
or 15 for God cards and None otherwise."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trickcore.games.beim_jupiter import Distribution, _suit_value, parse_bid


@dataclass(frozen=True)
class OCard:
    name: str
    kind: str            # "number", "god", "jup", "juno", "lamb"
    suit: str | None     # "B" "R" "Y" "G" for suited cards (rule 1.5)
    value: int           # printed value of a number card, 0 otherwise


def card(name: str) -> OCard:
    if name == "JUP":
        return OCard(name, "jup", None, 0)
    if name == "JUNO":
        return OCard(name, "juno", None, 0)
    if name.startswith("LAMB"):
        return OCard(name, "lamb", None, 0)
    if name.endswith("god"):
        return OCard(name, "god", name[0], 0)
    return OCard(name, "number", name[0], int(name[1:]))


def is_trump(c: OCard, trump: str | None) -> bool:
    """Rule 6.2: JUP, JUNO and every suited card of the trump suit (God card included)."""
    if c.kind in ("jup", "juno"):
        return True
    return trump is not None and c.suit == trump


def led_category(trick: list[tuple[OCard, int | None]], trump: str | None):
    """Rule 6.3: set by the first non-lamb card; 'trump', a suit letter, or None."""
    for c, _decl in trick:
        if c.kind == "lamb":
            continue
        return "trump" if is_trump(c, trump) else c.suit
    return None


def legal_cards(hand: list[OCard], trick: list[tuple[OCard, int | None]], trump: str | None) -> list[OCard]:
    """Rule 6.4 a-d."""
    led = led_category(trick, trump)
    if led is None:                                                  # b) nothing led
        return list(hand)
    if led == "trump":                                               # d)
        must = [c for c in hand if is_trump(c, trump)]
    else:                                                            # c)
        must = [c for c in hand if c.kind in ("number", "god") and c.suit == led]
    if not must:
        return list(hand)
    return must + [c for c in hand if c.kind == "lamb"]              # a) lambs always


def legal_moves(hand: list[OCard], trick, trump) -> set[tuple[str, int | None]]:
    """Distinct moves: God cards as =0 and =15 (rule 6.5), all lambs as one LAMB (rule 6.6)."""
    out = set()
    for c in legal_cards(hand, trick, trump):
        if c.kind == "god":
            out.add((c.name, 0))
            out.add((c.name, 15))
        elif c.kind == "lamb":
            out.add(("LAMB", None))
        else:
            out.add((c.name, None))
    return out


def rank_in_suit(c: OCard, decl: int | None) -> int:
    """God=15 > 14 > ... > 1 > God=0 (rule 6.7)."""
    return decl if c.kind == "god" else c.value


def winner_index(trick: list[tuple[OCard, int | None]], trump: str | None) -> int:
    """Index (play order) of the card that wins a complete trick (rule 6.7)."""
    for i, (c, _d) in enumerate(trick):                              # a) first JUP / JUNO
        if c.kind in ("jup", "juno"):
            return i
    trumps = [i for i, (c, _d) in enumerate(trick) if trump is not None and c.suit == trump]
    if trumps:                                                       # b) highest trump
        return max(trumps, key=lambda i: rank_in_suit(*trick[i]))
    led = led_category(trick, trump)                                 # c) highest of the led suit
    followers = [i for i, (c, _d) in enumerate(trick) if c.kind in ("number", "god") and c.suit == led]
    return max(followers, key=lambda i: rank_in_suit(*trick[i]))


def trick_points(trick) -> int:
    """Rule 6.8: number cards count their value, everything else 0."""
    return sum(c.value for c, _d in trick if c.kind == "number")


# ---- the end of a round (rules 7.2-8.1) ---------------------------------------------------------
# The module's own Python implementation of the distribution until the core took the rule over
# (tc_bj_distribute, csrc/src/distribute.c): kept here as the reference the core is tested against
# (test_distribute_oracle.py).  Cards are names or anything ``suit_value`` maps to (suit, value).
CATEGORY_ORDER = {"A": 0, "B": 1, "C": 2}


def distribute(n: int, start: int, t: int, table: Mapping[int, Sequence[Any]], bids: Sequence[str],
               colour: Sequence[Any], tricks: Sequence[int], points: Sequence[int],
               suit_value: Callable[[Any], tuple[int, int]] = _suit_value) -> Distribution:
    """The end-of-round distribution (rules 7.2-7.8, A-21..A-26) and the removal of count t (8.1),
    with the arguments and the answer of ``trickcore.games.beim_jupiter.distribute``."""
    cats: list[str | None] = []
    parsed = [parse_bid(b) for b in bids]
    for p in range(n):
        bt, locked, zero = parsed[p]
        if zero:
            cats.append(None)
        elif not locked:
            cats.append("B")
        else:
            cats.append("A" if tricks[p] == bt else "C")        # rule 7.3
    # rule 7.4: C locks are lifted; the locked cards left are the A players' cards at T = k
    locked_cards = {colour[p] for p in range(n) if cats[p] == "A"}
    lying = {T: list(table[T]) for T in sorted(table)}           # by count: ``left`` lists them so
    won: list[list[Any]] = [[] for _ in range(n)]
    removed: list[Any] = []
    zero_res: dict[int, bool] = {}
    for p in range(n):                                          # rule 7.2
        if parsed[p][2]:
            zero_res[p] = tricks[p] == 0
            (won[p] if tricks[p] == 0 else removed).append(colour[p])
    claimants: dict[int, list[int]] = {}
    for p in range(n):                                          # rules 7.5, 7.6
        if cats[p] is not None and tricks[p] >= 1:
            claimants.setdefault(tricks[p], []).append(p)
    picks: list[tuple[int, int, Any]] = []
    category = {p: cat for p, cat in enumerate(cats) if cat is not None}  # every claimant has one
    for T in sorted(claimants):
        # the claimants in order of category, then points, then seat order from the start player
        # (each key is distinct: the seat order tells any two players apart)
        order = [p for _key, p in sorted([((CATEGORY_ORDER[category[p]], -points[p], (p - start) % n), p)
                                          for p in claimants[T]])]
        cards = lying.get(T, [])
        for p in order:                                         # rule 7.7, A-22, A-23, A-37
            own = colour[p]
            avail = [c for c in cards if c not in locked_cards or c == own]
            if avail:
                # the highest value, then an A player's own card, then the lower suit (no two
                # cards share value and suit, so the keys are distinct)
                best = max([(suit_value(c)[1], cats[p] == "A" and c == own, -suit_value(c)[0], c)
                            for c in avail])[3]
                cards.remove(best)
                won[p].append(best)
                picks.append((p, T, best))
            if cats[p] == "A":
                locked_cards.discard(own)
    left = {T: cards for T, cards in lying.items() if cards}
    after = {T: cards for T, cards in left.items() if T != t}
    removed.extend(left.get(t, []))                             # rule 8.1
    return Distribution(cats, picks, won, zero_res, left, removed, after, suit_value)
