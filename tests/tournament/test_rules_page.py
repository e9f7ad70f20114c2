"""The games' rules as ``trickcore play`` serves them (tournament/rules_page.py): every game's
rules page renders, from the checkout's docs/rules or, in an installed wheel, from the copy the
build put into the package; each heading has the anchor of its number, and every rule a prompt
cites (``GameInfo.table``) is an anchor of its game's page; raw HTML and script links in the
Markdown come out as text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tournament import rules_page
from tournament.rules_page import RulesNotFound, anchor_of, render_rules, rules_text
from trickcore.games import list_games, table_of

GAMES_WITH_RULES = sorted(info.name for info in list_games() if table_of(info.name).get("rules"))


def _anchors(html: str) -> set[str]:
    return set(re.findall(r'<h[1-6] id="([^"]+)"', html))


@pytest.mark.parametrize("game", GAMES_WITH_RULES)
def test_every_rule_a_prompt_cites_is_an_anchor_of_its_rules_page(game):
    table = table_of(game)
    page = rules_page.rules_page(table["rules"])
    anchors = _anchors(page)
    assert {"s1", "s2"} <= anchors, sorted(anchors)[:10]
    cited = {kind: d["rule"] for kind, d in table["decisions"].items() if d.get("rule")}
    assert cited, f"{game}: no decision cites a rule"
    for kind, rule in cited.items():
        assert rules_page.anchor_of_rule(rule) in anchors, f"{game}: {kind} cites {rule}, not a section of the page"


def test_anchors_are_the_numbers_the_rules_are_cited_by():
    assert anchor_of("4. Trump selection (*Trumpf bestimmen*)") == "s4"
    assert anchor_of("4.4 Exchange of the 7 (2 and 3 players only)") == "s4.4"
    assert anchor_of("11 Information") == "s11"
    assert anchor_of("D-7: the exchange of the 7") == "D-7"
    assert anchor_of("KJ-07: 2 players") == "KJ-07"
    assert anchor_of("Beim Jupiter — rules") == "beim-jupiter-rules"
    assert rules_page.anchor_of_rule("§6.3") == "s6.3"
    _, body = render_rules("# T\n\n## 1. A\n\n## Notes\n\n## Notes\n")
    assert _anchors(body) == {"t", "s1", "notes", "notes-2"}


def test_raw_html_and_script_links_are_text():
    _, body = render_rules('# Rules\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n'
                           '[click](javascript:alert(1)) [data](data:text/html,<b>x</b>) *kept*\n\n'
                           '| a | b |\n|---|---|\n| <i>1</i> | 2 |\n')
    assert "<script" not in body and "<img" not in body and "<i>" not in body
    assert "&lt;script&gt;" in body and "&lt;img" in body
    assert 'href="javascript:' not in body and 'href="data:' not in body
    assert "<em>kept</em>" in body and "<table>" in body


def test_a_package_without_a_checkout_reads_its_packaged_copy(monkeypatch, tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "klaberjass.md").write_text("# Packaged\n\n## 4. Trump\n", encoding="utf-8")
    monkeypatch.setattr(rules_page, "_checkout_rules", lambda: None)
    monkeypatch.setattr(rules_page, "files", lambda package: tmp_path)
    assert rules_text("klaberjass.md").startswith("# Packaged")
    with pytest.raises(RulesNotFound):
        rules_text("squint.md")
    for name in ("../klaberjass.md", "rules/klaberjass.md", "klaberjass.txt", ""):
        with pytest.raises(RulesNotFound):
            rules_text(name)


def test_the_rules_are_read_from_the_checkout_or_from_the_package():
    """From a checkout, docs/rules itself (the one source); from an installed wheel (CI's wheel
    run), the copy the build put into the package, which must then be there for every game."""
    folder = rules_page._checkout_rules()
    for game in GAMES_WITH_RULES:
        name = table_of(game)["rules"]
        if folder is not None:
            assert rules_text(name) == (folder / name).read_text(encoding="utf-8")
            assert folder == Path(rules_page.__file__).resolve().parent.parent / "docs" / "rules"
        else:
            packaged = rules_page.files("tournament").joinpath("rules").joinpath(name)
            assert packaged.is_file(), f"the wheel lacks the rules {name}"
            assert rules_text(name) == packaged.read_text(encoding="utf-8")
