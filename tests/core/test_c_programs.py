"""The C core as a plain C library: the Makefile builds it, the example program and
the C test driver compile with -std=c99 -Wall -Wextra -pedantic -Werror and run."""

import subprocess


def test_static_and_shared_library_built(c_build):
    assert (c_build / "libtrickcore.a").stat().st_size > 0
    assert (c_build / "libtrickcore.so").stat().st_size > 0


def test_c_test_driver_passes(c_build):
    out = subprocess.run([str(c_build / "test_core")], capture_output=True, text=True, check=True).stdout
    assert "all passed" in out


def test_example_program_runs(c_build):
    out = subprocess.run([str(c_build / "example")], capture_output=True, text=True, check=True).stdout
    assert "trick 1 won by seat" in out
    assert "card id out of range" in out          # the illegal move got a defined error code
    assert "trickcore 2.0.0" in out          # tc_version() is the header's TC_VERSION_STRING
