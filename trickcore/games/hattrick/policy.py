"""Heuristic policy for Hattrick: ``choose(observation, legal, rng)``.

Works from the observation alone (trickcore.games.hattrick, rules §7.2), as a bot would.
Every action is a card; what it does (open, join, pass) follows from the open colours of
the double trick in the observation.

For each card a one-ply estimate: a pass costs 2 points for sure; a card that joins or
opens a trick and is (for now) the highest there wins it unless a later player adds a
higher card of that colour (per later player: 1 - (1 - B/U)^h with B the unseen higher
cards of the colour, U the unseen cards, h his hand size; played with probability 0.6).
The gain of winning is the change of the own game score (H7: majority colour +1 per card,
the others -1) from the trick's cards plus the cards later players are expected to add.
A small "keep" term holds back high cards of the own best colour for later.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from trickcore import _core, tricks
from trickcore.games import hattrick as H

COLOURS = "RBG"


def _card(text: str) -> tuple[int, int]:
    return COLOURS.index(text[0]), int(text[1:])


def _f(counts: Sequence[int]) -> int:
    """Score of face-up stacks with these colour counts (the game's H7 rule, no passes)."""
    r, b, g = counts                # red, blue, green
    return H.game_score(r, b, g, 0)


def choose(observation: dict[str, Any], legal: list[str], rng: random.Random | None = None) -> str:
    if len(legal) == 1:
        return legal[0]
    rng = rng or random.Random(0)
    obs = observation
    me, n = obs["seat"], obs["players"]
    stacks = obs["stacks"][me]
    counts = [len(stacks[c]) for c in COLOURS]
    hand = [_card(t) for t in obs["hand"]]
    low: int = obs["min_value"]
    seen = set(hand)
    for dt in obs["double_tricks"]:
        seen.update(_card(p["card"]) for p in dt["plays"])
    cur = obs["double_trick"]
    plays = [(p["seat"], _card(p["card"]), p["action"]) for p in cur["plays"]]
    seen.update(c for _s, c, _a in plays)
    unseen = [(c, v) for c in range(3) for v in range(low, 21) if (c, v) not in seen]
    u = len(unseen)
    open_cols = [COLOURS.index(c) for c in cur["open"]]
    leader = cur["leader"]
    later = [(leader + i) % n for i in range(len(plays) + 1, n)]
    sizes = obs["hand_sizes"]
    best_col = max(range(3), key=lambda c: (counts[c], sum(1 for x in hand if x[0] == c)))
    piles = {c: [card for _s, card, a in plays if card[0] == c and a != "pass"] for c in open_cols}
    played = [H.DECK.card_id(p["card"]) for p in cur["plays"]]

    def keep(card: tuple[int, int]) -> float:
        c, v = card
        w = 1.0 if c == best_col else 0.5
        return 0.1 * w * (v - low) / 20 * 3

    best: str | None = None
    best_score: float | None = None
    for text in legal:
        card = _card(text)
        c, v = card
        place, winning = tricks.double_trick_place(H.DECK, played, H.DECK.card_id(text))
        if place != _core.PILE_PASS:
            pile = piles.get(c, [])
            if not winning:
                value = 0.0  # cannot win this trick: the card is given away
            else:
                higher = sum(1 for x in unseen if x[0] == c and x[1] > v)
                share = sum(1 for x in unseen if x[0] == c) / u if u else 0.0
                p = 1.0
                for s in later:
                    hold = 1.0 - (1.0 - higher / u) ** sizes[s] if u else 0.0
                    p *= 1.0 - 0.6 * hold
                # cards later players are expected to add to this trick
                opening_second = c not in open_cols and len(open_cols) == 1
                join = share * (0.8 if len(open_cols) + (c not in open_cols) >= 2 else 1.0)
                expected = len(pile) + 1 + join * len(later) * (0.7 if opening_second else 1.0)
                size = max(1, round(expected))
                new = list(counts)
                new[c] += size
                value = p * (_f(new) - _f(counts))
        else:  # a pass with a third-colour card
            value = -2.0
        score = value - keep(card) + 1e-6 * rng.random()
        if best_score is None or score > best_score:
            best, best_score = text, score
    assert best is not None, "legal is not empty"
    return best
