"""The encodings of every game (trickcore.encodings): the dense action space holds every legal
action, masks match the legal sets, tensors have their documented shape and blocks, and a seat's
tensor and strings do not change when cards it may not see change (re-dealt as in the games'
information tests, and in the worlds the engine samples for the seat) - the tensor written
straight from the state (``state_tensor``) and the tests' oracle built from the view
(view_tensors.py) alike."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

import trickcore
from trickcore.encodings import encoded_games, encoding
from trickcore.integrations.worlds import world

from .configs import CONFIGS, config_id, random_states
from .view_tensors import view_tensor


def test_every_registered_game_has_an_encoding():
    assert {info.name for info in trickcore.list_games()} == set(encoded_games())


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_blocks_tile_the_tensor_and_every_dense_action_is_an_action(config):
    game, n, options = config
    enc = encoding(game, n, options)
    offset = 0
    for block in enc.fields:
        assert block.offset == offset, block.name
        offset += block.size
    assert offset == enc.size and enc.shape == (enc.size,)
    assert len({b.name for b in enc.fields}) == len(enc.fields)
    assert list(enc.action_ids) == sorted(set(enc.action_ids))
    probe = trickcore.new_game(game, n, options, seed=0)
    for i, action in enumerate(enc.action_ids):
        assert enc.index_of(action) == i and enc.action_of(i) == action
        probe.action_to_string(action)           # a ValueError for an id that is no action
    for group in enc._shared.values():            # alike cards (lambs): one move, one text
        assert len({probe.action_to_string(a) for a in group}) == 1
    with pytest.raises(ValueError):
        enc.action_of(enc.num_distinct_actions)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_masks_and_tensors_over_a_random_match(config):
    """Seeded random match (seed 11): at every decision the mask is exactly the legal set, and
    every seat's tensor holds its hand, the open trick and the scores where the blocks say."""
    game, n, options = config
    enc = encoding(game, n, options)
    bound = enc.value_bound()
    decisions = set()
    buffer = np.zeros(enc.size, np.float32)
    for state in random_states(game, n, options, seed=11):
        mask = enc.legal_mask(state)
        assert mask.dtype == np.int8 and mask.shape == (enc.num_distinct_actions,)
        if state.is_terminal():
            assert not mask.any()
        else:
            assert [enc.action_of(i, state) for i in np.flatnonzero(mask)] == list(state.legal_actions())
            decisions.add(state.decision())
        for seat in range(n):
            obs = state.observation(seat)
            tensor = enc.state_tensor(state, seat)
            assert tensor.dtype == np.float32 and tensor.shape == enc.shape
            assert np.all(np.abs(tensor) <= bound)
            assert np.array_equal(enc.state_tensor(state, seat, out=buffer), tensor)
            views = enc.views(tensor)
            hand = {enc.card_index[c] for c in obs.get("hand") or ()}
            assert set(np.flatnonzero(views["hand"])) == hand
            if obs.get("scores"):
                assert list(views["scores"]) == [obs["scores"][(seat + r) % n] for r in range(n)]
            trick = obs.get("trick")
            if trick and trick.get("cards"):
                first = (trick["leader"] - seat) % n
                assert views["trick"][first, enc.card_index[trick["cards"][0]]] == 1
                assert views["trick_leader"][first] == 1
            mover = state.current_player()
            assert list(views["to_move"]) == [float(mover >= 0 and (seat + r) % n == mover) for r in range(n)]
    assert decisions <= set(enc.DECISIONS)
    assert decisions, "the match had no decision"


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_tensor_and_strings_are_the_same_in_every_world_of_the_seat(config):
    """Worlds (seed 3) agree with everything the seat knows and move what it cannot see; the
    seat's tensor, observation string and information-state string must not move with them,
    while the other seats' tensors do (their hands changed)."""
    game, n, options = config
    enc = encoding(game, n, options)
    checked = moved = 0
    for k, state in enumerate(random_states(game, n, options, seed=3, every=5)):
        if state.is_terminal():
            continue
        for seat in range(n):
            obs = state.observation(seat)
            tensor, info = view_tensor(enc, obs), enc.information_state_string(state, seat)
            assert np.array_equal(enc.state_tensor(state, seat), tensor), (k, seat)
            for j in range(2):
                w = world(state, seat, seed=1000 * k + 10 * seat + j)
                assert np.array_equal(view_tensor(enc, w.observation(seat)), tensor), (k, seat)
                assert np.array_equal(enc.state_tensor(w, seat), tensor), (k, seat)
                assert enc.observation_string(w.observation(seat)) == enc.observation_string(obs)
                assert enc.information_state_string(w, seat) == info
                checked += 1
                moved += any(not np.array_equal(enc.state_tensor(w, q), enc.state_tensor(state, q))
                             for q in range(n) if q != seat)
    assert checked and moved > checked // 2, (checked, moved)


# ---- the games' own re-deal tests, applied to the tensors --------------------------------------------
def _same_for_seat(enc, state, other, seat):
    """The seat's tensor (from the view and from the state) is the same in ``other``; whether
    another seat's changed."""
    tensor = view_tensor(enc, state.observation(seat))
    assert np.array_equal(view_tensor(enc, other.observation(seat)), tensor)
    assert np.array_equal(enc.state_tensor(other, seat), tensor)
    assert np.array_equal(enc.state_tensor(state, seat), tensor)
    return any(not np.array_equal(enc.state_tensor(other, q), enc.state_tensor(state, q))
               for q in range(state.num_players) if q != seat)


def test_beim_jupiter_tensor_unchanged_when_hidden_cards_are_redealt():
    from tests.games.beim_jupiter.test_beim_jupiter_information import alternative
    checked = moved = 0
    for n in (3, 4, 5):
        enc = encoding("beim-jupiter", n)
        rng = random.Random(n)
        for state in random_states("beim-jupiter", n, {}, seed=40 + n, every=3):
            if state.is_terminal():
                continue
            for seat in range(n):
                alt = alternative(state, seat, rng)
                if alt is not None:
                    moved += _same_for_seat(enc, state, alt, seat)
                    checked += 1
    assert checked > 300 and moved > 0.8 * checked, (checked, moved)


@pytest.mark.parametrize("ruleset", ["classic", "verschaerft+nebel", "mild+verschaerft+verspaetet"])
def test_sticheln_tensor_unchanged_when_hidden_cards_are_redealt(monkeypatch, ruleset):
    from tests.games.sticheln.test_sticheln_information import altered
    from trickcore.games.sticheln import variant_options
    n = 4
    options = dict(variant_options(ruleset), rounds=2)
    enc = encoding("sticheln", n, options)
    rng = random.Random(len(ruleset))
    checked = moved = 0
    for state in random_states("sticheln", n, options, seed=21, every=4):
        if state.is_terminal():
            continue
        for seat in range(n):
            for _attempt in range(6):
                try:
                    alt, _view, _pi = altered(monkeypatch, state, seat, rng, keep_colours=_attempt >= 3)
                except trickcore.IllegalActionError:
                    continue
                moved += _same_for_seat(enc, state, alt, seat)
                checked += 1
                break
    assert checked > 40 and moved > 0.5 * checked, (checked, moved)


def test_squint_tensor_unchanged_when_hidden_cards_are_renamed():
    from tests.games.squint.test_squint_information import disguised
    enc = encoding("squint", 5, {"deal_limit": 2})
    rng = random.Random(9)
    checked = moved = 0
    for state in random_states("squint", 5, {"deal_limit": 2}, seed=9, every=6):
        if state.is_terminal():
            continue
        for seat in range(5):
            moved += _same_for_seat(enc, state, disguised(state, seat, rng), seat)
            checked += 1
    assert checked > 50 and moved > 0.5 * checked, (checked, moved)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_klaberjass_tensor_unchanged_when_hidden_cards_are_redealt(n):
    from tests.games.klaberjass.test_klaberjass_games import altered
    enc = encoding("klaberjass", n, {"max_deals": 3})
    checked = moved = 0
    for seed in range(3):
        rng = random.Random(seed)
        for state in random_states("klaberjass", n, {"max_deals": 3}, seed=600 + seed, every=2):
            if state.is_terminal():
                continue
            for seat in range(n):
                other = altered(state, seat, rng)
                if other is not None:
                    moved += _same_for_seat(enc, state, other, seat)
                    checked += 1
    assert checked > 20 and moved > 0.3 * checked, (checked, moved)


@pytest.mark.parametrize("page,game,players", [("beim_jupiter", "beim-jupiter", 4), ("sticheln", "sticheln", 4),
                                               ("hattrick", "hattrick", 5), ("squint", "squint", 5),
                                               ("klaberjass", "klaberjass", 3)])
def test_the_game_pages_document_every_block_in_order(page, game, players):
    text = (Path(__file__).resolve().parents[2] / "docs" / "games" / f"{page}.md").read_text(encoding="utf-8")
    section = text.split("\n## Tensor encoding\n", 1)[1].split("\n## ", 1)[0]
    documented = re.findall(r"^\| `(\w+)` \| [^|]+ \| (.+) \|$", section, re.M)
    blocks = encoding(game, players).fields
    sizes = " ".join(section.split("Sizes: ", 1)[1].split("\n\n", 1)[0].split())
    counts = trickcore.get_game(game).players
    assert sizes == ", ".join(f"{encoding(game, n).size:,} ({n} players)" for n in counts) + "."
    assert [name for name, _ in documented] == [b.name for b in blocks]
    assert [doc for _, doc in documented] == [b.doc for b in blocks]
