"""``trickcore league``: a league that runs for a season (docs/league.md).  The group joins the
``trickcore`` command through the ``trickcore.commands`` entry-point group (pyproject.toml).

Exit codes: 0 success, 1 a request the league refused (a wrong token, a refused submission),
2 a bad league.toml or usage.
"""

from __future__ import annotations

import sys
from pathlib import Path

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
