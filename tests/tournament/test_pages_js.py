"""The pages' JavaScript (tournament/templates/*.js) parses: each file alone, and each page's
scripts joined in the order the page inlines them (``asset(...)`` in the templates), checked by
Node's parser (``node --check``).  What the scripts do is tested in a real browser
(test_tournament_report_browser.py, test_play_browser.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "tournament" / "templates"


def node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed; .ci/run installs it")
        pytest.skip("node is not installed on this machine")
    return found


def check(source: str, tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    done = subprocess.run([node(), "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("script", sorted(p.name for p in TEMPLATES.glob("*.js")))
def test_each_script_parses(script, tmp_path):
    check((TEMPLATES / script).read_text(encoding="utf-8"), tmp_path, script)


def page_scripts() -> list[tuple[str, list[str]]]:
    pages = []
    for template in sorted(TEMPLATES.glob("*.j2")):
        for names in re.findall(r"<script>\{\{ asset\(([^)]*)\) \}\}</script>", template.read_text(encoding="utf-8")):
            pages.append((template.name, re.findall(r'"([^"]+\.js)"', names)))
    return pages


def test_every_page_inlines_its_scripts():
    assert {page for page, _ in page_scripts()} == {"play.html.j2", "replay.html.j2", "report.html.j2"}


@pytest.mark.parametrize(("page", "scripts"), page_scripts(), ids=[page for page, _ in page_scripts()])
def test_each_pages_scripts_parse_together(page, scripts, tmp_path):
    joined = "\n".join((TEMPLATES / name).read_text(encoding="utf-8") for name in scripts)
    check(joined, tmp_path, page + ".js")


def test_a_syntax_error_is_caught(tmp_path):
    with pytest.raises(AssertionError, match="SyntaxError"):
        check("function broken( {", tmp_path, "broken.js")
