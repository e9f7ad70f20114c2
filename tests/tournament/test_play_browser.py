"""``trickcore play`` in a real headless browser (the system's Chromium through Selenium:
tests/tournament/browser.py), as a person plays it: a whole game of every game and player count
played by clicking legal options, to the final scores; a click that is no option does nothing;
the keyboard alone plays a game; and at every decision of every game, neither the page (every
card it draws, every word it shows) nor any message it was sent holds a card hidden from the
person's seat -- the same check flags the organiser's view, so it can fail.

Skipped only when no browser is installed here; in CI (``CI`` set) a missing browser fails."""

from __future__ import annotations

import json
import os
import random
import time
import urllib.request
from typing import Any

import pytest

from tests.tournament.browser import Browser, missing_reason
from tests.tournament.play_fixtures import (
    Server,
    finished_records,
    hidden_now,
    names,
    omniscient_tokens,
    tokens_of_frames,
)
from tournament.play import HINT_WORLDS

_MISSING = missing_reason()
if _MISSING and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the browser tests: {_MISSING}")
pytestmark = pytest.mark.skipif(_MISSING is not None, reason=_MISSING or "")

#: Every game and player count (the short options where a game has them), the person in a
#: different seat from game to game, and every Sticheln variant once.
GAMES = [("beim-jupiter", 3, 0, {}), ("beim-jupiter", 4, 2, {}), ("beim-jupiter", 5, 4, {}),
         ("sticheln", 3, 1, {"rounds": 1, "nebel": True}), ("sticheln", 4, 0, {"rounds": 1, "verkehrt": True}),
         ("sticheln", 5, 2, {"rounds": 1, "mild": True}), ("sticheln", 6, 5, {"rounds": 1, "verschaerft": True}),
         ("sticheln", 7, 3, {"rounds": 1, "verspaetet": True}), ("sticheln", 8, 7, {"rounds": 1}),
         ("hattrick", 4, 1, {"games": 1}), ("hattrick", 5, 0, {"games": 1}), ("hattrick", 6, 3, {"games": 1}),
         ("hattrick", 7, 6, {"games": 1}), ("squint", 5, 2, {"deal_limit": 1}),
         ("klaberjass", 2, 0, {"target": 1}), ("klaberjass", 3, 1, {"target": 1}),
         ("klaberjass", 4, 3, {"target": 1}), ("reference", 4, 1, {})]

STATUS = """
const s = document.getElementById("status");
return [s.dataset.state, Number(s.dataset.seq), document.getElementById("choices").dataset.legal];
"""

#: Every card the page draws (data-card), every word of its text and of its titles.
SHOWN = """
const out = Array.from(document.querySelectorAll("[data-card]"), e => e.dataset.card);
const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
  acceptNode: n => n.parentElement && n.parentElement.closest("script") ? NodeFilter.FILTER_REJECT
                                                                       : NodeFilter.FILTER_ACCEPT});
while (walk.nextNode()) out.push(...walk.currentNode.nodeValue.split(/[^A-Za-z0-9=+]+/));
for (const e of document.querySelectorAll("[title]")) out.push(...e.title.split(/[^A-Za-z0-9=+]+/));
return out;
"""


#: What is out of place on the page at 1280x720: a seat, a trick card or a card of the hand
#: outside the window, a trick card covered by something else (a seat's panel), a card of the
#: hand drawn dimmed (the hand stays readable when its cards are not the options, at a bid), a
#: seat not drawn, or a page that scrolls.
LAYOUT = """
const W = innerWidth, H = innerHeight, out = [];
const inside = (e, what) => {
  const r = e.getBoundingClientRect();
  if (r.left < 0 || r.top < 0 || r.right > W || r.bottom > H)
    out.push(`${what} outside the window: ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
};
const seats = document.querySelectorAll("#seats .seat");
if (seats.length !== N) out.push(`${seats.length} seats drawn of ${N}`);
seats.forEach(e => inside(e, e.id));
document.querySelectorAll("#trick .play .card").forEach(e => {
  inside(e, "trick card " + e.dataset.card);
  const r = e.getBoundingClientRect();
  const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  if (!top || !e.contains(top))
    out.push(`trick card ${e.dataset.card} covered by ${top ? top.className || top.id : "nothing"}`);
});
document.querySelectorAll("#hand .card").forEach(e => {
  inside(e, "hand card " + e.dataset.card);
  if (getComputedStyle(e).opacity !== "1") out.push(`hand card ${e.dataset.card} dimmed`);
});
const meet = (a, b) => Math.min(a.right, b.right) > Math.max(a.left, b.left) + 0.5
                    && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top) + 0.5;
document.querySelectorAll("#tableinfo .fact").forEach(n => {
  const a = n.getBoundingClientRect();
  document.querySelectorAll("#trick .play, #trick .title, #seats .seat").forEach(e => {
    if (meet(a, e.getBoundingClientRect()))
      out.push(`the note ${n.textContent} under ${e.className} ${e.textContent.slice(0, 20)}`);
  });
});
const sheet = document.querySelector("#sheet table");
if (sheet && sheet.getBoundingClientRect().right > document.getElementById("sheet").getBoundingClientRect().right)
  out.push("the score sheet is wider than its box");
document.querySelectorAll("aside .name, #sheet td.l").forEach(e => {
  if (e.getClientRects().length > 1 || e.scrollHeight > e.clientHeight + 1)
    out.push(`the name ${e.textContent} is broken over lines`);
});
const page = document.documentElement;
if (page.scrollHeight > H || page.scrollWidth > W)
  out.push(`the page scrolls: ${page.scrollWidth}x${page.scrollHeight}`);
return out;
"""


#: The words of the page's visible text that are a field's name or JSON, not words of the game:
#: a name with an underscore, a bracket or brace, true/false/null.
RAW = """
return document.body.innerText.split(/\\s+/).filter(w => /_|[\\[\\]{}]|^(true|false|null)$/.test(w));
"""


@pytest.fixture(scope="module")
def browser():
    b = Browser(websockets=True)
    # The page's own size (the window's less the browser's bars): the smallest screen it is made for.
    b.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                             {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False})
    yield b
    b.close()


class Person:
    """Plays one seat through the page: waits for its turn, clicks, checks what it was shown."""

    def __init__(self, browser: Browser, server: Server, session: Any = None) -> None:
        self.b, self.server = browser, server
        self.session = session or server.session    # the seat's session (one of the table's people)
        self.seq = 0
        self.tokens: set[str] = set()       # every string of every message the page got
        self.decisions = 0
        self.trick_won_shown = False         # the table showed a completed trick's winner
        self.sheets = 0                      # the deals' score sheets checked between two deals

    def wait(self, timeout: float = 60) -> tuple[str, list[str]]:
        """The next state the person acts in (a decision, a deal's end, the game's end)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state, seq, legal = self.b.js(STATUS)
            if seq > self.seq and state in ("ask", "pause", "over"):
                self.seq = seq
                return state, json.loads(legal)
            assert state not in ("closed", "taken"), f"the page says {state}"
            time.sleep(0.005)
        raise AssertionError("the page did not come to a decision in time")

    def poll(self) -> tuple[str, list[str]] | None:
        """The state the person acts in now, if the page has come to a new one (else None)."""
        state, seq, legal = self.b.js(STATUS)
        assert state not in ("closed", "taken"), f"the page says {state}"
        if seq > self.seq and state in ("ask", "pause", "over"):
            self.seq = seq
            return state, json.loads(legal)
        return None

    def check_layout(self) -> None:
        """Every seat, the trick and the hand are on the screen, none hidden, the hand not dimmed."""
        wrong = self.b.js(LAYOUT)
        assert not wrong, f"at {self.b.js('return [state, decision]')}: {wrong}"
        raw = self.b.js(RAW)
        assert not raw, f"the page shows field names or JSON: {raw}"

    def check_sheet(self) -> None:
        """At a deal's end (and the game's): the score sheet's every value is the one of the deal's
        end in the game record (replayed), its tricks the deal's tricks each seat won, and the
        table still shows the ended deal's last trick."""
        import trickcore
        from trickcore.games import table_of

        state = self.session.state
        assert state is not None
        seat, players = self.session.seat, state.num_players
        sheet = table_of(state.info.name)["sheet"]
        events, _ = trickcore.replay(state.to_record()).events_for(seat, 0)
        ends = [i for i, e in enumerate(events) if e["type"] == sheet["event"]]
        end = events[ends[-1]]
        tricks = [0] * players
        for e in events[(ends[-2] + 1 if len(ends) > 1 else 0):ends[-1]]:
            if e["type"] == "trick":
                for w in (list(e["winners"].values()) if "winners" in e else
                          [x for x in (e.get("winner"), e.get("winner2")) if x is not None]):
                    tricks[w] += 1
        teams = state.info.teams(players) if state.info.teams is not None else None
        cells = self.b.js("""return Array.from(document.querySelectorAll("#sheet td[data-key]"),
                             td => [td.dataset.key, Number(td.dataset.seat), JSON.parse(td.dataset.value)]);""")
        assert len(cells) == players * (len(sheet["columns"]) + 1), "the score sheet is not shown"
        for key, s, value in cells:
            if key == "tricks":
                assert value == tricks[s], f"tricks of seat {s}: {value}, the record's {tricks[s]}"
                continue
            given = end[key]
            team = next(i for i, t in enumerate(teams) if s in t) if teams else None
            expected = given[s] if len(given) == players else given[team]
            assert value == expected, f"{key} of seat {s}: {value}, the record's {expected}"
        last = next(e for e in reversed(events[:ends[-1]]) if e["type"] == "trick")
        on_table = self.b.js('return Array.from(document.querySelectorAll("#trick .play .card"), e => e.dataset.card)')
        assert sorted(on_table) == sorted(last["cards"]), "the ended deal's last trick is not on the table"

    def check_deal_tricks_at_the_end(self) -> None:
        """Once the game is over, a seat's count of the deal's tricks (``deal_tricks``) is the ended
        deal's, as on the score sheet, not what the game's last view has cleared."""
        from trickcore.games import table_of

        state = self.session.state
        assert state is not None
        keys = [key for key, f in table_of(state.info.name)["fields"].items() if f.get("deal_tricks")]
        if not keys:
            return
        sheet = dict(self.b.js("""return Array.from(document.querySelectorAll('#sheet td[data-key="tricks"]'),
                                  td => [Number(td.dataset.seat), JSON.parse(td.dataset.value)]);"""))
        for key in keys:
            seats = dict(self.b.js("""return Array.from(document.querySelectorAll('#seats .seat'), d => {
                const f = d.querySelector('.fact[data-key="' + arguments[0] + '"]');
                return [Number(d.id.slice(5)), f ? JSON.parse(f.dataset.value) : null]; });""", key))
            assert seats == sheet, f"{key} at the seats {seats}, the sheet's tricks {sheet}"
            assert sum(sheet.values()) > 0

    def check_shown(self) -> None:
        """Nothing the page shows or was sent is a card hidden from the seat now."""
        state = self.session.state
        assert state is not None
        self.tokens |= tokens_of_frames(self.b.websocket_frames())
        hidden = hidden_now(state, self.session.seat)
        shown = names(self.b.js(SHOWN))
        assert not shown & hidden, f"the page shows hidden cards {sorted(shown & hidden)}"
        assert not self.tokens & hidden, f"the page was sent hidden cards {sorted(self.tokens & hidden)}"

    def click(self, option: str) -> None:
        """Choose ``option`` as a person would: its cards in the hand, then its button if one is
        still needed."""
        from selenium.webdriver.common.by import By

        for card in self.b.js("return cardsOf(arguments[0])", option):
            for e in self.b.driver.find_elements(By.CSS_SELECTOR, "#hand .card.legal"):
                if e.get_attribute("data-card") == card and "chosen" not in (e.get_attribute("class") or ""):
                    e.click()
                    break
            else:
                raise AssertionError(f"no legal card {card} to click for {option}")
            state, seq, _legal = self.b.js(STATUS)
            if state != "ask" or seq != self.seq:      # sent (the next decision may be here already)
                return
        for button in self.b.driver.find_elements(By.CSS_SELECTOR, "#choices button"):
            if button.get_attribute("data-action") == option:
                button.click()
                return
        raise AssertionError(f"no button for {option}: " + json.dumps(self.b.js(
            "return [state, legal, selected, decision, document.getElementById('hand').innerHTML.length]")))

    def play(self, rng: random.Random, check: bool = True) -> dict[str, Any]:
        """Every decision of one game, a random legal option each, to the final scores."""
        from selenium.webdriver.common.by import By

        while True:
            state, legal = self.wait()
            if check:
                self.check_shown()
                self.check_layout()
            self.trick_won_shown |= "won by" in self.b.js("return document.getElementById('trick').textContent").lower()
            if state == "ask":
                assert legal, "a decision without options"
                self.click(rng.choice(legal))
                self.decisions += 1
            elif state == "pause":
                self.check_sheet()
                self.sheets += 1
                self.b.driver.find_element(By.CSS_SELECTOR, "#choices button.go").click()
            else:
                self.check_sheet()
                self.check_deal_tricks_at_the_end()
                return {"scores": self.b.js("return over.scores"), "text": self.b.js(
                    "return document.getElementById('seats').textContent")}


def check_rule_link(browser: Browser, game: Any) -> None:
    """At a decision the status links the section of the game's rules it follows, and the link
    opens the rules page (the game's docs/rules rendered) with that section's anchor; a game
    without rules has no link."""
    from tournament.rules_page import anchor_of_rule
    from trickcore.games import table_of

    table = table_of(game.info.name)
    links = browser.js('return Array.from(document.querySelectorAll("#status a.rule"), a => [a.href, a.textContent])')
    rule = table["decisions"].get(game.decision(), {}).get("rule")
    if not table["rules"] or not rule:
        assert links == []
        return
    ((href, text),) = links
    assert text == f"{game.info.title.split(' (')[0]} {rule}"   # Klaberjass §4
    assert href.endswith("#" + anchor_of_rule(rule))
    with urllib.request.urlopen(href) as answer:
        assert f'id="{anchor_of_rule(rule)}"' in answer.read().decode()


@pytest.mark.parametrize("game, players, seat, options", GAMES, ids=[f"{g}-{n}" for g, n, _, _ in GAMES])
def test_a_whole_game_by_clicking(browser, tmp_path, game, players, seat, options):
    server = Server(tmp_path, game, players, seat=seat, options=options)
    try:
        browser.websocket_frames()                     # the frames of earlier pages
        browser.driver.get(server.url)
        person = Person(browser, server)
        first = True
        rng = random.Random(f"{game}-{players}")
        from selenium.webdriver.common.by import By

        # The first decision: a card that is no option does nothing, and the organiser's view
        # would fail the check the page passes.
        state, legal = person.wait()
        person.check_shown()
        person.check_layout()
        game = server.session.state
        assert game is not None
        assert omniscient_tokens(game) & hidden_now(game, seat), "the organiser's view shows hidden cards"
        if state == "ask":
            check_rule_link(browser, game)
            moves = len(game.action_ids)
            for e in browser.driver.find_elements(By.CSS_SELECTOR, "#hand .card:not(.legal)")[:2]:
                e.click()
            time.sleep(0.2)
            assert browser.js(STATUS)[0] == "ask" and len(game.action_ids) == moves
            assert browser.js("return selected.length") == 0
            person.click(rng.choice(legal))
            first = False
        elif state == "pause":
            browser.driver.find_element(By.CSS_SELECTOR, "#choices button.go").click()
        result = person.play(rng)
        assert person.decisions + (0 if first else 1) > 0
        assert person.trick_won_shown, "no trick's winner was shown"
        (record,) = finished_records(server.session)
        assert result["scores"] == record["scores"]
        assert "final" in result["text"]
        # The result at the top links the replay viewer of this game, from the person's seat.
        result_text = browser.js("return document.getElementById('result').innerText")
        assert all(name in result_text for name in ("you", "New game", "Replay this game"))
        with urllib.request.urlopen(browser.js("return document.querySelector('#result a').href")) as answer:
            assert "trickcore replay viewer" in answer.read().decode()
        assert record["bots"][seat] == "you"
        assert browser.errors() == []
        assert browser.resources() == []               # the page fetches nothing
    finally:
        server.stop()


@pytest.mark.parametrize("game, players, options", [("klaberjass", 2, {"target": 1}), ("reference", 4, {})])
def test_the_keyboard_alone_plays_a_game(browser, tmp_path, game, players, options):
    """Arrows and Enter choose a card, digits a button, n goes on: no mouse."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    server = Server(tmp_path, game, players, options=options)
    try:
        browser.driver.get(server.url)
        person = Person(browser, server)
        keys = ActionChains(browser.driver)
        while True:
            state, legal = person.wait()
            if state == "ask":
                if browser.js("return document.querySelectorAll('#choices button').length"):
                    keys.send_keys("1").perform()
                else:
                    keys.send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ENTER).perform()
                    now, seq, _legal = browser.js(STATUS)
                    if now == "ask" and seq == person.seq:  # a card with several options: pick one
                        keys.send_keys("1").perform()
            elif state == "pause":
                keys.send_keys("n").perform()
            else:
                break
        (record,) = finished_records(server.session)
        assert all(a["by"] in ("person", "forced") for a in record["actions"] if a["seat"] == 0)
        assert browser.errors() == []
    finally:
        server.stop()


def test_a_second_tab_cannot_act_until_the_first_has_gone(browser, tmp_path):
    """A second tab on the seat's page is told the seat is taken and offers nothing to click;
    once the first tab has closed, reloading it takes the seat, at the decision left open."""
    server = Server(tmp_path, "reference", 4)
    first = browser.driver.current_window_handle
    try:
        browser.driver.get(server.url)
        person = Person(browser, server)
        state, legal = person.wait()
        assert state == "ask"
        browser.driver.switch_to.new_window("tab")
        browser.driver.get(server.url)
        deadline = time.monotonic() + 10
        while browser.js(STATUS)[0] != "taken" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert browser.js(STATUS)[0] == "taken"
        assert browser.js("return document.querySelectorAll('#hand .card.legal, #choices button').length") == 0
        second = browser.driver.current_window_handle
        browser.driver.switch_to.window(first)
        browser.driver.close()
        browser.driver.switch_to.window(second)
        time.sleep(0.3)
        browser.driver.refresh()
        person.seq = 0
        state, again = person.wait()
        assert state == "ask" and again == legal
        person.click(again[0])
        person.wait()                                  # the game went on from this tab
    finally:
        server.stop()


def test_two_people_play_a_game_each_from_their_own_page(browser, tmp_path):
    """Two people at Klaberjass with four, partners (seats 0 and 2), against two bots: each has a
    page with a key of their own that shows only their seat, the one key does not open the other's
    seat, and a person whose page goes away comes back within the grace time; the game is played
    to its end from both pages."""
    from selenium.webdriver.common.by import By

    server = Server(tmp_path, "klaberjass", 4, seat=0, options={"target": 1}, people=(2,), linger_s=10.0)
    second = Browser(websockets=True)
    try:
        first_url, second_url = server.urls
        assert first_url != second_url
        lead, partner = server.session.group
        assert (lead.seat, partner.seat) == (0, 2)
        browser.websocket_frames()
        browser.driver.get(first_url)
        second.driver.get(second_url)
        people = [Person(browser, server, lead), Person(second, server, partner)]
        assert [p.b.js("return ME") for p in people] == [0, 2]
        rng = random.Random(3)
        done, came_back, deadline = [False, False], False, time.monotonic() + 300
        while not all(done):
            assert time.monotonic() < deadline, "the game did not end"
            for i, person in enumerate(people):
                if done[i]:
                    continue
                now = person.poll()
                if now is None:
                    continue
                state, legal = now
                person.check_shown()
                if state == "ask":
                    if i == 1 and not came_back:   # the partner's page goes away and comes back
                        second.driver.get("about:blank")
                        time.sleep(0.5)
                        second.driver.get(second_url)
                        person.seq = 0
                        came_back = True
                        continue
                    person.click(rng.choice(legal))
                elif state == "pause":
                    person.check_sheet()
                    person.b.driver.find_element(By.CSS_SELECTOR, "#choices button.go").click()
                else:
                    person.check_sheet()
                    done[i] = True
            time.sleep(0.01)
        assert came_back
        (record,) = finished_records(server.session)
        assert record["bots"][0] == "person0" and record["bots"][2] == "person2"
        assert {a["by"] for a in record["actions"] if a["seat"] in (0, 2)} <= {"person", "forced"}
        assert browser.errors() == [] and second.errors() == []
    finally:
        second.close()
        server.stop()


def test_a_hint_is_the_search_bots_choice_and_goes_into_the_record(browser, tmp_path):
    """With hints on, the hint button at a decision shows what the bundled search bot chooses for
    the same state and seed, with its value of every option; the game record keeps the hint. A
    page without hints has no button, and a hint asked of it anyway is not given."""
    from selenium.webdriver.common.by import By

    from trickcore.mirror import Mirror
    from trickcore.search import search

    server = Server(tmp_path, "beim-jupiter", 4, seat=0, hints=True)
    try:
        browser.driver.get(server.url)
        person = Person(browser, server)
        rng = random.Random(5)
        while True:       # to the first card the person plays
            state, legal = person.wait()
            game = server.session.state
            assert game is not None
            if state == "ask" and game.decision() == "play" and len(legal) > 1:
                break
            person.click(rng.choice(legal))
        browser.driver.find_element(By.CSS_SELECTOR, "#hint button").click()
        deadline = time.monotonic() + 30
        while browser.js("return document.getElementById('hint').dataset.best") is None:
            assert time.monotonic() < deadline, "no hint came"
            time.sleep(0.05)
        shown = browser.js("return hint")
        # The search bot's search, run here on the same state and seed: the game rebuilt from the
        # seat's events, then searched; the same choice and values.
        seeded = random.Random(f"hint:{game.seed}:{len(game.history)}")
        mirror = Mirror(game.info.name, 4, game.options, 0, seed=seeded.getrandbits(32))
        for event in game.events_for(0, 0)[0]:
            mirror.feed(event)
        seen = mirror.sync()
        expected = search(seen, 0, seeded, 600_000.0, max_worlds=HINT_WORLDS)
        assert shown["by"] == "search"
        assert shown["best"] == seen.action_to_string(expected.action)
        assert shown["values"] == {seen.action_to_string(a): round(v, 3) for a, v in expected.values.items()}
        assert browser.js("return document.getElementById('hint').dataset.best") == shown["best"]
        ply = len(game.history)
        person.click(shown["best"])
        while True:
            state, legal = person.wait()
            if state == "over":
                break
            if state == "pause":
                browser.driver.find_element(By.CSS_SELECTOR, "#choices button.go").click()
            else:
                person.click(rng.choice(legal))
        (record,) = finished_records(server.session)
        assert record["hints"] == [{"seat": 0, "ply": ply, **{k: shown[k] for k in ("best", "by", "values")}}]
        assert record["actions"][ply]["action"] == shown["best"]     # the hint was the move played
        assert browser.errors() == []
    finally:
        server.stop()
    plain = Server(tmp_path / "plain", "reference", 4)
    try:
        browser.websocket_frames()                     # the frames of the page before
        browser.driver.get(plain.url)
        person = Person(browser, plain)
        assert person.wait()[0] == "ask"
        assert browser.js("return document.querySelectorAll('#hint button').length") == 0
        browser.js("send({type: 'hint'})")
        time.sleep(0.5)
        assert "hint" not in {json.loads(f).get("type") for f in browser.websocket_frames() if f.startswith("{")}
    finally:
        plain.stop()
