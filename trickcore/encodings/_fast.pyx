# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# cython: auto_pickle=False
"""Observation tensors written straight from a game state (``Encoding.state_tensor``).

``Encoding.tensor(state.observation(seat))`` builds the view dict and reads it back; this
module writes the same blocks from what the view is made of: the hands, tricks and won cards of
the trick phase (bit masks, read through ``TrickPhase``'s accessors) and the game's own
attributes, without building the dict.  Every encoder here mirrors one game's ``observation``
(trickcore/games/<game>.py) and its encoding's ``_fill`` (trickcore/encodings/<game>.py), which
stay the readable definition: tests/integrations/test_state_tensor.py checks that both give the
same tensor, bit for bit, at thousands of decision points of every game and variant.

What only changes when a trick completes (the cards each seat played to completed tricks, the
last trick, tricks and points won, won and passed cards, each seat's hand when the open trick
began) is kept per trick phase (``_Phase``): read from the trick phase's accessors the first
time a phase is seen, then brought up to date from each newly completed trick as the core
credits it (play.c, finish_trick), so a step costs no Python int per hand.  A trick phase only
ever moves forward, and the cache holds the phase object itself, so an entry can never describe
another phase.  The open trick is the last ``trick_len`` moves of the state's history
(``apply_action`` appends every card played; clones, pickled copies and worlds keep it), and a
newly completed trick the ``n`` moves before them, each checked to be a card move from its
seat's hand at the trick's start; when they are not (a non-card action among them, as
Klaberjass's Belle, or a history edited by hand), the hands are read and the open trick is
their difference, and a completed trick is read from the trick phase.

The game's own blocks that stay as they are while cards are played (bids, contracts, laid-out
cards, the table) are kept per trick phase and seat and copied in while every action since is a
card play: like every cache of the engine (the legal actions, the described tricks), this
relies on a state changing through its actions only.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.buffer cimport (PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE, PyBuffer_Release,
                             PyObject_GetBuffer)
from cpython.dict cimport PyDict_GetItem
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.long cimport PyLong_AsUnsignedLongLongMask
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.stdint cimport int8_t, int16_t, uint64_t
from libc.string cimport memcpy, memset

import numpy

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int enc_ctz64(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static __inline int enc_popcount64(unsigned long long x) { return (int)__popcnt64(x); }
    #else
    static inline int enc_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int enc_popcount64(unsigned long long x) {
    #if defined(__POPCNT__)
        return __builtin_popcountll(x);
    #else   /* without the instruction, __builtin_popcountll is a library call */
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    #endif
    }
    #endif
    """
    int enc_ctz64(unsigned long long x) nogil
    int enc_popcount64(unsigned long long x) nogil

DEF MAX_SEATS = 8
DEF MAX_TRICKS = 64
DEF MAX_IDS = 128
#: Trick phases remembered per encoder (each entry holds its phase object).
DEF CACHE_SIZE = 256
#: Blocks of per-seat card rows (played, won, passed) and regions left out of the first clearing.
DEF MAX_ROWS = 3
DEF MAX_SKIPS = 4

cdef object _zeros = numpy.zeros
cdef object _float32 = numpy.float32
cdef object _TWO64 = 1 << 64


# ---- small helpers ----------------------------------------------------------------------------
cdef inline int rel(int seat, int me, int n) noexcept nogil:
    """``(seat - me) % n`` with Python's sign (0 = the observer); no division for the usual
    arguments (both seats in 0..n-1, or ``seat`` a seat plus an offset below n)."""
    cdef int r = seat - me
    if r < 0:
        r += n
    elif r >= n:
        r -= n
    if 0 <= r < n:
        return r
    r = (seat - me) % n
    return r + n if r < 0 else r


cdef inline int after(int seat, int i, int n) noexcept nogil:
    """``(seat + i) % n`` for a seat and an offset in 0..n-1."""
    cdef int s = seat + i
    return s - n if s >= n else s


cdef inline int load(object x, uint64_t *w, bint wide) except -1:
    """A card mask (a Python int, up to 128 bits) into two words."""
    w[0] = PyLong_AsUnsignedLongLongMask(x)
    w[1] = PyLong_AsUnsignedLongLongMask(x >> 64) if wide and x >= _TWO64 else 0
    return 0


cdef inline int count(const uint64_t *w) noexcept nogil:
    return enc_popcount64(w[0]) + enc_popcount64(w[1])


cdef inline int seat_of(object x) except? -9:
    """A seat attribute (an int, or None for "nobody": -1)."""
    return -1 if x is None else <int>x


cdef class _Phase:
    """What one trick phase has settled: its completed tricks and the totals they moved."""

    cdef object tp
    cdef bint ready, finished
    cdef int done, total, leader, last_leader, last_len, last_winner, last_winner2
    cdef int trick_len              # cards in the open trick, when last brought up to date
    # the length of the state's history and the cards played when last seen as the state's
    # current phase (-1: never): a history grown by just those cards since holds only them
    cdef Py_ssize_t seen_hist
    cdef int seen_played
    cdef int last_moves[MAX_SEATS]
    cdef uint64_t played[MAX_SEATS][2]      # cards each seat played to the completed tricks
    cdef uint64_t start[MAX_SEATS][2]       # each hand as the open trick began
    cdef uint64_t won[MAX_SEATS][2]
    cdef uint64_t passed[MAX_SEATS][2]
    cdef int tricks[MAX_SEATS]
    cdef int points[MAX_SEATS]
    cdef uint64_t trick_cards[MAX_TRICKS][2]       # the cards of each completed trick
    cdef int8_t trick_winner[MAX_TRICKS]
    # per seat: the blocks that stay as they are while the phase is played (``keep_static``),
    # and the length of the history when last found to hold card plays only since
    cdef list statics
    cdef Py_ssize_t static_hist[MAX_SEATS]
    # the card rows of every seat (``_Encoder.write_rows``), rendered for ``rows_done`` tricks
    cdef float *rows
    cdef int rows_done

    def __dealloc__(self):
        PyMem_Free(self.rows)


cdef class _Encoder:
    """The blocks every trick-taking game shares (``CardEncoding``); a subclass per game
    writes the rest in ``fill``."""

    cdef readonly int size, players
    cdef int n, C
    cdef bint wide, want_points, double
    cdef int8_t suit[MAX_IDS]      # double tricks (Hattrick): each card's colour and strength
    cdef int strength[MAX_IDS]
    cdef object state_type
    cdef dict cache
    cdef int16_t cidx[MAX_IDS]
    cdef int o_hand, o_trick, o_leader, o_played, o_last, o_last_winner, o_to_move, o_decision
    cdef int o_sizes, o_won, o_scores
    # scratch of one call: every hand now, and the open trick (seat order from its leader)
    cdef uint64_t now[MAX_SEATS][2]
    cdef int open_len
    cdef int open_cards[MAX_SEATS]
    cdef int open_moves[MAX_SEATS]      # with the declaration bit (card | decl << 7)
    cdef _Phase last            # the phase last_trick() showed (after write_last)
    cdef object checked         # the state last found of this game and player count
    # the buffer of the last ``out``, kept exported (numpy then refuses to resize that array)
    cdef object out_obj
    cdef Py_buffer out_view
    cdef list history           # the state's history, once read in this call
    # the game's blocks that do not change while a trick phase is played: [static_lo, static_hi)
    # of the tensor, and the scores block with them when static_scores
    cdef int static_lo, static_hi
    cdef bint static_scores
    # blocks of per-seat card rows (0 played, 1 won, 2 passed) copied whole from the phase, and
    # the regions the first clearing leaves out (the static region and the rows: cleared or
    # written whole by ``fill``)
    cdef int n_rows
    cdef int row_offset[MAX_ROWS]
    cdef int row_kind[MAX_ROWS]
    cdef int n_skips
    cdef int skip_lo[MAX_SKIPS]
    cdef int skip_hi[MAX_SKIPS]

    def __init__(self, enc, state_type, cards, *, points=False, suits=None, strengths=None):
        cdef int i
        self.n = self.players = enc.players
        self.C = enc.n_cards
        self.size = enc.size
        if not 1 <= self.n <= MAX_SEATS:
            raise ValueError(f"{self.n} players: the fast encoder handles 1..{MAX_SEATS}")
        self.state_type = state_type
        self.cache = {}
        self.want_points = points
        self.double = suits is not None
        for i in range(MAX_IDS):
            self.suit[i] = -1
        for i, col in enumerate(suits or ()):
            self.suit[i] = col
        for i in range(MAX_IDS):
            self.strength[i] = 0
        for i, v in enumerate(strengths or ()):
            self.strength[i] = v
        for i in range(MAX_IDS):
            self.cidx[i] = -1
        if len(cards) > MAX_IDS:
            raise ValueError(f"{len(cards)} card ids: at most {MAX_IDS}")
        for i, index in enumerate(cards):
            if index is not None:
                if not 0 <= index < self.C:
                    raise ValueError(f"card {i}: index {index} is not in 0..{self.C - 1}")
                self.cidx[i] = index
        self.wide = len(cards) > 64
        self.o_hand, self.o_trick, self.o_leader = enc.o_hand, enc.o_trick, enc.o_leader
        self.o_played, self.o_last, self.o_last_winner = enc.o_played, enc.o_last, enc.o_last_winner
        self.o_to_move, self.o_decision = enc.o_to_move, enc.o_decision
        self.o_sizes, self.o_won, self.o_scores = enc.o_sizes, enc.o_won, enc.o_scores

    def __dealloc__(self):
        if self.out_obj is not None:
            PyBuffer_Release(&self.out_view)

    cdef float *buffer(self, object out) except NULL:
        """The float32 buffer of ``out``, checked once and kept until another one is given."""
        cdef const char *fmt
        if out is self.out_obj:
            return <float *>self.out_view.buf
        if self.out_obj is not None:
            self.out_obj = None
            PyBuffer_Release(&self.out_view)
        PyObject_GetBuffer(out, &self.out_view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
        fmt = self.out_view.format
        if fmt[0] in b"@=<":
            fmt += 1
        if self.out_view.itemsize != 4 or fmt[0] != b"f" or fmt[1] != 0 or self.out_view.len != self.size * 4:
            PyBuffer_Release(&self.out_view)
            raise ValueError(f"out must be a float32 array of {self.size} values")
        self.out_obj = out
        return <float *>self.out_view.buf

    def encode(self, state, seat, out=None):
        """The tensor of ``seat``'s view of ``state``, equal to ``enc.tensor(state.observation(seat))``;
        into ``out`` (a C-contiguous float32 array of the tensor's size) when given."""
        cdef float *b
        if type(seat) is not int or not 0 <= seat < self.n:
            raise ValueError(f"seat {seat!r} is not in 0..{self.n - 1}")
        if state is not self.checked:
            if type(state) is not self.state_type and not isinstance(state, self.state_type):
                raise TypeError(f"a {self.state_type.__name__} is needed, not {type(state).__name__}")
            if state.num_players != self.n:
                raise ValueError(f"a state of {state.num_players} players; this encoding is for {self.n}")
            self.checked = state
        self.history = None
        if out is None:
            out = _zeros(self.size, _float32)
        b = self.buffer(out)
        try:
            self.clear(b)
            self.fill(b, state, <int>seat)
        finally:
            self.history = None
        return out

    cdef int fill(self, float *b, object state, int me) except -1:
        raise NotImplementedError

    cdef void skip(self, int lo, int hi) noexcept:
        """Leave [lo, hi) out of the first clearing (fill clears or writes it whole)."""
        cdef int i = self.n_skips, j
        if hi <= lo or i == MAX_SKIPS:
            return
        while i > 0 and self.skip_lo[i - 1] > lo:
            self.skip_lo[i], self.skip_hi[i] = self.skip_lo[i - 1], self.skip_hi[i - 1]
            i -= 1
        self.skip_lo[i], self.skip_hi[i] = lo, hi
        self.n_skips += 1

    cdef void clear(self, float *b) noexcept:
        cdef int i, at = 0
        for i in range(self.n_skips):
            memset(b + at, 0, (self.skip_lo[i] - at) * sizeof(float))
            at = self.skip_hi[i]
        memset(b + at, 0, (self.size - at) * sizeof(float))

    cdef void add_static(self, int lo, int hi, bint scores) noexcept:
        self.static_lo, self.static_hi, self.static_scores = lo, hi, scores
        self.skip(lo, hi)

    cdef void add_rows(self, int offset, int kind) noexcept:
        """A block of per-seat card rows [n, C] (kind 0 played, 1 won, 2 passed)."""
        self.row_offset[self.n_rows], self.row_kind[self.n_rows] = offset, kind
        self.n_rows += 1
        self.skip(offset, offset + self.n * self.C)

    cdef int write_rows(self, float *b, _Phase ph, int me) except -1:
        """Every block of card rows: copied from the phase's rendering (redone once per trick),
        rotated to the observer; cleared when ``ph`` is None (the view shows none)."""
        cdef int k, s, n = self.n, C = self.C
        cdef float *rows
        cdef uint64_t *mask
        if ph is None:
            for k in range(self.n_rows):
                memset(b + self.row_offset[k], 0, n * C * sizeof(float))
            return 0
        if ph.rows == NULL:
            ph.rows = <float *>PyMem_Malloc(self.n_rows * n * C * sizeof(float))
            if ph.rows == NULL:
                raise MemoryError()
            ph.rows_done = -1
        if ph.rows_done != ph.done:
            memset(ph.rows, 0, self.n_rows * n * C * sizeof(float))
            for k in range(self.n_rows):
                rows = ph.rows + k * n * C
                for s in range(n):
                    if self.row_kind[k] == 0:
                        mask = ph.played[s]
                    elif self.row_kind[k] == 1:
                        mask = ph.won[s]
                    else:
                        mask = ph.passed[s]
                    self.cards(rows, s * C, mask)
            ph.rows_done = ph.done
        for k in range(self.n_rows):                    # seats me.. to rows 0.., then seats 0..me-1
            rows = ph.rows + k * n * C
            memcpy(b + self.row_offset[k], rows + me * C, (n - me) * C * sizeof(float))
            memcpy(b + self.row_offset[k] + (n - me) * C, rows, me * C * sizeof(float))
        return 0

    # ---- trick phases ------------------------------------------------------------------------
    cdef _Phase phase(self, object tp, object state=None):
        """The settled part of trick phase ``tp``, brought up to date (``state``: the state whose
        current trick phase ``tp`` is, whose history then holds its moves)."""
        cdef PyObject *found = PyDict_GetItem(self.cache, tp)
        cdef _Phase ph
        cdef int done, played
        if found != NULL:
            ph = <_Phase>found
            if ph.finished:
                return ph
            played = tp.cards_played                   # n per completed trick, and the open ones
            done = played // self.n
            ph.trick_len = played - done * self.n
            if done == ph.done:
                return ph
        else:
            if len(self.cache) >= CACHE_SIZE:
                self.cache.clear()
            ph = _Phase.__new__(_Phase)
            ph.tp = tp
            ph.total = tp.total_tricks
            ph.seen_hist = -1
            self.cache[tp] = ph
            played = tp.cards_played
            done = played // self.n
            ph.trick_len = played - done * self.n
        if done > MAX_TRICKS or ph.total > MAX_TRICKS:
            raise ValueError(f"a trick phase of {ph.total} tricks")
        if not (state is not None and ph.ready and done == ph.done + 1
                and (done < ph.total or self.only_plays_since(ph, state, played))
                and self.settle_one(ph, state, tp)):
            self.settle(ph, tp, done)
        if state is not None:
            ph.seen_hist = PyList_GET_SIZE(self.actions(state))
            ph.seen_played = played
        return ph

    cdef bint only_plays_since(self, _Phase ph, object state, int played) except -1:
        """Whether the history grew by exactly the cards played since the phase was last seen
        (so that its last moves are those of the phase's last trick, though the phase is over)."""
        return ph.seen_hist >= 0 and PyList_GET_SIZE(self.actions(state)) - ph.seen_hist == played - ph.seen_played

    cdef bint settle_one(self, _Phase ph, object state, object tp) except -1:
        """One more completed trick, from the last moves of the history (checked against the
        hands as it began) and the totals the core credited for it; False (nothing changed)
        when they do not fit, for ``settle`` to read the trick from the trick phase."""
        cdef int n = self.n, i, s, k = ph.done, card, m, col, w = -1, w2 = -1, gained = 0, leader
        cdef int moves[MAX_SEATS]
        cdef int pile[MAX_SEATS]
        cdef int best[2]
        cdef int8_t opened[2]
        cdef uint64_t cards[2]
        cdef uint64_t bit
        cdef Py_ssize_t end, first
        cdef PyObject *item
        cdef list history = self.actions(state)
        end = PyList_GET_SIZE(history)
        first = end - ph.trick_len - n
        if first < 0:
            return False
        cards[0] = cards[1] = 0
        for i in range(n):
            item = PyList_GET_ITEM(history, first + i)
            if type(<object>item) is not int:
                return False
            m = <object>item
            if not 0 <= m < 256:
                return False
            card = m & 127
            s = after(ph.leader, i, n)
            bit = (<uint64_t>1) << (card & 63)
            if not ph.start[s][card >> 6] & bit:
                return False
            moves[i] = m
            cards[card >> 6] |= bit
        tricks = tp.tricks_won()
        if len(tricks) != n:
            return False
        for s in range(n):                              # who the core credited with the trick
            i = <int>tricks[s] - ph.tricks[s]
            if i < 0 or i > 2:
                return False
            gained += i
            if i:
                if w < 0:
                    w = s
                    if i == 2:
                        w2 = s
                elif w2 < 0 and i == 1:
                    w2 = s
                else:
                    return False
        if self.double:
            # each card to its pile (the open colours), the highest of a pile wins it (H4)
            opened[0] = opened[1] = -1
            best[0] = best[1] = -1
            for i in range(n):
                card = moves[i] & 127
                col = self.suit[card]
                if opened[0] < 0 or col == opened[0]:
                    opened[0] = col
                    pile[i] = 0
                elif opened[1] < 0 or col == opened[1]:
                    opened[1] = col
                    pile[i] = 1
                else:
                    pile[i] = 2
                    continue
                if best[pile[i]] < 0 or self.strength[card] > self.strength[moves[best[pile[i]]] & 127]:
                    best[pile[i]] = i
            w = (ph.leader + best[0]) % n if best[0] >= 0 else -1
            w2 = (ph.leader + best[1]) % n if best[1] >= 0 else -1
            if gained != (w >= 0) + (w2 >= 0):
                return False
            for s in range(n):
                if <int>tricks[s] - ph.tricks[s] != (s == w) + (s == w2):
                    return False
            leader = <int>tp.last_winner
        else:
            if gained != 1:
                return False
            leader = w
            w2 = -1
        if self.want_points:
            for s, v in enumerate(tp.points_won()):
                ph.points[s] = v
        for s in range(n):
            ph.tricks[s] = tricks[s]
        ph.trick_cards[k][0], ph.trick_cards[k][1] = cards[0], cards[1]
        for i in range(n):
            card = moves[i] & 127
            bit = (<uint64_t>1) << (card & 63)
            s = after(ph.leader, i, n)
            ph.played[s][card >> 6] |= bit
            ph.start[s][card >> 6] &= ~bit
            ph.last_moves[i] = moves[i]
            if not self.double:
                ph.won[w][card >> 6] |= bit
            elif pile[i] == 2:
                ph.passed[s][card >> 6] |= bit
            else:
                ph.won[w if pile[i] == 0 else w2][card >> 6] |= bit
        ph.last_len = n
        ph.last_leader = ph.leader
        ph.last_winner = w
        ph.last_winner2 = w2
        ph.trick_winner[k] = <int8_t>w
        ph.leader = leader
        ph.done = k + 1
        ph.finished = ph.done >= ph.total
        return True

    cdef int settle(self, _Phase ph, object tp, int done) except -1:
        cdef int n = self.n, i, s, k, m, card, leader, winner, winner2, col, pile
        cdef int8_t opened[2]
        cdef uint64_t bit
        cdef object moves
        k = ph.done
        for t in tp.tricks_from(ph.done)[:done - ph.done]:
            leader = t[0]
            moves = t[1]
            winner = t[2]
            winner2 = t[3]
            ph.trick_cards[k][0] = ph.trick_cards[k][1] = 0
            ph.last_len = len(moves)
            if ph.last_len > n:
                raise ValueError(f"a trick of {ph.last_len} cards for {n} players")
            opened[0] = opened[1] = -1
            for i in range(ph.last_len):
                m = moves[i]
                card = m & 127
                bit = (<uint64_t>1) << (card & 63)
                s = after(leader, i, n)
                ph.played[s][card >> 6] |= bit
                ph.trick_cards[k][card >> 6] |= bit
                ph.start[s][card >> 6] &= ~bit
                ph.last_moves[i] = m
                if ph.ready and self.double:            # each card to its pile (play.c, finish_trick)
                    col = self.suit[card]
                    if opened[0] < 0 or col == opened[0]:
                        opened[0] = col
                        pile = winner
                    elif opened[1] < 0 or col == opened[1]:
                        opened[1] = col
                        pile = winner2
                    else:
                        ph.passed[s][card >> 6] |= bit
                        continue
                    if pile >= 0:
                        ph.won[pile][card >> 6] |= bit
            if ph.ready:
                if self.double:
                    if winner >= 0:
                        ph.tricks[winner] += 1
                    if winner2 >= 0:
                        ph.tricks[winner2] += 1
                else:
                    if winner < 0:
                        winner = leader
                    ph.tricks[winner] += 1
                    ph.points[winner] += <int>t[5]
                    ph.won[winner][0] |= ph.trick_cards[k][0]
                    ph.won[winner][1] |= ph.trick_cards[k][1]
            ph.last_leader = leader
            ph.last_winner = t[2]
            ph.last_winner2 = winner2
            ph.leader = t[4]                            # who leads the next trick
            ph.trick_winner[k] = <int8_t>t[2]
            k += 1
        ph.done = done
        ph.finished = done >= ph.total
        if not ph.ready:                                # a phase seen for the first time
            self.first_look(ph, tp)
        return 0

    cdef int first_look(self, _Phase ph, object tp) except -1:
        """Hands, totals, won and passed cards as the trick phase tells them."""
        cdef int n = self.n, i, s, card
        leader, moves = tp.current_trick()[:2]
        ph.leader = leader
        hand = tp.hand
        for s in range(n):
            load(hand(s), ph.start[s], self.wide)
        for i in range(len(moves)):
            card = moves[i] & 127
            s = after(ph.leader, i, n)
            ph.start[s][card >> 6] |= (<uint64_t>1) << (card & 63)
        for s, v in enumerate(tp.tricks_won()):
            ph.tricks[s] = v
        if self.want_points:
            for s, v in enumerate(tp.points_won()):
                ph.points[s] = v
        won = tp.won
        for s in range(n):
            load(won(s), ph.won[s], self.wide)
        if self.double:
            passed = tp.passed
            for s in range(n):
                load(passed(s), ph.passed[s], self.wide)
        ph.ready = True
        return 0

    cdef int read_open(self, object state, object tp, _Phase ph) except -1:
        """Every hand now (``self.now``) and the open trick (``open_len``, ``open_cards``,
        ``open_moves``)."""
        cdef int n = self.n, i, s, k, card, m
        cdef Py_ssize_t end
        cdef PyObject *item
        cdef list history
        cdef uint64_t bit
        for s in range(n):
            self.now[s][0] = ph.start[s][0]
            self.now[s][1] = ph.start[s][1]
        self.open_len = 0
        if ph.finished:
            return 0
        k = ph.trick_len
        if k == 0:
            return 0
        history = self.actions(state)
        end = PyList_GET_SIZE(history)
        if 0 < k <= n and k <= end:
            for i in range(k):
                item = PyList_GET_ITEM(history, end - k + i)
                if type(<object>item) is not int:
                    break
                m = <object>item
                if not 0 <= m < 256:
                    break
                card = m & 127
                s = after(ph.leader, i, n)
                bit = (<uint64_t>1) << (card & 63)
                if not self.now[s][card >> 6] & bit:
                    break
                self.now[s][card >> 6] &= ~bit
                self.open_cards[i] = card
                self.open_moves[i] = m
            else:
                self.open_len = k
                return 0
        return self.read_hands(state, tp, ph)

    cdef int read_hands(self, object state, object tp, _Phase ph) except -1:
        """The open trick from the hands now: what left each hand since the trick began."""
        cdef int n = self.n, i, s
        cdef uint64_t d0, d1
        hand = tp.hand
        for s in range(n):
            load(hand(s), self.now[s], self.wide)
        self.open_len = 0
        for i in range(n):
            s = after(ph.leader, i, n)
            d0 = ph.start[s][0] & ~self.now[s][0]
            d1 = ph.start[s][1] & ~self.now[s][1]
            if d0 == 0 and d1 == 0:
                break
            if enc_popcount64(d0) + enc_popcount64(d1) != 1:
                raise RuntimeError("the hands of a trick phase changed by more than one card per seat "
                                   "since its last completed trick")
            self.open_cards[i] = enc_ctz64(d0) if d0 else 64 + enc_ctz64(d1)
            self.open_moves[i] = -1                     # the declaration is not in a hand
            self.open_len = i + 1
        return 0

    cdef inline list actions(self, object state):
        """The state's history (read once per call)."""
        if self.history is None:
            self.history = state._actions
        return self.history

    cdef inline int to_move(self, _Phase ph) noexcept:
        """The seat to play in the trick phase (-1 once it is over), after ``read_open``."""
        return -1 if ph.finished else after(ph.leader, self.open_len, self.n)

    # ---- the blocks a trick phase does not change --------------------------------------------
    # While cards are played, only the trick phase changes: the game's own attributes change
    # through its other actions (and at the end of the phase).  So the game's blocks of one
    # seat's tensor are kept per trick phase and copied in, as long as every action since they
    # were written is a card play (ids below 256; a state changes only through its actions).
    cdef bint from_static(self, float *b, _Phase ph, object state, int me) except -1:
        """The kept blocks into ``b`` (True), or False, with their region cleared: write them,
        then ``keep_static``."""
        if not self.copy_static(b, ph, state, me):
            memset(b + self.static_lo, 0, (self.static_hi - self.static_lo) * sizeof(float))
            return False
        return True

    cdef bint copy_static(self, float *b, _Phase ph, object state, int me) except -1:
        cdef Py_ssize_t j, end
        cdef PyObject *item
        cdef list history
        cdef long m
        if ph is None or ph.finished or ph.statics is None:
            return False
        blob = ph.statics[me]
        if blob is None:
            return False
        history = self.actions(state)
        end = PyList_GET_SIZE(history)
        if end < ph.static_hist[me]:
            ph.statics[me] = None
            return False
        for j in range(ph.static_hist[me], end):
            item = PyList_GET_ITEM(history, j)
            if type(<object>item) is not int:
                ph.statics[me] = None
                return False
            m = <object>item
            if not 0 <= m < 256:
                ph.statics[me] = None
                return False
        ph.static_hist[me] = end
        j = self.static_hi - self.static_lo
        memcpy(b + self.static_lo, PyBytes_AS_STRING(blob), j * sizeof(float))
        if self.static_scores:
            memcpy(b + self.o_scores, PyBytes_AS_STRING(blob) + j * sizeof(float), self.n * sizeof(float))
        return True

    cdef int keep_static(self, float *b, _Phase ph, object state, int me) except -1:
        """Keep the game's blocks just written, for the rest of the trick phase."""
        cdef Py_ssize_t j = self.static_hi - self.static_lo
        if ph is None or ph.finished or j <= 0:
            return 0
        blob = PyBytes_FromStringAndSize(NULL, (j + (self.n if self.static_scores else 0)) * sizeof(float))
        memcpy(PyBytes_AS_STRING(blob), b + self.static_lo, j * sizeof(float))
        if self.static_scores:
            memcpy(PyBytes_AS_STRING(blob) + j * sizeof(float), b + self.o_scores, self.n * sizeof(float))
        if ph.statics is None:
            ph.statics = [None] * self.n
        ph.statics[me] = blob
        ph.static_hist[me] = PyList_GET_SIZE(self.actions(state))
        return 0

    # ---- writing blocks ------------------------------------------------------------------------
    cdef int cards(self, float *b, int offset, const uint64_t *w) except -1:
        """1 at ``offset`` + the index of every card of the mask ``w``."""
        cdef uint64_t x
        cdef int word, c, i
        for word in range(2):
            x = w[word]
            while x:
                c = word * 64 + enc_ctz64(x)
                x &= x - 1
                i = self.cidx[c]
                if i < 0:
                    raise ValueError(f"card id {c} is not a card of this encoding")
                b[offset + i] = 1.0
        return 0

    cdef int card(self, float *b, int offset, int c) except -1:
        cdef int i = self.cidx[c & 127] if 0 <= c < 256 else -1
        if i < 0:
            raise ValueError(f"card id {c} is not a card of this encoding")
        b[offset + i] = 1.0
        return 0

    cdef int card_list(self, float *b, int offset, object cards) except -1:
        """A list or tuple of card ids (None: nothing)."""
        if cards is not None:
            for c in cards:
                self.card(b, offset, c)
        return 0

    cdef inline void one(self, float *b, int offset, int seat, int me) noexcept:
        """A one-hot relative seat (nothing for a negative seat)."""
        if seat >= 0:
            b[offset + rel(seat, me, self.n)] = 1.0

    cdef int numbers(self, float *b, int offset, object values, int me) except -1:
        """Per-seat numbers rotated to the observer; zeros are left out (as ``_numbers``)."""
        cdef int s = 0
        cdef double v
        for x in values:
            v = x
            if v != 0:
                b[offset + rel(s, me, self.n)] = <float>v
            s += 1
        return 0

    cdef int ints(self, float *b, int offset, const int *values, int me) except -1:
        cdef int s
        for s in range(self.n):
            if values[s] != 0:
                b[offset + rel(s, me, self.n)] = <float>values[s]
        return 0

    cdef int write_open(self, float *b, _Phase ph, int me) except -1:
        """The open trick's cards by relative seat and its leader (after ``read_open``)."""
        cdef int i, n = self.n, C = self.C
        for i in range(self.open_len):
            self.card(b, self.o_trick + rel(ph.leader + i, me, n) * C, self.open_cards[i])
        b[self.o_leader + rel(ph.leader, me, n)] = 1.0
        return 0

    cdef int write_hand_sizes(self, float *b, int me) except -1:
        cdef int s, k
        for s in range(self.n):
            k = count(self.now[s])
            if k:
                b[self.o_sizes + rel(s, me, self.n)] = k
        return 0

    cdef int write_last(self, float *b, object state, object tp, int me, _Phase known=None) except -1:
        """``last_trick``: the last completed trick of the current phase ``tp`` (``known``: its
        ``phase``, if brought up to date already), else of the phase that ended last
        (``GameState.last_trick``); sets ``self.last`` (None without one)."""
        cdef _Phase ph = None
        cdef int i, n = self.n
        if tp is not None:
            ph = known if known is not None else self.phase(tp, state)
            if not ph.done or ph.finished:
                ph = None
        if ph is None:
            prev = state._previous_phase
            if prev is not None:
                ph = self.phase(prev)
                if not ph.done:
                    ph = None
        self.last = ph
        if ph is None:
            return 0
        for i in range(ph.last_len):
            self.card(b, self.o_last + rel(ph.last_leader + i, me, n) * self.C, ph.last_moves[i])
        b[self.o_last_winner + rel(ph.last_winner, me, n)] = 1.0
        return 0


# ---- the games ----------------------------------------------------------------------------------
cdef class ReferenceEncoder(_Encoder):
    cdef int o_trump

    def __init__(self, enc, state_type, cards):
        super().__init__(enc, state_type, cards)
        self.o_trump = enc.o_trump
        self.add_rows(enc.o_played, 0)

    cdef int fill(self, float *b, object state, int me) except -1:
        tp = state._tp
        cdef _Phase ph = self.phase(tp, state)
        self.read_open(state, tp, ph)
        self.cards(b, self.o_hand, self.now[me])
        self.write_open(b, ph, me)
        self.write_last(b, state, tp, me, ph)
        self.write_rows(b, ph, me)       # None: cleared
        self.one(b, self.o_to_move, self.to_move(ph), me)
        self.ints(b, self.o_won, ph.tricks, me)
        b[self.o_trump + <int>state.trump] = 1.0
        return 0


cdef class HattrickEncoder(_Encoder):
    cdef int o_kind, o_open, o_winner2, o_game, o_dealer, o_first, o_stacks, o_passed, o_current
    cdef int colour_of[MAX_IDS]
    cdef uint64_t colour_mask[3][2]

    def __init__(self, enc, state_type, cards, colour_of, strengths):
        super().__init__(enc, state_type, cards, suits=colour_of, strengths=strengths)
        for k in range(3):
            self.colour_mask[k][0] = self.colour_mask[k][1] = 0
        for i, c in enumerate(colour_of):
            self.colour_of[i] = c
            if 0 <= c < 3:
                self.colour_mask[c][i >> 6] |= (<uint64_t>1) << (i & 63)
        self.o_kind, self.o_open, self.o_winner2 = enc.o_kind, enc.o_open, enc.o_winner2
        self.o_game, self.o_dealer, self.o_first = enc.o_game, enc.o_dealer, enc.o_first
        self.o_stacks, self.o_passed, self.o_current = enc.o_stacks, enc.o_passed, enc.o_current
        self.add_static(enc.o_game, enc.o_stacks, True)
        self.add_rows(enc.o_played, 0)
        self.add_rows(enc.o_stacks, 1)
        self.add_rows(enc.o_passed, 2)

    cdef int fill(self, float *b, object state, int me) except -1:
        cdef int n = self.n, C = self.C, s, i, col, kind, r, red, green, blue, m
        cdef int opened[2]
        cdef int n_open = 0
        cdef _Phase ph = None
        cdef uint64_t x
        over = state._over
        tp = state._tp
        if not over:
            ph = self.phase(tp, state)
            self.read_open(state, tp, ph)
            self.cards(b, self.o_hand, self.now[me])
            self.write_hand_sizes(b, me)
            # the open double trick: each play with what it did (H3), the open colours
            b[self.o_leader + rel(ph.leader, me, n)] = 1.0
            for i in range(self.open_len):
                s = rel(ph.leader + i, me, n)
                col = self.colour_of[self.open_cards[i]]
                if n_open and (opened[0] == col or (n_open == 2 and opened[1] == col)):
                    kind = 1                            # join
                elif n_open < 2:
                    kind = 0                            # open
                    opened[n_open] = col
                    n_open += 1
                else:
                    kind = 2                            # pass
                self.card(b, self.o_trick + s * C, self.open_cards[i])
                b[self.o_kind + s * 3 + kind] = 1.0
            for i in range(n_open):
                b[self.o_open + i * 3 + opened[i]] = 1.0
            self.ints(b, self.o_won, ph.tricks, me)
            for s in range(n):
                r = rel(s, me, n)
                # H7: the majority colour minus the rest, -2 per pass card
                red = self.colour_count(ph.won[s], 0)
                blue = self.colour_count(ph.won[s], 1)
                green = self.colour_count(ph.won[s], 2)
                m = max(red, max(blue, green))
                m = m - (red + blue + green - m) - 2 * count(ph.passed[s])
                if m:
                    b[self.o_current + r] = m
            self.one(b, self.o_to_move, self.to_move(ph), me)
            b[self.o_decision] = 1.0                    # "play", the only decision
        self.write_last(b, state, tp, me, ph)
        self.write_rows(b, ph, me)       # None: cleared
        if self.last is not None:
            self.one(b, self.o_winner2, self.last.last_winner2, me)
        if self.from_static(b, None if over else ph, state, me):
            return 0
        b[self.o_game] = <int>state.game
        b[self.o_game + 1] = <int>state.games
        self.one(b, self.o_dealer, seat_of(state.dealer), me)
        self.one(b, self.o_first, seat_of(state.leader), me)
        self.numbers(b, self.o_scores, state.totals, me)
        self.keep_static(b, None if over else ph, state, me)
        return 0

    cdef inline int colour_count(self, const uint64_t *w, int colour) noexcept:
        return (enc_popcount64(w[0] & self.colour_mask[colour][0])
                + enc_popcount64(w[1] & self.colour_mask[colour][1]))


cdef class StichelnEncoder(_Encoder):
    cdef int o_round, o_flags, o_dealer, o_first, o_laid, o_laid_n, o_chosen, o_special, o_choice
    cdef int o_won_cards
    cdef int i_layout, i_play, i_colour
    cdef tuple flag_names
    cdef object flags_seen
    cdef int flag_bits

    def __init__(self, enc, state_type, cards, flag_names):
        super().__init__(enc, state_type, cards)
        self.flag_names = tuple(flag_names)
        self.o_round, self.o_flags, self.o_dealer = enc.o_round, enc.o_flags, enc.o_dealer
        self.o_first, self.o_laid, self.o_laid_n = enc.o_first, enc.o_laid, enc.o_laid_n
        self.o_chosen, self.o_special, self.o_choice = enc.o_chosen, enc.o_special, enc.o_choice
        self.o_won_cards = enc.o_won_cards
        self.add_static(enc.o_round, enc.o_won_cards, True)
        self.add_rows(enc.o_played, 0)
        self.add_rows(enc.o_won_cards, 1)
        self.i_layout, self.i_play, self.i_colour = (enc.DECISIONS.index("layout"), enc.DECISIONS.index("play"),
                                                     enc.DECISIONS.index("colour"))

    cdef int fill(self, float *b, object state, int me) except -1:
        cdef int n = self.n, C = self.C, s, i, r, idx
        cdef uint64_t w[2]
        cdef _Phase ph = None
        phase = state._phase
        cdef bint play = phase == "play", colour = phase == "colour", layout = phase == "layout"
        cdef bint in_round = play or colour or layout
        tp = state._tp
        if play or colour:
            ph = self.phase(tp, state)
            self.read_open(state, tp, ph)
            self.write_hand_sizes(b, me)
            self.cards(b, self.o_hand, self.now[me])
            self.write_open(b, ph, me)
            self.ints(b, self.o_won, ph.tricks, me)
        else:
            if layout:
                hands = state._hands
                for s in range(n):
                    if s == me:
                        load(hands[s], w, self.wide)
                        self.cards(b, self.o_hand, w)
                        i = count(w)
                    else:
                        i = hands[s].bit_count()
                    if i:
                        b[self.o_sizes + rel(s, me, n)] = i
            self.one(b, self.o_leader, seat_of(state.leader), me)   # the view's empty trick
        self.write_last(b, state, tp, me, ph)
        self.write_rows(b, ph, me)       # None: cleared
        if play:
            self.one(b, self.o_to_move, self.to_move(ph), me)
            b[self.o_decision + self.i_play] = 1.0
        elif layout or colour:
            self.one(b, self.o_to_move, <int>state._order[<int>state._idx], me)
            b[self.o_decision + (self.i_layout if layout else self.i_colour)] = 1.0
        if self.from_static(b, ph if play else None, state, me):
            return 0
        self.numbers(b, self.o_scores, state.totals, me)
        b[self.o_round] = <int>state.round
        b[self.o_round + 1] = <int>state.rounds
        flags = state.flags
        if flags is not self.flags_seen:
            self.flag_bits = 0
            for i, f in enumerate(self.flag_names):
                if flags[f]:
                    self.flag_bits |= 1 << i
            self.flags_seen = flags
        for i in range(len(self.flag_names)):
            if self.flag_bits >> i & 1:
                b[self.o_flags + i] = 1.0
        self.one(b, self.o_dealer, seat_of(state.dealer), me)
        self.one(b, self.o_first, seat_of(state.leader), me)
        if layout or colour:
            order = state._order
            idx = state._idx
            for i in range(idx):
                b[self.o_chosen + rel(<int>order[i], me, n)] = 1.0
        if in_round:
            laid = state._laid
            special = state._special
            visible = state._revealed
            for s in range(n):
                r = rel(s, me, n)
                cards = laid[s]
                i = len(cards)
                if i:
                    b[self.o_laid_n + r] = i
                if s == me or visible:
                    self.card_list(b, self.o_laid + r * C, cards)
                    colours = special[s]
                    if colours is not None:
                        for c in colours:
                            b[self.o_special + r * 6 + <int>c] = 1.0
            if colour:
                choice = state._choices[me]
                if choice is not None:
                    for c in choice:
                        b[self.o_choice + <int>c] = 1.0
        self.keep_static(b, ph if play else None, state, me)
        return 0


cdef class BeimJupiterEncoder(_Encoder):
    cdef int o_lambs, o_god, o_round, o_t, o_dealer, o_start, o_colour, o_chosen, o_trump, o_bids
    cdef int o_table, o_table_owner, o_table_locked, o_victory, o_zero, o_removed, o_points
    cdef int bid_slots, max_t
    cdef uint64_t lambs[2]
    cdef int value[MAX_IDS]
    cdef dict bid_slot, decision_index

    def __init__(self, enc, state_type, cards, lambs, values, bid_slot, bid_slots, max_t):
        super().__init__(enc, state_type, cards, points=True)
        self.lambs[0] = self.lambs[1] = 0
        for c in lambs:
            self.lambs[c >> 6] |= (<uint64_t>1) << (c & 63)
        for i, v in enumerate(values):
            self.value[i] = v
        self.bid_slot = dict(bid_slot)
        self.bid_slots, self.max_t = bid_slots, max_t
        self.decision_index = {d: i for i, d in enumerate(enc.DECISIONS)}
        self.o_lambs, self.o_god, self.o_round, self.o_t = enc.o_lambs, enc.o_god, enc.o_round, enc.o_t
        self.o_dealer, self.o_start, self.o_colour, self.o_chosen = enc.o_dealer, enc.o_start, enc.o_colour, enc.o_chosen
        self.o_trump, self.o_bids, self.o_table = enc.o_trump, enc.o_bids, enc.o_table
        self.o_table_owner, self.o_table_locked = enc.o_table_owner, enc.o_table_locked
        self.o_victory, self.o_zero, self.o_removed, self.o_points = enc.o_victory, enc.o_zero, enc.o_removed, enc.o_points
        self.add_static(enc.o_round, enc.o_points, True)
        self.add_rows(enc.o_played, 0)

    cdef int fill(self, float *b, object state, int me) except -1:
        cdef int n = self.n, C = self.C, s, i, r, t, k, total
        cdef uint64_t w[2]
        cdef _Phase ph = None
        phase = state.phase
        cdef bint play = phase == "play", over = phase == "over"
        tp = state._tp
        if (play or over) and tp is not None:
            ph = self.phase(tp, state)
            self.read_open(state, tp, ph)
            self.cards(b, self.o_hand, self.now[me])
            k = self.lamb_count(self.now[me])
            if k:
                b[self.o_lambs] = k
            self.write_hand_sizes(b, me)
            if not ph.finished:
                self.write_open(b, ph, me)
                for i in range(self.open_len):
                    if self.open_moves[i] < 0:          # read from the hands: no declarations
                        leader, moves = tp.current_trick()[:2]
                        for i in range(len(moves)):
                            self.open_moves[i] = moves[i]
                        break
                for i in range(self.open_len):
                    if self.open_moves[i] & 128:        # a God card declared 15
                        b[self.o_god + rel(ph.leader + i, me, n)] = 1.0
            self.ints(b, self.o_won, ph.tricks, me)
            self.ints(b, self.o_points, ph.points, me)
        else:
            hands = state.hands
            for s in range(n):
                if s == me:
                    load(hands[s], w, self.wide)
                    self.cards(b, self.o_hand, w)
                    k = self.lamb_count(w)
                    if k:
                        b[self.o_lambs] = k
                    k = count(w)
                else:
                    k = hands[s].bit_count()
                if k:
                    b[self.o_sizes + rel(s, me, n)] = k
        self.write_last(b, state, tp, me, ph)
        self.write_rows(b, ph, me)       # None: cleared
        if play:
            self.one(b, self.o_to_move, self.to_move(ph), me)
        elif not over:                                  # colour and bid: from the start player on
            self.one(b, self.o_to_move, (<int>state.start + <int>state._done) % n, me)
        if not over:
            b[self.o_decision + <int>self.decision_index[phase]] = 1.0
        if self.from_static(b, ph if play else None, state, me):
            return 0
        victory = state.victory
        for s in range(n):
            r = rel(s, me, n)
            total = 0
            for c in victory[s]:
                self.card(b, self.o_victory + r * C, c)
                total += self.value[<int>c]
            if total:
                b[self.o_scores + r] = total
        b[self.o_round + <int>state.round - 1] = 1.0
        t = state.t
        b[self.o_t] = t
        self.one(b, self.o_dealer, seat_of(state.dealer), me)
        self.one(b, self.o_start, seat_of(state.start), me)
        colour = state.colour
        revealed = state.revealed
        for s in range(n):
            c = colour[s]
            if c is not None:
                b[self.o_chosen + rel(s, me, n)] = 1.0
                if s == me or revealed:
                    self.card(b, self.o_colour + rel(s, me, n) * C, c)
        if revealed:
            trump = state.trump
            b[self.o_trump + (4 if trump is None else <int>trump)] = 1.0
        bids = state.bids
        for s in range(n):
            bid = bids[s]
            if bid is not None:
                b[self.o_bids + rel(s, me, n) * self.bid_slots + <int>self.bid_slot[bid]] = 1.0
        for count_card, entries in state.table.items():
            k = count_card
            if not 1 <= k <= t:                         # the view shows the counts 1..t
                continue
            for entry in entries:                       # [card, owner, locked]
                if type(entry) is list and PyList_GET_SIZE(entry) == 3:
                    c = <object>PyList_GET_ITEM(entry, 0)
                    owner = <object>PyList_GET_ITEM(entry, 1)
                    locked = <object>PyList_GET_ITEM(entry, 2)
                else:
                    c, owner, locked = entry
                self.card(b, self.o_table + (k - 1) * C, c)
                r = rel(owner, me, n)
                b[self.o_table_owner + (k - 1) * n + r] += 1.0
                if locked:
                    b[self.o_table_locked + (k - 1) * n + r] += 1.0
        zero = state.zero_used
        for s in range(n):
            if zero[s]:
                b[self.o_zero + rel(s, me, n)] = 1.0
        self.card_list(b, self.o_removed, state.removed)
        self.keep_static(b, ph if play else None, state, me)
        return 0

    cdef inline int lamb_count(self, const uint64_t *w) noexcept:
        return enc_popcount64(w[0] & self.lambs[0]) + enc_popcount64(w[1] & self.lambs[1])


cdef class SquintEncoder(_Encoder):
    cdef int o_deal, o_dealer, o_bid, o_bids_chosen, o_bids, o_kind, o_contractors, o_trump, o_penalty
    cdef int o_aces, o_deuces, o_offer, o_squint, o_mult, o_squint_cards, o_discards, o_passes
    cdef int o_passed, o_received, o_null_discards, o_clean
    cdef int no_suit
    cdef dict kind_index, decision_index
    cdef uint64_t suit_mask[4]

    def __init__(self, enc, state_type, cards, kinds, no_suit):
        super().__init__(enc, state_type, cards)
        self.kind_index = {k: i for i, k in enumerate(kinds)}
        self.decision_index = {d: i for i, d in enumerate(enc.DECISIONS)}
        self.no_suit = no_suit
        for s in range(4):
            self.suit_mask[s] = ((<uint64_t>1 << 13) - 1) << (13 * s)
        self.o_deal, self.o_dealer, self.o_bid, self.o_bids_chosen = enc.o_deal, enc.o_dealer, enc.o_bid, enc.o_bids_chosen
        self.o_bids, self.o_kind, self.o_contractors, self.o_trump = enc.o_bids, enc.o_kind, enc.o_contractors, enc.o_trump
        self.o_penalty, self.o_aces, self.o_deuces, self.o_offer = enc.o_penalty, enc.o_aces, enc.o_deuces, enc.o_offer
        self.o_squint, self.o_mult, self.o_squint_cards = enc.o_squint, enc.o_mult, enc.o_squint_cards
        self.o_discards, self.o_passes, self.o_passed = enc.o_discards, enc.o_passes, enc.o_passed
        self.o_received, self.o_null_discards, self.o_clean = enc.o_received, enc.o_null_discards, enc.o_clean
        self.add_static(enc.o_deal, enc.o_clean, False)
        self.add_rows(enc.o_played, 0)

    cdef int fill(self, float *b, object state, int me) except -1:
        cdef int n = self.n, C = self.C, s, i, k, penalty
        cdef int clean[MAX_SEATS]
        cdef uint64_t w[2]
        cdef _Phase ph = None
        over = state._over
        phase = state.phase
        cdef bint play = phase == "play"
        tp = state._tp
        if state._play_started:
            ph = self.phase(tp, state)
            self.read_open(state, tp, ph)
            self.cards(b, self.o_hand, self.now[me])
            self.write_hand_sizes(b, me)
            if not ph.finished:
                self.write_open(b, ph, me)
            self.ints(b, self.o_won, ph.tricks, me)
        else:
            hands = state.hands
            for s in range(n):
                load(hands[s], w, False)
                if s == me:
                    self.cards(b, self.o_hand, w)
                k = count(w)
                if k:
                    b[self.o_sizes + rel(s, me, n)] = k
        self.write_last(b, state, tp, me, ph)
        self.write_rows(b, ph, me)       # None: cleared
        if over:
            pass
        elif play:
            self.one(b, self.o_to_move, self.to_move(ph), me)
        else:
            self.one(b, self.o_to_move, seat_of(state.to_move), me)
        if not over:
            b[self.o_decision + <int>self.decision_index[phase]] = 1.0
        self.numbers(b, self.o_scores, state.totals, me)
        c = state.contract
        if ph is not None and c is not None and c.kind == "null" and c.penalty is not None:
            penalty = c.penalty                         # clean tricks: none of the penalty suit
            memset(clean, 0, sizeof(clean))
            for i in range(ph.done):
                if not (ph.trick_cards[i][0] & self.suit_mask[penalty]):
                    clean[ph.trick_winner[i]] += 1
            self.ints(b, self.o_clean, clean, me)
        if self.from_static(b, ph if play else None, state, me):
            return 0
        opts = state.options
        b[self.o_deal] = <int>state.deal_no + (0 if over else 1)
        b[self.o_deal + 1] = <int>opts["target_score"]
        b[self.o_deal + 2] = <int>opts["deal_limit"]
        b[self.o_mult] = <int>state.mult
        self.one(b, self.o_dealer, seat_of(state.dealer), me)
        bids = state.bids
        own = bids[me]
        if own is not None:
            self.card(b, self.o_bid, own)
        for s in range(n):
            if bids[s] is not None:
                b[self.o_bids_chosen + rel(s, me, n)] = 1.0
        if c is not None:
            i = 0
            for s in range(n):
                bid = bids[s]
                if bid is not None:                     # every seat's, once revealed
                    self.card(b, self.o_bids + rel(i, me, n) * C, bid)
                    i += 1
            b[self.o_kind + <int>self.kind_index[c.kind]] = 1.0
            for s in c.contractors:
                self.one(b, self.o_contractors, s, me)
            if c.trump != self.no_suit:
                b[self.o_trump + <int>c.trump] = 1.0
            if c.penalty is not None:
                b[self.o_penalty + <int>c.penalty] = 1.0
            for s in c.aces:
                self.one(b, self.o_aces, s, me)
            for s in c.deuces:
                self.one(b, self.o_deuces, s, me)
            if c.kind == "choice":
                b[self.o_offer + <int>c.solo_trump] = 1.0
                b[self.o_offer + 4 + <int>c.null_penalty] = 1.0
        for s, word in state.squint_log:
            b[self.o_squint + rel(s, me, n) * 2 + (word == "HAND")] = 1.0
        offer = state.offer
        if me in offer:
            self.card_list(b, self.o_squint_cards, offer[me])
        discards = state.discards
        if me in discards:
            self.card_list(b, self.o_discards, discards[me])
        passed = received = None
        for giver, to, pair in state.passes:
            self.one(b, self.o_passes, giver, me)
            if giver == me and passed is None:
                passed = pair
            if to == me and received is None:
                received = pair
        self.card_list(b, self.o_passed, passed)
        self.card_list(b, self.o_received, received)
        self.card_list(b, self.o_null_discards, state.null_discards)
        self.keep_static(b, ph if play else None, state, me)
        return 0


cdef class KlaberjassEncoder(_Encoder):
    cdef int o_deal, o_dealer, o_forehand, o_packet, o_turned, o_stack_top, o_calls, o_kleines, o_trump
    cdef int o_declarer, o_exchange, o_meld_calls, o_melds, o_my_melds, o_best, o_meld_points, o_doubling
    cdef int o_mult, o_belle, o_points
    cdef dict round_index, call_index, decision_index
    cdef int n_calls

    def __init__(self, enc, state_type, cards, call_rounds, calls, decisions):
        super().__init__(enc, state_type, cards, points=True)
        self.round_index = {r: i for i, r in enumerate(call_rounds)}
        self.call_index = {c: i for i, c in enumerate(calls)}
        self.n_calls = len(calls)
        self.decision_index = {phase: enc.DECISIONS.index(d) for phase, d in decisions.items()}
        self.o_deal, self.o_dealer, self.o_forehand, self.o_packet = enc.o_deal, enc.o_dealer, enc.o_forehand, enc.o_packet
        self.o_turned, self.o_stack_top, self.o_calls = enc.o_turned, enc.o_stack_top, enc.o_calls
        self.o_kleines, self.o_trump, self.o_declarer = enc.o_kleines, enc.o_trump, enc.o_declarer
        self.o_exchange, self.o_meld_calls, self.o_melds = enc.o_exchange, enc.o_meld_calls, enc.o_melds
        self.o_my_melds, self.o_best, self.o_meld_points = enc.o_my_melds, enc.o_best, enc.o_meld_points
        self.o_doubling, self.o_mult, self.o_belle, self.o_points = enc.o_doubling, enc.o_mult, enc.o_belle, enc.o_points
        self.add_static(enc.o_deal, enc.o_belle, False)
        self.add_rows(enc.o_played, 0)

    cdef int fill(self, float *b, object state, int me) except -1:
        cdef int n = self.n, C = self.C, s, r
        cdef uint64_t w[2]
        cdef _Phase ph = None
        over = state._over
        phase = state.phase
        tp = state._tp
        self.write_last(b, state, tp, me, ph)
        dice = state.dice                               # scores(): each seat's side's die
        for s in range(n):
            r = dice[s % 2 if n == 4 else s]
            if r:
                b[self.o_scores + rel(s, me, n)] = r
        if over:
            self.from_static(b, None, state, me)        # clears the region
            self.write_rows(b, None, me)
            b[self.o_deal] = <int>state.deal_no
            b[self.o_deal + 1] = <int>state.options["target"]
            self.one(b, self.o_dealer, seat_of(state.dealer), me)
            self.one(b, self.o_forehand, seat_of(state.forehand), me)
            return 0
        b[self.o_decision + <int>self.decision_index[phase]] = 1.0
        cdef bint in_play = phase == "play" and state._tp_deal == state.deal_no
        if in_play:
            ph = self.phase(tp, state)
            self.read_open(state, tp, ph)
            self.cards(b, self.o_hand, self.now[me])
            self.write_open(b, ph, me)
            self.ints(b, self.o_won, ph.tricks, me)
            self.ints(b, self.o_points, ph.points, me)
            self.one(b, self.o_to_move, self.to_move(ph), me)
        self.write_rows(b, ph, me)                      # None: cleared
        if not in_play:
            load(state._hands[me], w, False)
            self.cards(b, self.o_hand, w)
            seat = state.current_player() if phase == "play" else state._queue[<int>state._qi]
            self.one(b, self.o_to_move, <int>seat, me)
        belle = state.belle
        if belle is not None:
            self.card(b, self.o_belle + rel(belle[0], me, n) * C, belle[1])
        if self.from_static(b, ph, state, me):
            return 0
        b[self.o_deal] = <int>state.deal_no
        b[self.o_deal + 1] = <int>state.options["target"]
        self.one(b, self.o_dealer, seat_of(state.dealer), me)
        self.one(b, self.o_forehand, seat_of(state.forehand), me)
        if not state.picked_up:
            b[self.o_packet] = 3
        self.card(b, self.o_turned, state.turned)
        if n != 4:
            self.card(b, self.o_stack_top, state._stack[0])
        for rnd, s, call in state.calls:
            b[self.o_calls + (<int>self.round_index[rnd] * n + rel(s, me, n)) * self.n_calls
              + <int>self.call_index[call]] = 1.0
        self.one(b, self.o_kleines, seat_of(state.kleines), me)
        trump = state.trump
        if trump is not None:
            b[self.o_trump + <int>trump] = 1.0
        self.one(b, self.o_declarer, seat_of(state.declarer), me)
        ex = state.exchange
        if ex is not None:
            self.one(b, self.o_exchange, ex[0], me)
            if ex[1]:
                b[self.o_exchange + n] = 1.0
        declared = state.declared
        for s, did in state.meld_calls:
            r = rel(s, me, n)
            b[self.o_meld_calls + r * 2] = 1.0
            if did:
                b[self.o_meld_calls + r * 2 + 1] = 1.0
            for meld in declared.get(s, ()):
                self.card_list(b, self.o_melds + r * C, meld.cards)
        if phase == "meld" and me == state._queue[state._qi]:
            for meld in state._melds[me]:
                self.card_list(b, self.o_my_melds, meld.cards)
        best = state.best
        if best is not None:
            self.one(b, self.o_best, best[0], me)
            b[self.o_best + n] = <int>best[1].value
        self.numbers(b, self.o_meld_points, state.meld_pts, me)
        for s, call in state.doubling:
            if call != "pass":
                b[self.o_doubling + rel(s, me, n) * 2 + (call == "re")] = 1.0
        b[self.o_mult] = <int>state.mult
        self.keep_static(b, ph, state, me)
        return 0
