"""What the organiser and the authors change besides submissions: pause and resume the league,
ban a bot (or lift the ban), an author's withdrawal of their bot, and the export of the whole
league (every table's records and the ratings) to a folder."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from tournament.files import write_json
from tournament.league.authors import LeagueError, author_of_token
from tournament.league.db import Author, Bot, LeagueTable, RatingEntry, Version
from tournament.league.league import League
from tournament.league.scheduler import table_folder


def set_paused(league: League, paused: bool) -> None:
    """A paused league finishes the table it is playing and forms no new one."""
    league.set_setting("paused", "yes" if paused else "no")


def set_banned(league: League, bot_name: str, banned: bool) -> None:
    with Session(league.engine) as session, session.begin():
        bot = session.scalar(select(Bot).where(Bot.name == bot_name))
        if bot is None:
            raise LeagueError(f"no bot named {bot_name!r} in this league")
        bot.banned = banned


def withdraw(league: League, token: str | None, bot_name: str) -> None:
    """The author takes their bot off the ladder; its games and ratings stay.  Submitting it
    again brings it back as a new version."""
    with Session(league.engine) as session, session.begin():
        author = author_of_token(session, token)
        bot = session.scalar(select(Bot).where(Bot.name == bot_name, Bot.author_id == author.id))
        if bot is None:
            raise LeagueError(f"you have no bot named {bot_name!r}")
        bot.withdrawn = True


def export(league: League, out: Path) -> Path:
    """The whole league in files: ``tables/<id>/`` (each table's tournament folder: its records,
    run.json, the seed that checks them), ``ratings.json`` (every version with its rating and its
    history, every table with its bots and its place in the rating order) and ``league.toml``."""
    if out.exists():
        raise LeagueError(f"{out} exists; export into a new folder")
    out.mkdir(parents=True)
    shutil.copy2(league.folder / "league.toml", out / "league.toml")
    with Session(league.engine) as session:
        tables = list(session.scalars(select(LeagueTable).order_by(LeagueTable.id)))
        for table in tables:
            source = table_folder(league, table.id)
            if table.state == "rated" and source.exists():
                shutil.copytree(source, out / "tables" / str(table.id))
        names = {b.id: (b.name, b.author_id) for b in session.scalars(select(Bot))}
        authors = {a.id: a.name for a in session.scalars(select(Author))}
        versions: list[dict[str, Any]] = []
        for v in session.scalars(select(Version).order_by(Version.id)):
            bot, author_id = names[v.bot_id]
            history = [{"table": h.table_id, "mu": h.mu, "sigma": h.sigma, "at": _iso(h.at)}
                       for h in session.scalars(select(RatingEntry).where(RatingEntry.version_id == v.id)
                                                .order_by(RatingEntry.id))]
            versions.append({"id": v.id, "bot": bot, "author": authors[author_id], "version": v.number,
                             "active": v.active, "mu": v.mu, "sigma": v.sigma, "games": v.games, "faults": v.faults,
                             "history": history})
        write_json(out / "ratings.json", {
            "league": league.config.name, "game": league.config.game, "players": league.config.players,
            "rating": {"model": "openskill PlackettLuce", **vars(league.config.rating)},
            "versions": versions,
            "tables": [{"id": t.id, "state": t.state, "rated_seq": t.rated_seq, "versions": t.versions,
                        "finished": _iso(t.finished)} for t in tables]})
    return out


def _iso(when: dt.datetime | None) -> str | None:
    return None if when is None else when.replace(tzinfo=dt.timezone.utc).isoformat()
