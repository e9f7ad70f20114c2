"""Tensors written straight from a state (``Encoding.state_tensor``, the compiled encoders of
trickcore/encodings/_fast.pyx) equal the tensors built from the view dict
(``Encoding.tensor(state.observation(seat))``, the readable definition), bit for bit: at every
decision of seeded random matches of every game, player count and variant, for every seat, into
a reused buffer full of garbage; on states seen for the first time mid-trick (clones, pickled
copies), seen only now and then, many at once, whose history holds no card moves, and after an
action other than a card play or an edit in the middle of a trick phase (the game's blocks kept
while cards are played are then written anew)."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

import trickcore
from trickcore.encodings import base, encoding

from .configs import CONFIGS, config_id, random_states

compiled = pytest.mark.skipif(base.FAST is None, reason="built without the compiled encoders "
                                                        "(TRICKCORE_PURE_PYTHON=1)")


def assert_same(enc, state, seat, out):
    """The state's tensor, written into ``out`` (garbage first), is the view's, bit for bit."""
    want = enc.tensor(state.observation(seat))
    out.fill(np.nan)
    got = enc.state_tensor(state, seat, out)
    assert got is out
    if not np.array_equal(got.view(np.uint32), want.view(np.uint32)):
        wrong = [(f.name, int(i) - f.offset, float(want[i]), float(got[i]))
                 for i in np.flatnonzero(got.view(np.uint32) != want.view(np.uint32))[:8]
                 for f in enc.fields if f.offset <= i < f.offset + f.size]
        raise AssertionError(f"seat {seat} at a {state.decision()!r} decision, actions {state.action_ids}: "
                             f"(block, index, view, state) {wrong}")


@compiled
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_decision_of_random_matches(config):
    """Seeded matches until 2,000 tensors are checked: every decision, every seat."""
    game, n, options = config
    enc = encoding(game, n, options)
    assert enc.fast is not None and enc.state_tensor == enc.fast.encode
    out = np.empty(enc.size, np.float32)
    checked = seed = 0
    while checked < 2000:
        seed += 1
        for state in random_states(game, n, options, seed=seed):
            for seat in range(n):
                assert_same(enc, state, seat, out)
                checked += 1


@compiled
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_states_seen_now_and_then_and_copies_seen_first_mid_trick(config):
    """Every seventh decision only (several tricks complete between two tensors), and at every
    third decision a clone and a pickled copy, whose trick phases the encoder meets mid-trick."""
    game, n, options = config
    enc = encoding(game, n, options)
    out = np.empty(enc.size, np.float32)
    rng = random.Random(7)
    for state in random_states(game, n, options, seed=70, every=7):
        assert_same(enc, state, rng.randrange(n), out)
    for k, state in enumerate(random_states(game, n, options, seed=71, every=3)):
        copy = state.clone() if k % 2 else pickle.loads(pickle.dumps(state))
        for seat in range(n):
            assert_same(enc, copy, seat, out)


@compiled
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_history_is_not_read(config):
    """Nothing in a view depends on the history's action ids, and the tensors read the trick
    phase itself: a copy whose history holds none of its moves has the same tensors."""
    game, n, options = config
    enc = encoding(game, n, options)
    out = np.empty(enc.size, np.float32)
    for state in random_states(game, n, options, seed=90, every=2):
        copy = state.clone()
        copy._actions = [999] * len(copy._actions)      # no action id of any game
        for seat in range(n):
            assert_same(enc, copy, seat, out)
            assert_same(enc, state, seat, out)


@compiled
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_many_matches_at_once(config):
    """Random matches played side by side with one encoding (as vectorized environments do):
    the tensor of the seat to move at every step of each, more trick phases at once than the
    encoder keeps game blocks for (Sticheln, 300 matches)."""
    game, n, options = config
    enc = encoding(game, n, options)
    out = np.empty(enc.size, np.float32)
    width = 300 if config == CONFIGS[-1] else 12
    matches = [random_states(game, n, options, seed=1000 + k) for k in range(width)]
    while matches:
        for match in list(matches):
            state = next(match, None)
            if state is None:
                matches.remove(match)
            else:
                assert_same(enc, state, max(state.current_player(), 0), out)


@compiled
@pytest.mark.parametrize("game, n, options", [("sticheln", 5, {"rounds": 1}), ("beim-jupiter", 4, {}),
                                              ("hattrick", 4, {"games": 1}), ("squint", 5, {"deal_limit": 1}),
                                              ("klaberjass", 3, {"max_deals": 2})])
def test_an_action_other_than_a_card_play_or_an_edit_mid_trick_phase_is_seen(game, n, options):
    """The game's blocks are kept from one tensor to the next while only cards are played; a
    change of them mid-phase, by an action that plays no card (emulated: the dealer moves and
    the history grows by one action) or by an edit announced with ``_begin_edit``, shows at once."""
    enc = encoding(game, n, options)
    out = np.empty(enc.size, np.float32)
    seen = 0
    for state in random_states(game, n, options, seed=21, every=2):
        if state.decision() != "play" or state.current_player() < 0:
            continue
        for seat in range(n):
            assert_same(enc, state, seat, out)           # kept for every seat
        for how in ("action", "edit"):
            edited = state.clone()
            for seat in range(n):
                enc.state_tensor(edited, seat, out)
            if how == "edit":
                edited._begin_edit()
            else:
                edited._actions.append(999)
            edited.dealer = (edited.dealer + 1) % n      # a clone's own attribute (copy-on-write)
            for seat in range(n):
                assert_same(enc, edited, seat, out)
        seen += 1
    assert seen > 5


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_tricks_won_block_holds_the_views_tricks_won(config):
    game, n, options = config
    enc = encoding(game, n, options)
    for state in random_states(game, n, options, seed=5, every=3):
        for seat in range(n):
            won = state.observation(seat).get("tricks_won")
            if won:
                tensor = enc.state_tensor(state, seat)
                assert list(enc.views(tensor)["tricks_won"]) == [won[(seat + r) % n] for r in range(n)]


@compiled
def test_arguments_are_checked():
    enc = encoding("reference", 4)
    state = trickcore.new_game("reference", 4, seed=1)
    for seat in (-1, 4, True, 1.0, "1"):
        with pytest.raises(ValueError):
            enc.state_tensor(state, seat)
    with pytest.raises(TypeError):
        enc.state_tensor(trickcore.new_game("hattrick", 4, seed=1), 0)
    with pytest.raises(ValueError):
        encoding("hattrick", 5).state_tensor(trickcore.new_game("hattrick", 4, seed=1), 0)
    for out in (np.zeros(enc.size, np.float64), np.zeros(enc.size + 1, np.float32),
                np.zeros((2, enc.size), np.float32)[:, 0]):
        with pytest.raises((ValueError, BufferError)):
            enc.state_tensor(state, 0, out)
    tensor = enc.state_tensor(state, 0)
    assert tensor.dtype == np.float32 and tensor.shape == enc.shape


def test_without_the_compiled_encoders_tensors_come_from_the_views(monkeypatch):
    """A pure-Python build (TRICKCORE_PURE_PYTHON=1) has no _fast module: state_tensor is then
    tensor(state.observation(seat))."""
    monkeypatch.setattr(base, "FAST", None)
    enc = type(encoding("sticheln", 4))(4, encoding("sticheln", 4).options)
    assert enc.fast is None
    for state in random_states("sticheln", 4, {"rounds": 1}, seed=4, every=9):
        assert np.array_equal(enc.state_tensor(state, 1), enc.tensor(state.observation(1)))


@compiled
def test_encodings_copy_as_themselves_and_pickle_by_configuration():
    """OpenSpiel deep-copies games, which hold their encoding; pickling rebuilds it."""
    import copy
    enc = encoding("klaberjass", 3, {"max_deals": 2})
    assert copy.copy(enc) is enc and copy.deepcopy(enc) is enc
    again = pickle.loads(pickle.dumps(enc))
    state = next(random_states("klaberjass", 3, {"max_deals": 2}, seed=3, every=40))
    assert again.options == enc.options and np.array_equal(again.state_tensor(state, 2), enc.state_tensor(state, 2))
    with pytest.raises(TypeError):
        pickle.dumps(enc.fast)
