"""A rule-aware heuristic policy for Squint (trickcore.games.squint).

``choose(observation, legal, rng=None) -> str`` works from the observation alone, as a bot
would.  The ideas, by decision:

* bid: estimate the tricks of the hand at no trumps and with each suit as trumps; show an Ace
  for a hand worth 6+ tricks at no trumps, the highest court of a suit worth 6+ tricks as
  trumps (Grand solo), a Deuce for a hand with no high cards (Misère), else a numeral of the
  suit it would like as trumps (numeral contracts are cheap to lose);
* 4-1 choice: SOLO with a good trump suit, else NULL (a Null never scores below 0);
* squint: play from hand (x2) only with a comfortable margin, else take;
* discards / passes: keep the cards that win tricks (or, in a Misère, throw the dangerous
  high cards; in a Null, get rid of high cards of the penalty suit);
* card play by goal: win tricks (soloist, Duo partner), lose them all (Misère), win clean
  tricks and duck dirty ones (Null), or defend: stop the soloist / feed the Misère player.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from trickcore import _core, tricks
from trickcore.games import squint as SQ

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def rank(card: str) -> int:
    return RANKS.index(card[0]) + 2


def suit(card: str) -> str:
    return card[1]


def by_suit(hand: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {s: [] for s in SUITS}
    for c in hand:
        out[suit(c)].append(c)
    for s in SUITS:
        out[s].sort(key=rank, reverse=True)
    return out


# ---- hand evaluation ------------------------------------------------------------------------
def est_nt(hand: list[str]) -> float:
    """Rough tricks at no trumps for a 10-card hand among five players."""
    total = 0.0
    for cards in by_suit(hand).values():
        ranks = [rank(c) for c in cards]
        n = len(ranks)
        top = 0
        want = 14
        for r in ranks:              # solid top sequence A, K, Q ...
            if r == want:
                top += 1
                want -= 1
            else:
                break
        total += top
        rest = ranks[top:]
        if 13 in rest and n >= 2:
            total += 0.5
        if 12 in rest and n >= 3:
            total += 0.25
        if top and n >= 5:
            total += 0.6 * (n - 4)   # length once the suit is established
    return total


def est_trump(hand: list[str], t: str) -> float:
    """Rough tricks with suit ``t`` as trumps."""
    groups = by_suit(hand)
    trumps = [rank(c) for c in groups[t]]
    n = len(trumps)
    value = {14: 1.0, 13: 0.85, 12: 0.65, 11: 0.45, 10: 0.25}
    total = 0.0
    for i, r in enumerate(trumps):
        if n > i:  # a high trump needs guards under it
            total += value.get(r, 0.0) * (1.0 if n >= 14 - r + 1 or r == 14 else 0.6)
    total += max(0, n - 3) * 0.75
    for s, cards in groups.items():
        if s == t:
            continue
        ranks = [rank(c) for c in cards]
        if 14 in ranks:
            total += 0.8
        if 13 in ranks and len(ranks) >= 2:
            total += 0.35
        if len(ranks) <= 1 and n >= 3:
            total += 0.4 if not ranks else 0.2   # ruffing chances
    return total


def misere_danger(hand: list[str]) -> float:
    """How likely the hand is forced to win a trick at no trumps (higher = worse)."""
    danger = 0.0
    for cards in by_suit(hand).values():
        ranks = sorted(rank(c) for c in cards)
        for i, r in enumerate(ranks):
            # a card is safer with many lower cards of its suit under it (it can wait)
            d = max(0, r - 7) / (1 + i)
            danger += d
    return danger


def null_value(hand: list[str], penalty: str | None) -> float:
    """Clean-trick potential minus the burden of high penalty cards."""
    v = 0.0
    for s, cards in by_suit(hand).items():
        for c in cards:
            r = rank(c)
            if s == penalty:
                v -= max(0, r - 8) * 0.4
            else:
                v += {14: 1.0, 13: 0.5, 12: 0.2}.get(r, 0.0)
    return v


# Thresholds on the estimates above, calibrated on heuristic self-play (the estimates are
# conservative: a Grand soloist with est_trump 4.5 takes about 6.3 tricks after taking the squint).
ACE_BID = 5.0
GRAND_BID = 4.5
MISERE_BID = 2.0
SOLO_CHOICE = 3.0
HAND_PLAY = {"ace": 6.0, "grand": 5.5, "plain": 4.5, "duo": 4.5}


# ---- decisions ------------------------------------------------------------------------------
def _bid(obs: dict[str, Any], legal: list[str]) -> str:
    hand = obs["hand"]
    nt = est_nt(hand)
    aces = [c for c in legal if c[0] == "A"]
    if aces and nt >= ACE_BID:
        return aces[0]
    best_t, best_g = None, -1.0
    for t in SUITS:
        courts = [c for c in legal if suit(c) == t and c[0] in "KQJ"]
        if courts:
            g = est_trump(hand, t)
            if g > best_g:
                best_t, best_g = t, g
    if best_t is not None and best_g >= GRAND_BID:
        return max((c for c in legal if suit(c) == best_t and c[0] in "KQJ"), key=rank)
    deuces = [c for c in legal if c[0] == "2"]
    if deuces and misere_danger(hand) <= MISERE_BID:
        return deuces[0]
    numerals = [c for c in legal if 3 <= rank(c) <= 10]
    if numerals:
        pref = max(SUITS, key=lambda t: (any(suit(c) == t for c in numerals), est_trump(hand, t)))
        return min((c for c in numerals if suit(c) == pref), key=rank)
    # No numeral at all: the least risky of the remaining kinds.
    options = []
    if aces:
        options.append((nt - ACE_BID, aces[0]))
    if best_t is not None:
        options.append((best_g - GRAND_BID, max((c for c in legal if suit(c) == best_t and c[0] in "KQJ"), key=rank)))
    if deuces:
        options.append((MISERE_BID - misere_danger(hand), deuces[0]))
    return max(options)[1] if options else legal[0]


def _contract_eval(obs: dict[str, Any], hand: list[str]) -> float:
    """Estimated tricks toward the contractor's goal (for the misère: minus the danger)."""
    c = obs["contract"]
    kind = c["kind"]
    if kind == "ace":
        return est_nt(hand)
    if kind == "misere":
        return -misere_danger(hand)
    if kind == "null":
        return null_value(hand, c["penalty"])
    return est_trump(hand, c["trump"])


def _squint(obs: dict[str, Any], legal: list[str]) -> str:
    c = obs["contract"]
    hand = obs["hand"]
    kind = c["kind"]
    if kind == "misere":
        return "HAND" if misere_danger(hand) <= 0.5 else "TAKE"
    e = _contract_eval(obs, hand)
    need = HAND_PLAY.get(kind, 99)
    return "HAND" if e >= need else "TAKE"


def _choice(obs: dict[str, Any], legal: list[str]) -> str:
    c = obs["contract"]
    return "SOLO" if est_trump(obs["hand"], c["solo_trump"]) >= SOLO_CHOICE else "NULL"


def _discard(obs: dict[str, Any], legal: list[str]) -> str:
    hand = obs["hand"]
    c = obs["contract"]
    kind = c["kind"]

    def after(option: str) -> list[str]:
        gone = set(option.split("+"))
        return [x for x in hand if x not in gone]

    def value(option: str) -> tuple[float, ...]:
        rest = after(option)
        gone = option.split("+")
        low = -sum(rank(x) for x in gone)
        if kind == "misere":
            return (-misere_danger(rest), -low)
        if kind == "null" or obs["decision"] == "pass":
            return (null_value(rest, c["penalty"]), low)
        if kind == "ace":
            return (est_nt(rest), low)
        t = c["trump"]
        return (est_trump(rest, t), -sum(1 for x in gone if suit(x) == t), low)

    return max(legal, key=value)


# ---- card play ------------------------------------------------------------------------------
def _rules(trump: str | None) -> tuple[_core.Deck, int, int, int]:
    return SQ.DECK, _core.FOLLOW_SUIT, _core.WIN_TRUMP, SQ.SUITS.index(trump) if trump else _core.NO_SUIT


def _winner(cards: list[str], trump: str | None) -> int:
    """Index of the card winning the (partial) trick (asked of the core)."""
    return tricks.winner_index(*_rules(trump), [SQ.DECK.card_id(c) for c in cards])


def _beats(card: str, cards: list[str], trump: str | None) -> bool:
    return tricks.takes_lead(*_rules(trump), [SQ.DECK.card_id(c) for c in cards], SQ.DECK.card_id(card))


def _unseen(obs: dict[str, Any]) -> set[str]:
    seen = set(obs["hand"])
    for t in obs.get("tricks", []):
        seen.update(t["cards"])
    if obs.get("trick"):
        seen.update(obs["trick"]["cards"])
    seen.update(obs.get("null_discards") or [])
    seen.update(obs.get("discards") or [])
    return {r + s for s in SUITS for r in RANKS} - seen


def _is_master(card: str, unseen: set[str]) -> bool:
    return all(rank(u) < rank(card) for u in unseen if suit(u) == suit(card))


def _goal(obs: dict[str, Any]) -> tuple[str, set[int], set[int]]:
    """(goal, seats to stop, seats to feed): goal is win / lose / null / defend."""
    c = obs["contract"]
    me = obs["seat"]
    kind = c["kind"]
    if kind == "null":
        return "null", set(), set()
    aces, deuces = set(c.get("aces", [])), set(c.get("deuces", []))
    if me in aces:
        return "win", set(), set()
    if me in deuces:
        return "lose", set(), set()
    if kind in ("grand", "plain", "duo"):
        if me in c["contractors"]:
            return "win", set(), set()
        return "defend", set(c["contractors"]), set()
    return "defend", aces, deuces


class _Trick:
    """What card play needs to know about the trick on the table and the seat's goal."""

    def __init__(self, obs: dict[str, Any], legal: list[str]) -> None:
        c = obs["contract"]
        self.obs, self.legal, self.contract = obs, legal, c
        self.trump, self.penalty, self.me = c["trump"], c["penalty"], obs["seat"]
        self.cards = obs["trick"]["cards"]
        leader = obs["trick"]["leader"]
        self.seats = [(leader + i) % 5 for i in range(len(self.cards))]
        self.after_me = [(leader + i) % 5 for i in range(len(self.cards) + 1, 5)]
        self.goal, self.stop, self.feed = _goal(obs)
        self.unseen = _unseen(obs)

    def low(self, cs: list[str]) -> str:
        """The lowest card, trumps counted above every other suit."""
        return min(cs, key=lambda x: (suit(x) == self.trump, rank(x)))

    @staticmethod
    def high(cs: list[str]) -> str:
        return max(cs, key=rank)

    def cheapest_discard(self, cs: list[str]) -> str:
        """Keep trumps; throw the lowest card of the shortest other suit."""
        groups = by_suit(self.obs["hand"])
        non_trump = [x for x in cs if suit(x) != self.trump] or cs
        return min(non_trump, key=lambda x: (len(groups[suit(x)]), rank(x)))

    def masters(self) -> list[str]:
        return [x for x in self.legal if _is_master(x, self.unseen)]


def _play(obs: dict[str, Any], legal: list[str]) -> str:
    t = _Trick(obs, legal)
    if not t.cards:
        return _LEADS[t.goal](t)
    return _follow(t)


def _lead_win(t: _Trick) -> str:
    legal, trump, masters = t.legal, t.trump, t.masters()
    if trump:
        tm = [x for x in masters if suit(x) == trump]
        if tm:
            return t.high(tm)
    side = [x for x in masters if suit(x) != trump]
    if side:
        return t.high(side)
    if masters:
        return t.high(masters)
    groups = by_suit(legal)
    if trump and len(groups[trump]) * 2 >= len(legal):
        return t.high(groups[trump])
    return t.cheapest_discard(legal)


def _lead_null(t: _Trick) -> str:
    clean_masters = [x for x in t.masters() if suit(x) != t.penalty]
    if clean_masters:
        return t.high(clean_masters)
    others = [x for x in t.legal if suit(x) != t.penalty]
    return min(others or t.legal, key=rank)


def _lead_defend(t: _Trick) -> str:
    masters = t.masters()
    if t.stop and masters:
        return t.high(masters)
    return min(t.legal, key=rank)


_LEADS: dict[str, Callable[[_Trick], str]] = {
    "win": _lead_win, "lose": lambda t: min(t.legal, key=rank), "null": _lead_null, "defend": _lead_defend,
}


def _follow(t: _Trick) -> str:
    legal, trick = t.legal, t.cards
    win_idx = _winner(trick, t.trump)
    winners = [x for x in legal if _beats(x, trick, t.trump)]
    losers = [x for x in legal if x not in winners]
    following = suit(legal[0]) == suit(trick[0]) and all(suit(x) == suit(trick[0]) for x in legal)
    if t.goal == "win":
        return _follow_win(t, win_idx, winners, following)
    if t.goal == "lose":
        if losers:
            return t.high(losers)
        return t.high(legal) if not t.after_me else min(legal, key=rank)
    if t.goal == "null":
        return _follow_null(t, winners, losers, following)
    return _follow_defend(t, t.seats[win_idx], winners, losers, following)


def _follow_win(t: _Trick, win_idx: int, winners: list[str], following: bool) -> str:
    legal, last = t.legal, not t.after_me
    partners = set(t.contract["contractors"]) if t.contract["kind"] == "duo" else set()
    winning_seat = t.seats[win_idx]
    if winning_seat in partners and winning_seat != t.me:
        if last or _is_master(t.cards[win_idx], t.unseen):
            return t.low(legal) if following else t.cheapest_discard(legal)
    if winners:
        if last:
            return t.low(winners)
        sure = [x for x in winners if _is_master(x, t.unseen)]
        return t.low(sure or winners)
    return t.low(legal) if following else t.cheapest_discard(legal)


def _follow_null(t: _Trick, winners: list[str], losers: list[str], following: bool) -> str:
    legal, trick, penalty, last = t.legal, t.cards, t.penalty, not t.after_me
    if not following:
        pen = [x for x in legal if suit(x) == penalty]
        return t.high(pen) if pen else t.high(legal)
    if any(suit(x) == penalty for x in trick) or suit(trick[0]) == penalty:  # a dirty trick
        return t.high(losers) if losers else (t.high(legal) if last else min(legal, key=rank))
    if winners:
        return min(winners, key=rank) if last else t.high(winners)
    return min(legal, key=rank)


def _follow_defend(t: _Trick, winning_seat: int, winners: list[str], losers: list[str], following: bool) -> str:
    legal, stop, feed = t.legal, t.stop, t.feed
    if feed and not stop:
        if winning_seat in feed:
            return t.high(losers) if losers else min(legal, key=rank)
        if any(s in feed for s in t.after_me):
            return min(legal, key=rank)
        return min(legal, key=rank) if following else t.high(legal)
    if winning_seat in stop:
        if winners:
            return t.low(winners)
        return t.low(legal) if following else t.cheapest_discard(legal)
    if any(s in stop for s in t.after_me) and winners:
        return t.high(winners)
    return t.low(legal) if following else t.cheapest_discard(legal)


DECIDERS = {"bid": _bid, "choice": _choice, "squint": _squint, "discard": _discard, "pass": _discard,
            "play": _play}


def decide(observation: dict[str, Any], legal: list[str]) -> str:
    """The heuristic's choice (raises on an observation it does not understand)."""
    if len(legal) == 1:
        return legal[0]
    return DECIDERS[observation["decision"]](observation, legal)


def choose(observation: dict[str, Any], legal: list[str], rng: random.Random | None = None) -> str:
    """The heuristic's choice among ``legal`` (texts) for the seat of ``observation``.  An
    error in the policy propagates, and so does a choice outside ``legal``: the bundled
    heuristic bot, not the policy, decides what a policy bug costs at a tournament."""
    choice = decide(observation, legal)
    if choice not in legal:
        raise ValueError(f"squint policy chose {choice!r}, not one of {legal}")
    return choice
