"""Game authors: docs/contributing.md (section 5) has the conventions, the notation and the test
checklist for game modules.

Squint (David Parlett): five players, 52 cards, 10 each and 2 to the squint.

Rules source: ``docs/rules/squint.md`` (sections cited as §n, decisions as D-n,
vectors as SQ-nn), written from the German translation of
the rules and David Parlett's English original.
Player-facing summary with every modelling choice: ``docs/games/squint.md``.

Flow of one deal (§3-§8), all in this module; the tricks are played by the C core:

1. deal (§3): the shuffled pack ``d[0..51]``, ``d[k]`` to seat ``(D+1+k) mod 5``; ``d[50]``
   (bottom) and ``d[51]`` (top) are the squint;
2. bids (§4, DP-1): every seat picks one card of its hand, in priority order E .. D, hidden
   until all five have chosen; then all are revealed and go back to their owners' hands (D-1);
3. contract (§5, :func:`determine_contract`), with the 4-1 choice ``SOLO``/``NULL`` (DP-2);
4. squint (§6): solo ``TAKE`` + discard 2 or ``HAND`` (x2); Duo partners in bid-card order, each
   ``TAKE`` + discard 1 or ``HAND`` (x2 only if both HAND); Null passing round (eldest gets the
   squint, E..E+3 pass 2 cards left, the dealer discards 2 face up); multiple contracts: dead;
5. play (§7): eldest leads, follow suit, highest trump / highest of the led suit wins; all ten
   tricks are played (D-10);
6. scoring (§8, :func:`score_deal`); next dealer to the left; the match ends (§9) after a deal
   at whose end someone has >= ``target_score`` (0 disables), or after ``deal_limit`` deals
   (0 = none), or after ``max_deals`` deals (safeguard).

Deck: card id = suit * 13 + (rank - 2), suits ``C D H S`` = 0 1 2 3, ranks 2..14 (A = 14);
strength = rank.  Card text rank then suit: ``AS``, ``TH``, ``2C``.

Action ids (state-independent; text in brackets):
    0..51      play a card                               (``AS``)
    256..307   bid card 256 + card                      (``AS``, decision ``bid``)
    320..371   Duo discard of one card, 320 + card        (``AS``, decision ``discard``)
    400 / 401  ``TAKE`` / ``HAND``                        (decision ``squint``)
    402 / 403  ``SOLO`` / ``NULL``                        (decision ``choice``, the 4-1 pattern)
    512 + a*52 + b (a < b)  two cards                    (``2C+AS``, lower id first; decision
               ``discard`` for the solo / Null-dealer discards, ``pass`` for Null passes)
Card texts are shared by plays, bids and single discards: ``_parse`` uses the current decision.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple, cast

from trickcore import _core
from trickcore._core import Rng, TrickPhase
from trickcore.game import TERMINAL, Event, GameInfo, GameState, OptionSpec, competition_ranks
from trickcore.games import french_faces, register
from trickcore.worlds import RejectedWorld, Slot, WorldModel

N_PLAYERS = 5
HAND_SIZE = 10
N_TRICKS = 10
SUITS = "CDHS"
RANKS = "23456789TJQKA"
NO_SUIT = _core.NO_SUIT
MASK64 = (1 << 64) - 1

DECK = _core.Deck(4)
for _s, _sl in enumerate(SUITS):
    for _r, _rl in enumerate(RANKS):
        DECK.add(_rl + _sl, _s, _r + 2)
ALL_CARDS = DECK.all
SUIT_MASKS = [DECK.suit_mask(s) for s in range(4)]

BID_BASE = 256
DISCARD1_BASE = 320
TAKE, HAND, SOLO, NULL = 400, 401, 402, 403
PAIR_BASE = 512
WORDS = {TAKE: "TAKE", HAND: "HAND", SOLO: "SOLO", NULL: "NULL"}
WORD_IDS = {v: k for k, v in WORDS.items()}


def card_suit(card: int) -> int:
    return card // 13


def card_rank(card: int) -> int:
    """2..14 (A = 14)."""
    return card % 13 + 2


def card_name(card: int) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def card_id(text: str) -> int:
    text = text.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"{text!r} is not a card (rank 2..9 T J Q K A, then suit C D H S, e.g. TH)")
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])


mask = _core.cards_mask  # the mask of some card ids


cards_of = _core.cards_list  # ascending card ids of a mask


def names(cards: int | Iterable[int]) -> list[str]:
    if isinstance(cards, int):
        return DECK.names_of(cards)
    return [card_name(c) for c in sorted(cards)]



def pair_id(a: int, b: int) -> int:
    if a == b:
        raise ValueError("the two cards must differ")
    a, b = min(a, b), max(a, b)
    return PAIR_BASE + a * 52 + b


def pair_cards(action: int) -> tuple[int, int]:
    k = action - PAIR_BASE
    a, b = divmod(k, 52)
    if not (0 <= a < b < 52):
        raise ValueError(f"action {action} is not a pair of cards")
    return a, b


def priority_order(dealer: int) -> list[int]:
    """E, E+1, E+2, E+3, D (§1)."""
    return [(dealer + 1 + i) % N_PLAYERS for i in range(N_PLAYERS)]


def deal_hands(order: list[int], dealer: int) -> tuple[list[int], tuple[int, int]]:
    """§3.2-3: hands (masks) and the squint (bottom d[50], top d[51]) of a shuffled pack."""
    if len(order) != 52 or mask(order) != ALL_CARDS:     # 52 ids covering all 52 cards
        raise ValueError("a deal order is a permutation of the 52 card ids")
    hands = [0] * N_PLAYERS
    for i in range(N_PLAYERS):    # d[k] goes to seat D+1+k: seat D+1+i gets d[i], d[i+5], ...
        hands[(dealer + 1 + i) % N_PLAYERS] = mask(order[i:50:N_PLAYERS])
    return hands, (order[50], order[51])


# ---- contracts (§5) -------------------------------------------------------------------------
class Contract(NamedTuple):
    """The contract of a deal (immutable: copies of a state share it).

    kind: ``ace`` / ``misere`` (single Ace solo / Misère), ``multiple`` (two or more Ace/Deuce
    bidders), ``grand``, ``plain`` (Plain solo), ``duo``, ``null``, or ``choice`` (4-1 pattern,
    the singleton player still has to choose SOLO or NULL).  ``contractors`` in decision order
    (a Duo's first partner is the one with the higher bid card)."""

    kind: str
    contractors: tuple[int, ...] = ()
    trump: int = NO_SUIT
    penalty: int | None = None
    aces: tuple[int, ...] = ()
    deuces: tuple[int, ...] = ()
    pattern: str | None = None
    solo_trump: int | None = None      # choice: trumps if SOLO
    null_penalty: int | None = None    # choice: penalty suit if NULL

    def public(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "contractors": list(self.contractors),
             "trump": SUITS[self.trump] if self.trump != NO_SUIT else None,
             "penalty": SUITS[self.penalty] if self.penalty is not None else None}
        if self.kind == "multiple" or self.aces or self.deuces:
            d["aces"] = list(self.aces)
            d["deuces"] = list(self.deuces)
        if self.pattern:
            d["pattern"] = self.pattern
        if self.kind == "choice":
            assert self.solo_trump is not None and self.null_penalty is not None, "a 4-1 choice names both"
            d["chooser"] = self.contractors[0]
            d["solo_trump"] = SUITS[self.solo_trump]
            d["null_penalty"] = SUITS[self.null_penalty]
        return d


def determine_contract(bids: list[int], dealer: int) -> Contract:
    """§5: the contract for the five bid cards ``bids[seat]`` (card ids)."""
    if len(bids) != N_PLAYERS:
        raise ValueError("five bid cards are needed")
    prio = priority_order(dealer)
    ranks = [card_rank(c) for c in bids]
    suits = [card_suit(c) for c in bids]
    # Step 1: Aces and Deuces.
    aces = tuple([s for s in prio if ranks[s] == 14])
    deuces = tuple([s for s in prio if ranks[s] == 2])
    if aces or deuces:
        if len(aces) + len(deuces) == 1:
            if aces:
                return Contract("ace", aces, aces=aces)
            return Contract("misere", deuces, deuces=deuces)
        return Contract("multiple", tuple([s for s in prio if s in aces or s in deuces]),
                        aces=aces, deuces=deuces)
    # Step 2: court cards (K > Q > J, priority order breaks ties).
    courts = [s for s in prio if 11 <= ranks[s] <= 13]
    if courts:
        best = max([ranks[s] for s in courts])
        soloist = [s for s in courts if ranks[s] == best][0]  # first in priority order
        return Contract("grand", (soloist,), trump=suits[soloist])
    # Step 3: numerals only - the suit pattern.
    count = [0] * 4
    for s in suits:
        count[s] += 1
    pattern = "-".join([str(c) for c in sorted([c for c in count if c], reverse=True)])
    if pattern == "5":
        pattern = "5-0"  # the rules' name (docs/rules/squint.md §5)
    by_count: dict[int, list[int]] = {}
    for suit in range(4):
        by_count.setdefault(count[suit], []).append(suit)
    if pattern == "2-2-1":
        single = by_count[1][0]
        soloist = [s for s in prio if suits[s] == single][0]
        return Contract("plain", (soloist,), trump=single, pattern=pattern)
    if pattern in ("2-1-1-1", "3-2"):
        pair_suit = by_count[2][0]
        partners = [s for _minus_rank, s in sorted([(-ranks[s], s) for s in range(N_PLAYERS)
                                                    if suits[s] == pair_suit])]   # higher bid card first
        return Contract("duo", tuple(partners), trump=pair_suit, pattern=pattern)
    if pattern == "3-1-1":
        return Contract("null", (), penalty=by_count[3][0], pattern=pattern)
    if pattern == "5-0":
        return Contract("null", (), penalty=by_count[5][0], pattern=pattern)
    if pattern == "4-1":
        single = by_count[1][0]
        chooser = [s for s in prio if suits[s] == single][0]
        return Contract("choice", (chooser,), pattern=pattern, solo_trump=single,
                        null_penalty=by_count[4][0])
    raise AssertionError(f"impossible pattern {pattern}")  # five cards in four suits


def resolve_choice(contract: Contract, choice: str) -> Contract:
    """DP-2: the 4-1 singleton player's SOLO (Plain solo) or NULL."""
    if contract.kind != "choice":
        raise ValueError("only a 4-1 pattern has a choice")
    if choice == "SOLO":
        assert contract.solo_trump is not None, "a 4-1 choice names its trump suit"
        return Contract("plain", contract.contractors, trump=contract.solo_trump, pattern=contract.pattern)
    if choice == "NULL":
        return Contract("null", (), penalty=contract.null_penalty, pattern=contract.pattern)
    raise ValueError(f"the 4-1 choice is SOLO or NULL, not {choice!r}")


# ---- scoring (§8) ---------------------------------------------------------------------------
def ace_score(t: int, h: int = 1) -> int:
    return 20 * (t - 5) * h if t >= 6 else -20 * (6 - t) * h


def misere_score(t: int, h: int = 1) -> int:
    return 25 * h if t == 0 else -25 * t * h


def grand_score(t: int, h: int = 1) -> int:
    return 15 * (t - 5) * h if t >= 6 else -15 * (6 - t) * h


def duo_score(combined: int, h: int = 1) -> int:
    return 10 * (combined - 5) * h if combined >= 6 else -10 * (6 - combined) * h


def plain_score(s: int, best_opponent: int, h: int = 1) -> int:
    """s > M wins 10 per trick over 2; a tie or less loses 5 per trick of the best opponent (D-11)."""
    return 10 * (s - 2) * h if s > best_opponent else -5 * best_opponent * h


def null_score(t: int, c: int) -> int:
    """D-12: 0 tricks -> 0; all clean -> 20 per trick; else 10 per clean trick."""
    if t == 0:
        return 0
    if c == t:
        return 20 * t
    return 10 * c


def clean_counts(tricks: Iterable[tuple[Any, ...]], penalty: int) -> list[int]:
    """Clean tricks per seat from ``(leader, moves, winner, ...)`` records (§8 Null)."""
    clean = [0] * N_PLAYERS
    for trick in tricks:
        moves, winner = trick[1], trick[2]
        if penalty not in [card_suit(m & 127) for m in moves]:
            clean[winner] += 1
    return clean


def score_deal(contract: Contract, tricks: list[int], clean: list[int] | None = None, h: int = 1) -> list[int]:
    """Score changes of one deal (§8); opponents score 0 (D-3)."""
    out = [0] * N_PLAYERS
    k = contract.kind
    if k in ("ace", "misere", "multiple"):
        mult = h if k != "multiple" else 1
        for s in contract.aces:
            out[s] = ace_score(tricks[s], mult)
        for s in contract.deuces:
            out[s] = misere_score(tricks[s], mult)
    elif k == "grand":
        s = contract.contractors[0]
        out[s] = grand_score(tricks[s], h)
    elif k == "plain":
        s = contract.contractors[0]
        best = max([tricks[o] for o in range(N_PLAYERS) if o != s])
        out[s] = plain_score(tricks[s], best, h)
    elif k == "duo":
        combined = sum([tricks[s] for s in contract.contractors])
        for s in contract.contractors:
            out[s] = duo_score(combined, h)
    elif k == "null":
        if clean is None:
            raise ValueError("a Null is scored from the clean-trick counts")
        for s in range(N_PLAYERS):
            out[s] = null_score(tricks[s], clean[s])
    else:
        raise ValueError(f"cannot score an undecided contract ({k})")
    return out


def game_over(totals: list[int], deals_done: int, target_score: int, deal_limit: int, max_deals: int) -> bool:
    """§9: checked between deals only."""
    if target_score > 0 and max(totals) >= target_score:
        return True
    if deal_limit > 0 and deals_done >= deal_limit:
        return True
    return deals_done >= max_deals


# ---- the game -------------------------------------------------------------------------------
class SquintState(GameState):
    """One match of Squint; see the module docstring."""

    def __init__(self, num_players: int = N_PLAYERS, options: dict[str, Any] | None = None, seed: int = 0,
                 _deal_overrides: dict[int, list[int]] | None = None):
        super().__init__(num_players, options, seed)
        # Tests may fix the pack of given deals (deal index -> d[0..51]); players never can.
        self._deal_overrides = dict(_deal_overrides or {})
        fd = self.options["first_dealer"]
        self.dealer = fd if fd >= 0 else Rng(seed ^ 0x5351_5549_4E54).below(N_PLAYERS)
        self.deal_no = 0           # deals completed so far; the current deal is deal_no + 1
        self.totals = [0] * N_PLAYERS
        self.results: list[dict[str, Any]] = []
        self._over = False
        self._begin_deal()

    # ---- deal flow ------------------------------------------------------------------------
    def _deal_order(self, index: int) -> list[int]:
        if index in self._deal_overrides:
            return list(self._deal_overrides[index])
        rng = Rng((self.seed + (index + 1) * 0x9E3779B97F4A7C15) & MASK64)
        order = list(range(52))
        rng.shuffle(order)
        return order

    def _begin_deal(self) -> None:
        D = self.dealer
        self.eldest = (D + 1) % N_PLAYERS
        self.order = self._deal_order(self.deal_no)
        self.hands, self.squint = deal_hands(self.order, D)
        self.dealt = list(self.hands)
        self.squint_left = mask(self.squint)      # squint cards still face down, unused
        self.bids: list[int | None] = [None] * N_PLAYERS
        self.contract: Contract | None = None
        self.offer: dict[int, list[int]] = {}     # seat -> squint cards it picked up
        self.discards: dict[int, list[int]] = {}  # seat -> face-down discards
        self.squint_log: list[tuple[int, str]] = []
        self.passes: list[tuple[int, int, tuple[int, int]]] = []
        self.null_discards: tuple[int, ...] | None = None
        self.mult = 1
        self.duo_index = 0
        self.discard_n = 0
        self.deal_start = len(self._actions)
        self.phase = "bid"
        self.to_move = self.eldest
        self._play_started = False  # whether _tp holds this deal's trick phase
        self._event({"type": "deal", "deal": self.deal_no + 1, "dealer": D, "eldest": self.eldest,
                     "hand_sizes": [HAND_SIZE] * N_PLAYERS, "squint": 2})
        self._emit_hands("hand", self.hands, names)

    @property
    def _contract(self) -> Contract:
        """The deal's contract, from the reveal of the bids on (§5)."""
        contract = self.contract
        assert contract is not None, "the contract is read only after the bids are revealed"
        return contract

    def _bid_cards(self) -> list[int]:
        """The five bid cards, once every seat has chosen (§4)."""
        bids = [b for b in self.bids if b is not None]
        assert len(bids) == N_PLAYERS, "bid cards are read only after every seat has chosen"
        return bids

    def _reveal(self) -> None:
        bids = self._bid_cards()
        self._event({"type": "reveal", "bids": [card_name(c) for c in bids]})
        contract = self.contract = determine_contract(bids, self.dealer)
        self._event({"type": "contract", "contract": contract.public()})
        if contract.kind == "choice":
            self.phase = "choice"
            self.to_move = contract.contractors[0]
        else:
            self._after_contract()

    def _after_contract(self) -> None:
        c = self._contract
        if c.kind in ("ace", "misere", "grand", "plain", "duo"):
            self.phase = "squint"
            self.duo_index = 0
            self.to_move = c.contractors[0]
        elif c.kind == "null":
            E = self.eldest
            self.hands[E] |= self.squint_left
            self.offer[E] = list(self.squint)
            self.squint_left = 0
            self._event({"type": "squint_cards", "seat": E, "cards": names(self.squint)}, [E])
            self.phase = "pass"
            self.to_move = E
        else:  # multiple: the squint is dead (D-8)
            self._start_tricks()

    def _start_tricks(self) -> None:
        self.phase = "play"
        self.to_move = self.eldest
        c = self._contract
        self._event({"type": "play_start", "leader": self.eldest, "multiplier": self.mult,
                     "trump": SUITS[c.trump] if c.trump != NO_SUIT else None,
                     "penalty": SUITS[c.penalty] if c.penalty is not None else None})
        self._play_started = True
        self._start_play(DECK, _core.FOLLOW_SUIT, _core.WIN_TRUMP, c.trump,
                         self.hands, self.eldest, N_TRICKS)

    @property
    def _play_tp(self) -> TrickPhase | None:
        """This deal's trick phase once it has started, else None."""
        return self._tp if self._play_started else None

    def _play_over(self) -> None:
        tp = self._trick_phase
        c = self._contract
        tricks = tp.tricks_won()
        clean = clean_counts(tp.tricks, c.penalty) if c.kind == "null" and c.penalty is not None else None
        delta = score_deal(c, tricks, clean, self.mult)
        for s in range(N_PLAYERS):
            self.totals[s] += delta[s]
        self.deal_no += 1
        result: dict[str, Any] = {"deal": self.deal_no, "dealer": self.dealer,
                                  "bids": [card_name(b) for b in self._bid_cards()],
                  "contract": c.public(), "multiplier": self.mult, "tricks": tricks,
                  "clean": clean, "scores": delta, "totals": list(self.totals)}
        if self.null_discards is not None:
            result["null_discards"] = names(self.null_discards)
        self.results.append(result)
        self._event_of("deal_end", result)
        o = self.options
        if game_over(self.totals, self.deal_no, o["target_score"], o["deal_limit"], o["max_deals"]):
            self._over = True
            self.phase = "over"
            self._event({"type": "game_end", "scores": list(self.totals), "ranks": competition_ranks(self.totals),
                         "deals": self.deal_no})
        else:
            self.dealer = (self.dealer + 1) % N_PLAYERS
            self._begin_deal()

    # ---- interface --------------------------------------------------------------------------
    def _current_player(self) -> int:
        if self._over:
            return TERMINAL
        if self.phase == "play":
            return self._trick_phase.to_move
        return self.to_move

    def decision(self) -> str:
        if self.is_terminal():
            return ""
        return self.phase

    def _legal(self) -> list[int]:
        p = self.phase
        s = self.to_move
        if p == "bid":
            return [BID_BASE + c for c in cards_of(self.hands[s])]
        if p == "choice":
            return [SOLO, NULL]
        if p == "squint":
            return [TAKE, HAND]
        if p == "discard" and self.discard_n == 1:
            return [DISCARD1_BASE + c for c in cards_of(self.hands[s])]
        if p in ("discard", "pass"):
            cs = cards_of(self.hands[s])
            return [PAIR_BASE + a * 52 + b for i, a in enumerate(cs) for b in cs[i + 1:]]
        if p == "play":  # only reached off the fast path
            return self._trick_phase.moves()
        return []

    def action_to_string(self, action: int) -> str:
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(f"{action!r} is not an action id")
        if 0 <= action < 52:
            return card_name(action)
        if BID_BASE <= action < BID_BASE + 52:
            return card_name(action - BID_BASE)
        if DISCARD1_BASE <= action < DISCARD1_BASE + 52:
            return card_name(action - DISCARD1_BASE)
        if action in WORDS:
            return WORDS[action]
        if PAIR_BASE <= action < PAIR_BASE + 52 * 52:
            a, b = pair_cards(action)
            return f"{card_name(a)}+{card_name(b)}"
        raise ValueError(f"{action} is not a squint action id")

    def _parse(self, text: str) -> int:
        t = text
        if t in WORD_IDS:
            return WORD_IDS[t]
        p = self.phase if not self._over else ""
        if "+" in t:
            parts = t.split("+")
            if len(parts) != 2:
                raise ValueError("two cards are written like 2C+AS")
            return pair_id(card_id(parts[0]), card_id(parts[1]))
        card = card_id(t)
        if p == "bid":
            return BID_BASE + card
        if p == "discard" and self.discard_n == 1:
            return DISCARD1_BASE + card
        return card

    def _apply(self, action: int) -> None:
        p = self.phase
        s = self.to_move
        if p == "bid":
            card = action - BID_BASE
            self.bids[s] = card
            self._event({"type": "bid_chosen", "seat": s})
            self._event({"type": "bid", "seat": s, "card": card_name(card)}, [s])
            if None not in self.bids:
                self._reveal()
            else:
                self.to_move = (s + 1) % N_PLAYERS
        elif p == "choice":
            word = WORDS[action]
            self._event({"type": "choice", "seat": s, "choice": word})
            self.contract = resolve_choice(self._contract, word)
            self._event({"type": "contract", "contract": self.contract.public()})
            self._after_contract()
        elif p == "squint":
            self._apply_squint(s, action)
        elif p == "discard":
            self._apply_discard(s, action)
        elif p == "pass":
            a, b = pair_cards(action)
            to = (s + 1) % N_PLAYERS
            pm = mask((a, b))
            self.hands[s] &= ~pm
            self.hands[to] |= pm
            self.passes.append((s, to, (a, b)))
            self._event({"type": "pass", "seat": s, "to": to, "count": 2})
            self._event({"type": "pass_cards", "seat": s, "to": to, "cards": names((a, b))}, [s, to])
            if to == self.dealer:
                self.phase = "discard"
                self.discard_n = 2
            self.to_move = to
        else:  # pragma: no cover - plays never come here
            raise AssertionError(f"no slow-path action in phase {p}")

    def _apply_squint(self, s: int, action: int) -> None:
        c = self._contract
        word = WORDS[action]
        self.squint_log.append((s, word))
        self._event({"type": "squint", "seat": s, "choice": word})
        if c.kind != "duo":
            if action == TAKE:
                self._pick_up(s, list(self.squint))
                self.phase = "discard"
                self.discard_n = 2
            else:
                self.mult = 2
                self._start_tricks()
            return
        offered = self.squint[1] if self.duo_index == 0 else self.squint[0]  # top to the first partner
        if action == TAKE:
            self._pick_up(s, [offered])
            self.phase = "discard"
            self.discard_n = 1
        else:
            self._next_duo_partner()

    def _pick_up(self, s: int, cards: list[int]) -> None:
        m = mask(cards)
        self.hands[s] |= m
        self.squint_left &= ~m
        self.offer[s] = cards
        self._event({"type": "squint_cards", "seat": s, "cards": names(cards)}, [s])

    def _next_duo_partner(self) -> None:
        if self.duo_index == 0:
            self.duo_index = 1
            self.phase = "squint"
            self.to_move = self._contract.contractors[1]
        else:
            self.mult = 2 if all(w == "HAND" for _s, w in self.squint_log) else 1
            self._start_tricks()

    def _apply_discard(self, s: int, action: int) -> None:
        cards: tuple[int, ...]
        if self.discard_n == 1:
            cards = (action - DISCARD1_BASE,)
        else:
            cards = pair_cards(action)
        self.hands[s] &= ~mask(cards)
        if self._contract.kind == "null":  # the dealer's face-up discards
            self.null_discards = tuple(cards)
            self._event({"type": "null_discard", "seat": s, "cards": names(cards)})
            self._start_tricks()
            return
        self.discards[s] = list(cards)
        self._event({"type": "discarded", "seat": s, "count": len(cards)})
        self._event({"type": "discard", "seat": s, "cards": names(cards)}, [s])
        if self._contract.kind == "duo":
            self._next_duo_partner()
        else:
            self._start_tricks()

    def _is_terminal(self) -> bool:
        return self._over

    def deal_number(self) -> int:
        return self.deal_no

    def scores(self) -> list[float]:
        return [float(t) for t in self.totals]

    # ---- worlds (docs/search.md; what a seat may know: §10) --------------------------------------
    def _world_model(self, seat: int | None) -> WorldModel[SquintState]:
        """Hidden from ``seat``: the other hands, the face-down squint cards nobody took, the
        other seats' face-down discards, the other seats' bid cards until the reveal (a card of
        the chooser's hand, which keeps it, D-1), which squint cards another contractor took
        and, in a Null, the passes ``seat`` neither gave nor received.

        Known places: a revealed bid card was dealt to its owner, so it is in his hand, his
        discards or (Null) passed on to a seat after him; the cards ``seat`` passed went to the
        seats after it in the passing round; a card a seat did not follow with is not in its
        hand.  In a Null the worlds are uniform over where the cards are now (each with one
        passing history that leads there), not over passing histories."""
        c = self.contract
        tp = self._play_tp
        in_play = tp is not None and not tp.over
        hidden = [q for q in range(N_PLAYERS) if q != seat]
        hands = [self._hand_now(q) for q in range(N_PLAYERS)]
        cards = self.squint_left
        for q in hidden:
            cards |= hands[q] | mask(self.discards.get(q, ()))
        null = c is not None and c.kind == "null"
        chain = [(self.eldest + i) % N_PLAYERS for i in range(N_PLAYERS)]    # E .. D, Null passes
        slots = [Slot(("hand", q), _core.cards_count(hands[q]),
                      cards & ~tp.exclusions(q, cards) if in_play and tp is not None else cards) for q in hidden]
        slots += [Slot(("discard", q), len(self.discards[q]), cards) for q in hidden if q in self.discards]
        slots.append(Slot(("squint",), _core.cards_count(self.squint_left), cards))
        places: dict[int, set[Hashable]] = {}          # card -> the only slots it may lie in

        def downstream(q: int) -> set[Hashable]:
            # a Null card dealt to q may have been passed on, but only as far as passing has gone
            reach = chain[chain.index(q):max(chain.index(q), len(self.passes)) + 1]
            return {("hand", p) for p in reach if p != seat} if null else {("hand", q)}
        if c is not None:                                                     # revealed bid cards
            for q, b in enumerate(self._bid_cards()):
                if cards >> b & 1:
                    places[b] = downstream(q) | ({("discard", q)} if q in self.discards else set())
        if null and seat is not None:
            for giver, _to, pair in self.passes:
                if giver == seat:
                    for card in pair:
                        if cards >> card & 1:
                            places[card] = downstream(chain[chain.index(seat) + 1])
        for card, keys in places.items():
            slots = [sl if sl.key in keys else Slot(sl.key, sl.size, sl.allowed & ~(1 << card)) for sl in slots]
        secret_bids = [] if c is not None else [q for q in hidden if self.bids[q] is not None]

        def build(assignment: dict[Hashable, int], rng: random.Random) -> SquintState:
            world = cast(SquintState, self._world_base(seat, rng))
            new_hands = [assignment["hand", q] if q != seat else hands[q] for q in range(N_PLAYERS)]
            world.squint_left = assignment["squint",]
            world.discards = {q: (cards_of(assignment["discard", q]) if q != seat else list(ds))
                              for q, ds in self.discards.items()}
            takers = iter([q for q, word in self.squint_log if word == "TAKE"])
            for index in range(self.deal_start, len(self._actions) - 1):
                if self._actions[index] == TAKE:            # the taker's discard follows his TAKE
                    q = next(takers)
                    if q != seat and q in world.discards:
                        ds = world.discards[q]
                        world._actions[index + 1] = (DISCARD1_BASE + ds[0] if len(ds) == 1
                                                     else PAIR_BASE + ds[0] * 52 + ds[1])
            world.bids = list(self.bids)
            for q in secret_bids:                       # D-1: any card of the chooser's hand
                wanted = assignment.get(("bid", q), 0) & new_hands[q]     # a caller's knowledge
                card = _core.cards_first(wanted) if wanted else rng.choice(cards_of(new_hands[q]))
                world.bids[q] = card
                world._actions[self.deal_start + (q - self.eldest) % N_PLAYERS] = BID_BASE + card
            if null:
                self._world_null_passes(world, seat, new_hands, tp, chain, rng)
            else:
                self._world_squint_taken(world, seat, new_hands, tp, rng)
            if in_play:
                world._world_trick_phase(new_hands)
            else:
                world.hands = new_hands
            return world
        return WorldModel(seat, cards, slots, build)

    def _world_squint_taken(self, world: SquintState, seat: int | None, hands: list[int],
                            tp: TrickPhase | None, rng: random.Random) -> None:
        """Which squint cards another contractor took (any of his cards that was not dealt to
        him for sure: not his bid card), and the dealt hands and pack order that follow."""
        held = [hands[q] | (tp.played(q) if tp is not None else 0) | mask(world.discards.get(q, ()))
                for q in range(N_PLAYERS)]
        offer = dict(self.offer)
        taken = 0
        for q, cards in self.offer.items():
            if q != seat:
                bid = self.bids[q]
                known = 1 << bid if bid is not None and self.contract is not None else 0
                pick = rng.sample(cards_of(held[q] & ~known & ~taken), len(cards))
                offer[q] = pick
            taken |= mask(offer[q])
        world.offer = offer
        dealt = [held[q] & ~mask(offer.get(q, ())) for q in range(N_PLAYERS)]
        # the squint's two positions (d[50] bottom, d[51] top): the first Duo partner was offered
        # the top card (§6), the second the bottom one; untaken cards fill the rest
        if self.contract is not None and self.contract.kind == "duo":
            top = offer[self.contract.contractors[0]] if self.contract.contractors[0] in offer else []
            bottom = offer[self.contract.contractors[1]] if self.contract.contractors[1] in offer else []
            rest = cards_of(world.squint_left)
            rng.shuffle(rest)
            squint = ((bottom or [rest.pop()])[0], (top or [rest.pop()])[0])
        else:
            pair = [card for q in offer for card in offer[q]] or cards_of(world.squint_left)
            rng.shuffle(pair)
            squint = (pair[0], pair[1])
        self._world_pack(world, dealt, squint, rng)

    def _world_null_passes(self, world: SquintState, seat: int | None, hands: list[int],
                           tp: TrickPhase | None, chain: list[int], rng: random.Random) -> None:
        """A passing history of a Null that leads to ``hands``: each pass ``seat`` did not see
        carries the cards known to have crossed it (a bid card now after its owner, a card
        ``seat`` passed now further on) and cards of the receiver's hand otherwise."""
        held = [hands[q] | (tp.played(q) if tp is not None else 0) for q in range(N_PLAYERS)]
        held[self.dealer] |= mask(self.null_discards or ())
        where = {card: chain.index(q) for q in range(N_PLAYERS) for card in cards_of(held[q])}
        origin: dict[int, int] = {}                   # card -> chain index it is known to start at
        for q, b in enumerate(self._bid_cards()):
            origin[b] = chain.index(q)
        known_pass = {giver: pair for giver, _to, pair in self.passes if seat in (giver, _to)}
        if seat is not None:
            for card in cards_of(self.dealt[seat]):
                origin[card] = chain.index(seat)
            if seat == self.eldest:
                for card in self.squint:
                    origin[card] = 0
            for giver, pair in known_pass.items():
                for card in pair:
                    origin.setdefault(card, chain.index(giver))
        passes = []
        crossing_all = 0
        for i in range(len(self.passes)):
            giver, to = chain[i], chain[i + 1]
            crossing = {card for card, o in origin.items() if o <= i < where[card]}
            if giver in known_pass:
                pair = known_pass[giver]
                if not crossing <= set(pair):
                    raise RejectedWorld(f"cards {sorted(crossing)} would have to cross {giver}->{to}")
            else:
                if len(crossing) > 2:
                    raise RejectedWorld(f"{len(crossing)} cards would have to cross {giver}->{to}")
                fill = [card for card in cards_of(held[to]) if card not in origin and card not in crossing
                        and not crossing_all >> card & 1]
                if len(fill) < 2 - len(crossing):
                    raise RejectedWorld(f"no cards to pass from {giver} to {to}")
                a, b = sorted(list(crossing) + rng.sample(fill, 2 - len(crossing)))
                pair = (a, b)
                for card in pair:
                    origin.setdefault(card, i)
                world._actions[self._null_pass_index(i)] = PAIR_BASE + a * 52 + b
            for card in pair:
                crossing_all |= 1 << card
            passes.append((giver, to, pair))
        world.passes = passes
        # undo the passes: the hands as dealt, the eldest's two squint cards
        start = list(held)
        start[self.dealer] = held[self.dealer]
        for giver, to, pair in reversed(passes):
            start[to] &= ~mask(pair)
            start[giver] |= mask(pair)
        e = self.eldest
        if seat == e:
            squint = self.squint
        else:
            free = [card for card in cards_of(start[e]) if origin.get(card, 0) == 0 and card != self._bid_cards()[e]]
            squint_cards = rng.sample(free, 2)
            squint = (squint_cards[0], squint_cards[1])
        world.offer = {e: list(squint)}
        start[e] &= ~mask(squint)
        self._world_pack(world, start, squint, rng)

    def _null_pass_index(self, i: int) -> int:
        """History index of the i-th pass of this deal's Null passing round."""
        k = -1
        for index in range(self.deal_start, len(self._actions)):
            if self._actions[index] >= PAIR_BASE:
                k += 1
                if k == i:
                    return index
        raise AssertionError(f"pass {i} is not in the history")

    def _world_pack(self, world: SquintState, dealt: list[int], squint: tuple[int, int], rng: random.Random) -> None:
        """Dealt hands and squint as a pack order d[0..51] (§3.2), for a world's record."""
        if sorted(_core.cards_count(h) for h in dealt) != [HAND_SIZE] * N_PLAYERS:
            raise RejectedWorld("the dealt hands do not hold ten cards each")
        world.squint = squint
        world.dealt = list(dealt)
        per = [cards_of(h) for h in dealt]
        for cs in per:
            rng.shuffle(cs)
        order = [per[(self.dealer + 1 + k) % N_PLAYERS][k // N_PLAYERS] for k in range(50)]
        world.order = order + [squint[0], squint[1]]
        world._world_replay = (self.deal_start, {"_deal_overrides": {self.deal_no: world.order}})

    # ---- observation (§10) ------------------------------------------------------------------
    def _hand_now(self, seat: int) -> int:
        if self.phase == "play" or (self._over and self._play_started):
            return self._trick_phase.hand(seat)
        return self.hands[seat]

    def observation(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        c = self.contract
        revealed = c is not None
        obs = {
            "last_trick": self.last_trick(),
            "game": "squint", "seat": seat, "deal": self.deal_no + (0 if self._over else 1),
            "dealer": self.dealer, "eldest": self.eldest, "priority": priority_order(self.dealer),
            "phase": self.phase, "decision": self.decision(), "to_move": self.current_player(),
            "scores": self.scores(),  # the match totals, as scores() gives them
            "target_score": self.options["target_score"], "deal_limit": self.options["deal_limit"],
            "hand": names(self._hand_now(seat)),
            "hand_sizes": [_core.cards_count(self._hand_now(s)) for s in range(N_PLAYERS)],
            "bid": card_name(own) if (own := self.bids[seat]) is not None else None,
            "bids_chosen": [b is not None for b in self.bids],
            "bids": [card_name(b) for b in self._bid_cards()] if revealed else None,
            "contract": c.public() if c is not None else None,
            "squint_decisions": [{"seat": s, "choice": w} for s, w in self.squint_log],
            "multiplier": self.mult,
            "squint_cards": names(self.offer[seat]) if seat in self.offer else None,
            "discards": names(self.discards[seat]) if seat in self.discards else None,
            "passes": [{"seat": a, "to": b} for a, b, _cards in self.passes],
            "passed": next((names(cs) for a, _b, cs in self.passes if a == seat), None),
            "received": next((names(cs) for _a, b, cs in self.passes if b == seat), None),
            "null_discards": names(self.null_discards) if self.null_discards is not None else None,
        }
        tp = self._play_tp
        if tp is not None:
            leader, moves, _led, _open = tp.current_trick()
            obs["trick"] = None if tp.over else {"leader": leader, "cards": [card_name(m) for m in moves]}
            done = tp.tricks
            obs["tricks"] = self._described_tricks(
                tp, lambda t: {"leader": t[0], "cards": [card_name(m) for m in t[1]], "winner": t[2]})
            obs["tricks_won"] = tp.tricks_won()
            if c is not None and c.kind == "null" and c.penalty is not None:
                obs["clean_tricks"] = clean_counts(done, c.penalty)
        else:
            obs["trick"] = None
            obs["tricks"] = []
            obs["tricks_won"] = [0] * N_PLAYERS
        obs["results"] = [dict(r) for r in self.results]
        return obs



def _deck(players: int, options: Mapping[str, Any]) -> _core.Deck:
    """GameInfo.deck: the 52 cards."""
    return DECK


def _shown_cards(event: Event, seat: int) -> Iterator[tuple[Any, Hashable, bool]]:
    """GameInfo.shown_cards: the squint's cards (the eldest picks them up), cards passed face down
    and a dealer's face-up Null discards (from their seat's hand), the seat's own bid card, and
    every bid card when they are turned up."""
    kind = event.get("type")
    if kind == "squint_cards":
        yield event.get("cards", []), ("squint",), False
    elif kind in ("pass_cards", "null_discard") and "seat" in event:
        yield event.get("cards", []), ("hand", event["seat"]), kind == "pass_cards"
    elif kind == "bid" and "card" in event and "seat" in event:
        yield event["card"], event["seat"], False
    elif kind == "reveal" and isinstance(event.get("bids"), list):
        for q, text in enumerate(event["bids"]):
            yield text, ("bid", q) if q != seat else q, True


GAME_INFO = register(GameInfo(
    name="squint", title="Squint", players=(N_PLAYERS,),
    options=(
        OptionSpec("target_score", int, 150, "the game ends after a deal at whose end someone has at "
                   "least this total (0 = no target)", minimum=0),
        OptionSpec("deal_limit", int, 0, "the game ends after this many deals (0 = no limit; a "
                   "multiple of 5 lets everyone deal equally often)", minimum=0),
        OptionSpec("max_deals", int, 200, "engine safeguard: stop after this many deals", minimum=1),
        OptionSpec("first_dealer", int, -1, "seat of the first dealer (-1 = drawn from the seed)",
                   minimum=-1, maximum=N_PLAYERS - 1),
    ),
    factory=SquintState,
    deck=_deck, faces=french_faces, shown_cards=_shown_cards,
    encoding="trickcore.games.squint.encoding:SquintEncoding",
    policy="trickcore.games.squint.policy:choose",
    table="trickcore.games.squint.table:TABLE",
    short_options={"deal_limit": 1},
    # card play searched with greedy rollouts, the other decisions the heuristic's (docs/search.md)
    search_tuning={"searched": "play", "policy": "greedy"},
    summary="David Parlett's Squint: 5 players, bid cards, Ace/Grand/Plain solos, Misere, Duo, Null"))
