# Compiled, trickcore/game.py's GameState is an extension type: its attributes are C fields,
# and the hooks the fast path calls are cpdef (see trickcore/_core.pxd).  The source stays plain
# Python; this file only declares (Cython's "augmenting .pxd", docs/contributing.md).
from trickcore._core cimport StateCore

cdef class GameState(StateCore):
    cdef public int num_players       # checked before it is set: range(self.num_players) is a C loop
    cdef public object options
    cdef public object seed
    cdef public list _events
    cdef public object _previous_phase
    cdef public object _ev_expanded
    cdef public bint _is_world
    cdef public bint _recording      # read before building each event (GameState._defer_events)
    cdef public object _world_of
    cdef public object _world_replay
    # No __dict__: every attribute a compiled state has is declared, so the cpdef methods'
    # override checks cost nothing and a copy is its fields alone.  (A Python subclass, such as
    # a test's toy game, gets a __dict__ from Python as usual.)

    cpdef _is_terminal(self)
    cpdef _legal(self)
    cpdef action_to_string(self, action)
    cpdef _apply(self, action)
    cpdef _current_player(self)
    cpdef _play_over(self)
    cpdef _on_play_over(self)
    cpdef _mark_plays(self)
    cpdef _record_events(self)
    cpdef _event(self, event, visible_to=*)
    cpdef _event_of(self, kind, data, visible_to=*)
    cpdef _emit_hands(self, kind, hands, names)
    cpdef _append_entry(self, entry)
    cpdef _start_play(self, deck, follow, winner, trump, hands, leader, tricks)
    cpdef _move_text(self, move)
    cpdef _check_seat(self, seat)
    cpdef _in_play(self)
