"""Click commands of the tournament runner.  They join the ``trickcore`` command through the
``trickcore.commands`` entry-point group (``COMMANDS``, named in pyproject.toml):

* ``trickcore tournament CONFIG.toml [--resume] [--out DIR] ...``
* ``trickcore match GAME BOT_CMD... [--players N] ...`` -- an ad-hoc match without a TOML file
* ``trickcore compliance [--game G] -- BOT_CMD...``   -- check a bot against the protocol
* ``trickcore replay RESULTS.jsonl [--job ID] [--seat N] [--html OUT]`` -- show a recorded game (or write its page)
* ``trickcore report RUN_DIR`` -- the HTML report of a run (also written after ``tournament`` unless --no-report)
* ``trickcore margin RUN_DIR BOT...`` -- BOT's score margin over the others per deal, 95% interval
  (a paired run: the margin A - B over its pairs)

Exit codes: 0 success, 1 runner errors or bot non-compliance, 2 bad config or usage,
130 interrupted (every finished game is recorded; ``--resume`` continues).
"""

from __future__ import annotations

import dataclasses
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
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

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

from tournament.config import ConfigError, TournamentConfig, load_config, parse_config, program_name
from tournament.paired import describe_paired
from tournament.replay_walk import Step, walk
from tournament.report import capture_environment, finish_run, report_command
from tournament.results import MANIFEST_FILE, RESULTS_FILE, ResultsFile, ResumeError, checked_records
from tournament.runner import RunSummary, format_standings, format_throughput, run_tournament
from tournament.schedule import weak_seed_warning
from trickcore.checkout import bench_module

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as a package
    import tomli as tomllib

if TYPE_CHECKING:
    from trickcore.game import GameState


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


def _parse_value(text: str) -> Any:
    """A --set value in TOML syntax (``3``, ``true``, ``"x"``, ``[1, 2]``); bare words are strings."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


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
        overrides[key.strip()] = _parse_value(value.strip())
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
                    "options": {k: _parse_value(v) for k, _, v in (o.partition("=") for o in game_options)}},
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
            options[target][name.strip()] = _parse_value(value.strip())
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

    options = {k: _parse_value(v) for k, _, v in (o.partition("=") for o in bot_options)}
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


def _load_record(path: str, job: str | None) -> dict[str, Any]:
    """A game record from results.jsonl (``--job`` picks one; default the first) or a JSON file
    holding one record (a results line, or a bare ``GameState.to_record()``).  The results.jsonl
    of a run folder (run.json beside it) is read as every reader of a run reads it: each game
    once, with the job, seed and seating of the run's schedule, or not at all."""
    file = Path(path)
    if file.name == RESULTS_FILE and (file.parent / MANIFEST_FILE).exists():
        try:
            lines = [record for _, _, record in checked_records(file.parent)]
        except ResumeError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
    elif path.endswith(".jsonl"):
        lines = [record for _, _, record in ResultsFile(file)]
    else:
        lines = [json.loads(file.read_text(encoding="utf-8"))]
    if job is not None:
        lines = [r for r in lines if r.get("job") == job]
        if not lines:
            raise click.BadParameter(f"no game {job!r} in {path}", param_hint="--job")
    played = [r for r in lines if r.get("status", "played") == "played"]
    if not played:
        raise click.BadParameter(f"{path} holds no played game", param_hint="PATH")
    return played[0]


@click.command("replay")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--job", help="Which game of a results.jsonl (e.g. t0-d3-s5); default the first.")
@click.option("--seat", type=int, help="Show the game exactly as this seat saw it: its view and options before "
                                       "each of its decisions, its own actions, and the events it was sent "
                                       "(other seats' hidden choices stay hidden). Default: omniscient.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False), metavar="OUT.html",
              help="Write the replay viewer page (every seat's view and the organiser's; with --seat only that "
                   "seat's) instead of printing.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the views as JSON (every seat's at the start; with --seat the seat's before each of its "
                   "decisions) instead of the hands and the tricks.")
def replay_command(path: str, job: str | None, seat: int | None, html_out: str | None, as_json: bool) -> None:
    """Replay a recorded game from its record alone and print it action by action."""
    from trickcore.games import replay

    record = _load_record(path, job)
    game = record.get("record", record)
    state = replay({**game, "history": []})
    if seat is not None and not 0 <= seat < state.num_players:
        raise click.BadParameter(f"seat {seat} is not in 0..{state.num_players - 1}", param_hint="--seat")
    if html_out is not None:
        from tournament.replay_html import write_replay

        written = write_replay(record, html_out, seats=None if seat is None else [seat], omniscient=seat is None)
        click.echo(f"replay page: {written}")
        return
    bots = record.get("bots") or [f"seat{s}" for s in range(state.num_players)]
    actions = record.get("actions") or [{} for _ in game["history"]]
    # The seed names the deal, and with it every hand: only the organiser's replay shows it.
    seed = f", seed {game['seed']}" if seat is None else ""
    click.echo(f"{game['game']} with {game['players']} players{seed}, options {game['options']}")
    if seat is None:
        _replay_omniscient(state, game["history"], actions, bots, as_json)
        faults = record.get("faults", [])
    else:
        _replay_as_seat(state, seat, game["history"], actions, bots, as_json)
        faults = [f for f in record.get("faults", []) if f["seat"] == seat]  # a fault's detail may quote cards
    for f in faults:
        click.echo(f"fault: seat {f['seat']} ({f['bot']}) {f['class']} -> {f['outcome']}: {f['detail']}")
    click.echo(f"scores {state.scores()}, ranks {state.ranks()}"
               + (f", forfeited seats {record['forfeited']}" if record.get("forfeited") else ""))


def _action_line(step: Step, bots: list[str], meta: dict[str, Any]) -> str:
    mover = step.mover
    assert mover is not None  # a step after the deal has a mover
    how = meta.get("by", "")
    timing = f", {meta['ms']:.1f} ms" if "ms" in meta else ""
    rejected = f", rejected {meta['rejected']!r}" if "rejected" in meta else ""
    return (f"{step.number:4d}. seat {mover} ({bots[mover]}) {step.decision}: {step.action}"
            f"{f'  [{how}{timing}{rejected}]' if how else ''}")


def _hand_line(view: dict[str, Any]) -> str:
    return " ".join(map(str, view.get("hand") or [])) or "-"


def _trick_line(view: dict[str, Any], before: Any, bots: list[str]) -> str | None:
    """The trick a view's ``last_trick`` shows, if it is a new one: its cards and who won it."""
    trick = view.get("last_trick")
    if not trick or trick == before:
        return None
    won = f"seat {trick['winner']} ({bots[trick['winner']]})" if "winner" in trick else "?"
    if trick.get("winner2") is not None:  # Hattrick: the second-highest card wins a trick too
        won += f" and seat {trick['winner2']} ({bots[trick['winner2']]})"
    return f"      trick: {' '.join(map(str, trick.get('cards', [])))}  won by {won}"


def _step_meta(step: Step, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """How the step's action was made, as the game record says (nothing for a bare record)."""
    return actions[step.number - 1] if step.number <= len(actions) else {}


def _replay_omniscient(state: GameState, history: list[str], actions: list[dict[str, Any]], bots: list[str],
                       as_json: bool) -> None:
    """Every seat's hand (or with ``as_json`` its whole view) at the start and after each new
    deal, then every action with how it was made, and who won each trick."""
    def show_hands(label: str, views: dict[int, dict[str, Any]]) -> None:
        for s, view in views.items():
            shown = json.dumps(view, sort_keys=True) if as_json else _hand_line(view)
            click.echo(f"{label}seat {s} ({bots[s]}) {'sees' if as_json else 'holds'}: {shown}")

    steps = walk(state, history, range(state.num_players))
    first = next(steps)
    show_hands("", first.views)
    sizes = [len(view.get("hand") or []) for view in first.views.values()]
    last = first.views[0].get("last_trick")
    for step in steps:
        click.echo(_action_line(step, bots, _step_meta(step, actions)))
        line = _trick_line(step.views[0], last, bots)
        if line:
            click.echo(line)
        last = step.views[0].get("last_trick")
        now = [len(view.get("hand") or []) for view in step.views.values()]
        if any(n > b for n, b in zip(now, sizes)) and not state.is_terminal():
            click.echo("new deal:")
            show_hands("  ", step.views)
        sizes = now


def _replay_as_seat(state: GameState, seat: int, history: list[str], actions: list[dict[str, Any]], bots: list[str],
                    as_json: bool = False) -> None:
    """What ``seat`` was shown, in order: its own decisions with the view and options it had,
    and the events it may see (GameState.events_for, the same stream its bot was sent).
    Other seats' actions appear only through those events; a decision that produced none is
    shown as made, never what was chosen."""
    steps = walk(state, history, [seat])
    view = next(steps).views[seat]  # the events before the first decision are in this view
    click.echo(f"as seen by seat {seat} ({bots[seat]}): "
               + (json.dumps(view, sort_keys=True) if as_json else f"holds {_hand_line(view)}"))
    last = view.get("last_trick")
    for step in steps:
        events = step.events[seat]
        if step.mover == seat:  # the view it decided on is the one the step before left
            click.echo(f"  view: {json.dumps(view, sort_keys=True)}" if as_json else f"  hand: {_hand_line(view)}")
            click.echo(f"  legal: {' '.join(step.legal)}")
            click.echo(_action_line(step, bots, _step_meta(step, actions)))
        else:  # what was chosen shows only through the events this seat may see
            mover = step.mover
            assert mover is not None  # a step after the deal has a mover
            hidden = "" if events else f", not shown to seat {seat}"
            click.echo(f"{step.number:4d}. seat {mover} ({bots[mover]}) {step.decision}: made{hidden}")
        for event in events:
            click.echo(f"      event: {json.dumps(event, sort_keys=True)}")
        view = step.views[seat]
        if not as_json:  # the seat's own view of the trick just completed (it is public)
            line = _trick_line(view, last, bots)
            if line:
                click.echo(line)
            last = view.get("last_trick")


@click.command("play")
@click.argument("game")
@click.argument("commands", nargs=-1, metavar="[BOT_CMD...]")
@click.option("-p", "--players", type=int, help="Seats (default: the game's smallest player count).")
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True, help="Your seat.")
@click.option("--option", "game_options", multiple=True, metavar="KEY=VALUE", help="A game option.")
@click.option("--seed", type=click.IntRange(min=0), help="Master seed of the deals (default: drawn).")
@click.option("--pace", type=click.FloatRange(min=0), default=0.8, show_default=True,
              help="Seconds each bot move stays on screen before the next (twice that for a trick's last card).")
@click.option("--decision-ms", type=float, default=10000, show_default=True, help="Each bot's time per decision.")
@click.option("--out", type=click.Path(file_okay=False), default="trickcore-play", show_default=True,
              help="Folder of the finished games' records.")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=0, help="Port (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the page's address only; do not open a browser.")
@click.option("--sandbox", "sandbox_kind", type=click.Choice(["bwrap", "none"]),
              help='Run each bot in a bubblewrap sandbox (bwrap, the default on Linux) or, on purpose, in none.')
def play_command(game: str, commands: tuple[str, ...], players: int | None, seat: int, game_options: tuple[str, ...],
                 seed: int | None, pace: float, decision_ms: float, out: str, port: int, no_browser: bool,
                 sandbox_kind: str | None) -> None:
    """Play GAME yourself, in the browser, against bots: a page on this machine shows your seat
    (only what it may see) and your options.  The other seats are the given bot commands, in
    turn, run as in a tournament; by default the bundled heuristic bot (docs/play.md)."""
    import asyncio
    import webbrowser

    from tournament.play import PlaySession, play_config, serve
    from tournament.sandbox import unsandboxed_notice
    from trickcore.game import GameConfigError

    try:
        config = play_config(game, players, seat, [shlex.split(c) for c in commands],
                             {k: _parse_value(v) for k, _, v in (o.partition("=") for o in game_options)},
                             decision_ms, sandbox_kind)
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
    session = PlaySession(config, seat, Path(out), pace=pace, seed=seed,
                          notify=lambda line: click.echo(line, err=True))

    def ready(url: str) -> None:
        click.echo(f"trickcore play: {config.game_info.title}, {config.players} players, you are seat {seat}")
        click.echo(f"open {url}  (Ctrl-C ends the game)")
        if not no_browser:
            webbrowser.open(url)

    try:
        asyncio.run(serve(session, port=port, ready=ready))
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


#: The runner benchmark: the bench/ folder of the source checkout this package runs from (beside
#: the package's own folder).  An installed wheel has none.
@click.command("bench-runner")
@click.option("--games", type=click.IntRange(min=1), default=40, show_default=True,
              help="Games per table per measurement.")
@click.option("--repeat", type=click.IntRange(min=1), default=3, show_default=True,
              help="Measurements per figure (floor and runner alternate); medians are shown.")
@click.option("--exchanges", type=click.IntRange(min=100), default=4000, show_default=True,
              help="Ping-pong round trips per floor measurement.")
@click.option("-j", "--concurrency", "concurrencies", type=click.IntRange(min=1), multiple=True,
              help="Tables in parallel (repeatable; default 1 and 2).")
@click.option("--delivery", type=click.Choice(["immediate", "on-request", "both"]), default="on-request",
              show_default=True, help="The tournament's event_delivery.")
@click.option("--affinity", type=click.Choice(["none", "table", "both"]), default="both", show_default=True,
              help="The tournament's cpu_affinity (the floor's pairs are pinned the same way).")
@click.option("--game", help="Game to play (default: 'reference' if registered).")
@click.option("-p", "--players", type=int, help="Seats (default: the game's smallest count; 4 for reference).")
@click.option("--sandbox-cost/--no-sandbox-cost", default=True, show_default=True,
              help="Also play the tournament with and without the bots' sandbox and time a bot's start-up.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_runner_command(games: int, repeat: int, exchanges: int, concurrencies: tuple[int, ...], delivery: str,
                         affinity: str, game: str | None, players: int | None, sandbox_cost: bool,
                         as_json: bool) -> None:
    """Benchmark the runner: decisions per second and runner overhead per decision with the
    bundled random bot over pipes, against a pipe ping-pong floor measured in the same run
    (definitions: docs/tournament.md, "Performance").  From a source checkout: the benchmark is
    in its bench/ folder."""
    bench = bench_module("runner_bench", "trickcore bench-runner")
    deliveries = ("on-request", "immediate") if delivery == "both" else (delivery,)
    affinities = ("none", "table") if affinity == "both" else (affinity,)
    progress = None if as_json else (lambda msg: click.echo(f"  ... {msg}", err=True))
    rows = bench.run(concurrencies or (1, 2), deliveries, affinities, games=games, repeat=repeat,
                     exchanges=exchanges, game=game, players=players, progress=progress)
    # The sandbox's cost on one table and on as many as the rows (two by default: a table per
    # core of a 2-core machine, where the sandbox's own work competes with the other table's).
    costs = {c: bench.measure_sandbox_cost(games, repeat, game, players, concurrency=c, progress=progress)
             for c in (concurrencies or (1, 2))} if sandbox_cost else {}
    if as_json:
        click.echo(json.dumps({"rows": [r.to_json() for r in rows],
                               "sandbox": {str(c): cost.to_json() for c, cost in costs.items()} or None}, indent=1))
        return
    game_name, seats = (game, players) if game else bench.default_game()
    click.echo(f"runner benchmark: {game_name}, {players or seats} random bots over pipes, "
               f"{games} games per table, median of {repeat}")
    click.echo(bench.format_rows(rows, width=shutil.get_terminal_size((0, 0)).columns or None))
    click.echo("overhead = (game wall time - bot think time) per decision; floor = the same for a pipe "
               "ping-pong between two processes; ratio = overhead / floor; min referee = the same for the least "
               "a referee of this protocol can do (full view per request, nothing else: "
               "bench/minimal_referee.py); these rows run the bots without a sandbox (the overhead needs their "
               "own think times, which a sandboxed bot cannot report)")
    for c, cost in costs.items():
        click.echo(f"\nthe bots' sandbox: the same tournament ({games} games per table, {c} table"
                   f"{'s' if c > 1 else ''}) without and with it, and one bot's start-up to the end of its handshake, "
                   f"alternating; median of {repeat}")
        click.echo(bench.format_sandbox_cost(cost))


@click.command("demo-standings")
@click.option("--configs", "configs_dir", type=click.Path(exists=True, file_okay=False),
              help="Folder with the demo configs (default: ./configs, else the checkout's configs/).")
@click.option("--game", "games", multiple=True, help="Only this game's demo (repeatable).")
@click.option("--deals", type=click.IntRange(min=1), help="Override each demo's number of deals.")
@click.option("--out", type=click.Path(file_okay=False), help="Keep each run in OUT/<game> (default: temporary).")
def demo_standings_command(configs_dir: str | None, games: tuple[str, ...], deals: int | None,
                           out: str | None) -> None:
    """Run every per-game demo tournament (configs/demo*.toml) and print the standings as one
    markdown table: game, bot, mean score with 95% confidence interval, win share, games."""
    from tournament import demos

    folder = configs_dir or demos.default_configs_dir()
    if not demos.demo_configs(folder):
        # An installed trickcore has no checkout: say where it looked, rather than print an empty table.
        click.echo(f"error: no demo configs (demo*.toml) in {folder}; run this in a trickcore checkout or pass "
                   f"--configs FOLDER", err=True)
        sys.exit(2)
    results = demos.run_demos(folder, list(games), deals, out,
                              progress=lambda msg: click.echo(f"  ... {msg}", err=True))
    click.echo(demos.markdown_table(results))
    errors = [e for r in results for e in r.errors]
    for e in errors:
        click.echo(f"error: {e}", err=True)
    sys.exit(1 if errors else 0)


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
