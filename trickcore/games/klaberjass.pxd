# Compiled, KlaberjassState is an extension type: its attributes are C fields and its flow
# methods cpdef (trickcore/game.pxd says why); the source stays trickcore/games/klaberjass.py.
from trickcore.game cimport GameState

# Helpers the flow calls: cpdef, so compiled calls are C calls (Python sees the same functions);
# those on seats and card ids take C ints, and masks are 64-bit (Klaberjass has 32 cards).
cimport cython
from libc.stdint cimport uint64_t

cpdef int card_id(int suit, int rank) except? -1
cpdef int suit_of(int card) except? -1
cpdef int rank_of(int card) except? -1
cpdef card_points(card, trump)
@cython.locals(s=int)
cpdef int mask_points(uint64_t mask, trump) except? -1
@cython.locals(seat=int, hand=uint64_t)
cpdef _first_holding(hands, uint64_t cards)
cpdef names(mask_or_cards)
@cython.locals(k=int)
cpdef list seat_order(int n, int dealer)
cpdef int side_of(int n, int seat) except? -1
cpdef int n_sides(int n) except? -1
cpdef list side_members(int n, int side)
cpdef decompose_melds(uint64_t hand)
cpdef meld_key(meld, trump, order_pos)
cpdef best_meld(declared, trump, int n, dealer)
cpdef meld_points(declared, trump, int n, dealer)
cpdef meld_points_of(declared, b, int n)
cpdef side_points(int n, won, trump, last_winner, melds, belle_seat)
@cython.locals(ns=int, seat=int)
cpdef side_points_of(int n, seat_card_points, last_winner, melds, belle_seat)
cpdef deal_steps(int n, declarer, side_points, mult)
cpdef advance_dice(dice, steps, cap=*)
cpdef die_face(score)
cpdef int next_dealer(int n, int dealer, steps) except? -1

cdef class KlaberjassState(GameState):
    cdef public str phase          # compared with literals on every decision
    # Seats, counts and the turned card's suit are C ints (and flags bint): the flow's arithmetic
    # and comparisons on them are C operations.  Card ids stay Python ints: they are shifted into
    # masks (1 << card), which a C int would overflow.
    cdef public int dealer, deal_no, _deal_start, forehand, turned_suit, mult, _qi
    cdef public bint _over, _turned_in_hand, picked_up
    cdef public object turned, _forced, dice, _results, _order, _seats, _hands, _packets, _stack
    cdef public object calls, kleines, trump, declarer, exchange
    cdef public object _melds, declared, meld_calls, best, meld_pts, doubling, belle
    cdef public object _belle_holder, _tp_deal, _queue

    cpdef _begin_deal(self)
    cpdef _ask(self, phase, seats)
    cpdef _trump_fixed(self, trump, declarer)
    cpdef _begin_melds(self)
    cpdef _melds_done(self)
    cpdef _begin_play(self)
    cpdef _belle_options(self)
    cpdef _play_over(self)
    cpdef _next_deal_or_end(self)
    cpdef _throw_in(self)
    cpdef _current_player(self)
    cpdef _is_terminal(self)
    cpdef _legal(self)
    cpdef action_to_string(self, action)
    cpdef _parse(self, text)
    cpdef _advance(self)
    cpdef _apply(self, action)
    cpdef _apply_card(self, action)
    cpdef _hand_of(self, seat)
    cpdef _world_order(self, world, seat, held, rng)
