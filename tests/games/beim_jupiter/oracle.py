"""A slow, obviously-correct reference of Beim Jupiter's trick rules, written from the rules text
(rules 6.2-6.8 of docs/rules/beim_jupiter.md), not from the C code.

Cards are described by the game's card *names* only ("R11", "Bgod", "JUP", "JUNO", "LAMB..."), so
nothing here depends on the core's deck tables.  A move is (name, declaration) with declaration 0
or 15 for God cards and None otherwise."""

from __future__ import annotations

from dataclasses import dataclass


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
