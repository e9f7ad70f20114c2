"""The walker of games step by step (tournament/replay_walk.py): a recorded game walked from its
record gives, step by step, what the live game gave each seat as it was played, and every seat's
events over the walk are the whole stream the seat was sent."""

from __future__ import annotations

import random

import pytest

import trickcore
from tournament.replay_walk import SeatWatch, walk

# Short games (two deals where a game is a match), so that random play ends soon.
GAMES = [("beim-jupiter", 4, {}), ("sticheln", 3, {"rounds": 2}), ("squint", 5, {"deal_limit": 2}),
         ("klaberjass", 2, {"target": 2}), ("hattrick", 4, {})]


def _played(game: str, players: int, options: dict, seed: int) -> tuple[trickcore.GameState, list[tuple]]:
    """A seeded random game, watched live by every seat: the state at its end and each step's
    (mover, decision, legal, action, views, events) as SeatWatch gave them."""
    state = trickcore.new_game(game, players, options, seed)
    rng = random.Random(seed)
    watch = SeatWatch(state, range(players))
    first = watch.step()
    steps = [(None, None, [], None, first.views, first.events)]
    while not state.is_terminal():
        mover, decision, legal = state.current_player(), state.decision(), state.legal_action_strings()
        action = rng.choice(legal)
        state.apply_action(action)
        step = watch.step(mover, decision, legal, action)
        assert step.number == len(steps)
        steps.append((mover, decision, legal, action, step.views, step.events))
    return state, steps


@pytest.mark.parametrize("game, players, options", GAMES, ids=[f"{g}-{n}" for g, n, _ in GAMES])
@pytest.mark.parametrize("seed", [3, 17])
def test_a_recorded_game_walks_as_it_was_played(game, players, options, seed):
    played, live = _played(game, players, options, seed)
    record = played.to_record()
    state = trickcore.replay({**record, "history": []})
    walked = [(s.mover, s.decision, s.legal, s.action, s.views, s.events)
              for s in walk(state, record["history"], range(players))]
    assert len(walked) == len(record["history"]) + 1
    assert walked == live, f"{game} seed {seed}"
    assert state.is_terminal() and state.scores() == played.scores()


@pytest.mark.parametrize("game, players, options", GAMES, ids=[f"{g}-{n}" for g, n, _ in GAMES])
def test_each_seat_is_walked_with_its_own_stream_and_view(game, players, options):
    played, _ = _played(game, players, options, 5)
    record = played.to_record()
    for seat in range(players):
        state = trickcore.replay({**record, "history": []})
        steps = list(walk(state, record["history"], [seat]))
        assert all(list(step.views) == [seat] and list(step.events) == [seat] for step in steps)
        assert [e for step in steps for e in step.events[seat]] == played.events_for(seat, 0)[0]
        assert steps[-1].views[seat] == played.observation(seat)
        # A step's view is the game as the seat saw it after that many decisions.
        number = len(steps) // 2
        partial = trickcore.replay({**record, "history": record["history"][:number]})
        assert steps[number].views[seat] == partial.observation(seat)
        assert (steps[number].to_move, steps[number].next) == (partial.current_player(), partial.decision())
