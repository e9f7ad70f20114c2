"""Suite-wide settings.

* Soak tests (``@pytest.mark.slow``) run only when asked for with ``-m slow``.
* Hypothesis draws its examples from a fixed seed per test (``derandomize``), so a run of the
  suite is the same run everywhere, CI included: a property test fails on every machine or on
  none.  To search afresh with random examples, run with ``HYPOTHESIS_PROFILE=explore``.
  Tests' own ``@settings`` (example counts) inherit from the profile loaded here.
"""

import os

import pytest
from hypothesis import settings

settings.register_profile("trickcore", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", derandomize=False, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "trickcore"))


def pytest_collection_modifyitems(config, items):
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="soak test: opt in with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
