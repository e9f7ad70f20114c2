"""The league's pages: the leaderboard with the league's state, a page per bot, the replays, an
author's page with the upload form, the organiser's page; served by ``trickcore league serve``
(tournament/league/web.py) and written as files by ``trickcore league report``.

The templates (``tournament/league/templates/``) extend the tournament pages' frame and use the
same Jinja2 settings (autoescaping, undefined names an error), so every name a page shows -- a
bot's, an author's, a fault's detail, a compliance report -- is escaped once.  Pages link to each
other by relative paths from the league's top (``index.html``, ``bots/<bot>.html``,
``games/<table>/<job>.html``), which the server answers and the report writes, so both read alike.

A game's replay is shown once its whole table is rated: the other seatings of its deal are
played at the same table, and the replay shows every hand.
"""

from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path
from typing import Any

import jinja2
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tournament.files import write_whole
from tournament.league.authors import author_of_token
from tournament.league.db import Author, Bot, Game, LeagueTable, RatingEntry, Submission, Version, now
from tournament.league.league import League
from tournament.league.people import tables_of
from tournament.league.scheduler import table_folder
from tournament.league.standings import INTERVAL_SIGMAS, leaderboard
from tournament.pages import asset, script_json
from tournament.results import read_results

RECENT_GAMES = 50  # games on a bot's page
RECENT_TABLES = 20  # tables whose records a bot's page reads for faults
CHART = (640, 200)
COLOURS = ("#0969da", "#cf222e", "#1a7f37", "#8250df", "#bc4c00", "#59636e")


@functools.cache
def environment() -> jinja2.Environment:
    loader = jinja2.ChoiceLoader([jinja2.PackageLoader("tournament.league", "templates"),
                                  jinja2.PackageLoader("tournament", "templates")])
    env = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.globals["asset"] = asset
    env.filters["script_json"] = script_json
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(generator="trickcore league", **context)


def league_state(league: League) -> dict[str, Any]:
    with Session(league.engine) as session:
        playing = session.scalars(select(LeagueTable).where(LeagueTable.state == "playing")).all()
        busy = {v for t in playing for v in t.versions}
        active = session.scalars(select(Version.id).join(Bot).where(
            Version.active, Bot.banned.is_(False), Bot.withdrawn.is_(False))).all()
        hour_ago = now() - dt.timedelta(hours=1)
        last_hour = session.scalar(select(func.count()).select_from(Game).join(LeagueTable).where(
            LeagueTable.finished > hour_ago)) or 0
        games = session.scalar(select(func.count()).select_from(Game)) or 0
    return {"game": league.config.game, "players": league.config.players, "paused": league.paused,
            "tables_playing": len(playing), "games_last_hour": last_hour, "games": games,
            "waiting": len([v for v in active if v not in busy])}


def leaderboard_page(league: League, served: bool) -> str:
    return render("leaderboard.html.j2", title=f"{league.config.name} – leaderboard", root="", served=served,
                  heading=f"{league.config.name}: leaderboard", state=league_state(league), rows=leaderboard(league))


def _chart(history: dict[int, list[tuple[float, float]]]) -> dict[str, Any]:
    """Each version's mu after each table, with its ± 2 sigma band, as SVG points."""
    width, height = CHART
    values = [m + s * k for points in history.values() for m, s in points for k in (-INTERVAL_SIGMAS, INTERVAL_SIGMAS)]
    top, bottom = max(values), min(values)
    span = (top - bottom) or 1.0
    longest = max(len(points) for points in history.values())

    def xy(i: int, value: float) -> str:
        x = 40 + (width - 60) * (i / max(longest - 1, 1))
        return f"{x:.1f},{8 + (height - 16) * (top - value) / span:.1f}"

    lines = []
    for n, (version, points) in enumerate(sorted(history.items())):
        upper = [xy(i, m + INTERVAL_SIGMAS * s) for i, (m, s) in enumerate(points)]
        lower = [xy(i, m - INTERVAL_SIGMAS * s) for i, (m, s) in enumerate(points)]
        last = xy(len(points) - 1, points[-1][0]).split(",")
        lines.append({"version": version, "colour": COLOURS[n % len(COLOURS)],
                      "points": " ".join(xy(i, m) for i, (m, _) in enumerate(points)),
                      "band": " ".join(upper + lower[::-1]),
                      "label_x": min(float(last[0]) + 4, width - 24), "label_y": last[1]})
    return {"width": width, "height": height, "top": top, "bottom": bottom, "lines": lines}


def bot_data(league: League, name: str) -> dict[str, Any] | None:
    with Session(league.engine) as session:
        bot = session.scalar(select(Bot).where(Bot.name == name))
        if bot is None:
            return None
        author = session.get_one(Author, bot.author_id)
        versions = list(session.scalars(select(Version).where(Version.bot_id == bot.id).order_by(Version.number)))
        ids = {v.id: v.number for v in versions}
        start = (league.config.rating.mu, league.config.rating.sigma)  # every version's rating before its first table
        history: dict[int, list[tuple[float, float]]] = {}
        for entry in session.scalars(select(RatingEntry).where(RatingEntry.version_id.in_(ids))
                                     .order_by(RatingEntry.id)):
            history.setdefault(ids[entry.version_id], [start]).append((entry.mu, entry.sigma))
        tables = list(session.scalars(select(LeagueTable).where(LeagueTable.state == "rated")
                                      .order_by(LeagueTable.rated_seq.desc())))
        mine = [t for t in tables if set(t.versions) & set(ids)]
        seat_names = _seat_names(session)
        games = []
        for game in session.scalars(select(Game).where(Game.table_id.in_([t.id for t in mine]))
                                    .order_by(Game.table_id.desc(), Game.id).limit(RECENT_GAMES)):
            games.append({"table": game.table_id, "job": game.job, "seats": [seat_names[v] for v in game.seats],
                          "scores": [f"{s:g}" for s in game.scores], "faults": game.faults})
        faults = []
        for table in mine[:RECENT_TABLES]:
            folder = table_folder(league, table.id)
            if not (folder / "results.jsonl").exists():
                continue
            for record in read_results(folder):
                for fault in record.get("faults", []):
                    seat = fault.get("seat")
                    if isinstance(seat, int) and 0 <= seat < len(record["bots"]) and \
                            record["bots"][seat].rsplit("-v", 1)[0] == name:
                        faults.append({"table": table.id, "job": record["job"], "cls": fault.get("class"),
                                       "outcome": fault.get("outcome"), "detail": fault.get("detail")})
        return {"name": bot.name, "author": author.name, "banned": bot.banned, "withdrawn": bot.withdrawn,
                "versions": [{"number": v.number, "created": v.created, "active": v.active, "mu": v.mu,
                              "interval": INTERVAL_SIGMAS * v.sigma, "games": v.games, "faults": v.faults}
                             for v in versions],
                "history": history, "chart": _chart(history) if history else None, "games": games, "faults": faults}


def _seat_names(session: Session) -> dict[int, str]:
    bots = {b.id: b.name for b in session.scalars(select(Bot))}
    return {v.id: f"{bots[v.bot_id]} v{v.number}" for v in session.scalars(select(Version))}


def bot_page(league: League, name: str, served: bool) -> str | None:
    data = bot_data(league, name)
    if data is None:
        return None
    return render("bot.html.j2", title=f"{name} – {league.config.name}", root="../", served=served,
                  heading=f"{name}", bot=data)


def game_record(league: League, table_id: int, job: str) -> dict[str, Any] | None:
    """A game's record, if its table is rated (see the module's note)."""
    with Session(league.engine) as session:
        table = session.get(LeagueTable, table_id)
        if table is None or table.state != "rated":
            return None
    folder = table_folder(league, table_id)
    return next((r for r in read_results(folder) if r["job"] == job), None) if folder.exists() else None


def game_page(league: League, table_id: int, job: str) -> str | None:
    from tournament.replay_html import replay_html

    record = game_record(league, table_id, job)
    return None if record is None else replay_html(record, back="../../index.html", back_label="leaderboard")


def author_data(league: League, token: str) -> dict[str, Any]:
    """An author's bots and submissions; LeagueError for a wrong token."""
    with Session(league.engine) as session:
        author = author_of_token(session, token)
        bots = session.scalars(select(Bot).where(Bot.author_id == author.id).order_by(Bot.name)).all()
        submissions = session.scalars(select(Submission).where(Submission.author_id == author.id)
                                      .order_by(Submission.id.desc())).all()
        return {"name": author.name,
                "bots": [{"name": b.name, "banned": b.banned, "withdrawn": b.withdrawn} for b in bots],
                "tables": tables_of(league, author.name),
                "submissions": [{"created": s.created, "bot_name": s.bot_name, "accepted": s.accepted,
                                 "report": s.report} for s in submissions]}


def author_page(league: League, author: dict[str, Any] | None = None, token: str = "", message: str = "",
                message_class: str = "", report: str = "", table_link: str = "") -> str:
    """The authors' page; with ``author`` (their token was given), their bots, submissions,
    tables with a person, and the form that seats them at a new one against the ladder's bots."""
    ladder = [row.bot for row in leaderboard(league)] if author is not None else []
    return render("author.html.j2", title=f"Authors – {league.config.name}", root="", served=True,
                  heading=f"{league.config.name}: authors", author=author, token=token, message=message,
                  message_class=message_class, report=report, runtimes=sorted(league.config.runtimes),
                  ladder=ladder, players=league.config.players, people_tables=league.config.people_tables,
                  table_link=table_link)


def organiser_page(league: League, key: str, export_dir: str, message: str = "") -> str:
    return render("organiser.html.j2", title=f"Organiser – {league.config.name}", root="", served=True,
                  heading=f"{league.config.name}: organiser", key=key, paused=league.paused, message=message,
                  export_dir=export_dir)


def write_report(league: League, out: Path) -> int:
    """The leaderboard, every bot's page and every rated game's replay as files in ``out``
    (``index.html`` first); returns the number of pages written."""
    write_whole(out / "index.html", leaderboard_page(league, served=False))
    written = 1
    with Session(league.engine) as session:
        names = session.scalars(select(Bot.name).order_by(Bot.name)).all()
        rated = session.scalars(select(LeagueTable.id).where(LeagueTable.state == "rated")).all()
    for name in names:
        page = bot_page(league, name, served=False)
        assert page is not None  # the bot was just listed
        write_whole(out / "bots" / f"{name}.html", page)
        written += 1
    from tournament.replay_html import replay_html

    for table_id in rated:
        for record in read_results(table_folder(league, table_id)):
            write_whole(out / "games" / str(table_id) / f"{record['job']}.html",
                        replay_html(record, back="../../index.html", back_label="leaderboard"))
            written += 1
    return written
