"""What the tournament runner's tests share: paths, bot commands, quick configs
(``from tests.tournament.support import bot_cmd, quick_doc``); the fixtures are conftest.py's."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BOTS = ROOT / "tournament" / "bots"


def bot_cmd(script: str, *args: str) -> list[str]:
    return [sys.executable, str(BOTS / script), *args]


def mock(*args: str) -> list[str]:
    """The misbehaving test bot (tests/tournament/bots/mockbot.py), not part of the package."""
    return [sys.executable, str(HERE / "bots" / "mockbot.py"), *args]


# For tests whose bots write into the test's folder (the mock bot's --record log, a marker
# file) or kill their table on purpose: a sandboxed bot can do neither, so these run without
# one.  What they test (what is sent, how a table's death is handled) does not depend on it;
# tests/tournament/test_fair_play.py tests the sandbox.
UNSANDBOXED = {"kind": "none"}


def quick_doc(bots: list[dict], game: str = "toy-tricks", players: int = 2, fmt: str = "round-robin",
              deals: int = 1, **sections) -> dict:
    """A small, fast tournament document; ``sections`` override whole tables (time=..., failures=...)."""
    doc = {"game": {"name": game, "players": players},
           "tournament": {"format": fmt, "deals": deals, "seed": 11, "concurrency": 1},
           "time": {"startup_ms": 5000, "ready_ms": 1000, "decision_ms": 1000, "shutdown_ms": 200},
           "bots": bots}
    for key, value in sections.items():
        if key in doc and isinstance(value, dict):
            doc[key] = {**doc[key], **value}
        else:
            doc[key] = value
    return doc


def overlapping_games_of_a_deal(records: list[dict]) -> list[tuple[str, str]]:
    """Pairs of games of one deal (at any tables) whose times overlap."""
    import datetime

    spans = []
    for r in records:
        start = datetime.datetime.fromisoformat(r["started_at"]).timestamp()
        spans.append((r["deal"], start, start + r["duration_s"], r["job"]))
    spans.sort(key=lambda s: s[1])
    return [(a[3], b[3]) for i, a in enumerate(spans) for b in spans[i + 1:] if a[0] == b[0] and b[1] < a[2] - 0.002]
