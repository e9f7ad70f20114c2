"""Measure the HTML report of a large run: size of the file, time to write it, and time until the
page is ready in headless Chromium (docs/tournament.md, "The HTML report").

    python tools/report_scale.py runs/demo /tmp/big --games 100000

The large run is synthesized from a real one: its records are repeated, each copy with its own
index, job id, deal number and seed, and the result's scores rotated over the seats (ranks
recomputed), so standings, ratings and the pairwise table have real work to do; every record
keeps its actions and history, so results.jsonl has the size of a real run of that many games.
The copies are not the games of any schedule (their seeds are the source's), so the report is
written without checking the records against the run's schedule (``verify=False``).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "tournament")]

from tournament.report import write_report  # noqa: E402
from tournament.results import RESULTS_FILE, read_results  # noqa: E402


def synthesize(source: Path, out: Path, games: int) -> int:
    out.mkdir(parents=True, exist_ok=True)
    for name in ("run.json", "config.toml", "summary.json"):
        if (source / name).exists():
            shutil.copy(source / name, out / name)
    records = [r for r in read_results(source) if r.get("status") == "played"]
    per_deal = max(1, max(r["seating"] for r in records) + 1)
    size = 0
    with open(out / RESULTS_FILE, "wb") as fh:
        for i in range(games):
            rec = dict(records[i % len(records)])
            scores = list(rec["result"]["scores"])
            turn = (i // len(records)) % len(scores)
            scores = scores[turn:] + scores[:turn]
            deal = i // per_deal
            rec.update(index=i, job=f"t0-d{deal}-s{i % per_deal}", deal=deal, seating=i % per_deal,
                       seed=(rec["seed"] + i) % 2**63,
                       result={"scores": scores, "ranks": [1 + sum(t > s for t in scores) for s in scores]})
            if i >= len(records):
                rec["transcript"] = None
            line = orjson.dumps(rec) + b"\n"
            size += len(line)
            fh.write(line)
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a real run's output folder")
    parser.add_argument("out", type=Path, help="where to write the large run")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--reuse", action="store_true", help="keep an existing results.jsonl in OUT")
    parser.add_argument("--open-only", action="store_true",
                        help="only time opening OUT/report.html (or OUT, a page such as a replay)")
    args = parser.parse_args()
    if args.open_only:
        return _open(args.out if args.out.suffix == ".html" else args.out / "report.html")
    if not (args.reuse and (args.out / RESULTS_FILE).exists()):
        t = time.perf_counter()
        size = synthesize(args.source, args.out, args.games)
        print(f"results.jsonl: {args.games:,} games, {size / 2**20:,.0f} MiB, "
              f"written in {time.perf_counter() - t:.1f} s")
    result = write_report(args.out, verify=False)
    print(f"report.html: {result.size / 1024:,.0f} KiB, {result.replays} replay pages, written in "
          f"{result.seconds:.1f} s")
    _open(result.path)


def _open(path: Path) -> None:
    """Open the page three times in headless Chromium and print the browser's own timings."""
    from browser import Browser, missing_reason

    if missing_reason():
        print(f"no browser: {missing_reason()}")
        return
    browser = Browser()
    try:
        for attempt in range(3):
            browser.driver.get("about:blank")
            browser.open(path)
            timing = browser.js("""
                const n = performance.getEntriesByType('navigation')[0];
                const r = performance.getEntriesByName('trickcore-ready')[0];
                const p = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint');
                return {dom: n.domContentLoadedEventEnd, load: n.loadEventEnd, ready: r ? r.startTime : null,
                        paint: p ? p.startTime : null};""")
            paint = f"first contentful paint {timing['paint']:.0f} ms, " if timing["paint"] else ""
            print(f"open {attempt + 1}: {path.stat().st_size / 1024:,.0f} KiB; {paint}scripts done "
                  f"{timing['ready'] or 0:.0f} ms, load event {timing['load']:.0f} ms; errors {browser.errors()}")
    finally:
        browser.close()


if __name__ == "__main__":
    main()
