"""Extension definitions only; metadata lives in pyproject.toml.

The C core (csrc/src/*.c) is compiled once into a static library that the Cython
extensions link, so `pip install .` needs only a C compiler; `make -C csrc` builds the same sources
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
import re
from glob import glob

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: The core's headers: a change to one (rules_inline.h holds the trick rules) rebuilds the core
#: library and relinks every extension that uses it, as a change to a .c file does.
CORE_HEADERS = sorted(glob("csrc/include/*.h") + glob("csrc/src/*.h"))
CORE_SOURCES = sorted(glob("csrc/src/*.c"))

#: The C core, compiled once into a static library that _core, _bench and the encoders link
#: (build_ext links every extension with it; the others take nothing from it).  Compiled into each
#: of them instead, parallel builds wrote the same object files at once, and an extension could
#: be linked against a half-written one.
CORE_LIBRARY = ("trickcore_c", {"sources": CORE_SOURCES, "include_dirs": ["csrc/include", "csrc/src"],
                                "cflags": ["-O3", "-std=c99"], "obj_deps": {"": CORE_HEADERS}})


class BuildExt(build_ext):
    """build_ext that builds the core library first: ``setup.py build_ext`` (and the editable
    install's build) runs build_ext alone, not the ``build`` command that would run build_clib."""

    def run(self):
        self.run_command("build_clib")
        super().run()


core = Extension(
    "trickcore._core",
    sources=["trickcore/_core.pyx"],
    include_dirs=["csrc/include", "csrc/src"],
    depends=CORE_HEADERS + CORE_SOURCES,
    extra_compile_args=["-O3", "-std=c99"],
)

# Timed C loops for `trickcore bench`, including the hand-written floor (bench/floor.c).
bench = Extension(
    "trickcore._bench",
    sources=["trickcore/_bench.pyx", "bench/floor.c"],
    include_dirs=["csrc/include", "csrc/src", "bench"],
    depends=CORE_HEADERS + CORE_SOURCES,
    extra_compile_args=["-O3", "-std=c99"],
)

#: Python modules of the game flow compiled as they are: the game-state interface, the world
#: sampler and every game module with a .pxd beside it, its state class declared as an extension
#: type (trickcore.games.COMPILED names the same; tests/test_compiled_flow.py checks both agree).
FLOW = ["trickcore/game.py", "trickcore/worlds.py",
        *sorted(pxd[:-4] + ".py" for pxd in glob("trickcore/games/*.pxd") if os.path.exists(pxd[:-4] + ".py"))]


def state_classes(pxd_paths):
    """{class: (module, base, [fields])} of the classes the given .pxd files declare; a field is a
    ``cdef [public|readonly] <type> name, name`` line of the class body (a line with a parenthesis
    declares a method)."""
    classes, current = {}, None
    for path in pxd_paths:
        module = path[:-4].replace("/", ".")
        for line in open(path, encoding="utf-8"):
            code = line.split("#", 1)[0].rstrip()
            header = re.match(r"cdef class (\w+)(?:\((\w+)\))?\s*:", code)
            if header:
                current = header.group(1)
                classes[current] = (module, header.group(2), [])
            elif code and not code[0].isspace():
                current = None
            elif current and "(" not in code:
                field = re.match(r"\s+cdef\s+(?:public\s+|readonly\s+)?\w+\s+(\w+(?:\s*,\s*\w+)*)$", code)
                if field:
                    classes[current][2].extend(name.strip() for name in field.group(1).split(","))
    return classes


def write_field_copiers(path, pxd_paths):
    """Write ``path``, a Cython module with one function per compiled game-state class that copies
    all its C fields (its bases' included) from one instance to another, and registers it with the
    core: what StateCore.clone() calls.  Generated from the .pxd declarations, so the list of a
    class's fields is written once, where the class declares them."""
    classes = state_classes(pxd_paths)

    def chain(name):
        return [] if name is None or name not in classes else chain(classes[name][1]) + [name]

    states = [name for name in classes if chain(name)[0] == "StateCore" and name != "StateCore"]
    out = ["# Generated by setup.py from the .pxd declarations of the game-state classes; not tracked.",
           "# One copier per compiled state class: every C field, its bases' included, assigned from",
           "# one instance to another (StateCore.clone, trickcore/_core.pyx).",
           "from trickcore._core cimport StateCore, register_copier"]
    out += [f"from {classes[name][0]} cimport {name}" for name in states]
    for name in states:
        fields = [field for cls in chain(name) for field in classes[cls][2]]
        out += ["", "", f"cdef void _copy_{name}(StateCore src, StateCore dst) noexcept:",
                f"    cdef {name} s = <{name}>src", f"    cdef {name} d = <{name}>dst"]
        out += [f"    d.{field} = s.{field}" for field in fields]
        out += [f"register_copier({name}, _copy_{name})"]
    text = "\n".join(out) + "\n"
    old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
    if text != old:                       # unchanged: keep its time, so cythonize skips it
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


#: The copiers of the compiled states' fields (write_field_copiers), generated beside the games.
FIELD_COPIERS = "trickcore/games/_fieldcopy.pyx"
if os.environ.get("TRICKCORE_PURE_PYTHON") != "1":
    write_field_copiers(FIELD_COPIERS, ["trickcore/_core.pxd", "trickcore/game.pxd",
                                        *sorted(glob("trickcore/games/*.pxd"))])
    FLOW_EXTRA = [Extension("trickcore.games._fieldcopy", [FIELD_COPIERS], include_dirs=["csrc/include"],
                            extra_compile_args=["-O2"])]
else:
    FLOW_EXTRA = []

flow = [] if os.environ.get("TRICKCORE_PURE_PYTHON") == "1" else cythonize(
    # A module's .pxd beside it (trickcore/game.pxd, trickcore/games/*.pxd) makes its state class an
    # extension type; they cimport trickcore/_core.pxd, hence the core's header and the include path.
    [*(Extension(path[:-3].replace("/", "."), [path], include_dirs=["csrc/include"], extra_compile_args=["-O2"])
       for path in FLOW), *FLOW_EXTRA],
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
    [Extension("trickcore.encodings._fast", ["trickcore/encodings/_fast.pyx"],
               include_dirs=["csrc/include"], depends=CORE_HEADERS + CORE_SOURCES,
               extra_compile_args=["-O3"])],
    language_level=3, build_dir="build/cython", include_path=["."])

setup(libraries=[CORE_LIBRARY],
      ext_modules=[*cythonize([core, bench], language_level=3, compiler_directives={"embedsignature": True}),
                   *flow, *encode],
      cmdclass={"build_ext": BuildExt},
      options={"build_ext": {"parallel": os.cpu_count() or 1}})   # extensions compiled side by side
