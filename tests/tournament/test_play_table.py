"""Each game's description of its view for ``trickcore play`` (GameInfo.table, in the game's own
folder): every field any view of the game holds is described -- a place, and a label where it is
shown -- every decision has its prompt, and the fields shown at the seats hold one value per seat.
The page draws a field only as its description says, so a field missing here would not be shown
at all; this test is what keeps a game's new field from going unseen."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from trickcore.games import BUILTIN, get_game, list_games, new_game, table_of

PLACES = {"seat", "table", "side", "none"}
#: How the page (tournament/templates/play.js, drawnEl) draws a value.
HOWS = {"text", "number", "flag", "yesno", "count", "card", "cards", "suit", "suits", "dice", "seat", "seats",
        "words", "list", "record"}


def views_and_decisions(game: str, players: int, games: int = 3) -> tuple[list[dict[str, Any]], set[str]]:
    """Every seat's view at every step of a few random games of the short options, and every
    event each seat was sent (in ``views`` too, as ``{"event": ...}``)."""
    info = get_game(game)
    views: list[dict[str, Any]] = []
    decisions = set()
    for seed in range(games):
        state = new_game(game, players, dict(info.short_options), seed=seed)
        rng = random.Random(seed)
        while True:
            views.extend(state.observation(s) for s in range(players))
            if state.is_terminal():
                EVENTS.extend(e for s in range(players) for e in state.events_for(s, 0)[0])
                break
            decisions.add(state.decision())
            state.apply_action(rng.choice(state.legal_action_strings()))
    return views, decisions


def check_how(where: str, field: dict[str, Any]) -> None:
    how = field.get("how", "text")
    assert how in HOWS, f"{where}: no such way to draw a value: {how!r}"
    if how == "list":
        check_how(where + " item", field["item"])
    if how == "record":
        for key, part in field["parts"].items():
            check_how(f"{where}.{key}", part)


EVENTS: list[dict[str, Any]] = []   # the events of the games views_and_decisions() played
CASES = [(info.name, n) for info in list_games() if info.table for n in info.players]


@pytest.mark.parametrize("game, players", CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_every_field_of_every_view_is_described(game, players):
    table = table_of(game)
    EVENTS.clear()
    views, decisions = views_and_decisions(game, players)
    keys = {key for view in views for key in view}
    assert keys <= set(table["fields"]), f"fields without a description: {sorted(keys - set(table['fields']))}"
    for key, field in table["fields"].items():
        assert field["at"] in PLACES, f"{key}: no such place {field['at']!r}"
        if field["at"] != "none":
            assert field.get("label"), f"{key} is shown without a label"
            check_how(key, field)
        if field.get("deal_tricks"):   # counted from the deal's trick events at the end: a seat's count
            assert field["at"] == "seat" and field.get("how", "text") in ("text", "number"), key
            assert table.get("sheet"), f"{key}: the deal's tricks are counted up to the sheet's event"
        if field["at"] == "seat":
            for view in views:
                if key in view and view[key] is not None:
                    assert isinstance(view[key], list) and len(view[key]) == players, f"{key} is not one per seat"
    assert decisions <= set(table["decisions"]), f"decisions without a prompt: {decisions - set(table['decisions'])}"
    events = list(EVENTS)
    EVENTS.clear()
    untold = {e["type"] for e in events} - set(table["events"])
    assert not untold, f"events the game does not tell: {sorted(untold)}"
    for event in events:
        for name in re.findall(r"\{(\w+)\}", table["events"][event["type"]]):
            assert name in event, f"the sentence of {event['type']} names no field of it: {name}"
            if name in table["event_fields"]:
                check_how(f"{event['type']}.{name}", table["event_fields"][name])
    rules = Path(__file__).resolve().parents[2] / "docs" / "rules"
    assert not table["rules"] or (rules / table["rules"]).is_file(), table["rules"]
    sheet = table["sheet"]
    ends = [e for e in events if e["type"] == sheet["event"]]
    assert ends, f"no {sheet['event']} event, which ends a deal on the score sheet"
    info = get_game(game)
    teams = info.teams(players) if info.teams is not None else None
    sizes = {players, len(teams)} if teams else {players}
    for end in ends:
        for column in sheet["columns"]:
            check_how(f"sheet {column['key']}", column)
            assert len(end[column["key"]]) in sizes, f"the sheet's {column['key']} is neither per seat nor per team"
        for key in sheet.get("caption", {}):
            assert key in end, f"the sheet's caption names no field of {sheet['event']}: {key}"
    for kind, decision in table["decisions"].items():
        assert decision["ask"], kind
        assert re.fullmatch(r"(§\d+(\.\d+)*)?", decision["rule"]), decision["rule"]
        for name in re.findall(r"\{(\w+)\}", decision["ask"]):
            assert name in table["fields"], f"the prompt of {kind} names no field: {name}"


def test_every_built_in_game_describes_its_view():
    builtin = [info for info in list_games() if info.factory.__module__.startswith(BUILTIN)]
    assert len(builtin) == len(BUILTIN)
    assert all(info.table for info in builtin), [info.name for info in builtin if not info.table]
