"""Timed inner loops for ``trickcore bench`` and the suites in bench/: the floor and the core in C.

The loops are C (bench/c_loops.c, with the hand-written floor bench/floor.c): each runs whole in
C, without the GIL (cffi releases it around a call), and times itself with a monotonic clock
around the loop only.  They are no part of the installed package: on first use this module
compiles them with cffi (API mode), together with the C core's sources (csrc/src/*.c), into a
module in bench/build/, named by a hash of every source, header and flag, so a change to any of
them builds a new module and an unchanged checkout reuses the one it has.  Needs cffi
(``pip install -e ".[cffi]"``) and a C compiler.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

try:
    import cffi
except ModuleNotFoundError as exc:  # an install without the test or cffi extras
    raise ModuleNotFoundError('the benchmark\'s C loops are built with cffi: pip install -e ".[cffi]"',
                              name="cffi") from exc

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUILD_DIR = HERE / "build"
DECLARATIONS = HERE / "c_loops.h"
SOURCES = [HERE / "c_loops.c", HERE / "floor.c", *sorted((ROOT / "csrc" / "src").glob("*.c"))]
HEADERS = [DECLARATIONS, HERE / "floor.h", *sorted((ROOT / "csrc" / "include").glob("*.h")),
           *sorted((ROOT / "csrc" / "src").glob("*.h"))]
INCLUDE_DIRS = [ROOT / "csrc" / "include", ROOT / "csrc" / "src", HERE]
#: The flags setup.py compiles the core with: the loops measure the core as the package builds it.
COMPILE = ["-O3", "-std=c99", "-g0"]


def _module_name() -> str:
    """``_c_loops_<hash>`` of the sources, headers, flags, cffi and Python the module is built from
    (this file too: it holds the build's settings)."""
    digest = hashlib.sha256()
    for path in [HERE / "c_loops.py", *SOURCES, *HEADERS]:
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(" ".join([*COMPILE, cffi.__version__, sys.implementation.cache_tag]).encode())
    return f"_c_loops_{digest.hexdigest()[:16]}"


def _build(name: str, target: Path) -> None:
    """Compile the module into a temporary folder of bench/build/ and move it to ``target``.  Silent
    (a few seconds, once): ``trickcore bench --json`` prints nothing but its JSON."""
    ffi = cffi.FFI()
    ffi.cdef(DECLARATIONS.read_text(encoding="utf-8"))
    ffi.set_source(name, '#include <stdint.h>\n#include "c_loops.h"', sources=[str(p) for p in SOURCES],
                   include_dirs=[str(p) for p in INCLUDE_DIRS], extra_compile_args=COMPILE)
    with tempfile.TemporaryDirectory(dir=BUILD_DIR, prefix="tmp-") as tmp:
        built = ffi.compile(tmpdir=tmp)
        os.replace(built, target)


@functools.cache
def _lib() -> Any:
    """The compiled loops' ``lib`` and ``ffi``, built first if this checkout has no current build.
    A lock file serialises builds: two benchmark runs started at once build the module once."""
    name = _module_name()
    target = BUILD_DIR / (name + importlib.machinery.EXTENSION_SUFFIXES[0])
    BUILD_DIR.mkdir(exist_ok=True)
    with open(BUILD_DIR / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not target.exists():
            for stale in BUILD_DIR.glob("_c_loops_*"):  # builds of earlier sources
                stale.unlink()
            _build(name, target)
    spec = importlib.util.spec_from_file_location(name, target)
    assert spec is not None and spec.loader is not None  # an extension module's path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def floor(deals: int, seed: int = 1) -> tuple[float, list[int]]:
    """ns per card play of the hand-written 64-bit-mask floor loop, and tricks per seat."""
    compiled = _lib()
    tricks = compiled.ffi.new("uint32_t[4]")
    ns = compiled.lib.loop_floor(deals, seed, tricks)
    return ns / (deals * 52.0), list(tricks)


def core_reference(deals: int, seed: int = 1) -> tuple[float, list[int]]:
    """ns per card play of the core's generic playout of the reference game."""
    compiled = _lib()
    tricks = compiled.ffi.new("uint32_t[4]")
    ns = compiled.lib.loop_core_reference(deals, seed, tricks)
    return ns / (deals * 52.0), list(tricks)


def core_legal(calls: int, seed: int = 1) -> tuple[float, int]:
    """ns per tc_legal call on reference-game positions (one trick = 4 calls)."""
    compiled = _lib()
    result = compiled.ffi.new("uint64_t *")
    ns = compiled.lib.loop_core_legal(calls, seed, result)
    return ns / calls, int(result[0])


def core_resolve(tricks: int, seed: int = 1) -> tuple[float, int]:
    """ns per card of trick resolution (tc_trick_add + tc_trick_winner) in C."""
    compiled = _lib()
    result = compiled.ffi.new("uint64_t *")
    ns = compiled.lib.loop_core_resolve(tricks, seed, result)
    return ns / (tricks * 4.0), int(result[0])
