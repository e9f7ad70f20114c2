"""Random full games of Beim Jupiter for 3, 4 and 5 players: invariants after every action, scores
rebuilt from the recorded tricks, replay and clone independence, bad actions, options."""

from __future__ import annotations

import json
import random

import pytest

import trickcore
from trickcore import _core
from trickcore.games import beim_jupiter as bj

from .bj_helpers import check_events_replay_scores, check_invariants, info, new, play_random, to_decision

FULL_CHECK_GAMES = 60       # per player count, invariants after every action
LIGHT_GAMES = 600           # per player count, invariants at every decision kind change + at the end


def expected_actions(n: int) -> int:
    return sum(2 * n + n * (13 - r) for r in range(1, 9))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_games_invariants_after_every_action(n):
    for seed in range(FULL_CHECK_GAMES):
        s = new(n, seed, first_dealer=seed % n)
        check_invariants(s)
        play_random(s, random.Random(seed), check=check_invariants)
        assert s.is_terminal() and s.round == 8
        assert len(s.history) == expected_actions(n)
        check_events_replay_scores(s)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_games_many_seeds(n):
    """Thousands of games in total across the counts: terminate, conserve cards, score right."""
    totals = [0.0] * n
    for seed in range(1000, 1000 + LIGHT_GAMES):
        s = new(n, seed)
        rng = random.Random(seed)
        kind = None
        while not s.is_terminal():
            if s.decision() != kind:
                kind = s.decision()
                check_invariants(s)
            s.apply_action(rng.choice(s.legal_actions()))
        check_invariants(s)
        assert len(s.history) == expected_actions(n)
        check_events_replay_scores(s)
        assert s.ranks() == trickcore.game.competition_ranks(s.scores())
        totals = [a + b for a, b in zip(totals, s.scores())]
    assert all(t > 0 for t in totals)


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_games_soak(n):
    for seed in range(100000, 103000):
        s = new(n, seed)
        play_random(s, random.Random(seed), check=check_invariants)
        check_events_replay_scores(s)


def test_dealer_rotation_and_start_player():
    for n in (3, 4, 5):
        for fd in range(n):
            s = new(n, 5, first_dealer=fd)
            rng = random.Random(5)
            for r in range(1, 9):
                play_random(s, rng, until=lambda st, r=r: st.round == r)
                assert s.dealer == (fd + r - 1) % n and s.start == (fd + r) % n
                assert s.current_player() == s.start and s.decision() == "colour"
                play_random(s, rng, until=lambda st: st.decision() == "bid")
                assert s.current_player() == s.start
                play_random(s, rng, until=lambda st: st.decision() == "play")
                assert s.current_player() == s.start           # the start player leads


def test_colour_cards_leave_the_deck_for_good():
    """Rule 5.1 / 3.3: later rounds never deal a card selected as a colour card earlier."""
    s = new(4, 17)
    rng = random.Random(17)
    selected = 0
    for r in range(1, 9):
        play_random(s, rng, until=lambda st, r=r: st.round == r)
        dealt = sum(s.hand(p) for p in range(4)) | s.leftover
        assert dealt & selected == 0
        assert dealt | selected == info(4).all
        play_random(s, rng, until=lambda st: st.decision() == "bid")
        selected |= sum(1 << c for c in s.colour)


# ---- replay and clones ---------------------------------------------------------------------------
def test_replay_gives_the_same_state_history_and_scores():
    for n in (3, 4, 5):
        for seed in range(5):
            s = new(n, seed, first_dealer=(seed + 1) % n)
            rng = random.Random(seed)
            for stop in (0, 7, 40, 200, None):
                if stop is None:
                    play_random(s, rng)
                else:
                    while len(s.history) < stop and not s.is_terminal():
                        s.apply_action(rng.choice(s.legal_actions()))
                r = trickcore.replay(s.to_record())
                assert r.history == s.history and r.action_ids == s.action_ids
                assert r.scores() == s.scores() and r.ranks() == s.ranks()
                for seat in range(n):
                    assert r.observation(seat) == s.observation(seat)
                    assert r.events_for(seat) == s.events_for(seat)
                assert r.legal_actions() == s.legal_actions()
                r2 = trickcore.replay(json.loads(s.to_string()))
                assert r2.observation(0) == s.observation(0)


def test_replay_from_action_ids_and_text_agree():
    s = new(4, 3)
    play_random(s, random.Random(3))
    t = new(4, 3)
    for a in s.action_ids:
        t.apply_action(a)
    assert t.history == s.history and t.scores() == s.scores()
    assert "LAMB" in s.history and not any(h.startswith("LAMB") and h != "LAMB" for h in s.history)


def test_clone_is_independent():
    s = to_decision(4, 9, 2, "bid")
    c = s.clone()
    before = (s.to_record(), [s.observation(p) for p in range(4)])
    play_random(c, random.Random(1))
    assert c.is_terminal()
    assert (s.to_record(), [s.observation(p) for p in range(4)]) == before
    play_random(s, random.Random(1))
    assert s.history == c.history and s.scores() == c.scores()
    # a clone in the middle of the trick phase
    s = to_decision(5, 9, 3, "play")
    s.apply_action(s.legal_actions()[0])
    c = s.clone()
    c.apply_action(c.legal_actions()[-1])
    assert len(s.history) + 1 == len(c.history)
    assert s._tp.trick_len + 1 == c._tp.trick_len


def test_observations_are_json_serialisable():
    s = new(5, 2)
    rng = random.Random(2)
    while not s.is_terminal():
        for p in range(5):
            json.dumps(s.observation(p))
        json.dumps(s.events_for(0)[0][-3:])
        s.apply_action(rng.choice(s.legal_actions()))
    json.dumps(s.observation(0))
    assert s.decision() == "" and s.current_player() == trickcore.TERMINAL and s.legal_actions() == ()


# ---- bad actions ---------------------------------------------------------------------------------
def snapshot(s):
    return (s.to_record(), [s.observation(p) for p in range(s.num_players)], s.legal_actions(),
            s.events_for(0)[1])


@pytest.mark.parametrize("kind", ["colour", "bid", "play"])
def test_bad_actions_raise_and_leave_the_state_unchanged(kind):
    s = to_decision(4, 12, 2, kind)
    if kind == "play":
        s.apply_action(s.legal_actions()[0])          # inside a trick
    before = snapshot(s)
    d = info(4)
    p = s.current_player()
    legal = s.legal_action_strings()
    hand = d.texts(s.hand(p))
    not_held = next(d.names[c] for c in range(d.n_cards)
                    if not (s.hand(p) >> c) & 1 and d.is_number[c])
    bad = ["", "XYZ", "R99", "R0", "3+X", "+L", "ZERO+L", "Rgod=7", "Rgod", "R5=15", "LAMB2x", "13", "0",
           not_held, 999999, -1, 2**40, True, None, 3.5, b"R5"]
    if kind == "colour":
        bad += [c for c in hand if c.endswith("god") or c in ("JUP", "JUNO", "LAMB")]
        bad += ["3", "ZERO"]
    elif kind == "bid":
        bad += ["12", "11+L", hand[0]]
    else:
        bad += [c for c in hand if c not in legal and not c.endswith("god")] + ["3", "ZERO", "3+L"]
        bad += [a + 256 for a in s.legal_actions()]
    for a in bad:
        if a in legal:
            continue
        with pytest.raises(trickcore.IllegalActionError) as err:
            s.apply_action(a)
        assert str(err.value)
        assert snapshot(s) == before, a
    # out of turn, with a legal action of the seat to move
    for other in range(4):
        if other != p:
            with pytest.raises(trickcore.IllegalActionError, match="out of turn"):
                s.apply_action(legal[0], seat=other)
            with pytest.raises(trickcore.IllegalActionError, match="out of turn"):
                s.apply_action(s.legal_actions()[0], seat=other)
    assert snapshot(s) == before
    s.apply_action(legal[0], seat=p)                  # the seat to move may say who it is


def test_huge_action_id_is_an_illegal_action_error():
    for kind in ("colour", "bid", "play"):
        s = to_decision(4, 12, 1, kind)
        before = snapshot(s)
        for a in (10**30, -(10**30), 2**63):
            with pytest.raises(trickcore.IllegalActionError):
                s.apply_action(a)
        assert snapshot(s) == before


def test_error_message_names_the_legal_set():
    s = to_decision(4, 12, 2, "bid")
    with pytest.raises(trickcore.IllegalActionError) as err:
        s.apply_action("12+L")
    assert "11+L" in str(err.value) and "ZERO" in str(err.value)
    s = to_decision(4, 12, 1, "colour")
    with pytest.raises(trickcore.IllegalActionError) as err:
        s.apply_action("bogus")
    assert "bogus" in str(err.value)


def test_terminal_state_rejects_actions():
    s = new(3, 1)
    play_random(s, random.Random(1))
    before = snapshot(s)
    with pytest.raises(trickcore.IllegalActionError, match="over"):
        s.apply_action("R1")
    with pytest.raises(trickcore.IllegalActionError):
        s.apply_action(0)
    assert snapshot(s) == before


def test_options_and_player_counts():
    for n in (3, 4, 5):
        assert new(n, 0).dealer == 0
        assert new(n, 0, first_dealer=n - 1).start == 0
        with pytest.raises(trickcore.GameConfigError):
            new(n, 0, first_dealer=n)
    for n in (2, 6):
        with pytest.raises(trickcore.GameConfigError):
            new(n, 0)
    with pytest.raises(trickcore.GameConfigError):
        trickcore.new_game("beim-jupiter", 4, {"variant": "x"})
    info_ = trickcore.get_game("beim-jupiter")
    assert info_.players == (3, 4, 5) and [o.name for o in info_.options] == ["first_dealer"]
    assert trickcore.get_game("beim_jupiter") is info_


def test_action_ids_and_texts_round_trip():
    for n in (3, 4, 5):
        s = new(n, 4)
        rng = random.Random(4)
        while not s.is_terminal():
            for a in s.legal_actions():
                text = s.action_to_string(a)
                assert " " not in text and text.isascii()
                assert s.string_to_action(text) == a
            s.apply_action(rng.choice(s.legal_actions()))
    s = new(4, 0)
    assert s.action_to_string(bj.ZERO) == "ZERO"
    assert s.action_to_string(bj.BID_BASE + 3) == "3" and s.action_to_string(bj.LOCK_BASE + 3) == "3+L"
    assert s.action_to_string(bj.COLOUR_BASE + info(4).deck.card_id("R11")) == "R11"
    assert s.action_to_string(info(4).deck.card_id("Rgod") | 128) == "Rgod=15"
    for lamb in info(4).lambs:
        assert s.action_to_string(lamb) == "LAMB"


def test_core_trick_counts_match_the_recorded_tricks():
    s = to_decision(4, 30, 4, "play")
    rng = random.Random(30)
    play_random(s, rng, until=lambda st: st.decision() == "play" and st._tp.tricks_left == 1
                and st._tp.trick_len == 3)
    tp = s._tp
    k = [0] * 4
    pts = [0] * 4
    for _leader, moves, win, _w2, _nx, p in tp.tricks:
        k[win] += 1
        pts[win] += sum(info(4).value[m & 127] for m in moves)
        assert p == sum(info(4).value[m & 127] for m in moves)
    assert k == tp.tricks_won() and pts == tp.points_won()
    assert _core.cards_count(sum(s.hand(p) for p in range(4))) == 1
