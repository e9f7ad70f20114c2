"""Conformance of every registered game to the common interface (OpenSpiel's
basic_tests, for trickcore): seeded random games for every player count, checking
the contract after every action."""

from __future__ import annotations

import json
import random
import zlib

import pytest

import trickcore
from trickcore import IllegalActionError

MAX_STEPS = 1500
CASES = [(g.name, n) for g in trickcore.list_games() for n in g.players]
# Two games per case, with seeds fixed by the case's name (crc32 is the same in every process,
# unlike hash()); the seed is part of the test id, so a failure names the game to replay.
GAMES = [(name, n, zlib.crc32(f"{name}/{n}/{k}".encode())) for name, n in CASES for k in range(2)]


def _snapshot(state):
    return (json.dumps(state.to_record(), sort_keys=True),
            [json.dumps(state.observation(s), sort_keys=True) for s in range(state.num_players)])


@pytest.mark.parametrize("name,players,seed", GAMES, ids=[f"{n}-{p}p-seed{s}" for n, p, s in GAMES])
def test_random_games_follow_the_contract(name, players, seed):
    rng = random.Random(seed)
    state = trickcore.new_game(name, players, seed=seed)
    event_index = [0] * players
    steps = 0
    # Long matches (Squint to its target score with random play) are cut here; each
    # game's own tests play complete matches and check termination.
    while not state.is_terminal() and steps < MAX_STEPS:
        seat = state.current_player()
        assert 0 <= seat < players
        assert state.decision()
        legal = state.legal_actions()
        assert legal and list(legal) == sorted(legal) and len(set(legal)) == len(legal)
        texts = state.legal_action_strings()
        assert len(texts) == len(set(texts)), f"ambiguous action texts {texts}"
        for a, t in zip(legal, texts):
            assert state.string_to_action(t) == a
            assert " " not in t and t.isascii()
        if steps % 7 == 0:
            obs = state.observation(seat)
            json.dumps(obs)
            for s in range(players):
                evs, event_index[s] = state.events_for(s, event_index[s])
                json.dumps(evs)
            # Out of turn and unknown text are refused and change nothing.
            before = _snapshot(state)
            with pytest.raises(IllegalActionError):
                state.apply_action(legal[0], seat=(seat + 1) % players)
            with pytest.raises(IllegalActionError):
                state.apply_action("no-such-action")
            with pytest.raises(IllegalActionError):
                state.apply_action(max(legal) + 100_000)
            assert _snapshot(state) == before
        if steps % 50 == 0:
            copy = state.clone()
            assert _snapshot(copy) == _snapshot(state)
        action = rng.choice(legal) if rng.random() < 0.5 else rng.choice(texts)
        state.apply_action(action)
        steps += 1
    again = trickcore.replay(state.to_record())
    assert again.history == state.history and _snapshot(again) == _snapshot(state)
    if not state.is_terminal():
        return
    assert state.current_player() == trickcore.TERMINAL
    assert state.legal_actions() == () and state.decision() == ""
    scores = state.scores()
    assert len(scores) == players and len(state.ranks()) == players
    assert min(state.ranks()) == 1
    assert again.scores() == scores
    with pytest.raises(IllegalActionError):
        state.apply_action(0)


@pytest.mark.parametrize("name", sorted({n for n, _ in CASES}))
def test_bad_configuration_is_refused_clearly(name):
    info = trickcore.get_game(name)
    with pytest.raises(trickcore.GameConfigError, match="players"):
        trickcore.new_game(name, max(info.players) + 1)
    with pytest.raises(trickcore.GameConfigError, match="no option 'bogus'"):
        trickcore.new_game(name, min(info.players), {"bogus": 1})
    with pytest.raises(trickcore.GameConfigError, match="seed"):
        trickcore.new_game(name, min(info.players), seed=-1)


@pytest.mark.parametrize("name", sorted({n for n, _ in CASES}))
def test_observation_of_a_seat_that_does_not_exist_is_refused(name):
    # docs/game-interface.md: observation(seat) is defined for the game's seats only; every
    # game refuses anything else the same way (GameState._check_seat), never a core error.
    n = min(trickcore.get_game(name).players)
    state = trickcore.new_game(name, n, seed=5)
    for bad in (-1, n, True, "0"):
        with pytest.raises(ValueError, match="is not in 0.."):
            state.observation(bad)


@pytest.mark.parametrize("name", sorted({n for n, _ in CASES}))
def test_event_indices_and_records_are_checked(name):
    """docs/game-interface.md: ``start`` is 0 or an index an earlier call returned; a record
    that is not one is a GameConfigError, never a bare KeyError or TypeError."""
    state = trickcore.new_game(name, min(trickcore.get_game(name).players), seed=9)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    events, end = state.events_for(0)
    assert state.events_for(0, end) == ([], end)
    for bad in (-5, -1, end + 1, 1.5, "0", True, None):
        with pytest.raises(ValueError, match="event index"):
            state.events_for(0, bad)
        with pytest.raises(ValueError, match="event index"):
            state.events_since(bad)
    with pytest.raises(ValueError, match="seat"):
        state.events_for(state.num_players)
    for bad_record in (None, 5, [], {}, {"game": name}, {"players": 3}, "not json", "[1, 2]",
                       {"game": name, "players": state.num_players, "history": "AS"}):
        with pytest.raises(trickcore.GameConfigError):
            trickcore.replay(bad_record)


@pytest.mark.parametrize("name", sorted({n for n, _ in CASES}))
def test_a_views_scores_are_the_states_scores(name):
    """docs/game-interface.md: a view's ``scores`` are the match totals exactly as ``scores()``
    gives them (floats), for every seat, during the game and at its end."""
    state = trickcore.new_game(name, min(trickcore.get_game(name).players), seed=4)
    rng = random.Random(4)
    for step in range(1500):
        if step % 25 == 0 or state.is_terminal():
            for seat in range(state.num_players):
                view = state.observation(seat)
                if "scores" in view:
                    assert view["scores"] == state.scores()
                    assert all(isinstance(x, float) for x in view["scores"])
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_the_last_trick_stays_in_view_into_the_next_deal(name, players):
    """docs/game-interface.md: every view's ``last_trick`` is the most recent "trick" event,
    so the last trick of a deal is still shown at the next deal's first decisions."""
    crossed = 0  # decisions seen in a new deal while the old deal's last trick was shown
    for seed in range(6, 12):  # a match can end after one deal; play on until some did not
        state = trickcore.new_game(name, players, seed=seed)
        rng = random.Random(seed)
        cursor, last_event, hand_size = 0, None, 0
        while True:
            events, cursor = state.events_for(0, cursor)
            for event in events:
                if event["type"] == "trick":
                    last_event = {k: event[k] for k in ("leader", "cards", "winner", "winner2", "next_leader")
                                  if k in event}
            for seat in range(players):
                assert state.observation(seat)["last_trick"] == last_event
            size = len(state.observation(0).get("hand") or ())  # no hand in a finished match
            if last_event is not None and size > hand_size:
                crossed += 1  # seat 0's hand grew: a new deal
            hand_size = size
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if crossed or name == "reference":  # the reference game is a single deal
            break
    assert crossed or name == "reference", "no game went on to a second deal"


def _full_snapshot(state):
    """Everything the interface shows: record, every seat's view and events, the decision."""
    return (_snapshot(state), [state.events_for(s)[0] for s in range(state.num_players)],
            state.events_since(0)[1], state.legal_actions(), state.current_player(), state.is_terminal())


def _play(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_clones_are_independent_copies(name, players):
    """docs/game-interface.md: ``clone()`` is an independent copy.  Clones share the game's
    attributes until one of them changes (copy-on-write), so both sides are driven apart here,
    through card plays and every other decision, and each must equal a fresh replay of its own
    history."""
    seed = zlib.crc32(f"clone/{name}/{players}".encode())
    state = trickcore.new_game(name, players, seed=seed)
    rng = random.Random(seed)
    for round_no in range(12):
        _play(state, rng, rng.randrange(1, 40))
        if state.is_terminal():
            break
        before = _full_snapshot(state)
        copies = [state.clone() for _ in range(3)]
        assert all(_full_snapshot(c) == before for c in copies)
        _play(copies[0], random.Random(round_no), 60)          # one copy runs ahead,
        copies[1].observation(0)                                # one is only looked at,
        _play(copies[2], random.Random(round_no + 100), 5)      # one takes a few steps
        assert _full_snapshot(state) == before                  # the original is untouched
        assert _full_snapshot(copies[1]) == before
        for c in (copies[0], copies[2]):
            assert _full_snapshot(c) == _full_snapshot(trickcore.replay(c.to_record()))


@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_states_pickle_and_play_on_alike(name, players):
    """docs/game-interface.md: a state survives ``pickle`` (for multiprocessing and cluster
    workers): the loaded state shows the same observations, history and events, and the same
    actions give the same future."""
    import pickle

    seed = zlib.crc32(f"pickle/{name}/{players}".encode())
    state = trickcore.new_game(name, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(8):
        _play(state, rng, rng.randrange(1, 50))
        state.events_for(0)                       # expanded and unexpanded event lists alike
        loaded = pickle.loads(pickle.dumps(state))
        assert type(loaded) is type(state) and _full_snapshot(loaded) == _full_snapshot(state)
        shared = state.clone()                    # a clone that still shares its attributes
        assert _full_snapshot(pickle.loads(pickle.dumps(shared))) == _full_snapshot(state)
        future = random.Random(seed + 1)
        _play(loaded, future, 80)
        _play(shared, random.Random(seed + 1), 80)
        assert _full_snapshot(loaded) == _full_snapshot(shared)
        if state.is_terminal():
            break
