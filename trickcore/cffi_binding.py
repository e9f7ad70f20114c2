"""A second, independent binding of the C core: cffi in ABI mode over libtrickcore.so.

It exists to prove the core is embeddable as documented: it sees only the public
header's declarations (trickcore.cdef) and the shared library that
``make -C csrc`` builds, exactly as a C or FFI user would.  Tests drive it side by
side with the Cython binding and require identical answers.

It needs cffi, an optional dependency (``pip install "trickcore[cffi]"``), and a shared library
built from ``csrc/``: the wheel ships the Cython binding only.

    >>> ffi, lib = load("csrc/build/libtrickcore.so")   # doctest: +SKIP
    >>> ffi.string(lib.tc_version())                     # doctest: +SKIP
    b'2.0.0'
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

try:
    import cffi
except ModuleNotFoundError as exc:
    if exc.name != "cffi":
        raise
    raise ImportError('trickcore.cffi_binding needs cffi, an optional dependency of trickcore: '
                      'pip install "trickcore[cffi]"') from None

CDEF_FILE = "trickcore.cdef"


def cdef_text() -> str:
    return resources.files("trickcore").joinpath(CDEF_FILE).read_text()


def load(library: str | Path) -> tuple[cffi.FFI, Any]:
    """(ffi, lib) for the shared library at ``library``."""
    ffi = cffi.FFI()
    ffi.cdef(cdef_text())
    return ffi, ffi.dlopen(str(library))


def cards_to_int(c: Any) -> int:
    """A ``tc_cards`` value as a Python int (bit i = card id i)."""
    return int(c.w[0]) | (int(c.w[1]) << 64)


def int_to_cards(ffi: cffi.FFI, x: int) -> Any:
    """A Python int card set as a ``tc_cards`` value."""
    c: Any = ffi.new("tc_cards *")
    c.w[0] = x & 0xFFFFFFFFFFFFFFFF
    c.w[1] = x >> 64
    return c[0]
