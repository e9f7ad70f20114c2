"""The report's page: what each section of ``report.html`` shows, computed from the run's
aggregates (tournament/report.py), and rendered by the template ``templates/report.html.j2``.

The charts are SVG drawn by the template from the geometry computed here (coordinates as
formatted numbers, labels as text the template escapes), so no markup is written in Python.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tournament.pages import render

if TYPE_CHECKING:
    from tournament.paired import PairedMargin
    from tournament.report_data import Aggregates, Game, PairedResult, SprtRecord

#: The charts' colours, one per bot in standings order.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
#: Faults listed per class at most (all are in results.jsonl).
FAULTS_LISTED = 100
#: Points of the LLR path drawn at most, about (a longer path is reduced to the lowest and the
#: highest LLR of each stretch of samples: llr_envelope).
LLR_PATH_POINTS = 600
#: How far beyond its bounds the LLR chart reaches, as a share of the distance between them: a
#: path that runs further is drawn along that edge, so that the bounds keep their place on the
#: chart however far the LLR went after the decision.
LLR_OVERSHOOT = 0.1


def fmt(x: float | None, digits: int = 2) -> str:
    """A figure as the report prints it: whole numbers without decimals, "–" for none."""
    if x is None:
        return "–"
    if abs(x - round(x)) < 1e-9 and abs(x) < 1e15:
        return str(int(round(x)))
    return f"{x:.{digits}f}"


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    x = math.ceil(lo / step) * step
    ticks = []
    while x <= hi + 1e-9:
        ticks.append(round(x, 10))
        x += step
    return ticks


def _f1(x: float) -> str:
    return f"{x:.1f}"


def _deals(n: int) -> str:
    return f"{n:,} deal{'' if n == 1 else 's'}"


def _percent(share: float) -> str:
    """0.05 as "5%", 0.025 as "2.5%"."""
    return f"{100 * share:.4g}%"


# ---- charts ---------------------------------------------------------------------------------

def histograms(agg: Aggregates, colours: dict[str, str]) -> list[dict[str, Any]]:
    """One small histogram per bot over a common score axis: share of its games per bin, its mean
    (line) and the mean's 95% interval (band)."""
    every = [x for values in agg.scores.values() for x in values]
    if not every:
        return []
    lo, hi = min(every), max(every)
    integral = all(float(x).is_integer() for x in set(every))
    if integral and hi - lo <= 40:
        edges = [lo - 0.5 + i for i in range(int(hi - lo) + 2)]
    else:
        width = (hi - lo) / 30 or 1.0
        edges = [lo + i * width for i in range(31)]
    nb = len(edges) - 1
    span = edges[-1] - edges[0] or 1.0
    shares: dict[str, list[float]] = {}
    for bot, values in agg.scores.items():
        counts = [0] * nb
        for x in values:
            counts[min(nb - 1, max(0, int((x - edges[0]) / span * nb)))] += 1
        shares[bot] = [c / len(values) if values else 0.0 for c in counts]
    top = max((max(s) for s in shares.values() if s), default=1.0) or 1.0
    w, h, left, bottom = 330, 130, 34, 22
    pw, ph = w - left - 8, h - bottom - 18

    def sx(v: float) -> float:
        return left + (v - edges[0]) / span * pw

    out = []
    for s in agg.standings:
        bot, bw = s.name, pw / nb
        bars = []
        for i, share in enumerate(shares[bot]):
            if share > 0:
                bh = share / top * ph
                a, b = edges[i], edges[i + 1]
                label = fmt((a + b) / 2) if integral and hi - lo <= 40 else f"{fmt(a)} to {fmt(b)}"
                bars.append({"x": _f1(left + i * bw + 0.5), "y": _f1(18 + ph - bh), "w": _f1(max(0.5, bw - 1)),
                             "h": _f1(bh), "title": f"score {label}: {100 * share:.1f}% of games"})
        band = None
        if s.mean_score is not None and s.ci95 is not None:
            x0, x1 = sx(s.mean_score - s.ci95), sx(s.mean_score + s.ci95)
            band = {"x": _f1(x0), "w": _f1(max(1.0, x1 - x0)), "title": f"95% interval of the mean: ±{fmt(s.ci95)}"}
        out.append({"bot": bot, "colour": colours[bot], "w": w, "h": h, "left": left, "pw": pw, "ph": ph,
                    "caption": f"{bot} — {len(agg.scores[bot])} games, mean {fmt(s.mean_score)}",
                    "band": band, "bars": bars, "mean": None if s.mean_score is None else _f1(sx(s.mean_score)),
                    "ticks": [(_f1(sx(t)), fmt(t)) for t in nice_ticks(lo, hi, 5)], "top": f"{100 * top:.0f}%"})
    return out


def rating_chart(agg: Aggregates, colours: dict[str, str]) -> dict[str, Any] | None:
    """mu (line) and mu ± sigma (band) of every bot against the games it has played."""
    curves = {b: c for b, c in agg.curves.items() if len(c) > 1}
    if not curves:
        return None
    w, h, left, right, top, bottom = 900, 340, 50, 150, 12, 34
    pw, ph = w - left - right, h - top - bottom
    xmax = max(c[-1][0] for c in curves.values()) or 1
    lo = min(mu - sg for c in curves.values() for _, mu, sg in c)
    hi = max(mu + sg for c in curves.values() for _, mu, sg in c)

    def sx(g: float) -> float:
        return left + g / xmax * pw

    def sy(v: float) -> float:
        return top + (hi - v) / ((hi - lo) or 1) * ph

    ordered = [s.name for s in sorted(agg.standings, key=lambda s: -s.mu) if s.name in curves]
    lines = []
    for i, bot in enumerate(ordered):
        c = curves[bot]
        upper = " ".join(f"{sx(g):.1f},{sy(mu + sg):.1f}" for g, mu, sg in c)
        lower = " ".join(f"{sx(g):.1f},{sy(mu - sg):.1f}" for g, mu, sg in reversed(c))
        _, mu, sg = c[-1]
        lines.append({"bot": bot, "colour": colours[bot], "band": f"{upper} {lower}",
                      "line": " ".join(f"{sx(g):.1f},{sy(mu):.1f}" for g, mu, _ in c),
                      "key_y": top + 14 + i * 18, "key": f"{bot} {mu:.1f}±{sg:.1f}"})
    return {"w": w, "h": h, "left": left, "pw": pw, "ph": ph, "top": top, "lines": lines,
            "yticks": [(_f1(sy(t)), _f1(sy(t) + 4), fmt(t, 1)) for t in nice_ticks(lo, hi, 6)],
            "xticks": [(_f1(sx(t)), fmt(t)) for t in nice_ticks(0, xmax, 8)]}


def forest(agg: Aggregates, colours: dict[str, str]) -> dict[str, Any] | None:
    """Each bot's mean score with its 95% interval on one axis."""
    rows = [s for s in agg.standings if s.mean_score is not None]
    if not rows:
        return None
    lo = min((s.mean_score or 0.0) - (s.ci95 or 0) for s in rows)
    hi = max((s.mean_score or 0.0) + (s.ci95 or 0) for s in rows)
    w, left, row = 520, 120, 20
    h = 26 + row * len(rows)
    pw = w - left - 12

    def sx(v: float) -> float:
        return left + (v - lo) / ((hi - lo) or 1) * pw

    items = []
    for i, s in enumerate(rows):
        m, ci = s.mean_score or 0.0, s.ci95 or 0.0
        items.append({"name": s.name, "colour": colours[s.name], "y": 14 + i * row, "x0": _f1(sx(m - ci)),
                      "x1": _f1(sx(m + ci)), "xm": _f1(sx(m)), "title": f"{s.name}: {fmt(m)} ± {fmt(s.ci95)}"})
    return {"w": w, "h": h, "left": left, "rows": items, "ticks": [(_f1(sx(t)), fmt(t)) for t in nice_ticks(lo, hi, 6)]}


def llr_envelope(path: Sequence[float], limit: int) -> list[tuple[int, float]]:
    """``(samples, LLR)`` points to draw ``path``, the LLR after each sample: every one when there
    are at most ``limit``; otherwise, for each of ``limit // 2`` stretches of consecutive samples,
    its lowest and its highest LLR in the order they came, and the last LLR.  Unlike every k-th
    point, this keeps every excursion of the path, and the sample where it crossed a bound."""
    n = len(path)
    if n <= limit:
        return [(i + 1, v) for i, v in enumerate(path)]
    stretches = max(1, limit // 2)
    points = []
    for k in range(stretches):
        indices = range(k * n // stretches, (k + 1) * n // stretches)
        lowest = min(indices, key=path.__getitem__)
        highest = max(indices, key=path.__getitem__)
        points += [(i + 1, path[i]) for i in sorted({lowest, highest})]
    if points[-1][0] != n:
        points.append((n, path[-1]))
    return points


def sprt_chart(record: SprtRecord) -> dict[str, Any] | None:
    """The LLR after each deal the test counted against the number of deals, with its two bounds;
    the stretch before ``min_samples``, where the test decides nothing, shaded; the decision
    marked.  None before the first sample (or when the file holds no path)."""
    status, spec = record.status, record.spec
    path = status.llr_path
    if not path:
        return None
    lower, upper = status.lower, status.upper
    reach = LLR_OVERSHOOT * (upper - lower)
    lo, hi = lower - reach, upper + reach
    w, h, left, right, top, bottom = 900, 300, 50, 190, 12, 34
    pw, ph = w - left - right, h - top - bottom
    n = len(path)

    def sx(samples: float) -> float:
        return left + samples / n * pw

    def sy(llr: float) -> float:
        return top + (hi - min(hi, max(lo, llr))) / (hi - lo) * ph

    points = [(0, 0.0), *llr_envelope(path, LLR_PATH_POINTS)]  # the LLR is 0 before the first sample
    line = "M" + " L".join(f"{sx(i):.1f},{sy(v):.1f}" for i, v in points)
    decided = None
    if status.decision is not None and status.decided_at is not None:  # within the path: read_sprt checks it
        llr = path[status.decided_at - 1]
        decided = {"x": _f1(sx(status.decided_at)), "y": _f1(sy(llr)),
                   "title": f"{status.decision} accepted after {_deals(status.decided_at)}: LLR {llr:+.3f}"}
    bounds = [{"y": _f1(sy(upper)), "label": f"upper {upper:+.3f}: H1 accepted", "kind": "h1"},
              {"y": _f1(sy(lower)), "label": f"lower {lower:+.3f}: H0 accepted", "kind": "h0"}]
    return {"w": w, "h": h, "left": left, "pw": pw, "ph": ph, "top": top, "path": line, "bounds": bounds,
            "decided": decided, "clamped": any(v > hi or v < lo for v in path),
            "early_w": _f1(sx(min(n, spec.min_samples)) - left),
            "early": f"no decision before {_deals(spec.min_samples)}",
            "yticks": [(_f1(sy(t)), _f1(sy(t) + 4), fmt(t, 1)) for t in nice_ticks(lo, hi, 6)],
            "xticks": [(_f1(sx(t)), fmt(t)) for t in nice_ticks(0, n, 8) if float(t).is_integer()]}


# ---- a paired run: is A better than B? ----------------------------------------------------------

def paired_view(paired: PairedResult) -> dict[str, Any]:
    """The margin A - B per game at the top of a paired run's report: its figure, its 95% interval
    over deals and what it rests on."""
    m = paired.margin
    view: dict[str, Any] = {"a": paired.a, "b": paired.b, "scheduled": f"{paired.scheduled:,}", "margin": None}
    if m is not None:
        view["margin"] = {
            "mean": f"{m.mean:+.2f}", "ci95": None if m.ci95 is None else f"{m.ci95:.2f}",
            "deals": f"{m.deals:,}", "pairs": f"{m.pairs:,}",
            "verdict": None if m.ci95 is None else
            "the interval excludes zero" if m.excludes_zero else "the interval includes zero"}
    return view


#: What the samples of the sequential test are, and so the unit of m0, m1 and the mean margin.
SPRT_UNIT = ("score points per deal: the mean, over the deal's seatings, of A's score minus B's, each in its "
             "own game of the deal in the same seat")


def sprt_view(record: SprtRecord, margin: PairedMargin | None = None) -> dict[str, Any]:
    """The sequential test in words: its hypotheses, error rates and bounds, the decision and when
    it came, the LLR, what was played, and the run's margin A - B (``margin``: the one at the top
    of the report, not a second figure over the deals the test counted)."""
    spec, status = record.spec, record.status
    a, b = record.candidates
    difference = f"{a} − {b}"
    decided_at = status.decided_at
    if status.decision == "H1" and decided_at is not None:
        headline = f"H1 accepted after {_deals(decided_at)}: {difference} ≥ {fmt(spec.m1)}"
        meaning = (f"The test gives this answer in about {_percent(spec.alpha)} of runs (alpha) where in truth "
                   f"{difference} = {fmt(spec.m0)}, and more rarely where it is lower.")
    elif status.decision == "H0" and decided_at is not None:
        headline = f"H0 accepted after {_deals(decided_at)}: {difference} ≤ {fmt(spec.m0)}"
        meaning = (f"The test gives this answer in about {_percent(spec.beta)} of runs (beta) where in truth "
                   f"{difference} = {fmt(spec.m1)}, and more rarely where it is higher.")
    else:
        headline = f"Undecided after {_deals(status.samples)}"
        # Before min_samples the LLR may lie beyond a bound without deciding anything.
        meaning = (f"The test decides nothing before {_deals(spec.min_samples)}." if status.samples < spec.min_samples
                   else "The LLR has reached neither bound.")
    llr = f"{status.llr:+.3f}"
    path = status.llr_path
    if decided_at is not None and path and decided_at < len(path):
        # Deals completed by the games that were running at the decision count in the LLR, not in
        # the decision: the LLR then is the one that decided.
        llr += f" (at the decision: {path[decided_at - 1]:+.3f})"
    if margin is None:
        mean = "–"
    elif margin.ci95 is None:
        mean = f"{margin.mean:+.2f} (one deal: no interval)"
    else:
        mean = (f"{margin.mean:+.2f} ± {margin.ci95:.2f} (95%: Student's t over the {margin.deals:,} deals with a "
                f"complete pair)")
    rows = [("H0", f"{difference} ≤ {fmt(spec.m0)}"), ("H1", f"{difference} ≥ {fmt(spec.m1)}"), ("unit", SPRT_UNIT),
            ("alpha", f"{spec.alpha:g}: the rate of accepting H1 where in truth {difference} = {fmt(spec.m0)}"),
            ("beta", f"{spec.beta:g}: the rate of accepting H0 where in truth {difference} = {fmt(spec.m1)}"),
            ("bounds", f"H0 accepted at LLR ≤ {status.lower:+.3f}, H1 at LLR ≥ {status.upper:+.3f}"),
            ("LLR", llr), ("mean margin", mean),
            ("deals counted", f"{status.samples:,} (no decision before {spec.min_samples:,})"),
            ("pairs complete", f"{record.pairs:,}"), ("games played", f"{record.games_played:,}"),
            ("stopped early", "yes: at the decision the run took no new game; the games already running were finished"
                              if record.stopped_early else "no")]
    return {"decision": status.decision, "headline": headline, "meaning": meaning, "rows": rows,
            "question": f"is {a} better than {b}?", "chart": sprt_chart(record)}


# ---- tables ---------------------------------------------------------------------------------

def pair_cells(agg: Aggregates) -> list[tuple[str, list[dict[str, str] | None]]]:
    """Per bot, per opponent: how often it finished ahead (its shade and its text), None on the
    diagonal and for pairs that never met."""
    names = [s.name for s in agg.standings]
    rows = []
    for a in names:
        cells: list[dict[str, str] | None] = []
        for b in names:
            p = agg.pairs.get((a, b))
            if a == b or not p or not p[1]:
                cells.append(None)
                continue
            share = p[0] / p[1]
            cells.append({"style": f"background:hsla({120 if share >= 0.5 else 0},65%,45%,"
                                   f"{min(0.55, abs(share - 0.5) * 1.6):.2f})",
                          "title": f"{a} finished ahead of {b} in {100 * share:.1f}% of {int(p[1])} games (ties "
                                   f"count half); mean score difference {p[2] / p[1]:+.2f}",
                          "share": f"{100 * share:.0f}%", "diff": f"{p[2] / p[1]:+.1f}"})
        rows.append((a, cells))
    return rows


def fault_lists(agg: Aggregates) -> list[dict[str, Any]]:
    """Per fault class: its faults (the first FAULTS_LISTED), each with its game."""
    out = []
    for c in sorted(agg.faults):
        items = agg.faults[c]
        listed = []
        for g, f in items[:FAULTS_LISTED]:
            detail = str(f.get("detail", ""))
            listed.append({"game": g, "seat": f.get("seat"), "bot": f.get("bot"), "outcome": f.get("outcome"),
                           "detail": detail if len(detail) <= 240 else detail[:240] + "…"})
        out.append({"name": c, "count": len(items), "games": len({g.job for g, _ in items}), "listed": listed,
                    "more": max(0, len(items) - FAULTS_LISTED)})
    return out


_ENV_ORDER = ("started", "ended", "command", "played", "resumed", "skipped", "interrupted", "trickcore", "python",
              "packages", "platform", "cpu", "cpus", "cpus_usable", "memory_gib", "host")


def kv_rows(d: dict[str, Any]) -> list[tuple[str, str]]:
    """An environment record as (key, text) rows, the usual keys first."""
    rows = []
    for k in [k for k in _ENV_ORDER if k in d] + [k for k in d if k not in _ENV_ORDER]:
        v = d[k]
        if isinstance(v, dict):
            v = ", ".join(f"{a} {b}" for a, b in v.items() if b is not None)
        rows.append((k, "–" if v is None else str(v)))
    return rows


def render_report(agg: Aggregates, game_links: Callable[[Game], list[tuple[str, str]]],
                  paired: PairedResult | None = None, sprt: SprtRecord | None = None, **page: Any) -> str:
    """The report page: ``page`` holds the run's facts (templates/report.html.j2 names them);
    the sections' contents are computed here from ``agg``, a paired run's margin (``paired``) and
    its sequential test (``sprt``)."""
    colours = {s.name: PALETTE[i % len(PALETTE)] for i, s in enumerate(agg.standings)}
    return render("report.html.j2", generator="trickcore report", agg=agg, fmt=fmt, colours=colours,
                  forest=forest(agg, colours), histograms=histograms(agg, colours),
                  rating_chart=rating_chart(agg, colours), pairs=pair_cells(agg), fault_lists=fault_lists(agg),
                  game_links=game_links, kv_rows=kv_rows, paired=None if paired is None else paired_view(paired),
                  sprt=None if sprt is None else sprt_view(sprt, None if paired is None else paired.margin), **page)
