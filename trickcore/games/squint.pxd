# Compiled, SquintState is an extension type: its attributes are C fields and its flow
# methods cpdef (trickcore/game.pxd says why); the source stays trickcore/games/squint.py.
from trickcore.game cimport GameState

cdef class SquintState(GameState):
    cdef public str phase          # compared with literals on every decision
    cdef public object _deal_overrides, dealer, deal_no, totals, results, _over, eldest, order
    cdef public object hands, squint, dealt, squint_left, bids, contract, offer, discards
    cdef public object squint_log, passes, null_discards, mult, duo_index, discard_n, deal_start
    cdef public object to_move, _play_started

    cpdef _deal_order(self, index)
    cpdef _begin_deal(self)
    cpdef _bid_cards(self)
    cpdef _reveal(self)
    cpdef _after_contract(self)
    cpdef _start_tricks(self)
    cpdef _play_over(self)
    cpdef _current_player(self)
    cpdef _legal(self)
    cpdef action_to_string(self, action)
    cpdef _parse(self, text)
    cpdef _apply(self, action)
    cpdef _apply_squint(self, s, action)
    cpdef _pick_up(self, s, cards)
    cpdef _apply_discard(self, s, action)
    cpdef _is_terminal(self)
    cpdef _world_squint_taken(self, world, seat, hands, tp, rng)
    cpdef _world_null_passes(self, world, seat, hands, tp, chain, rng)
    cpdef _null_pass_index(self, i)
    cpdef _hand_now(self, seat)
