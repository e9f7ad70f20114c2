# Compiled, HattrickState is an extension type: its attributes are C fields and its flow
# methods cpdef (trickcore/game.pxd says why); the source stays trickcore/games/hattrick.py.
from trickcore.game cimport GameState

cdef class HattrickState(GameState):
    cdef public object _forced_deals, low, hand_size, n_tricks, used, games, game, totals
    cdef public object game_scores, past, _over, dealer, leader, _game_start

    cpdef _start_game(self)
    cpdef _play_over(self)
    cpdef _current_player(self)
    cpdef _legal(self)
    cpdef action_to_string(self, action)
    cpdef _parse(self, text)
    cpdef _apply(self, action)
    cpdef _is_terminal(self)
