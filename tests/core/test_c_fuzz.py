"""The fuzz target of the C core (csrc/fuzz/fuzz_core.c; docs/engine.md, "How this is
verified"): it builds with the library's warnings, runs a bounded number of random inputs
cleanly, and really stops on a broken invariant (so a CI run of it can fail).  The long,
sanitized runs are `make -C csrc sanitize fuzz` in .ci/sanitize."""

import shutil
import subprocess

import pytest

from tests.core.conftest import ROOT


@pytest.fixture(scope="module")
def fuzzer(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("a C compiler is needed")
    out = tmp_path_factory.mktemp("fuzz") / "fuzz_core"
    csrc = ROOT / "csrc"
    subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-O1", "-DTC_FUZZ_MAIN",
                    f"-I{csrc / 'include'}", str(csrc / "fuzz" / "fuzz_core.c"),
                    *map(str, sorted((csrc / "src").glob("*.c"))), "-o", str(out)], check=True)
    return out


def test_random_inputs_run_cleanly(fuzzer):
    run = subprocess.run([str(fuzzer), "-n", "3000", "-s", "7"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "3000 random inputs" in run.stdout


def test_input_files_are_replayed(fuzzer, tmp_path):
    corpus = tmp_path / "input"
    corpus.write_bytes(bytes(range(256)) * 4)
    run = subprocess.run([str(fuzzer), "-n", "0", str(corpus)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "1 files" in run.stdout


def test_a_broken_invariant_stops_the_run(tmp_path):
    """The same driver with one invariant made false must abort, or the runs above prove nothing."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("a C compiler is needed")
    source = (ROOT / "csrc" / "fuzz" / "fuzz_core.c").read_text()
    broken = source.replace("REQUIRE(tricks[0] + tricks[1] + tricks[2] + tricks[3] == 13);",
                            "REQUIRE(tricks[0] + tricks[1] + tricks[2] + tricks[3] == 12);")
    assert broken != source
    (tmp_path / "fuzz_core.c").write_text(broken)
    csrc = ROOT / "csrc"
    subprocess.run([cc, "-std=c99", "-O1", "-DTC_FUZZ_MAIN", f"-I{csrc / 'include'}", str(tmp_path / "fuzz_core.c"),
                    *map(str, sorted((csrc / "src").glob("*.c"))), "-o", str(tmp_path / "broken")], check=True)
    run = subprocess.run([str(tmp_path / "broken"), "-n", "20000"], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "invariant failed" in run.stderr
