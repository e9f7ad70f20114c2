"""Information (§7.1): for every seat and decision, the observation and the seat's event
stream are unchanged when every card the seat may not see (other hands, hidden laid-out
cards, the cards set aside) is re-dealt differently, and hidden choices stay hidden until
all players have chosen."""

from __future__ import annotations

import json
import random

import pytest

import trickcore
from trickcore import _core
from trickcore.games import sticheln as S

RULESETS = trickcore.get_game("sticheln").variants


def view(state, seat):
    return json.dumps(state.observation(seat), sort_keys=True), json.dumps(state.events_for(seat)[0], sort_keys=True)


def replay_ids(n, options, seed, ids):
    st = trickcore.new_game("sticheln", n, options, seed)
    starts = {1: 0}
    for i, a in enumerate(ids):
        st.apply_action(a)
        starts.setdefault(st.round, i + 1)
    return st, starts


def unseen(state, seat):
    """Cards of the current round the seat has not seen."""
    out = state._aside
    n = state.num_players
    for t in range(n):
        if t == seat:
            continue
        if state.phase == "layout":
            out |= state.hands[t]
        elif state.phase == "play":
            out |= state._tp.hand(t)
        if not state.revealed:
            for c in state.laid[t]:
                out |= 1 << c
    return out


def map_action(a, pi):
    if S.LAYOUT <= a < S.LAYOUT + S.N_CARDS:
        return S.LAYOUT + pi.get(a - S.LAYOUT, a - S.LAYOUT)
    if a >= S.CARD_PAIR:
        x, y = divmod(a - S.CARD_PAIR, 128)
        x, y = sorted((pi.get(x, x), pi.get(y, y)))
        return S.CARD_PAIR + x * 128 + y
    if a < S.N_CARDS:
        assert a not in pi, "a played card cannot be unseen"
    return a


def altered(monkeypatch, state, seat, rng, keep_colours=False):
    """The same game with the seat's unseen cards of the current round permuted."""
    n, opts, seed = state.num_players, state.options, state.seed
    ids = list(state.action_ids)
    _st, starts = replay_ids(n, opts, seed, ids)
    rnd = state.round
    u = _core.cards_list(unseen(state, seat))
    if keep_colours:
        pi = {}
        for col in range(6):
            group = [c for c in u if S.CARD_COLOUR[c] == col]
            perm = group[:]
            rng.shuffle(perm)
            pi.update(zip(group, perm))
    else:
        perm = u[:]
        rng.shuffle(perm)
        pi = dict(zip(u, perm))
    real = S._deal

    def fake(sd, r, used, nn, hand):
        hands, aside = real(sd, r, used, nn, hand)
        if r != rnd:
            return hands, aside
        remap = lambda m: sum(1 << pi.get(c, c) for c in _core.cards_list(m))  # noqa: E731
        return [remap(h) for h in hands], remap(aside)

    new_ids = ids[:starts[rnd]] + [map_action(a, pi) for a in ids[starts[rnd]:]]
    with monkeypatch.context() as m:
        m.setattr(S, "_deal", fake)
        st = trickcore.new_game("sticheln", n, opts, seed)
        for a in new_ids:
            st.apply_action(a)
        # a different consistent world: the seat's own cards are untouched
        assert st.observation(seat)["hand"] == state.observation(seat)["hand"]
        return st, view(st, seat), pi


def check_position(monkeypatch, state, seat, rng):
    before = view(state, seat)
    keep = False
    for attempt in range(12):
        try:
            _st, after, _pi = altered(monkeypatch, state, seat, rng, keep_colours=keep)
        except trickcore.IllegalActionError:  # a permuted verschaerft pair became one colour
            keep = attempt >= 5
            continue
        assert after == before
        return
    pytest.fail("no consistent re-deal found")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("n", [3, 4, 7, 8])
def test_observation_independent_of_unseen_cards(monkeypatch, n, ruleset):
    rng = random.Random(n * 31 + len(ruleset))
    opts = dict(S.variant_options(ruleset), rounds=2)
    state = trickcore.new_game("sticheln", n, opts, seed=n + 100)
    total = 2 * (S.SETUP[n][2] * n + 2 * n)
    checkpoints = set(rng.sample(range(total // 2), 4)) | {1, n - 1, n + 3}
    k = 0
    while not state.is_terminal():
        if k in checkpoints or (state.phase == "colour"):
            for seat in range(n):
                check_position(monkeypatch, state, seat, rng)
        state.apply_action(rng.choice(state.legal_actions()))
        k += 1


@pytest.mark.parametrize("ruleset", [r for r in RULESETS if "verspaetet" not in r])
def test_layout_hidden_until_all_chose(ruleset):
    n = 4
    opts = dict(S.variant_options(ruleset), rounds=1)
    state = trickcore.new_game("sticheln", n, opts, seed=9)
    nebel = opts["nebel"]
    first = state.current_player()
    chosen = []
    while state.decision() == "layout":
        seat = state.current_player()
        action = state.legal_actions()[-1]
        state.apply_action(action)
        chosen.append(seat)
        text = state.action_to_string(action)
        for other in range(n):
            obs = state.observation(other)
            assert obs["chosen"][seat] if state.decision() == "layout" else True
            evs = json.dumps(state.events_for(other)[0])
            if other != seat and (state.decision() == "layout" or nebel):
                assert obs["laid_out"][seat] is None and obs["special_colours"][seat] is None
                for card in text.split("+"):
                    assert f'"{card}"' not in evs and f'"{card}"' not in json.dumps(obs)
            else:
                assert obs["laid_out"][seat] == text.split("+")
    assert first == 0 and chosen == [0, 1, 2, 3]
    reveals = [e for e in state.events_for(2)[0] if e["type"] == "reveal"]
    assert (len(reveals) == 0) == nebel
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    reveals = [e for e in state.events_for(2)[0] if e["type"] == "reveal"]
    assert len(reveals) == 1 and len(reveals[0]["laid_out"]) == n


@pytest.mark.parametrize("ruleset", [r for r in RULESETS if "verspaetet" in r])
def test_colour_choice_hidden_until_all_chose(ruleset):
    for seed in range(5):
        state = trickcore.new_game("sticheln", 5, dict(S.variant_options(ruleset), rounds=1), seed=seed)
        rng = random.Random(seed)
        while state.decision() != "colour":
            state.apply_action(rng.choice(state.legal_actions()))
        choosers = list(state.asked)
        assert choosers == [s for s in range(5) if state._tp.won(s)]
        for s in range(5):
            obs = state.observation(s)
            assert obs["won"] == [S.names(_core.cards_list(state._tp.won(t))) for t in range(5)]
        done = []
        while state.decision() == "colour":
            seat = state.current_player()
            legal = state.legal_actions()
            state.apply_action(legal[0])
            done.append((seat, state.action_to_string(legal[0])))
            if state.decision() == "colour":
                for other in range(5):
                    obs = state.observation(other)
                    for s2, text in done:
                        assert obs["chosen"][s2]
                        if s2 != other:
                            assert obs["colour_choice"][s2] is None
                        else:
                            assert obs["colour_choice"][s2] == text.split("+")
                    evs = state.events_for(other)[0]
                    assert not [e for e in evs if e["type"] == "colour" and e["seat"] != other]
                    assert not [e for e in evs if e["type"] == "reveal" and "colours" in e]
        reveal = [e for e in state.events_for(0)[0] if e["type"] == "reveal"]
        assert reveal and {int(k): "+".join(v) for k, v in reveal[0]["colours"].items()} == dict(done)


def test_aside_cards_never_seen():
    for n in (7, 8):
        for seed in range(5):
            state = trickcore.new_game("sticheln", n, {"rounds": 1}, seed=seed)
            aside = S.names(_core.cards_list(state._aside))
            assert len(aside) == S.SETUP[n][3]
            rng = random.Random(seed)
            while True:
                for seat in range(n):
                    text = json.dumps([state.observation(seat), state.events_for(seat)[0]])
                    for name in aside:
                        assert f'"{name}"' not in text
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
