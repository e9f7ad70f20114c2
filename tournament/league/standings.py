"""What the league shows: the leaderboard, read from the database.

A version's rating is openskill's (mu, sigma); the leaderboard orders the playing versions by
the low end of their interval, mu - 3 sigma (openskill's ordinal), so that a new bot with a
wide interval climbs as its games narrow it, rather than starting at the top by luck.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from tournament.league.db import Author, Bot, Version
from tournament.league.league import League
from tournament.ratings import Margin

#: The interval shown with a rating: mu ± 2 sigma, about 95% under the model's normal belief.
INTERVAL_SIGMAS = 2.0


@dataclasses.dataclass(frozen=True)
class Row:
    rank: int
    bot: str
    version: int
    author: str
    mu: float
    sigma: float
    games: int
    faults: int
    last_game: dt.datetime | None
    banned: bool

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def interval(self) -> float:
        return INTERVAL_SIGMAS * self.sigma


def leaderboard(league: League, include_inactive: bool = False) -> list[Row]:
    """The playing version of every bot that is neither banned nor withdrawn, best first."""
    with Session(league.engine) as session:
        query = select(Version, Bot, Author).join(Bot, Version.bot_id == Bot.id).join(Author)
        if not include_inactive:
            query = query.where(Version.active, Bot.banned.is_(False), Bot.withdrawn.is_(False))
        rows = session.execute(query).all()
        ordered = sorted(rows, key=lambda r: (-(r[0].mu - 3 * r[0].sigma), r[1].name, r[0].number))
        return [Row(i + 1, bot.name, v.number, author.name, v.mu, v.sigma, v.games, v.faults, v.last_game, bot.banned)
                for i, (v, bot, author) in enumerate(ordered)]


def format_leaderboard(rows: list[Row], width: int | None = None) -> str:
    from trickcore import tables

    body = [[r.rank, r.bot, r.version, f"{r.mu:.2f} ± {r.interval:.2f}", r.games, r.faults, r.author,
             r.last_game.strftime("%Y-%m-%d %H:%M") if r.last_game else "-"] for r in rows]
    header = ["rank", "bot", "version", "rating ± interval", "games", "faults", "author", "last game (UTC)"]
    return tables.render(header, body, right=(0, 2, 4, 5), width=width, optional=(7, 6, 5))


def duplicate_margin(league: League, first: str, second: str) -> Margin:
    """How far ``first``'s score per deal lies above ``second``'s, over the deals of every rated
    table where a version of each played: per deal, the difference of their mean scores over
    the deal's seatings (the same cards at every seat, so the cards' luck cancels), with a 95%
    interval over the deals (tournament.ratings.margin).  ValueError when they never met."""
    from tournament.config import parse_config
    from tournament.league.db import LeagueTable
    from tournament.league.scheduler import seats, table_config_doc, table_folder
    from tournament.ratings import deal_rows, margin
    from tournament.results import read_results

    rows = []
    with Session(league.engine) as session:
        tables = session.scalars(select(LeagueTable).where(LeagueTable.state == "rated")
                                 .order_by(LeagueTable.rated_seq)).all()
        for table in tables:
            table_seats = seats(league, table, session)
            names = {s.name.rsplit("-v", 1)[0]: s.name for s in table_seats}
            if first not in names or second not in names:
                continue
            config = parse_config(table_config_doc(league, table.id, table_seats), f"table {table.id}")
            for row in deal_rows(config, read_results(table_folder(league, table.id))):
                scores = row["mean_scores"]
                rows.append({"mean_scores": {first: scores[names[first]], second: scores[names[second]]}})
    if not rows:
        raise ValueError(f"{first} and {second} have not played a rated table together")
    return margin(rows, first)
