"""Real material for the tests of the HTML report and the replay viewer: a small tournament run
with bundled bots (and one misbehaving bot, so the report has faults), and one recorded game of
every game family, plus what each seat could know at each decision (to check that a seat view
shows nothing more)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tomli_w

import trickcore
from tests.tournament.support import bot_cmd, mock

FAST = {"startup_ms": 5000, "ready_ms": 2000, "decision_ms": 2000, "shutdown_ms": 200}

#: Games of every deck: (name, players, options).
GAMES = [("beim-jupiter", 3, {}), ("sticheln", 3, {"nebel": True, "rounds": 1}), ("hattrick", 4, {"games": 1}),
         ("squint", 5, {"deal_limit": 1}), ("klaberjass", 2, {"target": 1}), ("klaberjass", 4, {"target": 1}),
         ("reference", 4, {})]

CARD_PATTERNS = {
    "beim-jupiter": re.compile(r"^(?:[BRYG](?:\d{1,2}|god)(?:=\d+)?|JUP|JUNO|LAMB)$"),
    "sticheln": re.compile(r"^[RBGYNV]\d{1,2}$"),
    "hattrick": re.compile(r"^[RBGYNV]\d{1,2}$"),
}
FRENCH = re.compile(r"^[2-9TJQKA][CDHS]$")


def card_pattern(game: str) -> re.Pattern[str]:
    return CARD_PATTERNS.get(game, FRENCH)


def write_config(path: Path, out: Path) -> Path:
    """Beim Jupiter, 3 seats, duplicate over one deal (6 games): the heuristic bot, the random
    bot and a bot that answers its fifth request illegally (a fault in its first game)."""
    doc = {"game": {"name": "beim-jupiter", "players": 3},
           "tournament": {"name": "report-test", "format": "duplicate", "deals": 1, "seed": 3, "concurrency": 2,
                          "output": str(out)},
           "time": FAST,
           "bots": [{"name": "heuristic", "command": bot_cmd("heuristic_bot.py")},
                    {"name": "random", "command": bot_cmd("random_bot.py"), "options": {"seed": 1}},
                    {"name": "mock", "command": mock("--illegal", "--at", "5")}]}
    path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    return path


def random_record(game: str, players: int, options: dict, seed: int = 5) -> dict[str, Any]:
    """A whole game played with random legal actions: its ``to_record()``."""
    state = trickcore.new_game(game, players, options, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_action_strings()))
    return state.to_record()


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def hidden_cards(record: dict[str, Any], seat: int) -> list[set[str]]:
    """Per frame (the game after k decisions): the cards other seats may see that ``seat``
    could not know by then -- in another seat's observation, but neither in its own observation
    nor in any event it was sent so far."""
    pattern = card_pattern(record["game"])
    state = trickcore.replay({**record, "history": []})
    n = state.num_players
    known: set[str] = set()
    cursor = 0
    out = []
    for k in range(len(record["history"]) + 1):
        events, cursor = state.events_for(seat, cursor)
        known.update(t for t in strings(events) if pattern.match(t))
        mine = {t for t in strings(state.observation(seat)) if pattern.match(t)}
        theirs = {t for o in range(n) if o != seat for t in strings(state.observation(o)) if pattern.match(t)}
        out.append(theirs - mine - known)
        if k < len(record["history"]):
            state.apply_action(record["history"][k])
    return out


_RUN: dict[str, Any] = {}


def real_run(tmp_path_factory) -> tuple[Path, Any]:
    """The small tournament above, run once per pytest run through ``trickcore tournament``
    (which writes the report at its end): (run folder, the click result)."""
    if "dir" not in _RUN:
        from click.testing import CliRunner

        from tournament.cli import tournament_command

        base = tmp_path_factory.mktemp("report-run")
        out = base / "run"
        config = write_config(base / "report-test.toml", out)
        result = CliRunner().invoke(tournament_command, [str(config), "-q"])
        _RUN["dir"], _RUN["result"] = out, result
    return _RUN["dir"], _RUN["result"]
