"""The game flow runs compiled (setup.py): every module of trickcore.games.COMPILED is imported
from its extension unless the build was told not to, and an edited source that was not rebuilt is
reported rather than silently ignored."""

from __future__ import annotations

import os
import sys
import types
import warnings

import pytest

from trickcore import _core, games
from trickcore.bench import game_state_in_trick_phase
from trickcore.game import GameState


def test_every_flow_module_is_compiled_unless_the_build_opted_out():
    games.list_games()
    compiled = {name: games.is_compiled(name) for name in games.COMPILED}
    if os.environ.get("TRICKCORE_PURE_PYTHON") == "1":
        pytest.skip("built with TRICKCORE_PURE_PYTHON=1")
    assert all(compiled.values()), compiled


@pytest.mark.parametrize("source_newer", [True, False])
def test_a_source_newer_than_its_compiled_module_warns(tmp_path, monkeypatch, source_newer):
    compiled, source = tmp_path / "flowmod.cpython-3-x.so", tmp_path / "flowmod.py"
    compiled.write_bytes(b"")
    source.write_text("")
    old, new = 1_000_000_000, 1_000_000_100
    os.utime(compiled, (old, new if not source_newer else old))
    os.utime(source, (old, new if source_newer else old))
    module = types.ModuleType("trickcore_test_pkg.flowmod")
    module.__file__ = str(compiled)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        games._warn_if_stale(module.__name__)
    messages = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    if source_newer:
        assert len(messages) == 1 and "flowmod.py is newer than its compiled module" in messages[0]
    else:
        assert messages == []


def test_clone_copies_every_field_of_every_compiled_state():
    """setup.py generates one field copier per compiled state class from its .pxd (clone() uses
    it): every field must reach the copy.  The trick phase and the history are copied, not
    shared; every other field is the same object (copy-on-write, docs/game-interface.md)."""
    if os.environ.get("TRICKCORE_PURE_PYTHON") == "1":
        pytest.skip("built with TRICKCORE_PURE_PYTHON=1")
    for info in games.list_games():
        assert _core.has_field_copier(info.factory), info.name
        state = game_state_in_trick_phase(info.name, info.players[0], seed=3)
        assert state is not None
        copy = state.clone()
        original_fields, copied_fields = _core._fields(state), _core._fields(copy)
        assert len(original_fields) == len(copied_fields)
        copied_phase = [i for i, (a, b) in enumerate(zip(original_fields, copied_fields)) if a is not b]
        # _tp (its own copy), _actions (a new list), _ev_sync (points at the copy's phase), if set
        assert copied_phase and all(original_fields[i] == copied_fields[i] or original_fields[i] is state._tp
                                    or original_fields[i] is state._ev_sync for i in copied_phase), info.name
        assert copy._tp is not state._tp and copy._actions == state._actions


def test_a_python_subclass_of_a_compiled_state_clones_its_own_attributes():
    """A state class written in Python (a test's toy game, a user's variant) keeps its attributes
    in a ``__dict__``: clone() copies its compiled base's fields and that dict."""

    class Tagged(type(games.new_game("reference", 4, seed=1))):   # type: ignore[misc]
        pass

    state = Tagged(4, None, 5)
    state.tag = ["mine"]
    copy = state.clone()
    assert type(copy) is Tagged and copy.tag == ["mine"] and copy.seed == 5
    assert copy.legal_actions() == state.legal_actions()
    if games.is_compiled("trickcore.game"):
        assert _core.has_field_copier(Tagged) and _core.has_field_copier(GameState)
