"""`trickcore replay --seat N` shows a game exactly as seat N saw it (docs/tournament.md,
"Replaying a game"): the view and options before each of its own decisions, and the events
it was sent, in order.  Checked against what a recording bot really received in a tournament,
for every game, including the hidden choices of Sticheln im Nebel, Squint and Beim Jupiter."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tests.tournament.support import UNSANDBOXED, mock
from tournament.cli import replay_command
from tournament.config import parse_config
from tournament.results import RESULTS_FILE, read_results
from tournament.runner import run_tournament
from trickcore.games import replay

FAST = {"startup_ms": 5000, "ready_ms": 2000, "decision_ms": 2000, "shutdown_ms": 200}
GAMES = [("beim-jupiter", 3, {}), ("sticheln", 3, {"nebel": True, "rounds": 1}), ("hattrick", 4, {"games": 1}),
         ("klaberjass", 3, {"target": 1}), ("squint", 5, {"deal_limit": 1}), ("reference", 4, {})]


@pytest.mark.parametrize("game,players,options", GAMES, ids=[g for g, _, _ in GAMES])
def test_seat_replay_is_what_the_seat_was_sent(tmp_path, game, players, options):
    bots = [{"name": f"rec{i}", "command": mock("--record", str(tmp_path / f"rec{i}.txt"))} for i in range(players)]
    doc = {"game": {"name": game, "players": players, "options": options},
           "tournament": {"format": "round-robin", "deals": 1, "seed": 5, "concurrency": 1},
           "time": FAST, "bots": bots, "sandbox": UNSANDBOXED}
    run_tournament(parse_config(doc), tmp_path / "out", check_bots=False)
    (record,) = read_results(tmp_path / "out")
    assert record["faults"] == []
    for seat, bot in enumerate(record["bots"]):
        sent = [line.partition(" ")[::2] for line in (tmp_path / f"{bot}.txt").read_text().splitlines()]
        events = [json.loads(rest) for cmd, rest in sent if cmd == "event"]
        views = [json.loads(rest.split(" ", 2)[2])["view"] for cmd, rest in sent if cmd == "request"]
        result = CliRunner().invoke(replay_command, [str(tmp_path / "out" / RESULTS_FILE), "--seat", str(seat),
                                                     "--json"])
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        shown_events = [json.loads(line.split("event: ", 1)[1]) for line in lines if line.startswith("      event: ")]
        shown_views = [json.loads(line.split("view: ", 1)[1]) for line in lines if line.startswith("  view: ")]
        # The game's events after the first request: the first request's view holds the earlier ones.
        assert shown_events == events[len(events) - len(shown_events):]
        assert shown_views == views
        own = [a for a in record["actions"] if a["seat"] == seat]
        assert sum(" legal: " in line for line in lines) == len(own)
        others = sum(1 for a in record["actions"] if a["seat"] != seat)
        assert sum(": made" in line for line in lines) == others  # every other action, never its text


def test_seat_replay_hides_choices_made_face_down(tmp_path):
    """Sticheln im Nebel: the face-down layout of another seat is never printed as text."""
    bots = [{"name": f"rec{i}", "command": mock()} for i in range(3)]
    doc = {"game": {"name": "sticheln", "players": 3, "options": {"nebel": True, "rounds": 1}},
           "tournament": {"format": "round-robin", "deals": 1, "seed": 8, "concurrency": 1},
           "time": FAST, "bots": bots}
    run_tournament(parse_config(doc), tmp_path / "out", check_bots=False)
    (record,) = read_results(tmp_path / "out")
    state = replay({**record["record"], "history": []})
    layouts = []  # (number, seat, text) of the other seats' face-down layout cards
    for number, text in enumerate(record["record"]["history"], 1):
        if state.decision() == "layout" and state.current_player() != 0:
            layouts.append((number, state.current_player(), text))
        state.apply_action(text)
    assert layouts, "no face-down layout in this game"
    out = CliRunner().invoke(replay_command, [str(tmp_path / "out" / RESULTS_FILE), "--seat", "0"]).output
    omniscient = CliRunner().invoke(replay_command, [str(tmp_path / "out" / RESULTS_FILE)]).output
    for number, other, text in layouts:
        assert f"{number:4d}. seat {other} (rec{other}) layout: {text}" in omniscient
        assert f"{number:4d}. seat {other} (rec{other}) layout: made" in out
        assert f"layout: {text}" not in out
