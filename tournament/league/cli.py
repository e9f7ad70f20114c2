"""``trickcore league``: a league that runs for a season (docs/league.md).  The group joins the
``trickcore`` command through the ``trickcore.commands`` entry-point group (pyproject.toml).

Exit codes: 0 success, 1 a request the league refused (a wrong token, a refused submission),
2 a bad league.toml or usage.
"""

from __future__ import annotations

import shutil
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import NoReturn

import click

from tournament.config import ConfigError
from tournament.league.authors import LeagueError, add_author
from tournament.league.league import League, init_league, open_league


def _open(folder: str) -> League:
    try:
        return open_league(folder)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)


@click.group("league")
def league() -> None:
    """A league: authors submit bots at any time, tables of duplicate deals play continuously,
    openskill ratings settle (docs/league.md)."""


@league.command("init")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--game", required=True, help="The league's game (trickcore games lists them).")
@click.option("-p", "--players", type=int, required=True, help="Seats at a table.")
@click.option("--database", metavar="URL",
              help="postgresql://USER@HOST/DB for a PostgreSQL database (default: SQLite, FOLDER/league.db).")
def init_command(folder: str, game: str, players: int, database: str | None) -> None:
    """Make a league in FOLDER: its league.toml (every setting at its default) and its database."""
    try:
        made = init_league(folder, game, players, database)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    made.close()
    click.echo(f"league {made.config.name!r} of {made.config.game} for {made.config.players} players in {folder} "
               f"(settings: {Path(folder) / 'league.toml'})")


@league.command("add-author")
@click.argument("folder", type=click.Path(file_okay=False))
@click.argument("name")
def add_author_command(folder: str, name: str) -> None:
    """Add an author NAME and print their token: it is shown this once (only its hash is kept);
    the author needs it to submit and withdraw bots."""
    opened = _open(folder)
    try:
        token = add_author(opened.engine, name)
    except LeagueError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    finally:
        opened.close()
    click.echo(f"author {name!r} added; their token (shown once, keep it):", err=True)
    click.echo(token)


@league.command("submit")
@click.argument("league_at", metavar="DIR")
@click.argument("archive", type=click.Path(exists=True, dir_okay=False))
@click.option("--token", envvar="TRICKCORE_LEAGUE_TOKEN", help="Your author token (or TRICKCORE_LEAGUE_TOKEN).")
def submit_command(league_at: str, archive: str, token: str | None) -> None:
    """Submit a bot: ARCHIVE (.tar.gz, .tar.bz2, .tar.xz or .tar) holds a bot.toml (name, command,
    runtime) and the bot's files.  It is unpacked under the league's limits and checked with
    compliance in the sandbox, then joins the ladder as the bot's new version or is refused with
    the report."""
    from tournament.league.submit import submit

    opened = _open(league_at)
    try:
        outcome = submit(opened, token, Path(archive))
    except LeagueError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except ConfigError as exc:  # the league cannot check bots here (no sandbox)
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    finally:
        opened.close()
    click.echo(outcome.describe())
    sys.exit(0 if outcome.accepted else 1)


def _interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    raise KeyboardInterrupt


@league.command("serve")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--tables", "max_tables", type=click.IntRange(min=1),
              help="Stop once this many tables have been rated (default: play until stopped).")
@click.option("-q", "--quiet", is_flag=True, help="No line per table.")
def serve_command(folder: str, max_tables: int | None, quiet: bool) -> None:
    """Play tables continuously: each seats the league's bots that most need games (new bots first,
    then the widest intervals, opponents near in rating) and plays duplicate deals; it is rated
    when complete.  Ctrl-C or SIGTERM stops it; every finished game is kept, and the next start
    plays the interrupted table's remaining games."""
    from tournament.league.scheduler import Scheduler
    from tournament.league.standings import leaderboard

    opened = _open(folder)

    def rated(table_id: int) -> None:
        if not quiet:
            top = leaderboard(opened)[:3]
            click.echo(f"table {table_id} rated; leading: "
                       + ", ".join(f"{r.bot} v{r.version} {r.mu:.1f} ± {r.interval:.1f}" for r in top))

    scheduler = Scheduler(opened, max_tables, rated)
    signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM stops like Ctrl-C: bots killed, finished games kept
    try:
        scheduler.run()
    except KeyboardInterrupt:
        scheduler.interrupted = True
    finally:
        opened.close()
    if scheduler.interrupted:
        click.echo("interrupted; every finished game is kept, the next start goes on", err=True)
        sys.exit(130)
    for error in scheduler.errors:
        click.echo(f"runner error: {error}", err=True)
    sys.exit(1 if scheduler.errors else 0)


@league.command("standings")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--all", "include_inactive", is_flag=True, help="Also old versions, banned and withdrawn bots.")
def standings_command(folder: str, include_inactive: bool) -> None:
    """The leaderboard: rank, rating ± interval (2 sigma), games, faults, author, version, last game."""
    from tournament.league.standings import format_leaderboard, leaderboard

    opened = _open(folder)
    try:
        rows = leaderboard(opened, include_inactive)
    finally:
        opened.close()
    click.echo(format_leaderboard(rows, width=shutil.get_terminal_size((120, 24)).columns))
