"""Shared helpers of the Hattrick tests."""

from __future__ import annotations

import random

import trickcore
from trickcore import _core
from trickcore.games import hattrick as H

COL = {c: i for i, c in enumerate(H.COLOURS)}


def cv(text: str) -> tuple[int, int]:
    return COL[text[0]], int(text[1:])


def cid(text: str) -> int:
    return H.DECK.card_id(text)


def mask(texts) -> int:
    return H.DECK.mask_of(texts)


def resolve(texts, leader=0, n=None):
    n = n or 4
    return _core.resolve_trick(H.DECK, n, _core.FOLLOW_DOUBLE, _core.WIN_DOUBLE, _core.NO_SUIT, leader,
                               [cid(t) for t in texts])


def fill_hands(n: int, fixed: dict[int, list[str]], seed: int = 0) -> list[int]:
    _low, hand = H.SETUP[n]
    used = H.USED[n]
    hands = [0] * n
    taken = 0
    for s, texts in fixed.items():
        hands[s] = mask(texts)
        assert hands[s] & taken == 0 and hands[s] & ~used == 0
        taken |= hands[s]
    free = _core.cards_list(used & ~taken)
    random.Random(seed).shuffle(free)
    for s in range(n):
        while _core.cards_count(hands[s]) < hand:
            hands[s] |= 1 << free.pop()
    assert not free
    return hands


def crafted(monkeypatch, n: int, fixed: dict[int, list[str]], games: int = 1, seed: int = 0):
    hands = fill_hands(n, fixed, seed)
    real = H._deal

    def fake(sd, game, used, nn, hand):
        return list(hands) if game == 1 else real(sd, game, used, nn, hand)

    monkeypatch.setattr(H, "_deal", fake)
    return trickcore.new_game("hattrick", n, {"games": games}, seed)
