"""A rule-aware heuristic policy for Beim Jupiter (trickcore game ``beim-jupiter``).

``choose(observation, legal, rng=None) -> str`` works from the seat's observation alone, as a bot
would (the tournament's heuristic bot calls it).  The idea:

* colour card (D1): a high number card of a suit that is long in hand and already common on the
  table, so the trump is likely a suit we control and the prize is worth having;
* bid (D2): estimate each hand card's chance to win a trick (JUP/JUNO almost surely, high trumps
  likely, top cards of side suits sometimes, lambs never), take the distribution of the trick
  count as a sum of independent chances, and bid the count with the best expected prize (our own
  card or a better unlocked card lying at that count); lock when the estimate is sharp enough;
  the zero-tricks card when a hand is weak enough that taking no trick is the most likely result;
* play (D3): hit the bid exactly: while below the target win tricks cheaply (the weakest card that
  very likely wins, God cards declared 15), once at the target duck (the card least likely to win,
  God cards declared 0, lambs when nothing else is safe, dangerous high cards shed when safe).
"""

from __future__ import annotations

import random
from typing import Any

from trickcore import _core, tricks
from trickcore.games import beim_jupiter as BJ

SUITS = "BRYG"
MAX_VALUE = {3: 8, 4: 11, 5: 14}
N_LAMBS = {3: 2, 4: 3, 5: 3}
GOD_HIGH = 15
BID_SCALE = 0.9
NEIGHBOUR = 0.5


# ---- cards -------------------------------------------------------------------------------
def kind(name: str) -> str:
    if name == "JUP" or name == "JUNO":
        return "top"
    if name.startswith("LAMB"):
        return "lamb"
    if name.endswith("god"):
        return "god"
    return "number"


def suit(name: str) -> str | None:
    return name[0] if kind(name) in ("number", "god") else None


def value(name: str) -> int:
    return int(name[1:]) if kind(name) == "number" else 0


def split_move(move: str) -> tuple[str, int | None]:
    name, eq, decl = move.partition("=")
    return name, (int(decl) if eq else None)


def full_deck(n: int) -> list[str]:
    m = MAX_VALUE[n]
    out = [f"{s}{v}" for s in SUITS for v in range(1, m + 1)] + [f"{s}god" for s in SUITS]
    return out + ["JUP", "JUNO"] + ["LAMB"] * N_LAMBS[n]


def is_trump(name: str, trump: str | None) -> bool:
    k = kind(name)
    return k == "top" or (trump is not None and k in ("number", "god") and name[0] == trump)


def rank(name: str, decl: int | None) -> int:
    if kind(name) == "god":
        assert decl is not None, "a God card is ranked by its declaration"
        return decl
    return value(name)


def _rules(n: int, trump: str | None) -> tuple[_core.Deck, int, int, int]:
    return BJ.DECKS[n], _core.FOLLOW_SUIT, _core.WIN_TRUMP, SUITS.index(trump) if trump else _core.NO_SUIT


def move_id(n: int, name: str, decl: int | None) -> int:
    return BJ.DECKS[n].parse_move(name if decl is None else f"{name}={decl}")


def trick_winner_index(cards: list[tuple[str, int | None]], trump: str | None, n: int) -> int | None:
    """Index of the card winning the (partial) trick, asked of the core (rule 6.7)."""
    w = tricks.winner_index(*_rules(n, trump), [move_id(n, *c) for c in cards])
    return None if w < 0 else w


# ---- what is still unseen --------------------------------------------------------------------
def unseen_cards(obs: dict[str, Any]) -> list[str]:
    """Cards this seat has not seen this round (other hands plus the left-over card)."""
    n = obs["players"]
    gone = set()
    for cards in obs["victory_cards"]:
        gone.update(cards)
    gone.update(obs["removed_cards"])
    for entry in obs["table"]:
        gone.update(c["card"] for c in entry["cards"])
    gone.update(c for c in obs["colour_cards"] if c)
    seen = list(obs["hand"])
    for t in obs["tricks"]:
        seen += [split_move(m)[0] for m in t["cards"]]
    if obs.get("trick"):
        seen += [split_move(m)[0] for m in obs["trick"]["cards"]]
    out = [c for c in full_deck(n) if c not in gone or c == "LAMB"]
    for c in seen:
        if c in out:
            out.remove(c)
    return out


# ---- trick chances -------------------------------------------------------------------------------
def card_win_chance(card: str, hand: list[str], unseen: list[str], trump: str | None, n: int) -> float:
    """Rough chance that ``card`` takes a trick over the round (bidding estimate)."""
    k = kind(card)
    if k == "lamb":
        return 0.0
    if k == "top":
        return 0.95
    s = card[0]
    r = GOD_HIGH if k == "god" else value(card)
    higher = sum(1 for c in unseen if suit(c) == s and (kind(c) == "god" or value(c) > r))
    if k == "number" and any(kind(c) == "god" and c[0] == s for c in unseen):
        higher = max(higher, 1)
    length = sum(1 for c in hand if suit(c) == s)
    if trump is not None and s == trump:
        tops = sum(1 for c in unseen if kind(c) == "top")
        base = {0: 0.9, 1: 0.6, 2: 0.4, 3: 0.25}.get(higher, 0.12)
        base = base * (0.85 if tops else 1.0) + 0.06 * max(0, length - 2)
        return min(base, 0.95)
    base = {0: 0.7, 1: 0.35, 2: 0.15}.get(higher, 0.04)
    base *= max(0.3, 1.0 - 0.1 * (n - 3) - 0.12 * max(0, length - 3))
    return base


def count_distribution(chances: list[float], t: int) -> list[float]:
    """Distribution of the number of successes of independent chances, capped at t."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for i, q in enumerate(dist):
            nxt[i] += q * (1 - p)
            nxt[i + 1] += q * p
        dist = nxt
    out = dist[:t + 1] + [0.0] * max(0, t + 1 - len(dist))
    out[t] += sum(dist[t + 1:])
    return out


# ---- decisions -------------------------------------------------------------------------------
def choose_colour(obs: dict[str, Any], legal: list[str]) -> str:
    hand = obs["hand"]
    table_suits = {s: 0 for s in SUITS}
    for entry in obs["table"]:
        for c in entry["cards"]:
            table_suits[c["card"][0]] += 1

    def score(c: str) -> float:
        s = c[0]
        length = sum(1 for h in hand if suit(h) == s) - 1
        god = any(kind(h) == "god" and h[0] == s for h in hand)
        return value(c) + 2.0 * length + 1.5 * table_suits[s] + (1.0 if god else 0.0)

    return max(legal, key=lambda c: (score(c), value(c), c))


def bid_prizes(obs: dict[str, Any], own: str) -> dict[int, float]:
    prizes: dict[int, float] = {}
    for entry in obs["table"]:
        best = value(own)
        for c in entry["cards"]:
            if not c["locked"]:
                best = max(best, value(c["card"]))
        prizes[entry["count"]] = best
    return prizes


def choose_bid(obs: dict[str, Any], legal: list[str]) -> str:
    n, t = obs["players"], obs["tricks_this_round"]
    trump = obs["trump"] if obs["trump"] not in (None, "none") else None
    hand = obs["hand"]
    unseen = unseen_cards(obs)
    chances = [BID_SCALE * card_win_chance(c, hand, unseen, trump, n) for c in hand]
    dist = count_distribution(chances, t)
    own = obs["colour_card"]
    prizes = bid_prizes(obs, own)
    # taking some control into account: the exact count is easier to hit near the estimate
    best_t: int | None = None
    best_ev = -1.0
    for T in range(1, t + 1):
        p = dist[T] + NEIGHBOUR * (dist[T - 1] + (dist[T + 1] if T + 1 <= t else 0.0))
        ev = p * prizes.get(T, value(own))
        if ev > best_ev:
            best_t, best_ev = T, ev
    # every round has a trick, and the first count's ev (>= 0) beats the start value -1
    assert best_t is not None, "a round has at least one trick"
    if "ZERO" in legal:
        p0 = dist[0] + 0.4 * dist[1]
        if p0 * value(own) > 1.15 * best_ev and dist[0] > 0.3:
            return "ZERO"
    sharp = dist[best_t] + 0.5 * (dist[best_t - 1] + (dist[best_t + 1] if best_t + 1 <= t else 0))
    text = f"{best_t}+L" if sharp >= 0.45 else str(best_t)
    return text if text in legal else str(best_t)


def target_of(obs: dict[str, Any]) -> int:
    bid = obs["bids"][obs["seat"]]
    if bid is None or bid == "ZERO":
        return 0
    return int(bid.split("+")[0])


def beat_chance(move: str, obs: dict[str, Any], unseen: list[str]) -> float:
    """Chance that playing ``move`` now wins the trick."""
    n, seat = obs["players"], obs["seat"]
    trump = obs["trump"] if obs["trump"] not in (None, "none") else None
    trick = obs["trick"] or {"leader": seat, "cards": []}
    cards = [split_move(m) for m in trick["cards"]]
    name, decl = split_move(move)
    after = cards + [(name, decl)]
    if kind(name) == "lamb":
        return 0.0
    if trick_winner_index(after, trump, n) != len(cards):
        return 0.0
    remaining = n - len(after)
    if remaining == 0 or kind(name) == "top":
        return 1.0                                # JUP/JUNO: the first one played stays on top
    rules = _rules(n, trump)
    after_ids = [move_id(n, *c) for c in after]
    mine_trump = is_trump(name, trump)
    beaters = 0.0
    for c in unseen:
        k = kind(c)
        if k == "lamb":
            continue
        if k == "top":
            beaters += 1.0
            continue
        if tricks.takes_lead(*rules, after_ids, move_id(n, c, GOD_HIGH if k == "god" else None)):
            # a trump beating a side suit needs a void in the led suit
            beaters += 1.0 if is_trump(c, trump) == mine_trump else 0.35
    others_cards = sum(obs["hand_sizes"][(seat + i) % n] for i in range(1, remaining + 1))
    frac = min(1.0, others_cards / max(1, len(unseen)))
    return (1.0 - frac) ** beaters if beaters else 1.0


def _decl_order(move: str, want_high: bool) -> int:
    """Tie-break between the two declarations of a God card."""
    _name, decl = split_move(move)
    if decl is None:
        return 0
    return (0 if decl == GOD_HIGH else 1) if want_high else (0 if decl == 0 else 1)


def choose_play(obs: dict[str, Any], legal: list[str]) -> str:
    """Pick the move that maximises the chance to end with exactly the target trick count."""
    n, seat = obs["players"], obs["seat"]
    trump = obs["trump"] if obs["trump"] not in (None, "none") else None
    target = target_of(obs)
    won = obs["tricks_won"][seat]
    left = obs["tricks_this_round"] - len(obs["tricks"])
    if won > target and obs["bids"][seat] != "ZERO":
        target = won          # the bid is missed: claim at the count reached, so stop winning
    unseen = unseen_cards(obs)
    hand = obs["hand"]
    best: str | None = None
    best_key: tuple[float, int] | None = None
    for m in legal:
        name, decl = split_move(m)
        c = beat_chance(m, obs, unseen)
        rest = list(hand)
        rest.remove(name)
        chances = [card_win_chance(x, rest, unseen, trump, n) for x in rest]
        dist = count_distribution(chances, left - 1)
        need = target - won

        def pf(k: int, dist: list[float] = dist) -> float:
            return dist[k] if 0 <= k < len(dist) else 0.0

        p = c * pf(need - 1) + (1 - c) * pf(need)
        key = (round(p, 6), -_decl_order(m, want_high=need > 0))
        if best_key is None or key > best_key:
            best, best_key = m, key
    assert best is not None, "legal is not empty"
    return best


DECIDERS = {"colour": choose_colour, "bid": choose_bid, "play": choose_play}


def choose(observation: dict[str, Any], legal: list[str], rng: random.Random | None = None) -> str:
    """The heuristic's choice among ``legal`` for the seat of ``observation``.  An error in
    the policy propagates (the bundled heuristic bot, not the policy, decides what a policy
    bug costs at a tournament)."""
    if len(legal) == 1:
        return legal[0]
    return DECIDERS[observation["decision"]](observation, legal)
