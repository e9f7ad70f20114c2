"""Events built when read: a state from new_game records no events until they are first read
(GameState._defer_events), a deal's hand events (GameState._emit_hands) and summaries
(GameState._event_of) are built when read.  Each reads exactly as if it had been built at once —
also from clones and pickled copies taken before anyone read them."""

from __future__ import annotations

import pickle
import random

import pytest

from trickcore.errors import TrickcoreError
from trickcore.game import _HANDS, _LATER
from trickcore.games import get_game, list_games, new_game

CASES = [(info.name, players) for info in list_games() for players in info.players[:1]]
ALL_COUNTS = [(info.name, players) for info in list_games() for players in info.players]


def recording(name, players, seed):
    """A state that records its events from the start (made by the factory, not new_game)."""
    return get_game(name).factory(players, None, seed)


@pytest.mark.parametrize("name,players", ALL_COUNTS)
def test_deferred_events_read_as_recorded_ones(name, players):
    """A state from new_game records nothing while it is played; its first read replays the game
    from its seed and gives the events a recording state has, and it records from then on.
    Clones and pickled copies taken before the read read the same, and so do worlds."""
    rng = random.Random(players)
    lazy, eager = new_game(name, players, seed=21), recording(name, players, 21)
    assert not lazy._recording and lazy._events == [] and eager._recording
    copies, reads = [], 0
    while not eager.is_terminal() and reads < 3:
        for _ in range(rng.randrange(1, 60)):
            if eager.is_terminal():
                break
            action = rng.choice(eager.legal_actions())
            eager.apply_action(action)
            lazy.apply_action(action)
        if rng.random() < 0.5:
            copies.append((lazy.clone(), pickle.loads(pickle.dumps(lazy)), len(eager.action_ids)))
            if not reads:
                assert not copies[-1][0]._recording and not copies[-1][1]._recording
            continue
        reads += 1
        assert lazy.events_since(0) == eager.events_since(0)
        assert lazy._recording, "a state records once its events have been read"
        for seat in range(players):
            assert lazy.events_for(seat) == eager.events_for(seat)
    for clone, restored, at in copies:
        replay = recording(name, players, 21)
        for action in eager.action_ids[:at]:
            replay.apply_action(action)
        assert clone.events_since(0) == restored.events_since(0) == replay.events_since(0)
    if not eager.is_terminal():
        world_of = new_game(name, players, seed=21)
        for action in eager.action_ids:
            world_of.apply_action(action)
        try:
            worlds = [state.determinize(0, seed=4) for state in (world_of, eager)]
        except NotImplementedError:
            return
        assert world_of._recording, "drawing a world records the events of the state drawn from"
        assert worlds[0].events_since(0) == worlds[1].events_since(0)


def test_an_edit_records_the_events_before_it():
    """A state edited directly (_begin_edit) is no longer the game its seed and history replay:
    its events so far are recorded at the edit."""
    rng = random.Random(3)
    lazy, eager = new_game("klaberjass", 3, seed=8), recording("klaberjass", 3, 8)
    for _ in range(12):
        action = rng.choice(eager.legal_actions())
        eager.apply_action(action)
        lazy.apply_action(action)
    lazy._begin_edit()
    assert lazy._recording
    lazy.dice = [5, 5, 5]       # an edit the seed could not replay
    eager.dice = [5, 5, 5]
    while not eager.is_terminal():
        action = rng.choice(eager.legal_actions())
        eager.apply_action(action)
        lazy.apply_action(action)
    assert lazy.events_since(0) == eager.events_since(0)


def test_only_a_new_state_defers_its_events():
    state = recording("sticheln", 4, 1)
    state.apply_action(state.legal_actions()[0])
    with pytest.raises(TrickcoreError, match="defer"):
        state._defer_events()


@pytest.mark.parametrize("name,players", CASES)
def test_hand_events_wait_until_read_and_read_the_same_from_copies(name, players):
    state = recording(name, players, 11)
    pending = [entry for entry in state._events if entry[0] is _HANDS]
    assert len(pending) == 1, "the deal's hands are recorded as one entry, built on demand"
    clone, restored = state.clone(), pickle.loads(pickle.dumps(state))
    events, _ = state.events_since(0)
    assert not any(entry[0] is _HANDS for entry in state._events)
    for copy in (clone, restored):
        assert copy.events_since(0)[0] == events
    for seat in range(players):
        mine = [ev for ev in state.events_for(seat)[0] if ev["type"] in ("hand", "deal") and "cards" in ev]
        assert [ev["seat"] for ev in mine] == [seat], mine
        assert list(mine[0]) == ["type", "seat", "cards"]        # key order as an eager event's
        assert mine[0]["cards"] and all(isinstance(card, str) for card in mine[0]["cards"])
        others = [ev for ev in state.events_for((seat + 1) % players)[0] if ev.get("seat") == seat and "cards" in ev]
        assert not [ev for ev in others if ev["type"] in ("hand", "deal")], "a hand is private to its seat"


SUMMARIES = [("klaberjass", 2, "deal_end"), ("beim-jupiter", 3, "round_end"), ("squint", 5, "deal_end")]


@pytest.mark.parametrize("name,players,kind", SUMMARIES)
def test_summary_events_are_merged_when_read_and_read_the_same_from_copies(name, players, kind):
    """A deal's summary is kept by the game (``results``, ``last_round``) and recorded as the
    event ``{"type": kind, **summary}`` (GameState._event_of), merged only when read."""
    state = recording(name, players, 5)
    rng = random.Random(5)
    deal = state.deal_number()
    while state.deal_number() == deal:
        state.apply_action(rng.choice(state.legal_actions()))
    pending = [entry[1] for entry in state._events if entry[0] is _LATER]
    assert [kind_ for _vis, kind_, _data in pending] == [kind]
    summary = pending[0][2]
    clone, restored = state.clone(), pickle.loads(pickle.dumps(state))
    events, _ = state.events_since(0)
    assert not any(entry[0] is _LATER for entry in state._events)
    ends = [ev for vis, ev in events if ev["type"] == kind]
    assert ends == [{"type": kind, **summary}] and list(ends[0])[0] == "type"
    assert all(vis is None for vis, ev in events if ev["type"] == kind), "a summary is public"
    for copy in (clone, restored):
        assert copy.events_since(0)[0] == events
    for seat in range(players):
        assert {"type": kind, **summary} in state.events_for(seat)[0]


def test_new_game_makes_its_states_deferred_from_the_start():
    """new_game makes a state class's instance with ``_made_deferred`` set before ``__init__``
    runs (_core.new_deferred), so the deal's events are never built; a game whose factory is a
    function, not the state class, is deferred after it is made (_defer_events).  Both read the
    events a recording state has."""
    from trickcore import _core, games
    from trickcore.game import GameInfo
    from trickcore.games.reference import ReferenceState

    state = new_game("reference", 4, seed=5)
    assert state._made_deferred and not state._recording and state._events == []
    assert state.events_since(0) == recording("reference", 4, 5).events_since(0)
    with pytest.raises(TypeError, match="not a game-state class"):
        _core.new_deferred(dict, 4, None, 0)
    info = get_game("reference")
    games.register(GameInfo(name="reference-by-function", title="t", players=(4,), options=(),
                            factory=lambda n, options, seed: ReferenceState(n, options, seed)))
    try:
        made = new_game("reference-by-function", 4, seed=5)
        assert not made._made_deferred and not made._recording and made._events == []
        assert made.action_ids == [] and info.factory is ReferenceState
    finally:
        games.unregister("reference-by-function")
