"""The league's web server (aiohttp, as ``trickcore play`` serves its page): the pages of
tournament/league/pages.py, the upload form and the authors' and the organiser's actions.

It runs beside the scheduler, in a thread of its own with its own event loop; a submission's
compliance check runs in a worker thread, so the pages stay answered while it plays.  It listens
on the loopback address unless the league says otherwise (``[server] host``); TLS belongs to a
reverse proxy in front of it (docs/league.md).

Authors act with their token (a form field, never part of an address); the organiser's page
needs the key ``serve`` prints with its address, drawn anew at every start and compared in
constant time.  Every page is sent with a Content-Security-Policy that lets it load nothing
from elsewhere and post forms only to this server.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hmac
import os
import secrets
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import BodyPartReader, web

from tournament.config import ConfigError
from tournament.league import pages
from tournament.league.errors import LeagueError, RateLimited, TokenRefused, TooLarge
from tournament.league.league import UPLOADS_DIR, League
from tournament.league.organiser import export, set_banned, set_paused, withdraw
from tournament.league.people import PeopleTables, game_record
from tournament.league.submit import MB, check_submitter, submit
from tournament.replay_html import replay_html

HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
           "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
                                      "img-src data:; form-action 'self'; frame-ancestors 'none'"}
EXPORTS_DIR = "exports"


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", headers=HEADERS)


def _wants_text(request: web.Request) -> bool:
    """``trickcore league submit URL`` asks for plain text; a browser gets the page."""
    return request.headers.get("Accept", "").startswith("text/plain")


class LeagueSite:
    def __init__(self, league: League, organiser_key: str | None = None, host: str | None = None) -> None:
        self.league = league
        self.organiser_key = organiser_key or secrets.token_urlsafe(24)
        self.max_upload = int(league.config.submissions.max_archive_mb * MB)
        # Tables where an author plays against the ladder: each page listens where this one does.
        self.people = PeopleTables(league, host or league.config.host)

    def app(self) -> web.Application:
        # The whole request body: the archive, the token and the multipart framing around them.
        app = web.Application(client_max_size=self.max_upload + 64 * 1024)
        app.router.add_get("/", self.root)
        app.router.add_get("/index.html", self.index)
        app.router.add_get("/bots/{name}.html", self.bot)
        app.router.add_get("/games/{table:\\d+}/{job}.html", self.game)
        app.router.add_get("/author", self.author_form)
        app.router.add_post("/author", self.author)
        app.router.add_post("/submit", self.submit)
        app.router.add_post("/withdraw", self.withdraw)
        app.router.add_post("/play", self.play)
        app.router.add_get("/people/{table:\\d+}/{name}.html", self.person_game)
        app.router.add_get("/organiser", self.organiser_form)
        app.router.add_post("/organiser", self.organiser)
        return app

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A call that reads or writes the database, or plays games, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    async def root(self, request: web.Request) -> web.Response:
        raise web.HTTPFound("/index.html")

    async def index(self, request: web.Request) -> web.Response:
        return _html(await self._run(pages.leaderboard_page, self.league, True))

    async def bot(self, request: web.Request) -> web.Response:
        page = await self._run(pages.bot_page, self.league, request.match_info["name"], True)
        if page is None:
            raise web.HTTPNotFound(text="no such bot in this league")
        return _html(page)

    async def game(self, request: web.Request) -> web.Response:
        page = await self._run(pages.game_page, self.league, int(request.match_info["table"]),
                               request.match_info["job"])
        if page is None:
            raise web.HTTPNotFound(text="no such game, or its table is still playing (a replay shows every hand, "
                                        "and the table plays the same deals at its other seatings)")
        return _html(page)

    async def author_form(self, request: web.Request) -> web.Response:
        return _html(pages.author_page(self.league))

    async def _author_page(self, token: str, message: str = "", message_class: str = "", report: str = "",
                           status: int = 200, table_link: str = "") -> web.Response:
        try:
            data = await self._run(pages.author_data, self.league, token)
        except LeagueError as exc:
            return _html(pages.author_page(self.league, message=str(exc), message_class="refused"), 403)
        return _html(pages.author_page(self.league, data, token, message, message_class, report, table_link), status)

    async def author(self, request: web.Request) -> web.Response:
        form = await request.post()
        return await self._author_page(str(form.get("token", "")))

    async def withdraw(self, request: web.Request) -> web.Response:
        form = await request.post()
        token, bot = str(form.get("token", "")), str(form.get("bot", ""))
        try:
            await self._run(withdraw, self.league, token, bot)
        except LeagueError as exc:
            return await self._author_page(token, str(exc), "refused", status=403)
        return await self._author_page(token, f"{bot} is withdrawn; its games and ratings stay", "accepted")

    async def play(self, request: web.Request) -> web.Response:
        """Seat the author at a table against the bots chosen (one per other seat); the answer is
        the author's page with the link to the table's page (a page of its own, on its own port)."""
        form = await request.post()
        token = str(form.get("token", ""))
        try:
            seat = int(str(form.get("seat", "0")))
        except ValueError:
            return await self._author_page(token, "the seat must be a number", "refused", status=400)
        bots = [str(b) for b in form.getall("bot", [])]
        try:
            table = await self._run(self.people.open, token, seat, bots)
        except TokenRefused as exc:
            return await self._author_page(token, str(exc), "refused", status=403)
        except RateLimited as exc:
            return await self._author_page(token, str(exc), "refused", status=429)
        except LeagueError as exc:
            return await self._author_page(token, str(exc), "refused", status=400)
        # The page's address as the author reached this one: the same host, the table's port.
        return await self._author_page(token, f"your table {table.number} is ready: seat {seat}, against "
                                              f"{', '.join(bots)}", "accepted",
                                       table_link=table.address(request.url.host or self.people.host))

    async def person_game(self, request: web.Request) -> web.Response:
        record = await self._run(game_record, self.league, int(request.match_info["table"]),
                                 request.match_info["name"])
        if record is None:
            raise web.HTTPNotFound(text="no such game with a person in this league")
        return _html(replay_html(record, back="../../author", back_label="authors"))

    async def submit(self, request: web.Request) -> web.Response:
        token, upload = "", self.league.folder / UPLOADS_DIR / f"upload-{secrets.token_hex(8)}"
        if request.content_type != "multipart/form-data":
            return self._refused(request, token, "no archive in the upload (send the form as multipart/form-data, "
                                                 "with the fields token and archive)", 400)
        try:
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "token":
                    token = (await part.read(decode=True)).decode("utf-8", "replace")
                    # The form sends the token first: a stranger's or a flooding author's upload
                    # is refused before its archive is read.
                    await self._run(check_submitter, self.league, token)
                elif part.name == "archive":
                    if not token:
                        raise TokenRefused("wrong or missing author token (send the token before the archive)")
                    await self._save(part, upload)
            if not upload.exists():
                return self._refused(request, token, "no archive in the upload", 400)
            outcome = await self._run(submit, self.league, token, upload)
        except LeagueError as exc:
            status = {RateLimited: 429, TokenRefused: 403, TooLarge: 413}.get(type(exc), 400)
            return self._refused(request, token, str(exc), status)
        except ConfigError as exc:  # no sandbox on this machine: the league cannot check bots
            return self._refused(request, token, str(exc), 503)
        finally:
            upload.unlink(missing_ok=True)
        if _wants_text(request):
            return web.Response(text=outcome.describe() + "\n", status=200 if outcome.accepted else 422,
                                headers=HEADERS)
        head = outcome.describe().split("\n", 1)[0]
        return await self._author_page(token, head, "accepted" if outcome.accepted else "refused", outcome.report,
                                       200 if outcome.accepted else 422)

    async def _save(self, part: BodyPartReader, path: Path) -> None:
        size = 0
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            while chunk := await part.read_chunk(1 << 16):
                size += len(chunk)
                if size > self.max_upload:
                    raise TooLarge(f"the archive is larger than the league takes "
                                      f"({self.league.config.submissions.max_archive_mb:g} MB)")
                out.write(chunk)

    def _refused(self, request: web.Request, token: str, message: str, status: int) -> web.Response:
        if _wants_text(request):
            return web.Response(text=f"error: {message}\n", status=status, headers=HEADERS)
        return _html(pages.author_page(self.league, message=message, message_class="refused"), status)

    def _organiser_ok(self, key: str) -> None:
        if not hmac.compare_digest(key.encode(), self.organiser_key.encode()):
            raise web.HTTPForbidden(text="open the organiser's address that trickcore league serve printed")

    async def organiser_form(self, request: web.Request) -> web.Response:
        key = request.query.get("key", "")
        self._organiser_ok(key)
        return _html(pages.organiser_page(self.league, key, str(self.league.folder / EXPORTS_DIR)))

    async def organiser(self, request: web.Request) -> web.Response:
        form = await request.post()
        key = str(form.get("key", ""))
        self._organiser_ok(key)
        action, bot = str(form.get("action", "")), str(form.get("bot", "")).strip()
        try:
            if action in ("pause", "resume"):
                await self._run(set_paused, self.league, action == "pause")
                message = "paused: the table playing finishes, no new one starts" if action == "pause" else "resumed"
            elif action in ("ban", "unban"):
                await self._run(set_banned, self.league, bot, action == "ban")
                message = f"{bot} is banned: it plays no new table" if action == "ban" else f"{bot}'s ban is lifted"
            elif action == "export":
                stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
                out = await self._run(export, self.league, self.league.folder / EXPORTS_DIR / stamp)
                message = f"exported to {out}"
            else:
                raise web.HTTPBadRequest(text=f"unknown action {action!r}")
        except LeagueError as exc:
            message = str(exc)
        return _html(pages.organiser_page(self.league, key, str(self.league.folder / EXPORTS_DIR), message))


class ServerThread:
    """The site served from a thread of its own until ``stop()``; ``url`` once it listens."""

    def __init__(self, site: LeagueSite, host: str, port: int) -> None:
        self.site, self.host, self.port = site, host, port
        self.url = ""
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._error: BaseException | None = None
        self.thread = threading.Thread(target=self._main, name="league-web", daemon=True)

    def start(self) -> str:
        self.thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self.url

    def _main(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        runner = web.AppRunner(self.site.app(), access_log=None, handle_signals=False)
        try:
            loop.run_until_complete(runner.setup())
            family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
            sock = socket.socket(family, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            loop.run_until_complete(web.SockSite(runner, sock).start())
            shown = f"[{self.host}]" if ":" in self.host else self.host
            self.url = f"http://{shown}:{sock.getsockname()[1]}/"
        except BaseException as exc:  # noqa: BLE001 - reported to the thread that started the server
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(runner.cleanup())
            loop.close()

    def stop(self) -> None:
        self.site.people.close_all()
        if self._loop is not None and self.thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self.thread.join(10)
