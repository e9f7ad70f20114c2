"""Extension definitions only; metadata lives in pyproject.toml.

The C core (csrc/src/*.c) is compiled straight into the Cython extension, so
`pip install .` needs only a C compiler; `make -C csrc` builds the same sources
as a standalone static/shared library for C programs and the cffi binding."""

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

setup(ext_modules=cythonize([core, bench], language_level=3,
                            compiler_directives={"embedsignature": True}))
