"""The tournament report: ``RUN_DIR/report.html``, one self-contained page (inline CSS, JavaScript
and SVG; nothing fetched), written by ``trickcore report RUN_DIR`` and at the end of every
``trickcore tournament`` (``--no-report`` turns that off).

What it shows (docs/tournament.md, "The HTML report"): for a paired run, the margin A - B with
its 95% interval at the top, and its sequential test when one ran (``sprt.json``: the decision,
the hypotheses, the LLR path against its bounds); standings with the mean score's 95% interval
and the ratings; each bot's score distribution; rating ``mu ± sigma`` against the games the bot
has played; results by seat and by opponent; faults by class with the affected games; the games
with links to their replay pages; the effective config and the environment of the run.

It can be written while the run goes on (``[records] report_every``): it reads the records
written so far, leaves out a last line still being written, and replaces the page whole
(write_whole), so a browser reloading it gets the previous page or the new one.

Large runs stay light: ``results.jsonl`` is read one line at a time and only aggregates are kept
(score histograms, rating curves thinned to at most ``CURVE_POINTS`` points per bot, pairwise
sums), the list of games is capped (``max_games``: every game with a fault, then the first
games of the schedule), and replay pages are written for a few games only (``replays``: games
with faults, up to half of them, and games spread over the schedule); every other game's page is one
``trickcore replay ... --html`` away, and the list gives that command.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from tournament.files import write_json, write_whole
from tournament.replay_html import write_replay
from tournament.report_data import (
    CURVE_POINTS,
    ENVIRONMENT_FILE,
    Aggregates,
    Bot,
    Game,
    PairedResult,
    ReportError,
    Shape,
    SprtRecord,
    aggregate,
    games_data,
    invocations,
    load_manifest,
    paired_result,
    pick_games,
    pick_replays,
    read_record,
    read_sprt,
    read_summary,
    scan,
    when,
)
from tournament.report_page import render_report
from tournament.results import (
    EFFECTIVE_CONFIG_FILE,
)
from trickcore.games import get_game

REPORT_FILE = "report.html"
REPLAY_DIR = "replays"
DEFAULT_REPLAYS = 20
DEFAULT_MAX_GAMES = 2000


# ---- the environment -----------------------------------------------------------------------

def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return None


def _version(package: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def capture_environment() -> dict[str, Any]:
    """Where and with what a run is played: versions, platform, CPU, memory, the command line and
    the time (UTC)."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "trickcore": _version("trickcore"),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "packages": {p: _version(p) for p in ("click", "openskill", "orjson", "cffi", "rich")},
        "platform": platform.platform(),
        "host": platform.node(),
        "cpu": _cpu_model(),
        "cpus": os.cpu_count(),
        "cpus_usable": usable,
        "memory_gib": _memory_gib(),
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]) if sys.argv and sys.argv[0] else None,
    }


def record_environment(run_dir: str | Path, environment: dict[str, Any], **outcome: Any) -> None:
    """Add one invocation of the runner (its environment, when it ended and ``outcome``: games
    played, interrupted...) to ``RUN_DIR/environment.json``; a resumed run lists each."""
    path = Path(run_dir) / ENVIRONMENT_FILE
    doc: dict[str, Any] = {"format": "trickcore-environment/1", "invocations": []}
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict) and isinstance(loaded.get("invocations"), list):
                doc = loaded
        except ValueError:
            pass
    entry = {**environment, "ended": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
             **outcome}
    doc["invocations"].append(entry)
    write_json(path, doc)


@dataclasses.dataclass
class ReportResult:
    path: Path
    games: int
    replays: int
    seconds: float
    size: int


# ---- the report ----------------------------------------------------------------------------

def write_report(run_dir: str | Path, replays: int | None = DEFAULT_REPLAYS, max_games: int = DEFAULT_MAX_GAMES,
                 out: str | Path | None = None, verify: bool = True) -> ReportResult:
    """Write ``RUN_DIR/report.html`` (or ``out``) and the replay pages of up to ``replays`` games
    (None: every game) in ``RUN_DIR/replays/``; the list of games holds at most ``max_games``.
    The records are checked against the run's schedule first (ReportError names a line that is
    not the one record of a scheduled game); ``verify=False`` is for made-up folders only."""
    t0 = time.perf_counter()
    run = Path(run_dir)
    path = Path(out) if out else run / REPORT_FILE
    data = _read_run(run, verify)
    agg = aggregate(data.shape, data.games, data.timing, data.disqualified)
    written = _write_replays(run, data.games, replays, path)
    page = _page(run, data, agg, written, max_games, path, t0)
    write_whole(path, page)
    return ReportResult(path, len(data.games), len(written), time.perf_counter() - t0, len(page.encode()))


@dataclasses.dataclass
class _RunData:
    """What the report reads of a run folder."""

    config: dict[str, Any]
    info: Any
    shape: Shape
    games: list[Game]
    timing: dict[str, dict[str, float]]
    summary: dict[str, Any]
    disqualified: dict[str, str]
    paired: PairedResult | None
    sprt: SprtRecord | None


def _read_run(run: Path, verify: bool) -> _RunData:
    config = load_manifest(run)
    game_name = config.get("game", {}).get("name")
    players = int(config.get("game", {}).get("players") or 0)
    try:
        info = get_game(game_name)
    except Exception as exc:  # a game this installation does not have
        raise ReportError(f"{run}: game {game_name!r} is not registered here ({exc})") from None
    names = [b["name"] for b in config.get("bots", [])]
    games, timing = scan(run, verify)
    for g in games:  # bots the manifest does not name (a hand-edited folder) still count
        for b in g.bots:
            if b not in names:
                names.append(b)
    summary = read_summary(run)
    shape = Shape(info, players, [Bot(n) for n in names])
    return _RunData(config, info, shape, games, timing, summary, dict(summary.get("disqualified") or {}),
                    paired_result(config, shape, games), read_sprt(run))


def _write_replays(run: Path, games: list[Game], replays: int | None, report_path: Path) -> set[str]:
    """The replay pages of the chosen games, each with a link back to the report; their jobs."""
    replay_dir = run / REPLAY_DIR
    back = Path(os.path.relpath(report_path.resolve(), replay_dir.resolve())).as_posix()
    written = set()
    for g in pick_replays(games, replays):
        write_replay(read_record(run, g.offset), replay_dir / f"{g.job}.html", back=back)
        written.add(g.job)
    return written


def _page(run: Path, data: _RunData, agg: Aggregates, written: set[str], max_games: int, path: Path,
          t0: float) -> str:
    """The report page's text: the run's facts, and the sections from the aggregates."""
    config, games, summary = data.config, data.games, data.summary
    # Links between the report and the run's files, wherever the report is written.
    base = Path(os.path.relpath(run.resolve(), path.resolve().parent)).as_posix() + "/"
    base = "" if base == "./" else base

    def game_links(g: Game) -> list[tuple[str, str]]:
        links = [("replay", f"{base}{REPLAY_DIR}/{g.job}.html")] if g.job in written else []
        return links + ([("transcript", f"{base}{g.transcript}")] if g.transcript else [])

    listed = pick_games(games, max_games)
    tournament = config.get("tournament", {})
    tname = tournament.get("name") or run.name
    starts = [g.started for g in games if g.started]
    decisions = sum(int(t["n"]) for t in data.timing.values())
    latency = summary.get("runner_latency_us", {})
    # Runs from before the sandbox existed have no [sandbox] table: their bots ran unsandboxed.
    sandbox_kind = str(config.get("sandbox", {}).get("kind", "none"))
    facts = [("games played", f"{sum(1 for g in games if g.status == 'played'):,}"),
             ("skipped", f"{sum(1 for g in games if g.status == 'skipped'):,}"),
             ("faults", f"{sum(len(g.faults) for g in games):,}"), ("bot decisions", f"{decisions:,}"),
             ("first game", when(min(starts)) if starts else "–"),
             ("last game started", when(max(starts)) if starts else "–"),
             ("runner latency p50 / p99 µs", f"{latency.get('p50', '–')} / {latency.get('p99', '–')}"),
             ("bot sandbox", sandbox_kind)]
    effective_path = run / EFFECTIVE_CONFIG_FILE
    effective = (effective_path.read_text(encoding="utf-8") if effective_path.exists()
                 else json.dumps(config, indent=2, default=str))
    report_env = capture_environment()
    report_env.pop("command", None)
    return render_report(
        agg, game_links, paired=data.paired, sprt=data.sprt, title=f"{tname} – trickcore tournament report", name=tname,
        game_title=data.info.title, game_name=config.get("game", {}).get("name"), players=data.shape.players,
        options=config.get("game", {}).get("options") or {}, format=tournament.get("format"),
        deals=tournament.get("deals"), seed=tournament.get("seed"), facts=facts, sandbox_kind=sandbox_kind,
        curve_points=CURVE_POINTS, fault_bots=sorted({b for c in agg.fault_counts.values() for b in c}),
        replay_count=len(written), replay_dir=REPLAY_DIR, listed=len(listed), total=len(games),
        effective=effective, invocations=invocations(run), report_env=report_env,
        data=games_data(listed, len(games), written, [b.name for b in data.shape.bots], base),
        generated=f"made {report_env['started']} by trickcore {report_env['trickcore']} "
                  f"in {time.perf_counter() - t0:.2f} s")


# ---- the runner's and the command line's side ----------------------------------------------

def finish_run(summary: Any, environment: dict[str, Any], write_html: bool = True) -> list[str]:
    """After ``trickcore tournament``: add this invocation to environment.json and, unless
    ``write_html`` is false, write the report.  Returns lines to print; a report that cannot be
    written is a warning, never a failed tournament."""
    out = Path(summary.out_dir)
    lines = []
    try:
        record_environment(out, environment, played=summary.played, resumed=summary.resumed,
                           skipped=summary.skipped, interrupted=summary.interrupted)
        if write_html:
            result = write_report(out)
            lines.append(f"report: {result.path} ({result.size / 1024:,.0f} KiB, {result.replays} replay pages, "
                         f"{result.seconds:.1f} s)")
    except Exception as exc:  # noqa: BLE001 - the games are recorded; a report problem must not hide that
        lines.append(f"warning: the HTML report could not be written: {type(exc).__name__}: {exc}")
    return lines


def _replay_count(text: str) -> int | None:
    import click

    if text.strip().lower() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is neither a number nor 'all'", param_hint="--replays") from None
    if value < 0:
        raise click.BadParameter(f"must be >= 0, got {value}", param_hint="--replays")
    return value


def _report_command() -> Any:
    import click

    @click.command("report")
    @click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
    @click.option("--replays", default=str(DEFAULT_REPLAYS), show_default=True, metavar="N|all",
                  help="How many games get a replay page in RUN_DIR/replays/ (up to half of them games with "
                       "faults, the others spread over the schedule).")
    @click.option("--max-games", type=click.IntRange(min=0), default=DEFAULT_MAX_GAMES, show_default=True,
                  help="Games listed in the report at most (every game with a fault first).")
    @click.option("-o", "--out", type=click.Path(dir_okay=False),
                  help="Write the report here instead of RUN_DIR/report.html.")
    def report_command(run_dir: str, replays: str, max_games: int, out: str | None) -> None:
        """Write RUN_DIR/report.html: standings, score distributions, ratings over the games, results by
        seat and opponent, faults, the games with replay pages, config and environment (one
        self-contained file; see docs/tournament.md)."""
        try:
            result = write_report(run_dir, _replay_count(replays), max_games, out)
        except ReportError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        click.echo(f"report: {result.path} ({result.games:,} games, {result.size / 1024:,.0f} KiB, "
                   f"{result.replays} replay pages, {result.seconds:.1f} s)")

    return report_command


report_command = _report_command()
