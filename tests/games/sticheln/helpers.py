"""Shared helpers of the Sticheln tests: card texts, crafted deals, random play."""

from __future__ import annotations

import random

import trickcore
from trickcore import _core
from trickcore.games import sticheln as S

COL = {c: i for i, c in enumerate(S.COLOURS)}


def cv(text: str) -> tuple[int, int]:
    """'R7' -> (0, 7)."""
    return COL[text[0]], int(text[1:])


def cid(text: str) -> int:
    return S.DECK.card_id(text)


def mask(texts) -> int:
    return S.DECK.mask_of(texts)


def resolve(texts, leader=0, n=None, verkehrt=False):
    """The core's winner seat of a trick given as card texts in play order."""
    n = n or len(texts)
    win = _core.WIN_OFFLEAD_LOW if verkehrt else _core.WIN_OFFLEAD_HIGH
    res = _core.resolve_trick(S.DECK, n, _core.FOLLOW_FREE, win, _core.NO_SUIT, leader,
                              [cid(t) for t in texts])
    return res["winner"]


def fill_hands(n: int, fixed: dict[int, list[str]], seed: int = 0) -> tuple[list[int], int]:
    """Hands for n players where seat s holds fixed[s] (plus random cards up to the hand
    size), the rest dealt at random from the used cards; returns (hands, aside)."""
    _col, _top, hand, _aside = S.SETUP[n]
    used = S.USED[n]
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
    aside = 0
    for c in free:
        aside |= 1 << c
    return hands, aside


def crafted(monkeypatch, n: int, fixed: dict[int, list[str]], options=None, seed: int = 0):
    """A Sticheln state (1 round unless options say otherwise) with a crafted first deal."""
    hands, aside = fill_hands(n, fixed, seed)
    real = S._deal

    def fake(sd, rnd, used, nn, hand):
        if rnd == 1:
            return list(hands), aside
        return real(sd, rnd, used, nn, hand)

    monkeypatch.setattr(S, "_deal", fake)
    opts = {"rounds": 1}
    opts.update(options or {})
    return trickcore.new_game("sticheln", n, opts, seed)


def play_random(state, rng: random.Random, stop=None):
    """Apply random legal actions until terminal (or stop(state) is true)."""
    while not state.is_terminal() and not (stop and stop(state)):
        state.apply_action(rng.choice(state.legal_actions()))
    return state
