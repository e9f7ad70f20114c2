"""``trickcore league``: a league that runs for a season (docs/league.md).  The group joins the
``trickcore`` command through the ``trickcore.commands`` entry-point group (pyproject.toml).

Exit codes: 0 success, 1 a request the league refused (a wrong token, a refused submission),
2 a bad league.toml or usage.
"""

from __future__ import annotations

import ipaddress
import shutil
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, NoReturn

import click

from tournament.config import ConfigError
from tournament.league.errors import LeagueError

if TYPE_CHECKING:
    from tournament.league.league import League

#: The league's database layer comes with the ``league`` extra; the commands import it when they
#: run, so that ``trickcore`` itself works (and says nothing) where the extra is not installed.
NEEDS = ("sqlalchemy", "alembic")


def _open(folder: str) -> League:
    from tournament.league.league import open_league

    try:
        return open_league(folder)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)


@click.group("league")
def league() -> None:
    """A league: authors submit bots at any time, tables of duplicate deals play continuously,
    openskill ratings settle (docs/league.md)."""
    import importlib.util

    missing = [name for name in NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        click.echo(f"error: trickcore league needs {', '.join(missing)}: pip install \"trickcore[league]\" "
                   f"(in a clone: pip install -e \".[league]\")", err=True)
        sys.exit(2)


@league.command("init")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--game", required=True, help="The league's game (trickcore games lists them).")
@click.option("-p", "--players", type=int, required=True, help="Seats at a table.")
@click.option("--database", metavar="URL",
              help="postgresql://USER@HOST/DB for a PostgreSQL database (default: SQLite, FOLDER/league.db).")
def init_command(folder: str, game: str, players: int, database: str | None) -> None:
    """Make a league in FOLDER: its league.toml (every setting at its default) and its database."""
    from tournament.league.league import init_league

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
    from tournament.league.authors import add_author

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
@click.argument("league_at", metavar="DIR|URL")
@click.argument("archive", type=click.Path(exists=True, dir_okay=False))
@click.option("--token", envvar="TRICKCORE_LEAGUE_TOKEN", help="Your author token (or TRICKCORE_LEAGUE_TOKEN).")
def submit_command(league_at: str, archive: str, token: str | None) -> None:
    """Submit a bot to the league in DIR, or to the league served at URL (the address its page
    has): ARCHIVE (.tar.gz, .tar.bz2, .tar.xz or .tar) holds a bot.toml (name, command, runtime)
    and the bot's files.  It is unpacked under the league's limits and checked with compliance in
    the sandbox, then joins the ladder as the bot's new version or is refused with the report."""
    if league_at.startswith(("http://", "https://")):
        sys.exit(_submit_url(league_at, Path(archive), token))
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


def _submit_url(url: str, archive: Path, token: str | None) -> int:
    """POST the archive to the league's /submit, as its upload form does; the server answers in
    plain text (the outcome and its report, or why it refused)."""
    import asyncio

    import aiohttp

    async def post() -> tuple[int, str]:
        form = aiohttp.FormData()
        form.add_field("token", token or "")
        with open(archive, "rb") as fh:
            form.add_field("archive", fh, filename=archive.name, content_type="application/octet-stream")
            async with aiohttp.ClientSession() as session, session.post(
                    url.split("?")[0].removesuffix("index.html").rstrip("/") + "/submit", data=form,
                    headers={"Accept": "text/plain"}) as response:
                return response.status, await response.text()

    try:
        status, text = asyncio.run(post())
    except aiohttp.ClientError as exc:
        click.echo(f"error: cannot reach the league at {url}: {exc}", err=True)
        return 2
    if status in (200, 422):
        click.echo(text, nl=False)
        return 0 if status == 200 else 1
    click.echo(text if text.startswith("error:") else f"error: the league answered {status}: {text}", err=True,
               nl=False)
    return 1


@league.command("report")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--out", type=click.Path(file_okay=False), help="Where the pages go (default: FOLDER/report).")
def report_command(folder: str, out: str | None) -> None:
    """Write the leaderboard, every bot's page and every rated game's replay as static HTML
    (index.html first), to read offline or to put on any web server."""
    from tournament.league.pages import write_report

    opened = _open(folder)
    target = Path(out) if out else Path(folder) / "report"
    try:
        written = write_report(opened, target)
    finally:
        opened.close()
    click.echo(f"{written} pages in {target} (open {target / 'index.html'})")


@league.command("pause")
@click.argument("folder", type=click.Path(file_okay=False))
def pause_command(folder: str) -> None:
    """Pause the league: the table playing finishes, no new one starts (also on the organiser's page)."""
    from tournament.league.organiser import set_paused

    _organise(folder, lambda opened: set_paused(opened, True), "paused")


@league.command("resume")
@click.argument("folder", type=click.Path(file_okay=False))
def resume_command(folder: str) -> None:
    """Resume a paused league."""
    from tournament.league.organiser import set_paused

    _organise(folder, lambda opened: set_paused(opened, False), "resumed")


@league.command("ban")
@click.argument("folder", type=click.Path(file_okay=False))
@click.argument("bot")
@click.option("--lift", is_flag=True, help="Lift the ban instead.")
def ban_command(folder: str, bot: str, lift: bool) -> None:
    """Ban BOT: it plays no new table and cannot be submitted again; its games and ratings stay."""
    from tournament.league.organiser import set_banned

    _organise(folder, lambda opened: set_banned(opened, bot, not lift), f"{bot}'s ban lifted" if lift else
              f"{bot} banned")


@league.command("withdraw")
@click.argument("folder", type=click.Path(file_okay=False))
@click.argument("bot")
@click.option("--token", envvar="TRICKCORE_LEAGUE_TOKEN", help="Your author token (or TRICKCORE_LEAGUE_TOKEN).")
def withdraw_command(folder: str, bot: str, token: str | None) -> None:
    """Take your BOT off the ladder (submitting it again brings it back as a new version)."""
    from tournament.league.organiser import withdraw

    _organise(folder, lambda opened: withdraw(opened, token, bot), f"{bot} withdrawn")


@league.command("export")
@click.argument("folder", type=click.Path(file_okay=False))
@click.argument("out", type=click.Path(file_okay=False))
def export_command(folder: str, out: str) -> None:
    """Export the whole league to the new folder OUT: every rated table's records (tables/<id>/),
    ratings.json (every version's rating and its history) and league.toml."""
    from tournament.league.organiser import export

    _organise(folder, lambda opened: export(opened, Path(out)), f"exported to {out}")


def _organise(folder: str, action: Callable[[League], object], done: str) -> None:
    opened = _open(folder)
    try:
        action(opened)
    except LeagueError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    finally:
        opened.close()
    click.echo(done)


def _interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    raise KeyboardInterrupt


@league.command("serve")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--tables", "max_tables", type=click.IntRange(min=1),
              help="Stop once this many tables have been rated (default: play until stopped).")
@click.option("--host", help="Address the page listens on (default: [server] host, the loopback address).")
@click.option("--port", type=click.IntRange(0, 65535), help="Port of the page (default: [server] port; 0: a free one).")
@click.option("--no-web", is_flag=True, help="Play tables only, without the page.")
@click.option("--ray", "ray_address", metavar="ADDRESS",
              help='Play the tables on a Ray cluster, as tournaments do ("auto", HOST:PORT, or "" for a Ray '
                   'of this machine; docs/tournament.md, "Running on a cluster").')
@click.option("-q", "--quiet", is_flag=True, help="No line per table.")
def serve_command(folder: str, max_tables: int | None, host: str | None, port: int | None, no_web: bool,
                  ray_address: str | None, quiet: bool) -> None:
    """Serve the league's page and play tables continuously: each seats the bots that most need
    games (new bots first, then the widest intervals, opponents near in rating) and plays
    duplicate deals; it is rated when complete.  Ctrl-C or SIGTERM stops it; every finished game
    is kept, and the next start plays the interrupted table's remaining games."""
    from tournament.league.scheduler import Scheduler
    from tournament.league.standings import leaderboard
    from tournament.league.web import LeagueSite, ServerThread

    opened = _open(folder)
    if ray_address is not None:
        opened.executor = {"kind": "ray", "address": ray_address}

    def rated(table_id: int) -> None:
        if not quiet:
            top = leaderboard(opened)[:3]
            click.echo(f"table {table_id} rated; leading: "
                       + ", ".join(f"{r.bot} v{r.version} {r.mu:.1f} ± {r.interval:.1f}" for r in top))

    scheduler = Scheduler(opened, max_tables, rated)
    server = None
    if not no_web:
        host = host or opened.config.host
        site = LeagueSite(opened, host=host)
        server = ServerThread(site, host, opened.config.port if port is None else port)
        try:
            url = server.start()
        except OSError as exc:
            click.echo(f"error: the page cannot listen on {host}: {exc}", err=True)
            sys.exit(2)
        click.echo(f"league page: {url}index.html", err=True)
        click.echo(f"organiser's page (keep this address to yourself): {url}organiser?key={site.organiser_key}",
                   err=True)
        if not _is_loopback(host):
            click.echo(f"warning: listening on {host}, beyond this machine; put a reverse proxy with TLS in "
                       f"front of it (docs/league.md)", err=True)
    signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM stops like Ctrl-C: bots killed, finished games kept
    from tournament.results import ResumeError

    try:
        scheduler.run()
    except KeyboardInterrupt:
        scheduler.interrupted = True
    except ResumeError as exc:  # a table's folder no longer matches its bots (the league's folder moved?)
        click.echo(f"error: table {scheduler.current}: {exc}", err=True)
        sys.exit(1)
    finally:
        if server is not None:
            server.stop()
        opened.close()
    if scheduler.interrupted:
        click.echo("interrupted; every finished game is kept, the next start goes on", err=True)
        sys.exit(130)
    for error in scheduler.errors:
        click.echo(f"runner error: {error}", err=True)
    sys.exit(1 if scheduler.errors else 0)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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


@league.command("margin")
@click.argument("folder", type=click.Path(file_okay=False))
@click.argument("first")
@click.argument("second")
def margin_command(folder: str, first: str, second: str) -> None:
    """FIRST's score margin over SECOND per duplicate deal, with its 95% interval, over the rated
    tables where both played (any of their versions)."""
    from tournament.league.standings import duplicate_margin

    opened = _open(folder)
    try:
        result = duplicate_margin(opened, first, second)
    except ValueError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    finally:
        opened.close()
    interval = f" ± {result.ci95:.2f} (95%)" if result.ci95 is not None else " (one deal: no interval)"
    verdict = ("" if result.ci95 is None else f"; {first if result.mean > 0 else second} is better"
               if result.excludes_zero else "; the interval holds 0: no difference shown")
    deals = f"{result.groups} deal{'s' if result.groups != 1 else ''}"
    click.echo(f"{first} - {second}: {result.mean:+.2f}{interval} points per deal over {deals}{verdict}")
