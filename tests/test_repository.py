"""The repository stands alone: what a stranger clones names no path of a development
machine or workplace, every relative link in the docs resolves (to a file and, for the
rules pages, to a heading), and every citation of a rules page names a page that exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Built from pieces so that this file does not match itself.
FORBIDDEN = re.compile("|".join([
    r"(^|[^.a-z])/(" + "wo" + "rk|fa" + "rm)/",       # absolute workspace folders
    r"/ro" + r"ot/|/ho" + r"me/[a-z]",                # home folders
    r"iss" + r"ues (show|list|resolved|blocked|stops|ci)\b",  # the workplace's tracker commands
    r"\biss" + r"ues? #?\d+\b",                          # a tracker's issue numbers
    r"(\.\./)+sha" + r"red/",                         # folders beside the checkout
    r"\bsha" + r"red/(rules|seeds|research)\b",
]))
TEXT_SUFFIXES = {".py", ".pyx", ".pxd", ".pyi", ".c", ".h", ".md", ".toml", ".cfg", ".txt", ".cdef", ".json", ""}


def tracked_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        names = [n for n in out.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an sdist): every file
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts]
    return [ROOT / n for n in names if (ROOT / n).is_file()]


def test_no_tracked_file_names_a_machine_or_workplace_path():
    hits = []
    for path in tracked_files():
        if path.suffix not in TEXT_SUFFIXES and path.name not in ("run",):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if FORBIDDEN.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert not hits, "tracked files name paths outside the repository:\n" + "\n".join(hits)


def test_the_pattern_catches_what_it_must():
    for leak in ["see /" + "work/main/x", "`/" + "farm/a`", "cd /" + "root/x", "run `iss" + "ues show 3`",
                 "[x](../../../sha" + "red/rules/squint.md)", "sha" + "red/seeds/x.txt", "the goal of iss" + "ue 4"]:
        assert FORBIDDEN.search(leak), leak
    for fine in ["docs/rules/squint.md", "ties are shared", "a shared library", "/usr/include"]:
        assert not FORBIDDEN.search(fine), fine


def _slug(heading: str) -> str:
    """GitHub's anchor for a markdown heading."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        slug = _slug(line.lstrip("#"))
        anchors.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


MARKDOWN = [p for p in tracked_files() if p.suffix == ".md"]


@pytest.mark.parametrize("page", MARKDOWN, ids=[str(p.relative_to(ROOT)) for p in MARKDOWN])
def test_relative_links_resolve(page):
    broken = []
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no heading with that anchor")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_every_cited_rules_page_exists():
    cited = set()
    for path in tracked_files():
        if path.suffix in (".py", ".pyx", ".md", ".c", ".h", ".toml"):
            cited |= set(re.findall(r"docs/rules/([a-z_]+)\.md", path.read_text(encoding="utf-8")))
    missing = sorted(name for name in cited if not (ROOT / "docs" / "rules" / f"{name}.md").is_file())
    assert cited and not missing, f"cited but missing: {missing}"


def test_every_scenario_vector_of_the_rules_has_a_test():
    """Each scenario id a rules page defines (BJ-07, ST-28, KJ-12, SQ-24) is named by a test."""
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests" / "games").rglob("*.py"))
    named = {m.replace("_", "-") for m in re.findall(r"(?<![A-Za-z])(?:BJ|ST|KJ|SQ)[-_]\d\d(?!\d)", tests)}
    missing = {}
    for page in sorted((ROOT / "docs" / "rules").glob("*.md")):
        ids = set(re.findall(r"\b(?:BJ|ST|KJ|SQ)-\d\d\b", page.read_text(encoding="utf-8")))
        assert ids, f"{page.name} defines no scenario vectors"
        if ids - named:
            missing[page.name] = sorted(ids - named)
    assert not missing, f"scenario vectors without a test: {missing}"


def test_hypothesis_runs_the_same_examples_everywhere():
    # tests/conftest.py loads a derandomised profile unless HYPOTHESIS_PROFILE names another
    import os

    from hypothesis import settings

    if os.environ.get("HYPOTHESIS_PROFILE", "trickcore") == "trickcore":
        assert settings.default.derandomize
