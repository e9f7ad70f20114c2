"""The tournament report: ``RUN_DIR/report.html``, one self-contained page (inline CSS, JavaScript
and SVG; nothing fetched), written by ``trickcore report RUN_DIR`` and at the end of every
``trickcore tournament`` (``--no-report`` turns that off).

What it shows (docs/tournament.md, "The HTML report"): standings with the mean score's 95%
interval and the ratings; each bot's score distribution; rating ``mu ± sigma`` against the
games the bot has played; results by seat and by opponent; faults by class with the affected
games; the games with links to their replay pages; the effective config and the environment of
the run.

Large runs stay light: ``results.jsonl`` is read one line at a time and only aggregates are kept
(score histograms, rating curves thinned to at most ``CURVE_POINTS`` points per bot, pairwise
sums), the list of games is capped (``max_games``: every game with a fault, then the first
games of the schedule), and replay pages are written for a few games only (``replays``: games
with faults, up to half of them, and games spread over the schedule); every other game's page is one
``trickcore replay ... --html`` away, and the list gives that command.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime
import html
import json
import math
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import orjson

from tournament.ratings import BotStanding, _Tally
from tournament.results import (
    EFFECTIVE_CONFIG_FILE,
    MANIFEST_FILE,
    RESULTS_FILE,
    ResultsFile,
    ResumeError,
    checked_records,
)
from trickcore.games import get_game

REPORT_FILE = "report.html"
ENVIRONMENT_FILE = "environment.json"
REPLAY_DIR = "replays"
DEFAULT_REPLAYS = 20
DEFAULT_MAX_GAMES = 2000
CURVE_POINTS = 300
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")


class ReportError(RuntimeError):
    """The folder is not a tournament's output (or holds nothing to report)."""


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
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


# ---- reading a run -------------------------------------------------------------------------

@dataclasses.dataclass
class _Bot:
    name: str


@dataclasses.dataclass
class _Shape:
    """What the standings need of a config (the bots, the game and its partnerships), read from
    the run's manifest so that a report can be made wherever the folder is copied to."""

    game_info: Any
    players: int
    bots: list[_Bot]


@dataclasses.dataclass
class _Game:
    """One game of results.jsonl, without its actions and history."""

    index: int
    job: str
    status: str
    table: int
    deal: int
    seating: int
    bots: list[str]
    scores: list[float] | None
    ranks: list[int] | None
    faults: list[dict]
    forfeited: list[int]
    duration: float | None
    transcript: str | None
    started: str | None
    offset: int
    reason: str | None = None


@dataclasses.dataclass
class ReportResult:
    path: Path
    games: int
    replays: int
    seconds: float
    size: int


def _load_manifest(run: Path) -> dict[str, Any]:
    manifest = run / MANIFEST_FILE
    if not (run / RESULTS_FILE).exists():
        raise ReportError(f"{run} holds no {RESULTS_FILE}: is it a tournament's output folder?")
    if not manifest.exists():
        raise ReportError(f"{run} holds no {MANIFEST_FILE} (the run's config); cannot make a report")
    try:
        doc = json.loads(manifest.read_text(encoding="utf-8"))
        return dict(doc["config"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ReportError(f"{manifest}: not a run manifest ({exc})") from None


def _scan(run: Path, verify: bool = True) -> tuple[list[_Game], dict[str, dict[str, float]]]:
    """Every record of results.jsonl, reduced to what the report needs, and per bot its think
    and runner-latency sums (the actions are read here and dropped).  Each record is checked
    against the run's schedule as it is read (results.checked_records; ReportError naming the
    line); ``verify=False`` skips that, for folders made up of copied records
    (tools/report_scale.py)."""
    games: list[_Game] = []
    timing: dict[str, dict[str, float]] = collections.defaultdict(
        lambda: {"n": 0, "ms": 0.0, "max": 0.0, "rn": 0, "rus": 0.0})
    lines = checked_records(run) if verify else ResultsFile(run / RESULTS_FILE)
    try:
        for _, start, rec in lines:
            bots = rec.get("bots") or []
            for a in rec.get("actions", ()):
                bot = bots[a["seat"]] if 0 <= a.get("seat", -1) < len(bots) else None
                if bot is None:
                    continue
                t = timing[bot]
                if a.get("by") in ("bot", "substitute") and "ms" in a:
                    t["n"] += 1
                    t["ms"] += a["ms"]
                    t["max"] = max(t["max"], a["ms"])
                if "runner_us" in a:
                    t["rn"] += 1
                    t["rus"] += a["runner_us"]
            result = rec.get("result") or {}
            games.append(_Game(index=rec.get("index", len(games)), job=rec.get("job", f"game{len(games)}"),
                               status=rec.get("status", "played"), table=rec.get("table", 0),
                               deal=rec.get("deal", 0), seating=rec.get("seating", 0), bots=list(bots),
                               scores=result.get("scores"), ranks=result.get("ranks"),
                               faults=list(rec.get("faults") or []), forfeited=list(rec.get("forfeited") or []),
                               duration=rec.get("duration_s"), transcript=rec.get("transcript"),
                               started=rec.get("started_at"), offset=start, reason=rec.get("reason")))
    except ResumeError as exc:  # a record that is not the one record of a scheduled game, a missing secret
        raise ReportError(str(exc)) from None
    games.sort(key=lambda g: g.index)
    return games, timing


def _read_record(run: Path, offset: int) -> dict[str, Any]:
    with open(run / RESULTS_FILE, "rb") as fh:
        fh.seek(offset)
        return dict(orjson.loads(fh.readline()))


# ---- aggregation ---------------------------------------------------------------------------

@dataclasses.dataclass
class _Aggregates:
    standings: list[BotStanding]
    curves: dict[str, list[tuple[int, float, float]]]
    scores: dict[str, list[float]]
    seats: dict[str, list[list[float]]]  # bot -> seat -> [sum, games]
    pairs: dict[tuple[str, str], list[float]]  # (a, b) -> [ahead, games, score difference sum]
    faults: dict[str, list[tuple[_Game, dict]]]
    fault_counts: dict[str, collections.Counter]


def _aggregate(shape: _Shape, games: list[_Game], timing: dict[str, dict[str, float]],
               disqualified: dict[str, str]) -> _Aggregates:
    tally = _Tally(shape)  # type: ignore[arg-type]  # the same standings code as the runner's
    names = [b.name for b in shape.bots]
    raw: dict[str, list[tuple[int, float, float]]] = {n: [(0, tally.ratings[n].mu, tally.ratings[n].sigma)]
                                                      for n in names}
    played_by: collections.Counter = collections.Counter()
    scores: dict[str, list[float]] = {n: [] for n in names}
    seats: dict[str, list[list[float]]] = {n: [[0.0, 0] for _ in range(shape.players)] for n in names}
    pairs: dict[tuple[str, str], list[float]] = collections.defaultdict(lambda: [0.0, 0, 0.0])
    faults: dict[str, list[tuple[_Game, dict]]] = collections.defaultdict(list)
    fault_counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    units = tally.units
    unit_of = {s: i for i, unit in enumerate(units) for s in unit}
    for g in games:
        for f in g.faults:
            faults[f.get("class", "?")].append((g, f))
            fault_counts[f.get("class", "?")][f.get("bot", "?")] += 1
        if g.status != "played" or g.scores is None or g.ranks is None:
            continue
        tally.add({"bots": g.bots, "result": {"scores": g.scores, "ranks": g.ranks}, "table": g.table,
                   "deal": g.deal, "forfeited": g.forfeited,
                   "fault_counts": _fault_counts(g, len(g.bots))})
        for seat, bot in enumerate(g.bots):
            played_by[bot] += 1
            r = tally.ratings[bot]
            raw[bot].append((played_by[bot], r.mu, r.sigma))
            scores[bot].append(g.scores[seat])
            seats[bot][seat][0] += g.scores[seat]
            seats[bot][seat][1] += 1
            for other, bot2 in enumerate(g.bots):
                if other == seat or bot2 == bot or unit_of.get(other) == unit_of.get(seat):
                    continue
                p = pairs[(bot, bot2)]
                p[0] += 1.0 if g.ranks[seat] < g.ranks[other] else 0.5 if g.ranks[seat] == g.ranks[other] else 0.0
                p[1] += 1
                p[2] += g.scores[seat] - g.scores[other]
    standings = [tally.standing(n, disqualified) for n in names]
    for st in standings:
        t = timing.get(st.name)
        if t and t["n"]:
            st.decisions, st.think_ms_mean, st.think_ms_max = int(t["n"]), t["ms"] / t["n"], t["max"]
        if t and t["rn"]:
            st.runner_us_mean = t["rus"] / t["rn"]
    standings.sort(key=lambda s: (s.mean_score is None, -(s.mean_score or 0.0), -s.ordinal, s.name))
    curves = {n: _thin(points, CURVE_POINTS) for n, points in raw.items()}
    return _Aggregates(standings, curves, scores, seats, dict(pairs), dict(faults), dict(fault_counts))


def _fault_counts(g: _Game, n: int) -> list[dict[str, int]]:
    counts: list[dict[str, int]] = [{} for _ in range(n)]
    for f in g.faults:
        seat = f.get("seat")
        if isinstance(seat, int) and 0 <= seat < n:
            counts[seat][f["class"]] = counts[seat].get(f["class"], 0) + 1
    return counts


def _thin(points: list[tuple[int, float, float]], limit: int) -> list[tuple[int, float, float]]:
    if len(points) <= limit:
        return points
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


# ---- SVG -----------------------------------------------------------------------------------

def _nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step) * step
    ticks = []
    x = first
    while x <= hi + 1e-9:
        ticks.append(round(x, 10))
        x += step
    return ticks


def _fmt(x: float | None, digits: int = 2) -> str:
    if x is None:
        return "–"
    if abs(x - round(x)) < 1e-9 and abs(x) < 1e15:
        return str(int(round(x)))
    return f"{x:.{digits}f}"


def _when(iso: str) -> str:
    """``2026-01-02T03:04:05.678+00:00`` as ``2026-01-02 03:04:05 UTC`` (records are in UTC)."""
    return iso[:19].replace("T", " ") + (" UTC" if iso.endswith("+00:00") else "")


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _histograms(agg: _Aggregates, colours: dict[str, str]) -> str:
    """One small histogram per bot over a common score axis: share of its games per bin, its mean
    (line) and the mean's 95% interval (band)."""
    every = [x for values in agg.scores.values() for x in values]
    if not every:
        return '<p class="muted">No game played yet.</p>'
    lo, hi = min(every), max(every)
    distinct = sorted(set(every))
    integral = all(float(x).is_integer() for x in distinct)
    if integral and hi - lo <= 40:
        edges = [lo - 0.5 + i for i in range(int(hi - lo) + 2)]
    else:
        bins = 30
        width = (hi - lo) / bins or 1.0
        edges = [lo + i * width for i in range(bins + 1)]
    nb = len(edges) - 1
    span = edges[-1] - edges[0] or 1.0
    shares: dict[str, list[float]] = {}
    for bot, values in agg.scores.items():
        counts = [0] * nb
        for x in values:
            i = min(nb - 1, max(0, int((x - edges[0]) / span * nb)))
            counts[i] += 1
        shares[bot] = [c / len(values) if values else 0.0 for c in counts]
    top = max((max(s) for s in shares.values() if s), default=1.0) or 1.0
    w, h, left, bottom = 330, 130, 34, 22
    pw, ph = w - left - 8, h - bottom - 18
    by_name = {s.name: s for s in agg.standings}
    out = ['<div class="hists">']
    for st in agg.standings:
        bot = st.name
        sx = lambda v: left + (v - edges[0]) / span * pw  # noqa: E731
        parts = [f'<svg class="hist" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
                 f'aria-label="score distribution of {_esc(bot)}">',
                 f'<text x="{left}" y="12" class="t">{_esc(bot)} — {len(agg.scores[bot])} games, mean '
                 f'{_fmt(st.mean_score)}</text>']
        s = by_name[bot]
        if s.mean_score is not None and s.ci95 is not None:
            x0, x1 = sx(s.mean_score - s.ci95), sx(s.mean_score + s.ci95)
            parts.append(f'<rect x="{x0:.1f}" y="18" width="{max(1.0, x1 - x0):.1f}" height="{ph}" '
                         f'class="ci"><title>95% interval of the mean: ±{_fmt(s.ci95)}</title></rect>')
        bw = pw / nb
        for i, share in enumerate(shares[bot]):
            if share <= 0:
                continue
            bh = share / top * ph
            a, b = edges[i], edges[i + 1]
            label = (f"{_fmt((a + b) / 2)}" if integral and hi - lo <= 40 else f"{_fmt(a)} to {_fmt(b)}")
            parts.append(f'<rect x="{left + i * bw + 0.5:.1f}" y="{18 + ph - bh:.1f}" width="{max(0.5, bw - 1):.1f}" '
                         f'height="{bh:.1f}" fill="{colours[bot]}"><title>score {label}: '
                         f'{100 * share:.1f}% of games</title></rect>')
        if s.mean_score is not None:
            mx = sx(s.mean_score)
            parts.append(f'<line x1="{mx:.1f}" x2="{mx:.1f}" y1="16" y2="{18 + ph}" class="mean"/>')
        parts.append(f'<line x1="{left}" x2="{left + pw}" y1="{18 + ph}" y2="{18 + ph}" class="axis"/>')
        for t in _nice_ticks(lo, hi, 5):
            parts.append(f'<text x="{sx(t):.1f}" y="{h - 6}" class="tick" text-anchor="middle">{_fmt(t)}</text>')
        parts.append(f'<text x="{left - 4}" y="{24}" class="tick" text-anchor="end">{100 * top:.0f}%</text>')
        parts.append("</svg>")
        out.append("".join(parts))
    out.append("</div>")
    return "".join(out)


def _rating_chart(agg: _Aggregates, colours: dict[str, str]) -> str:
    """mu (line) and mu ± sigma (band) of every bot against the games it has played."""
    curves = {b: c for b, c in agg.curves.items() if len(c) > 1}
    if not curves:
        return '<p class="muted">No game played yet.</p>'
    w, h, left, right, top, bottom = 900, 340, 50, 150, 12, 34
    pw, ph = w - left - right, h - top - bottom
    xmax = max(c[-1][0] for c in curves.values()) or 1
    lo = min(mu - sg for c in curves.values() for _, mu, sg in c)
    hi = max(mu + sg for c in curves.values() for _, mu, sg in c)
    sx = lambda g: left + g / xmax * pw  # noqa: E731
    sy = lambda v: top + (hi - v) / ((hi - lo) or 1) * ph  # noqa: E731
    parts = [f'<svg class="chart" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
             f'aria-label="rating mu plus or minus sigma against games played">']
    for t in _nice_ticks(lo, hi, 6):
        parts.append(f'<line x1="{left}" x2="{left + pw}" y1="{sy(t):.1f}" y2="{sy(t):.1f}" class="grid"/>'
                     f'<text x="{left - 6}" y="{sy(t) + 4:.1f}" class="tick" text-anchor="end">{_fmt(t, 1)}</text>')
    for t in _nice_ticks(0, xmax, 8):
        parts.append(f'<text x="{sx(t):.1f}" y="{top + ph + 16}" class="tick" text-anchor="middle">{_fmt(t)}</text>')
    parts.append(f'<text x="{left + pw / 2}" y="{h - 2}" class="tick" text-anchor="middle">games played by the bot'
                 f'</text>')
    ordered = [s.name for s in sorted(agg.standings, key=lambda s: -s.mu) if s.name in curves]
    for bot in ordered:
        c = curves[bot]
        upper = " ".join(f"{sx(g):.1f},{sy(mu + sg):.1f}" for g, mu, sg in c)
        lower = " ".join(f"{sx(g):.1f},{sy(mu - sg):.1f}" for g, mu, sg in reversed(c))
        line = " ".join(f"{sx(g):.1f},{sy(mu):.1f}" for g, mu, _ in c)
        parts.append(f'<polygon points="{upper} {lower}" fill="{colours[bot]}" opacity="0.13"/>')
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colours[bot]}" stroke-width="2">'
                     f'<title>{_esc(bot)}</title></polyline>')
    for i, bot in enumerate(ordered):
        g, mu, sg = curves[bot][-1]
        y = top + 14 + i * 18
        parts.append(f'<rect x="{left + pw + 12}" y="{y - 9}" width="12" height="12" fill="{colours[bot]}"/>'
                     f'<text x="{left + pw + 28}" y="{y + 1}" class="tick">{_esc(bot)} {mu:.1f}±{sg:.1f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _forest(agg: _Aggregates, colours: dict[str, str]) -> str:
    """Each bot's mean score with its 95% interval on one axis."""
    rows = [s for s in agg.standings if s.mean_score is not None]
    if not rows:
        return ""
    lo = min(s.mean_score - (s.ci95 or 0) for s in rows)  # type: ignore[operator]
    hi = max(s.mean_score + (s.ci95 or 0) for s in rows)  # type: ignore[operator]
    w, left, row = 520, 120, 20
    h = 26 + row * len(rows)
    pw = w - left - 12
    sx = lambda v: left + (v - lo) / ((hi - lo) or 1) * pw  # noqa: E731
    parts = [f'<svg class="forest" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
             f'aria-label="mean score with 95% interval per bot">']
    for t in _nice_ticks(lo, hi, 6):
        parts.append(f'<line x1="{sx(t):.1f}" x2="{sx(t):.1f}" y1="4" y2="{h - 18}" class="grid"/>'
                     f'<text x="{sx(t):.1f}" y="{h - 4}" class="tick" text-anchor="middle">{_fmt(t)}</text>')
    for i, s in enumerate(rows):
        y = 14 + i * row
        m = s.mean_score or 0.0
        ci = s.ci95 or 0.0
        parts.append(f'<text x="{left - 8}" y="{y + 4}" class="tick" text-anchor="end">{_esc(s.name)}</text>'
                     f'<line x1="{sx(m - ci):.1f}" x2="{sx(m + ci):.1f}" y1="{y}" y2="{y}" stroke="{colours[s.name]}" '
                     f'stroke-width="3"/><circle cx="{sx(m):.1f}" cy="{y}" r="5" fill="{colours[s.name]}">'
                     f'<title>{_esc(s.name)}: {_fmt(m)} ± {_fmt(s.ci95)}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


# ---- HTML sections -------------------------------------------------------------------------

def _standings_table(agg: _Aggregates) -> str:
    head = ("#", "bot", "games", "mean score", "±95%", "mean rank", "win %", "mu ± sigma", "ordinal", "faults",
            "forfeits", "think ms", "runner µs")
    rows = []
    for i, s in enumerate(agg.standings, 1):
        dq = f' <span class="dq" title="{_esc(s.disqualified)}">disqualified</span>' if s.disqualified else ""
        rows.append("<tr>" + "".join([
            f"<td>{i}</td>", f'<td class="l">{_esc(s.name)}{dq}</td>', f"<td>{s.games}</td>",
            f"<td>{_fmt(s.mean_score)}</td>", f"<td>{_fmt(s.ci95)}</td>", f"<td>{_fmt(s.mean_rank)}</td>",
            f"<td>{_fmt(None if s.win_share is None else 100 * s.win_share, 1)}</td>",
            f"<td>{s.mu:.2f} ± {s.sigma:.2f}</td>", f"<td>{s.ordinal:.2f}</td>",
            f"<td>{sum(s.faults.values())}</td>", f"<td>{s.forfeits}</td>", f"<td>{_fmt(s.think_ms_mean, 1)}</td>",
            f"<td>{_fmt(s.runner_us_mean, 0)}</td>"]) + "</tr>")
    return ('<table class="sortable" id="standings-table"><thead><tr>'
            + "".join(f'<th{" class=l" if h == "bot" else ""}>{_esc(h)}</th>' for h in head)
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def _seat_table(agg: _Aggregates, players: int) -> str:
    head = "".join(f"<th>seat {s}</th>" for s in range(players))
    rows = []
    for st in agg.standings:
        cells = []
        for total, n in agg.seats[st.name]:
            cells.append(f'<td title="{int(n)} games">{_fmt(total / n) if n else "–"}'
                         f'<span class="n"> ({int(n)})</span></td>')
        rows.append(f'<tr><td class="l">{_esc(st.name)}</td>{"".join(cells)}</tr>')
    return (f'<table id="seat-table"><thead><tr><th class="l">bot</th>{head}</tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def _pair_table(agg: _Aggregates) -> str:
    names = [s.name for s in agg.standings]
    head = "".join(f"<th>{_esc(n)}</th>" for n in names)
    rows = []
    for a in names:
        cells = []
        for b in names:
            p = agg.pairs.get((a, b))
            if a == b or not p or not p[1]:
                cells.append('<td class="na">–</td>')
                continue
            share = p[0] / p[1]
            hue = 120 if share >= 0.5 else 0
            alpha = min(0.55, abs(share - 0.5) * 1.6)
            cells.append(f'<td style="background:hsla({hue},65%,45%,{alpha:.2f})" title="{_esc(a)} finished ahead '
                         f'of {_esc(b)} in {100 * share:.1f}% of {int(p[1])} games (ties count half); mean score '
                         f'difference {p[2] / p[1]:+.2f}">{100 * share:.0f}%<span class="n"> '
                         f'{p[2] / p[1]:+.1f}</span></td>')
        rows.append(f'<tr><th class="l">{_esc(a)}</th>{"".join(cells)}</tr>')
    return (f'<table id="pair-table"><thead><tr><th class="l">row ahead of column</th>{head}</tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def _game_links(g: _Game, replays: set[str], base: str) -> str:
    """Links to a game's replay page and transcript; ``base`` leads from the report to the run."""
    links = []
    if g.job in replays:
        links.append(f'<a href="{_esc(base)}{REPLAY_DIR}/{_esc(g.job)}.html">replay</a>')
    if g.transcript:
        links.append(f'<a href="{_esc(base)}{_esc(g.transcript)}">transcript</a>')
    return " ".join(links)


FAULTS_LISTED = 100


def _faults_section(agg: _Aggregates, replays: set[str], base: str) -> str:
    if not agg.faults:
        return '<p id="no-faults">No faults: every bot answered every request legally and in time.</p>'
    bots = sorted({b for c in agg.fault_counts.values() for b in c})
    classes = sorted(agg.faults)
    head = "".join(f"<th>{_esc(b)}</th>" for b in bots)
    rows = "".join(f'<tr><td class="l"><a href="#faults-{_esc(c)}">{_esc(c)}</a></td>'
                   + "".join(f"<td>{agg.fault_counts[c].get(b, 0) or ''}</td>" for b in bots)
                   + f"<td>{sum(agg.fault_counts[c].values())}</td></tr>" for c in classes)
    out = [f'<table id="fault-table"><thead><tr><th class="l">class</th>{head}<th>total</th></tr></thead>'
           f"<tbody>{rows}</tbody></table>"]
    for c in classes:
        items = agg.faults[c]
        out.append(f'<h3 id="faults-{_esc(c)}">{_esc(c)}: {len(items)} fault(s) in '
                   f'{len({g.job for g, _ in items})} game(s)</h3><ul class="faultlist">')
        for g, f in items[:FAULTS_LISTED]:
            detail = str(f.get("detail", ""))
            detail = detail if len(detail) <= 240 else detail[:240] + "…"
            out.append(f'<li><a href="#game-{_esc(g.job)}" class="job">{_esc(g.job)}</a> seat {_esc(f.get("seat"))} '
                       f'({_esc(f.get("bot"))}) → {_esc(f.get("outcome"))}: <span class="detail">{_esc(detail)}</span> '
                       f'{_game_links(g, replays, base)}</li>')
        if len(items) > FAULTS_LISTED:
            out.append(f"<li class=muted>… and {len(items) - FAULTS_LISTED} more (results.jsonl, field "
                       f"<code>faults</code>)</li>")
        out.append("</ul>")
    return "".join(out)


def _pick_games(games: list[_Game], limit: int) -> list[_Game]:
    if len(games) <= limit:
        return games
    faulty = [g for g in games if g.faults][: limit // 2]
    chosen = {g.job for g in faulty}
    for g in games:
        if len(chosen) >= limit:
            break
        chosen.add(g.job)
    return [g for g in games if g.job in chosen]


def _pick_replays(games: list[_Game], count: int | None) -> list[_Game]:
    played = [g for g in games if g.status == "played"]
    if count is None or len(played) <= count:
        return played
    if count <= 0:
        return []
    faulty = [g for g in played if g.faults][: max(1, count // 2)]
    chosen = {g.job for g in faulty}
    rest = [g for g in played if g.job not in chosen]
    need = count - len(chosen)
    if need > 0 and rest:
        step = len(rest) / need
        chosen.update(rest[int(i * step)].job for i in range(need))
    return [g for g in played if g.job in chosen]


def _games_data(games: list[_Game], total: int, replays: set[str], bots: list[str], base: str) -> dict[str, Any]:
    rows = []
    index = {b: i for i, b in enumerate(bots)}
    for g in games:
        rows.append([g.index, g.job, g.table, g.deal, g.seating, [index.get(b, -1) for b in g.bots],
                     g.scores, g.ranks, len(g.faults), g.forfeited, g.duration,
                     1 if g.job in replays else 0, g.transcript, g.status if g.status != "played" else None,
                     g.reason])
    return {"bots": bots, "total": total, "rows": rows, "base": base}


def _environment_section(run: Path, report_env: dict[str, Any]) -> str:
    path = run / ENVIRONMENT_FILE
    invocations: list[dict[str, Any]] = []
    if path.exists():
        try:
            invocations = list(json.loads(path.read_text(encoding="utf-8")).get("invocations", []))
        except (ValueError, AttributeError):
            invocations = []
    blocks = []
    if invocations:
        for i, inv in enumerate(invocations, 1):
            blocks.append(f"<h3>Run {i} of {len(invocations)}</h3>" + _kv_table(inv))
    else:
        blocks.append("<p class=muted>The run recorded no environment (it was made before runs did, or by the "
                      "Python API); below is the machine this report was made on.</p>")
    blocks.append('<details><summary>The machine and versions this report was made with</summary>'
                  + _kv_table(report_env) + "</details>")
    return "".join(blocks)


_ENV_ORDER = ("started", "ended", "command", "played", "resumed", "skipped", "interrupted", "trickcore", "python",
              "packages", "platform", "cpu", "cpus", "cpus_usable", "memory_gib", "host")


def _kv_table(d: dict[str, Any]) -> str:
    rows = []
    ordered = [k for k in _ENV_ORDER if k in d] + [k for k in d if k not in _ENV_ORDER]
    for k, v in ((k, d[k]) for k in ordered):
        if isinstance(v, dict):
            v = ", ".join(f"{a} {b}" for a, b in v.items() if b is not None)
        rows.append(f'<tr><th class="l">{_esc(k)}</th><td class="l">{_esc("–" if v is None else v)}</td></tr>')
    return f'<table class="kv">{"".join(rows)}</table>'


def _json_for_script(payload: Any) -> str:
    text = orjson.dumps(payload).decode()
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


# ---- the report ----------------------------------------------------------------------------

def write_report(run_dir: str | Path, replays: int | None = DEFAULT_REPLAYS, max_games: int = DEFAULT_MAX_GAMES,
                 out: str | Path | None = None, verify: bool = True) -> ReportResult:
    """Write ``RUN_DIR/report.html`` (or ``out``) and the replay pages of up to ``replays`` games
    (None: every game) in ``RUN_DIR/replays/``; the list of games holds at most ``max_games``.
    The records are checked against the run's schedule first (ReportError names a line that is
    not the one record of a scheduled game); ``verify=False`` is for made-up folders only."""
    from tournament.html_assets import CARD_CSS, CARD_SYMBOLS, REPORT_CSS, REPORT_JS, page_head
    from tournament.replay_html import write_replay

    t0 = time.perf_counter()
    run = Path(run_dir)
    config = _load_manifest(run)
    game_name = config.get("game", {}).get("name")
    players = int(config.get("game", {}).get("players") or 0)
    try:
        info = get_game(game_name)
    except Exception as exc:  # a game this installation does not have
        raise ReportError(f"{run}: game {game_name!r} is not registered here ({exc})") from None
    names = [b["name"] for b in config.get("bots", [])]
    games, timing = _scan(run, verify)
    for g in games:  # bots the manifest does not name (a hand-edited folder) still count
        for b in g.bots:
            if b not in names:
                names.append(b)
    summary_path = run / "summary.json"
    summary = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.exists() else {}
    disqualified = dict(summary.get("disqualified") or {})
    shape = _Shape(info, players, [_Bot(n) for n in names])
    agg = _aggregate(shape, games, timing, disqualified)
    colours = {s.name: PALETTE[i % len(PALETTE)] for i, s in enumerate(agg.standings)}

    path = Path(out) if out else run / REPORT_FILE
    # Links between the report and the run's files, wherever the report is written.
    base = Path(os.path.relpath(run.resolve(), path.resolve().parent)).as_posix() + "/"
    base = "" if base == "./" else base
    chosen = _pick_replays(games, replays)
    replay_dir = run / REPLAY_DIR
    back = Path(os.path.relpath(path.resolve(), replay_dir.resolve())).as_posix()
    written = set()
    for g in chosen:
        record = _read_record(run, g.offset)
        write_replay(record, replay_dir / f"{g.job}.html", back=back)
        written.add(g.job)

    played = [g for g in games if g.status == "played"]
    listed = _pick_games(games, max_games)
    tname = config.get("tournament", {}).get("name") or run.name
    starts = [g.started for g in games if g.started]
    first, last = (_when(min(starts)), _when(max(starts))) if starts else (None, None)
    decisions = sum(int(t["n"]) for t in timing.values())
    effective = (run / EFFECTIVE_CONFIG_FILE).read_text(encoding="utf-8") if (run / EFFECTIVE_CONFIG_FILE).exists() \
        else json.dumps(config, indent=2, default=str)
    skipped = sum(1 for g in games if g.status == "skipped")
    faults_total = sum(len(g.faults) for g in games)
    options = config.get("game", {}).get("options") or {}
    subtitle = (f"{_esc(info.title)} ({_esc(game_name)}), {players} players"
                + (f", options {_esc(', '.join(f'{k}={v}' for k, v in options.items()))}" if options else "")
                + f"; {_esc(config.get('tournament', {}).get('format'))}, "
                  f"{_esc(config.get('tournament', {}).get('deals'))} deal(s), seed "
                  f"{_esc(config.get('tournament', {}).get('seed'))}")
    facts = [("games played", f"{len(played):,}"), ("skipped", f"{skipped:,}"), ("faults", f"{faults_total:,}"),
             ("bot decisions", f"{decisions:,}"), ("first game", first or "–"), ("last game started", last or "–"),
             ("runner latency p50 / p99 µs",
              f"{summary.get('runner_latency_us', {}).get('p50', '–')} / "
              f"{summary.get('runner_latency_us', {}).get('p99', '–')}")]
    # Runs from before the sandbox existed have no [sandbox] table: their bots ran unsandboxed.
    sandbox_kind = str(config.get("sandbox", {}).get("kind", "none"))
    facts.append(("bot sandbox", sandbox_kind))
    unsandboxed = ('<p class="note warn"><b>The bots ran without a sandbox</b> (<code>sandbox.kind = "none"</code>): '
                   "each could read the run folder and the organiser's files and signal the other bots, so these "
                   "results are only as fair as the bots are honest.</p>" if sandbox_kind == "none" else "")
    report_env = capture_environment()
    report_env.pop("command", None)
    limited = (f"<p class=note>Showing {len(listed):,} of {len(games):,} games: every game with a fault, then "
               f"the first of the schedule. All games are in <code>results.jsonl</code>.</p>"
               if len(listed) < len(games) else "")
    sections = [
        ("standings", "Standings", unsandboxed +
         '<p class=note>Mean score per game with the 95% interval over deal groups (games of one deal share '
         'their cards), mean rank, win share (shared firsts split), openskill rating <code>mu ± sigma</code> and '
         'ordinal <code>mu − 3 sigma</code>; forfeits rank last. Click a column to sort.</p>'
         + _standings_table(agg) + _forest(agg, colours)),
        ("scores", "Score distributions",
         "<p class=note>Share of each bot's games per score, on one axis for all bots; the line is the mean, "
         "the band its 95% interval.</p>" + _histograms(agg, colours)),
        ("ratings", "Rating as the tournament went on",
         "<p class=note>openskill <code>mu</code> (line) and <code>mu ± sigma</code> (band) after each game the "
         f"bot played, in schedule order (at most {CURVE_POINTS} points per bot).</p>" + _rating_chart(agg, colours)),
        ("seats", "Results by seat",
         "<p class=note>Mean score per seat (games in brackets).</p>" + _seat_table(agg, players)),
        ("opponents", "Results by opponent",
         "<p class=note>How often the row's bot finished ahead of the column's at the same table (ties count "
         "half; partners are not compared), and the mean score difference.</p>" + _pair_table(agg)),
        ("faults", "Faults", _faults_section(agg, written, base)),
        ("games", "Games",
         f"<p class=note>{len(written):,} game(s) have a replay page in <code>{REPLAY_DIR}/</code> (up to half of "
         "them games with faults, the others spread over the schedule); for any other game, the command shown "
         "writes one.</p>" + limited
         + '<div class="gamebar"><label>filter <input id="game-filter" type="search" '
           'placeholder="job or bot"></label> <span id="game-count"></span> '
           '<button type="button" id="game-prev">◀ previous</button> <button type="button" id="game-next">next ▶'
           '</button></div><table id="games-table"><thead><tr><th>#</th><th class="l">job</th><th>table</th>'
           '<th>deal</th><th>seating</th><th class="l">bots: score (rank)</th><th>faults</th><th>s</th>'
           '<th class="l">links</th></tr></thead><tbody></tbody></table>'),
        ("config", "Effective config", f"<pre>{_esc(effective)}</pre>"),
        ("environment", "Environment", _environment_section(run, report_env)),
    ]
    nav = " ".join(f'<a href="#{sid}">{_esc(title)}</a>' for sid, title, _ in sections)
    body = "".join(f'<section id="{sid}"><h2>{_esc(title)}</h2>{content}</section>' for sid, title, content in sections)
    data = _games_data(listed, len(games), written, names, base)
    fact_html = "".join(f"<div><b>{_esc(v)}</b><span>{_esc(k)}</span></div>" for k, v in facts)
    page = ((page_head("trickcore report") + _BODY).replace("{{TITLE}}", _esc(f"{tname} – trickcore tournament report"))
            .replace("{{NAME}}", _esc(tname))
            .replace("{{SUBTITLE}}", subtitle)
            .replace("{{FACTS}}", fact_html)
            .replace("{{NAV}}", nav)
            .replace("{{CSS}}", CARD_CSS + REPORT_CSS)
            .replace("{{SYMBOLS}}", CARD_SYMBOLS)
            .replace("{{JS}}", REPORT_JS)
            .replace("{{BODY}}", body)
            .replace("{{DATA}}", _json_for_script(data))
            .replace("{{GENERATED}}", _esc(f"made {report_env['started']} by trickcore {report_env['trickcore']} "
                                           f"in {time.perf_counter() - t0:.2f} s")))
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(page, encoding="utf-8")
    os.replace(tmp, path)
    return ReportResult(path, len(games), len(written), time.perf_counter() - t0, path.stat().st_size)


# The page after page_head() (tournament/html_assets.py).
_BODY = """<header>
  <h1>{{NAME}}</h1>
  <p class="sub">{{SUBTITLE}}</p>
  <div class="facts">{{FACTS}}</div>
  <nav>{{NAV}}</nav>
</header>
<main>{{BODY}}</main>
<footer class="note">{{GENERATED}}</footer>
<script type="application/json" id="games-data">{{DATA}}</script>
<script>{{JS}}</script>
</body>
</html>
"""


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
