"""``trickcore play`` without a browser: the page's websocket spoken by a test client
(aiohttp), against the real server and real bot processes (tournament/play.py, docs/play.md).

A whole game reaches its scores and is saved as a record that ``trickcore replay`` opens; an
option that is not legal changes nothing; a second page cannot act for the seat until the first
has gone; requests without the session's key, from another site or from an address that is not
the loopback one are refused; a bot that crashes or hangs is handled by its failure policy and
shown; closing the page, or Ctrl-C, ends the game and every bot process."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from click.testing import CliRunner

import trickcore
from tests.tournament.play_fixtures import Server, finished_records
from tests.tournament.support import mock
from tournament.cli import replay_command


class Page:
    """A test client in the page's place: the messages it got, and a way to answer."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.got: list[dict[str, Any]] = []

    async def next(self, *types: str, timeout: float = 30) -> dict[str, Any]:
        """The next message of one of ``types`` (every message is kept in ``got``)."""
        while True:
            msg = await asyncio.wait_for(self.ws.receive(), timeout)
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise EOFError(f"the socket closed ({msg.type})")
            data = json.loads(msg.data)
            self.got.append(data)
            if data["type"] == "resume" and data.get("ask") and "ask" in types:
                return dict(data["ask"])
            if data["type"] in types:
                return data

    async def send(self, **message: Any) -> None:
        await self.ws.send_str(json.dumps(message))

    async def play_to_the_end(self) -> dict[str, Any]:
        """Answer every decision with its first option, go on after every deal; the game's end."""
        while True:
            msg = await self.next("ask", "pause", "over")
            if msg["type"] == "ask":
                await self.send(type="act", action=msg["legal"][0])
            elif msg["type"] == "pause":
                await self.send(type="continue")
            else:
                return msg


async def _connect(session: aiohttp.ClientSession, server: Server) -> Page:
    return Page(await session.ws_connect(server.ws_url))


def test_a_whole_game_and_its_record(tmp_path):
    server = Server(tmp_path, "klaberjass", 2, seat=1, options={"target": 2})

    async def go() -> dict[str, Any]:
        async with aiohttp.ClientSession() as http:
            page = await _connect(http, server)
            hello = await page.next("hello")
            assert hello["seat"] == 1 and hello["names"][1] == "you" and hello["faces"]
            over = await page.play_to_the_end()
            await page.send(type="quit")
            return over

    try:
        over = asyncio.run(go())
    finally:
        server.stop()
    (record,) = finished_records(server.session)
    assert over["scores"] == record["scores"] and over["record"] == str(server.session.records[0])
    assert record["bots"][1] == "you" and record["status"] == "played"
    mine = [a for a in record["actions"] if a["seat"] == 1]
    assert mine and all(a["by"] in ("person", "forced") for a in mine)
    assert not record["faults"]
    result = CliRunner().invoke(replay_command, [over["record"]])
    assert result.exit_code == 0, result.output
    assert f"scores {record['scores']}" in result.output
    page = tmp_path / "game.html"
    result = CliRunner().invoke(replay_command, [over["record"], "--html", str(page)])
    assert result.exit_code == 0 and page.read_text(encoding="utf-8").count("trickcore-replay/1") == 1


def test_the_bots_moves_come_at_the_pace(tmp_path):
    """--pace: the page shows each bot move for ``pace`` seconds before the next, and one that
    completes a trick twice as long; the person's own moves are not held back.  The pauses the
    session takes are recorded instead of slept (the suite times nothing)."""
    server = Server(tmp_path, "reference", 4)
    pauses: list[float] = []

    def pause(seconds: float) -> bool:
        pauses.append(seconds)
        return server.session.stop.is_set()

    server.session.pace = 0.15
    server.session.pause = pause  # type: ignore[method-assign]

    async def go() -> int:
        async with aiohttp.ClientSession() as http:
            page = await _connect(http, server)
            bot_moves = 0
            while bot_moves < 12:
                msg = await page.next("update", "ask")
                if msg["type"] == "ask":
                    await page.send(type="act", action=msg["legal"][0])
                elif msg["actor"] not in (None, 0):
                    bot_moves += 1
            await page.send(type="quit")
            return bot_moves

    try:
        bot_moves = asyncio.run(go())
    finally:
        server.stop()
    assert bot_moves <= len(pauses) <= bot_moves + 1, pauses     # one per bot move (one may be under way)
    assert set(pauses) == {0.15, 0.3}, pauses                      # a move, and a trick's last card


def test_an_option_that_is_not_legal_changes_nothing(tmp_path):
    server = Server(tmp_path, "sticheln", 3, options={"rounds": 1})

    async def go() -> None:
        async with aiohttp.ClientSession() as http:
            page = await _connect(http, server)
            ask = await page.next("ask")
            state = server.session.state
            assert state is not None
            before = list(state.action_ids)
            for wrong in ("XX", "Z99", ask["legal"][0] + "!", ""):
                await page.send(type="act", action=wrong)
                refused = await page.next("refused")
                assert refused["action"] == wrong
            await page.ws.send_str("not json at all")
            await page.send(type="act", action=None)
            after = list(state.action_ids)
            assert after == before and state.decision() == ask["decision"]
            await page.send(type="act", action=ask["legal"][0])
            update = await page.next("update")
            assert update["actor"] == 0
            await page.send(type="quit")

    try:
        asyncio.run(go())
    finally:
        server.stop()


def test_a_second_page_cannot_act_until_the_first_has_gone(tmp_path):
    server = Server(tmp_path, "reference", 4)

    async def go() -> None:
        async with aiohttp.ClientSession() as http:
            first = await _connect(http, server)
            ask = await first.next("ask")
            second = await _connect(http, server)
            assert (await second.next("taken"))["type"] == "taken"
            with pytest.raises(EOFError):            # and the server closes it
                await second.next("hello", timeout=5)
            state = server.session.state
            assert state is not None
            moves = len(state.action_ids)
            await first.ws.close()
            third = await _connect(http, server)     # the first has gone: this one takes the seat
            resumed = await third.next("ask")
            assert resumed["legal"] == ask["legal"]
            assert len(state.action_ids) == moves
            await third.send(type="act", action=resumed["legal"][0])
            assert (await third.next("update"))["actor"] == 0
            await third.send(type="quit")

    try:
        asyncio.run(go())
    finally:
        server.stop()


def test_requests_without_the_key_or_from_another_site_are_refused(tmp_path):
    server = Server(tmp_path, "reference", 4)
    base = server.url.partition("/?t=")[0]

    async def go() -> None:
        async with aiohttp.ClientSession() as http:
            for url, headers in ((server.url, {}), (base + "/", {}), (base + "/?t=wrong", {}),
                                 (server.url, {"Host": "evil.example"}),
                                 (server.url, {"Host": "evil.example:80"})):
                async with http.get(url, headers=headers) as response:
                    assert response.status == (200 if url == server.url and not headers else 403), (url, headers)
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await http.ws_connect(server.ws_url, headers={"Origin": "http://evil.example"})
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await http.ws_connect(server.ws_url.partition("?")[0])
            page = await _connect(http, server)     # the page's own origin may
            assert (await page.next("hello"))["type"] == "hello"
            await page.send(type="quit")

    try:
        asyncio.run(go())
    finally:
        server.stop()


def test_the_rules_page_is_served_at_the_sections_the_prompts_cite(tmp_path):
    """/rules is the game's docs/rules page as HTML, for a key of the table only; the hello names
    each decision's anchor there, and the page has it."""
    server = Server(tmp_path, "klaberjass", 4)
    base, _, key = server.url.partition("/?t=")

    async def go() -> tuple[dict[str, Any], str, dict[str, str]]:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/rules") as response:
                assert response.status == 403
            async with http.get(f"{base}/rules?t=wrong") as response:
                assert response.status == 403
            async with http.get(f"{base}/rules?t={key}") as response:
                assert response.status == 200
                html, headers = await response.text(), dict(response.headers)
            page = await _connect(http, server)
            hello = await page.next("hello")
            await page.send(type="quit")
            return hello, html, headers

    try:
        hello, html, headers = asyncio.run(go())
    finally:
        server.stop()
    assert hello["rules"]["page"] is True
    assert hello["rules"]["anchors"]["take"] == "s4" and hello["rules"]["anchors"]["exchange"] == "s4.4"
    for anchor in hello["rules"]["anchors"].values():
        assert f'id="{anchor}"' in html
    assert "Kontra and Re</h2>" in html and "<script" not in html
    assert "script-src" not in headers["Content-Security-Policy"]   # the rules page runs nothing


def test_a_game_without_rules_has_no_rules_page(tmp_path):
    server = Server(tmp_path, "reference", 4)
    base, _, key = server.url.partition("/?t=")

    async def go() -> tuple[int, dict[str, Any]]:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/rules?t={key}") as response:
                status = response.status
            page = await _connect(http, server)
            hello = await page.next("hello")
            await page.send(type="quit")
            return status, hello

    try:
        status, hello = asyncio.run(go())
    finally:
        server.stop()
    assert status == 404 and hello["rules"] == {"page": False, "anchors": {}}


def _outside_address() -> str | None:
    """An IPv4 address of this machine that is not a loopback one, if it has any (the source
    address of a route to a documentation address; connecting a UDP socket sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if address.startswith("127.") else str(address)


def test_with_host_other_machines_play_by_their_keys(tmp_path):
    """`--host 0.0.0.0`: the printed links name the machine's network address (not 0.0.0.0),
    and a peer other than the loopback address is served with a person's key, and only with it;
    a Host header that is another site's name is still refused."""
    import socket as sockets

    address = _outside_address()
    if address is None:
        pytest.skip("this machine has no network address besides the loopback one")
    server = Server(tmp_path, "klaberjass", 4, host="0.0.0.0", people=(2,))
    try:
        assert [url.partition("//")[2].partition(":")[0] for url in server.urls] == [address, address]
        base = server.url.partition("/?t=")[0]
        port = base.rpartition(":")[2]

        async def go() -> list[int]:
            statuses = []
            async with aiohttp.ClientSession() as http:
                for url, headers in ((server.urls[0], {}), (server.urls[1], {}), (base + "/?t=wrong", {}),
                                     (server.url, {"Host": f"evil.example:{port}"}),
                                     (server.url, {"Host": f"{sockets.gethostname()}:{port}"}),
                                     (server.url.replace(address, "127.0.0.1"), {})):
                    async with http.get(url, headers=headers) as response:
                        statuses.append(response.status)
                page = Page(await http.ws_connect(server.ws_url))     # from the network address
                hello = await page.next("hello")
                assert hello["seat"] == 0
                await page.send(type="quit")
            return statuses

        assert asyncio.run(go()) == [200, 200, 403, 403, 200, 200]
    finally:
        server.stop()


def test_play_with_host_warns_that_the_keys_travel_in_clear_text(monkeypatch, tmp_path):
    result, got = _play_cli(monkeypatch, tmp_path, "klaberjass", "--host", "0.0.0.0")
    assert result.exit_code == 0, result.output
    assert got["host"] == "0.0.0.0"
    assert "clear text" in result.output and "reverse proxy with TLS" in result.output
    result, got = _play_cli(monkeypatch, tmp_path, "klaberjass")
    assert result.exit_code == 0, result.output
    assert got["host"] == "127.0.0.1" and "clear text" not in result.output


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (its children, theirs, ...), from /proc."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent[int(entry.name)] = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        todo += kids
    return out


def test_a_peer_that_is_not_the_loopback_address_is_refused(tmp_path):
    """The command listens on 127.0.0.1 by default; and a server that listens elsewhere but is
    not open to other machines still refuses a request from a non-loopback address (here: served
    on this machine's network address, asked from it)."""
    address = _outside_address()
    if address is None:
        pytest.skip("this machine has no network address besides the loopback one")
    server = Server(tmp_path, "reference", 4, host=address, others=False)
    try:
        async def go() -> int:
            async with aiohttp.ClientSession() as http, http.get(server.url) as response:
                return response.status
        assert asyncio.run(go()) == 403
    finally:
        server.stop()


@pytest.mark.parametrize("misbehaviour, cls", [(["--crash", "--at", "2"], "crash"),
                                               (["--hang", "--at", "2"], "timeout")])
def test_a_bot_that_crashes_or_hangs_is_handled_and_shown(tmp_path, misbehaviour, cls):
    server = Server(tmp_path, "klaberjass", 2, options={"target": 1}, commands=[mock(*misbehaviour)],
                    decision_ms=400)

    async def go() -> dict[str, Any]:
        async with aiohttp.ClientSession() as http:
            page = await _connect(http, server)
            over = await page.play_to_the_end()
            shown = [m for m in page.got if m["type"] == "fault"]
            assert shown and shown[0]["class"] == cls and shown[0]["seat"] == 1
            assert "detail" not in shown[0]             # it may quote the bot's own cards
            await page.send(type="quit")
            return over

    try:
        asyncio.run(go())
    finally:
        server.stop()
    (record,) = finished_records(server.session)
    assert [f["class"] for f in record["faults"]][:1] == [cls]


def _bot_pids(server: Server) -> list[int]:
    table = server.session.table
    assert table is not None
    return [s.process.pid for s in table.sessions.values() if s.process is not None]


def test_closing_the_page_ends_the_game_and_every_bot(tmp_path):
    server = Server(tmp_path, "beim-jupiter", 4, linger_s=0.3)

    async def go() -> list[int]:
        async with aiohttp.ClientSession() as http:
            page = await _connect(http, server)
            await page.next("ask")
            pids = _bot_pids(server)
            await page.ws.close()
            return pids

    pids = asyncio.run(go())
    assert len(pids) == 3
    server.thread.join(20)
    assert not server.thread.is_alive(), "the server did not stop after the page closed"
    assert not [pid for pid in pids if _alive(pid)], "bot processes left"
    assert server.session.records == []          # an unfinished game is not recorded


def test_ctrl_c_ends_the_game_and_every_bot(tmp_path):
    # The trickcore these tests import, whether installed or a checkout's.
    env = dict(os.environ, PYTHONPATH=str(Path(trickcore.__file__).parent.parent))
    proc = subprocess.Popen([sys.executable, "-c", "from trickcore.cli import main; main()", "play", "squint",
                             "--no-browser", "--out", str(tmp_path / "records"), "--pace", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    try:
        url = ""
        deadline = time.monotonic() + 30
        while not url and time.monotonic() < deadline:
            line = proc.stdout.readline() if proc.stdout else ""
            if line.startswith("open "):
                url = line.split()[1]
        assert url, f"trickcore play printed no address: {proc.stderr.read() if proc.poll() is not None else ''}"
        base, _, key = url.partition("/?t=")

        async def first_decision() -> None:
            async with aiohttp.ClientSession() as http:
                page = Page(await http.ws_connect(base.replace("http://", "ws://") + "/ws?t=" + key))
                await page.next("ask")

        asyncio.run(first_decision())
        bots = _descendants(proc.pid)
        assert bots, "the bots run as child processes"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        assert "stopped" in (proc.stderr.read() if proc.stderr else "")
        deadline = time.monotonic() + 10
        while [pid for pid in bots if _alive(pid)] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in bots if _alive(pid)], "bot processes left"
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.parametrize("kind", ["none", "bwrap"])
def test_play_without_a_sandbox_warns_as_tournament_does(monkeypatch, tmp_path, kind):
    """`play --sandbox none` prints the warning `tournament` prints (a bot then runs as the person
    and could read the page's session key from the play process's memory); sandboxed, none."""
    from tournament import cli, play
    from tournament.sandbox import SandboxUnavailable, probe, unsandboxed_notice

    if kind == "bwrap":
        try:
            probe(play.play_config("toy-tricks", None, 0, [], {}, 1000, None).sandbox)
        except SandboxUnavailable as exc:
            pytest.skip(f"no sandbox on this machine: {exc}")

    async def no_server(session, **kwargs):  # the page is not what this test is about
        return None

    monkeypatch.setattr(play, "serve", no_server)
    result = CliRunner().invoke(cli.play_command, ["toy-tricks", "--no-browser", "--sandbox", kind,
                                                   "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    config = play.play_config("toy-tricks", None, 0, [], {}, 1000, "none")
    warning = f"warning: {unsandboxed_notice(config)}"
    assert (warning in result.output) == (kind == "none"), result.output


RANDOM_BOT = "{python} {bots}/random_bot.py"


def _play_cli(monkeypatch, tmp_path, *args: str) -> tuple[Any, dict[str, Any]]:
    """``trickcore play ARGS`` up to its server, which is not started: the session it would serve."""
    from tournament import cli, play

    got: dict[str, Any] = {}

    async def no_server(session, **kwargs):   # the page is not what these tests are about
        got["session"] = session
        got.update(kwargs)

    monkeypatch.setattr(play, "serve", no_server)
    result = CliRunner().invoke(cli.play_command, [*args, "--no-browser", "--sandbox", "none",
                                                   "--out", str(tmp_path / "out")])
    return result, got


def test_seats_named_person_on_the_command_line_are_peoples(monkeypatch, tmp_path):
    """`play klaberjass -p 4 person BOT person BOT`: seats 0 and 2 are people's (each with a
    key of its own), 1 and 3 the bots, in the order given."""
    result, got = _play_cli(monkeypatch, tmp_path, "klaberjass", "-p", "4", "person", RANDOM_BOT, "person",
                            "{python} {bots}/example_bot.py")
    assert result.exit_code == 0, result.output
    session = got["session"]
    assert session.seat == 0 and session.people == [0, 2]
    assert [one.seat for one in session.group] == [0, 2]
    assert len({one.token for one in session.group}) == 2
    assert session.names == ["person0", "seat1-random_bot", "person2", "seat3-example_bot"]
    # --seat picks which person's page opens here; --people may say the same number.
    result, got = _play_cli(monkeypatch, tmp_path, "klaberjass", "-p", "4", "--seat", "3", "--people", "2",
                            RANDOM_BOT, "person", RANDOM_BOT, "person")
    assert result.exit_code == 0, result.output
    assert got["session"].seat == 3 and got["session"].people == [3, 1]


@pytest.mark.parametrize("args, message", [
    (["-p", "4", "person", RANDOM_BOT, "person"], "give one per seat: 4 seats, 3 given"),
    (["-p", "4", "--people", "3", "person", RANDOM_BOT, "person", RANDOM_BOT], "--people 3, but 2 seats are 'person'"),
    (["-p", "4", "--seat", "1", "person", RANDOM_BOT, "person", RANDOM_BOT], "--seat 1, but that seat is the bot"),
    (["-p", "4", "--seat", "4"], "--seat: seat 4 is not in 0..3"),
    (["-p", "2", "--people", "3"], "--people: 3 people at a table of 2"),
])
def test_contradictory_people_and_seats_are_refused(monkeypatch, tmp_path, args, message):
    result, got = _play_cli(monkeypatch, tmp_path, "klaberjass", *args)
    assert result.exit_code == 2 and "session" not in got
    assert message in result.output, result.output


@pytest.mark.parametrize("args", [["--people", "2"], ["person", RANDOM_BOT, "person", RANDOM_BOT]],
                         ids=["people", "person-seats"])
def test_the_command_prints_one_link_per_person_each_opening_its_own_seat(tmp_path, args):
    """`trickcore play klaberjass -p 4 --people 2 --no-browser` (or its seats named `person`), run
    as a command: it prints two links, seat 0's and seat 2's; each key opens its own seat only
    (the page and the websocket's hello are that seat's, and taking one seat leaves the other
    free), and a key that is not one of them is refused."""
    env = dict(os.environ, PYTHONPATH=str(Path(trickcore.__file__).parent.parent))
    proc = subprocess.Popen([sys.executable, "-c", "from trickcore.cli import main; main()", "play", "klaberjass",
                             "-p", "4", *args, "--no-browser", "--seed", "3", "--out", str(tmp_path / "records")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    try:
        links: dict[int, str] = {}
        deadline = time.monotonic() + 30
        while len(links) < 2 and time.monotonic() < deadline:
            line = proc.stdout.readline() if proc.stdout else ""
            if not line and proc.poll() is not None:
                break
            if line.startswith("open "):
                links[0] = line.split()[1]
            elif line.startswith("seat ") and "'s person: open " in line:
                links[int(line.split("'")[0].split()[1])] = line.split()[-1]
        assert sorted(links) == [0, 2], f"printed {links}: {proc.stderr.read() if proc.poll() is not None else ''}"
        base = links[0].partition("/?t=")[0]
        assert links[2].startswith(base + "/?t=") and links[0] != links[2]
        keys = {seat: url.partition("/?t=")[2] for seat, url in links.items()}

        async def go() -> None:
            async with aiohttp.ClientSession() as http:
                for seat, url in links.items():
                    async with http.get(url) as response:
                        assert response.status == 200
                        html = await response.text()
                    data = json.loads(html.split('id="play-data">', 1)[1].split("</script>", 1)[0])
                    assert (data["seat"], data["token"]) == (seat, keys[seat])
                for wrong in ("", "wrong", keys[0][:-1], keys[0] + keys[2]):
                    async with http.get(f"{base}/?t={wrong}") as response:
                        assert response.status == 403, wrong
                ws = base.replace("http://", "ws://") + "/ws?t="
                pages = {seat: Page(await http.ws_connect(ws + keys[seat])) for seat in (2, 0)}
                for seat, page in pages.items():
                    hello = await page.next("hello")
                    assert hello["seat"] == seat and hello["names"][seat] == f"person{seat}"
                    resume = await page.next("resume")
                    assert resume["type"] == "resume"
                again = Page(await http.ws_connect(ws + keys[0]))     # seat 0 is taken by its page
                assert (await again.next("taken", "hello"))["type"] == "taken"
                await pages[0].send(type="quit")

        asyncio.run(go())
        assert proc.wait(30) == 0
        assert "you quit on the page" in (proc.stderr.read() if proc.stderr else "")
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
