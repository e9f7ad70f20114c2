"""The bundled search bots over the protocol (docs/search.md): the search bot and the 30-line
playout example play a game of every game through the runner with no fault, and the search bot
follows every game from its events alone (its stderr never reports falling back)."""

from __future__ import annotations

import pytest

from tests.tournament.support import bot_cmd
from tournament.config import parse_config
from tournament.results import read_results
from tournament.runner import run_tournament

GAMES = [("beim-jupiter", 3, {}), ("sticheln", 4, {"nebel": True, "rounds": 1}), ("hattrick", 4, {"games": 1}),
         ("klaberjass", 2, {"target": 1}), ("squint", 5, {"deal_limit": 1})]
TIME = {"startup_ms": 20000, "ready_ms": 5000, "decision_ms": 400, "shutdown_ms": 500}


@pytest.mark.parametrize("game,players,options", GAMES, ids=[g for g, _, _ in GAMES])
def test_search_bots_play_every_game(tmp_path, game, players, options):
    bots = [{"name": "search", "command": bot_cmd("search_bot.py"), "options": {"fraction": 0.2}},
            {"name": "playout", "command": bot_cmd("playout_bot.py")}]
    bots += [{"name": f"heuristic-{i}", "command": bot_cmd("heuristic_bot.py"), "options": {"seed": i}}
             for i in range(players - 2)]
    doc = {"game": {"name": game, "players": players, "options": options},
           "tournament": {"format": "round-robin", "deals": 1, "seed": 3, "concurrency": 1},
           "time": TIME, "bots": bots, "records": {"stderr": "all"}}
    run_tournament(parse_config(doc), tmp_path / "out", check_bots=False)
    (record,) = read_results(tmp_path / "out")
    assert record["faults"] == []
    logs = {p.name: p.read_text() for p in (tmp_path / "out" / "stderr").glob("*search.log")}
    assert logs, "the search bot's stderr was kept"
    for text in logs.values():
        assert "worlds" in text and "heuristic" not in text, text[-2000:]


def test_the_documented_example_is_the_bundled_bot():
    from tests.tournament.support import BOTS
    doc = (BOTS.parents[1] / "docs" / "search.md").read_text(encoding="utf-8")
    block = doc.split("### A 30-line bot", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert block == (BOTS / "playout_bot.py").read_text(encoding="utf-8")
