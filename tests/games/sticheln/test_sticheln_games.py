"""Random full games for every player count and ruleset, with the invariants checked after
every action (card conservation, trick counts, hand sizes) and every round's scores
recomputed from the public event stream with the oracle (trick winners) and the oracle's
independent scoring."""

from __future__ import annotations

import random

import pytest

import trickcore
from trickcore import _core
from trickcore.games import sticheln as S

from . import oracle
from .helpers import cv

RULESETS = trickcore.get_game("sticheln").variants
COL = S.COLOURS


def check_invariants(state) -> None:
    n = state.num_players
    used = state.used
    phase = state.phase
    if phase == "over":
        assert state.is_terminal() and state.current_player() == -1 and state.legal_actions() == ()
        return
    assert not state.is_terminal()
    laid = 0
    for s in range(n):
        for c in state.laid[s]:
            assert not laid >> c & 1
            laid |= 1 << c
    places = [laid, state._aside]
    k_now = [len(state.laid[s]) for s in range(n)]
    if phase == "layout":
        places += state.hands
        for s in range(n):
            assert _core.cards_count(state.hands[s]) == state.hand_size - k_now[s]
    else:
        tp = state._tp
        _leader, moves, _led, _open = tp.current_trick()
        trick = sum(1 << m for m in moves)
        places += [tp.hand(s) for s in range(n)] + [tp.won(s) for s in range(n)] + [trick]
        done = tp.n_tricks_done
        assert sum(tp.tricks_won()) == done
        for s in range(n):
            assert _core.cards_count(tp.won(s)) == n * tp.tricks_won()[s]
            played_now = 1 if (s - tp.current_trick()[0]) % n < len(moves) else 0
            assert _core.cards_count(tp.hand(s)) == state.hand_size - state.k - done - played_now
            assert k_now[s] == state.k
        if phase == "colour":
            assert tp.over and done == state.n_tricks
            assert all(tp.hand(s) == 0 for s in range(n))
    total = 0
    for p in places:
        assert total & p == 0, "a card is in two places"
        total |= p
    assert total == used, "cards lost or added"
    legal = state.legal_actions()
    assert legal and list(legal) == sorted(legal)
    assert state.current_player() in range(n)


def check_scores_from_events(state) -> None:
    """Recompute every finished round from the public events alone."""
    n = state.num_players
    verkehrt, mild, late = state.flags["verkehrt"], state.flags["mild"], state.flags["verspaetet"]
    events, _ = state.events_for(0)
    public = [e for e in events if e["type"] in ("deal", "trick", "reveal", "round_end", "match_end")]
    won = None
    rounds = 0
    totals = [0] * n
    next_leader = None
    revealed_colours = None
    tricks = 0
    for e in public:
        if e["type"] == "deal":
            won = [[] for _ in range(n)]
            next_leader = e["leader"]
            revealed_colours = None
            tricks = 0
        elif e["type"] == "trick":
            assert e["leader"] == next_leader
            cards = [cv(t) for t in e["cards"]]
            assert len(cards) == n
            w = (e["leader"] + oracle.winner(cards, verkehrt)) % n
            assert e["winner"] == w
            won[w] += cards
            next_leader = w
            tricks += 1
        elif e["type"] == "reveal" and "colours" in e:
            revealed_colours = {int(s): v for s, v in e["colours"].items()}
        elif e["type"] == "round_end":
            rounds += 1
            assert tricks == state.n_tricks
            for s in range(n):
                laid = [cv(t) for t in e["laid_out"][s]]
                assert len(laid) == state.k
                special = [COL.index(c) for c in e["special_colours"][s]]
                if late:
                    present = {c for c, _v in won[s]}
                    if not won[s]:
                        assert special == [] and s not in revealed_colours
                    else:
                        assert e["special_colours"][s] == revealed_colours[s]
                        assert set(special) <= present
                        want = 2 if state.flags["verschaerft"] and len(present) >= 2 else 1
                        assert len(set(special)) == len(special) == want
                else:
                    assert sorted(special) == sorted({c for c, _v in laid})
                    if state.k == 2:
                        assert len(set(special)) == 2 or len(special) == 1
                score = oracle.score(laid, special, won[s], verkehrt, mild)
                assert e["scores"][s] == score
                totals[s] += score
            assert e["totals"] == totals
    assert rounds == len(state.round_scores)
    assert [float(t) for t in totals] == state.scores()


def run_game(n, ruleset, seed, rounds=1, every=True):
    opts = dict(S.variant_options(ruleset), rounds=rounds)
    state = trickcore.new_game("sticheln", n, opts, seed=seed)
    rng = random.Random(seed)
    limit = rounds * (n * 15 + 2 * n) + 1
    steps = 0
    while not state.is_terminal():
        if every:
            check_invariants(state)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        assert steps <= limit, "the game does not terminate"
    check_invariants(state)
    check_scores_from_events(state)
    assert len(state.round_scores) == rounds
    return state


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("n", range(3, 9))
def test_random_rounds(n, ruleset):
    """18 rulesets x 6 player counts x 20 one-round games = 2160 random rounds."""
    for seed in range(20):
        run_game(n, ruleset, seed * 1000 + n)


@pytest.mark.parametrize("ruleset", ["classic", "verkehrt+verschaerft+nebel", "mild+verschaerft+verspaetet",
                                     "verkehrt+verspaetet", "mild+nebel"])
def test_full_matches(ruleset):
    """Whole 5-round matches (rotation, totals, termination) for every player count."""
    for n in range(3, 9):
        state = run_game(n, ruleset, 77 + n, rounds=5, every=False)
        assert state.decision() == "" and len(state.history) > 0
        ends = [e for e in state.events_for(1)[0] if e["type"] == "match_end"]
        assert len(ends) == 1 and ends[0]["scores"] == [int(x) for x in state.scores()]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_soak(ruleset):
    for n in range(3, 9):
        for seed in range(40):
            run_game(n, ruleset, 10**6 + seed, rounds=2)
