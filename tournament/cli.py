"""Click commands of the tournament runner.  They join the ``trickcore`` command through the
``trickcore.commands`` entry-point group (``COMMANDS``, named in pyproject.toml):

* ``trickcore tournament CONFIG.toml [--resume] [--out DIR] ...``
* ``trickcore match GAME BOT_CMD... [--players N] ...`` -- an ad-hoc match without a TOML file
* ``trickcore compliance [--game G] -- BOT_CMD...``   -- check a bot against the protocol
* ``trickcore replay RESULTS.jsonl [--job ID] [--seat N] [--html OUT]`` -- show a recorded game (or write its page)
* ``trickcore play GAME [BOT_CMD...]`` -- you against bots, in the browser
* ``trickcore report RUN_DIR`` -- the HTML report of a run (also written after ``tournament`` unless --no-report)
* ``trickcore margin RUN_DIR BOT...`` -- BOT's score margin over the others per deal, 95% interval
  (a paired run: the margin A - B over its pairs)

The commands of this module run tournaments and matches; ``replay`` (tournament/cli_replay.py),
``play`` (tournament/cli_play.py), ``bench-runner`` and ``demo-standings`` (tournament/cli_bench.py)
have modules of their own, and ``report`` is tournament/report.py's.

Exit codes: 0 success, 1 runner errors or bot non-compliance, 2 bad config or usage,
130 interrupted (every finished game is recorded; ``--resume`` continues).
"""

from __future__ import annotations

import json
import shlex
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn, TextIO

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tournament.cli_bench import bench_runner_command, demo_standings_command
from tournament.cli_play import play_command
from tournament.cli_replay import replay_command
from tournament.config import ConfigError, TournamentConfig, load_config, parse_config, parse_value, program_name
from tournament.paired import describe_paired
from tournament.report import capture_environment, finish_run, report_command
from tournament.results import ResumeError
from tournament.runner import RunSummary, format_standings, format_throughput, run_tournament
from tournament.schedule import weak_seed_warning


def _seed_value(ctx: click.Context, param: click.Parameter, text: str | None) -> int | str | None:
    """``--seed``: decimal digits are an integer, anything else a string for tournament.seed to
    check (hex digits, or "drawn")."""
    if text is None:
        return None
    return int(text) if text.isdigit() else text


def _warn_seed(config: TournamentConfig) -> None:
    """A master seed small enough for a bot to search: say so before anything is played."""
    warning = weak_seed_warning(config.seed)
    if warning:
        click.echo(f"warning: {warning}", err=True)


class _Progress:
    """Live progress on stderr while a tournament runs (not with --quiet).

    On a terminal, a rich progress bar redrawn in place: games done, elapsed time, time
    remaining and decisions per second.  Elsewhere (logs, CI) a plain line every 10% of the
    games with the same figures, so logs stay short and free of control codes."""

    WIDTH = 24

    def __init__(self, quiet: bool, stream: TextIO | None = None, tty: bool | None = None) -> None:
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)()) if tty is None else tty
        self.start = time.monotonic()
        self.base: int | None = None  # games already recorded when this run started (--resume)
        self.decisions = 0
        self.nodes: set[str] = set()  # nodes of remote tables that recorded a game (Ray executor)
        self.next_report = 0.1
        self.bar: Progress | None = None
        self.task: TaskID | None = None
        self.note = ""  # the runner's note on where the run's question stands (a paired margin, a sequential test)
        self.unshown: tuple[int, int] | None = None  # off a terminal: the last games done and total, when not printed

    def line(self, done: int, total: int) -> str:
        """The plain progress line (logs)."""
        elapsed = time.monotonic() - self.start
        played = done - (self.base or 0)
        left = total - done
        eta = "--:--" if played <= 0 else _clock(elapsed / played * left)
        share = done / total if total else 1.0
        filled = int(share * self.WIDTH)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        return (f"[{bar}] {done}/{total} games {100 * share:3.0f}%  {_clock(elapsed)} elapsed, "
                f"ETA {eta}, {self.rate():,.0f} decisions/s{self.where()}" + (f"\n  {self.note}" if self.note else ""))

    def where(self) -> str:
        """`` on N nodes`` once games come back from remote tables; empty for local tables."""
        return f" on {len(self.nodes)} node{'s' if len(self.nodes) != 1 else ''}" if self.nodes else ""

    def rate(self) -> float:
        elapsed = time.monotonic() - self.start
        return self.decisions / elapsed if elapsed > 0 else 0.0

    def __call__(self, done: int, total: int, record: dict[str, Any], note: str = "") -> None:
        if self.quiet:
            return
        # a line (off a terminal) also when the sequential test decides
        changed = "accepted" in note and "accepted" not in self.note
        self.note = note
        if self.base is None:
            self.base = done - 1
        self.decisions += sum(1 for a in record.get("actions", ()) if a.get("by") == "bot")
        if record.get("node", "local") != "local":
            self.nodes.add(record["node"])
        if self.tty:
            self._draw(done, total)
        elif total and (done / total >= self.next_report or done == total or changed):
            self.stream.write(self.line(done, total) + "\n")
            self.stream.flush()
            self.unshown = None
            while self.next_report <= done / total:
                self.next_report += 0.1
        else:
            self.unshown = (done, total)

    def _draw(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = Progress(BarColumn(bar_width=self.WIDTH), MofNCompleteColumn(), TextColumn("games"),
                                TaskProgressColumn(), TimeElapsedColumn(), TextColumn("ETA"),
                                TimeRemainingColumn(),
                                TextColumn("{task.fields[rate]} decisions/s{task.fields[where]}"),
                                TextColumn("{task.fields[note]}"),
                                console=Console(file=self.stream, force_terminal=True, stderr=True),
                                auto_refresh=False)
            self.bar.start()
            # A resumed run starts at the games already recorded; the ETA counts only this run's.
            self.task = self.bar.add_task("games", total=total, completed=self.base or 0, rate="0", where="", note="")
        assert self.task is not None
        self.bar.update(self.task, completed=done, rate=f"{self.rate():,.0f}", where=self.where(), note=self.note)
        self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
        if self.unshown is not None:
            # A run that stopped before its last game (a sequential test decided, an interrupt):
            # the log ends on where it stood, the figures the summary then prints.
            self.stream.write(self.line(*self.unshown) + "\n")
            self.stream.flush()
            self.unshown = None


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    raise KeyboardInterrupt


def _install_sigterm() -> None:
    # SIGTERM ends the run like Ctrl-C: bots killed, finished games kept.
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)


def _report(summary: RunSummary, quiet: bool) -> int:
    if summary.standings and not quiet:
        # a terminal's width (COLUMNS, or the terminal's own); a log gets every column
        click.echo(format_standings(summary.standings, width=shutil.get_terminal_size((0, 0)).columns or None))
    if summary.paired is not None:
        click.echo(f"paired: {describe_paired(summary.paired)}", err=quiet)
    if summary.sprt is not None:
        click.echo(summary.sprt + ("; the rest of the schedule was not played" if summary.stopped_early else ""),
                   err=quiet)
    click.echo(f"{summary.played} games played, {summary.resumed} already recorded, {summary.skipped} skipped "
               f"(of {summary.total}); results in {summary.out_dir}", err=quiet)
    if summary.executor != "local" and summary.nodes:
        # Tables on a cluster: what each node played, and how fast (decisions over this run's time).
        if not quiet:
            click.echo(format_throughput(summary.nodes))
        if summary.replayed:
            click.echo(f"{summary.replayed} games of tables that died were played again by other tables", err=quiet)
    for w in summary.warnings:
        click.echo(f"warning: {w}", err=True)
    for bot, why in summary.disqualified.items():
        click.echo(f"disqualified: {bot}: {why}", err=True)
    for e in summary.errors:
        click.echo(f"error: {e}", err=True)
    if summary.interrupted:
        click.echo("interrupted: finished games are recorded; run again with --resume to continue", err=True)
        return 130
    return 1 if summary.errors else 0


def _run(config: TournamentConfig, out: str | Path | None, resume: bool, quiet: bool, check_bots: bool,
         html_report: bool = True) -> int:
    _warn_seed(config)
    progress = _Progress(quiet)
    _install_sigterm()
    environment = capture_environment()
    try:
        summary = run_tournament(config, out, resume=resume, progress=progress, check_bots=check_bots)
    except (ConfigError, ResumeError) as exc:
        progress.close()
        click.echo(f"error: {exc}", err=True)
        return 2
    progress.close()
    code = _report(summary, quiet)
    for line in finish_run(summary, environment, html_report and config.records.report):  # environment, report
        click.echo(line, err=quiet or line.startswith("warning"))
    return code


@click.command("tournament")
@click.argument("config_path", metavar="CONFIG.toml", type=click.Path(dir_okay=False))
@click.option("--resume", is_flag=True, help="Continue the run in the output folder, skipping recorded games.")
@click.option("--fresh", is_flag=True,
              help="Start afresh: an earlier run in the output folder is moved aside (to FOLDER.TIMESTAMP), not "
                   "deleted.")
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (overrides tournament.output).")
@click.option("-j", "--concurrency", type=click.IntRange(min=1), help="Tables played in parallel.")
@click.option("--deals", type=click.IntRange(min=1), help="Number of deals (overrides tournament.deals).")
@click.option("--seed", metavar="N|HEX|drawn", callback=_seed_value,
              help="Master seed (overrides tournament.seed): an integer, hex digits, or drawn (a secret drawn "
                   "for the run).")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Override any key, e.g. --set time.decision_ms=500 (TOML value syntax).")
@click.option("--check", is_flag=True,
              help="Only check: validate the config, start each bot once for its handshake (not with "
                   "--no-preflight), and print the effective config.")
@click.option("--no-preflight", is_flag=True, help="Do not start each bot once before the tournament.")
@click.option("-q", "--quiet", is_flag=True, help="No progress and no table; only the summary on stderr.")
@click.option("--no-report", is_flag=True, help="Do not write the HTML report (report.html) at the end.")
@click.option("--executor", type=click.Choice(["local", "ray"]),
              help="Where tables run (overrides executor.kind): this machine, or a Ray cluster.")
@click.option("--sandbox", "sandbox_kind", type=click.Choice(["bwrap", "none"]),
              help='Run each bot in a bubblewrap sandbox (bwrap, the default on Linux) or, on purpose, in none '
                   '(overrides sandbox.kind; docs/tournament.md, "Fair play").')
@click.option("--address", metavar="ADDRESS",
              help='Ray cluster to join (overrides executor.address; implies --executor ray): "auto", host:port, '
                   'or "" to start Ray on this machine.')
def tournament_command(config_path: str, resume: bool, fresh: bool, out: str | None, concurrency: int | None,
                       deals: int | None, seed: int | str | None, settings: tuple[str, ...], check: bool,
                       no_preflight: bool, quiet: bool, no_report: bool, executor: str | None,
                       sandbox_kind: str | None, address: str | None) -> None:
    """Run the tournament described by CONFIG.toml (see docs/tournament.md)."""
    if resume and fresh:
        raise click.UsageError("--resume continues the run in the output folder, --fresh starts another: "
                               "choose one")
    overrides: dict[str, Any] = {}
    value: int | str | None  # a --set value here, an option's value below
    for item in settings:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--set")
        overrides[key.strip()] = parse_value(value.strip())
    if address is not None and executor is None:
        executor = "ray"
    for key, value in (("tournament.concurrency", concurrency), ("tournament.deals", deals),
                       ("tournament.seed", seed), ("tournament.output", out), ("executor.kind", executor),
                       ("executor.address", address), ("sandbox.kind", sandbox_kind)):
        if value is not None:
            overrides[key] = value
    try:
        config = load_config(config_path, overrides)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if check:
        import tomli_w

        _warn_seed(config)
        if not no_preflight:
            # Start every bot once, as the run would (bounded by time.startup_ms per bot, all at
            # once): a missing program or script, an option it does not declare or a value its
            # declaration refuses is reported now, every one of them, not at the first game.
            from tournament.checks import preflight

            try:
                preflight(config, strict=True)
            except ConfigError as exc:
                click.echo(f"error: {exc}", err=True)
                sys.exit(2)
        click.echo(tomli_w.dumps(config.effective()), nl=False)
        return
    if fresh:
        moved = move_aside(Path(config.output))
        if moved is not None:
            click.echo(f"the earlier run in {config.output} is now in {moved}", err=True)
    sys.exit(_run(config, None, resume, quiet, not no_preflight, not no_report))


def move_aside(folder: Path) -> Path | None:
    """Rename a non-empty ``folder`` to ``folder.YYYYmmdd-HHMMSS`` (a number added if that is taken)
    and return the new name; None when there was nothing to move."""
    if not folder.exists() or (folder.is_dir() and not any(folder.iterdir())):
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = folder.with_name(f"{folder.name}.{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = folder.with_name(f"{folder.name}.{stamp}-{n}")
    folder.rename(target)
    return target


@click.command("match")
@click.argument("game")
@click.argument("commands", nargs=-1, required=True, metavar="BOT_CMD...")
@click.option("-p", "--players", type=int, help="Seats (default: the number of bots, or the game's minimum).")
@click.option("--deals", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["duplicate", "round-robin", "paired"]), default="duplicate",
              show_default=True,
              help="paired: two commands, A and B, each played on every deal in the same seats against the same "
                   "bundled heuristic bots; prints the margin A - B.")
@click.option("--seed", metavar="N|HEX|drawn", callback=_seed_value,
              help="Master seed of the deals: an integer, hex digits, or drawn (the default: a secret drawn for "
                   "the match and kept in its output folder).")
@click.option("--sprt", metavar="M0,M1[,ALPHA,BETA[,MIN_DEALS]]",
              help="With --format paired: stop as soon as a sequential test decides between H0 (A - B <= M0) and "
                   "H1 (A - B >= M1), in score points per deal, with error rates ALPHA and BETA (0.05 each) and no "
                   "decision before MIN_DEALS deals (50); --deals is then the most to play "
                   "(docs/tournament.md, \"Testing a change to a bot\").")
@click.option("--decision-ms", type=float, default=10000, show_default=True)
@click.option("--option", "game_options", multiple=True, metavar="KEY=VALUE", help="A game option.")
@click.option("-o", "--bot-option", "bot_options", multiple=True, metavar="WHO.NAME=VALUE",
              help="A bot option, sent to the bot as setoption NAME VALUE: WHO is the command's position (1 for "
                   "the first BOT_CMD), a or b for a paired match's candidates, or each for every command; "
                   "e.g. -o 1.depth=4 -o each.seed=7.")
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: a new temporary one).")
@click.option("-j", "--concurrency", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--sandbox", "sandbox_kind", type=click.Choice(["bwrap", "none"]),
              help='Run each bot in a bubblewrap sandbox (bwrap, the default on Linux) or, on purpose, in none '
                   '(overrides sandbox.kind; docs/tournament.md, "Fair play").')
def match_command(game: str, commands: tuple[str, ...], players: int | None, deals: int, fmt: str,
                  seed: int | str | None, sprt: str | None, decision_ms: float, game_options: tuple[str, ...],
                  bot_options: tuple[str, ...], out: str | None, concurrency: int, sandbox_kind: str | None) -> None:
    """Quick match of GAME between bots given as shell-quoted commands, e.g.
    trickcore match beim-jupiter "python my_bot.py" "{python} {bots}/random_bot.py".
    With fewer commands than seats the commands are reused in turn.  With --format paired the
    two commands are candidates A and B (holding a whole partnership in a partnership game), and
    the bundled heuristic bot holds the other seats."""
    from trickcore.game import GameConfigError
    from trickcore.games import get_game

    try:
        info = get_game(game)
    except GameConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if players is None:
        fitting = [n for n in sorted(info.players) if n >= len(commands)]
        players = fitting[0] if fitting else max(info.players)
    seats = max(players, len(commands)) if fmt == "round-robin" else players
    if fmt == "duplicate" and len(commands) > players:
        click.echo(f"error: {len(commands)} bots do not fit {players} seats in a duplicate match; "
                   f"use --format round-robin", err=True)
        sys.exit(2)
    if fmt == "paired" and len(commands) != 2:
        click.echo(f"error: a paired match compares two bots, A and B: give exactly two commands (got "
                   f"{len(commands)}); the bundled heuristic bot holds the other seats", err=True)
        sys.exit(2)
    options = _bot_options(bot_options, len(commands), fmt == "paired")
    bots: list[dict[str, Any]] = []
    candidates: list[Any] = []
    if fmt == "paired":
        # A candidate holds a whole partnership where the game has them: one process per seat.
        teams = info.teams(players) if info.teams is not None else None
        held = len(teams[0]) if teams else 1
        for label, command in zip("ab", commands):
            argv = shlex.split(command)
            names = [f"{label}-{program_name(argv)}" + (f"-{k}" if held > 1 else "") for k in range(1, held + 1)]
            bots.extend({"name": name, "command": argv, "options": options[label == "b"]} for name in names)
            candidates.append(names[0] if held == 1 else names)
    else:
        for i in range(seats):
            argv = shlex.split(commands[i % len(commands)])
            bots.append({"name": f"p{i + 1}-{program_name(argv)}", "command": argv,
                         "options": options[i % len(commands)]})
    doc: dict[str, Any] = {"game": {"name": game, "players": players,
                    "options": {k: parse_value(v) for k, _, v in (o.partition("=") for o in game_options)}},
           "tournament": {"name": "match", "format": fmt, "deals": deals, "concurrency": concurrency,
                          "output": out or tempfile.mkdtemp(prefix="trickcore-match-")},
           "time": {"decision_ms": decision_ms}, "bots": bots}
    if seed is not None:  # without one the run draws a secret seed, as a tournament does
        doc["tournament"]["seed"] = seed
    if candidates:
        doc["tournament"]["candidates"] = candidates
    if sandbox_kind is not None:
        doc["sandbox"] = {"kind": sandbox_kind}
    if sprt is not None:
        doc["stop"] = {"sprt": _sprt_option(sprt)}
    try:
        config = parse_config(doc, "match")
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    sys.exit(_run(config, None, False, False, True))


def _sprt_option(text: str) -> dict[str, float | int]:
    """``--sprt M0,M1[,ALPHA,BETA[,MIN_DEALS]]`` as the ``[stop] sprt`` table (checked there)."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) not in (2, 4, 5):
        raise click.BadParameter(f"give M0,M1 or M0,M1,ALPHA,BETA or M0,M1,ALPHA,BETA,MIN_DEALS, got {text!r}",
                                 param_hint="--sprt")
    try:
        table: dict[str, float | int] = {key: float(p) for key, p in zip(("m0", "m1", "alpha", "beta"), parts)}
        if len(parts) == 5:
            table["min_samples"] = int(parts[4])
    except ValueError:
        raise click.BadParameter(f"numbers (MIN_DEALS a whole number), e.g. 0,2 or 0,2,0.05,0.05,100; got {text!r}",
                                 param_hint="--sprt") from None
    return table


def _bot_options(given: tuple[str, ...], commands: int, paired: bool) -> list[dict[str, Any]]:
    """``-o WHO.NAME=VALUE`` as each command's ``options`` table (the values in TOML syntax, as
    ``--set`` takes them; the bot's declarations check them at the preflight)."""
    options: list[dict[str, Any]] = [{} for _ in range(commands)]
    for item in given:
        who, dot, rest = item.partition(".")
        name, eq, value = rest.partition("=")
        if not dot or not eq or not name.strip():
            raise click.BadParameter(f"{item!r} is not WHO.NAME=VALUE, e.g. 1.depth=4", param_hint="--bot-option")
        who = who.strip().lower()
        if who == "each":
            targets = range(commands)
        elif paired and who in ("a", "b"):
            targets = range("ab".index(who), "ab".index(who) + 1)
        elif who.isdigit() and 1 <= int(who) <= commands:
            targets = range(int(who) - 1, int(who))
        else:
            choices = f"1 to {commands}" + (", a, b" if paired else "") + " or each"
            raise click.BadParameter(f"{item!r}: no command {who!r}; WHO is {choices}", param_hint="--bot-option")
        for target in targets:
            options[target][name.strip()] = parse_value(value.strip())
    return options


@click.command("compliance")
@click.argument("command", nargs=-1, required=True, metavar="-- BOT_CMD...")
@click.option("--game", help="Game to play (default: 'reference' if registered, else the first game).")
@click.option("-p", "--players", type=int, help="Seats (default: the game's smallest player count).")
@click.option("--games", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--startup-ms", type=float, default=10000, show_default=True)
@click.option("--decision-ms", type=float, default=5000, show_default=True)
@click.option("--set-option", "bot_options", multiple=True, metavar="NAME=VALUE", help="Set a bot option.")
@click.option("--out", type=click.Path(file_okay=False),
              help="Keep the games' records and transcripts in this folder (default: a temporary one, removed).")
@click.option("--sandbox", "sandbox_kind", type=click.Choice(["bwrap", "none"]),
              help='Run each bot in a bubblewrap sandbox (bwrap, the default on Linux) or, on purpose, in none '
                   '(overrides sandbox.kind; docs/tournament.md, "Fair play").')
def compliance_command(command: tuple[str, ...], game: str | None, players: int | None, games: int, startup_ms: float,
                       decision_ms: float, bot_options: tuple[str, ...], out: str | None,
                       sandbox_kind: str | None) -> None:
    """Check that the bot started by BOT_CMD speaks the protocol (docs/protocol.md): handshake,
    options, readiness, unknown commands ignored, legal and timely answers, quit."""
    from tournament.compliance import default_game, run_compliance

    options = {k: parse_value(v) for k, _, v in (o.partition("=") for o in bot_options)}
    if game is None:
        try:
            game = default_game()
        except ConfigError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        click.echo(f"game: {game} (the default; --game to choose another)")
    _install_sigterm()  # SIGTERM unwinds like Ctrl-C: the bot killed, the temporary folder removed
    try:
        report = run_compliance(list(command), game=game, players=players, games=games, startup_ms=startup_ms,
                                decision_ms=decision_ms, options=options, out_dir=out, sandbox=sandbox_kind)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    for check in report.checks:
        click.echo(f"{'PASS' if check.ok else 'FAIL'}  {check.name}: {check.detail}")
    click.echo("compliant" if report.ok else "NOT compliant")
    sys.exit(0 if report.ok else 1)


@click.command("margin")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.argument("bots", nargs=-1, metavar="BOT...")
def margin_command(run_dir: str, bots: tuple[str, ...]) -> None:
    """How far BOT scored above the other bots at its table, per deal, with a 95% interval
    (from RUN_DIR/deals.json of a duplicate or gauntlet run).  Several BOTs (partners) are
    taken together: their mean against the mean of the rest.  In a paired run (pairs.json),
    no BOT, or the candidates' names (A, B, or both), give the paired margin A - B (or B - A
    when B is named first) over the complete pairs."""
    from tournament.paired import paired_margin
    from tournament.ratings import margin

    folder = Path(run_dir)
    pairs_path = folder / "pairs.json"
    if pairs_path.exists():
        pairs = json.loads(pairs_path.read_text(encoding="utf-8"))
        a, b = pairs["candidates"]["a"], pairs["candidates"]["b"]
        given = list(bots)
        if given in ([], a, a + b, b, b + a):
            first, second = (b, a) if given in (b, b + a) else (a, b)
            rows = pairs["pairs"] if first == a else [{**row, "margin": -row["margin"]} for row in pairs["pairs"]]
            try:
                click.echo(describe_paired(paired_margin(rows, " + ".join(first), " + ".join(second))))
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="RUN_DIR") from None
            return
    if not bots:
        raise click.BadParameter("name the bot (or the partners) whose margin to show; only a paired run (with "
                                 "pairs.json) has a margin without one", param_hint="BOT")
    path = folder / "deals.json"
    if not path.exists():
        raise click.BadParameter(f"{path} does not exist (is {run_dir} a tournament's output directory?)",
                                 param_hint="RUN_DIR")
    try:
        result = margin(json.loads(path.read_text(encoding="utf-8"))["deals"], bots)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="BOT") from None
    interval = f" ± {result.ci95:.2f} (95%)" if result.ci95 is not None else " (one deal: no interval)"
    verdict = ("the interval excludes zero" if result.excludes_zero
               else "the interval includes zero" if result.ci95 is not None else "")
    click.echo(f"{result.bot}: {result.mean:+.2f}{interval} per game above the mean of the others, over "
               f"{result.groups} deals{'; ' + verdict if verdict else ''}")


#: What the ``trickcore.commands`` entry point adds to the ``trickcore`` command.
COMMANDS = (tournament_command, match_command, compliance_command, replay_command, bench_runner_command,
            demo_standings_command, margin_command, report_command, play_command)


def main() -> None:
    """``python -m tournament.cli``: the commands without the trickcore group."""
    group = click.Group("tournament", help="trickcore tournament runner.")
    for cmd in COMMANDS:
        group.add_command(cmd)
    group()


__all__ = ["COMMANDS", "tournament_command", "match_command", "compliance_command", "replay_command",
           "bench_runner_command", "demo_standings_command"]

if __name__ == "__main__":
    main()
