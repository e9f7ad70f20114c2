"""Game authors: docs/contributing.md (section 5) has the conventions, the notation and the test
checklist for game modules.

Beim Jupiter (Michael Feldkötter, Kosmos 2008) for 3, 4 or 5 players, 8 rounds.

Rules source: ``docs/rules/beim_jupiter.md``, which this module implements exactly (rules cited as
"rule 5.5", decisions A-nn: A-01..A-35 in §9, the engine's own A-36.. in §13; decision points
D1-D3, Information §11, vectors BJ-nn in §12); player summary: ``docs/games/beim_jupiter.md``.

Modelling
---------
* Decks (rule 2.2), one per player count, built at import (``DECKS[n]``): for each suit
  ``B R Y G`` (suit index 0..3, rule 1.3) the number cards 1..M (M = 8, 11, 14 for 3, 4, 5
  players; strength = points = value) followed by the suit's God card (role DECLARED,
  declarations 0 and 15, 0 points), then ``JUP`` and ``JUNO`` (suitless TOP_TRUMP) and the lambs
  (suitless ALWAYS|TWIN; card names ``LAMB``, ``LAMB2``, ``LAMB3``, but every lamb is *written*
  ``LAMB`` in moves, hands, events and observations).  Card id of value v of suit s is
  ``s * (M + 1) + v - 1``, the God card of s is ``s * (M + 1) + M``.
* Trick phase (rule 6): the core's ``FOLLOW_SUIT`` + ``WIN_TRUMP`` with the round's trump suit or
  ``NO_SUIT``; the start player leads; t = 13 - r tricks.
* Flow in this module: the round's deck and deal with the left-over card and silent redeals
  (rules 5.1-5.3), the colour card (D1, A-36: asked one seat at a time from the start player, hidden from
  the others until the public ``reveal`` event), trump determination (:func:`determine_trump`,
  rule 5.5), bids (D2, rule 5.6), the end-of-round distribution and the removal of count t
  (:func:`distribute`, rules 7.2-8.1), dealer rotation (rule 8.3), final scores (rule 8.4).
* Chance (A-41): one generator per round, ``Rng(seed ^ r * 0x9E3779B97F4A7C15)``; redeals draw from the
  same generator, so the state is a pure function of (players, options, seed, actions).

Action ids
----------
* ``0..255``   card plays: card id | declaration << 7 (``Rgod=0`` is the God card's id,
  ``Rgod=15`` the id + 128); text ``R11``, ``JUP``, ``LAMB``, ``Bgod=15``.
* ``256..383`` colour card: 256 + card id; text = the card, e.g. ``R11`` (D1).
* ``385..396`` bid T unlocked (384 + T), text ``T``; ``401..412`` bid T locked (400 + T), text
  ``T+L``; ``416`` the zero-tricks card, text ``ZERO`` (D2).

Options: ``first_dealer`` (seat of the first dealer, default 0, A-29).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, cast

from trickcore import _core
from trickcore._core import Rng
from trickcore.game import TERMINAL, CardFace, Event, GameConfigError, GameInfo, GameState, OptionSpec
from trickcore.games import colour_faces, register
from trickcore.worlds import RejectedWorld, Slot, WorldModel

# ---- cards (rules 1.3, 2.1, 2.2) ---------------------------------------------------------
SUITS = "BRYG"
ROUNDS = 8
MAX_VALUE = {3: 8, 4: 11, 5: 14}
N_LAMBS = {3: 2, 4: 3, 5: 3}
DECK_SIZE = {3: 40, 4: 53, 5: 65}
GOD_DECL = (0, 15)

COLOUR_BASE = 256      # + card id
BID_BASE = 384         # + T (unlocked)
LOCK_BASE = 400        # + T (locked)
ZERO = 416
MAX_T = 12


def _lamb_name(k: int) -> str:
    return "LAMB" if k == 0 else f"LAMB{k + 1}"


class DeckInfo:
    """The deck of one player count with per-card lookups (shared, never copied)."""

    def __init__(self, n: int):
        m = MAX_VALUE[n]
        deck = _core.Deck(4)
        for s, letter in enumerate(SUITS):
            for v in range(1, m + 1):
                deck.add(f"{letter}{v}", s, v, points=v)
            deck.add(f"{letter}god", s, 0, points=0, role=_core.ROLE_DECLARED)
        self.jup = deck.add("JUP", _core.NO_SUIT, 0, role=_core.ROLE_TOP_TRUMP)
        self.juno = deck.add("JUNO", _core.NO_SUIT, 0, role=_core.ROLE_TOP_TRUMP)
        self.lambs = [deck.add(_lamb_name(k), _core.NO_SUIT, 0, role=_core.ROLE_ALWAYS | _core.ROLE_TWIN)
                      for k in range(N_LAMBS[n])]
        deck.set_declarations(*GOD_DECL)
        assert deck.n_cards == DECK_SIZE[n]
        self.n = n
        self.max_value = m
        self.deck = deck
        self.n_cards = deck.n_cards
        self.all = deck.all
        self.suit = [deck.suit(c) if deck.suit(c) >= 0 else None for c in range(self.n_cards)]
        self.is_number = [deck.points(c) > 0 for c in range(self.n_cards)]
        self.value = [deck.points(c) for c in range(self.n_cards)]
        self.is_god = [bool(deck.role(c) & _core.ROLE_DECLARED) for c in range(self.n_cards)]
        self.is_lamb = [bool(deck.role(c) & _core.ROLE_ALWAYS) for c in range(self.n_cards)]
        self.lamb_mask = sum(1 << c for c in self.lambs)
        self.number_mask = sum(1 << c for c in range(self.n_cards) if self.is_number[c])
        self.names = [deck.name(c) for c in range(self.n_cards)]
        #: Every card's name by its upper-case text, the case the parser reads (string_to_action).
        self.name_of_upper = {name.upper(): name for name in self.names}
        # (suit, value) of every number card by id (None for the others): the flow runs trump
        # determination and the round's end on card ids with this as their ``suit_value``
        self.suit_value = [(self.suit[c], self.value[c]) if self.is_number[c] else None
                           for c in range(self.n_cards)]
        # (the flow asks only about colour cards, which are number cards)
        self.suit_value_of = cast("Callable[[int], tuple[int, int]]", self.suit_value.__getitem__)
        self.text = ["LAMB" if self.is_lamb[c] else self.names[c] for c in range(self.n_cards)]

    def card_id(self, s: int, v: int) -> int:
        """Id of number card value v of suit s (v = 0 means the God card)."""
        m = self.max_value
        return s * (m + 1) + (m if v == 0 else v - 1)

    def move_text(self, move: int) -> str:
        card = move & 127
        if self.is_lamb[card]:
            return "LAMB"
        return self.deck.move_text(move)

    def cards(self, mask: int) -> list[int]:
        return _core.cards_list(mask)

    def texts(self, mask: int) -> list[str]:
        return [self.text[c] for c in self.cards(mask)]

    def mask(self, names: Iterable[str]) -> int:
        """Mask of card names; ``LAMB`` may be repeated (the k-th LAMB is the k-th lamb card)."""
        out, lambs = 0, 0
        for name in names:
            if name.startswith("LAMB"):
                out |= 1 << self.lambs[lambs]
                lambs += 1
            else:
                out |= 1 << self.deck.card_id(name)
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> DeckInfo:
        return self

    def __copy__(self) -> DeckInfo:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_deck_info, (self.n,))     # the shared instance of the player count


def _deck_info(n: int) -> DeckInfo:
    return DECK_INFO[n]


DECK_INFO = {n: DeckInfo(n) for n in (3, 4, 5)}
DECKS = {n: info.deck for n, info in DECK_INFO.items()}


# ---- round arithmetic (rule 3) -------------------------------------------------------------
def dealt_per_player(r: int) -> int:
    return 14 - r


def tricks_in_round(r: int) -> int:
    return 13 - r


def deck_size(n: int, r: int) -> int:
    """Cards in round r's deck (rule 3.3): D_n - n (r - 1)."""
    return DECK_SIZE[n] - n * (r - 1)


def left_over(n: int, r: int) -> int:
    return deck_size(n, r) - n * dealt_per_player(r)


def is_void_deal(hands: Sequence[int], n: int) -> bool:
    """Rule 5.3: the deal is void if any hand (a card mask) holds no number card."""
    nm = DECK_INFO[n].number_mask
    for h in hands:
        if not h & nm:
            return True
    return False


def deal_round(rng: Rng, pool: int, n: int, r: int) -> tuple[list[int], int, int]:
    """Deal round r from the card mask ``pool`` (rules 5.2, 5.3, A-28): shuffle everything and deal
    14 - r cards each, again while any hand lacks a number card.  Returns (hands, left-over mask,
    number of void deals); the caller keeps the void-deal count to itself (§11)."""
    void = 0
    while True:
        hands, rest = rng.deal(pool, n, dealt_per_player(r))
        if not is_void_deal(hands, n):
            return list(hands), rest, void
        void += 1


# ---- trump determination (rule 5.5) ----------------------------------------------------------
def _parse_suit_value(name: str) -> tuple[int, int]:
    return SUITS.index(name[0]), int(name[1:])


#: (suit, value) of every number card's name (``"R11"`` -> (1, 11)): the end of a round reads
#: them many times, so they are parsed once here.
_SUIT_VALUE = {f"{suit}{v}": (s, v) for s, suit in enumerate(SUITS) for v in range(1, max(MAX_VALUE.values()) + 1)}


def _suit_value(card: str | Sequence[int]) -> tuple[int, int]:
    if isinstance(card, str):
        return _SUIT_VALUE[card] if card in _SUIT_VALUE else _parse_suit_value(card)
    s, v = card
    return int(s), int(v)


def determine_trump(pool: Iterable[Any],
                    suit_value: Callable[[Any], tuple[int, int]] = _suit_value) -> int | None:
    """Trump suit index of the open pool (rule 5.5 a-d, A-02, A-03), or None for no trump.

    ``pool`` holds the colour cards just revealed and the old ones lying at trick-count cards, as
    names (``"R11"``) or (suit, value) pairs; or as anything else ``suit_value`` maps to (suit,
    value) (the game passes card ids and ``DeckInfo.suit_value_of``)."""
    count, total, high = [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]    # per suit index 0..3
    for card in pool:
        s, v = suit_value(card)
        if not 0 <= s < len(SUITS):
            raise ValueError(f"{card!r} is not a number card of a suit B R Y G")
        count[s] += 1
        total[s] += v
        if v > high[s]:
            high[s] = v
    # a) count, b) sum, c) highest card: each step keeps the suits tied on the one before, so
    # the trump is the one suit with the largest (count, sum, highest card); d) if two suits
    # share that key, there is no trump
    trump, best = None, (0, 0, 0)
    for s in range(len(SUITS)):
        key = (count[s], total[s], high[s])
        if key > best:
            trump, best = s, key
        elif key == best and count[s]:
            trump = None
    return trump


# ---- bids (rule 5.6) --------------------------------------------------------------------------
def parse_bid(text: str) -> tuple[int, bool, bool]:
    """``"3"`` -> (3, False, False); ``"3+L"`` -> (3, True, False); ``"ZERO"`` -> (0, False, True)."""
    return _PARSED_BIDS[text] if text in _PARSED_BIDS else _parse_bid(text)


def _parse_bid(text: str) -> tuple[int, bool, bool]:
    if text == "ZERO":
        return 0, False, True
    num, plus, lock = text.partition("+")
    if plus and lock != "L":
        raise ValueError(f"a locked bid is written T+L, not {text!r}")
    if not num.isdigit() or not 1 <= int(num) <= MAX_T or num != str(int(num)):
        raise ValueError(f"a bid is 1..{MAX_T} (optionally +L) or ZERO, not {text!r}")
    return int(num), bool(plus), False


#: Every bid text parsed once: rounds parse each bid twice (on the bid and at the round's end).
_PARSED_BIDS = {text: _parse_bid(text) for text in ["ZERO"] + [f"{t}{lock}" for t in range(1, MAX_T + 1)
                                                               for lock in ("", "+L")]}


def bid_text(action: int) -> str:
    return _BID_TEXT[action] if action in _BID_TEXT else _bid_text(action)


def _bid_text(action: int) -> str:
    if action == ZERO:
        return "ZERO"
    if BID_BASE + 1 <= action <= BID_BASE + MAX_T:
        return str(action - BID_BASE)
    if LOCK_BASE + 1 <= action <= LOCK_BASE + MAX_T:
        return f"{action - LOCK_BASE}+L"
    raise ValueError(f"{action} is not a bid action")


#: Every bid action's text, written once (a round writes each bid into its events and summary).
_BID_TEXT = {a: _bid_text(a) for a in [ZERO, *range(BID_BASE + 1, BID_BASE + MAX_T + 1),
                                       *range(LOCK_BASE + 1, LOCK_BASE + MAX_T + 1)]}


def bid_action(text: str) -> int:
    t, locked, zero = parse_bid(text)
    return ZERO if zero else (LOCK_BASE if locked else BID_BASE) + t


_BID_LEGAL = {(t, z): tuple([BID_BASE + k for k in range(1, t + 1)] + [LOCK_BASE + k for k in range(1, t + 1)]
                             + ([ZERO] if z else []))
              for t in range(1, MAX_T + 1) for z in (False, True)}


def bid_options(t: int, zero_unused: bool) -> list[str]:
    """Legal bid texts (rule 5.6, 5.7, BJ-29), in action-id order."""
    return ([str(k) for k in range(1, t + 1)] + [f"{k}+L" for k in range(1, t + 1)]
            + (["ZERO"] if zero_unused else []))


# ---- end of round (rules 7.2-8.1) ---------------------------------------------------------------
#: The categories of rule 7.3 by the core's codes (a ZERO bidder has none: rule 7.2).
_CATEGORY: dict[int, str | None] = {_core.BJ_A: "A", _core.BJ_B: "B", _core.BJ_C: "C", _core.BJ_NONE: None}


class Distribution(NamedTuple):
    """Result of :func:`distribute`: every card as it was given (names, or the game's card ids).
    A named tuple: every round's end makes one, built as one tuple where a dataclass instance
    fills its dict field by field."""

    categories: list[str | None]          # "A" / "B" / "C", None for a ZERO bidder (rule 7.2)
    picks: list[tuple[int, int, Any]]     # (seat, T, card) in pick order
    won: list[list[Any]]                  # victory cards gained per seat (ZERO wins included)
    zero: dict[int, bool]                 # ZERO bidder -> whether he won his card
    left: dict[int, list[Any]]            # cards at each count after the picks (before 8.1)
    removed: list[Any]                    # cards leaving the game: failed ZERO cards, cards at t
    table: dict[int, list[Any]]           # the table carried into the next round (after 8.1)
    suit_value: Callable[[Any], tuple[int, int]] = _suit_value     # how gains() reads a card's value

    def gains(self) -> list[int]:
        suit_value = self.suit_value
        return [sum([suit_value(c)[1] for c in cards]) for cards in self.won]


def distribute(n: int, start: int, t: int, table: Mapping[int, Sequence[Any]], bids: Sequence[str],
               colour: Sequence[Any], tricks: Sequence[int], points: Sequence[int],
               suit_value: Callable[[Any], tuple[int, int]] = _suit_value) -> Distribution:
    """The end-of-round distribution (rules 7.2-7.8, A-21..A-26) and the removal of count t (8.1).

    ``table``: the cards lying at each trick-count card before the distribution, this round's
    colour cards included (a ZERO bidder's card lies in front of him, not on the table);
    ``bids[p]``: bid text (``"3"``, ``"3+L"``, ``"ZERO"``); ``colour[p]``: p's colour card this
    round; ``tricks`` / ``points``: k_p and pts_p; ``start``: the start player (seat order).
    Cards are names (``"R11"``), or anything ``suit_value`` maps to (suit, value).

    The rule runs in the core (:func:`_distribution`) on the ids of the 5-player deck, which holds
    every number card of every player count; the answer gives back the cards as they came."""
    if not len(bids) == len(colour) == len(tricks) == len(points) == n:
        raise ValueError(f"bids, colour cards, trick counts and trick points take one entry for each of {n} seats")
    info = DECK_INFO[5]
    given: dict[int, Any] = {}           # card id -> the card as the caller wrote it

    def card_id(card: Any) -> int:
        s, v = suit_value(card)
        if not (0 <= s < len(SUITS) and 1 <= v <= info.max_value):
            raise ValueError(f"{card!r} is not a number card of a suit B R Y G")
        cid = info.card_id(s, v)
        given[cid] = card
        return cid

    res = _distribution(info.deck, start, t, {T: [card_id(c) for c in cards] for T, cards in table.items()},
                        bids, [card_id(c) for c in colour], tricks, points, info.suit_value_of)
    left = {T: [given[c] for c in cards] for T, cards in res.left.items()}
    return Distribution(res.categories, [(p, T, given[c]) for p, T, c in res.picks],
                        [[given[c] for c in cards] for cards in res.won], res.zero, left,
                        [given[c] for c in res.removed], {T: left[T] for T in res.table}, suit_value)


def _distribution(deck: _core.Deck, start: int, t: int, table: Mapping[int, Sequence[int]], bids: Sequence[str],
                  colour: Sequence[int], tricks: Sequence[int], points: Sequence[int],
                  suit_value: Callable[[int], tuple[int, int]]) -> Distribution:
    """:func:`distribute` on card ids of ``deck`` (the game's own, at a round's end): the rule is
    the core's (tc_bj_distribute); ``suit_value`` is what ``gains()`` reads values with."""
    parsed = [parse_bid(b) for b in bids]         # (T, locked, zero): T is 0 for ZERO
    cats, picks, won, zero, left, removed, after = _core.bj_distribute(
        deck, start, t, table, [b[0] for b in parsed], [b[1] for b in parsed], colour, tricks, points)
    return Distribution([_CATEGORY[c] for c in cats], picks, won, zero, left, removed, after, suit_value)


def _round_summary(round_end: tuple[Any, ...]) -> dict[str, Any]:
    """The public summary of a round from what its end left (BeimJupiterState._round_end): the
    round, tricks and trick points won, bids, colour cards, the distribution and the scores,
    every card by name (the distribution ran on card ids).  The scores are the victory piles'
    first cards, as many as each pile held then: the piles only grow."""
    r, k, pts, bids, colour, res, victory, sizes, d = round_end
    names, value = d.names, d.value
    scores = [float(sum([value[c] for c in pile[:size]])) for pile, size in zip(victory, sizes)]
    return {"round": r, "tricks_won": list(k), "trick_points": list(pts), "bids": list(bids),
            "colour_cards": [names[c] for c in colour], "categories": list(res.categories),
            "picks": [[p, T, names[c]] for p, T, c in res.picks], "zero": {str(p): ok for p, ok in res.zero.items()},
            "left": [{"count": T, "cards": [names[c] for c in cards]} for T, cards in res.left.items()],
            "removed": [names[c] for c in res.removed], "gains": res.gains(), "scores": scores}


# ---- the game state ------------------------------------------------------------------------------
def _round_rng(seed: int, r: int) -> Rng:
    return Rng((seed ^ (r * 0x9E3779B97F4A7C15)) & 0xFFFFFFFFFFFFFFFF)


class BeimJupiterState(GameState):
    """A match of Beim Jupiter: 8 rounds, then final scores (rule 8.4)."""

    def __init__(self, num_players: int, options: dict[str, Any] | None = None, seed: int = 0, *,
                 deals: dict[int, tuple[Sequence[int], int]] | None = None):
        super().__init__(num_players, options, seed)
        n = num_players
        self.info_deck: DeckInfo = DECK_INFO[n]   # the deck of this player count (shared, never changed)
        # Tests may fix the deal of given rounds (round -> (hands, left-over mask)); players never can.
        self._forced_deals = dict(deals or {})
        if self.options["first_dealer"] >= n:
            raise GameConfigError(
                f"option 'first_dealer' must be a seat 0..{n - 1} with {n} players, got {self.options['first_dealer']}")
        self.dealer: int = self.options["first_dealer"]
        self.round = 0
        # table[T] = list of [card id, owner seat, locked] lying beside trick-count card T
        self.table: dict[int, list[list[Any]]] = {}
        self.victory: list[list[int]] = [[] for _ in range(n)]
        self.zero_used = [False] * n
        self.removed: list[int] = []           # colour cards out of the game, in order
        self.selected = 0                      # mask of every colour card selected in earlier rounds
        # what the previous round's public summary (last_round) is made of, None before the first
        self._round_end: tuple[Any, ...] | None = None
        self._table_cache: tuple[tuple[int, str, int, int], list[dict[str, Any]]] | None = None
        self.phase = "colour"
        self._start_round()

    # ---- flow ---------------------------------------------------------------------------------
    def _start_round(self) -> None:
        n, d = self.num_players, self.info_deck
        self.round += 1
        r = self.round
        self.t = tricks_in_round(r)
        self.start = (self.dealer + 1) % n
        self._tp = None
        self._round_start = len(self._actions)    # index of the round's first action in the history
        forced = self._forced_deals.get(r)
        if forced is None:
            rng = _round_rng(self.seed, r)
            pool = d.all & ~self.selected                        # rule 5.1
            self.hands, self.leftover, _void = deal_round(rng, pool, n, r)   # rules 5.2, 5.3
        else:
            self.hands, self.leftover = list(forced[0]), forced[1]
        self.colour: list[int | None] = [None] * n
        self.revealed = False
        self.trump: int | None = None
        self.bids: list[str | None] = [None] * n
        self.tricks_result: list[int] | None = None
        self.points_result: list[int] | None = None
        # seats that have acted in this phase (colour / bid): (start + acted) % n is to act; public,
        # the tensor encoder reads it (docs/games/beim_jupiter.md, "State fields the encoder reads")
        self.acted = 0
        self.phase = "colour"
        self._event({"type": "round_start", "round": r, "dealer": self.dealer, "start_player": self.start,
                     "tricks": self.t})
        self._emit_hands("deal", self.hands, DECK_INFO[n].texts)

    def _current_player(self) -> int:
        if self.phase == "colour" or self.phase == "bid":
            return (self.start + self.acted) % self.num_players
        if self.phase == "play" and self._tp is not None and not self._tp.over:
            return self._tp.to_move
        return TERMINAL

    def decision(self) -> str:
        if self.is_terminal():
            return ""
        return self.phase

    def _legal(self) -> Sequence[int]:
        if self.phase == "colour":
            p = self._current_player()
            return _core.cards_list(self.hands[p] & self.info_deck.number_mask, COLOUR_BASE)
        if self.phase == "bid":
            return _BID_LEGAL[self.t, not self.zero_used[self._current_player()]]
        if self.phase == "play" and self._tp is not None and not self._tp.over:
            return self._tp.moves()
        return []

    def action_to_string(self, action: int) -> str:
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(f"{action!r} is not an action id")
        d = self.info_deck
        if 0 <= action < COLOUR_BASE:
            if (action & 127) >= d.n_cards:
                raise ValueError(f"{action} is not a card move of the {self.num_players}-player deck")
            return d.move_text(action)
        if COLOUR_BASE <= action < COLOUR_BASE + d.n_cards:
            return d.names[action - COLOUR_BASE]
        return bid_text(action)

    def _parse(self, text: str) -> int:
        d = self.info_deck
        name, eq, declared = text.partition("=")
        text = d.name_of_upper.get(name, name) + eq + declared      # the card's own name: Ygod
        if self.phase == "colour":
            return COLOUR_BASE + d.deck.card_id(text)
        if self.phase == "bid":
            return bid_action(text)
        if text.startswith("LAMB") and text in d.names:
            p = self._current_player()
            hand = self._tp.hand(p) if p >= 0 and self._tp is not None else 0
            held = hand & d.lamb_mask
            return d.cards(held)[0] if held else d.lambs[0]
        return d.deck.parse_move(text)

    def _apply(self, action: int) -> None:
        n, d = self.num_players, self.info_deck
        p = self._current_player()
        if self.phase == "colour":                               # D1, rule 5.4
            card = action - COLOUR_BASE
            self.colour[p] = card
            self.hands[p] &= ~(1 << card)
            self._event({"type": "colour", "seat": p, "card": d.names[card]}, [p])
            self._event({"type": "colour_chosen", "seat": p})
            self.acted += 1
            if self.acted == n:
                self._reveal()
        elif self.phase == "bid":                                # D2, rule 5.6
            text = bid_text(action)
            self.bids[p] = text
            T, locked, zero = parse_bid(text)
            if zero:
                self.zero_used[p] = True
            else:
                self.table.setdefault(T, []).append([self.colour[p], p, locked])
            self._event({"type": "bid", "seat": p, "bid": text})
            self.acted += 1
            if self.acted == n:
                self.phase = "play"
                trump = _core.NO_SUIT if self.trump is None else self.trump
                self._start_play(d.deck, _core.FOLLOW_SUIT, _core.WIN_TRUMP, trump, self.hands, self.start, self.t)
                self.hands = [0] * n
        else:  # a card play on the checked path
            self._play_move(action)

    def _colour_cards(self) -> list[int]:
        """This round's colour cards, once every seat has chosen (rule 5.4)."""
        cards = [c for c in self.colour if c is not None]
        assert len(cards) == self.num_players, "colour cards are read only after every seat has chosen"
        return cards

    def _reveal(self) -> None:
        d = self.info_deck
        self.revealed = True
        colour = self._colour_cards()
        for c in colour:
            self.selected |= 1 << c
        self._event({"type": "reveal", "cards": [d.names[c] for c in colour]})
        pool = colour + [e[0] for T in sorted(self.table) for e in self.table[T]]
        self.trump = determine_trump(pool, d.suit_value_of)      # rule 5.5
        self._event({"type": "trump", "trump": self.trump_text()})
        self.phase = "bid"
        self.acted = 0

    @property
    def last_round(self) -> dict[str, Any] | None:
        """The public summary of the previous round (rules 7.2-8.1), None before the first ends."""
        return None if self._round_end is None else _round_summary(self._round_end)

    def trump_text(self) -> str | None:
        if not self.revealed:
            return None
        return "none" if self.trump is None else SUITS[self.trump]

    def _play_over(self) -> None:
        n, d = self.num_players, self.info_deck
        tp = self._trick_phase
        k, pts = tp.tricks_won(), tp.points_won()
        self.tricks_result, self.points_result = k, pts
        owners = {e[0]: e[1] for T in self.table for e in self.table[T]}
        table = {T: [e[0] for e in entries] for T, entries in self.table.items() if entries}
        colour = self._colour_cards()
        bids = [b for b in self.bids if b is not None]
        assert len(bids) == n, "every seat has bid before the trick play"
        res = _distribution(d.deck, self.start, self.t, table, bids, colour, k, pts, d.suit_value_of)
        for p in range(n):
            self.victory[p].extend(res.won[p])
        self.removed.extend(res.removed)
        self.table = {T: [[c, owners[c], False] for c in cards] for T, cards in res.table.items()}
        # the summary is written out when asked for (last_round): a round replaces these lists
        # with new ones rather than changing them
        self._round_end = (self.round, k, pts, self.bids, colour, res, self.victory,
                           [len(pile) for pile in self.victory], d)
        self._event_of("round_end", self._round_end, write=_round_summary)
        if self.round == ROUNDS:                                 # rule 8.4
            self.phase = "over"
            self._event({"type": "game_end", "scores": self.scores(), "ranks": self.ranks()})
        else:
            self.dealer = self.start                             # rule 8.3
            self._start_round()

    def _move_text(self, move: int) -> str:
        return self.info_deck.move_text(move)  # every lamb is written LAMB

    def _is_terminal(self) -> bool:
        return self.phase == "over"

    def deal_number(self) -> int:
        return self.round

    def scores(self) -> list[float]:
        vals = self.info_deck.value
        return [float(sum([vals[c] for c in cards])) for cards in self.victory]

    # ---- worlds (docs/search.md; what a seat may know: §11) -------------------------------------
    def _world_model(self, seat: int | None) -> WorldModel[BeimJupiterState]:
        """Hidden from ``seat``: the other hands, the other seats' colour cards until the reveal
        (each a number card, rule 5.4) and the left-over cards (A-32).  A seat still to choose
        its colour card holds a number card (rule 5.3: its hand was not void)."""
        n, d = self.num_players, self.info_deck
        in_play = self.phase == "play" and self._tp is not None and not self._tp.over
        hidden = [q for q in range(n) if q != seat]
        hands = [self.hand(q) for q in range(n)]
        secret_colour = [] if self.revealed else [q for q in hidden if self.colour[q] is not None]
        cards = self.leftover
        for q in hidden:
            cards |= hands[q]
        for q in secret_colour:
            cards |= 1 << cast(int, self.colour[q])
        slots = []
        for q in hidden:
            allowed = cards & ~self._trick_phase.exclusions(q, cards) if in_play else cards
            slots.append(Slot(("hand", q), _core.cards_count(hands[q]), allowed))
        slots += [Slot(("colour", q), 1, cards & d.number_mask) for q in secret_colour]
        slots.append(Slot(("leftover",), _core.cards_count(self.leftover), cards))
        choosing = [q for q in hidden if self.phase == "colour" and self.colour[q] is None]
        actions = self._actions     # where each secret choice stands in the history (this round)
        colour_index = {q: len(actions) - 1 - actions[::-1].index(COLOUR_BASE + cast(int, self.colour[q]))
                        for q in secret_colour}

        def build(assignment: dict[Hashable, int], rng: random.Random) -> BeimJupiterState:
            for q in choosing:                                       # rule 5.3
                if not assignment["hand", q] & d.number_mask:
                    raise RejectedWorld(f"seat {q} would hold no number card")
            world = cast(BeimJupiterState, self._world_base(seat, rng))
            new_hands = [assignment["hand", q] if q != seat else hands[q] for q in range(n)]
            world.leftover = assignment["leftover",]
            if not self.revealed:
                world.colour = list(self.colour)
                for q in secret_colour:
                    card = _core.cards_first(assignment["colour", q])
                    world.colour[q] = card
                    world._actions[colour_index[q]] = COLOUR_BASE + card    # the hidden choice
            if in_play:
                world._world_trick_phase(new_hands)
            else:
                world.hands = new_hands
            played = [self._trick_phase.played(q) if in_play else 0 for q in range(n)]
            dealt = [new_hands[q] | played[q] | (1 << c if (c := world.colour[q]) is not None else 0)
                     for q in range(n)]
            world._world_replay = (self._round_start, {"deals": {self.round: (dealt, world.leftover)}})
            return world
        return WorldModel(seat, cards, slots, build)

    # ---- views ---------------------------------------------------------------------------------
    def hand(self, seat: int) -> int:
        """Card mask of seat's hand now (tests and tools; not part of any observation but its own)."""
        if self.phase in ("play", "over") and self._tp is not None:
            return self._tp.hand(seat)
        return self.hands[seat]

    def _table_view(self) -> list[dict[str, Any]]:
        """The public table (colour cards beside the trick-count cards).  It changes only with
        a bid or at the end of a round, so during the trick play every view shares one copy
        (read-only, like the described tricks)."""
        key = (self.round, self.phase, self.acted, self.t)
        cached = self._table_cache
        if cached is None or cached[0] != key:
            d = self.info_deck
            view = [{"count": T, "cards": [{"card": d.names[c], "owner": o, "locked": bool(lk)}
                                           for c, o, lk in self.table.get(T, [])]}
                    for T in range(1, self.t + 1)]
            cached = self._table_cache = (key, view)
        return list(cached[1])

    def observation(self, seat: int) -> dict[str, Any]:
        n, d = self.num_players, self.info_deck
        self._check_seat(seat)
        tp = self._tp if self.phase in ("play", "over") else None
        colour: list[str | None] = [None] * n
        for p, card in enumerate(self.colour):
            if card is not None and (p == seat or self.revealed):
                colour[p] = d.names[card]
        trick = None
        tricks = []
        if tp is not None:
            tricks = self._described_tricks(tp, lambda t: {"leader": t[0], "cards": [d.move_text(m) for m in t[1]],
                                                           "winner": t[2], "points": t[5]})
            if not tp.over:
                leader, moves, _led, _open = tp.current_trick()
                trick = {"leader": leader, "cards": [d.move_text(m) for m in moves]}
        hand_sizes = [_core.cards_count(self.hand(p)) for p in range(n)]
        return {
            "last_trick": self.last_trick(),
            "game": "beim-jupiter", "seat": seat, "players": n,
            "round": self.round, "rounds": ROUNDS, "tricks_this_round": self.t,
            "dealer": self.dealer,
            "start_player": self.start,
            "decision": self.decision(), "to_move": self.current_player(),
            "hand": d.texts(self.hand(seat)),
            "hand_sizes": hand_sizes,
            "colour_card": colour[seat],
            "colour_cards": colour,
            "colour_chosen": [c is not None for c in self.colour],
            "trump": self.trump_text(),
            "bids": list(self.bids),
            "table": self._table_view(),
            "victory_cards": [[d.names[c] for c in cards] for cards in self.victory],
            "scores": self.scores(),
            "zero_used": list(self.zero_used),
            "removed_cards": [d.names[c] for c in self.removed],
            "trick": trick,
            "tricks": tricks,
            "tricks_won": tp.tricks_won() if tp is not None else [0] * n,
            "trick_points": tp.points_won() if tp is not None else [0] * n,
            "last_round": self.last_round,
        }


def _deck(players: int, options: Mapping[str, Any]) -> _core.Deck:
    """GameInfo.deck: the deck of the player count."""
    return DECK_INFO[players].deck


#: The colours by their letter, in words (docs/notation.md).
COLOUR_NAMES = {"B": "blue", "R": "red", "Y": "yellow", "G": "green"}


def _faces(deck: _core.Deck) -> dict[str, CardFace]:
    """GameInfo.faces: the colours' number cards, their God cards (a bolt), Jupiter, Juno and the
    lambs (every lamb is written ``LAMB``)."""
    faces = colour_faces(deck, COLOUR_NAMES)
    for letter, colour in COLOUR_NAMES.items():
        faces[f"{letter}god"] = CardFace(f"{colour} god", "colour", colour, symbol="bolt", letter=letter)
    faces["JUP"] = CardFace("Jupiter", "picture", "purple", symbol="crown")
    faces["JUNO"] = CardFace("Juno", "picture", "pink", symbol="star")
    faces["LAMB"] = CardFace("sacrificial lamb", "picture", "grey", symbol="lamb")
    return faces


def _shown_cards(event: Event, seat: int) -> Iterator[tuple[Any, Hashable, bool]]:
    """GameInfo.shown_cards: the seat's own colour card, and every colour card when they are
    turned up (each seat's choice; the seat's own, in its hand)."""
    kind = event.get("type")
    if kind == "colour" and "card" in event and "seat" in event:
        yield event["card"], event["seat"], False
    elif kind == "reveal" and isinstance(event.get("cards"), list):
        for q, text in enumerate(event["cards"]):
            yield text, ("colour", q) if q != seat else q, True


GAME_INFO = register(GameInfo(
    name="beim-jupiter", title="Beim Jupiter", players=(3, 4, 5),
    options=(OptionSpec("first_dealer", int, 0, "seat of the first dealer (A-29); must be < players",
                        minimum=0, maximum=4),),
    factory=BeimJupiterState,
    deck=_deck, faces=_faces, shown_cards=_shown_cards,
    encoding="trickcore.games.beim_jupiter.encoding:BeimJupiterEncoding",
    policy="trickcore.games.beim_jupiter.policy:choose",
    table="trickcore.games.beim_jupiter.table:TABLE",
    summary="8 rounds: choose a colour card, bid the exact trick count (lock or zero), play; "
            "Jupiter, Juno, God cards and sacrificial lambs"),
    aliases=("beim_jupiter", "jupiter"))
