"""Print the import graph between trickcore's layers and check that it points one way.

    python tools/import_graph.py            # the layer graph, then any cycle between modules
    python tools/import_graph.py --modules  # every module-to-module edge as well

Every ``import`` in ``trickcore/`` and ``tournament/`` counts, including those inside
functions (a lazy import is still a dependency).  The layers, top to bottom::

    cli          trickcore.cli (finds the runner's commands through an entry-point group)
    runner       tournament.*
    api          trickcore (the package: re-exports the public names)
    integrations trickcore.integrations.* (OpenSpiel and PettingZoo adapters, optional extras)
    games        trickcore.games.* (each game's folder: flow, encoding, policy), trickcore.tricks,
                 trickcore.bot, trickcore.search, trickcore.mirror (search and bots over the games),
                 trickcore.deals (deal files),
                 trickcore.encodings.* (dense actions, and tensors written from the games' states)
    interface    trickcore.game (the one game-state interface), trickcore.worlds (its world sampling)
    bindings     trickcore._core, trickcore.cffi_binding (over the C core)
    base         trickcore.errors, trickcore.protocol, trickcore.tables, trickcore.checkout (no trickcore imports)

An edge may only point to the same or a lower layer.  Exit status 1 on an upward edge or a
cycle between modules, so CI can run it (tests/test_layers.py does).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("trickcore", "tournament")
LAYERS = ("base", "bindings", "interface", "games", "integrations", "api", "runner", "cli")


def layer_of(module: str) -> str:
    if module == "trickcore.cli":
        return "cli"
    if module.startswith("tournament"):
        return "runner"
    if module == "trickcore":
        return "api"
    if module in ("trickcore.errors", "trickcore.protocol", "trickcore.tables", "trickcore.checkout"):
        return "base"
    if module in ("trickcore._core", "trickcore._ccore", "trickcore.cffi_binding"):
        return "bindings"
    if module.startswith("trickcore.integrations"):
        return "integrations"
    if module.startswith(("trickcore.games", "trickcore.encodings")) or module in (
            "trickcore.tricks", "trickcore.bot", "trickcore.search", "trickcore.mirror", "trickcore.deals"):
        return "games"
    if module in ("trickcore.game", "trickcore.worlds"):
        return "interface"
    raise ValueError(f"{module}: no layer; add it to tools/import_graph.py")


def modules() -> dict[str, Path]:
    """Every Python and Cython module of the two packages, by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            if path.suffix not in (".py", ".pyx") or "bots" in path.relative_to(ROOT).parts:
                continue  # bundled bots are programs run by the runner, not modules of it
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(path: Path, module: str) -> Iterator[str]:
    if path.suffix == ".pyx":  # Cython: read the Python-level imports line by line
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] in ("import", "from"):
                yield words[1]
        return
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)  # ``from pkg import module``


def edges() -> set[tuple[str, str]]:
    """(importer, imported) between modules of the two packages."""
    known = modules()
    result = set()
    for module, path in known.items():
        for name in _imports(path, module):
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                result.add((module, name))
    return result


def cycles(graph: set[tuple[str, str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    succ: dict[str, list[str]] = {}
    for a, b in graph:
        succ.setdefault(a, []).append(b)
        succ.setdefault(b, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(succ):
        if v not in index:
            visit(v)
    return found


def upward(graph: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """Edges from a lower layer to a higher one."""
    return sorted((a, b) for a, b in graph if LAYERS.index(layer_of(a)) < LAYERS.index(layer_of(b)))


def main(argv: list[str]) -> int:
    graph = edges()
    layer_edges: dict[tuple[str, str], int] = {}
    for a, b in graph:
        key = (layer_of(a), layer_of(b))
        if key[0] != key[1]:
            layer_edges[key] = layer_edges.get(key, 0) + 1
    print("layer graph (importer -> imported: module edges)")
    for (a, b), n in sorted(layer_edges.items(), key=lambda kv: (-LAYERS.index(kv[0][0]), kv[0][1])):
        print(f"  {a:9} -> {b:9} {n:3d}")
    if "--modules" in argv:
        print("module edges")
        for a, b in sorted(graph):
            print(f"  {a} -> {b}")
    bad = upward(graph)
    loops = cycles(graph)
    for a, b in bad:
        print(f"UPWARD: {a} ({layer_of(a)}) -> {b} ({layer_of(b)})")
    for loop in loops:
        print(f"CYCLE: {' <-> '.join(loop)}")
    if not bad and not loops:
        print(f"one way: {len(graph)} module edges, no upward edge, no cycle")
    return 1 if bad or loops else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
