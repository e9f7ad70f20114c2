"""Game authors: docs/contributing.md (section 5) has the conventions, the notation and the test
checklist for game modules.

Klaberjass (Hamburg "Orgi / Kleines" Klabberjass) with dice scoring, for 2, 3 or 4 players.

Rules: ``docs/rules/klaberjass.md`` (sections cited as §n, decisions D-n, decision points #n,
worked examples KJ-nn; the engine's own decisions are D-24 to D-31 there); player summary and
action notation: ``docs/games/klaberjass.md``.

Modelling
---------
* Deck: 32 cards, card id = suit * 8 + rank with suits ``C D H S`` = 0 1 2 3 and ranks
  ``7 8 9 T J Q K A`` = 0..7 (the rank index is the sequence order of §1.5, used for melds).
  ``strength`` is the plain order A T K Q J 9 8 7, ``trump_strength`` the trump order
  J 9 A T K Q 8 7 (§1.4).  Card points differ in the trump suit (J 20, 9 14), so the module
  builds one deck per trump suit (``DECKS[trump]``: the trump suit's cards carry trump points,
  the others plain points) plus ``PLAIN_DECK`` (plain points, used for notation only).  Ids,
  names, suits and strengths are identical in all five decks, so the core's ``points_won``
  and trick points are the real card points of the deal.
* Trick phase: the core's ``FOLLOW_OVERTRUMP`` + ``WIN_TRUMP`` with the trump suit (§7.2,
  §7.3).  Forehand leads; 8 tricks with 4 players, 9 with 2 or 3.
* Flow in this module: dealing per player count (§3), the trump selection state machine
  (§4: Orgi, Kleines, besser, naming trump, throw-in), pick-up and the exchange of the 7
  (§4.3, §4.4), melds with the fixed decomposition and the one-side comparison (§5),
  Kontra/Re (§6), Belle (§5.5) announced together with the card (action ``QH+belle``), scoring
  with dice (§8), match end and next dealer (§8.4, §8.5).
* Belle: while a player holds both trump K and Q his card decisions run on the slow path
  (``self._fast = False``, ``self._slow_seat`` = his seat) so that ``legal_actions`` can offer
  ``KH+belle``/``QH+belle`` next to the plain cards, and the other seats' stay on the fast C
  path; once he has played one of them the fast path takes every seat again.
* Sides: 4 players play in the partnerships {0, 2} and {1, 3} (side = seat % 2, one die per
  team); with 2 or 3 players every seat is its own side.  ``scores()`` gives each seat the die
  score of its side.

Action ids
----------
* ``0..31``     card plays (card id), text ``JC``, ``TH``, ``7S``.
* ``256`` take, ``257`` pass (every pass of every round), ``258`` kleines, ``259`` besser.
* ``260..263``  name trump clubs / diamonds / hearts / spades.
* ``264`` exchange, ``265`` keep (exchange of the 7).
* ``266`` declare (all melds).
* ``267`` kontra, ``268`` re.
* ``288..319``  play card ``id - 288`` announcing Belle, text ``QH+belle``.

Options: ``target`` (die score that ends the match, 1..6, default 6), ``first_dealer``
(-1 = drawn from the seed), ``max_deals`` (0 = no limit; an engine safety limit for
tournaments: the match also ends after this many deals, throw-ins included).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from trickcore import _core
from trickcore._core import Rng
from trickcore.game import TERMINAL, Event, GameInfo, GameState, OptionSpec
from trickcore.games import french_faces, register
from trickcore.worlds import RejectedWorld, Slot, WorldModel

# ---- cards -------------------------------------------------------------------------
SUITS = "CDHS"
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
CLUBS = 0
RANKS = "789TJQKA"          # index = sequence order (§1.5)
R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)   # A T K Q J 9 8 7
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)   # J 9 A T K Q 8 7
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
N_CARDS = 32


def card_id(suit: int, rank: int) -> int:
    return suit * 8 + rank


def suit_of(card: int) -> int:
    return card >> 3


def rank_of(card: int) -> int:
    return card & 7


def card_points(card: int, trump: int | None) -> int:
    """Card points of §1.4 (trump points when the card is of the trump suit)."""
    r = rank_of(card)
    return TRUMP_POINTS[r] if trump is not None and suit_of(card) == trump else PLAIN_POINTS[r]


# Card points of every 8-bit rank pattern of one suit, plain and trump (§1.4).
_PLAIN_BYTE = [sum(PLAIN_POINTS[r] for r in range(8) if m >> r & 1) for m in range(256)]
_TRUMP_BYTE = [sum(TRUMP_POINTS[r] for r in range(8) if m >> r & 1) for m in range(256)]


def mask_points(mask: int, trump: int | None) -> int:
    """Card points of a set of cards (the sum of card_points over it), a table lookup per suit."""
    total = 0
    for s in range(4):
        total += (_TRUMP_BYTE if s == trump else _PLAIN_BYTE)[mask >> (8 * s) & 255]
    return total


def _build_deck(trump: int | None) -> _core.Deck:
    deck = _core.Deck(4)
    for s in range(4):
        for r in range(8):
            cid = deck.add(RANKS[r] + SUITS[s], s, r, strength=PLAIN_STRENGTH[r],
                           trump_strength=TRUMP_STRENGTH[r], points=card_points(card_id(s, r), trump))
            assert cid == card_id(s, r)
    return deck


PLAIN_DECK = _build_deck(None)
DECKS = tuple(_build_deck(t) for t in range(4))
ALL = (1 << N_CARDS) - 1
CARD_NAMES: tuple[str, ...] = tuple(PLAIN_DECK.name(c) for c in range(N_CARDS))


bits = _core.cards_list  # ascending card ids of a mask


cards_of = _core.cards_list  # ascending card ids of a mask


mask_of = _core.cards_mask  # the mask of some card ids


def _first_holding(hands: Sequence[int], cards: int) -> int | None:
    """The lowest seat whose hand (a card mask) holds every card of ``cards``, or None."""
    for seat, hand in enumerate(hands):
        if hand & cards == cards:
            return seat
    return None


def names(mask_or_cards: int | Iterable[int]) -> list[str]:
    if isinstance(mask_or_cards, int):
        return PLAIN_DECK.names_of(mask_or_cards)  # the same names as CARD_NAMES, in one call
    return [CARD_NAMES[c] for c in sorted(mask_or_cards)]



def parse_card(text: str) -> int:
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"{text!r} is not a card (rank 7 8 9 T J Q K A then suit C D H S, e.g. JC)")
    return card_id(SUITS.index(t[1]), RANKS.index(t[0]))


# ---- action ids ----------------------------------------------------------------------
A_TAKE, A_PASS, A_KLEINES, A_BESSER = 256, 257, 258, 259
A_NAME = 260            # + suit
A_EXCHANGE, A_KEEP, A_DECLARE, A_KONTRA, A_RE = 264, 265, 266, 267, 268
A_BELLE = 288           # + card id
_WORDS = {A_TAKE: "take", A_PASS: "pass", A_KLEINES: "kleines", A_BESSER: "besser",
          A_EXCHANGE: "exchange", A_KEEP: "keep", A_DECLARE: "declare", A_KONTRA: "kontra", A_RE: "re"}
for _s in range(4):
    _WORDS[A_NAME + _s] = SUITS[_s]  # the suit letter, as in observations and card texts
#: The words' ids by their text in upper case, the case GameState.string_to_action parses in.
_PARSE = {w.upper(): a for a, w in _WORDS.items()}
for _s in range(4):
    _PARSE[SUIT_WORDS[_s].upper()] = A_NAME + _s  # the suit's name is accepted too


# ---- dealing (§3) ----------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Deck positions d[i] of one deal, by seat offset from forehand (0 = F, n-1 = D)."""

    hands: tuple[tuple[int, ...], ...]     # dealt into the hand (4p dealer: without the turned card)
    packets: tuple[tuple[int, ...], ...]   # 2p face-down packets, else empty tuples
    turned: int                            # position of the turned card
    stack: tuple[int, ...]                 # 2p/3p stack positions, top (turned) first; 4p empty
    n_tricks: int


def deal_layout(n: int) -> Layout:
    if n == 4:
        hands = []
        for k in range(4):
            h = list(range(3 * k, 3 * k + 3)) + [12 + 2 * k, 13 + 2 * k] + list(range(20 + 3 * k, 23 + 3 * k))
            if k == 3:
                h.remove(30)
            hands.append(tuple(h))
        return Layout(tuple(hands), ((),) * 4, 30, (), 8)
    if n == 3:
        three = tuple(tuple(range(3 * k, 3 * k + 3)) + tuple(range(9 + 3 * k, 12 + 3 * k))
                      + tuple(range(18 + 3 * k, 21 + 3 * k)) for k in range(3))
        return Layout(three, ((),) * 3, 27, tuple(range(27, 32)), 9)
    if n == 2:
        two = ((0, 1, 2, 6, 7, 8), (3, 4, 5, 9, 10, 11))
        return Layout(two, ((12, 13, 14), (15, 16, 17)), 18, tuple(range(18, 32)), 9)
    raise ValueError(f"Klaberjass is played by 2, 3 or 4 players, not {n}")


LAYOUTS = {n: deal_layout(n) for n in (2, 3, 4)}


def seat_order(n: int, dealer: int) -> list[int]:
    """Seat order from forehand (§1.1): F, F+1, ..., D."""
    return [(dealer + 1 + k) % n for k in range(n)]


def side_of(n: int, seat: int) -> int:
    return seat % 2 if n == 4 else seat


def n_sides(n: int) -> int:
    return 2 if n == 4 else n


def side_members(n: int, side: int) -> list[int]:
    return [side, side + 2] if n == 4 else [side]


# ---- melds (§5) ------------------------------------------------------------------------
TERZ, HALBER = 0, 1
MELD_VALUE = {TERZ: 20, HALBER: 50}
MELD_WORD = {TERZ: "terz", HALBER: "halber"}


@dataclass(frozen=True, order=True)
class Meld:
    kind: int   # TERZ or HALBER
    top: int    # rank index of the top card in sequence order
    suit: int

    @property
    def length(self) -> int:
        return 3 if self.kind == TERZ else 4

    @property
    def value(self) -> int:
        return MELD_VALUE[self.kind]

    @property
    def cards(self) -> list[int]:
        return [card_id(self.suit, r) for r in range(self.top - self.length + 1, self.top + 1)]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": MELD_WORD[self.kind], "suit": SUITS[self.suit], "top": RANKS[self.top],
                "cards": [CARD_NAMES[c] for c in self.cards], "value": self.value}


def _runs_of(ranks: int) -> list[tuple[int, int]]:
    """(kind, top) of the melds in one suit's 8-bit rank mask by the fixed decomposition of
    §5.2 [D-8]: a run of 3 is a Terz, 4-6 a Halber, 7 a Halber and the Terz below it, 8 two
    Halbers."""
    out = []
    r = 0
    while r < 8:
        if not ranks >> r & 1:
            r += 1
            continue
        lo = r
        while r < 8 and ranks >> r & 1:
            r += 1
        hi, length = r - 1, r - lo
        if length == 3:
            out.append((TERZ, hi))
        elif 4 <= length <= 6:
            out.append((HALBER, hi))
        elif length == 7:
            out.extend([(HALBER, hi), (TERZ, lo + 2)])
        elif length == 8:
            out.extend([(HALBER, RA), (HALBER, RT)])
    return out


# Every suit's rank pattern decomposed once; the Meld objects are shared (frozen).
_MELDS = {(kind, top, suit): Meld(kind, top, suit) for kind in (TERZ, HALBER) for top in range(8) for suit in range(4)}


def _suit_runs(suit: int) -> list[list[Meld]]:
    # A function, not a third level of the comprehension below: compiled (setup.py), a module-level
    # comprehension nested three deep with tuple targets miscounts references to None.
    return [[_MELDS[kind, top, suit] for kind, top in _runs_of(ranks)] for ranks in range(256)]


_RUNS = [_suit_runs(suit) for suit in range(4)]


def decompose_melds(hand: int) -> list[Meld]:
    """A player's melds by the fixed decomposition of §5.2 [D-8], sorted best first."""
    out = [*_RUNS[0][hand & 255], *_RUNS[1][hand >> 8 & 255], *_RUNS[2][hand >> 16 & 255], *_RUNS[3][hand >> 24 & 255]]
    if len(out) > 1:
        out.sort(reverse=True)      # Meld orders by (kind, top, suit)
    return out


def meld_key(meld: Meld, trump: int, order_pos: int) -> tuple[Any, ...]:
    """Comparison key of §5.4: kind, top card, trump suit, earlier in seat order from F."""
    return (meld.kind, meld.top, meld.suit == trump, -order_pos)


def best_meld(declared: dict[int, list[Meld]], trump: int, n: int, dealer: int) -> tuple[int, Meld] | None:
    """(seat, meld) of the best declared meld (§5.4), or None if nobody declared."""
    order = seat_order(n, dealer)
    best = None
    for seat, melds in declared.items():
        for m in melds:
            k = meld_key(m, trump, order.index(seat))
            if best is None or k > best[0]:
                best = (k, seat, m)
    return None if best is None else (best[1], best[2])


def meld_points(declared: dict[int, list[Meld]], trump: int, n: int, dealer: int) -> list[int]:
    """Meld points per side: the side owning the best meld scores all its members' melds."""
    return meld_points_of(declared, best_meld(declared, trump, n, dealer), n)


def meld_points_of(declared: dict[int, list[Meld]], b: tuple[int, Meld] | None, n: int) -> list[int]:
    """``meld_points`` when the best meld ``b`` (best_meld's answer) is known already."""
    pts = [0] * n_sides(n)
    if b is not None:
        side = side_of(n, b[0])
        pts[side] = sum([m.value for seat, ms in declared.items() if side_of(n, seat) == side for m in ms])
    return pts


# ---- scoring (§8) ------------------------------------------------------------------------
def side_points(n: int, won: list[int], trump: int, last_winner: int, melds: list[int],
                belle_seat: int | None) -> dict[str, list[int]]:
    """Points of every side for a deal (§8.1): card points of the won cards (per seat masks),
    10 for the last trick, meld points (per side, from meld_points) and 20 for an announced Belle."""
    return side_points_of(n, [mask_points(won[seat], trump) for seat in range(n)], last_winner, melds, belle_seat)


def side_points_of(n: int, seat_card_points: list[int], last_winner: int, melds: list[int],
                   belle_seat: int | None) -> dict[str, list[int]]:
    """``side_points`` from each seat's card points: what the trick phase counted as it went, with
    the deal's deck, whose points are ``card_points`` for the deal's trump."""
    ns = n_sides(n)
    cards = [0] * ns
    for seat in range(n):
        cards[side_of(n, seat)] += seat_card_points[seat]
    last = [0] * ns
    last[side_of(n, last_winner)] = 10
    belle = [0] * ns
    if belle_seat is not None:
        belle[side_of(n, belle_seat)] = 20
    total = [cards[s] + last[s] + melds[s] + belle[s] for s in range(ns)]
    return {"card_points": cards, "last_trick": last, "melds": list(melds), "belle": belle, "points": total}


def deal_steps(n: int, declarer: int, side_points: list[int], mult: int) -> tuple[bool, list[int]]:
    """(trump side succeeded, die steps per side) of §8.2 and §8.3."""
    ts = side_of(n, declarer)
    others = [s for s in range(n_sides(n)) if s != ts]
    success = all([side_points[ts] > side_points[o] for o in others])
    steps = [0] * n_sides(n)
    if success:
        steps[ts] = mult
    else:
        for o in others:
            steps[o] = (1 if n == 3 else 2) * mult
    return success, steps


def advance_dice(dice: list[int], steps: list[int], cap: int = 6) -> list[int]:
    """New die scores, capped (§2.3, §8.3)."""
    return [min(cap, d + s) for d, s in zip(dice, steps)]


def die_face(score: int) -> int:
    """What the die shows (§2.2, KJ-33): a score of 0 shows 6."""
    return 6 if score == 0 else score


def next_dealer(n: int, dealer: int, steps: list[int]) -> int:
    """§8.5: to the left with 3 or 4 players; with 2, the player whose die moved."""
    if n == 2:
        return 0 if steps[0] >= steps[1] else 1     # the seat whose die moved
    return (dealer + 1) % n


# ---- the state -----------------------------------------------------------------------------
#: The decisions with the same two choices every time, in action-id order.
_TWO_WAY = {"orgi": (A_TAKE, A_PASS), "kleines": (A_PASS, A_KLEINES), "besser": (A_PASS, A_BESSER),
            "exchange": (A_EXCHANGE, A_KEEP), "kontra": (A_PASS, A_KONTRA), "re": (A_PASS, A_RE)}
#: The rounds of the auction, whose calls are kept in ``calls``.
_AUCTION = frozenset({"orgi", "kleines", "besser", "name"})
_DECISION = {"orgi": "take", "kleines": "kleines", "besser": "besser", "name": "trump",
             "exchange": "exchange", "meld": "meld", "kontra": "kontra", "re": "re", "play": "play"}
_MASK64 = (1 << 64) - 1
_DEAL_END, _THROW_IN = "deal_end", "throw_in"     # the kinds of KlaberjassState._results entries
_IDENTITY = tuple(range(N_CARDS))   # the deck in id order, shuffled into each deal's order


def _deal_summary(entry: tuple[Any, ...]) -> dict[str, Any]:
    """The public summary of a deal, or of a throw-in, from what its end kept
    (KlaberjassState._results): the ``deal_end`` event's fields, an item of ``results``."""
    if entry[0] == _THROW_IN:
        _, deal, dealer, dice = entry
        return {"deal": deal, "dealer": dealer, "throw_in": True, "dice": list(dice), "next_dealer": dealer}
    _, deal, dealer, trump, declarer, mult, pts, success, steps, dice, next_dealer_ = entry
    return {"deal": deal, "dealer": dealer, "trump": SUITS[trump], "declarer": declarer, "multiplier": mult,
            **{key: list(points) for key, points in pts.items()},
            "success": success, "steps": list(steps), "dice": list(dice), "next_dealer": next_dealer_}


class KlaberjassState(GameState):
    """A Klaberjass match (to a die score of ``target``)."""

    def __init__(self, num_players: int, options: dict[str, Any] | None = None, seed: int = 0, *,
                 deal_orders: dict[int, list[int]] | None = None):
        super().__init__(num_players, options, seed)
        n = num_players
        self._forced = dict(deal_orders or {})   # test hook: deal number -> deck order d[0..31]
        fd = self.options["first_dealer"]
        if fd >= n:
            from trickcore.errors import GameConfigError
            raise GameConfigError(f"option 'first_dealer' must be -1 or a seat 0..{n - 1}, got {fd}")
        self.dealer = Rng(seed).below(n) if fd < 0 else fd
        self.dice = [0] * n_sides(n)
        self.deal_no = 0            # deals begun, throw-ins included
        # what each finished deal (or throw-in) leaves, in order: ``results`` writes them out
        self._results: list[tuple[Any, ...]] = []
        self.phase = ""
        self._over = False
        self._begin_deal()

    # ---- deal flow -------------------------------------------------------------------------
    def _begin_deal(self) -> None:
        n = self.num_players
        order = self._forced.get(self.deal_no)
        if order is None:
            rng = Rng(self.seed ^ (((self.deal_no + 1) * 0x9E3779B97F4A7C15) & _MASK64))
            order = list(_IDENTITY)
            rng.shuffle(order)
        else:
            order = list(order)
            assert sorted(order) == list(range(N_CARDS)), "a deck order is a permutation of 0..31"
        self._order = order
        self._deal_start = len(self._actions)    # index of the deal's first action in the history
        lay = LAYOUTS[n]
        self.forehand = (self.dealer + 1) % n
        self._seats = seat_order(n, self.dealer)
        # The public fields (hands, stack, hand_melds, asked, answered, ...) are also what the
        # tensor encoder reads: docs/games/klaberjass.md, "State fields the encoder reads".
        self.hands = [0] * n                                  # until the card play (then the trick phase's)
        self._packets = [0] * n
        for k, seat in enumerate(self._seats):
            self.hands[seat] = mask_of([order[i] for i in lay.hands[k]])
            self._packets[seat] = mask_of([order[i] for i in lay.packets[k]])
        self.turned = order[lay.turned]
        self.turned_suit = suit_of(self.turned)
        self.stack = [order[i] for i in lay.stack]           # top first (2/3 players)
        self._turned_in_hand = False                          # 4p: dealer took it up
        self.picked_up = n != 2                                # 2p packets picked up
        self.calls: list[tuple[str, int, str]] = []            # (round, seat, call) of the auction
        self.kleines: int | None = None
        self.trump: int | None = None
        self.declarer: int | None = None
        self.exchange: tuple[int, bool] | None = None
        self.hand_melds: dict[int, list[Meld]] = {}            # every seat's melds, from the meld round on
        self.declared: dict[int, list[Meld]] = {}
        self.meld_calls: list[tuple[int, bool]] = []
        self.best: tuple[int, Meld] | None = None
        self.meld_pts = [0] * n_sides(n)
        self.doubling: list[tuple[int, str]] = []
        self.mult = 1
        self.belle: tuple[int, int] | None = None      # (seat, card) of an announced Belle
        self._belle_holder: int | None = None
        self._tp_deal: int | None = None               # the deal whose trick phase _tp holds
        self._event({"type": "deal", "deal": self.deal_no, "dealer": self.dealer, "forehand": self.forehand,
                     "turned": CARD_NAMES[self.turned], "dice": list(self.dice)})
        self._emit_hands("hand", self.hands, names)
        self.phase = "orgi"
        self.asked = list(self._seats)     # the seats asked in this round, in order
        self.answered = 0                  # how many have answered: asked[answered] is to act

    def _ask(self, phase: str, seats: list[int]) -> None:
        self.phase = phase
        self.asked = list(seats)
        self.answered = 0

    def _trump_fixed(self, trump: int, declarer: int) -> None:
        n = self.num_players
        self.trump, self.declarer = trump, declarer
        self._event({"type": "trump", "trump": SUITS[trump], "declarer": declarer,
                     "trump_side": side_members(n, side_of(n, declarer))})
        if n == 4:                                   # §4.3.1
            self.hands[self.dealer] |= 1 << self.turned
            self._turned_in_hand = True
            self._event({"type": "pickup", "seat": self.dealer, "card": CARD_NAMES[self.turned]})
        if n == 2:                                   # §4.3.2
            for seat in range(2):
                self.hands[seat] |= self._packets[seat]
                self._event({"type": "packet", "seat": seat, "cards": names(self._packets[seat]),
                             "hand": names(self.hands[seat])}, [seat])
                self._packets[seat] = 0
            self.picked_up = True
            self._event({"type": "pickup", "seats": [0, 1]})
        if n in (2, 3):                              # §4.4 exchange of the 7
            seven = card_id(self.turned_suit, R7)
            holder = _first_holding(self.hands, 1 << seven)
            if self.turned != seven and holder is not None:
                self._ask("exchange", [holder])
                return
        self._begin_melds()

    @property
    def _trump(self) -> int:
        """The trump suit, once it is fixed (§4.3)."""
        trump = self.trump
        assert trump is not None, "trump is read only after it is fixed"
        return trump

    @property
    def _declarer(self) -> int:
        """The seat that fixed trump (§4.2)."""
        declarer = self.declarer
        assert declarer is not None, "the declarer is read only after trump is fixed"
        return declarer

    def _begin_melds(self) -> None:
        self.hand_melds = {s: decompose_melds(self.hands[s]) for s in range(self.num_players)}
        self._ask("meld", self._seats)

    def _melds_done(self) -> None:
        n = self.num_players
        self.best = best_meld(self.declared, self._trump, n, self.dealer)
        self.meld_pts = meld_points_of(self.declared, self.best, n)
        self._event({"type": "meld_result", "best": None if self.best is None else
                     {"seat": self.best[0], **self.best[1].to_dict()}, "points": list(self.meld_pts)})
        ts = side_of(n, self._declarer)
        self._ask("kontra", [s for s in self._seats if side_of(n, s) != ts])

    def _begin_play(self) -> None:
        n, trump = self.num_players, self._trump
        self.phase = "play"
        self._tp_deal = self.deal_no
        hands = list(self.hands)
        self._start_play(DECKS[trump], _core.FOLLOW_OVERTRUMP, _core.WIN_TRUMP, trump, hands,
                         self.forehand, LAYOUTS[n].n_tricks)
        self.hands = [0] * n
        k, q = card_id(trump, RK), card_id(trump, RQ)
        both = (1 << k) | (1 << q)
        self._belle_holder = _first_holding(hands, both)
        if self._belle_holder is not None:
            # Belle may be announced: the holder's legal moves come from _legal (§5.5); the
            # other seats' card plays stay the binding's (_slow_seat)
            self._fast = False
            self._slow_seat = self._belle_holder

    def _belle_options(self) -> list[int]:
        """Belle moves open to the seat to move (§5.5, D-11)."""
        h = self._belle_holder
        tp = self._trick_phase
        if h is None or tp.over or tp.to_move != h:
            return []
        legal = tp.legal_cards()
        return [A_BELLE + c for c in (card_id(self._trump, RQ), card_id(self._trump, RK)) if legal >> c & 1]

    def _play_over(self) -> None:
        n, tp, trump = self.num_players, self._trick_phase, self._trump
        pts = side_points_of(n, tp.points_won(), tp.last_winner, self.meld_pts,
                          None if self.belle is None else self.belle[0])
        success, steps = deal_steps(n, self._declarer, pts["points"], self.mult)
        target = self.options["target"]
        self.dice = advance_dice(self.dice, steps, target)
        old_dealer = self.dealer
        self.dealer = next_dealer(n, self.dealer, steps)
        # the summary is written out when asked for (results); the dice list is replaced, never
        # changed, so the entry keeps it as it is
        self._results.append((_DEAL_END, self.deal_no, old_dealer, trump, self.declarer, self.mult, pts, success,
                              steps, self.dice, self.dealer))
        self._event_of("deal_end", self._results[-1], write=_deal_summary)
        self.deal_no += 1
        self._next_deal_or_end()

    def _next_deal_or_end(self) -> None:
        limit = self.options["max_deals"]
        if max(self.dice) >= self.options["target"] or (limit and self.deal_no >= limit):
            self._over = True
            self.phase = "over"
            self._event({"type": "match_end", "dice": list(self.dice), "scores": self.scores()})
        else:
            self._begin_deal()

    def _throw_in(self) -> None:
        self._results.append((_THROW_IN, self.deal_no, self.dealer, self.dice))
        self._event({"type": "throw_in", "deal": self.deal_no, "dealer": self.dealer})
        self.deal_no += 1          # D-6: the same dealer deals again
        self._next_deal_or_end()

    # ---- interface ---------------------------------------------------------------------------
    def _current_player(self) -> int:
        if self._over:
            return TERMINAL
        if self.phase == "play":
            return self._trick_phase.to_move
        return self.asked[self.answered]

    def decision(self) -> str:
        if self.is_terminal():
            return ""
        return _DECISION[self.phase]

    def _is_terminal(self) -> bool:
        return self._over

    def _legal(self) -> Sequence[int]:
        ph = self.phase
        if ph in _TWO_WAY:
            return _TWO_WAY[ph]
        if ph == "play":
            return self._trick_phase.moves() + self._belle_options()
        if ph == "name":
            return [A_NAME + s for s in range(4) if s != self.turned_suit]
        if ph == "meld":
            return (A_PASS, A_DECLARE) if self.hand_melds[self.asked[self.answered]] else (A_PASS,)
        return ()

    def action_to_string(self, action: int) -> str:
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(f"{action!r} is not an action id")
        if 0 <= action < N_CARDS:
            return CARD_NAMES[action]
        if A_BELLE <= action < A_BELLE + N_CARDS:
            return CARD_NAMES[action - A_BELLE] + "+belle"
        if action in _WORDS:
            return _WORDS[action]
        raise ValueError(f"{action} is not a klaberjass action id")

    def _parse(self, text: str) -> int:
        if text in _PARSE:
            return _PARSE[text]
        if text.endswith("+BELLE"):
            return A_BELLE + parse_card(text[:-6])
        return parse_card(text)

    def _advance(self) -> bool:
        """Next seat of the current round; False when the round is exhausted."""
        self.answered += 1
        return self.answered < len(self.asked)

    def _apply(self, action: int) -> None:
        ph, n = self.phase, self.num_players
        if ph == "play":
            self._apply_card(action)
            return
        seat = self.asked[self.answered]
        word = self.action_to_string(action)
        if ph in _AUCTION:
            self.calls.append((ph, seat, word))
            self._event({"type": "call", "round": ph, "seat": seat, "call": word})
        if ph == "orgi":
            if action == A_TAKE:
                self._trump_fixed(self.turned_suit, seat)
            elif not self._advance():
                self._ask("kleines", self._seats)
        elif ph == "kleines":
            if action == A_KLEINES:
                self.kleines = seat
                if self.turned_suit == CLUBS:
                    self._ask("name", [seat])                                  # C1
                else:
                    self._ask("besser", [s for s in self._seats if s != seat])  # C2, D-5
            elif not self._advance():
                self._throw_in()
        elif ph == "besser":
            if action == A_BESSER:
                self._trump_fixed(CLUBS, seat)
            elif not self._advance():
                assert self.kleines is not None, "a besser round follows a Kleines"
                self._ask("name", [self.kleines])
        elif ph == "name":
            self._trump_fixed(action - A_NAME, seat)
        elif ph == "exchange":
            seven = card_id(self.turned_suit, R7)
            done = action == A_EXCHANGE
            self.exchange = (seat, done)
            if done:
                self.hands[seat] = (self.hands[seat] & ~(1 << seven)) | (1 << self.turned)
                self.stack[0] = seven
            self._event({"type": "exchange", "seat": seat, "exchanged": done, "seven": CARD_NAMES[seven],
                         "stack_top": CARD_NAMES[self.stack[0]]})
            self._begin_melds()
        elif ph == "meld":
            declared = action == A_DECLARE
            self.meld_calls.append((seat, declared))
            if declared:
                self.declared[seat] = list(self.hand_melds[seat])
            self._event({"type": "meld", "seat": seat, "declared": declared,
                         "melds": [m.to_dict() for m in self.declared.get(seat, [])]})
            if not self._advance():
                self._melds_done()
        elif ph == "kontra":
            self.doubling.append((seat, "kontra" if action == A_KONTRA else "pass"))
            self._event({"type": "double", "round": "kontra", "seat": seat, "call": word})
            if action == A_KONTRA:
                self.mult = 2
                ts = side_of(n, self._declarer)
                self._ask("re", [s for s in self._seats if side_of(n, s) == ts])
            elif not self._advance():
                self._begin_play()
        elif ph == "re":
            self.doubling.append((seat, "re" if action == A_RE else "pass"))
            self._event({"type": "double", "round": "re", "seat": seat, "call": word})
            if action == A_RE:
                self.mult = 4
                self._begin_play()
            elif not self._advance():
                self._begin_play()
        else:  # pragma: no cover
            raise AssertionError(f"no action in phase {ph!r}")

    def _apply_card(self, action: int) -> None:
        tp = self._trick_phase
        seat = tp.to_move
        card = action - A_BELLE if action >= A_BELLE else action
        deal = self.deal_no
        if action >= A_BELLE:
            self.belle = (seat, card)
            self._event({"type": "belle", "seat": seat, "card": CARD_NAMES[card]})
        holder = self._belle_holder
        self._play_move(card)
        if deal == self.deal_no and holder == seat and card in (card_id(self._trump, RK), card_id(self._trump, RQ)):
            self._belle_holder = None       # the first Belle card is out: Belle is settled
            if not tp.over:
                self._fast = True
                self._slow_seat = -1

    # ---- information ---------------------------------------------------------------------------
    def deal_number(self) -> int:
        return self.deal_no

    @property
    def results(self) -> list[dict[str, Any]]:
        """The public summaries of the finished deals and throw-ins, in order (§8.1-8.5, D-6): new
        dicts, written out on each read from what the deals' ends kept."""
        return [_deal_summary(entry) for entry in self._results]

    def scores(self) -> list[float]:
        n = self.num_players
        return [float(self.dice[side_of(n, s)]) for s in range(n)]

    def _hand_of(self, seat: int) -> int:
        if self.phase == "play" and self._tp_deal == self.deal_no:
            return self._trick_phase.hand(seat)
        return self.hands[seat]

    def observation(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        n = self.num_players
        in_play = self.phase == "play" and self._tp_deal == self.deal_no
        obs = {
            "last_trick": self.last_trick(),
            "game": "klaberjass", "seat": seat, "players": n,
            "teams": [[0, 2], [1, 3]] if n == 4 else None,
            "side": side_of(n, seat), "target": self.options["target"],
            "dice": list(self.dice), "scores": self.scores(),
            "deal": self.deal_no, "dealer": self.dealer, "forehand": self.forehand,
            "phase": self.phase, "decision": self.decision(), "to_move": self.current_player(),
            "results": self.results,
        }
        if self._over:
            return obs
        obs["hand"] = names(self._hand_of(seat))
        obs["packet"] = 0 if self.picked_up else 3          # 2p: own face-down packet, unseen
        obs["turned"] = CARD_NAMES[self.turned]
        obs["turned_suit"] = SUITS[self.turned_suit]
        if n == 4:
            obs["dealer_holds_turned"] = True
            obs["stack_top"] = None
        else:
            obs["stack_top"] = CARD_NAMES[self.stack[0]]
        obs["calls"] = [{"round": r, "seat": s, "call": c} for r, s, c in self.calls]
        obs["kleines"] = self.kleines
        obs["trump"] = None if self.trump is None else SUITS[self.trump]
        obs["declarer"] = self.declarer
        obs["trump_side"] = None if self.declarer is None else side_members(n, side_of(n, self.declarer))
        obs["exchange"] = None if self.exchange is None else {
            "seat": self.exchange[0], "exchanged": self.exchange[1],
            "seven": CARD_NAMES[card_id(self.turned_suit, R7)]}
        obs["melds"] = [{"seat": s, "declared": d, "melds": [m.to_dict() for m in self.declared.get(s, [])]}
                        for s, d in self.meld_calls]
        if self.phase == "meld" and seat == self.asked[self.answered]:
            obs["my_melds"] = [m.to_dict() for m in self.hand_melds[seat]]
        obs["best_meld"] = None if self.best is None else {"seat": self.best[0], **self.best[1].to_dict()}
        obs["meld_points"] = list(self.meld_pts)
        obs["doubling"] = [{"seat": s, "call": c} for s, c in self.doubling]
        obs["multiplier"] = self.mult
        obs["belle"] = None if self.belle is None else {"seat": self.belle[0], "card": CARD_NAMES[self.belle[1]]}
        if in_play:
            tp = self._trick_phase
            leader, moves, _led, _open = tp.current_trick()
            obs["trick"] = {"leader": leader, "cards": [CARD_NAMES[m] for m in moves]}
            obs["tricks"] = self._described_tricks(tp, lambda t: {
                "leader": t[0], "cards": [CARD_NAMES[m] for m in t[1]], "winner": t[2], "points": t[5]})
            obs["tricks_won"] = tp.tricks_won()
            obs["points_won"] = tp.points_won()
        else:
            obs["trick"] = None
            obs["tricks"] = []
            obs["tricks_won"] = [0] * n
            obs["points_won"] = [0] * n
        return obs

    # ---- worlds (docs/search.md; what a seat may know: §12) --------------------------------------
    def _world_model(self, seat: int | None) -> WorldModel[KlaberjassState]:
        """Hidden from ``seat``: the other hands; with 2 players the face-down packets until
        trump is fixed (the seat's own too); with 2 or 3 players the dead stack cards below the
        top.  Known places (§12.3): the turned card; the 7 of the turned suit with the seat asked
        to exchange it (or on the stack top after an exchange, the turned card then with him);
        with 2 or 3 players and nobody asked, the 7 in the dead stack; the cards of declared
        melds and the other Belle card with their holders; the duties of §7.2 (cards a seat did
        not follow, trump or overtrump with).  A seat that declared holds no other meld (a
        declaration shows all of a hand's melds, §5.3), which worlds are checked for."""
        n = self.num_players
        if self._over:
            return WorldModel(seat, 0, [], lambda assignment, rng: cast(KlaberjassState, self._world_base(seat, rng)))
        in_play = self.phase == "play" and self._tp_deal == self.deal_no
        tp = self._trick_phase if in_play else None
        hidden = [q for q in range(n) if q != seat]
        hands = [self._hand_of(q) for q in range(n)]
        packets = [q for q in range(n) if self._packets[q]]       # face down, even to the owner
        dead = self.stack[1:]
        cards = mask_of(dead)
        for q in hidden:
            cards |= hands[q]
        for q in packets:
            cards |= self._packets[q]
        slots = [Slot(("hand", q), _core.cards_count(hands[q]),
                      cards & ~tp.exclusions(q, cards) if tp is not None else cards) for q in hidden]
        slots += [Slot(("packet", q), _core.cards_count(self._packets[q]), cards) for q in packets]
        slots.append(Slot(("stack",), len(dead), cards))
        places: dict[int, Hashable] = {}                          # card -> the one slot it lies in
        seven = card_id(self.turned_suit, R7)
        asked = self.asked[self.answered] if self.phase == "exchange" else (self.exchange[0] if self.exchange else None)
        if asked is not None:
            places[self.turned if self.exchange and self.exchange[1] else seven] = ("hand", asked)
        elif n in (2, 3) and self.trump is not None and self.phase != "exchange" and self.turned != seven:
            places[seven] = ("stack",)                               # nobody held it (§4.4)
        for q, melds in self.declared.items():
            for meld in melds:
                for card in meld.cards:
                    places[card] = ("hand", q)
        if self.belle is not None:
            q, card = self.belle
            places[card ^ (card_id(self._trump, RK) ^ card_id(self._trump, RQ))] = ("hand", q)
        for card, key in places.items():
            if cards >> card & 1:
                slots = [sl if sl.key == key else Slot(sl.key, sl.size, sl.allowed & ~(1 << card)) for sl in slots]
        declarers = [q for q in self.declared if q != seat]

        def build(assignment: dict[Hashable, int], rng: random.Random) -> KlaberjassState:
            new_hands = [assignment["hand", q] if q != seat else hands[q] for q in range(n)]
            held = [new_hands[q] | (tp.played(q) if tp is not None else 0) for q in range(n)]
            for q in declarers:                                   # §5.3: every meld is shown
                if decompose_melds(held[q]) != self.declared[q]:
                    raise RejectedWorld(f"seat {q} would hold other melds than it declared")
            world = cast(KlaberjassState, self._world_base(seat, rng))
            world._packets = [assignment["packet", q] if q in packets else 0 for q in range(n)]
            stack = cards_of(assignment["stack",])
            rng.shuffle(stack)
            world.stack = self.stack[:1] + stack
            if self.hand_melds:
                world.hand_melds = {q: decompose_melds(held[q]) for q in range(n)}
            if tp is not None:
                world._world_trick_phase(new_hands)
                trump = self._trump
                both = (1 << card_id(trump, RK)) | (1 << card_id(trump, RQ))
                start = [new_hands[q] | tp.played(q) for q in range(n)]
                holder = _first_holding(start, both)
                if holder is not None and tp.played(holder) & both:
                    holder = None                                  # Belle is settled
                world._belle_holder = holder
                world._fast = holder is None
                world._slow_seat = -1 if holder is None else holder
            else:
                world.hands = new_hands
            world._order = self._world_order(world, seat, held, rng)
            world._world_replay = (self._deal_start, {"deal_orders": {self.deal_no: world._order}})
            return world
        return WorldModel(seat, cards, slots, build)

    def _world_order(self, world: KlaberjassState, seat: int | None, held: list[int], rng: random.Random) -> list[int]:
        """A pack order that deals the world (for its record): each hand as dealt is what its
        seat holds or played, without what it got after the deal (the turned card, the packet,
        the turned card of an exchange) and with what it gave (the 7)."""
        n, lay = self.num_players, LAYOUTS[self.num_players]
        seven = card_id(self.turned_suit, R7)
        dealt = list(held)
        packets = list(world._packets)
        if n == 4 and self._turned_in_hand:
            dealt[self.dealer] &= ~(1 << self.turned)
        if self.exchange is not None and self.exchange[1]:
            q = self.exchange[0]
            dealt[q] = (dealt[q] & ~(1 << self.turned)) | (1 << seven)
        if n == 2 and self.picked_up:
            for k, q in enumerate(self._seats):
                if q == seat:
                    packets[q] = mask_of([self._order[i] for i in lay.packets[k]])
                else:
                    packets[q] = mask_of(rng.sample(cards_of(dealt[q]), 3))
                dealt[q] &= ~packets[q]
        order = [-1] * N_CARDS
        for k, q in enumerate(self._seats):
            for pos, card in zip(lay.hands[k], cards_of(dealt[q])):
                order[pos] = card
            for pos, card in zip(lay.packets[k], cards_of(packets[q])):
                order[pos] = card
        order[lay.turned] = self.turned
        stack = [self.turned] + world.stack[1:] if lay.stack else []
        if self.exchange is not None and self.exchange[1]:
            stack[0] = self.turned
        for pos, card in zip(lay.stack, stack):
            order[pos] = card
        if sorted(order) != list(range(N_CARDS)):
            raise RejectedWorld("the world's cards do not make one pack")
        return order

    # ---- test support ------------------------------------------------------------------------
    def card_locations(self) -> dict[str, int]:
        """Where every card of the deal is (test support): place name -> card mask."""
        n = self.num_players
        out: dict[str, int] = {}
        in_play = self.phase == "play" and self._tp_deal == self.deal_no
        for s in range(n):
            out[f"hand{s}"] = self._hand_of(s)
            if n == 2:
                out[f"packet{s}"] = self._packets[s]
            if in_play:
                out[f"won{s}"] = self._trick_phase.won(s)
        if in_play:
            out["trick"] = mask_of([m & 127 for m in self._trick_phase.current_trick()[1]])
        if n == 4:
            out["turned"] = 0 if self._turned_in_hand else 1 << self.turned
        else:
            out["stack"] = mask_of(self.stack)
        return out


def _teams(n: int) -> tuple[tuple[int, ...], ...] | None:
    return ((0, 2), (1, 3)) if n == 4 else None


def _deck(players: int, options: Mapping[str, Any]) -> _core.Deck:
    """GameInfo.deck: the deck of one trump suit (every trump's has the same cards, names and ids)."""
    return DECKS[0]


def _shown_cards(event: Event, seat: int) -> Iterator[tuple[Any, Hashable, bool]]:
    """GameInfo.shown_cards: the seat's own packet, declared melds (from their seat's hand) and
    the trump seven exchanged."""
    kind = event.get("type")
    if kind == "packet" and event.get("seat") == seat:
        yield event["cards"], ("packet", seat), False
    elif kind == "meld" and event.get("declared"):
        for meld in event.get("melds", []):
            yield meld.get("cards", []), ("hand", event["seat"]), False
    elif kind == "exchange" and event.get("exchanged") and "seven" in event:
        yield event["seven"], event["seat"], False


GAME_INFO = register(GameInfo(
    name="klaberjass", title="Klaberjass (Hamburg Orgi / Kleines, dice scoring)", players=(2, 3, 4),
    options=(
        OptionSpec("target", int, 6, "die score that wins the match (the die goes to 6)", minimum=1, maximum=6),
        OptionSpec("first_dealer", int, -1, "seat of the first dealer; -1 draws it from the seed",
                   minimum=-1, maximum=3),
        OptionSpec("max_deals", int, 0, "end the match after this many deals, throw-ins included "
                   "(0 = no limit; a safety limit beyond the rules)", minimum=0),
    ),
    factory=KlaberjassState, teams=_teams,
    deck=_deck, faces=french_faces, shown_cards=_shown_cards,
    encoding="trickcore.games.klaberjass.encoding:KlaberjassEncoding",
    policy="trickcore.games.klaberjass.policy:choose",
    table="trickcore.games.klaberjass.table:TABLE",
    short_options={"max_deals": 2},
    # bids and contracts that random rollouts misjudge: the heuristic guides them (docs/search.md)
    search_tuning={"guide": "heuristic"},
    summary="32 cards, Jass and Mie, Orgi/Kleines/besser trump auction, melds and Belle, Kontra/Re; "
            "dice to 6; 4 players in partnerships, 2 or 3 each for himself"))
