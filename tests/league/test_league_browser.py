"""The league's pages in a real headless browser (the system's Chromium through Selenium:
tests/tournament/browser.py), served by a real ``trickcore league serve`` process over a league
whose tables were played by real bots in the sandbox: the leaderboard, a bot's page, a replay,
the upload form (with a right and a wrong token, and markup in a bot's name), the organiser's
page, and the same pages written by ``trickcore league report`` and opened as files.

Skipped only when no browser is installed here; in CI (``CI`` set) a missing browser fails."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tournament.browser import Browser, missing_reason

_MISSING = missing_reason()
if _MISSING and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the browser tests: {_MISSING}")
pytestmark = pytest.mark.skipif(_MISSING is not None, reason=_MISSING or "")

ROOT = Path(__file__).resolve().parents[2]
TRICKCORE = str(Path(sys.executable).parent / "trickcore")


def archive(folder: Path, name: str, script: str, bot_name: str | None = None) -> Path:
    source = folder / f"src-{name}"
    source.mkdir()
    (source / "bot.py").write_bytes((ROOT / "tournament" / "bots" / script).read_bytes())
    (source / "bot.toml").write_text(f'name = "{bot_name or name}"\nruntime = "python"\ncommand = ["bot.py"]\n')
    path = folder / f"{name}.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        tar.add(source, arcname=".")
    return path


def run(*args: str) -> str:
    return subprocess.run([TRICKCORE, "league", *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("league")
    folder = tmp / "lg"
    run("init", str(folder), "--game", "klaberjass", "-p", "2")
    token = run("add-author", str(folder), "alice").strip()
    for name, script in (("steady", "heuristic_bot.py"), ("dice", "random_bot.py")):
        run("submit", str(folder), "--token", token, str(archive(tmp, name, script)))
    run("serve", str(folder), "--tables", "2", "--no-web", "-q")
    run("pause", str(folder))  # the page is tested on the tables played; the scheduler idles
    proc = subprocess.Popen([TRICKCORE, "league", "serve", str(folder), "--port", "0", "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    lines = [proc.stderr.readline(), proc.stderr.readline()]
    page = re.search(r"(http://\S+)index\.html", lines[0])
    organiser = re.search(r"(http://\S+organiser\?key=\S+)", lines[1])
    assert page and organiser, lines
    try:
        yield {"url": page.group(1), "organiser": organiser.group(1), "token": token, "folder": folder, "tmp": tmp}
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    b = Browser()
    yield b
    b.close()


def texts(browser: Browser, selector: str) -> list[str]:
    return list(browser.js(f"return Array.from(document.querySelectorAll({selector!r}), e => e.textContent.trim())"))


def click(browser: Browser, selector: str) -> None:
    """Click what leads to another page, and wait until that page has loaded."""
    from selenium.webdriver.common.by import By

    browser.js("window.__before = true")
    browser.driver.find_element(By.CSS_SELECTOR, selector).click()
    wait_for(browser, "return !window.__before && document.readyState === 'complete'", f"the page after {selector}")


def wait_for(browser: Browser, script: str, what: str, timeout: float = 120) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = browser.js(script)
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what} did not come")


def test_leaderboard_bot_page_and_replay(served: dict[str, Any], browser: Browser) -> None:
    browser.driver.get(served["url"] + "index.html")
    assert texts(browser, "#leaderboard tbody td:first-child") == ["1", "2"]
    bots = texts(browser, "#leaderboard tbody td:nth-child(2)")
    assert sorted(bots) == ["dice", "steady"]
    assert [int(g) for g in texts(browser, "#leaderboard tbody td:nth-child(5)")] == [4, 4]  # 2 tables x 2 seatings
    state = texts(browser, "#state")[0]
    assert "paused" in state and "games played: 4" in state
    # served, the leaderboard reloads itself while the league plays; paused, it does not
    assert browser.js("return document.scripts.length") == 1 and "reloads itself" in texts(browser, ".note")[-1]
    click(browser, "#leaderboard tbody tr:first-child a")
    assert browser.driver.current_url.endswith(f"/bots/{bots[0]}.html")
    assert texts(browser, "#versions tbody td:first-child") == ["1"]
    assert len(browser.js("return document.querySelectorAll('#history polyline')")) == 1
    assert len(texts(browser, "#games tbody tr")) == 4
    click(browser, "#games tbody tr:first-child a")
    wait_for(browser, "return document.querySelectorAll('[data-card]').length > 0", "the replay's cards")
    assert "Klaberjass" in browser.js("return document.getElementById('title').textContent")
    assert texts(browser, "a.back") == ["← leaderboard"]
    click(browser, "a.back")
    assert browser.driver.current_url.endswith("/index.html")
    assert browser.errors() == [] and browser.resources() == []


def test_an_author_sits_down_against_the_ladder(served: dict[str, Any], browser: Browser) -> None:
    """The authors' page, with the token, seats the author against a bot of the ladder; its link
    opens the card table with that bot at the other seat."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.errors()  # the earlier tests' own
    browser.driver.get(served["url"] + "author")
    browser.driver.find_element(By.CSS_SELECTOR, "#show input[name=token]").send_keys(served["token"])
    click(browser, "#show button")
    Select(browser.driver.find_element(By.CSS_SELECTOR, "#sit select[name=seat]")).select_by_value("1")
    Select(browser.driver.find_element(By.CSS_SELECTOR, "#sit select[name=bot]")).select_by_value("steady")
    click(browser, "#sit button")
    assert texts(browser, "#message") == ["your table 1 is ready: seat 1, against steady"]
    click(browser, "#table-link")
    wait_for(browser, "return document.body.textContent.includes('steady-v1')", "the table with the ladder's bot")
    assert "Klaberjass" in browser.js("return document.title")
    browser.driver.get(served["url"] + "index.html")  # leaves the table, which ends after its grace time
    assert browser.errors() == []


def test_upload_form_accepts_a_bot_and_refuses_wrong_tokens_and_markup(served: dict[str, Any],
                                                                       browser: Browser) -> None:
    from selenium.webdriver.common.by import By

    def upload(token: str, path: Path) -> None:
        browser.driver.get(served["url"] + "author")
        browser.driver.find_element(By.CSS_SELECTOR, "#upload input[name=token]").send_keys(token)
        browser.driver.find_element(By.CSS_SELECTOR, "#upload input[name=archive]").send_keys(str(path))
        click(browser, "#upload button")
        wait_for(browser, "return document.getElementById('message')", "the outcome")

    tmp = served["tmp"]
    upload(served["token"], archive(tmp, "third", "example_bot.py"))
    assert texts(browser, "#message") == ["accepted: third version 1 joins the ladder"]
    assert "PASS  handshake" in texts(browser, "#report")[0]
    assert "third" in texts(browser, "#bots td:first-child")
    row = texts(browser, "#bots td:first-child").index("third") + 1
    click(browser, f"#bots tbody tr:nth-child({row}) button")  # withdraw it: its token came with the page
    assert texts(browser, "#message") == ["third is withdrawn; its games and ratings stay"]
    assert texts(browser, f"#bots tbody tr:nth-child({row}) td:nth-child(2)") == ["withdrawn"]
    upload("1.wrong", archive(tmp, "fourth", "example_bot.py"))
    assert texts(browser, "#message") == ["wrong or missing author token"]
    scripts = browser.js("return document.scripts.length")
    upload(served["token"], archive(tmp, "markup", "example_bot.py", bot_name="<script>alert(1)</script>"))
    assert texts(browser, "#message") == ["refused"]
    assert "bot name '<script>alert(1)</script>' is not allowed" in texts(browser, "#report")[0]
    assert browser.js("return document.scripts.length") == scripts  # shown as text, never as markup
    # the browser logs the refusals' statuses, and nothing else
    statuses = [re.search(r"/submit - .* status of (\d+)", e) for e in browser.errors()]
    assert [m.group(1) if m else None for m in statuses] == ["403", "422"]


def test_organiser_pauses_resumes_and_bans(served: dict[str, Any], browser: Browser) -> None:
    browser.driver.get(served["organiser"].split("?")[0])
    assert "open the organiser's address" in browser.js("return document.body.textContent")
    browser.driver.get(served["organiser"])
    assert texts(browser, "#paused") == ["paused"]
    click(browser, "form.box:nth-of-type(1) button")
    assert texts(browser, "#message") == ["resumed"] and texts(browser, "#paused") == ["playing"]
    click(browser, "form.box:nth-of-type(1) button")
    assert texts(browser, "#paused") == ["paused"]
    from selenium.webdriver.common.by import By

    browser.driver.find_element(By.CSS_SELECTOR, "input[name=bot]").send_keys("dice")
    click(browser, "button[value=ban]")
    assert texts(browser, "#message") == ["dice is banned: it plays no new table"]
    browser.driver.get(served["url"] + "index.html")
    assert "dice" not in texts(browser, "#leaderboard tbody td:nth-child(2)")
    # the refusal without the key, and the icon the browser asks for beside its plain-text page
    assert [re.sub(r"http://[^/]+", "", e.split(" - ")[0]) for e in browser.errors()] == \
        ["SEVERE: /organiser", "SEVERE: /favicon.ico"]


def test_the_static_report_reads_as_the_served_pages(served: dict[str, Any], browser: Browser) -> None:
    out = served["tmp"] / "report"
    run("report", str(served["folder"]), "--out", str(out))
    browser.errors()  # the earlier tests' own
    browser.open(out / "index.html")
    assert "steady" in texts(browser, "#leaderboard tbody td:nth-child(2)")
    assert browser.js("return document.scripts.length") == 0  # a file does not reload itself
    click(browser, "#leaderboard tbody tr:first-child a")
    click(browser, "#games tbody tr:last-child a")
    wait_for(browser, "return document.querySelectorAll('[data-card]').length > 0", "the replay's cards")
    assert browser.errors() == [] and browser.resources() == []
