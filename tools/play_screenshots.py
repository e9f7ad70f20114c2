"""Takes the screenshots of docs/play.md and the README: docs/img/play-<game>-{bid,trick,end}.png
(Beim Jupiter, Sticheln, Hattrick and Klaberjass with four players, Squint with five; Hattrick has no
bid), and the README's play-bid.png (Beim Jupiter's bid) and play-trick.png (Klaberjass' trick).

Run from a checkout with the test dependencies and Chromium (tests/tournament/browser.py), e.g.
``python tools/play_screenshots.py``, or ``python tools/play_screenshots.py squint --out shots`` for
one game into another folder.
Each game is served as tests/tournament/play_fixtures.py serves it, with a fixed seed, in a
1280x720 window; the person plays a seeded random legal option at each decision.  ``bid`` is the
first decision of the game's bidding (Sticheln: laying out, Klaberjass: take or pass), ``trick``
the first card play with two or more cards of
the trick on the table, ``end`` the end of the game (Beim Jupiter: the end of its first round).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.tournament.browser import Browser, missing_reason  # noqa: E402
from tests.tournament.play_fixtures import Server  # noqa: E402

#: game -> players, options, seed, the decision of the "bid" shot, and whether "end" is the first
#: deal's end (a pause) or the game's.
SHOTS: dict[str, tuple[int, dict[str, Any], int, str, str]] = {
    "beim-jupiter": (4, {}, 7, "bid", "pause"),
    "sticheln": (4, {"rounds": 1}, 7, "layout", "over"),
    "hattrick": (4, {"games": 1}, 7, "", "over"),
    "squint": (5, {"deal_limit": 1}, 7, "bid", "over"),
    "klaberjass": (4, {"target": 1}, 7, "take", "over"),
}

STATUS = """
const s = document.getElementById("status");
return [s.dataset.state, Number(s.dataset.seq), decision, JSON.stringify(legal),
        view ? trickPlays(view.trick || view.double_trick, N).length : 0];
"""


def shoot(browser: Browser, game: str, out: Path, tmp: Path) -> list[Path]:
    players, options, seed, bid, end = SHOTS[game]
    server = Server(tmp, game, players, seat=0, options=options, seed=seed)
    rng = random.Random(f"{game}-{seed}")
    taken: dict[str, Path] = {}
    try:
        browser.driver.get(server.url)
        seq, deadline = 0, time.monotonic() + 300
        while time.monotonic() < deadline:
            state, now, decision, legal_text, in_trick = browser.js(STATUS)
            if now <= seq or state not in ("ask", "pause", "over"):
                time.sleep(0.02)
                continue
            seq = now
            time.sleep(0.3)       # the page settles (fonts, the notes' place)
            if state == "ask" and bid and decision == bid and "bid" not in taken:
                taken["bid"] = out / f"play-{game}-bid.png"
                browser.screenshot(taken["bid"])
            if state == "ask" and decision == "play" and in_trick >= 2 and "trick" not in taken:
                taken["trick"] = out / f"play-{game}-trick.png"
                browser.screenshot(taken["trick"])
            if state == end:
                taken["end"] = out / f"play-{game}-end.png"
                browser.screenshot(taken["end"])
                break
            if state == "ask":
                browser.js("choose(arguments[0])", rng.choice(json.loads(legal_text)))
            else:
                browser.js("goOn()")
        else:
            raise RuntimeError(f"{game}: the game did not reach its end in time")
    finally:
        server.stop()
    return list(taken.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(SHOTS), help="games (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="folder of the PNG files")
    args = parser.parse_args()
    missing = missing_reason()
    if missing:
        print(f"error: {missing}", file=sys.stderr)
        return 2
    browser = Browser()
    browser.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False})
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for game in args.games:
                for path in shoot(browser, game, args.out, Path(tmp) / game):
                    print(path)
    finally:
        browser.close()
    # The README shows Beim Jupiter's bid and Klaberjass' trick under names of their own.
    readme = (("play-beim-jupiter-bid.png", "play-bid.png"), ("play-klaberjass-trick.png", "play-trick.png"))
    for source, copy in readme:
        if (args.out / source).is_file():
            shutil.copyfile(args.out / source, args.out / copy)
    return 0


if __name__ == "__main__":
    sys.exit(main())
