# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Cython bindings of the trickcore C core.

Card sets cross into Python as plain ints (bit i = card id i, up to 128 bits), the
python-chess way: cheap, hashable and printable.  The hot loops (playouts,
perft, the card-play fast path of :class:`StateCore`) stay in C and create no
Python object per card.
"""

from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.exc cimport PyErr_CheckSignals
from trickcore._ccore cimport *
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM, PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.ref cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.long cimport PyLong_AsLongAndOverflow, PyLong_AsLongLongAndOverflow, PyLong_FromUnsignedLongLong
from cpython.dict cimport PyDict_Copy

cdef extern from "Python.h":
    # The instance dict of a game's state class (a Python subclass): read and set without an
    # attribute lookup.  Public C API (Python 3.3+, stable ABI 3.10).
    object PyObject_GenericGetDict(object o, void *context)
    int PyObject_GenericSetDict(object o, object value, void *context) except -1

cdef extern from "rules_inline.h":
    # The core's internals for the card-play fast path (csrc/src): the move list of the trick
    # rules (the one definition tc_play_moves wraps with its argument checks), and the play of
    # a move from such a list.
    int tc__moves(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand, uint16_t *out)
    void tc__play_listed(const tc_deck *d, const tc_rules *r, tc_play_state *s, int move)

from collections import OrderedDict

from trickcore.errors import CoreError

FOLLOW_FREE = TC_FOLLOW_FREE
FOLLOW_SUIT = TC_FOLLOW_SUIT
FOLLOW_OVERTRUMP = TC_FOLLOW_OVERTRUMP
FOLLOW_DOUBLE = TC_FOLLOW_DOUBLE
WIN_TRUMP = TC_WIN_TRUMP
WIN_OFFLEAD_HIGH = TC_WIN_OFFLEAD_HIGH
WIN_OFFLEAD_LOW = TC_WIN_OFFLEAD_LOW
WIN_DOUBLE = TC_WIN_DOUBLE
ROLE_ALWAYS = TC_ROLE_ALWAYS
ROLE_TOP_TRUMP = TC_ROLE_TOP_TRUMP
ROLE_DECLARED = TC_ROLE_DECLARED
ROLE_TWIN = TC_ROLE_TWIN
NO_SUIT = TC_NO_SUIT
LED_NONE = TC_LED_NONE
LED_TRUMP = TC_LED_TRUMP
PILE_PASS = TC_PILE_PASS
MAX_CARDS = TC_MAX_CARDS
MAX_PLAYERS = TC_MAX_PLAYERS
POLICY_RANDOM = TC_POLICY_RANDOM
POLICY_GREEDY = TC_POLICY_GREEDY
# Beim Jupiter's categories of rule 7.3 (bj_distribute); BJ_NONE: a ZERO bidder has none.
BJ_NONE = TC_BJ_NONE
BJ_A = TC_BJ_A
BJ_B = TC_BJ_B
BJ_C = TC_BJ_C
# Status codes of the core (trickcore.h); CoreError.status holds one.
E_CARD = TC_E_CARD
E_NOT_IN_HAND = TC_E_NOT_IN_HAND
E_ILLEGAL = TC_E_ILLEGAL
E_PLAYERS = TC_E_PLAYERS
E_DECL = TC_E_DECL
E_STATE = TC_E_STATE
E_ARG = TC_E_ARG
E_FULL = TC_E_FULL
E_SUIT = TC_E_SUIT
E_VALUE = TC_E_VALUE
E_ROLE = TC_E_ROLE
E_STRENGTH = TC_E_STRENGTH
E_TWIN = TC_E_TWIN
E_DECK = TC_E_DECK
E_FOLLOW = TC_E_FOLLOW
E_WINNER = TC_E_WINNER
E_TRUMP = TC_E_TRUMP
E_UNPLAYABLE = TC_E_UNPLAYABLE
E_HANDS = TC_E_HANDS
E_SEAT = TC_E_SEAT
E_RULES = TC_E_RULES
#: Card-play actions are move ids card | decl << 7, so 0..255; other decisions start here.
PLAY_ACTIONS = 256
# The int objects of every move id: a list of legal moves is built by copying pointers from
# here, with no int conversion call per move (legal moves are built after every card).
cdef tuple _MOVE_IDS = tuple(range(PLAY_ACTIONS))


def version():
    return tc_version().decode()


def strerror(int status):
    return tc_strerror(status).decode()


cdef inline object cards_to_int(tc_cards c):
    if c.w[1] == 0:                     # decks of up to 64 cards: no Python arithmetic
        return PyLong_FromUnsignedLongLong(c.w[0])
    return (<object>c.w[1] << 64) | <object>c.w[0]


cdef inline tc_cards int_to_cards(object x) except *:
    cdef tc_cards c
    cdef int overflow = 0
    cdef long long low
    if type(x) is int:                  # sets below 2**63 (most hands) without Python arithmetic
        low = PyLong_AsLongLongAndOverflow(x, &overflow)
        if overflow == 0 and low >= 0:
            c.w[0] = <uint64_t>low
            c.w[1] = 0
            return c
    if x < 0 or (x >> 128):
        raise CoreError(TC_E_CARD, f"card set {x!r} is outside 0..2**128-1")
    c.w[0] = <uint64_t>(x & 0xFFFFFFFFFFFFFFFF)
    c.w[1] = <uint64_t>(x >> 64)
    return c


cdef inline int check(int status, str what) except -1:
    if status < 0:
        raise CoreError(status, f"{what}: {tc_strerror(status).decode()}")
    return status


def cards_count(object cards):
    return tc_count(int_to_cards(cards))


def cards_list(object cards, long base=0):
    """Ascending card ids of a card set, each plus ``base``: a game that numbers an action per
    card from an offset (Beim Jupiter's colour choices are 256 + card id) lists them in one C
    loop."""
    cdef uint8_t ids[128]
    cdef int n = tc_to_array(int_to_cards(cards), ids)
    return [base + ids[i] for i in range(n)]


def cards_mask(object ids):
    """The card set of an iterable of card ids (0..127), each counted once: the inverse of
    cards_list.  The flow of a game builds its hands from a shuffled pack with it, a C loop
    where a Python one would shift and or a Python int per card."""
    cdef tc_cards c = tc_cards_empty()
    cdef Py_ssize_t card
    for card in ids:                    # Cython walks a list or tuple by index
        if card < 0 or card >= TC_MAX_CARDS:
            raise CoreError(TC_E_CARD, f"card id {card} is outside 0..{TC_MAX_CARDS - 1}")
        c = tc_or(c, tc_cards_of(<int>card))
    return cards_to_int(c)


def cards_nth(object cards, int n):
    return tc_nth(int_to_cards(cards), n)


def cards_first(object cards):
    return tc_first(int_to_cards(cards))


def cards_last(object cards):
    return tc_last(int_to_cards(cards))


cdef class Deck:
    """A deck description (tc_deck) plus the card names of the common notation.

    Immutable once the game has built it; copies of a state share it."""

    # Attributes (the tc_deck d, names, ids, spec): trickcore/_core.pxd.

    def __cinit__(self, int n_suits):
        cdef int rc = tc_deck_init(&self.d, n_suits)
        if rc != TC_OK:
            raise CoreError(rc, f"a deck has 0..{TC_MAX_SUITS} suits, not {n_suits}")
        self.spec = [n_suits]
        self.names = []
        self.ids = {}

    def add(self, str name, int suit, int rank, strength=None, trump_strength=None, int points=0, int role=0):
        """Add a card and return its id.  strength defaults to rank, trump_strength to strength."""
        cdef int s = rank if strength is None else strength
        cdef int ts = s if trump_strength is None else trump_strength
        if name in self.ids:
            raise CoreError(TC_E_ARG, f"card name {name!r} used twice")
        cdef int cid = check(tc_deck_add(&self.d, suit, rank, s, ts, points, role), f"adding card {name}")
        self.names.append(name)
        self.ids[name] = cid
        self.spec.append((name, suit, rank, s, ts, points, role))
        return cid

    def set_declarations(self, int strength0, int strength1):
        check(tc_deck_set_decl(&self.d, strength0, strength1), "declared strengths")
        self.spec.append((strength0, strength1))

    @property
    def n_cards(self):
        return self.d.n_cards

    @property
    def n_suits(self):
        return self.d.n_suits

    @property
    def all(self):
        return cards_to_int(self.d.all)

    cdef int _card(self, int card) except -1:
        if not 0 <= card < self.d.n_cards:
            raise CoreError(TC_E_CARD, f"card id {card} is not in this deck (0..{self.d.n_cards - 1})")
        return card

    def suit(self, int card):
        return self.d.suit[self._card(card)]

    def rank(self, int card):
        return self.d.rank[self._card(card)]

    def strength(self, int card):
        return self.d.strength[self._card(card)]

    def trump_strength(self, int card):
        return self.d.trump_strength[self._card(card)]

    def points(self, int card):
        return self.d.points[self._card(card)]

    def role(self, int card):
        return self.d.role[self._card(card)]

    def decl_strength(self, int decl):
        return self.d.decl_strength[decl & 1]

    def suit_mask(self, int suit):
        if not 0 <= suit < self.d.n_suits:
            raise CoreError(TC_E_ARG, f"suit {suit} is not in this deck")
        return cards_to_int(self.d.suit_mask[suit])

    # Notation -----------------------------------------------------------------
    def name(self, int card):
        return self.names[self._card(card)]

    def card_id(self, str name):
        try:
            return self.ids[name]
        except KeyError:
            raise CoreError(TC_E_CARD, f"no card {name!r} in this deck") from None

    def names_of(self, object cards):
        """The names of a card set's cards, by ascending id (views list hands and piles on
        every request, so this is one call instead of a Python loop per card)."""
        cdef uint8_t ids[128]
        cdef int n = tc_to_array(int_to_cards(cards), ids), i
        cdef list names = self.names
        cdef object name
        if n and ids[n - 1] >= len(names):  # ids ascend; indexing is unchecked in this module
            raise CoreError(TC_E_CARD, f"card {ids[n - 1]} is not in this deck ({len(names)} cards)")
        cdef list out = PyList_New(n)
        for i in range(n):
            name = names[ids[i]]
            Py_INCREF(name)
            PyList_SET_ITEM(out, i, name)
        return out

    def cards_text(self, object cards):
        return " ".join(self.names_of(cards))

    def mask_of(self, names):
        cdef tc_cards out = tc_cards_empty()
        for n in names:
            out = tc_or(out, tc_cards_of(self.card_id(n)))
        return cards_to_int(out)

    def move_text(self, object move):
        """Text of a move: the card name, plus '=<strength>' for a declared card."""
        if type(move) is not int or not 0 <= move < 256:
            raise CoreError(TC_E_CARD, f"{move!r} is not a card move (0..255)")
        cdef int card = move & 127, decl = (move >> 7) & 1
        name = self.name(card)
        if self.d.role[card] & TC_ROLE_DECLARED:
            return f"{name}={self.d.decl_strength[decl]}"
        if decl:
            raise CoreError(TC_E_DECL, f"{name} takes no declaration")
        return name

    def parse_move(self, str text):
        """Move id of a move text (inverse of move_text)."""
        name, eq, value = text.partition("=")
        cdef int card = self.card_id(name)
        if self.d.role[card] & TC_ROLE_DECLARED:
            if not eq:
                raise CoreError(TC_E_DECL, f"{name} must be played with a declaration, e.g. "
                                f"{name}={self.d.decl_strength[0]} or {name}={self.d.decl_strength[1]}")
            for decl in (0, 1):
                if value == str(self.d.decl_strength[decl]):
                    return card | (decl << 7)
            raise CoreError(TC_E_DECL, f"{name} is declared {self.d.decl_strength[0]} or "
                            f"{self.d.decl_strength[1]}, not {value!r}")
        if eq:
            raise CoreError(TC_E_DECL, f"{name} takes no declaration")
        return card

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        # By description; unpickling gives back one shared Deck per description.
        return (_deck_from_spec, (tuple(self.spec),))


cdef class Rng:
    """The core's seeded xoshiro256** generator (same sequence on every platform)."""

    # Attributes (the tc_rng r): trickcore/_core.pxd.

    def __cinit__(self, uint64_t seed=0):
        tc_rng_seed(&self.r, seed)

    def next(self):
        return tc_rng_next(&self.r)

    cpdef uint32_t below(self, uint32_t n) except? 0:
        if n == 0:
            raise CoreError(TC_E_ARG, "below(0)")
        return tc_rng_below(&self.r, n)

    def shuffle(self, list items):
        """Fisher-Yates in place, the same walk as tc_shuffle."""
        cdef Py_ssize_t i
        cdef uint32_t j
        for i in range(len(items) - 1, 0, -1):
            j = tc_rng_below(&self.r, <uint32_t>(i + 1))
            items[i], items[j] = items[j], items[i]

    def deal(self, object cards, int n_players, int hand_size):
        """Shuffle `cards` (a set) and deal hand_size to each seat: (hands, rest)."""
        cdef tc_cards hands[8]
        cdef tc_cards rest
        check(tc_deal(&self.r, int_to_cards(cards), n_players, hand_size, hands, &rest), "deal")
        return [cards_to_int(hands[p]) for p in range(n_players)], cards_to_int(rest)

    def getstate(self):
        return (self.r.s[0], self.r.s[1], self.r.s[2], self.r.s[3])

    def setstate(self, state):
        for i in range(4):
            self.r.s[i] = state[i]

    def __reduce__(self):
        return (_rng_from_state, (self.getstate(),))

    def __deepcopy__(self, memo):
        cdef Rng other = Rng.__new__(Rng)
        other.r = self.r
        return other


# The decks of the latest pickles loaded, by description: equal descriptions share one Deck
# (decks are immutable), and at most DECKS_KEPT are kept, the least recently loaded dropped first,
# so loading pickles of ever new decks cannot grow memory without bound.
DECKS_KEPT = 64
_DECKS_BY_SPEC = OrderedDict()


def _deck_from_spec(tuple spec):
    """The Deck a pickle describes (checked as Deck.add checks every card)."""
    cdef Deck deck = _DECKS_BY_SPEC.get(spec)
    if deck is not None:
        _DECKS_BY_SPEC.move_to_end(spec)
    else:
        deck = Deck(spec[0])
        for item in spec[1:]:
            if len(item) == 2:
                deck.set_declarations(*item)
            else:
                name, suit, rank, strength, trump_strength, points, role = item
                deck.add(name, suit, rank, strength, trump_strength, points, role)
        _DECKS_BY_SPEC[spec] = deck
        if len(_DECKS_BY_SPEC) > DECKS_KEPT:
            _DECKS_BY_SPEC.popitem(last=False)
    return deck


def _rng_from_state(state):
    cdef Rng rng = Rng.__new__(Rng)
    rng.setstate(state)
    return rng


cdef int make_rules(Deck deck, tc_rules *r, int n_players, int follow, int winner, int trump) except -1:
    """Fill `r`, checked against the deck by the core (tc_rules_check)."""
    r.n_players = n_players
    r.follow = follow
    r.winner = winner
    r.trump = trump
    cdef int status = tc_rules_check(&deck.d, r)
    if status < 0:   # the message only on error: formatting it costs more than the check
        check(status, f"rules (players {n_players}, follow {follow}, winner {winner}, trump {trump})")
    return 0


cdef int fill_trick(Deck deck, tc_rules *r, tc_trick *t, int leader, moves) except -1:
    if not 0 <= leader < r.n_players:
        raise CoreError(TC_E_ARG, f"leader {leader} is not a seat")
    if len(moves) > r.n_players:
        raise CoreError(TC_E_STATE, f"{len(moves)} cards in a trick of {r.n_players} players")
    tc_trick_start(t, leader)
    for m in moves:
        if not 0 <= m < 256 or (m & 127) >= deck.d.n_cards:
            raise CoreError(TC_E_CARD, f"move {m} is not a card of this deck")
        check(tc_trick_add(&deck.d, r, t, m), "trick")
    return 0


def legal_cards(Deck deck, int n_players, int follow, int winner, int trump, int leader, moves, object hand):
    """Legal cards (a set) of `hand` after `moves` were played in a trick led by `leader`."""
    cdef tc_rules r
    cdef tc_trick t
    make_rules(deck, &r, n_players, follow, winner, trump)
    fill_trick(deck, &r, &t, leader, moves)
    return cards_to_int(tc_legal(&deck.d, &r, &t, int_to_cards(hand)))


def legal_moves(Deck deck, int n_players, int follow, int winner, int trump, int leader, moves, object hand):
    """Distinct legal moves (declarations expanded, twins merged), ascending."""
    cdef tc_rules r
    cdef tc_trick t
    cdef uint16_t out[256]
    make_rules(deck, &r, n_players, follow, winner, trump)
    fill_trick(deck, &r, &t, leader, moves)
    cdef int n = tc_moves(&deck.d, &r, &t, int_to_cards(hand), out)
    return [out[i] for i in range(n)]


def resolve_trick(Deck deck, int n_players, int follow, int winner, int trump, int leader, moves):
    """Resolve a trick: dict with winner (seat), winner2 (Hattrick second trick),
    next_leader, points, led and piles (per card: 0, 1 or PILE_PASS)."""
    cdef tc_rules r
    cdef tc_trick t
    make_rules(deck, &r, n_players, follow, winner, trump)
    fill_trick(deck, &r, &t, leader, moves)
    nxt = tc_trick_next_leader(&deck.d, &t, n_players) if winner == TC_WIN_DOUBLE else tc_trick_winner(&t, n_players, 0)
    return {"winner": tc_trick_winner(&t, n_players, 0), "winner2": tc_trick_winner(&t, n_players, 1),
            "next_leader": nxt, "points": tc_trick_points(&deck.d, &t), "led": t.led,
            "piles": [t.pile[i] for i in range(t.n_played)]}


cdef int _in_range(object value, long long top, int status, str what) except -1:
    """``value`` (an int) as a C int in 0..top; a CoreError with ``status`` outside, before a C
    field of fewer bits would wrap it into range."""
    cdef int overflow = 0
    cdef long long v = PyLong_AsLongLongAndOverflow(value, &overflow)
    if overflow or not 0 <= v <= top:
        raise CoreError(status, f"{what} {value!r} is outside 0..{top}")
    return <int>v


def bj_distribute(Deck deck, int start, int t, table, bids, locked, colour, tricks, points):
    """Beim Jupiter's end of a round in the core (tc_bj_distribute: rules 7.2-8.1 of
    docs/rules/beim_jupiter.md), on card ids of ``deck``.

    ``table`` maps each trick count to the cards lying there, in order; per seat, ``bids`` holds
    T_p (0 for ZERO), ``locked`` whether the bid was locked, ``colour`` the colour card, ``tricks``
    and ``points`` k_p and pts_p.  Returns ``(categories, picks, won, zero, left, removed, table)``:
    each seat's category (BJ_A, BJ_B, BJ_C; BJ_NONE for a ZERO bidder), the picks as (seat, count,
    card) in pick order, each seat's victory cards gained (a list of at most one), {ZERO bidder:
    whether he won his card}, {count: cards} not taken, the cards leaving the game, and {count:
    cards} carried into the next round (the lists of ``left``, shared)."""
    cdef tc_bj_round r
    cdef tc_bj_distribution out
    cdef Py_ssize_t n = len(bids), p, i
    cdef int count
    if not 1 <= n <= TC_MAX_PLAYERS:
        raise CoreError(TC_E_PLAYERS, f"{n} seats: a distribution is for 1..{TC_MAX_PLAYERS}")
    if len(locked) != n or len(colour) != n or len(tricks) != n or len(points) != n:
        raise CoreError(TC_E_ARG, "bids, locked, colour, tricks and points take one entry per seat")
    r.n_players = <int>n
    r.start = start
    r.t = t
    for p in range(n):
        r.bid[p] = <uint8_t>_in_range(bids[p], 255, TC_E_ARG, "bid")
        r.locked[p] = 1 if locked[p] else 0
        r.colour[p] = <uint8_t>_in_range(colour[p], TC_MAX_CARDS - 1, TC_E_CARD, "card")
        r.tricks[p] = <uint8_t>_in_range(tricks[p], 255, TC_E_ARG, "trick count")
        r.points[p] = <uint16_t>_in_range(points[p], 65535, TC_E_ARG, "trick points")
    r.n_table = 0
    for key, cards in table.items():
        count = _in_range(key, 255, TC_E_ARG, "count")
        for card in cards:
            if r.n_table == TC_MAX_CARDS:
                raise CoreError(TC_E_ARG, f"more than {TC_MAX_CARDS} cards on the table")
            r.card[r.n_table] = <uint8_t>_in_range(card, TC_MAX_CARDS - 1, TC_E_CARD, "card")
            r.count[r.n_table] = <uint8_t>count
            r.n_table += 1
    check(tc_bj_distribute(&deck.d, &r, &out), "distribution")
    left = {}
    i = 0
    while i < out.n_left:               # counts ascending: one list per run of a count
        count = out.left_count[i]
        cards = []
        while i < out.n_left and out.left_count[i] == count:
            cards.append(out.left_card[i])
            i += 1
        left[count] = cards
    kept = {}
    for i in range(out.n_table):        # the same cards in the same order as in ``left``
        kept[out.table_count[i]] = left[out.table_count[i]]
    return ([out.category[p] for p in range(n)],
            [(out.pick_seat[i], out.pick_count[i], out.pick_card[i]) for i in range(out.n_picks)],
            [[out.won[p]] if out.won[p] >= 0 else [] for p in range(n)],
            {p: out.zero[p] == 1 for p in range(n) if out.zero[p] >= 0},
            left, [out.removed[i] for i in range(out.n_removed)], kept)


cdef class TrickPhase:
    """The trick phase of one deal, run by the C core (tc_play_state).

    ``tricks`` lists completed tricks as (leader, moves, winner, winner2,
    next_leader, points); winner2 is -1 except for Hattrick's second trick."""

    # Attributes (deck, rules, the tc_play_state s, the log of completed tricks, their
    # Python tuples and descriptions): trickcore/_core.pxd.

    def __init__(self, Deck deck, int n_players, int follow, int winner, int trump, hands, int leader, int tricks):
        cdef tc_cards h[8]
        make_rules(deck, &self.rules, n_players, follow, winner, trump)
        if len(hands) != n_players:
            raise CoreError(TC_E_ARG, f"{len(hands)} hands for {n_players} players")
        for p in range(n_players):
            h[p] = int_to_cards(hands[p])
            if not tc_is_empty(tc_minus(h[p], deck.d.all)):
                raise CoreError(TC_E_CARD, f"hand {p} holds cards outside the deck")
        self.deck = deck
        if not 0 <= tricks <= 64:
            raise CoreError(TC_E_ARG, f"{tricks} tricks: a trick phase has at most 64")
        # A Deck changes only through tc_deck_add and tc_deck_set_decl, which keep it valid, so
        # its check is not run again for every trick phase (it is O(cards)).
        check(tc_play_init_checked(&self.s, &deck.d, &self.rules, h, leader, tricks), "trick phase")
        self._alloc_log(tricks)
        self.n_log = 0
        self.py_log = []
        self.described = []

    cdef int _alloc_log(self, int tricks) except -1:
        """Room in the log for ``tricks`` completed tricks, every trick a phase can complete."""
        PyMem_Free(self.log)
        self.log = <tc_trick *>PyMem_Malloc((tricks + 1) * sizeof(tc_trick))
        if self.log == NULL:
            raise MemoryError()
        return 0

    def __dealloc__(self):
        PyMem_Free(self.log)

    cdef int play_c(self, int move) except? -9:
        """Play a checked move; returns the tc status (negative on error), 1 if a trick completed."""
        cdef int rc = tc_play(&self.deck.d, &self.rules, &self.s, move)
        if rc < 0:
            return rc
        return self._played()

    cdef inline int _played(self):
        """After a card: log the trick it completed; 1 if it completed one, else 0."""
        if self.s.trick.n_played == 0:
            self._record()
            return 1
        return 0

    cdef inline void _record(self):
        self.log[self.n_log] = self.s.last_trick
        self.log_next[self.n_log] = <int8_t>self.s.last_winner
        self.n_log += 1

    cdef list _trick_tuples(self):
        cdef tc_trick *t
        cdef int n = self.rules.n_players, k, i
        cdef list log = self.py_log
        cdef list moves
        for k in range(len(log), self.n_log):
            t = &self.log[k]
            moves = [int(t.card[i]) | (int(t.decl[i]) << 7) for i in range(t.n_played)]
            log.append((t.leader, tuple(moves), tc_trick_winner(t, n, 0), tc_trick_winner(t, n, 1),
                        int(self.log_next[k]), t.points))
        return log

    @property
    def tricks(self):
        """Completed tricks: (leader, moves, winner, winner2, next_leader, points).

        A new list each call; the tuples in it are built once per trick and shared."""
        return list(self._trick_tuples())

    def tricks_from(self, int k):
        """Completed tricks from the ``k``-th on, as in ``tricks``."""
        return self._trick_tuples()[k:]

    def trick(self, int k):
        """Completed trick ``k`` (0-based) as in ``tricks``."""
        if not 0 <= k < self.n_log:
            raise IndexError(f"trick {k}: {self.n_log} tricks are complete")
        return self._trick_tuples()[k]

    @property
    def n_tricks_done(self):
        return self.n_log

    @property
    def cards_played(self):
        """Cards played in this phase so far (every completed trick holds one per seat)."""
        return self.n_log * self.rules.n_players + self.s.trick.n_played

    @property
    def trick_len(self):
        """Cards in the trick in progress."""
        return self.s.trick.n_played

    def play(self, int move):
        """Play a move for the seat to move; returns True if it completed a trick."""
        cdef int rc = self.play_c(move)
        if rc < 0:
            raise CoreError(rc, f"move {move} for seat {self.to_move}: {tc_strerror(rc).decode()}")
        return rc == 1

    cdef list moves_c(self):
        cdef uint16_t out[256]
        cdef int n = tc_play_moves(&self.deck.d, &self.rules, &self.s, out), i
        cdef list res = PyList_New(n)
        cdef PyObject *v
        for i in range(n):
            v = PyTuple_GET_ITEM(_MOVE_IDS, out[i])
            Py_INCREF(<object>v)
            PyList_SET_ITEM(res, i, <object>v)
        return res

    cdef tuple moves_tuple(self, uint64_t *listed_lo, uint64_t *listed_hi):
        """The legal moves as a tuple: what StateCore caches per decision.  ``listed_lo`` and
        ``listed_hi`` get its plain card moves (ids below 128) as a card set, for play_listed.
        Only while the phase runs (StateCore._in_trick_phase): the seat to move holds a hand."""
        cdef uint16_t out[256]
        cdef int seat = tc_trick_to_move(&self.s.trick, self.rules.n_players), i, m
        cdef int n = tc__moves(&self.deck.d, &self.rules, &self.s.trick, self.s.hand[seat], out)
        cdef tuple res = PyTuple_New(n)
        cdef PyObject *v
        cdef uint64_t words[4]    # the moves as a set: plain cards in words 0-1, declared in 2-3
        words[0] = words[1] = words[2] = words[3] = 0
        for i in range(n):
            m = out[i]
            v = PyTuple_GET_ITEM(_MOVE_IDS, m)
            Py_INCREF(<object>v)
            PyTuple_SET_ITEM(res, i, <object>v)
            words[m >> 6] |= (<uint64_t>1) << (m & 63)
        listed_lo[0] = words[0]
        listed_hi[0] = words[1]
        return res

    cdef int play_listed(self, int move):
        """Play a move of the list moves_tuple gave for this position (so legal: no check).
        Returns 1 if a trick completed, as play_c."""
        tc__play_listed(&self.deck.d, &self.rules, &self.s, move)
        return self._played()

    def moves(self):
        """Distinct legal moves of the seat to move, ascending."""
        return self.moves_c()

    def legal_cards(self):
        cdef int seat = tc_play_to_move(&self.s, &self.rules)
        if seat < 0:
            return 0
        return cards_to_int(tc_legal(&self.deck.d, &self.rules, &self.s.trick, self.s.hand[seat]))

    # ---- what world samplers need (trickcore.worlds) ---------------------------------
    @property
    def rule_params(self):
        """(players, follow, winner, trump) as given when the phase started."""
        return (self.rules.n_players, self.rules.follow, self.rules.winner, self.rules.trump)

    @property
    def first_leader(self):
        """The seat that led the phase's first trick."""
        return self.log[0].leader if self.n_log else self.s.trick.leader

    @property
    def total_tricks(self):
        """Tricks (double tricks) of the whole phase, completed ones included."""
        return self.n_log + self.s.tricks_left

    cdef tc_trick *_trick_at(self, int k):
        """Completed trick k, or (k == n_log) the trick in progress."""
        return &self.log[k] if k < self.n_log else &self.s.trick

    def played(self, int seat):
        """Cards ``seat`` has played in this phase (completed tricks and the open one)."""
        cdef int n = self.rules.n_players, k, i
        cdef tc_trick *t
        cdef tc_cards out = tc_cards_empty()
        self._seat(seat)
        for k in range(self.n_log + 1):
            t = self._trick_at(k)
            for i in range(t.n_played):
                if (t.leader + i) % n == seat:
                    out = tc_or(out, tc_cards_of(t.card[i]))
        return cards_to_int(out)

    def with_hands(self, hands):
        """The same phase with every seat holding ``hands[p]`` now: a new phase started from
        ``hands[p]`` plus the cards p has played, with every move replayed in order.  Raises
        CoreError when one of the moves would have been illegal with those hands."""
        cdef int n = self.rules.n_players
        if len(hands) != n:
            raise CoreError(TC_E_ARG, f"{len(hands)} hands for {n} players")
        return _trickphase_replayed(self.deck, self.rule_params,
                                    tuple([int(hands[p]) | self.played(p) for p in range(n)]),
                                    self.first_leader, self.total_tricks, tuple(self.moves_played()))

    def exclusions(self, int seat, object candidates):
        """The cards of ``candidates`` that ``seat`` cannot hold now, as the public record of
        this phase proves: with such a card in hand, one of the seat's plays would have been
        illegal (the seat held it then, together with every card it played from that play on).
        Exact for rules whose duties are triggered by single cards (following suit, trumping,
        overtrumping); a sampler checks the rest by replaying (``with_hands``)."""
        cdef int n = self.rules.n_players, k, i, j
        cdef tc_trick *t
        cdef tc_trick prefix
        cdef tc_cards later, cand = int_to_cards(candidates), out = tc_cards_empty(), legal, one
        cdef uint8_t ids[128]
        cdef int n_ids = tc_to_array(cand, ids)
        self._seat(seat)
        later = int_to_cards(self.played(seat))    # what the seat held of its own plays, then
        for k in range(self.n_log + 1):
            t = self._trick_at(k)
            for i in range(t.n_played):
                if (t.leader + i) % n != seat:
                    continue
                tc_trick_start(&prefix, t.leader)
                for j in range(i):
                    tc_trick_add(&self.deck.d, &self.rules, &prefix, t.card[j] | (t.decl[j] << 7))
                for j in range(n_ids):
                    one = tc_cards_of(ids[j])
                    if not tc_is_empty(tc_and(out, one)):
                        continue
                    legal = tc_legal(&self.deck.d, &self.rules, &prefix, tc_or(later, one))
                    if not tc_has(legal, t.card[i]):
                        out = tc_or(out, one)
                later = tc_minus(later, tc_cards_of(t.card[i]))
        return cards_to_int(out)

    @property
    def deck(self):
        return self.deck

    @property
    def n_players(self):
        return self.rules.n_players

    @property
    def trump(self):
        return self.rules.trump

    @property
    def to_move(self):
        return tc_play_to_move(&self.s, &self.rules)

    @property
    def over(self):
        return tc_play_over(&self.s) != 0

    @property
    def tricks_left(self):
        return self.s.tricks_left

    @property
    def last_winner(self):
        return self.s.last_winner

    def hand(self, int seat):
        return cards_to_int(self.s.hand[self._seat(seat)])

    def won(self, int seat):
        return cards_to_int(self.s.won[self._seat(seat)])

    def passed(self, int seat):
        return cards_to_int(self.s.passed[self._seat(seat)])

    def tricks_won(self):
        return [self.s.tricks[p] for p in range(self.rules.n_players)]

    def points_won(self):
        return [self.s.points[p] for p in range(self.rules.n_players)]

    def current_trick(self):
        """(leader, moves so far, led category, open colours) of the trick in progress."""
        cdef tc_trick *t = &self.s.trick
        cdef list moves = []
        for i in range(t.n_played):
            moves.append(int(t.card[i]) | (int(t.decl[i]) << 7))
        return t.leader, moves, t.led, (t.open[0], t.open[1])

    cdef int _seat(self, int seat) except -1:
        if not 0 <= seat < self.rules.n_players:
            raise CoreError(TC_E_ARG, f"seat {seat} is not in 0..{self.rules.n_players - 1}")
        return seat

    def playout(self, Rng rng):
        """Finish the trick phase with uniformly random legal moves (in C; tricks not recorded)."""
        check(tc_playout(&self.deck.d, &self.rules, &self.s, &rng.r), "playout")

    def playouts(self, int n, Rng rng, int policy=TC_POLICY_RANDOM):
        """Run ``n`` playouts of copies of this phase to its end, in C (the phase is not
        changed): (mean tricks per seat, mean card points per seat).  Run in batches of
        PLAYOUT_BATCH with the GIL released, signals checked between them (Ctrl-C stops a long
        call); the same results as one run, the generator drawn from in the same order."""
        cdef uint64_t tricks[TC_MAX_PLAYERS]
        cdef uint64_t points[TC_MAX_PLAYERS]
        _batched_playouts(self, &self.s, n, rng, policy, tricks, points)
        cdef int k = self.rules.n_players, i
        return [(<double>tricks[i]) / n for i in range(k)], [(<double>points[i]) / n for i in range(k)]

    def play_out(self, Rng rng, int policy=TC_POLICY_RANDOM):
        """Play the phase to its end with a built-in policy, in C, recording every trick as
        play() does; the moves played, in order."""
        cdef list moves = []
        cdef int move, rc
        while not tc_play_over(&self.s):
            move = tc_policy_move(&self.deck.d, &self.rules, &self.s, policy, &rng.r)
            if move < 0:
                check(move, "play out")
            rc = self.play_c(move)
            if rc < 0:
                check(rc, "play out")
            moves.append(move)
        return moves

    def playouts_per_move(self, int n, Rng rng, int policy=TC_POLICY_RANDOM):
        """``n`` playouts after each legal move of the seat to move, in C: a list of
        (move, mean tricks per seat, mean card points per seat), in move order (batched as
        ``playouts``; the same results as tc_playouts_per_move)."""
        cdef uint16_t moves[256]
        cdef uint64_t tricks[TC_MAX_PLAYERS]
        cdef uint64_t points[TC_MAX_PLAYERS]
        cdef tc_play_state after
        cdef int count, j, i, k = self.rules.n_players
        if n < 1:
            check(TC_E_ARG, "playouts per move")
        if tc_play_over(&self.s):
            return []
        count = tc__moves(&self.deck.d, &self.rules, &self.s.trick,
                          self.s.hand[tc_trick_to_move(&self.s.trick, k)], moves)
        out = []
        for j in range(count):
            after = self.s
            tc__play_listed(&self.deck.d, &self.rules, &after, moves[j])
            _batched_playouts(self, &after, n, rng, policy, tricks, points)
            out.append((moves[j], [(<double>tricks[i]) / n for i in range(k)],
                        [(<double>points[i]) / n for i in range(k)]))
        return out

    def perft(self, int depth=-1):
        """(count, leaves, tricks per seat, points per seat) summed over the leaves."""
        cdef tc_perft_stats st
        cdef uint64_t count
        with nogil:
            count = tc_perft(&self.deck.d, &self.rules, &self.s, depth, &st)
        n = self.rules.n_players
        return count, st.leaves, [st.tricks[p] for p in range(n)], [st.points[p] for p in range(n)]

    def divide(self, int depth=-1):
        """perft split by the first move: {move: count}."""
        out = {}
        for m in self.moves():
            child = self.copy()
            child.play(m)
            out[m] = child.perft(depth - 1 if depth > 0 else depth)[0]
        return out

    def copy(self):
        return self.copy_c()

    cdef TrickPhase copy_c(self):
        cdef TrickPhase other = TrickPhase.__new__(TrickPhase)
        other.deck = self.deck
        other.rules = self.rules
        other.s = self.s
        other._alloc_log(self.n_log + self.s.tricks_left)
        # Only the completed tricks of the log: a copy early in a deal stays cheap.
        memcpy(other.log, self.log, self.n_log * sizeof(tc_trick))
        memcpy(other.log_next, self.log_next, self.n_log * sizeof(int8_t))
        other.n_log = self.n_log
        other.py_log = list(self.py_log)  # immutable tuples: a shallow copy is independent
        other.described = list(self.described)  # read-only descriptions of completed tricks
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def moves_played(self):
        """Every move of the phase so far, in play order (completed tricks, then the open one)."""
        cdef int k, i
        cdef tc_trick *t
        out = []
        for k in range(self.n_log + 1):
            t = self._trick_at(k)
            for i in range(t.n_played):
                out.append(int(t.card[i]) | (int(t.decl[i]) << 7))
        return out

    def __reduce__(self):
        # What the phase started from and its moves: loading starts the phase again and plays
        # them through the core's checks, so a tampered pickle raises CoreError (its bytes never
        # become the C structs), and a pickle loads in any build of the same rules.
        n = self.rules.n_players
        return (_trickphase_replayed,
                (self.deck, self.rule_params, tuple([self.hand(p) | self.played(p) for p in range(n)]),
                 self.first_leader, self.total_tricks, tuple(self.moves_played())))


#: Playouts run per call into the core by TrickPhase.playouts, between two checks for signals.
PLAYOUT_BATCH = 4096


cdef int _batched_playouts(TrickPhase tp, const tc_play_state *s, int n, Rng rng, int policy,
                           uint64_t *tricks, uint64_t *points) except -1:
    """The per-seat totals of ``n`` playouts from ``s`` into tricks[] and points[], run in batches
    with the GIL released and signals checked between batches.  The core gives each batch's
    means; a batch's totals are its mean times its size, whole numbers (exact in a double)."""
    cdef tc_playout_stats st
    cdef int rc, batch, i, k = tp.rules.n_players
    cdef int done = 0
    memset(tricks, 0, TC_MAX_PLAYERS * sizeof(uint64_t))
    memset(points, 0, TC_MAX_PLAYERS * sizeof(uint64_t))
    if n < 1:
        check(TC_E_ARG, "playouts")
    while done < n:
        batch = min(PLAYOUT_BATCH, n - done)
        with nogil:
            rc = tc_playouts(&tp.deck.d, &tp.rules, s, batch, policy, &rng.r, &st)
        check(rc, "playouts")
        for i in range(k):
            tricks[i] += <uint64_t>(st.tricks[i] * batch + 0.5)
            points[i] += <uint64_t>(st.points[i] * batch + 0.5)
        done += batch
        PyErr_CheckSignals()
    return 0


def _trickphase_replayed(Deck deck, tuple rules, tuple hands, int leader, int tricks, tuple moves):
    """A trick phase started from ``hands`` with ``moves`` played through the core's checks
    (TrickPhase.__reduce__ and with_hands); CoreError for a move those hands do not allow."""
    if len(rules) != 4:
        raise CoreError(TC_E_ARG, "not a pickled trick phase")
    cdef TrickPhase tp = TrickPhase(deck, rules[0], rules[1], rules[2], rules[3], hands, leader, tricks)
    for move in moves:
        tp.play(move)
    return tp


cdef int _policy_code(policy) except -1:
    """The C policy of a built-in policy's name (``playouts``, ``finish_trick_phase``)."""
    if policy == "random":
        return TC_POLICY_RANDOM
    if policy == "greedy":
        return TC_POLICY_GREEDY
    raise ValueError(f"policy must be 'random' or 'greedy', not {policy!r}")


cdef inline bint _holds_id(tuple legal, long move) except -1:
    """Whether the legal-action tuple holds the action id ``move``: ``move in legal``, compared as C
    longs.  The ids of most non-card decisions are above 256, outside the small ints Python keeps
    one object of, so ``in`` would find no identical object and run a rich comparison per element."""
    cdef Py_ssize_t i
    cdef int overflow
    cdef object item
    for i in range(PyTuple_GET_SIZE(legal)):
        item = <object>PyTuple_GET_ITEM(legal, i)
        if type(item) is int:
            if PyLong_AsLongAndOverflow(item, &overflow) == move and overflow == 0:
                return True
        elif item == move:              # a game may list ids of an int subclass
            return True
    return False


cdef enum:
    _BLOCK = 64          # a C constant: push() compares with it on every card play
#: Actions per shared block of an ActionLog.
ACTION_BLOCK = _BLOCK


cdef class ActionLog:
    """A game's history of action ids: an append-only list whose copies share every full block.

    Actions go into a short ``tail`` list; every ACTION_BLOCK of them become an immutable tuple in
    ``blocks``, a tuple that copies share.  A copy therefore costs the tail and one reference
    however long the match has run (a Squint match reaches thousands of actions), and what it
    appends afterwards is its own.  Indexing, assignment (a sampled world rewrites the hidden
    choices of its own history), ``len``, iteration and ``==`` with a list behave as a list's."""

    def __cinit__(self):
        self.blocks = ()
        self.tail = []
        self.n_blocked = 0

    def __init__(self, actions=()):
        if actions:                     # a new game's log is empty: nothing to go through
            self.extend(actions)

    cdef inline int push(self, object action) except -1:
        self.tail.append(action)
        if len(self.tail) == _BLOCK:
            self.blocks = self.blocks + (tuple(self.tail),)
            self.n_blocked += _BLOCK
            self.tail = []
        return 0

    cdef ActionLog copy_c(self):
        cdef ActionLog other = ActionLog.__new__(ActionLog)
        other.blocks = self.blocks
        other.tail = list(self.tail)
        other.n_blocked = self.n_blocked
        return other

    def append(self, action):
        self.push(action)

    def extend(self, actions):
        for action in actions:
            self.push(action)

    def copy(self):
        return self.copy_c()

    def __len__(self):
        return self.n_blocked + len(self.tail)

    cdef Py_ssize_t _index(self, Py_ssize_t i) except -1:
        cdef Py_ssize_t n = self.n_blocked + len(self.tail)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("action index out of range")
        return i

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list(self)[index]
        cdef Py_ssize_t i = self._index(index)
        if i >= self.n_blocked:
            return self.tail[i - self.n_blocked]
        return self.blocks[i // _BLOCK][i % _BLOCK]

    def __setitem__(self, index, action):
        cdef Py_ssize_t i = self._index(index), b
        if i >= self.n_blocked:
            self.tail[i - self.n_blocked] = action
            return
        b = i // _BLOCK           # a new tuple for that block: other copies keep theirs
        block = list(self.blocks[b])
        block[i % _BLOCK] = action
        self.blocks = self.blocks[:b] + (tuple(block),) + self.blocks[b + 1:]

    def __iter__(self):
        for block in self.blocks:
            yield from block
        yield from list(self.tail)

    def __eq__(self, other):
        if isinstance(other, (ActionLog, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self):
        return f"ActionLog({list(self)!r})"

    def __reduce__(self):
        return (ActionLog, (list(self),))


cdef class StateCore:
    """Base of every game state: the card-play fast path, the cached legal actions,
    copies and pickling.

    While ``_tp`` holds a trick phase and ``_fast`` is true, legal_actions,
    apply_action and current_player are answered here in C, with no Python-level
    call per card.  Every other decision goes to the Python methods of
    trickcore.game.GameState (``_is_terminal``, ``_legal``, ``_apply``, ``_apply_slow``,
    ``_current_player``).  When the trick phase ends the game's ``_on_play_over``
    hook runs.

    Copies are copy-on-write: ``clone()`` copies the trick phase and the action list
    and shares the game's other attributes (the instance ``__dict__`` of the game's
    plain-Python state class) until either copy changes them from Python
    (``_shared``); the first such change gives that copy its own attributes
    (``_unshare``).  Card plays change only the trick phase, so a search that clones
    and plays cards never copies the rest.

    Pickling is the ordinary protocol (``__reduce__``): the class, this base's fields
    and the instance dict; the trick phase pickles as its start and its moves, replayed
    through the core's checks on loading."""

    # Attributes (_tp, _actions, _fast, _shared, _legal_cache, the legal actions of the
    # current decision or None, _edits and _ev_sync): trickcore/_core.pxd.

    def __cinit__(self):
        self._slow_seat = -1

    cdef inline bint _in_trick_phase(self) noexcept:
        """Whether the binding answers the card decision at hand: a trick phase runs, and the
        game left it the card play (``_fast``) or at least this seat's (every seat's but
        ``_slow_seat``: Klaberjass's Belle holder, whose decisions the game answers)."""
        if self._tp is None or tc_play_over(&self._tp.s):
            return False
        return self._fast or (self._slow_seat >= 0
                              and tc_play_to_move(&self._tp.s, &self._tp.rules) != self._slow_seat)

    cdef inline bint _all_cards_in_c(self) noexcept:
        """Whether every card of the rest of the trick phase is the binding's (playouts and
        finish_trick_phase play them all in C)."""
        return self._fast and self._tp is not None and not tc_play_over(&self._tp.s)

    cpdef _is_terminal(self):
        raise NotImplementedError

    cpdef _legal(self):
        raise NotImplementedError

    cpdef _apply(self, action):
        raise NotImplementedError

    cpdef _current_player(self):
        raise NotImplementedError

    cpdef _on_play_over(self):
        raise NotImplementedError

    # Plain def methods, not cpdef: every caller is Python, and a cpdef method on a
    # class with Python subclasses pays an override lookup on each call.
    def legal_actions(self):
        """Ascending legal action ids, a tuple (() once the game is over).  The same
        object is returned until an action is applied."""
        return self._legal_tuple()

    cdef tuple _legal_tuple(self):
        cdef tuple legal = self._legal_cache
        if legal is None:
            if self._in_trick_phase():
                legal = self._tp.moves_tuple(&self._listed_lo, &self._listed_hi)
            else:
                self._listed_lo = self._listed_hi = 0
                legal = () if self._is_terminal() else tuple(self._legal())
            self._legal_cache = legal
        return legal

    def current_player(self):
        """Seat to act, or -1 once the game is over."""
        if self._in_trick_phase():
            return tc_play_to_move(&self._tp.s, &self._tp.rules)
        return self._current_player()

    def is_terminal(self):
        if self._in_trick_phase():
            return False
        return self._is_terminal()

    def apply_action(self, action, seat=None):
        """Apply an action (id or text); ``seat``, if given, must be the seat to move.

        Illegal, malformed or out-of-turn actions raise IllegalActionError and
        leave the state unchanged."""
        cdef int rc, overflow = 0
        cdef long move
        cdef uint64_t listed
        # The card-play fast path, kept short (the rest is _apply_other, out of line): a card
        # of the moves legal_actions() listed for this decision is played with no second check
        # (TrickPhase.play_listed), any other card id is checked by the core (tc_play).
        if type(action) is int and seat is None and self._in_trick_phase():
            move = PyLong_AsLongAndOverflow(action, &overflow)   # huge ints: overflow, no error
            if overflow == 0 and 0 <= move < 256:
                listed = 0
                if self._legal_cache is not None and move < 128:
                    listed = (self._listed_lo if move < 64 else self._listed_hi) >> (move & 63)
                rc = self._tp.play_listed(<int>move) if listed & 1 else self._tp.play_c(<int>move)
                if rc >= 0:
                    self._legal_cache = None
                    self._actions.push(action)
                    if rc == 1 and tc_play_over(&self._tp.s):
                        self._end_trick_phase()
                    return None
        return self._apply_other(action, seat)

    cdef _end_trick_phase(self):
        """After the trick phase's last card: the game's own flow goes on."""
        if self._shared:
            self._unshare()
        self._on_play_over()
        self._legal_cache = None

    cdef _apply_other(self, action, seat):
        """apply_action for everything but a card id the core accepts in a trick phase: a legal
        id of another decision, and the rest (text, ``seat``, refused cards, errors) through the
        checked Python path."""
        cdef int overflow = 0
        cdef long move = -1
        if type(action) is int and seat is None and not self._in_trick_phase():
            move = PyLong_AsLongAndOverflow(action, &overflow)   # huge ints: overflow, no error
            if overflow == 0 and _holds_id(self._legal_tuple(), move):
                # A legal id of another decision: no text, no second legality check
                # (what GameState._apply_slow does once it has checked).
                if self._shared:
                    self._unshare()
                self._actions.push(action)
                try:
                    self._apply(action)
                finally:
                    self._legal_cache = None
                return None
        # Everything else, including errors, takes the checked Python path.
        if self._shared:
            self._unshare()
        try:
            return self._apply_slow(action, seat)
        finally:
            self._legal_cache = None

    def playouts(self, n=1000, policy="random", seed=0, per_move=False):
        """Play the current trick phase out ``n`` times in C from this state (which does not
        change) and return the per-seat means at its end: ``{"n", "tricks", "points"}`` (tricks
        and card points won in this trick phase, those already won included).  With
        ``per_move=True``, the seat to move's every legal card is evaluated with ``n`` playouts
        after it: ``{action: {"n", "tricks", "points"}}``.  ``policy`` is "random" (uniform
        legal cards) or "greedy" (take the trick as cheaply as possible, else throw the weakest
        card).  Seeded by ``seed``, so reproducible.  The playouts see every hand as this state
        holds it: a bot samples the hidden cards first (docs/search.md).  Only in a trick phase;
        ValueError elsewhere.  ``n`` is at most 2**31 - 1; a long call runs in batches with the
        GIL released and can be stopped with Ctrl-C (KeyboardInterrupt) between batches."""
        cdef int code = _policy_code(policy)
        if type(n) is not int or not 1 <= n <= 2**31 - 1:
            raise ValueError(f"n must be a positive number of playouts, not {n!r}")
        if not self._all_cards_in_c():
            raise ValueError(f"playouts run in a trick phase the game leaves to the core; this state is at "
                             f"a {self.decision()!r} decision")
        cdef Rng rng = Rng(seed)
        if per_move:
            return {move: {"n": n, "tricks": tricks, "points": points}
                    for move, tricks, points in self._tp.playouts_per_move(n, rng, code)}
        tricks, points = self._tp.playouts(n, rng, code)
        return {"n": n, "tricks": tricks, "points": points}

    def finish_trick_phase(self, policy="random", seed=0):
        """Play the rest of the current trick phase in C with a built-in policy ("random" or
        "greedy", as in ``playouts``), exactly as if each card had been applied with
        ``apply_action``: the history holds the cards, and the game goes on as after the
        last card (the deal is scored, the next decision comes).  The fast path of a rollout
        to the end of a deal.  Seeded by ``seed``; ValueError outside a trick phase."""
        cdef int code = _policy_code(policy)
        if not self._all_cards_in_c():
            raise ValueError(f"finish_trick_phase runs in a trick phase the game leaves to the core; this "
                             f"state is at a {self.decision()!r} decision")
        self._legal_cache = None
        moves = self._tp.play_out(Rng(seed), code)
        self._actions.extend(moves)
        self._end_trick_phase()

    def _begin_edit(self):
        """For code that changes a state's attributes directly (tests, samplers of hidden
        cards): this copy gets its own attributes, and the cached legal actions are dropped
        (and ``_edits`` counts the edit for compiled readers that keep what they read)."""
        if self._shared:
            self._unshare()
        self._legal_cache = None
        self._edits += 1

    def _play_move(self, int move):
        """Play a card move for the seat to move (used by the checked path)."""
        rc = self._tp.play_c(move)
        if rc < 0:
            raise CoreError(rc, tc_strerror(rc).decode())
        if rc == 1 and tc_play_over(&self._tp.s):
            self._on_play_over()

    def clone(self):
        """An independent copy (copy-on-write: see the class docstring)."""
        cdef StateCore new = StateCore.__new__(type(self))   # the type's tp_new: no Python-level call
        cdef TrickPhase tp = self._tp
        new._fast = self._fast
        new._slow_seat = self._slow_seat
        new._legal_cache = self._legal_cache
        new._listed_lo = self._listed_lo
        new._listed_hi = self._listed_hi
        new._edits = self._edits
        new._ev_sync = self._ev_sync
        if tp is not None:
            new._tp = tp.copy_c()
            sync = self._ev_sync
            if sync is not None and sync[0] is tp:   # the event feed's position in this phase
                new._ev_sync = (new._tp,) + sync[1:]
        new._actions = self._actions.copy_c()
        if type(self) is not StateCore:     # a game's class: its attributes are its __dict__
            PyObject_GenericSetDict(new, PyDict_Copy(PyObject_GenericGetDict(self, NULL)), NULL)
        new._shared = True
        self._shared = True
        return new

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        # The trick phase pickles as what it started from and its moves (TrickPhase.__reduce__),
        # so tampered bytes raise on loading; the event feed's mark points at it by identity.
        sync = self._ev_sync
        at_tp = sync is not None and self._tp is not None and sync[0] is self._tp
        core = (self._tp, list(self._actions), self._fast, self._edits,
                sync[1:] if at_tp else sync, at_tp, self._slow_seat)
        return (_state_rebuilt, (type(self), core, dict(getattr(self, "__dict__", {}))))


def _state_rebuilt(type cls, tuple core, dict attributes):
    """A state from ``StateCore.__reduce__``: its class, this base's fields and its attributes."""
    if not issubclass(cls, StateCore) or len(core) != 7:
        raise TypeError("not a pickled game state")
    cdef StateCore state = <StateCore>cls.__new__(cls)
    tp, actions, fast, edits, sync, at_tp, slow_seat = core
    state._slow_seat = slow_seat
    state._tp = tp
    state._actions = ActionLog(actions)
    state._fast = fast
    state._edits = edits
    state._ev_sync = (tp,) + tuple(sync) if at_tp else sync
    state.__dict__.update(attributes)
    return state


def reference_deck():
    """The 52-card deck of the benchmark reference game (ids suit*13 + rank)."""
    cdef Deck d = Deck(4)
    for suit, letter in enumerate("SHDC"):
        for rank, r in enumerate("23456789TJQKA"):
            d.add(r + letter, suit, rank)
    return d


def reference_playouts(int n, uint64_t seed=1):
    """Play n random deals of the reference game in C; returns total tricks per seat."""
    cdef tc_deck d
    cdef tc_rng rng
    cdef uint32_t tricks[4]
    memset(tricks, 0, sizeof(tricks))
    tc_reference_deck(&d)
    tc_rng_seed(&rng, seed)
    with nogil:
        for i in range(n):
            tc_reference_playout(&d, &rng, tricks)
    return [tricks[p] for p in range(4)]
