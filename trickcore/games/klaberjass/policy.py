"""Heuristic Klaberjass policy: ``choose(observation, legal, rng=None) -> action text``.

Works from the observation alone (trickcore.games.klaberjass ``observation``), as a bot would.

* Trump selection: estimates the value of the hand for each possible trump suit (Jass, Mie,
  trump length, side aces and guarded tens) and takes / says Kleines / besser / names the suit
  when the estimate clears a threshold that depends on the player count.
* Exchange of the 7: always, unless the 7 is part of a meld the turned card does not replace.
* Melds: always declared.  Belle: always announced.
* Kontra / Re: when the own hand is strong in the trump suit (Kontra) or very strong (Re).
* Card play: remembers the cards played; leads the highest remaining trump as trump side,
  else plain aces, else a low card; follows by winning cheaply when last, with the top
  remaining card otherwise, smearing points onto a partner's winning trick, and throwing the
  cheapest card when the trick is lost.
"""

from __future__ import annotations

import random
from typing import Any

from trickcore import _core, tricks
from trickcore.games import klaberjass as KJ

# Card order and points are the game module's tables (docs/rules/klaberjass.md §1.4), read
# through the card text: rank letter then suit letter, e.g. "JH".
SUITS = KJ.SUITS
RANKS = KJ.RANKS

# thresholds for taking a contract, per player count (tuned against random play)
THRESHOLD = {2: 66, 3: 56, 4: 66}


def _strength(card: str, trump: str | None) -> int:
    """Trick strength: trumps above every plain card."""
    rank = RANKS.index(card[0])
    if card[1] == trump:
        return 100 + KJ.TRUMP_STRENGTH[rank]
    return KJ.PLAIN_STRENGTH[rank]


def _points(card: str, trump: str | None) -> int:
    rank = RANKS.index(card[0])
    return KJ.TRUMP_POINTS[rank] if card[1] == trump else KJ.PLAIN_POINTS[rank]


def hand_value(hand: list[str], trump: str) -> int:
    """Rough value of a hand with ``trump`` as trump (a heuristic, not points)."""
    trumps = [c[0] for c in hand if c[1] == trump]
    v = 0
    n = len(trumps)
    if "J" in trumps:
        v += 28
    if "9" in trumps:
        v += 20 if ("J" in trumps or n >= 3) else 10
    if "A" in trumps:
        v += 12
    if "T" in trumps:
        v += 9
    v += 4 * sum(1 for r in trumps if r in "KQ")
    v += 6 * n
    for s in SUITS:
        if s == trump:
            continue
        ranks = [c[0] for c in hand if c[1] == s]
        if "A" in ranks:
            v += 12
            if "T" in ranks:
                v += 8
        elif "T" in ranks and len(ranks) >= 2:
            v += 3
    if "K" in trumps and "Q" in trumps:
        v += 12
    return v


def _melds_value(hand: list[str]) -> int:
    total = 0
    for s in SUITS:
        ranks = sorted(RANKS.index(c[0]) for c in hand if c[1] == s)
        run = 1
        runs = []
        for i in range(1, len(ranks) + 1):
            if i < len(ranks) and ranks[i] == ranks[i - 1] + 1:
                run += 1
            else:
                runs.append(run)
                run = 1
        for r in runs if ranks else []:
            total += {3: 20, 4: 50, 5: 50, 6: 50, 7: 70, 8: 100}.get(r, 0)
    return total


def _played(obs: dict[str, Any]) -> set[str]:
    out = set()
    for t in obs.get("tricks") or []:
        out.update(t["cards"])
    trick = obs.get("trick") or {}
    out.update(trick.get("cards") or [])
    return out


def _partners(obs: dict[str, Any]) -> set[int]:
    n, seat = obs["players"], obs["seat"]
    if n == 4:
        return {seat, (seat + 2) % 4}
    return {seat}


def _trump_side(obs: dict[str, Any]) -> set[int]:
    return set(obs.get("trump_side") or [])


def _bid_threshold(obs: dict[str, Any]) -> int:
    n = obs["players"]
    t = THRESHOLD[n]
    if n == 2 and obs.get("packet"):
        t = t * 2 // 3              # only 6 of the 9 cards are known
    return t


def _choose_trump_phase(obs: dict[str, Any], legal: list[str]) -> str:
    hand = obs["hand"] + ([obs["turned"]] if obs["players"] == 4 and obs["seat"] == obs["dealer"]
                          and obs["turned"] not in obs["hand"] else [])
    t = obs["turned_suit"]
    dec = obs["decision"]
    thr = _bid_threshold(obs)
    if dec == "take":
        # a 2/3-player declarer may also get the turned card through the exchange of the 7
        extra = [obs["turned"]] if obs["players"] < 4 and ("7" + t) in hand else []
        return "take" if hand_value(hand + extra, t) >= thr else "pass"
    if dec == "kleines":
        best = max(hand_value(hand, s) for s in SUITS if s != t)
        return "kleines" if best >= thr else "pass"
    if dec == "besser":
        return "besser" if hand_value(hand, "C") >= thr + 6 else "pass"
    # name trump: the options are suit letters
    return max(legal, key=lambda s: (hand_value(hand, s), s))


def _core_args(trump: str) -> tuple[_core.Deck, int, int, int]:
    deck = KJ.DECKS[KJ.SUITS.index(trump)]
    return deck, _core.FOLLOW_OVERTRUMP, _core.WIN_TRUMP, KJ.SUITS.index(trump)


def _winning(cards: list[str], trump: str) -> int:
    """Index of the card winning the (partial) trick (asked of the core)."""
    deck, follow, win, suit = _core_args(trump)
    return tricks.winner_index(deck, follow, win, suit, [deck.card_id(c) for c in cards])


def _beats(card: str, played: list[str], trump: str) -> bool:
    """Would ``card`` take the lead of the trick ``played`` (asked of the core)?"""
    deck, follow, win, suit = _core_args(trump)
    return tricks.takes_lead(deck, follow, win, suit, [deck.card_id(c) for c in played], deck.card_id(card))


def _is_top(card: str, trump: str, gone: set[str]) -> bool:
    """No unplayed card of the same suit ranks above ``card``."""
    own = _strength(card, trump)
    return all((r + card[1]) in gone for r in RANKS if _strength(r + card[1], trump) > own)


def _play(obs: dict[str, Any], cards: list[str]) -> str:
    trump = obs["trump"]
    hand = obs["hand"]
    n = obs["players"]
    seat = obs["seat"]
    trick = obs.get("trick") or {"leader": seat, "cards": []}
    played = trick["cards"]
    gone = _played(obs) | set(hand)
    mine = _partners(obs)
    cheap = lambda c: (_points(c, trump) + (30 if c[1] == trump else 0), _strength(c, trump))  # noqa: E731
    if not played:
        trumps = [c for c in cards if c[1] == trump]
        outstanding = [r + trump for r in RANKS if (r + trump) not in gone]
        if seat in _trump_side(obs) and trumps and outstanding:
            top = max(trumps, key=lambda c: _strength(c, trump))
            if _is_top(top, trump, gone - {top}):
                return top
        aces = [c for c in cards if c[1] != trump and _is_top(c, trump, gone - {c})]
        if aces:
            return max(aces, key=lambda c: _points(c, trump))
        plain = [c for c in cards if c[1] != trump and c[0] not in "TA"]
        pool = plain or [c for c in cards if c[1] != trump] or cards
        return min(pool, key=cheap)
    w = _winning(played, trump)
    winner_seat = (trick["leader"] + w) % n
    best = played[w]
    last = len(played) == n - 1
    winners = [c for c in cards if _beats(c, played, trump)]
    if winner_seat in mine and n == 4:
        safe = last or _is_top(best, trump, gone)
        if safe or not winners:
            # smear points on the partner's trick (keep Jass and Mie)
            pool = [c for c in cards if not (c[1] == trump and c[0] in "J9")] or cards
            if safe:
                return max(pool, key=lambda c: (_points(c, trump), -_strength(c, trump)))
            return min(pool, key=cheap)
    if winners:
        trick_pts = sum(_points(c, trump) for c in played)
        if last:
            plain_w = [c for c in winners if c[1] != trump]
            if plain_w:
                return max(plain_w, key=lambda c: (_points(c, trump), _strength(c, trump)))
            if trick_pts >= 10 or len(winners) == len(cards):
                return min(winners, key=lambda c: _strength(c, trump))
        else:
            tops = [c for c in winners if _is_top(c, trump, gone - {c})]
            if tops:
                return max(tops, key=lambda c: _points(c, trump))
            if trick_pts >= 10:
                return min(winners, key=lambda c: _strength(c, trump))
    return min(cards, key=cheap)


def choose(observation: dict[str, Any], legal: list[str], rng: random.Random | None = None) -> str:
    obs = observation
    if len(legal) == 1:
        return legal[0]
    dec = obs.get("decision") or ""
    if dec in ("take", "kleines", "besser", "trump"):
        choice = _choose_trump_phase(obs, legal)
        if choice not in legal:
            raise ValueError(f"klaberjass policy chose {choice!r}, not one of {legal}")
        return choice
    if dec == "exchange":
        hand = obs["hand"]
        seven = "7" + obs["turned_suit"]
        with_turned = [c for c in hand if c != seven] + [obs["turned"]]
        loss = _melds_value(hand) - _melds_value(with_turned)
        gain = _points(obs["turned"], obs.get("trump"))
        return "keep" if loss >= 20 and gain < 10 else "exchange"
    if dec == "meld":
        return "declare" if "declare" in legal else "pass"
    if dec in ("kontra", "re"):
        trump = obs["trump"]
        v = hand_value(obs["hand"], trump)
        need = THRESHOLD[obs["players"]] + (0 if dec == "kontra" else 20)
        word = dec
        return word if v >= need and word in legal else "pass"
    if dec == "play":
        cards = [a for a in legal if "+" not in a]
        pick = _play(obs, cards)
        if pick + "+belle" in legal:
            return pick + "+belle"
        return pick
    return rng.choice(legal) if rng is not None else legal[0]
