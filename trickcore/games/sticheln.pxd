# Compiled, StichelnState is an extension type: its attributes are C fields and its flow
# methods cpdef (trickcore/game.pxd says why); the source stays trickcore/games/sticheln.py.
from trickcore.game cimport GameState

cdef class StichelnState(GameState):
    cdef public str _phase          # compared with literals on every decision
    cdef public object _forced_deals, flags, variant, n_colours, max_value, hand_size, n_aside, k
    cdef public object n_tricks, used, rounds, round, totals, round_scores, past, dealer
    cdef public object leader, _round_start, _hands, _aside, _laid, _special, _choices, _revealed
    cdef public object _round_done, _order, _idx

    cpdef _specials(self, seat)
    cpdef _start_round(self)
    cpdef _begin_play(self)
    cpdef _play_over(self)
    cpdef _current_player(self)
    cpdef _legal(self)
    cpdef action_to_string(self, action)
    cpdef _apply(self, action)
    cpdef _is_terminal(self)
    cpdef _hands_now(self, tp)
