"""``trickcore play``: a person against bots in the browser (tournament/play.py serves the page)."""

from __future__ import annotations

import dataclasses
import shlex
import sys
from pathlib import Path

import click

from tournament.config import ConfigError, parse_value


@click.command("play")
@click.argument("game")
@click.argument("commands", nargs=-1, metavar="[BOT_CMD...]")
@click.option("-p", "--players", type=int, help="Seats (default: the game's smallest player count).")
@click.option("--seat", type=click.IntRange(min=0), help="Your seat (default: 0, or the first `person`).")
@click.option("--people", type=click.IntRange(min=1),
              help="People at the table (default 1), each with a page and key of their own (seats spread from "
                   "--seat); or name their seats `person` among the bot commands.")
@click.option("--hints", is_flag=True, help="A hint button: what the bundled search bot would play, and why.")
@click.option("--option", "game_options", multiple=True, metavar="KEY=VALUE", help="A game option.")
@click.option("--seed", type=click.IntRange(min=0), help="Master seed of the deals (default: drawn).")
@click.option("--pace", type=click.FloatRange(min=0), default=0.8, show_default=True,
              help="Seconds each bot move stays on screen before the next (twice that for a trick's last card).")
@click.option("--decision-ms", type=float, default=10000, show_default=True, help="Each bot's time per decision.")
@click.option("--out", type=click.Path(file_okay=False), default="trickcore-play", show_default=True,
              help="Folder of the finished games' records.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address the page listens on: another than the loopback one (0.0.0.0: every address) lets "
                   "people on other machines open their links; the keys then travel in clear text.")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=0, help="Port (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the page's address only; do not open a browser.")
@click.option("--sandbox", "sandbox_kind", type=click.Choice(["bwrap", "none"]),
              help='Run each bot in a bubblewrap sandbox (bwrap, the default on Linux) or, on purpose, in none.')
def play_command(game: str, commands: tuple[str, ...], players: int | None, seat: int | None, people: int | None,
                 hints: bool, game_options: tuple[str, ...],
                 seed: int | None, pace: float, decision_ms: float, out: str, host: str, port: int, no_browser: bool,
                 sandbox_kind: str | None) -> None:
    """Play GAME yourself, in the browser, against bots: a page on this machine shows your seat
    (only what it may see) and your options.  The other seats are the given bot commands, in
    turn, run as in a tournament; by default the bundled heuristic bot (docs/play.md).  A
    command that is the word `person` is a person's seat: then give one command per seat."""
    import asyncio
    import webbrowser

    from tournament.play import PlaySession, is_loopback_host, is_wildcard, play_config, serve, table_seats
    from tournament.sandbox import unsandboxed_notice
    from trickcore.game import GameConfigError
    from trickcore.games import get_game

    try:
        count = players if players is not None else min(get_game(game).players)
        persons, bot_commands = table_seats(count, commands, seat, people)
        seat = persons[0]
        config = play_config(game, players, seat, [shlex.split(c) for c in bot_commands],
                             {k: parse_value(v) for k, _, v in (o.partition("=") for o in game_options)},
                             decision_ms, sandbox_kind, people=persons[1:])
    except (ConfigError, GameConfigError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    # As `tournament` does: a bot without a sandbox runs as the person, and could read this
    # process's memory (the page's session key with it) and take the person's seat.
    notice = unsandboxed_notice(config)
    if notice:
        click.echo(f"warning: {notice}", err=True)
    # As `tournament` does: start each bot once before the page opens, so that one which cannot
    # start or fails its handshake stops here with its stderr, not as a seat played at random.
    from tournament.checks import preflight

    distinct = {(b.command, b.cwd, b.env, b.options, b.sandbox): b for b in config.bots}
    try:
        preflight(dataclasses.replace(config, bots=tuple(distinct.values())), strict=True)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if not is_loopback_host(host):
        # Plain HTTP: whoever can watch the network between the people and this machine sees the
        # keys in the links and can take their seats.  TLS is a reverse proxy's job (docs/play.md).
        where = "every address of this machine" if is_wildcard(host) else host
        click.echo(f"warning: the page listens on {where}: anyone who can reach it and holds a link's key plays "
                   f"that seat, and the keys travel in clear text (HTTP); on a network you do not trust, put a "
                   f"reverse proxy with TLS in front of it (docs/play.md, \"Friends on other machines\")", err=True)
    session = PlaySession(config, seat, Path(out), pace=pace, seed=seed,
                          notify=lambda line: click.echo(line, err=True), people=persons[1:], hints=hints)
    links = iter(persons)

    def ready(url: str) -> None:
        # Each person's page: the first is opened here, the others' links are for them to open.
        place = next(links)
        if place == seat:
            click.echo(f"trickcore play: {config.game_info.title}, {config.players} players, you are seat {seat}")
            click.echo(f"open {url}  (Ctrl-C ends the game)")
            if not no_browser:
                webbrowser.open(url)
        else:
            click.echo(f"seat {place}'s person: open {url}")

    try:
        asyncio.run(serve(session, host=host, port=port, ready=ready))
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
    except OSError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if session.ended:
        click.echo(f"the game has ended: {session.ended}", err=True)
    for path in session.records:
        click.echo(f"game record: {path}")
    if session.error is not None:
        click.echo(f"error: {type(session.error).__name__}: {session.error}", err=True)
        sys.exit(1)
