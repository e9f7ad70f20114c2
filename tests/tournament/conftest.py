"""Fixtures for the tournament runner tests: the toy games registered for the session, and the
sandbox check.  What the tests share besides fixtures is in support.py."""

from __future__ import annotations

import os

import pytest

from tests.tournament.toygame import register_toy_games


@pytest.fixture(autouse=True, scope="session")
def toy_games():
    register_toy_games()
    yield
    # Tests of other packages may iterate over every registered game in the same session;
    # the toy games must not show up there.  (The registry has no public unregister.)
    import trickcore.games as registry

    for name in ("toy-tricks", "toy-partners"):
        registry._REGISTRY.pop(name, None)


@pytest.fixture(scope="module")
def sandbox():
    """Skip when bots cannot be sandboxed here -- but not in CI, where the sandbox must work."""
    from tournament.config import SandboxSettings
    from tournament.sandbox import SandboxUnavailable, probe

    try:
        probe(SandboxSettings())
    except SandboxUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must be able to sandbox bots: {exc}")
        pytest.skip(f"no sandbox on this machine: {exc}")
