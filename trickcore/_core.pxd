# The extension types of the binding (trickcore/_core.pyx): their C attributes and cdef
# methods, for the binding itself and for compiled modules that read a state's C structs
# directly (trickcore/encodings/_fast.pyx: ``from trickcore._core cimport StateCore, TrickPhase``).
# The extern declarations of csrc/include/trickcore.h stay in _ccore.pxd.
#
# Readers outside _core.pyx treat every attribute as read-only: the trick phase changes only
# through its own methods (play_c and what calls it), so its tables stay consistent.
from libc.stdint cimport int8_t, uint32_t, uint64_t
from trickcore._ccore cimport tc_deck, tc_play_state, tc_rng, tc_rules, tc_trick


cdef class Deck:
    cdef tc_deck d
    cdef readonly list names
    cdef readonly dict ids
    cdef list spec          # the calls that built it: what a pickle stores

    cdef int _card(self, int card) except -1


cdef class Rng:
    cdef tc_rng r

    cpdef uint32_t below(self, uint32_t n) except? 0


cdef class TrickPhase:
    cdef Deck deck
    cdef tc_rules rules
    cdef tc_play_state s
    # Completed tricks are logged in C (no Python object per trick on the fast path):
    # log[k] is the k-th completed trick as the core resolved it, log_next[k] the seat
    # that led the trick after it; n_log of them.  The ``tricks`` property builds the
    # Python view on demand.  The log holds as many tricks as the phase has (allocated with
    # the object, freed with it): a phase of 9 tricks does not carry, zero and copy 64.
    cdef tc_trick *log
    cdef int8_t log_next[64]
    cdef int n_log
    # The Python tuples of ``tricks``, built once per completed trick when first asked
    # for: views and event feeds ask after every action, and the history only grows.
    cdef list py_log
    # Game-level descriptions of the completed tricks (GameState._described_tricks): a
    # view lists every completed trick, and each is described once, not once per view.
    cdef public list described

    cdef int play_c(self, int move) except? -9
    cdef void _record(self)
    cdef list _trick_tuples(self)
    cdef list moves_c(self)
    cdef tuple moves_tuple(self, uint64_t *listed_lo, uint64_t *listed_hi)
    cdef int play_listed(self, int move)
    cdef int _played(self)
    cdef tc_trick *_trick_at(self, int k)
    cdef int _seat(self, int seat) except -1
    cdef TrickPhase copy_c(self)
    cdef int _alloc_log(self, int tricks) except -1


cdef class ActionLog:
    cdef tuple blocks       # full blocks of ACTION_BLOCK actions, shared by copies
    cdef list tail          # the actions after them, this log's own
    cdef Py_ssize_t n_blocked
    cdef int push(self, object action) except -1
    cdef ActionLog copy_c(self)
    cdef Py_ssize_t _index(self, Py_ssize_t i) except -1


cdef class StateCore:
    cdef public TrickPhase _tp
    cdef public ActionLog _actions
    cdef public bint _fast
    # While _fast is off: the one seat whose card decisions the game answers (-1: every seat's).
    cdef public int _slow_seat
    cdef public bint _shared
    # The legal actions of the current decision (a tuple), or None: apply_action
    # clears it, and it is the only way a state changes.
    cdef tuple _legal_cache
    # While _legal_cache holds a trick phase's moves: its plain card moves (no declaration) as a
    # card set, one bit per card id in two words.  apply_action plays a card of it without
    # checking it a second time (TrickPhase.play_listed).
    cdef uint64_t _listed_lo, _listed_hi
    # Edits announced by _begin_edit, counted: what the observation encoders keep from a
    # state's attributes while its cards are played (trickcore/encodings/_fast.pyx) is
    # written anew after one.
    cdef Py_ssize_t _edits
    # Where the event list's marks of card plays stand: (trick phase, tricks marked, cards of the
    # open trick marked, cards played); kept here because a copy must point it at its own phase.
    cdef public tuple _ev_sync

    cdef bint _in_trick_phase(self) noexcept   # reads fields only: nothing to raise
    cdef bint _all_cards_in_c(self) noexcept
    cdef tuple _legal_tuple(self)
    cdef _end_trick_phase(self)
    cdef _apply_other(self, action, seat)
    # The game's hooks (trickcore.game.GameState), the only calls from the binding up into a
    # game: what the fast path needs to answer outside the trick phase, and the hook at its end.
    cpdef _is_terminal(self)
    cpdef _legal(self)
    cpdef _apply(self, action)
    cpdef _current_player(self)
    cpdef _on_play_over(self)
