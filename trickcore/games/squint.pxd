# Compiled, SquintState is an extension type: its attributes are C fields and its flow
# methods cpdef (trickcore/game.pxd says why); the source stays trickcore/games/squint.py.
from trickcore.game cimport GameState

# Helpers the flow calls: cpdef, so compiled calls are C calls (Python sees the same functions).
cpdef int card_suit(int card) except? -1
cpdef int card_rank(int card) except? -1
cpdef str card_name(int card)
cpdef names(cards)
cpdef pair_cards(int action)
cpdef list priority_order(int dealer)
cpdef deal_hands(order, int dealer)
cpdef determine_contract(bids, int dealer)
cpdef resolve_choice(contract, choice)
cpdef clean_counts(tricks, int penalty)
cpdef score_deal(contract, tricks, clean=*, h=*)
cpdef game_over(totals, deals_done, target_score, deal_limit, max_deals)

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
