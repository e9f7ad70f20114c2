"""Information (§11): for every seat and decision, the observation holds nothing the seat may not
see.  Method: build another state that differs exactly in what the seat cannot see (the other hands,
the left-over card, the others' colour cards before the reveal), consistently with everything that
happened, and check that the seat's observation is identical."""

from __future__ import annotations

import json
import random

from trickcore import _core
from trickcore.errors import CoreError

from .bj_helpers import info, new, play_random


def _moves_this_round(state):
    """(seat, move) of every card played this round, in order."""
    tp, n = state._tp, state.num_players
    out = []
    for leader, moves, *_ in tp.tricks:
        out += [((leader + i) % n, m) for i, m in enumerate(moves)]
    if not tp.over:
        leader, moves, _led, _open = tp.current_trick()
        out += [((leader + i) % n, m) for i, m in enumerate(moves)]
    return out


def alternative(state, seat: int, rng: random.Random):
    """A clone in which everything hidden from ``seat`` is dealt anew; None if the random
    re-deal contradicts what was played (then the caller tries again)."""
    n, d = state.num_players, info(state.num_players)
    alt = state.clone()
    alt._begin_edit()  # its attributes are changed directly below
    others = [q for q in range(n) if q != seat]
    hidden_colour = [q for q in others if state.colour[q] is not None and not state.revealed]
    pool = state.leftover
    for q in others:
        pool |= state.hand(q)
    for q in hidden_colour:
        pool |= 1 << state.colour[q]
    cards = d.cards(pool)
    rng.shuffle(cards)
    for q in hidden_colour:                       # a hidden colour card must be a number card
        c = next(c for c in cards if d.is_number[c])
        cards.remove(c)
        alt.colour[q] = c
    sizes = {q: _core.cards_count(state.hand(q)) for q in others}
    new_hands = {}
    for q in others:
        new_hands[q] = sum(1 << c for c in cards[:sizes[q]])
        cards = cards[sizes[q]:]
    alt.leftover = sum(1 << c for c in cards)
    if state.phase in ("colour", "bid"):
        for q in others:
            alt.hands[q] = new_hands[q]
        return alt
    # trick phase: rebuild the round's hands and replay every card played so far
    played = _moves_this_round(state)
    start_hands = [state.hand(p) for p in range(n)]
    for q in others:
        start_hands[q] = new_hands[q]
    for p, m in played:
        start_hands[p] |= 1 << (m & 127)
    tp = _core.TrickPhase(d.deck, n, _core.FOLLOW_SUIT, _core.WIN_TRUMP, state._tp.trump, start_hands,
                          state.start, state.t)
    try:
        for _p, m in played:
            tp.play(m)
    except CoreError:
        return None
    alt._tp = tp
    return alt


def check_seat(state, seat: int, rng: random.Random, stats: dict) -> None:
    obs = state.observation(seat)
    json.dumps(obs)
    for _ in range(4):
        alt = alternative(state, seat, rng)
        if alt is None:
            stats["rejected"] += 1
            continue
        assert alt.observation(seat) == obs, (state.decision(), seat)
        if state.current_player() == seat:
            assert alt.legal_actions() == state.legal_actions()
        changed = any(alt.hand(q) != state.hand(q) for q in range(state.num_players) if q != seat)
        stats["changed"] += changed
        stats["checked"] += 1
        return


def test_observation_identical_under_every_hidden_change():
    stats = {"checked": 0, "changed": 0, "rejected": 0}
    kinds = set()
    for n in (3, 4, 5):
        for seed in range(1):
            s = new(n, 500 + seed, first_dealer=1)
            rng = random.Random(seed)
            while not s.is_terminal():
                kinds.add(s.decision())
                for seat in range(n):
                    check_seat(s, seat, rng, stats)
                s.apply_action(rng.choice(s.legal_actions()))
    assert kinds == {"colour", "bid", "play"}
    assert stats["checked"] > 800 and stats["changed"] > 0.9 * stats["checked"]


def test_observation_changes_when_the_seat_could_see_the_change():
    """Not vacuous: the owner of a changed hand sees the change."""
    s = new(4, 9)
    rng = random.Random(9)
    play_random(s, rng, until=lambda st: st.decision() == "bid")
    alt = alternative(s, 0, rng)
    for q in (1, 2, 3):
        if alt.hands[q] != s.hands[q]:
            assert alt.observation(q) != s.observation(q)
            break
    else:
        raise AssertionError("no hand changed")


def test_colour_choices_stay_hidden_until_the_reveal():
    for n in (3, 4, 5):
        s = new(n, 40 + n)
        rng = random.Random(n)
        for _round in range(3):
            start = s.current_player()
            order = [(start + i) % n for i in range(n)]
            for i, p in enumerate(order):
                assert s.decision() == "colour" and s.current_player() == p
                for seat in range(n):
                    obs = s.observation(seat)
                    assert obs["trump"] is None and obs["bids"] == [None] * n
                    for q in range(n):
                        if q != seat:
                            assert obs["colour_cards"][q] is None
                    own = obs["colour_card"]
                    assert (own is not None) == (order.index(seat) < i)
                    events, _ = s.events_for(seat)
                    since = events[max(k for k, e in enumerate(events) if e["type"] == "round_start"):]
                    assert all(e.get("seat") == seat for e in since if e["type"] == "colour")
                s.apply_action(rng.choice(s.legal_actions()))
            assert s.decision() == "bid"
            for seat in range(n):
                obs = s.observation(seat)
                assert all(c is not None for c in obs["colour_cards"]) and obs["trump"] is not None
                events, _ = s.events_for(seat)
                assert events[-2]["type"] == "reveal" and events[-1]["type"] == "trump"
            play_random(s, rng, until=lambda st: st.decision() == "colour")


def test_private_events_go_to_their_owner_only():
    for n in (3, 4, 5):
        s = new(n, 77)
        play_random(s, random.Random(77))
        s._expand_plays()
        for vis, ev in s._events:
            if vis is not None:
                assert vis == frozenset([ev["seat"]]) and ev["type"] in ("deal", "colour")
        for seat in range(n):
            events, _ = s.events_for(seat)
            for ev in events:
                if ev["type"] in ("deal", "colour"):
                    assert ev["seat"] == seat
                assert "leftover" not in json.dumps(ev) and "left_over" not in json.dumps(ev)


def test_left_over_card_is_never_shown():
    d = info(4)
    seen_lamb = 0
    for seed in range(20):
        s = new(4, seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            left = d.cards(s.leftover)[0]
            if d.is_lamb[left]:
                seen_lamb += 1
            else:
                for seat in range(4):
                    view = s.observation(seat)
                    # last_trick may be the previous round's, whose cards are dealt afresh; it is
                    # always a public trick event (tests/test_conformance.py)
                    view.pop("last_trick")
                    assert f'"{d.names[left]}"' not in json.dumps(view)
            s.apply_action(rng.choice(s.legal_actions()))
