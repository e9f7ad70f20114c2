# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# cython: auto_pickle=False
"""The observation tensors of every game (``Encoding.state_tensor``), written straight from a
game state: the only tensor encoder of the package, one class per game.

A tensor is defined by what ``state.observation(seat)`` holds (docs/games/<game>.md, section
"Tensor encoding"), yet no view is built here: every encoder writes the blocks of one game's
view from what that view is made of.  The tests keep the view-based definition as their oracle
(tests/integrations/view_tensors.py builds each tensor from the view dict) and check, in
tests/integrations/test_state_tensor.py, that both give the same tensor, bit for bit, at thousands
of decision points of every game and variant.

The trick phase's part of a view (the hands, the open trick, the completed tricks of the deal,
the last trick, tricks and card points won, won and passed cards) is read at every call from the
C structs the view itself is made from: the state's ``TrickPhase`` (``StateCore._tp``, declared
in trickcore/_core.pxd) holds the core's play state (``tc_play_state``: every hand, the won and
passed cards, tricks and points won, the open trick) and the log of its completed tricks
(``tc_trick``); card sets are two 64-bit words, and the blocks are written with plain C loops.
The game's own blocks (bids, contracts, laid-out cards, scores) come from the state's public
attributes, plain Python attributes of the game's state class, each listed in the game's page
(docs/games/<game>.md, "State fields the encoder reads"; the reference game's in its module's
docstring), and are kept while cards are played (``_Encoder``).  Of StateCore's own fields
(``_tp``, ``_fast``, ``_actions``, ``_edits``, the binding's) the cimported type gives C access.
"""

from cpython.buffer cimport (PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE, PyBuffer_Release,
                             PyObject_GetBuffer)
from cpython.dict cimport PyDict_GetItem
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.long cimport PyLong_AsLongAndOverflow, PyLong_AsUnsignedLongLongMask
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from cpython.object cimport PyObject
from libc.stdint cimport int16_t, uint32_t, uint64_t
from libc.string cimport memset

from trickcore._ccore cimport (tc_and, tc_cards, tc_count, tc_play_over, tc_play_state, tc_trick, tc_trick_to_move,
                               tc_trick_winner)
from trickcore._core cimport StateCore, TrickPhase

import numpy

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int enc_ctz64(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #else
    static inline int enc_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    """
    int enc_ctz64(unsigned long long x) nogil

cdef enum:
    MAX_SEATS = 8
    MAX_IDS = 128
    KEPT_PHASES = 256      # trick phases whose game blocks an encoder keeps (each holds its phase)

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


cdef inline int count(tc_cards c) noexcept nogil:
    return tc_count(c)


cdef inline int winner(const tc_trick *t, int pile, int n) noexcept nogil:
    """The seat that won pile ``pile`` of a trick (0; Hattrick's second trick 1), -1 if none:
    the core's ``tc_trick_winner``, which a view's tricks show."""
    return tc_trick_winner(t, n, pile)


cdef inline tc_play_state *play_state(TrickPhase tp) except NULL:
    """The core's play state of the trick phase a view reads (the state's ``_tp``)."""
    if tp is None:
        raise RuntimeError("the view reads a trick phase, and the state has none")
    return &tp.s


cdef inline int to_move(const tc_play_state *s, int n) noexcept nogil:
    """The seat to play in a trick phase, -1 once it is over (``tc_play_to_move``)."""
    return -1 if tc_play_over(s) else tc_trick_to_move(&s.trick, n)


cdef inline tc_cards load(object x, bint wide) except *:
    """A card mask held by the game (a Python int, up to 128 bits) as two words."""
    cdef tc_cards c
    c.w[0] = PyLong_AsUnsignedLongLongMask(x)
    c.w[1] = PyLong_AsUnsignedLongLongMask(x >> 64) if wide and x >= _TWO64 else 0
    return c


cdef int bad_card(int c) except -1:
    raise ValueError(f"card id {c} is not a card of this encoding")


cdef inline int seat_of(object x) except? -9:
    """A seat attribute (an int, or None for "nobody": -1)."""
    return -1 if x is None else <int>x


cdef class _Kept:
    """The game's blocks of each seat's last tensor in one trick phase, as the positions and
    values of their nonzero entries, and for each seat the state's actions minus the phase's
    cards played when they were written (-1: none yet)."""

    cdef TrickPhase tp
    cdef int *at[MAX_SEATS]
    cdef uint32_t *value[MAX_SEATS]     # the float32 entries' bits
    cdef int count[MAX_SEATS]
    cdef Py_ssize_t mark[MAX_SEATS]

    def __cinit__(self):
        cdef int i
        for i in range(MAX_SEATS):
            self.mark[i] = -1

    def __dealloc__(self):
        cdef int i
        for i in range(MAX_SEATS):
            PyMem_Free(self.at[i])
            PyMem_Free(self.value[i])


cdef class _Encoder:
    """The blocks every trick-taking game shares (``CardEncoding``); a subclass per game
    writes the rest in ``fill``.

    Everything the trick phase holds is read anew at every call.  The game's own blocks
    ([keep_lo, keep_hi) of the tensor, and the scores with them when keep_scores) are kept:
    while a trick phase runs on the card-play fast path (``StateCore._fast``: cards are played
    in C and no game code runs until the phase ends), only the trick phase changes, so these
    blocks are written from the game's attributes once per seat and phase and copied in
    afterwards, as long as every action since was a card play and the state was not edited:
    its actions have grown by exactly the cards played in the phase, and ``_begin_edit`` was
    not called (three counts).  Like the legal actions a state caches, this relies on a state
    changing through its actions, or after ``_begin_edit``."""

    cdef readonly int size, players
    cdef int n, C
    cdef bint wide
    cdef object state_type
    cdef int16_t cidx[MAX_IDS]      # the tensor index of every card id, -1 for none
    cdef int o_hand, o_trick, o_leader, o_played, o_last, o_last_winner, o_to_move, o_decision
    cdef int o_sizes, o_won, o_scores
    cdef object checked         # the state last found of this game and player count
    cdef int keep_lo, keep_hi
    cdef bint keep_scores
    cdef dict kept              # trick phase -> _Kept
    cdef _Kept last_kept
    # the buffer of the last ``out``, kept exported (numpy then refuses to resize that array)
    cdef object out_obj
    cdef Py_buffer out_view

    def __init__(self, enc, state_type, cards):
        cdef int i
        self.n = self.players = enc.players
        self.C = enc.n_cards
        self.size = enc.size
        if not 1 <= self.n <= MAX_SEATS:
            raise ValueError(f"{self.n} players: the fast encoder handles 1..{MAX_SEATS}")
        self.state_type = state_type
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
        self.kept = {}

    cdef void keep_blocks(self, int lo, int hi, bint scores) noexcept:
        """The game's blocks that stay as they are while cards are played: [lo, hi), and the
        scores when ``scores``."""
        self.keep_lo, self.keep_hi, self.keep_scores = lo, hi, scores

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
        """The tensor of ``seat``'s view of ``state`` (``state.observation(seat)``, as the game's
        page documents it); into ``out`` (a C-contiguous float32 array of the tensor's size) when
        given."""
        cdef float *b
        cdef int overflow = 0
        cdef long me = PyLong_AsLongAndOverflow(seat, &overflow) if type(seat) is int else -1
        if overflow or not 0 <= me < self.n:
            raise ValueError(f"seat {seat!r} is not in 0..{self.n - 1}")
        if state is not self.checked or state is None:      # None is also what checked starts as
            if type(state) is not self.state_type and not isinstance(state, self.state_type):
                raise TypeError(f"a {self.state_type.__name__} is needed, not {type(state).__name__}")
            if not isinstance(state, StateCore):
                raise TypeError(f"{type(state).__name__} is not a game state")
            if state.num_players != self.n:
                raise ValueError(f"a state of {state.num_players} players; this encoding is for {self.n}")
            self.checked = state
        if out is None:
            out = _zeros(self.size, _float32)
            b = self.buffer(out)
        else:
            b = self.buffer(out)
            memset(b, 0, self.size * sizeof(float))
        self.fill(b, <StateCore>state, <int>me)
        return out

    cdef int fill(self, float *b, StateCore state, int me) except -1:
        raise NotImplementedError

    # ---- the game's blocks while cards are played ----------------------------------------------
    cdef inline bint keeping(self, StateCore state, TrickPhase tp) noexcept:
        """Whether the game's blocks of ``state`` are kept: ``tp``, its trick phase, is played
        on the fast path."""
        return self.keep_hi != 0 and tp is not None and state._fast and not tc_play_over(&tp.s)

    cdef inline Py_ssize_t mark(self, StateCore state, TrickPhase tp) except? -9:
        """The state's actions minus the cards played in ``tp``, plus its announced edits: a
        card play leaves it as it is, every other action and every edit moves it."""
        return len(state._actions) - (tp.n_log * self.n + tp.s.trick.n_played) + state._edits

    cdef _Kept kept_of(self, TrickPhase tp, bint create):
        cdef PyObject *found
        cdef _Kept k = self.last_kept
        if k is not None and k.tp is tp:
            return k
        found = PyDict_GetItem(self.kept, tp)
        if found != NULL:
            k = <_Kept>found
        elif not create:
            return None
        else:
            if len(self.kept) >= KEPT_PHASES:
                self.kept.clear()
            k = _Kept.__new__(_Kept)
            k.tp = tp
            self.kept[tp] = k
        self.last_kept = k
        return k

    cdef bint copy_kept(self, float *b, StateCore state, TrickPhase tp, int me) except -1:
        """The game's blocks kept for seat ``me`` in trick phase ``tp`` into ``b`` (True, with
        ``b`` cleared before), or False: ``fill`` writes them, then ``keep``.  ``tp``: the
        phase while its cards are played, else None."""
        cdef _Kept k
        cdef int i
        cdef const int *at
        cdef const uint32_t *value
        cdef uint32_t *out = <uint32_t *>b
        if not self.keeping(state, tp):
            return False
        k = self.kept_of(tp, False)
        if k is None or k.mark[me] < 0 or k.mark[me] != self.mark(state, tp):
            return False
        at, value = k.at[me], k.value[me]
        for i in range(k.count[me]):
            out[at[i]] = value[i]
        return True

    cdef int keep(self, float *b, StateCore state, TrickPhase tp, int me) except -1:
        """Keep the game's blocks just written for seat ``me`` (as ``copy_kept``)."""
        cdef _Kept k
        cdef int i, j = 0, n = 0, lo = self.keep_lo, hi = self.keep_hi
        cdef const uint32_t *bits = <const uint32_t *>b
        cdef int *at
        cdef uint32_t *value
        if not self.keeping(state, tp):
            return 0
        k = self.kept_of(tp, True)
        for i in range(lo, hi):
            n += bits[i] != 0
        if self.keep_scores:
            for i in range(self.n):
                n += bits[self.o_scores + i] != 0
        k.mark[me] = -1
        at = <int *>PyMem_Realloc(k.at[me], (n + 1) * sizeof(int))
        if at == NULL:
            raise MemoryError()
        k.at[me] = at
        value = <uint32_t *>PyMem_Realloc(k.value[me], (n + 1) * sizeof(uint32_t))
        if value == NULL:
            raise MemoryError()
        k.value[me] = value
        for i in range(lo, hi):
            if bits[i]:
                at[j], value[j] = i, bits[i]
                j += 1
        if self.keep_scores:
            for i in range(self.o_scores, self.o_scores + self.n):
                if bits[i]:
                    at[j], value[j] = i, bits[i]
                    j += 1
        k.count[me] = j
        k.mark[me] = self.mark(state, tp)
        return 0

    # ---- writing blocks ------------------------------------------------------------------------
    cdef inline int cards(self, float *b, int offset, tc_cards m) except -1:
        """1 at ``offset`` + the index of every card of the set ``m``."""
        cdef uint64_t x
        cdef int word, c, i
        for word in range(2):
            x = m.w[word]
            while x:
                c = word * 64 + enc_ctz64(x)
                x &= x - 1
                i = self.cidx[c]
                if i < 0:
                    return bad_card(c)
                b[offset + i] = 1.0
        return 0

    cdef inline int card(self, float *b, int offset, int c) except -1:
        """1 at ``offset`` + the index of card ``c`` (a card id, or a move: card | decl << 7)."""
        cdef int i = self.cidx[c & 127] if 0 <= c < 256 else -1
        if i < 0:
            return bad_card(c)
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
        """Per-seat numbers rotated to the observer; zeros are left out (the buffer is cleared, and
        a -0.0 written there would not be the view's 0, bit for bit)."""
        cdef int s = 0
        cdef double v
        for x in values:
            v = x
            if v != 0:
                b[offset + rel(s, me, self.n)] = <float>v
            s += 1
        return 0

    # ---- the trick phase (tc_play_state and the log of completed tricks) ----------------------
    cdef inline void hand_sizes(self, float *b, const tc_play_state *s, int me) noexcept:
        cdef int p, k
        for p in range(self.n):
            k = count(s.hand[p])
            if k:
                b[self.o_sizes + rel(p, me, self.n)] = k

    cdef inline void tricks_won(self, float *b, const tc_play_state *s, int me) noexcept:
        cdef int p
        for p in range(self.n):
            if s.tricks[p]:
                b[self.o_won + rel(p, me, self.n)] = s.tricks[p]

    cdef inline void points_won(self, float *b, int offset, const tc_play_state *s, int me) noexcept:
        cdef int p
        for p in range(self.n):
            if s.points[p]:
                b[offset + rel(p, me, self.n)] = s.points[p]

    cdef inline int card_rows(self, float *b, int offset, const tc_cards *sets, int me) except -1:
        """Per-seat card sets (won, passed) as rows [n, C] by relative seat."""
        cdef int p
        for p in range(self.n):
            self.cards(b, offset + rel(p, me, self.n) * self.C, sets[p])
        return 0

    cdef inline int open_trick(self, float *b, const tc_trick *t, int me) except -1:
        """The open trick's cards by relative seat and its leader."""
        cdef int i, n = self.n, C = self.C
        for i in range(t.n_played):
            self.card(b, self.o_trick + rel(t.leader + i, me, n) * C, t.card[i])
        b[self.o_leader + rel(t.leader, me, n)] = 1.0
        return 0

    cdef inline int played(self, float *b, TrickPhase tp, int me) except -1:
        """``played``: the cards each seat played to the completed tricks of the phase."""
        cdef int k, i, c, index, row, n = self.n, C = self.C
        cdef const tc_trick *t
        cdef float *rows = b + self.o_played
        for k in range(tp.n_log):
            t = &tp.log[k]
            row = rel(t.leader, me, n)
            for i in range(t.n_played):
                c = t.card[i] & 127
                index = self.cidx[c]
                if index < 0:
                    return bad_card(c)
                rows[row * C + index] = 1.0
                row += 1
                if row == n:
                    row = 0
        return 0

    cdef const tc_trick *last_trick(self, float *b, StateCore state, TrickPhase tp, int me) except? NULL:
        """``last_trick``: the last completed trick of the current phase ``tp`` while it is
        played, else of the phase that ended last (``GameState.previous_phase``, as
        ``GameState.last_trick``); that trick, or NULL without one."""
        cdef const tc_trick *t
        cdef int i, n = self.n
        if tp is None or tp.n_log == 0 or tc_play_over(&tp.s):
            tp = state.previous_phase
            if tp is None or tp.n_log == 0:
                return NULL
        t = &tp.log[tp.n_log - 1]
        for i in range(t.n_played):
            self.card(b, self.o_last + rel(t.leader + i, me, n) * self.C, t.card[i])
        b[self.o_last_winner + rel(winner(t, 0, n), me, n)] = 1.0
        return t


# ---- the games ----------------------------------------------------------------------------------
cdef class ReferenceEncoder(_Encoder):
    cdef int o_trump

    def __init__(self, enc, state_type, cards):
        super().__init__(enc, state_type, cards)
        self.o_trump = enc.o_trump

    cdef int fill(self, float *b, StateCore state, int me) except -1:
        cdef TrickPhase tp = state._tp
        cdef tc_play_state *s = play_state(tp)
        self.cards(b, self.o_hand, s.hand[me])
        self.open_trick(b, &s.trick, me)
        self.played(b, tp, me)
        self.last_trick(b, state, tp, me)
        self.one(b, self.o_to_move, to_move(s, self.n), me)
        self.tricks_won(b, s, me)
        b[self.o_trump + <int>state.trump] = 1.0
        return 0


cdef class HattrickEncoder(_Encoder):
    cdef int o_kind, o_open, o_winner2, o_game, o_dealer, o_first, o_stacks, o_passed, o_current
    cdef int colour_of[MAX_IDS]
    cdef tc_cards colour_mask[3]

    def __init__(self, enc, state_type, cards, colour_of):
        super().__init__(enc, state_type, cards)
        for k in range(3):
            self.colour_mask[k].w[0] = self.colour_mask[k].w[1] = 0
        for i in range(MAX_IDS):
            self.colour_of[i] = -1
        for i, c in enumerate(colour_of):
            self.colour_of[i] = c
            if 0 <= c < 3:
                self.colour_mask[c].w[i >> 6] |= (<uint64_t>1) << (i & 63)
        self.o_kind, self.o_open, self.o_winner2 = enc.o_kind, enc.o_open, enc.o_winner2
        self.o_game, self.o_dealer, self.o_first = enc.o_game, enc.o_dealer, enc.o_first
        self.o_stacks, self.o_passed, self.o_current = enc.o_stacks, enc.o_passed, enc.o_current
        self.keep_blocks(enc.o_game, enc.o_stacks, True)

    cdef int fill(self, float *b, StateCore state, int me) except -1:
        cdef int n = self.n, C = self.C, p, i, col, kind, r, red, green, blue, m
        cdef int opened[2]
        cdef int n_open = 0
        cdef TrickPhase tp = state._tp, playing = None
        cdef tc_play_state *s = play_state(tp)
        cdef const tc_trick *t
        # Every game of the match is one trick phase, and the next game starts as soon as one
        # ends: the phase of the state is over exactly when the match is.
        if not tc_play_over(s):
            playing = tp
            t = &s.trick
            self.cards(b, self.o_hand, s.hand[me])
            self.hand_sizes(b, s, me)
            # the open double trick: each play with what it did (H3), the open colours
            b[self.o_leader + rel(t.leader, me, n)] = 1.0
            for i in range(t.n_played):
                r = rel(t.leader + i, me, n)
                col = self.colour_of[t.card[i] & 127]
                if n_open and (opened[0] == col or (n_open == 2 and opened[1] == col)):
                    kind = 1                            # join
                elif n_open < 2:
                    kind = 0                            # open
                    opened[n_open] = col
                    n_open += 1
                else:
                    kind = 2                            # pass
                self.card(b, self.o_trick + r * C, t.card[i])
                b[self.o_kind + r * 3 + kind] = 1.0
            for i in range(n_open):
                b[self.o_open + i * 3 + opened[i]] = 1.0
            self.tricks_won(b, s, me)
            for p in range(n):
                # H7: the majority colour minus the rest, -2 per pass card
                red = self.colour_count(s.won[p], 0)
                blue = self.colour_count(s.won[p], 1)
                green = self.colour_count(s.won[p], 2)
                m = max(red, max(blue, green))
                m = m - (red + blue + green - m) - 2 * count(s.passed[p])
                if m:
                    b[self.o_current + rel(p, me, n)] = m
            self.one(b, self.o_to_move, to_move(s, n), me)
            b[self.o_decision] = 1.0                    # "play", the only decision
            self.played(b, tp, me)
            self.card_rows(b, self.o_stacks, s.won, me)
            self.card_rows(b, self.o_passed, s.passed, me)
        t = self.last_trick(b, state, tp, me)
        if t != NULL:
            self.one(b, self.o_winner2, winner(t, 1, n), me)
        if self.copy_kept(b, state, playing, me):
            return 0
        b[self.o_game] = <int>state.game
        b[self.o_game + 1] = <int>state.games
        self.one(b, self.o_dealer, seat_of(state.dealer), me)
        self.one(b, self.o_first, seat_of(state.leader), me)
        self.numbers(b, self.o_scores, state.totals, me)
        self.keep(b, state, playing, me)
        return 0

    cdef inline int colour_count(self, tc_cards w, int colour) noexcept:
        return tc_count(tc_and(w, self.colour_mask[colour]))


cdef class StichelnEncoder(_Encoder):
    cdef int o_round, o_flags, o_dealer, o_first, o_laid, o_laid_n, o_chosen, o_special, o_choice
    cdef int o_won_cards
    cdef int i_layout, i_play, i_colour
    cdef tuple flag_names

    def __init__(self, enc, state_type, cards, flag_names):
        super().__init__(enc, state_type, cards)
        self.flag_names = tuple(flag_names)
        self.o_round, self.o_flags, self.o_dealer = enc.o_round, enc.o_flags, enc.o_dealer
        self.o_first, self.o_laid, self.o_laid_n = enc.o_first, enc.o_laid, enc.o_laid_n
        self.o_chosen, self.o_special, self.o_choice = enc.o_chosen, enc.o_special, enc.o_choice
        self.o_won_cards = enc.o_won_cards
        self.keep_blocks(enc.o_round, enc.o_won_cards, True)
        self.i_layout, self.i_play, self.i_colour = (enc.DECISIONS.index("layout"), enc.DECISIONS.index("play"),
                                                     enc.DECISIONS.index("colour"))

    cdef int fill(self, float *b, StateCore state, int me) except -1:
        cdef int n = self.n, C = self.C, p, i, r, idx
        cdef tc_cards w
        cdef TrickPhase tp = state._tp
        cdef tc_play_state *s
        phase = state.phase
        cdef bint play = phase == "play", colour = phase == "colour", layout = phase == "layout"
        if play or colour:
            s = play_state(tp)
            self.hand_sizes(b, s, me)
            self.cards(b, self.o_hand, s.hand[me])
            self.open_trick(b, &s.trick, me)
            self.tricks_won(b, s, me)
            self.played(b, tp, me)
            self.card_rows(b, self.o_won_cards, s.won, me)
        else:
            if layout:
                hands = state.hands
                for p in range(n):
                    if p == me:
                        w = load(hands[p], self.wide)
                        self.cards(b, self.o_hand, w)
                        i = count(w)
                    else:
                        i = hands[p].bit_count()
                    if i:
                        b[self.o_sizes + rel(p, me, n)] = i
            self.one(b, self.o_leader, seat_of(state.leader), me)   # the view's empty trick
        self.last_trick(b, state, tp, me)
        if play:
            self.one(b, self.o_to_move, to_move(play_state(tp), n), me)
            b[self.o_decision + self.i_play] = 1.0
        elif layout or colour:
            self.one(b, self.o_to_move, <int>state.asked[<int>state.answered], me)
            b[self.o_decision + (self.i_layout if layout else self.i_colour)] = 1.0
        if self.copy_kept(b, state, tp if play else None, me):
            return 0
        self.numbers(b, self.o_scores, state.totals, me)
        b[self.o_round] = <int>state.round
        b[self.o_round + 1] = <int>state.rounds
        flags = state.flags
        for i in range(len(self.flag_names)):
            if flags[self.flag_names[i]]:
                b[self.o_flags + i] = 1.0
        self.one(b, self.o_dealer, seat_of(state.dealer), me)
        self.one(b, self.o_first, seat_of(state.leader), me)
        if layout or colour:
            asked = state.asked
            for i in range(<int>state.answered):
                b[self.o_chosen + rel(<int>asked[i], me, n)] = 1.0
        if play or colour or layout:
            laid = state.laid
            special = state.special
            visible = state.revealed
            for p in range(n):
                r = rel(p, me, n)
                cards = laid[p]
                i = len(cards)
                if i:
                    b[self.o_laid_n + r] = i
                if p == me or visible:
                    self.card_list(b, self.o_laid + r * C, cards)
                    colours = special[p]
                    if colours is not None:
                        for c in colours:
                            b[self.o_special + r * 6 + <int>c] = 1.0
            if colour:
                choice = state.choices[me]
                if choice is not None:
                    for c in choice:
                        b[self.o_choice + <int>c] = 1.0
        self.keep(b, state, tp if play else None, me)
        return 0


cdef class BeimJupiterEncoder(_Encoder):
    cdef int o_lambs, o_god, o_round, o_t, o_dealer, o_start, o_colour, o_chosen, o_trump, o_bids
    cdef int o_table, o_table_owner, o_table_locked, o_victory, o_zero, o_removed, o_points
    cdef int bid_slots, max_t
    cdef tc_cards lambs
    cdef int value[MAX_IDS]
    cdef dict bid_slot, decision_index

    def __init__(self, enc, state_type, cards, lambs, values, bid_slot, bid_slots, max_t):
        super().__init__(enc, state_type, cards)
        self.lambs.w[0] = self.lambs.w[1] = 0
        for c in lambs:
            self.lambs.w[c >> 6] |= (<uint64_t>1) << (c & 63)
        for i in range(MAX_IDS):
            self.value[i] = 0
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
        self.keep_blocks(enc.o_round, enc.o_points, True)

    cdef int fill(self, float *b, StateCore state, int me) except -1:
        cdef int n = self.n, C = self.C, p, i, r, t, k, total
        cdef tc_cards w
        cdef TrickPhase tp = state._tp
        cdef tc_play_state *s
        cdef const tc_trick *tr
        phase = state.phase
        cdef bint play = phase == "play", over = phase == "over"
        if (play or over) and tp is not None:
            s = play_state(tp)
            self.cards(b, self.o_hand, s.hand[me])
            k = self.lamb_count(s.hand[me])
            if k:
                b[self.o_lambs] = k
            self.hand_sizes(b, s, me)
            if not tc_play_over(s):
                tr = &s.trick
                self.open_trick(b, tr, me)
                for i in range(tr.n_played):
                    if tr.decl[i]:                      # a God card declared 15
                        b[self.o_god + rel(tr.leader + i, me, n)] = 1.0
            self.tricks_won(b, s, me)
            self.points_won(b, self.o_points, s, me)
            self.played(b, tp, me)
            if play:
                self.one(b, self.o_to_move, to_move(s, n), me)
        else:
            hands = state.hands
            for p in range(n):
                if p == me:
                    w = load(hands[p], self.wide)
                    self.cards(b, self.o_hand, w)
                    k = self.lamb_count(w)
                    if k:
                        b[self.o_lambs] = k
                    k = count(w)
                else:
                    k = hands[p].bit_count()
                if k:
                    b[self.o_sizes + rel(p, me, n)] = k
            if not over:                                # colour and bid: from the start player on
                self.one(b, self.o_to_move, (<int>state.start + <int>state.acted) % n, me)
        self.last_trick(b, state, tp, me)
        if not over:
            b[self.o_decision + <int>self.decision_index[phase]] = 1.0
        if self.copy_kept(b, state, tp if play else None, me):
            return 0
        victory = state.victory
        for p in range(n):
            r = rel(p, me, n)
            total = 0
            for c in victory[p]:
                self.card(b, self.o_victory + r * C, c)
                total += self.value[<int>c & 127]
            if total:
                b[self.o_scores + r] = total
        b[self.o_round + <int>state.round - 1] = 1.0
        t = state.t
        b[self.o_t] = t
        self.one(b, self.o_dealer, seat_of(state.dealer), me)
        self.one(b, self.o_start, seat_of(state.start), me)
        colour = state.colour
        revealed = state.revealed
        for p in range(n):
            c = colour[p]
            if c is not None:
                b[self.o_chosen + rel(p, me, n)] = 1.0
                if p == me or revealed:
                    self.card(b, self.o_colour + rel(p, me, n) * C, c)
        if revealed:
            trump = state.trump
            b[self.o_trump + (4 if trump is None else <int>trump)] = 1.0
        bids = state.bids
        for p in range(n):
            bid = bids[p]
            if bid is not None:
                b[self.o_bids + rel(p, me, n) * self.bid_slots + <int>self.bid_slot[bid]] = 1.0
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
        for p in range(n):
            if zero[p]:
                b[self.o_zero + rel(p, me, n)] = 1.0
        self.card_list(b, self.o_removed, state.removed)
        self.keep(b, state, tp if play else None, me)
        return 0

    cdef inline int lamb_count(self, tc_cards w) noexcept:
        return tc_count(tc_and(w, self.lambs))


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
        self.keep_blocks(enc.o_deal, enc.o_clean, False)

    cdef int fill(self, float *b, StateCore state, int me) except -1:
        cdef int n = self.n, C = self.C, p, i, k, penalty
        cdef int clean[MAX_SEATS]
        cdef tc_cards w
        cdef TrickPhase tp = state._tp
        cdef tc_play_state *s = NULL
        phase = state.phase
        cdef bint play = phase == "play", over = phase == "over"
        # The trick phase the state holds is this deal's from the card play on (before it, none
        # or the previous deal's); the match ends only with a deal's last trick, so once it is
        # over the phase held is the last deal's, which the view still shows.
        if play or over:
            s = play_state(tp)
            self.cards(b, self.o_hand, s.hand[me])
            self.hand_sizes(b, s, me)
            if not tc_play_over(s):
                self.open_trick(b, &s.trick, me)
            self.tricks_won(b, s, me)
            self.played(b, tp, me)
        else:
            hands = state.hands
            for p in range(n):
                w = load(hands[p], False)
                if p == me:
                    self.cards(b, self.o_hand, w)
                k = count(w)
                if k:
                    b[self.o_sizes + rel(p, me, n)] = k
        self.last_trick(b, state, tp, me)
        if over:
            pass
        elif play:
            self.one(b, self.o_to_move, to_move(play_state(tp), n), me)
        else:
            self.one(b, self.o_to_move, seat_of(state.to_move), me)
        if not over:
            b[self.o_decision + <int>self.decision_index[phase]] = 1.0
        self.numbers(b, self.o_scores, state.totals, me)
        c = state.contract
        if s != NULL and c is not None and c.kind == "null" and c.penalty is not None:
            penalty = c.penalty                         # clean tricks: none of the penalty suit
            memset(clean, 0, sizeof(clean))
            for i in range(tp.n_log):
                if not (tp.log[i].cards.w[0] & self.suit_mask[penalty]):
                    clean[winner(&tp.log[i], 0, n)] += 1
            for p in range(n):
                if clean[p]:
                    b[self.o_clean + rel(p, me, n)] = clean[p]
        if self.copy_kept(b, state, tp if play else None, me):
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
        for p in range(n):
            if bids[p] is not None:
                b[self.o_bids_chosen + rel(p, me, n)] = 1.0
        if c is not None:
            i = 0
            for p in range(n):
                bid = bids[p]
                if bid is not None:                     # every seat's, once revealed
                    self.card(b, self.o_bids + rel(i, me, n) * C, bid)
                    i += 1
            b[self.o_kind + <int>self.kind_index[c.kind]] = 1.0
            for p in c.contractors:
                self.one(b, self.o_contractors, p, me)
            if c.trump != self.no_suit:
                b[self.o_trump + <int>c.trump] = 1.0
            if c.penalty is not None:
                b[self.o_penalty + <int>c.penalty] = 1.0
            for p in c.aces:
                self.one(b, self.o_aces, p, me)
            for p in c.deuces:
                self.one(b, self.o_deuces, p, me)
            if c.kind == "choice":
                b[self.o_offer + <int>c.solo_trump] = 1.0
                b[self.o_offer + 4 + <int>c.null_penalty] = 1.0
        for p, word in state.squint_log:
            b[self.o_squint + rel(p, me, n) * 2 + (word == "HAND")] = 1.0
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
        self.keep(b, state, tp if play else None, me)
        return 0


cdef class KlaberjassEncoder(_Encoder):
    cdef int o_deal, o_dealer, o_forehand, o_packet, o_turned, o_stack_top, o_calls, o_kleines, o_trump
    cdef int o_declarer, o_exchange, o_meld_calls, o_melds, o_my_melds, o_best, o_meld_points, o_doubling
    cdef int o_mult, o_belle, o_points
    cdef dict round_index, call_index, decision_index
    cdef int n_calls

    def __init__(self, enc, state_type, cards, call_rounds, calls, decisions):
        super().__init__(enc, state_type, cards)
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
        self.keep_blocks(enc.o_deal, enc.o_belle, False)

    cdef int fill(self, float *b, StateCore state, int me) except -1:
        cdef int n = self.n, C = self.C, p, r
        cdef TrickPhase tp = state._tp, playing = None
        cdef tc_play_state *s
        phase = state.phase
        cdef bint over = phase == "over"
        self.last_trick(b, state, tp, me)
        dice = state.dice                               # scores(): each seat's side's die
        for p in range(n):
            r = dice[p % 2 if n == 4 else p]
            if r:
                b[self.o_scores + rel(p, me, n)] = r
        if over:
            b[self.o_deal] = <int>state.deal_no
            b[self.o_deal + 1] = <int>state.options["target"]
            self.one(b, self.o_dealer, seat_of(state.dealer), me)
            self.one(b, self.o_forehand, seat_of(state.forehand), me)
            return 0
        b[self.o_decision + <int>self.decision_index[phase]] = 1.0
        # The phase is "play" from the start of the deal's trick phase until it ends (then the
        # next deal begins, or the match is over): the state's trick phase is this deal's.
        if phase == "play":
            playing = tp
            s = play_state(tp)
            self.cards(b, self.o_hand, s.hand[me])
            self.open_trick(b, &s.trick, me)
            self.tricks_won(b, s, me)
            self.points_won(b, self.o_points, s, me)
            self.one(b, self.o_to_move, to_move(s, n), me)
            self.played(b, tp, me)
        else:
            self.cards(b, self.o_hand, load(state.hands[me], False))
            self.one(b, self.o_to_move, <int>state.asked[<int>state.answered], me)
        belle = state.belle
        if belle is not None:
            self.card(b, self.o_belle + rel(belle[0], me, n) * C, belle[1])
        if self.copy_kept(b, state, playing, me):
            return 0
        b[self.o_deal] = <int>state.deal_no
        b[self.o_deal + 1] = <int>state.options["target"]
        self.one(b, self.o_dealer, seat_of(state.dealer), me)
        self.one(b, self.o_forehand, seat_of(state.forehand), me)
        if not state.picked_up:
            b[self.o_packet] = 3
        self.card(b, self.o_turned, state.turned)
        if n != 4:
            self.card(b, self.o_stack_top, state.stack[0])
        for rnd, p, call in state.calls:
            b[self.o_calls + (<int>self.round_index[rnd] * n + rel(p, me, n)) * self.n_calls
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
        for p, did in state.meld_calls:
            r = rel(p, me, n)
            b[self.o_meld_calls + r * 2] = 1.0
            if did:
                b[self.o_meld_calls + r * 2 + 1] = 1.0
            for meld in declared.get(p, ()):
                self.card_list(b, self.o_melds + r * C, meld.cards)
        if phase == "meld" and me == state.asked[state.answered]:
            for meld in state.hand_melds[me]:
                self.card_list(b, self.o_my_melds, meld.cards)
        best = state.best
        if best is not None:
            self.one(b, self.o_best, best[0], me)
            b[self.o_best + n] = <int>best[1].value
        self.numbers(b, self.o_meld_points, state.meld_pts, me)
        for p, call in state.doubling:
            if call != "pass":
                b[self.o_doubling + rel(p, me, n) * 2 + (call == "re")] = 1.0
        b[self.o_mult] = <int>state.mult
        self.keep(b, state, playing, me)
        return 0
