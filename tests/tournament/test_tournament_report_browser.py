"""The report and the replay viewer in a real headless browser (the system's Chromium through
Selenium: tests/tournament/browser.py), as a person would use them: the pages render without a
console error and fetch nothing; stepping changes the trick on the table; the keyboard works;
every card of every deck is drawn; and a seat view shows, at every decision, none of the cards
hidden from that seat (the organiser's view, which shows them, proves the check can fail).

Skipped only when no browser is installed here; in CI (``CI`` set) a missing browser fails."""

from __future__ import annotations

import os
import re

import pytest

from tests.tournament.browser import Browser, missing_reason
from tests.tournament.report_fixtures import GAMES, card_pattern, hidden_cards, random_record, real_run
from tournament.replay_html import write_replay
from tournament.report import REPORT_FILE

_MISSING = missing_reason()
if _MISSING and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the browser tests: {_MISSING}")
pytestmark = pytest.mark.skipif(_MISSING is not None, reason=_MISSING or "")

#: Per frame of the view shown: every card the page draws (data-card) and every word of its text.
COLLECT = """
const vi = arguments[0], out = [];
setView(vi);
for (let j = 0; j <= LAST; j++) {
  go(j);
  const cards = Array.from(document.querySelectorAll("[data-card]"), e => e.dataset.card);
  const titles = Array.from(document.querySelectorAll("[title]"), e => e.title);
  // The words of everything drawn, text node by text node (not the scripts: the page's data holds
  // every view; a seat's own page, replay --seat N --html, holds its view only).
  const words = [];
  for (const root of document.querySelectorAll("header, nav, main")) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) words.push(...walk.currentNode.nodeValue.split(/[^A-Za-z0-9=+]+/));
  }
  out.push(cards.concat(words, titles.join(" ").split(/[^A-Za-z0-9=+]+/)));
}
return out;
"""


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out, result = real_run(tmp_path_factory)
    assert result.exit_code == 0, result.output
    return out


def _clean(browser: Browser) -> None:
    errors = browser.errors()
    assert errors == [], errors
    assert browser.resources() == []  # nothing fetched: every byte is in the file


def test_report_renders_and_links_to_replays(browser, run):
    browser.open(run / REPORT_FILE)
    assert browser.js("return document.body.dataset.ready") == "1"
    _clean(browser)
    js = browser.js
    assert js("return document.querySelectorAll('#standings-table tbody tr').length") == 3
    assert js("return document.querySelectorAll('#scores svg.hist').length") == 3
    assert js("return document.querySelectorAll('#ratings polyline').length") == 3
    assert js("return document.querySelectorAll('#pair-table tbody tr').length") == 3
    assert js("return document.querySelectorAll('#games-table tbody tr').length") == 6
    # Sorting the standings by a column (click, as a person would).
    header = browser.driver.find_element("xpath", "//table[@id='standings-table']//th[text()='bot']")
    header.click()
    names = js("return Array.from(document.querySelectorAll('#standings-table tbody tr td:nth-child(2)'), "
               "td => td.textContent)")
    assert names == sorted(names)
    # Filtering the games by a bot's name keeps its games (all of them here) and by job one game.
    box = browser.driver.find_element("id", "game-filter")
    box.send_keys("t0-d0-s3")
    assert js("return document.querySelectorAll('#games-table tbody tr').length") == 1
    box.clear()
    box.send_keys("x")  # clear() fires no input event; type and delete
    box.send_keys("\b")
    assert js("return document.querySelectorAll('#games-table tbody tr').length") == 6
    # A fault links to its game, and the game to its replay page, which opens cleanly.
    fault = browser.driver.find_element("css selector", "#faults a.job")
    job = fault.text
    fault.click()
    row = browser.driver.find_element("id", f"game-{job}")
    assert js("return location.hash") == f"#game-{job}"  # the link went to the game's row
    assert js("return document.querySelector(':target').id") == f"game-{job}" and row.is_displayed()
    row.find_element("link text", "replay").click()
    assert browser.driver.current_url.split("#")[0].endswith(f"replays/{job}.html")
    assert js("return document.body.dataset.ready") == "1"
    _clean(browser)
    # Its last decision shows the fault, in the organiser's view.
    js("setView(D.views.length - 1); go(LAST)")
    assert "illegal" in js("return document.getElementById('step').innerText")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    base = tmp_path_factory.mktemp("replays")
    out = {}
    for game, players, options in GAMES:
        record = random_record(game, players, options)
        out[f"{game}-{players}"] = (record, write_replay(record, base / f"{game}-{players}.html"))
    return out


@pytest.mark.parametrize("key", [f"{g}-{p}" for g, p, _ in GAMES])
def test_replay_pages(browser, pages, key):
    record, path = pages[key]
    players = record["players"]
    browser.open(path)
    js = browser.js
    assert js("return document.body.dataset.ready") == "1"
    _clean(browser)
    last = js("return LAST")
    assert last == len(record["history"])

    # Every card of the game is drawn as a card of its deck (none falls back to plain text).
    pattern = card_pattern(record["game"])
    import trickcore

    state = trickcore.replay({**record, "history": []})
    deck = {c for s in range(players) for c in state.observation(s).get("hand", [])} | {
        a for a in record["history"] if pattern.match(a)}
    assert deck and js("return arguments[0].filter(t => !parseCard(t))", sorted(deck)) == []
    labels = js("return arguments[0].map(t => parseCard(t).label)", sorted(deck))
    assert all(labels) and len(set(labels)) >= len(deck) - 1  # (Beim Jupiter's lambs are alike)

    # Stepping forward over a card play changes the trick on the table (buttons, then keys).
    omni = players  # the organiser's view is the last
    plays = [k for k in range(1, last + 1) if pattern.match(record["history"][k - 1])
             and js("return D.steps[arguments[0]].kind", k) == "play"]
    k = plays[1]
    js("setView(arguments[0]); go(arguments[1])", omni, k - 1)
    trick = "return Array.from(document.querySelectorAll('#trick [data-card]'), e => e.dataset.card)"
    before = js(trick)
    browser.driver.find_element("id", "next").click()
    after = js(trick)
    assert after != before and record["history"][k - 1] in after
    assert js("return document.getElementById('position').textContent") == f"{k} / {last}"
    body = browser.driver.find_element("tag name", "body")
    body.send_keys("\ue012")  # ArrowLeft
    assert js(trick) == before
    body.send_keys("\ue014")  # ArrowRight
    assert js(trick) == after
    body.send_keys("1")  # the digit keys choose a seat's view
    assert js("return D.views[vi].seat") == 1
    body.send_keys("\ue011")  # Home
    assert js("return k") == 0
    _clean(browser)

    # At every decision, each seat view draws and writes none of the cards hidden from its seat.
    for seat in range(players):
        hidden = hidden_cards(record, seat)
        shown = js(COLLECT, seat)
        assert len(shown) == last + 1
        for j, tokens in enumerate(shown):
            leaked = set(tokens) & hidden[j]
            assert not leaked, f"seat {seat} sees {sorted(leaked)} at decision {j}"
    everything = js(COLLECT, omni)
    assert set(everything[0]) & hidden_cards(record, 0)[0]  # the organiser's view shows them
    _clean(browser)


def test_report_render_time_is_recorded(browser, run):
    """The report opens fast: the browser's own timing of the small run's report (the figures for
    a 100,000-game run are in docs/tournament.md)."""
    browser.open(run / REPORT_FILE)
    loaded = browser.js("const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd")
    assert 0 < loaded < 5000
    assert re.match(r"\d", browser.js("return document.getElementById('game-count').textContent"))
