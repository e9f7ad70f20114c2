"""What the tournament report reads of a run folder and how it sums it up: the records of
``results.jsonl`` reduced to what the report needs (one line at a time; only aggregates are kept),
the standings, score histograms, rating curves, results by seat and opponent, faults by class, a
paired run's margin A - B and its sequential test (tournament/report.py writes the report;
tournament/report_page.py draws it).

A report may be made while the run goes on (the runner rewrites it every few games): a last line
of ``results.jsonl`` still being written is left out (results.ResultsFile), the standings come
from the records rather than from ``standings.json`` or ``summary.json``, which are written at the
end of a run, and a file the report needs that cannot be read is a ReportError naming it."""

from __future__ import annotations

import collections
import dataclasses
import json
from pathlib import Path
from typing import Any

import orjson

from tournament.paired import PairedMargin, PairedResults, PairedShape
from tournament.ratings import BotStanding, _Tally
from tournament.results import MANIFEST_FILE, RESULTS_FILE, ResultsFile, ResumeError, checked_records
from tournament.schedule import candidates_of, paired_rotations
from tournament.sequential import SPRT_FILE
from tournament.sprt import SprtSpec, SprtSpecError, SprtStatus
from tournament.validate import Checker

ENVIRONMENT_FILE = "environment.json"
SUMMARY_FILE = "summary.json"
CURVE_POINTS = 300


class ReportError(RuntimeError):
    """The folder is not a tournament's output (or holds nothing to report)."""


# ---- reading a run -------------------------------------------------------------------------

@dataclasses.dataclass
class Bot:
    name: str


@dataclasses.dataclass
class Shape:
    """What the standings need of a config (the bots, the game and its partnerships), read from
    the run's manifest so that a report can be made wherever the folder is copied to."""

    game_info: Any
    players: int
    bots: list[Bot]


@dataclasses.dataclass
class Game:
    """One game of results.jsonl, without its actions and history."""

    index: int
    job: str
    status: str
    table: int
    deal: int
    seed: int | None
    seating: int
    bots: list[str]
    scores: list[float] | None
    ranks: list[int] | None
    faults: list[dict[str, Any]]
    forfeited: list[int]
    duration: float | None
    transcript: str | None
    started: str | None
    offset: int
    reason: str | None = None


def load_manifest(run: Path) -> dict[str, Any]:
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


def scan(run: Path, verify: bool = True) -> tuple[list[Game], dict[str, dict[str, float]]]:
    """Every record of results.jsonl, reduced to what the report needs, and per bot its think
    and runner-latency sums (the actions are read here and dropped).  Each record is checked
    against the run's schedule as it is read (results.checked_records; ReportError naming the
    line); ``verify=False`` skips that, for folders made up of copied records
    (tools/report_scale.py)."""
    games: list[Game] = []
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
            games.append(Game(index=rec.get("index", len(games)), job=rec.get("job", f"game{len(games)}"),
                               status=rec.get("status", "played"), table=rec.get("table", 0),
                               deal=rec.get("deal", 0), seed=rec.get("seed"), seating=rec.get("seating", 0),
                               bots=list(bots),
                               scores=result.get("scores"), ranks=result.get("ranks"),
                               faults=list(rec.get("faults") or []), forfeited=list(rec.get("forfeited") or []),
                               duration=rec.get("duration_s"), transcript=rec.get("transcript"),
                               started=rec.get("started_at"), offset=start, reason=rec.get("reason")))
    except ResumeError as exc:  # a record that is not the one record of a scheduled game, a missing secret
        raise ReportError(str(exc)) from None
    games.sort(key=lambda g: g.index)
    return games, timing


def read_record(run: Path, offset: int) -> dict[str, Any]:
    with open(run / RESULTS_FILE, "rb") as fh:
        fh.seek(offset)
        return dict(orjson.loads(fh.readline()))


def read_summary(run: Path) -> dict[str, Any]:
    """``summary.json`` (its disqualifications and runner latency), or {} while the run has not
    written it yet (it is written when a run ends)."""
    path = run / SUMMARY_FILE
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except ValueError as exc:
        raise ReportError(f"{path}: not JSON ({exc}); it is written when a run ends: if a run is ending now, make "
                          f"the report again once it has") from None
    if not isinstance(doc, dict):
        raise ReportError(f"{path}: not a run summary (a JSON object)")
    return doc


# ---- a paired run ------------------------------------------------------------------------

@dataclasses.dataclass
class PairedResult:
    """A paired run's margin A - B over its complete pairs so far (None before the first;
    tournament.paired, as the runner computes it for summary.json) and how many
    pairs its schedule holds."""

    a: str
    b: str
    margin: PairedMargin | None
    scheduled: int


def paired_result(config: dict[str, Any], shape: Shape, games: list[Game]) -> PairedResult | None:
    """The margin A - B of a paired run from its records (None for the other formats).

    Computed here rather than read from ``pairs.json`` or ``summary.json``: the runner writes
    those when a run ends, and a report made during the run must show the pairs played so far."""
    tournament = config.get("tournament", {})
    if tournament.get("format") != "paired":
        return None
    try:
        candidates = candidates_of(tournament.get("candidates"))
        deals = int(tournament["deals"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ReportError(f"the run's config is of format 'paired', but its candidates or its number of deals "
                          f"cannot be read ({type(exc).__name__}: {exc})") from None
    if candidates is None:
        raise ReportError("the run's config is of format 'paired' but names no candidates")
    info, players = shape.game_info, shape.players
    seatings = paired_rotations(players, info.teams(players) if info.teams is not None else None)
    results = PairedResults(PairedShape(candidates, deals, len(seatings)),
                            ({"status": g.status, "table": g.table, "deal": g.deal, "seating": g.seating,
                              "seed": g.seed, "job": g.job, "bots": g.bots, "result": {"scores": g.scores}}
                             for g in games if g.scores is not None))
    a, b = results.shape.labels
    return PairedResult(a, b, results.margin(), deals * len(seatings))


# ---- the sequential test of a paired run -------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class SprtRecord:
    """``sprt.json``: a paired run's sequential test and where it stands.

    The samples of the test are deals: a deal's sample is its mean margin A - B over its pairs,
    one per seating, taken once every seating of it has both games (``status.samples`` equals
    ``deals``; ``status.llr_path`` holds the LLR after each of them).  ``pairs`` counts the
    complete pairs and ``games_played`` the games, of the deals counted or not yet;
    ``stopped_early``: the run stopped taking new games at the decision."""

    spec: SprtSpec
    status: SprtStatus
    candidates: tuple[str, str]
    deals: int
    pairs: int
    games_played: int
    stopped_early: bool


def read_sprt(run: Path) -> SprtRecord | None:
    """The run's ``sprt.json``, or None when it has none (no sequential test ran).  A file that is
    not what the runner writes is a ReportError naming every problem under its key
    (tournament/validate.py, as a config's are)."""
    path = run / SPRT_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    unlike = f"{path}: not the sequential test the runner writes"
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ReportError(f"{unlike}: not JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise ReportError(f"{unlike}: not a JSON object")
    c = Checker()
    spec_table = c.table(doc, "spec", required=True)
    status_table = c.table(doc, "status", required=True)
    candidates = c.strings(doc, "candidates", "", count=2, required=True)
    stopped_early = c.boolean(doc, "stopped_early", "", False, required=True)
    deals = c.integer(doc, "deals", "", None, minimum=0, required=True)
    pairs = c.integer(doc, "pairs", "", None, minimum=0, required=True)
    games_played = c.integer(doc, "games_played", "", None, minimum=0, required=True)
    spec = status = None
    if spec_table:
        try:
            spec = SprtSpec.from_toml(spec_table, prefix="spec")
        except SprtSpecError as exc:
            c.problems += exc.problems
    if status_table:
        try:
            status = SprtStatus.from_dict(status_table)
        except KeyError as exc:
            c.error(f"status.{exc.args[0]}", "missing")
        except (ValueError, TypeError) as exc:
            c.error("status", str(exc))
    if status is not None and deals is not None:
        if status.samples != deals:
            c.error("status.samples", f"is {status.samples} and deals {deals}: the samples of the test are deals")
        if (status.decision is None) != (status.decided_at is None) or not (
                status.decided_at is None or 1 <= status.decided_at <= status.samples):
            c.error("status.decided_at", f"{status.decided_at!r} with decision {status.decision!r}: a decision is "
                                         f"taken after a number of samples, at most the {status.samples} there are")
        if status.llr_path is not None and len(status.llr_path) != status.samples:
            c.error("status.llr_path", f"holds {len(status.llr_path)} values for {status.samples} samples (the LLR "
                                       f"after each sample)")
    if c.problems:
        raise ReportError(f"{unlike}: " + "; ".join(c.problems))
    assert spec is not None and status is not None and candidates is not None
    assert deals is not None and pairs is not None and games_played is not None
    return SprtRecord(spec, status, (candidates[0], candidates[1]), deals, pairs, games_played, stopped_early)


# ---- aggregation ---------------------------------------------------------------------------

@dataclasses.dataclass
class Aggregates:
    standings: list[BotStanding]
    curves: dict[str, list[tuple[int, float, float]]]
    scores: dict[str, list[float]]
    seats: dict[str, list[list[float]]]  # bot -> seat -> [sum, games]
    pairs: dict[tuple[str, str], list[float]]  # (a, b) -> [ahead, games, score difference sum]
    faults: dict[str, list[tuple[Game, dict[str, Any]]]]
    fault_counts: dict[str, collections.Counter[str]]


def aggregate(shape: Shape, games: list[Game], timing: dict[str, dict[str, float]],
              disqualified: dict[str, str]) -> Aggregates:
    tally = _Tally(shape)  # type: ignore[arg-type]  # the same standings code as the runner's
    names = [b.name for b in shape.bots]
    raw: dict[str, list[tuple[int, float, float]]] = {n: [(0, tally.ratings[n].mu, tally.ratings[n].sigma)]
                                                      for n in names}
    played_by: collections.Counter[str] = collections.Counter()
    scores: dict[str, list[float]] = {n: [] for n in names}
    seats: dict[str, list[list[float]]] = {n: [[0.0, 0] for _ in range(shape.players)] for n in names}
    pairs: dict[tuple[str, str], list[float]] = collections.defaultdict(lambda: [0.0, 0, 0.0])
    faults: dict[str, list[tuple[Game, dict[str, Any]]]] = collections.defaultdict(list)
    fault_counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
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
                   "fault_counts": seat_fault_counts(g, len(g.bots))})
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
    curves = {n: thin(points, CURVE_POINTS) for n, points in raw.items()}
    return Aggregates(standings, curves, scores, seats, dict(pairs), dict(faults), dict(fault_counts))


def seat_fault_counts(g: Game, n: int) -> list[dict[str, int]]:
    counts: list[dict[str, int]] = [{} for _ in range(n)]
    for f in g.faults:
        seat = f.get("seat")
        if isinstance(seat, int) and 0 <= seat < n:
            counts[seat][f["class"]] = counts[seat].get(f["class"], 0) + 1
    return counts


def thin(points: list[tuple[int, float, float]], limit: int) -> list[tuple[int, float, float]]:
    if len(points) <= limit:
        return points
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


# ---- what the page lists ----------------------------------------------------------------

def when(iso: str) -> str:
    """``2026-01-02T03:04:05.678+00:00`` as ``2026-01-02 03:04:05 UTC`` (records are in UTC)."""
    return iso[:19].replace("T", " ") + (" UTC" if iso.endswith("+00:00") else "")


def pick_games(games: list[Game], limit: int) -> list[Game]:
    if len(games) <= limit:
        return games
    faulty = [g for g in games if g.faults][: limit // 2]
    chosen = {g.job for g in faulty}
    for g in games:
        if len(chosen) >= limit:
            break
        chosen.add(g.job)
    return [g for g in games if g.job in chosen]


def pick_replays(games: list[Game], count: int | None) -> list[Game]:
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


def games_data(games: list[Game], total: int, replays: set[str], bots: list[str], base: str) -> dict[str, Any]:
    rows = []
    index = {b: i for i, b in enumerate(bots)}
    for g in games:
        rows.append([g.index, g.job, g.table, g.deal, g.seating, [index.get(b, -1) for b in g.bots],
                     g.scores, g.ranks, len(g.faults), g.forfeited, g.duration,
                     1 if g.job in replays else 0, g.transcript, g.status if g.status != "played" else None,
                     g.reason])
    return {"bots": bots, "total": total, "rows": rows, "base": base}


def invocations(run: Path) -> list[dict[str, Any]]:
    """The run's invocations as environment.json records them (none for a run made before runs
    recorded them, or by the Python API)."""
    path = run / ENVIRONMENT_FILE
    if not path.exists():
        return []
    try:
        return list(json.loads(path.read_text(encoding="utf-8")).get("invocations", []))
    except (ValueError, AttributeError):
        return []
