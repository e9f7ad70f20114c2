"""The source checkout the package runs from: its ``bench/`` folder, which is not installed.

``trickcore bench`` and ``trickcore bench-runner`` are thin commands over the programs there
(docs/benchmarks.md); an installed wheel has no such folder and says so in one line."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import click

BENCH_DIR = Path(__file__).resolve().parents[1] / "bench"


def bench_module(name: str, command: str) -> ModuleType:
    """The module ``name`` of the checkout's bench/ folder, imported with that folder on sys.path
    (its modules import each other by name).  Without a checkout, or without what the module
    needs, a one-line error that says how to get them and to run ``command`` again."""
    if not (BENCH_DIR / f"{name}.py").is_file():
        raise click.ClickException(f"the benchmarks run from a source checkout, not an installed trickcore (no "
                                   f"{BENCH_DIR}): git clone the trickcore repository; pip install -e "
                                   f"\".[cffi]\"; {command}")
    if str(BENCH_DIR) not in sys.path:
        sys.path.append(str(BENCH_DIR))  # after the installed packages: nothing of bench/ shadows them
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:  # a dependency of the benchmarks only (cffi): its message names the install
        raise click.ClickException(str(exc)) from None
