"""Test decks built twice: as a core Deck and as oracle Card records, from one table."""

from __future__ import annotations

from tests.core.oracle import Card
from trickcore import _core


def _build(n_suits: int, rows: list[dict]):
    deck = _core.Deck(n_suits)
    cards = []
    for row in rows:
        role = ((_core.ROLE_ALWAYS if row.get("always") else 0) | (_core.ROLE_TOP_TRUMP if row.get("top") else 0)
                | (_core.ROLE_DECLARED if row.get("declared") else 0) | (_core.ROLE_TWIN if row.get("twin") else 0))
        suit = _core.NO_SUIT if row["suit"] is None else row["suit"]
        cid = deck.add(row["name"], suit, row["rank"], row["strength"], row["trump_strength"], row["points"], role)
        cards.append(Card(cid, row["suit"], row["rank"], row["strength"], row["trump_strength"], row["points"],
                          bool(row.get("always")), bool(row.get("top")), bool(row.get("declared")),
                          bool(row.get("twin"))))
    return deck, cards


def jupiter_deck(max_value: int = 14, lambs: int = 3):
    """Beim Jupiter (rules 2.1-2.2, 6.5-6.7): suits B R Y G, values 1..max, God, JUP, JUNO, lambs."""
    rows = []
    for s, letter in enumerate("BRYG"):
        for v in range(1, max_value + 1):
            rows.append(dict(name=f"{letter}{v}", suit=s, rank=v, strength=v, trump_strength=v, points=v))
        rows.append(dict(name=f"{letter}god", suit=s, rank=0, strength=0, trump_strength=0, points=0, declared=True))
    rows.append(dict(name="JUP", suit=None, rank=0, strength=0, trump_strength=0, points=0, top=True))
    rows.append(dict(name="JUNO", suit=None, rank=0, strength=0, trump_strength=0, points=0, top=True))
    for k in range(lambs):
        rows.append(dict(name=f"LAMB{k + 1}", suit=None, rank=0, strength=0, trump_strength=0, points=0,
                         always=True, twin=True))
    deck, cards = _build(4, rows)
    deck.set_declarations(0, 15)
    return deck, cards


def sticheln_deck():
    """Sticheln's 120 cards (sticheln.md 1.1): R B G 0..20, Y N V 0..18; ids run past 64."""
    rows = []
    for s, letter in enumerate("RBGYNV"):
        for v in range(21 if s < 3 else 19):
            rows.append(dict(name=f"{letter}{v}", suit=s, rank=v, strength=v, trump_strength=v, points=0))
    return _build(6, rows)


def hattrick_deck():
    rows = []
    for s, letter in enumerate("RBG"):
        for v in range(21):
            rows.append(dict(name=f"{letter}{v}", suit=s, rank=v, strength=v, trump_strength=v, points=0))
    return _build(3, rows)


KJ_RANKS = "789TJQKA"
KJ_PLAIN = "789JQKTA"        # low -> high, klaberjass.md 1.4
KJ_TRUMP = "78QKTA9J"
KJ_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def klaberjass_deck():
    rows = []
    for s, letter in enumerate("CDHS"):
        for r in KJ_RANKS:
            rows.append(dict(name=f"{r}{letter}", suit=s, rank=KJ_RANKS.index(r), strength=KJ_PLAIN.index(r),
                             trump_strength=KJ_TRUMP.index(r), points=KJ_POINTS[r]))
    return _build(4, rows)


def plain52():
    rows = []
    for s, letter in enumerate("CDHS"):
        for r, rank in enumerate("23456789TJQKA"):
            rows.append(dict(name=f"{rank}{letter}", suit=s, rank=r, strength=r, trump_strength=r, points=0))
    return _build(4, rows)


def mask(cards) -> int:
    out = 0
    for c in cards:
        out |= 1 << c.id
    return out
