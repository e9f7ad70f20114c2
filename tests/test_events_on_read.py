"""Events formatted when read: a deal's hand events (GameState._emit_hands) and summaries
(GameState._event_of) are recorded as one entry and built when read.  Each reads exactly as if it
had been built at once, also from clones and pickled copies taken before anyone read them."""

from __future__ import annotations

import pickle
import random

import pytest

from trickcore.game import _HANDS, _LATER
from trickcore.games import list_games, new_game

CASES = [(info.name, players) for info in list_games() for players in info.players[:1]]


def recording(name, players, seed):
    """A new state of the game."""
    return new_game(name, players, None, seed)


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
    event ``{"type": kind, **summary}`` (GameState._event_of), merged (and written out from what
    the game keeps, for Klaberjass and Beim Jupiter) only when read."""
    state = recording(name, players, 5)
    rng = random.Random(5)
    deal = state.deal_number()
    while state.deal_number() == deal:
        state.apply_action(rng.choice(state.legal_actions()))
    pending = [entry[1] for entry in state._events if entry[0] is _LATER]
    assert [kind_ for _vis, kind_, _data, _write in pending] == [kind]
    _vis, _kind, data, write = pending[0]
    summary = data if write is None else write(data)
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
