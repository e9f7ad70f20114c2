"""A seat for a person (docs/league.md, "Playing against the ladder"): an author, by their token,
sits at a table of their own against the ladder's bots, plays a whole game on the table's page,
and finds the game on their page with its replay; strangers, unknown bots and more tables than
the league allows are refused with a reason."""

from __future__ import annotations

import asyncio
import html
import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
import tomli_w

from tests.league.test_league_web import TRICKCORE, archive, league
from tournament.league.config import LEAGUE_FILE

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


def post(url: str, fields: list[tuple[str, str]]) -> tuple[int, str]:
    request = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode(), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def message(page: str) -> str:
    found = re.search(r'<p id="message"[^>]*>(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)) if found else ""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("people")
    folder = tmp / "lg"
    league("init", str(folder), "--game", "klaberjass", "-p", "2")
    doc = tomllib.loads((folder / LEAGUE_FILE).read_text())
    doc["game"]["options"] = {"target": 2}  # a short match
    doc["submissions"]["compliance_games"] = 1
    doc["server"]["people_tables"] = 1
    (folder / LEAGUE_FILE).write_text(tomli_w.dumps(doc))
    token = league("add-author", str(folder), "alice").stdout.strip()
    made = archive(tmp, "steady")
    league("submit", str(folder), "--token", token, str(made))
    proc = subprocess.Popen([TRICKCORE, "league", "serve", str(folder), "--port", "0", "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    first = proc.stderr.readline()
    page = re.search(r"(http://\S+)index\.html", first)
    assert page, first
    try:
        yield {"url": page.group(1), "token": token, "folder": folder}
    finally:
        proc.terminate()
        proc.wait(30)


async def play_whole_game(ws_url: str) -> dict[str, Any]:
    """The page's part: every decision answered with its first legal option, every deal gone
    on from; the game's end, then quit."""
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url) as ws:
        while True:
            msg = await asyncio.wait_for(ws.receive(), 60)
            assert msg.type == aiohttp.WSMsgType.TEXT, msg
            data = json.loads(msg.data)
            ask = data.get("ask") if data["type"] == "resume" else (data if data["type"] == "ask" else None)
            if ask:
                await ws.send_str(json.dumps({"type": "act", "action": ask["legal"][0]}))
            elif data["type"] == "pause":
                await ws.send_str(json.dumps({"type": "continue"}))
            elif data["type"] == "over":
                await ws.send_str(json.dumps({"type": "quit"}))
                return dict(data)


def test_an_author_plays_a_game_against_the_ladder_and_finds_it_on_their_page(served: dict[str, Any]) -> None:
    url, token = served["url"], served["token"]
    status, page = post(url + "play", [("token", token), ("seat", "1"), ("bot", "steady")])
    assert status == 200, message(page)
    assert message(page) == "your table 1 is ready: seat 1, against steady"
    link = html.unescape(re.search(r'<a id="table-link" href="([^"]+)"', page).group(1))  # type: ignore[union-attr]
    assert urllib.parse.urlsplit(link).hostname == urllib.parse.urlsplit(url).hostname
    # one table with a person at a time in this league: a second is refused while the first plays
    status, page = post(url + "play", [("token", token), ("seat", "0"), ("bot", "steady")])
    assert status == 429 and "people_tables" in message(page)

    base, _, key = link.partition("/?t=")
    over = asyncio.run(play_whole_game(base.replace("http://", "ws://") + "/ws?t=" + key))
    folder = served["folder"] / "people" / "1"
    deadline = time.monotonic() + 30
    while not (records := [p for p in folder.glob("*.json") if p.name != "table.json"]):
        assert time.monotonic() < deadline, "the game's record was not kept"
        time.sleep(0.05)
    (path,) = records
    record = json.loads(path.read_text())
    assert record["bots"] == ["steady-v1", "you"] and record["scores"] == over["scores"]
    assert record["status"] == "played" and not record["faults"]
    assert json.loads((folder / "table.json").read_text())["author"] == "alice"

    status, page = post(url + "author", [("token", token)])
    assert status == 200
    games = re.findall(r'<a href="(people/1/[^"]+\.html)">', page)
    assert games == [f"people/1/{path.stem}.html"], page
    with urllib.request.urlopen(url + games[0], timeout=30) as response:
        replay = response.read().decode()
    assert "trickcore-replay/1" in replay and "← authors" in replay
    # the table has ended (its person quit): another may start
    deadline = time.monotonic() + 30
    while (status := post(url + "play", [("token", token), ("seat", "0"), ("bot", "steady")])[0]) == 429:
        assert time.monotonic() < deadline, "the ended table still counts as playing"
        time.sleep(0.1)
    assert status == 200


@pytest.mark.parametrize("fields, status, words", [
    ([("token", "not-a-token"), ("seat", "0"), ("bot", "steady")], 403, "wrong or missing author token"),
    ([("seat", "0"), ("bot", "steady")], 403, "wrong or missing author token"),
    ([("seat", "0"), ("bot", "nobody")], 400, "no bot named 'nobody' is playing"),
    ([("seat", "5"), ("bot", "steady")], 400, "seat 5 is not one of 0..1"),
    ([("seat", "x"), ("bot", "steady")], 400, "the seat must be a number"),
    ([("seat", "0")], 400, "choose 1 bot(s), one for every other seat"),
    ([("seat", "0"), ("bot", "<b>steady</b>")], 400, "no bot named '<b>steady</b>' is playing"),
])
def test_sitting_down_is_refused_with_a_reason(served: dict[str, Any], fields: list[tuple[str, str]], status: int,
                                               words: str) -> None:
    token = [("token", served["token"])] if not any(k == "token" for k, _ in fields) and status != 403 else []
    got, page = post(served["url"] + "play", token + fields)
    assert got == status and words in message(page), (got, message(page))
    assert "<b>" not in page  # markup in a field is shown as text


def test_a_bot_chosen_for_two_seats_gets_a_name_per_seat() -> None:
    from tournament.league.people import _unique

    assert _unique(["a-v1", "b-v2", "a-v1", "a-v1"]) == ["a-v1", "b-v2", "a-v1-2", "a-v1-3"]
