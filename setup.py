"""Extension definitions only; metadata lives in pyproject.toml.

The C core (csrc/src/*.c) is compiled once into a static library that the Cython
extensions link, so `pip install .` needs only a C compiler; `make -C csrc` builds the same sources
as a standalone static/shared library for C programs and the cffi binding.

Two extensions are built: the binding (trickcore._core) and the observation encoders
(trickcore.encodings._fast).  The timed C loops of `trickcore bench` are no part of the package:
bench/c_loops.py compiles them in a source checkout.
The game flow (trickcore/game.py, trickcore/games/) is plain Python: card play runs in C
through the binding, and a game module runs under a debugger as written."""

import os
import shlex
from glob import glob

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

#: The core's headers: a change to one (rules_inline.h holds the trick rules) rebuilds the core
#: library and relinks every extension that uses it, as a change to a .c file does.
CORE_HEADERS = sorted(glob("csrc/include/*.h") + glob("csrc/src/*.h"))
CORE_SOURCES = sorted(glob("csrc/src/*.c"))

#: The C core, compiled once into a static library that _core and the encoders link
#: (build_ext links every extension with it; the others take nothing from it).  Compiled into each
#: of them instead, parallel builds wrote the same object files at once, and an extension could
#: be linked against a half-written one.
CORE_LIBRARY = ("trickcore_c", {"sources": CORE_SOURCES, "include_dirs": ["csrc/include", "csrc/src"],
                                "cflags": ["-O3", "-std=c99", "-g0"], "obj_deps": {"": CORE_HEADERS}})


#: Optimised and without debug info (Python's own CFLAGS may ask for -g): a stripped _core is
#: about a sixth of its size with the debug sections.
COMPILE = ["-O3", "-std=c99", "-g0"]
LINK = ["-s"]


#: The program that starts a bot inside its sandbox (tournament/sandbox_launch.c): an executable
#: of the tournament package, built beside its extensions (in place for an editable install).
LAUNCHER_SOURCE = "tournament/sandbox_launch.c"
LAUNCHER = "sandbox-launch"


class BuildExt(build_ext):
    """build_ext that builds the core library first: ``setup.py build_ext`` (and the editable
    install's build) runs build_ext alone, not the ``build`` command that would run build_clib.
    Then the sandbox's launcher, with the same compiler."""

    def run(self):
        self.run_command("build_clib")
        super().run()
        self.build_launcher()

    def build_launcher(self):
        # get_ext_fullpath puts a module where this build puts the package's files: build/lib...
        # for a wheel, the source tree for an editable install or --inplace.
        folder = os.path.dirname(self.get_ext_fullpath("tournament.sandbox_launch"))
        target = os.path.join(folder, LAUNCHER)
        if not self.force and os.path.exists(target) and os.path.getmtime(target) >= os.path.getmtime(LAUNCHER_SOURCE):
            return
        objects = self.compiler.compile([LAUNCHER_SOURCE], output_dir=self.build_temp,
                                        extra_postargs=["-O2", "-std=c99", "-g0", "-Wall"])
        # LDFLAGS as the extensions' link has them (a sanitizer build compiles with -fsanitize and
        # must link its runtime); distutils puts them on shared objects only.
        self.compiler.link_executable(objects, LAUNCHER, output_dir=folder,
                                      extra_postargs=LINK + shlex.split(os.environ.get("LDFLAGS", "")))


#: The games' rules (docs/rules/*.md), which `trickcore play` serves as a page: written once in
#: docs/, and copied into the built package (tournament/rules/) for an installed package to read.
RULES_SOURCES = sorted(glob("docs/rules/*.md"))


class BuildPy(build_py):
    """build_py that also copies the games' rules into the package it builds (a wheel has no
    docs/ folder).  An editable install reads them from the checkout (tournament/rules_page.py)."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        folder = os.path.join(self.build_lib, "tournament", "rules")
        self.mkpath(folder)
        for source in RULES_SOURCES:
            self.copy_file(source, os.path.join(folder, os.path.basename(source)))

    def get_outputs(self, include_bytecode=True):
        outputs = super().get_outputs(include_bytecode)
        if getattr(self, "editable_mode", False):
            return outputs
        return outputs + [os.path.join(self.build_lib, "tournament", "rules", os.path.basename(source))
                          for source in RULES_SOURCES]


core = Extension(
    "trickcore._core",
    sources=["trickcore/_core.pyx"],
    include_dirs=["csrc/include", "csrc/src"],
    depends=CORE_HEADERS + CORE_SOURCES,
    extra_compile_args=COMPILE, extra_link_args=LINK,
)

# The encoders that write observation tensors straight from a game state (Encoding.state_tensor),
# reading the game's documented public fields (docs/game-interface.md, "Encodings").
# They read the trick phase's C structs through trickcore/_core.pxd (found from the project root,
# include_path) and so include csrc/include/trickcore.h; the core is linked in for its functions
# (a trick's winner, card counts), so no rule of it is written again there.
# Their C goes to build/, beside the other generated files of the build.
encode = cythonize(
    [Extension("trickcore.encodings._fast", ["trickcore/encodings/_fast.pyx"],
               include_dirs=["csrc/include"], depends=CORE_HEADERS + CORE_SOURCES,
               extra_compile_args=["-O3", "-g0"], extra_link_args=LINK)],
    language_level=3, build_dir="build/cython", include_path=["."])

setup(libraries=[CORE_LIBRARY],
      ext_modules=[*cythonize([core], language_level=3, compiler_directives={"embedsignature": True}),
                   *encode],
      cmdclass={"build_ext": BuildExt, "build_py": BuildPy},
      options={"build_ext": {"parallel": os.cpu_count() or 1}})   # extensions compiled side by side
