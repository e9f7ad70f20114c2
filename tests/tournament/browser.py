"""A real headless browser for the tests of the HTML pages: the operating system's Chromium
(Debian's ``chromium`` and ``chromium-driver`` packages; .ci/run installs them) driven by
Selenium.  ``open_browser()`` returns None with the reason when no browser is installed; in CI
(``CI`` set) a missing browser is an error, never a skip."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
DRIVER_NAMES = ("chromedriver",)

#: Collects uncaught errors and console.error calls from the first script on (installed through
#: the DevTools protocol before any page script runs), in addition to the browser's own log.
ERROR_HOOK = """
window.__errors = [];
window.addEventListener('error', e => window.__errors.push('error: ' + e.message));
window.addEventListener('unhandledrejection', e => window.__errors.push('rejection: ' + e.reason));
const __ce = console.error.bind(console);
console.error = (...a) => { window.__errors.push('console.error: ' + a.join(' ')); __ce(...a); };
"""


def find_browser() -> tuple[str | None, str | None]:
    """(chromium, chromedriver) paths, or None for what is missing (TRICKCORE_CHROMIUM and
    TRICKCORE_CHROMEDRIVER override the search)."""
    browser = os.environ.get("TRICKCORE_CHROMIUM") or next(
        (p for p in map(shutil.which, CHROMIUM_NAMES) if p), None)
    driver = os.environ.get("TRICKCORE_CHROMEDRIVER") or next(
        (p for p in map(shutil.which, DRIVER_NAMES) if p), None)
    return browser, driver


def missing_reason() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    browser, driver = find_browser()
    if browser is None or driver is None:
        return ("no Chromium with chromedriver on this machine (Debian: apt-get install chromium "
                "chromium-driver; .ci/run installs them)")
    return None


class Browser:
    """One headless Chromium with helpers to open a page and read its errors."""

    def __init__(self, width: int = 1400, height: int = 1000, websockets: bool = False) -> None:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service

        browser, driver = find_browser()
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    f"--window-size={width},{height}", "--hide-scrollbars", "--force-device-scale-factor=1",
                    "--disable-extensions", "--no-first-run", "--disable-background-networking"):
            options.add_argument(arg)
        # With ``websockets``, the DevTools performance log keeps every websocket frame the page
        # receives (websocket_frames()).
        logs = {"browser": "ALL", **({"performance": "ALL"} if websockets else {})}
        options.set_capability("goog:loggingPrefs", logs)
        for attempt in range(3):  # a browser that fails to start once (a busy machine) gets two more tries
            try:
                self.driver = webdriver.Chrome(service=Service(executable_path=driver), options=options)
                break
            except WebDriverException:
                if attempt == 2:
                    raise
                time.sleep(1)
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ERROR_HOOK})
        # Nothing may be fetched from the network: count every request that is not the file itself.
        self.driver.execute_cdp_cmd("Network.enable", {})

    def open(self, path: Path) -> None:
        self.driver.get(Path(path).resolve().as_uri())

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def errors(self) -> list[str]:
        """Uncaught errors, console errors and the browser's own error log lines (a failed
        resource load shows there) since the last call."""
        logged = [f"{e['level']}: {e['message']}" for e in self.driver.get_log("browser")
                  if e["level"] in ("SEVERE", "ERROR")]
        hooked = self.js("return window.__errors || []")
        return logged + list(hooked)

    def websocket_frames(self) -> list[str]:
        """The payloads of the websocket frames the page received since the last call (a
        browser made with ``websockets=True``)."""
        import json

        out = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.webSocketFrameReceived":
                out.append(message["params"]["response"]["payloadData"])
        return out

    def resources(self) -> list[str]:
        """Every resource the page loaded besides itself (must be none: the pages are self-contained)."""
        return self.js("return performance.getEntriesByType('resource').map(r => r.name)")

    def screenshot(self, path: Path, full_height: bool = False) -> None:
        if full_height:
            height = self.js("return document.documentElement.scrollHeight")
            width = self.js("return window.innerWidth")
            self.driver.set_window_size(width, min(int(height) + 20, 6000))
        self.driver.save_screenshot(str(path))

    def close(self) -> None:
        self.driver.quit()
