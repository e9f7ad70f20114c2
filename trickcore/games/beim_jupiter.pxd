# Compiled, BeimJupiterState is an extension type: its attributes are C fields and its flow
# methods cpdef (trickcore/game.pxd says why); the source stays trickcore/games/beim_jupiter.py.
cimport cython
from trickcore.game cimport GameState

# Helpers the flow calls: cpdef, so compiled calls are C calls (Python sees the same functions).
# _round_rng is not among them: tests replace it in the module to force a deal.
cpdef dealt_per_player(r)
cpdef tricks_in_round(r)
cpdef deck_size(n, r)
cpdef left_over(n, r)
cpdef is_void_deal(hands, n)
cpdef deal_round(rng, pool, n, r)
cpdef _suit_value(card)
@cython.locals(s=int, v=int, count=cython.int[4], total=cython.int[4], high=cython.int[4])
cpdef determine_trump(pool, suit_value=*)
cpdef parse_bid(text)
cpdef bid_text(action)
cpdef bid_action(text)
@cython.locals(p=int, T=int)
cpdef distribute(int n, start, t, table, bids, colour, tricks, points, suit_value=*)

cdef class BeimJupiterState(GameState):
    cdef public str phase          # compared with literals on every decision
    # Seats and counts are C ints (and the flag bint): the flow's arithmetic on them is C.
    cdef public int dealer, round, t, start, _round_start, _done
    cdef public bint revealed
    cdef public object info_deck, _forced_deals, table, victory, zero_used, removed, selected
    cdef public object _round_end, _table_cache, colour
    cdef public object trump, bids, tricks_result, points_result, hands, leftover

    cpdef _start_round(self)
    cpdef _current_player(self)
    cpdef _legal(self)
    cpdef action_to_string(self, action)
    cpdef _parse(self, text)
    cpdef _apply(self, action)
    cpdef _colour_cards(self)
    cpdef _reveal(self)
    cpdef _play_over(self)
    cpdef _move_text(self, move)
    cpdef _is_terminal(self)
    cpdef _table_view(self)
