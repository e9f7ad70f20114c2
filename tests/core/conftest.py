import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def c_build(tmp_path_factory):
    """Build csrc/ with its own Makefile (static + shared library, example, test driver)."""
    if shutil.which("make") is None or shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("make and a C compiler are needed to build csrc/")
    out = tmp_path_factory.mktemp("cbuild")
    subprocess.run(["make", "-s", "-C", str(ROOT / "csrc"), f"BUILD={out}"], check=True)
    return out
