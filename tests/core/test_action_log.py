"""The history of a state (trickcore._core.ActionLog): a list of action ids whose copies share
every full block, so that clone() costs the same late in a long match as early in it, while each
copy's changes stay its own."""

from __future__ import annotations

import pickle
import random

import pytest

import trickcore
from trickcore._core import ACTION_BLOCK, ActionLog


def test_it_behaves_as_a_list_of_its_actions() -> None:
    rng = random.Random(3)
    plain: list[int] = []
    log = ActionLog()
    for _ in range(5 * ACTION_BLOCK + 7):
        action = rng.randrange(1000)
        plain.append(action)
        log.append(action)
        assert len(log) == len(plain) and log[-1] == plain[-1]
    assert list(log) == plain and log == plain and log == tuple(plain)
    assert [log[i] for i in range(-len(plain), len(plain))] == plain + plain
    assert log[ACTION_BLOCK - 2:ACTION_BLOCK + 3] == plain[ACTION_BLOCK - 2:ACTION_BLOCK + 3]
    assert ActionLog(plain) == log and ActionLog(iter(plain)) == log
    for bad in (len(plain), -len(plain) - 1):
        with pytest.raises(IndexError):
            log[bad]
    assert pickle.loads(pickle.dumps(log)) == plain


def test_copies_share_full_blocks_and_keep_their_changes_their_own() -> None:
    log = ActionLog(range(3 * ACTION_BLOCK + 5))
    copy = log.copy()
    copy.append(-1)
    copy[5] = -5                      # in a shared block: the copy gets a block of its own
    copy[-2] = -2                     # in its own tail
    log.append(-9)
    log[3 * ACTION_BLOCK] = -3
    assert log[5] == 5 and log[-2] == 3 * ACTION_BLOCK + 4 and log[-1] == -9
    assert copy[5] == -5 and copy[-2] == -2 and copy[-1] == -1 and copy[3 * ACTION_BLOCK] == 3 * ACTION_BLOCK
    assert len(log) == len(copy) == 3 * ACTION_BLOCK + 6


def test_a_clone_late_in_a_long_match_has_the_same_history_and_plays_on_alone() -> None:
    state = trickcore.new_game("squint", 5, seed=4)
    rng = random.Random(4)
    while len(state.history) < 4 * ACTION_BLOCK + 3:
        state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    assert clone.action_ids == state.action_ids
    clone.apply_action(clone.legal_actions()[0])
    assert len(clone.action_ids) == len(state.action_ids) + 1
    assert clone.action_ids[:-1] == state.action_ids
    assert trickcore.replay(clone.to_record()).action_ids == clone.action_ids
