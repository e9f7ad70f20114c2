"""A seat for a person: an author sits at a table against the ladder's bots.

The table is ``trickcore play``'s (tournament.play): a page of its own, on a port of its own,
with a key of its own in its address; the other seats are the playing versions of the bots the
author chose, started from their folders under the league's sandbox, time control and failure
policies, as at the league's own tables.  Its games are kept in ``<league>/people/<n>/`` (a
``table.json`` saying who sat where, and one game record per finished game, which ``trickcore
replay`` and the viewer open) and listed on the author's page.  They are not rated: the ladder
ranks bots by games among bots, where every seating of a deal is played (docs/league.md,
"Playing against the ladder").

At most ``[server] people_tables`` such tables play at once; each ends when its page is closed
or its person quits, and all of them when the server stops.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from tournament.config import ConfigError, parse_config
from tournament.files import write_whole
from tournament.league.authors import author_of_token
from tournament.league.db import Bot, Version, now
from tournament.league.errors import LeagueError, RateLimited
from tournament.league.league import League
from tournament.league.submit import bot_command

PEOPLE_DIR = "people"
TABLE_FILE = "table.json"
#: The longest the page's server may take to listen.
START_S = 30.0


@dataclasses.dataclass
class PersonTable:
    number: int
    author: str
    port: int
    token: str  # the page's key
    thread: threading.Thread
    session: Any  # tournament.play.PlaySession

    def address(self, host: str) -> str:
        """The page's address for a person who reached the league at ``host`` (a name or address)."""
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{self.port}/?t={self.token}"


class PeopleTables:
    """The tables with a person that are playing, and the start of new ones."""

    def __init__(self, league: League, host: str) -> None:
        self.league = league
        self.host = host
        self.lock = threading.Lock()
        self.playing: dict[int, PersonTable] = {}

    def open(self, token: str, seat: int, bots: list[str]) -> PersonTable:
        """Seat the token's author at ``seat`` against ``bots`` (one per other seat, in seat
        order) and start the table's page; LeagueError says why not."""
        config = self.league.config
        players = config.players
        with Session(self.league.engine) as session:
            author = author_of_token(session, token).name
            if not 0 <= seat < players:
                raise LeagueError(f"seat {seat} is not one of 0..{players - 1}")
            if len(bots) != players - 1:
                raise LeagueError(f"choose {players - 1} bot(s), one for every other seat")
            seated = [self._seat(session, name) for name in bots]
        with self.lock:
            self.playing = {n: t for n, t in self.playing.items() if t.thread.is_alive()}
            if len(self.playing) >= config.people_tables:
                raise RateLimited(f"{config.people_tables} table(s) with people are playing, the most this league "
                                  f"allows at once ([server] people_tables): try again when one has ended")
            folder, number = self._new_folder()
            names = _unique([name for name, _, _, _ in seated])
            doc = config.table_doc(f"{config.name}-people-{number}", folder, [
                {"name": name, "command": list(command), "cwd": str(cwd), "options": options}
                for name, (_, command, cwd, options) in zip(names, seated)])
            try:
                table_config = parse_config(doc, f"the table with a person {number}", people=1)
            except ConfigError as exc:
                raise LeagueError(str(exc)) from None
            write_whole(folder / TABLE_FILE, json.dumps(
                {"author": author, "seat": seat, "bots": names, "started": now().isoformat()}, indent=1) + "\n")
            table = self._start(number, author, table_config, seat, folder)
            self.playing[number] = table
            return table

    def _seat(self, session: Session, name: str) -> tuple[str, tuple[str, ...], Path, dict[str, Any]]:
        version = session.scalars(select(Version).join(Bot).where(
            Bot.name == name, Version.active, Bot.banned.is_(False), Bot.withdrawn.is_(False))).one_or_none()
        if version is None:
            raise LeagueError(f"no bot named {name!r} is playing in this league")
        folder = self.league.folder / version.folder
        return (f"{name}-v{version.number}", bot_command(self.league.config, folder, version.runtime, version.command),
                folder, dict(version.options))

    def _new_folder(self) -> tuple[Path, int]:
        top = self.league.folder / PEOPLE_DIR
        top.mkdir(exist_ok=True)
        number = 1 + max((int(p.name) for p in top.iterdir() if p.name.isdigit()), default=0)
        folder = top / str(number)
        folder.mkdir()
        return folder, number

    def _start(self, number: int, author: str, config: Any, seat: int, folder: Path) -> PersonTable:
        from tournament.play import PlaySession, serve

        session = PlaySession(config, seat, folder)
        listening = threading.Event()
        found: dict[str, Any] = {}

        def ready(url: str) -> None:
            found["url"] = url
            listening.set()

        def run() -> None:
            try:
                asyncio.run(serve(session, host=self.host, port=0, ready=ready))
            except BaseException as exc:  # noqa: BLE001 - reported to the request that opened the table
                found["error"] = exc
                listening.set()

        thread = threading.Thread(target=run, name=f"league-people-{number}", daemon=True)
        thread.start()
        if not listening.wait(START_S) or "url" not in found:
            session.halt()
            raise LeagueError(f"the table's page did not start: {found.get('error', 'no answer in time')}")
        port = urlsplit(found["url"]).port
        assert port is not None  # serve's addresses carry their port
        return PersonTable(number, author, port, session.token, thread, session)

    def close_all(self) -> None:
        """End every table (the server stops): its game ends, and with it its bots."""
        with self.lock:
            tables = list(self.playing.values())
        for table in tables:
            table.session.halt("the league's server stopped")
        for table in tables:
            table.thread.join(timeout=30)


def _unique(names: list[str]) -> list[str]:
    """The seats' names, a bot chosen twice numbered from its second seat on."""
    return [name if names.index(name) == i else f"{name}-{names[:i + 1].count(name)}"
            for i, name in enumerate(names)]


def tables_of(league: League, author: str) -> list[dict[str, Any]]:
    """An author's tables with a person, newest first: who sat where, and each finished game
    (its file's name, scores and ranks)."""
    top = league.folder / PEOPLE_DIR
    found = []
    for folder in sorted((p for p in top.glob("*") if p.name.isdigit()), key=lambda p: -int(p.name)):
        try:
            meta = json.loads((folder / TABLE_FILE).read_text())
        except (OSError, ValueError):
            continue
        if meta.get("author") != author:
            continue
        games = []
        for path in sorted(folder.glob("*.json")):
            if path.name == TABLE_FILE:
                continue
            record = _read(path)
            games.append({"file": path.stem, "scores": record.get("scores"), "ranks": record.get("ranks")})
        found.append({"number": int(folder.name), **meta, "games": games})
    return found


def game_record(league: League, number: int, name: str) -> dict[str, Any] | None:
    """One finished game of a table with a person, or None."""
    path = league.folder / PEOPLE_DIR / str(number) / f"{name}.json"
    if name == Path(TABLE_FILE).stem or not path.is_file() or path.parent.parent != league.folder / PEOPLE_DIR:
        return None
    return _read(path)


def _read(path: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return record
