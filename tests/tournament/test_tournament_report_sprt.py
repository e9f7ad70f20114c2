"""The report of a paired run: its margin A - B at the top, and the SPRT section when the run
folder holds ``sprt.json`` (the decision, the hypotheses, the bounds, the LLR path as SVG); a
report made while the run is still writing its records; the page replaced whole.

The runs are real (the bundled heuristic and random bots at the toy trick-taking game); each
``sprt.json`` is written as the runner writes it, from a real test (tournament.sprt.sprt_status) fed
the run's own samples: the mean margin of each deal, in deal order."""

from __future__ import annotations

import collections
import html
import html.parser
import json
import random
import re
import shutil
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.tournament.report_fixtures import real_run
from tests.tournament.support import bot_cmd, quick_doc
from tournament.config import parse_config
from tournament.report import REPORT_FILE, report_command, write_report
from tournament.report_data import SprtRecord
from tournament.report_page import LLR_OVERSHOOT, LLR_PATH_POINTS, llr_envelope, sprt_chart
from tournament.results import RESULTS_FILE
from tournament.runner import run_tournament
from tournament.sequential import SPRT_FILE
from tournament.sprt import SprtSpec, sprt_status

DEALS = 8


def paired_run(out: Path, a: str = "new", b: str = "old", deals: int = DEALS) -> Path:
    """A paired run of the toy game for two players: A the bundled heuristic bot, B the random bot,
    the heuristic as filler; ``deals`` deals under 2 seatings, so 4 games a deal."""
    bots = [{"name": a, "command": bot_cmd("heuristic_bot.py"), "options": {"seed": 1}},
            {"name": b, "command": bot_cmd("random_bot.py"), "options": {"seed": 2}}]
    doc = quick_doc(bots, fmt="paired", deals=deals)
    doc["tournament"]["candidates"] = [a, b]
    doc["tournament"]["concurrency"] = 2
    summary = run_tournament(parse_config(doc), out)
    assert summary.played == summary.total == 4 * deals and not summary.errors
    return out


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    return paired_run(tmp_path_factory.mktemp("paired") / "run")


@pytest.fixture
def run(finished_run, tmp_path) -> Path:
    """A copy of the finished run for one test to add files to and write reports in."""
    return Path(shutil.copytree(finished_run, tmp_path / "run"))


def deal_margins(run: Path) -> list[float]:
    """The samples the runner's sequential test takes: per deal, in deal order, the mean margin of
    its pairs (pairs.json)."""
    by_deal = collections.defaultdict(list)
    for row in json.loads((run / "pairs.json").read_text())["pairs"]:
        by_deal[row["deal"]].append(row["margin"])
    return [statistics.fmean(by_deal[deal]) for deal in sorted(by_deal)]


def write_sprt(run: Path, spec: SprtSpec, samples: list[float], stopped_early: bool = False,
               candidates: tuple[str, str] = ("new", "old")) -> dict:
    """sprt.json as the runner writes it: the test after ``samples`` with its LLR path."""
    pairs = json.loads((run / "pairs.json").read_text())["pairs"]
    doc = {"spec": spec.to_dict(), "status": sprt_status(spec, samples, path=True).to_dict(),
           "candidates": list(candidates), "games_played": 2 * len(pairs), "pairs": len(pairs),
           "deals": len(samples), "stopped_early": stopped_early}
    (run / SPRT_FILE).write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return doc


def report(run: Path) -> str:
    return write_report(run, replays=0).path.read_text(encoding="utf-8")


def section(page: str, sid: str) -> str:
    m = re.search(rf'<section id="{sid}">.*?</section>', page, re.S)
    assert m, sid
    return m.group(0)


def text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def svg_points(d: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d)]


# ---- the SPRT section --------------------------------------------------------------------------

@pytest.mark.parametrize(("m0", "m1", "decision"), [(-2, 0, "H1"), (1, 3, "H0")])
def test_a_decided_test_shows_its_decision_bounds_and_llr_path(run, m0, m1, decision):
    samples = deal_margins(run)
    assert len(samples) == DEALS
    spec = SprtSpec(m0=m0, m1=m1, min_samples=4)
    doc = write_sprt(run, spec, samples, stopped_early=True)
    status = doc["status"]
    # The run's margins decide this spec, and deals came in after the decision.
    assert status["decision"] == decision and 4 <= status["decided_at"] < DEALS, status
    page = report(run)
    assert '<a href="#sprt">SPRT</a>' in page
    sprt = section(page, "sprt")
    shown = text(sprt)
    at = status["decided_at"]
    if decision == "H1":
        assert f"H1 accepted after {at} deals: new − old ≥ 0" in shown
        assert "in about 5% of runs (alpha) where in truth new − old = -2" in shown
    else:
        assert f"H0 accepted after {at} deals: new − old ≤ 1" in shown
        assert "in about 5% of runs (beta) where in truth new − old = 3" in shown
    assert f"H0new − old ≤ {m0}" in shown and f"H1new − old ≥ {m1}" in shown
    assert "H0 accepted at LLR ≤ -2.944, H1 at LLR ≥ +2.944" in shown
    path = status["llr_path"]
    assert f"LLR{status['llr']:+.3f} (at the decision: {path[at - 1]:+.3f})" in shown
    # The run's margin, as the summary and the paired line at the top give it (Student's t over
    # the deals), not a second figure.
    margin = json.loads((run / "summary.json").read_text())["paired_margin"]
    assert margin["deals"] == status["samples"] and margin["mean"] == pytest.approx(statistics.fmean(samples))
    assert (f"mean margin{margin['mean']:+.2f} ± {margin['ci95']:.2f} (95%: Student's t over the {DEALS} deals "
            f"with a complete pair)") in shown
    assert f"{margin['mean']:+.2f} ± {margin['ci95']:.2f} points per game" in text(page)
    assert f"deals counted{DEALS} (no decision before 4)" in shown
    assert f"pairs complete{2 * DEALS}" in shown and f"games played{4 * DEALS}" in shown
    assert "stopped earlyyes" in shown
    # The chart: both bounds, the path from 0 through every deal, the decision on it.
    assert re.search(r'<svg class="chart" id="llr-chart"', sprt)
    bounds = dict(re.findall(r'<line [^>]*y1="([\d.]+)"[^>]*class="bound (h[01])"', sprt))
    assert set(bounds.values()) == {"h0", "h1"}
    y_of = {kind: float(y) for y, kind in bounds.items()}
    d = re.search(r'<path d="([^"]+)" class="llr">', sprt)
    assert d and d.group(1).startswith("M")
    points = svg_points(d.group(1))
    assert len(points) == DEALS + 1 and points == sorted(points)
    circle = re.search(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="5" class="decided"><title>([^<]*)</title>', sprt)
    assert circle and points[at] == (float(circle.group(1)), float(circle.group(2)))
    assert circle.group(3) == f"{decision} accepted after {at} deals: LLR {path[at - 1]:+.3f}"
    crossed = y_of["h1"] if decision == "H1" else y_of["h0"]
    assert (points[at][1] <= crossed) if decision == "H1" else (points[at][1] >= crossed)  # SVG's y grows down
    assert (points[at - 1][1] > crossed) if decision == "H1" else (points[at - 1][1] < crossed)


def test_an_undecided_test(run):
    samples = deal_margins(run)
    spec = SprtSpec(m0=-1, m1=1, min_samples=4)
    doc = write_sprt(run, spec, samples)
    assert doc["status"]["decision"] is None
    sprt = section(report(run), "sprt")
    shown = text(sprt)
    assert f"Undecided after {DEALS} deals. The LLR has reached neither bound." in shown
    assert "(at the decision" not in shown and "stopped earlyno" in shown
    assert 'class="decision undecided"' in sprt and 'class="decided"' not in sprt
    assert len(svg_points(re.search(r'<path d="([^"]+)" class="llr">', sprt).group(1))) == DEALS + 1


def test_before_min_samples_the_llr_may_pass_a_bound_without_a_decision(run):
    samples = deal_margins(run)
    doc = write_sprt(run, SprtSpec(m0=0, m1=2), samples)      # min_samples 50
    status = doc["status"]
    assert status["decision"] is None and status["llr"] < status["lower"]
    shown = text(section(report(run), "sprt"))
    assert f"Undecided after {DEALS} deals. The test decides nothing before 50 deals." in shown
    assert "(no decision before 50)" in shown


def test_a_test_with_no_deal_counted_yet(run):
    write_sprt(run, SprtSpec(m0=0, m1=2), [])
    sprt = section(report(run), "sprt")
    shown = text(sprt)
    assert "Undecided after 0 deals. The test decides nothing before 50 deals." in shown
    assert "No deal counted yet" in shown and "<svg" not in sprt
    margin = json.loads((run / "summary.json").read_text())["paired_margin"]
    assert f"mean margin{margin['mean']:+.2f} ± {margin['ci95']:.2f} (95%" in shown   # the run's, over its pairs


def test_the_chart_clamps_and_thins_a_long_path():
    """A long test: its path is drawn with at most about LLR_PATH_POINTS points, still reaches
    the bound it crossed, and stays inside the chart however far the LLR went."""
    rng = random.Random(7)
    margins = [float(round(rng.gauss(3.0, 10.0))) for _ in range(3000)]  # whole points, as scores are
    spec = SprtSpec(m0=0, m1=2)
    status = sprt_status(spec, margins, path=True)
    assert status.decision == "H1" and status.llr > status.upper * 4  # far past the bound at the end
    chart = sprt_chart(SprtRecord(spec, status, ("new", "old"), 3000, 3000 * 4, 3000 * 8, False))
    assert chart is not None
    points = svg_points(chart["path"])
    assert len(points) <= LLR_PATH_POINTS + 2 and points == sorted(points)
    top, bottom = chart["top"], chart["top"] + chart["ph"]
    assert all(top - 0.05 <= y <= bottom + 0.05 for _, y in points) and min(y for _, y in points) == pytest.approx(top)
    assert chart["clamped"]
    upper_y = float(chart["bounds"][0]["y"])
    reach = LLR_OVERSHOOT * (status.upper - status.lower)
    assert upper_y == pytest.approx(top + reach / (status.upper - status.lower + 2 * reach) * chart["ph"], abs=0.1)
    decided_x = float(chart["decided"]["x"])
    stretch = chart["pw"] / (LLR_PATH_POINTS // 2)      # the width of the samples one pair of points stands for
    assert any(abs(x - decided_x) <= stretch and y <= upper_y for x, y in points)


def test_llr_envelope_keeps_every_excursion():
    rng = random.Random(3)
    path, llr = [], 0.0
    for _ in range(10_000):
        llr += rng.gauss(0.0, 0.2)
        path.append(llr)
    points = llr_envelope(path, 600)
    assert len(points) <= 601 and [i for i, _ in points] == sorted({i for i, _ in points})
    assert all(path[i - 1] == v for i, v in points)
    assert max(v for _, v in points) == max(path) and min(v for _, v in points) == min(path)
    assert points[-1] == (10_000, path[-1])
    # Every stretch of 1/300 of the path keeps its own extremes.
    for k in range(300):
        stretch = path[k * 10_000 // 300:(k + 1) * 10_000 // 300]
        assert max(stretch) in [v for _, v in points] and min(stretch) in [v for _, v in points]
    short = path[:50]
    assert llr_envelope(short, 600) == [(i + 1, v) for i, v in enumerate(short)]


# ---- the paired margin, and runs without a test ----------------------------------------------

def test_a_paired_run_shows_its_margin_and_no_sprt_section_without_sprt_json(run):
    page = report(run)
    assert '<section id="sprt">' not in page and 'href="#sprt"' not in page
    margin = json.loads((run / "summary.json").read_text())["paired_margin"]
    line = re.search(r'<p class="paired" id="paired-margin">(.*?)</p>', page, re.S)
    assert line, "no paired margin"
    assert text(line.group(1)) == (
        f"Paired margin new − old: {margin['mean']:+.2f} ± {margin['ci95']:.2f} points per game (95% interval over "
        f"{DEALS} deals), from {2 * DEALS} of {2 * DEALS} pairs; the interval "
        f"{'excludes' if abs(margin['mean']) > margin['ci95'] else 'includes'} zero.")
    assert page.index('id="paired-margin"') < page.index('<section id="standings">')


def test_a_run_of_another_format_has_neither(tmp_path_factory):
    out, result = real_run(tmp_path_factory)           # duplicate, as the report's own tests run it
    assert result.exit_code == 0, result.output
    page = (out / REPORT_FILE).read_text(encoding="utf-8")
    assert '<section id="sprt">' not in page and 'id="paired-margin"' not in page


def test_names_in_the_sprt_section_are_text(tmp_path):
    """Candidates named like markup are shown as their names, in the margin line and in the
    section, and make no element or script."""
    a, b = "</script><script/id=evil-a>alert(1)</script>", "<x-evil/id=evil-b>"  # bot names have no spaces
    out = paired_run(tmp_path / "run", a, b, deals=1)
    write_sprt(out, SprtSpec(m0=0, m1=2, min_samples=1), deal_margins(out), candidates=(a, b))
    page = report(out)

    class Tags(html.parser.HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: list[tuple[str, dict]] = []

        def handle_starttag(self, tag, attrs):
            self.tags.append((tag, dict(attrs)))

    parser = Tags()
    parser.feed(page)
    assert [t for t, _ in parser.tags].count("script") == 2      # the games' data and report.js
    assert not [t for t, _ in parser.tags if t == "x-evil"]
    assert not [attrs for _, attrs in parser.tags if str(attrs.get("id", "")).startswith("evil")]
    sprt = text(section(page, "sprt"))
    assert f"SPRT: is {a} better than {b}?" in sprt and f"{a} − {b} ≤ 0" in sprt
    assert f"Paired margin {a} − {b}:" in text(re.search(r'<p class="paired".*?</p>', page, re.S).group(0))


# ---- a run in progress -----------------------------------------------------------------------

def test_a_report_while_the_run_writes_its_records(run):
    """What the folder holds in the middle of a run: the records so far, the last one cut off
    mid-line, no summary, standings or pairs yet; the report shows the whole records."""
    for name in ("summary.json", "standings.json", "standings.csv", "pairs.json", "pairs.csv", "deals.json",
                 "deals.csv"):
        (run / name).unlink()
    results = run / RESULTS_FILE
    lines = results.read_bytes().splitlines(keepends=True)
    last = json.loads(lines[-1])
    results.write_bytes(b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    page = report(run)
    games = json.loads(re.search(r'<script type="application/json" id="games-data">(.*?)</script>', page,
                                 re.S).group(1))
    assert games["total"] == 4 * DEALS - 1 and last["job"] not in [row[1] for row in games["rows"]]
    # The pair of the game cut off is not complete yet.
    line = text(re.search(r'<p class="paired".*?</p>', page, re.S).group(0))
    assert f"from {2 * DEALS - 1} of {2 * DEALS} pairs" in line


@pytest.mark.parametrize(("name", "damage", "message"), [
    ("summary.json", lambda text: text[: len(text) // 2], "summary.json: not JSON"),
    (SPRT_FILE, lambda text: text[: len(text) // 2], "sprt.json: not the sequential test the runner writes"),
    (SPRT_FILE, lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "status"}),
     "status: missing (a table)"),
    (SPRT_FILE, lambda text: json.dumps({**json.loads(text), "deals": 3}),
     "status.samples: is 8 and deals 3: the samples of the test are deals"),
])
def test_a_file_that_cannot_be_read_is_a_report_error(run, name, damage, message):
    write_sprt(run, SprtSpec(m0=-1, m1=1, min_samples=4), deal_margins(run))
    path = run / name
    path.write_text(damage(path.read_text(encoding="utf-8")), encoding="utf-8")
    result = CliRunner().invoke(report_command, [str(run), "--replays", "0"])
    assert result.exit_code == 2 and result.exception is not None and isinstance(result.exception, SystemExit)
    assert result.output.startswith("error: ") and str(path) in result.output and message in result.output


def test_the_page_is_replaced_whole(run):
    """A reader holding the old page (a browser loading it) reads all of it; the new page takes
    its name in one step; nothing is left beside it."""
    write_report(run, replays=0)
    path = run / REPORT_FILE
    with open(path, "rb") as old:
        first = old.read(100)
        before = path.stat()
        write_sprt(run, SprtSpec(m0=-1, m1=1, min_samples=4), deal_margins(run))
        write_report(run, replays=0)
        rest = old.read()
    old_page = (first + rest).decode("utf-8")
    assert old_page.rstrip().endswith("</html>") and '<section id="sprt">' not in old_page
    new_page = path.read_text(encoding="utf-8")
    assert '<section id="sprt">' in new_page and new_page.rstrip().endswith("</html>")
    assert path.stat().st_ino != before.st_ino
    assert sorted(p.name for p in run.iterdir() if p.name.startswith(".") or p.suffix == ".tmp") == []
