"""Suite-wide settings: soak tests (``@pytest.mark.slow``) run only when asked for with ``-m slow``."""

import pytest


def pytest_collection_modifyitems(config, items):
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="soak test: opt in with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
