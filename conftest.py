"""The examples of README.md and docs/ run as tests, collected by Sybil (pyproject.toml's testpaths
name the pages).

Every fenced ``python`` block runs, in one namespace per page, so that a page's blocks build on
each other the way a reader's session does. Every ``sh`` block runs with bash (``-e``, ``-o
pipefail``: the first failing command fails the example) from the root of a fresh copy of the
checkout's tracked files, one copy per page, so that its commands see what a fresh clone has and
whatever the page's earlier blocks made, and leave nothing in the checkout; the commands of this
environment (``trickcore``, its ``python``) come first on PATH, as in an activated virtual
environment. A block that cannot run as a test says why just above it, with
``<!-- skip: next "the reason" -->``; ``<!-- invisible-code-block: python ... -->`` adds a check
that the reader need not see.

This file is at the root of the checkout because README.md is: a conftest collects only the files
below its folder."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Generator
from pathlib import Path

import pytest
from sybil import Example, Sybil
from sybil.integration.pytest import SybilItem
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

ROOT = Path(__file__).resolve().parent

#: A hung example (a command that waits for a person) fails instead of stopping the suite; the
#: slowest example, a small tournament, takes about 15 s on two cores.
SHELL_TIMEOUT_S = 600


def tracked_files() -> list[Path]:
    """The files a fresh clone has; every file of the tree when it is not a git checkout."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        skipped = {".git", ".venv", "build", "runs", "__pycache__"}
        return [p.relative_to(ROOT) for p in ROOT.rglob("*")
                if p.is_file() and not skipped & set(p.relative_to(ROOT).parts)]
    return [Path(name) for name in listed.decode().split("\0") if name and (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def doc_checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh copy of the checkout's tracked files, for the shell blocks of one page."""
    copy = tmp_path_factory.mktemp("checkout")
    copy.chmod(0o755)  # a bot started as root runs under a user id of its own, which must read its files
    for name in tracked_files():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, copy / name)
    return copy


def run_shell(example: Example) -> str | None:
    """Run a shell block; the failure's text (exit status and output) when it fails."""
    if re.search(r"\bpip3? install\b", str(example.parsed)):
        # It would replace the package the tests import (and leave it pointing at the copy).
        return ('installs into the environment that runs the tests: mark the block with '
                '<!-- skip: next "why it need not run" --> and say where CI installs the same')
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", os.defpath)])
    try:
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", str(example.parsed)],
                              cwd=example.namespace["doc_checkout"], env={**os.environ, "PATH": path},
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=SHELL_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        return f"still running after {exc.timeout:.0f} s (does it wait for a person?)"
    if done.returncode != 0:
        return (f"exit status {done.returncode}\n--- stdout (end)\n{done.stdout[-4000:]}"
                f"\n--- stderr (end)\n{done.stderr[-4000:]}")
    return None


pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser(), SkipParser(),
             *(CodeBlockParser(language, run_shell) for language in ("sh", "bash", "shell"))],
    patterns=["README.md", "docs/*.md", "docs/*/*.md"],
    fixtures=["doc_checkout"],
).pytest()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, pytest.TestReport,
                                                                                        pytest.TestReport]:
    """A skipped block is reported at its page and line (Sybil skips by raising unittest's
    SkipTest, which pytest would place in unittest's own source)."""
    report = yield
    if report.skipped and isinstance(item, SybilItem) and isinstance(report.longrepr, tuple):
        report.longrepr = (str(item.path), item.example.line, report.longrepr[2])
    return report
