"""Extension definitions only; metadata lives in pyproject.toml.

The C core (csrc/src/*.c) is compiled straight into the Cython extension, so
`pip install .` needs only a C compiler; `make -C csrc` builds the same sources
as a standalone static/shared library for C programs and the cffi binding.

The game flow (trickcore/game.py, the game modules, and the world sampler
trickcore/worlds.py that search draws hidden cards with) is plain Python, and is also
compiled by Cython into extension modules of the same names: Python imports the
compiled module when it exists, so the readable source is the only source and runs
about a third faster.  Set TRICKCORE_PURE_PYTHON=1 when building to skip that step
(to step through the game flow in a debugger, or to measure what compiling buys);
after editing a compiled module, rebuild (`pip install -e .` or
`python setup.py build_ext --inplace`): trickcore.games warns when a source is newer
than its compiled module (docs/contributing.md, section 2)."""

import os
from glob import glob

from Cython.Build import cythonize
from setuptools import Extension, setup

core = Extension(
    "trickcore._core",
    sources=["trickcore/_core.pyx", *sorted(glob("csrc/src/*.c"))],
    include_dirs=["csrc/include", "csrc/src"],
    extra_compile_args=["-O3", "-std=c99"],
)

# Timed C loops for `trickcore bench`, including the hand-written floor (bench/floor.c).
bench = Extension(
    "trickcore._bench",
    sources=["trickcore/_bench.pyx", "bench/floor.c", *sorted(glob("csrc/src/*.c"))],
    include_dirs=["csrc/include", "csrc/src", "bench"],
    extra_compile_args=["-O3", "-std=c99"],
)

#: Python modules of the game flow compiled as they are (trickcore.games.COMPILED lists the same).
FLOW = ["trickcore/game.py", "trickcore/worlds.py", "trickcore/games/beim_jupiter.py", "trickcore/games/hattrick.py",
        "trickcore/games/klaberjass.py", "trickcore/games/reference.py", "trickcore/games/squint.py",
        "trickcore/games/sticheln.py"]
flow = [] if os.environ.get("TRICKCORE_PURE_PYTHON") == "1" else cythonize(
    # A module's .pxd beside it (trickcore/game.pxd, trickcore/games/*.pxd) makes its state class an
    # extension type; they cimport trickcore/_core.pxd, hence the core's header and the include path.
    [Extension(path[:-3].replace("/", "."), [path], include_dirs=["csrc/include"], extra_compile_args=["-O2"])
     for path in FLOW],
    language_level=3, nthreads=os.cpu_count() or 1, include_path=["."],
    # Exactly Python's semantics: annotations are not checked as C types (a wrong argument
    # meets the game's own error, not Cython's TypeError).
    compiler_directives={"annotation_typing": False, "binding": True})

# The encoders that write observation tensors straight from a game state (Encoding.state_tensor);
# skipped with the flow, when tensors are built from the views (trickcore/encodings/base.py).
# They read the trick phase's C structs through trickcore/_core.pxd (found from the project root,
# include_path) and so include csrc/include/trickcore.h; the core is linked in for its functions
# (a trick's winner, card counts), so no rule of it is written again there.
# Their C goes to build/, beside the other generated files of the build.
encode = [] if os.environ.get("TRICKCORE_PURE_PYTHON") == "1" else cythonize(
    [Extension("trickcore.encodings._fast", ["trickcore/encodings/_fast.pyx", *sorted(glob("csrc/src/*.c"))],
               include_dirs=["csrc/include"],
               extra_compile_args=["-O3"])],
    language_level=3, build_dir="build/cython", include_path=["."])

setup(ext_modules=[*cythonize([core, bench], language_level=3, compiler_directives={"embedsignature": True}),
                   *flow, *encode],
      options={"build_ext": {"parallel": os.cpu_count() or 1}})   # extensions compiled side by side
