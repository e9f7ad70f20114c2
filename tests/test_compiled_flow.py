"""The game flow runs compiled (setup.py): every module of trickcore.games.COMPILED is imported
from its extension unless the build was told not to, and an edited source that was not rebuilt is
reported rather than silently ignored."""

from __future__ import annotations

import os
import sys
import types
import warnings

import pytest

from trickcore import games


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
