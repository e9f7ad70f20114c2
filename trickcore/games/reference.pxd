# Compiled, ReferenceState is an extension type: its attributes are C fields and its flow
# methods cpdef (trickcore/game.pxd says why); the source stays trickcore/games/reference.py.
from trickcore.game cimport GameState

cdef class ReferenceState(GameState):
    cdef public object trump, _tricks

    cpdef _current_player(self)
    cpdef _legal(self)
    cpdef action_to_string(self, action)
    cpdef _parse(self, text)
    cpdef _apply(self, action)
    cpdef _play_over(self)
    cpdef _is_terminal(self)
