"""What the paired format buys: the standard error of the margin A - B under format 'paired'
against today's duplicate tournament, on the same bots and (about) the same number of games.

    python bench/paired_vs_duplicate.py [--games 240] [--only squint] [-j 2] [--search-ms 20] [--out DIR]

For each comparison (the bundled search bot against the heuristic at Squint and at Sticheln, the
heuristic against the random bot in every game, and the heuristic against itself under another
seed at Sticheln and Hattrick -- two versions that differ only in how they break ties, as a new
version that changes little) it runs two real tournaments of the bundled bots,
in this process (``tournament.runner.run_tournament``; the bots are processes over the protocol,
as in any run):

* **duplicate**, as the margin of A over B is found today (configs/search-vs-heuristic-*.toml):
  A against ``players - 1`` copies of B (in a partnership game, A's partnership against B's), every
  deal under every seat rotation; the margin is A's mean score per deal minus the mean of the
  others (``trickcore margin``, tournament.ratings.margin);
* **paired**: candidates A and B against the default fillers (the bundled heuristic bot); the
  margin is A - B over the pairs (tournament.paired.paired_margin).

Both standard errors are taken over deals (the games of one deal share their cards), as the 95%
intervals of the standings and of ``trickcore margin`` are.  The games-ratio column is the share
of duplicate's games that paired needs for an interval of the same width:
``(SE_paired^2 * games_paired) / (SE_duplicate^2 * games_duplicate)`` (the variance of a mean falls
as one over the games); below 0.5, paired needs at most half the games.  The two margins measure
different things -- A against copies of B, or A in B's place against heuristic fillers -- so the
table shows both, and another column compares the games each needs for the same margin-to-SE
ratio, which is what decides how soon a test tells A from B (shown where both margins are at least
two standard errors from zero).  The last column is the share of pairs whose two games went alike,
move for move: the pairs where A's and B's choices made no difference at all.

The bots run without a sandbox (``sandbox.kind = "none"``, with this checkout first on their
``PYTHONPATH``): they are the bundled ones, and what is measured is statistics, not isolation.  A
standard error estimated from few deals is itself uncertain (about 1/sqrt(2 * deals) relative), so
read the ratio of a small run as a rough figure.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CHECKOUT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(CHECKOUT))

from tournament.config import parse_config  # noqa: E402
from tournament.paired import pair_rows, paired_margin  # noqa: E402
from tournament.ratings import deal_rows, margin, t95  # noqa: E402
from tournament.results import read_results  # noqa: E402
from tournament.runner import run_tournament  # noqa: E402
from tournament.schedule import paired_rotations, seat_rotations  # noqa: E402
from trickcore.games import get_game  # noqa: E402


@dataclasses.dataclass(frozen=True)
class Side:
    """Candidate A or B: a bundled bot, named ``name`` (``name-k`` for its k-th copy or seat),
    its copies seeded from ``seed`` on."""

    name: str
    script: str
    seed: int


SEARCH = Side("search", "search_bot.py", 100)
HEURISTIC = Side("heuristic", "heuristic_bot.py", 200)
RANDOM = Side("random", "random_bot.py", 300)
#: The heuristic bot under another seed: it differs from HEURISTIC only where its policy breaks a
#: tie at random (Sticheln, Hattrick), so the two play the same game until then -- the case of a
#: new version that changes little.
HEURISTIC_RESEEDED = Side("heuristic-reseeded", "heuristic_bot.py", 400)


@dataclasses.dataclass(frozen=True)
class Comparison:
    game: str
    players: int
    a: Side
    b: Side
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        return f"{self.game} {self.players}p"


COMPARISONS = (
    Comparison("squint", 5, SEARCH, HEURISTIC, (("deal_limit", 5),)),
    Comparison("sticheln", 4, SEARCH, HEURISTIC),
    Comparison("beim-jupiter", 4, HEURISTIC, RANDOM),
    Comparison("sticheln", 4, HEURISTIC, RANDOM),
    Comparison("hattrick", 4, HEURISTIC, RANDOM),
    Comparison("squint", 5, HEURISTIC, RANDOM, (("deal_limit", 5),)),
    Comparison("klaberjass", 2, HEURISTIC, RANDOM),
    Comparison("klaberjass", 3, HEURISTIC, RANDOM),
    Comparison("klaberjass", 4, HEURISTIC, RANDOM),
    Comparison("sticheln", 4, HEURISTIC, HEURISTIC_RESEEDED),
    Comparison("hattrick", 4, HEURISTIC, HEURISTIC_RESEEDED),
)


@dataclasses.dataclass
class Measured:
    games: int
    deals: int
    mean: float
    se: float
    seconds: float
    same_play: float | None = None  # paired: the share of pairs whose two games went alike, move for move


def _bot(name: str, script: str, seed: int) -> dict[str, Any]:
    # The bots import the trickcore of this checkout, as the runner does, whatever is installed.
    return {"name": name, "command": ["{python}", f"{{bots}}/{script}"], "options": {"seed": seed},
            "env": {"PYTHONPATH": str(CHECKOUT)}}


def _teams(comparison: Comparison) -> tuple[tuple[int, ...], ...] | None:
    info = get_game(comparison.game)
    return info.teams(comparison.players) if info.teams is not None else None


def _doc(comparison: Comparison, fmt: str, deals: int, bots: list[dict[str, Any]], args: argparse.Namespace,
         seed: int) -> dict[str, Any]:
    return {"game": {"name": comparison.game, "players": comparison.players, "options": dict(comparison.options)},
            "tournament": {"name": f"{comparison.game}-{fmt}", "format": fmt, "deals": deals, "seed": seed,
                           "concurrency": args.concurrency},
            "time": {"decision_ms": args.search_ms, "startup_ms": 20000},
            "records": {"report": False},
            "failures": {"timeout": {"action": "substitute", "forfeit_after": 0}},
            "sandbox": {"kind": "none"}, "bots": bots}


def _se_of(half_width: float | None, groups: int) -> float:
    """The standard error behind a 95% half-width over ``groups`` deal groups (Student t)."""
    return math.nan if half_width is None else half_width / t95(groups - 1)


def run_duplicate(comparison: Comparison, games: int, args: argparse.Namespace, out: Path) -> Measured:
    """A against copies of B (A's partnership against B's), every seat rotation of every deal."""
    teams = _teams(comparison)
    rotations = len(seat_rotations(comparison.players, teams))
    deals = max(2, round(games / rotations))
    a, b = comparison.a, comparison.b
    a_seats = teams[0] if teams else (0,)
    a_names = [f"{a.name}-{k}" for k in range(1, len(a_seats) + 1)]
    # Lineup index i sits in seat i under the first seating: A (its partnership) in the first
    # partnership's seats, copies of B in the others.
    lineup = [_bot(a_names[a_seats.index(seat)], a.script, a.seed + seat) if seat in a_seats
              else _bot(f"{b.name}-{seat + 1}", b.script, b.seed + seat)
              for seat in range(comparison.players)]
    config = parse_config(_doc(comparison, "duplicate", deals, lineup, args, args.seed))
    started = time.monotonic()
    summary = run_tournament(config, out)
    if summary.errors:
        raise RuntimeError(f"{comparison.label} duplicate: {summary.errors[0]}")
    result = margin(deal_rows(config, read_results(out)), a_names)
    return Measured(summary.played, result.groups, result.mean, _se_of(result.ci95, result.groups),
                    time.monotonic() - started)


def run_paired(comparison: Comparison, games: int, args: argparse.Namespace, out: Path) -> Measured:
    """Candidates A and B, heuristic fillers (as the default ones) in the other seats."""
    teams = _teams(comparison)
    seatings = len(paired_rotations(comparison.players, teams))
    deals = max(2, round(games / (2 * seatings)))
    held = len(teams[0]) if teams else 1
    sides = [[f"{side.name}-{k}" for k in range(1, held + 1)] for side in (comparison.a, comparison.b)]
    bots = [_bot(name, side.script, side.seed + k) for side, names in zip((comparison.a, comparison.b), sides)
            for k, name in enumerate(names, 1)]
    # The default fillers (tournament.config.default_fillers), named here to give them the checkout.
    bots += [_bot(f"filler-{k}", HEURISTIC.script, k) for k in range(1, comparison.players - held + 1)]
    doc = _doc(comparison, "paired", deals, bots, args, args.seed)
    doc["tournament"]["candidates"] = [names[0] if held == 1 else names for names in sides]
    config = parse_config(doc)
    started = time.monotonic()
    summary = run_tournament(config, out)
    if summary.errors:
        raise RuntimeError(f"{comparison.label} paired: {summary.errors[0]}")
    records = read_results(out)
    rows = pair_rows(config, records)
    result = paired_margin(rows, *(" + ".join(names) for names in sides))
    history = {r["job"]: r["record"]["history"] for r in records if r["status"] == "played"}
    same = sum(history[row["a_job"]] == history[row["b_job"]] for row in rows) / len(rows)
    return Measured(summary.played, result.deals, result.mean, result.se if result.se is not None else math.nan,
                    time.monotonic() - started, same)


def games_ratio(paired: Measured, duplicate: Measured) -> float:
    """The share of duplicate's games that paired needs for an interval of the same width."""
    return (paired.se ** 2 * paired.games) / (duplicate.se ** 2 * duplicate.games)


def games_ratio_same_z(paired: Measured, duplicate: Measured) -> float | None:
    """The share of duplicate's games that paired needs for the same margin-to-SE ratio: where the two
    formats' margins differ in size, this says which one tells A from B with fewer games.  None when
    either margin is within two standard errors of zero (the ratio would be noise)."""
    if min(abs(paired.mean) / paired.se, abs(duplicate.mean) / duplicate.se) < 2:
        return None
    return ((paired.se / paired.mean) ** 2 * paired.games) / ((duplicate.se / duplicate.mean) ** 2 * duplicate.games)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=240, help="games per format and comparison (about)")
    parser.add_argument("--only", action="append", default=[],
                        help="only comparisons whose game (or 'search', 'random') is named (repeatable)")
    parser.add_argument("-j", "--concurrency", type=int, default=2, help="tables in parallel")
    parser.add_argument("--search-ms", type=float, default=20.0,
                        help="decision_ms: the search bot thinks a share of it (configs/ use 100)")
    parser.add_argument("--seed", default="5eed5eed5eed5eed5eed5eed5eed5eed", help="master seed of every run")
    parser.add_argument("--out", type=Path, help="keep the runs here (default: a temporary folder, removed)")
    args = parser.parse_args(argv)
    chosen = [c for c in COMPARISONS
              if not args.only or any(w in (c.game, c.a.name, c.b.name) for w in args.only)]
    root = args.out or Path(tempfile.mkdtemp(prefix="paired-vs-duplicate-"))
    rows = []
    try:
        for c in chosen:
            name = f"{c.game}-{c.players}p-{c.a.name}-{c.b.name}"
            print(f"... {name}", file=sys.stderr, flush=True)
            duplicate = run_duplicate(c, args.games, args, root / f"{name}-duplicate")
            paired = run_paired(c, args.games, args, root / f"{name}-paired")
            rows.append((c, duplicate, paired))
            print(f"    duplicate {duplicate.games} games in {duplicate.seconds:.0f} s, paired {paired.games} games "
                  f"in {paired.seconds:.0f} s", file=sys.stderr, flush=True)
    finally:
        if args.out is None:
            shutil.rmtree(root, ignore_errors=True)
    print("| game | A vs B | games dup. / paired | deals dup. / paired | margin dup. | margin paired "
          "| SE dup. | SE paired | games-ratio for equal width | for equal margin/SE | pairs played alike |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for c, d, p in rows:
        alike = "-" if p.same_play is None else f"{100 * p.same_play:.0f}%"
        same_z = games_ratio_same_z(p, d)
        print(f"| {c.label} | {c.a.name} vs {c.b.name} | {d.games} / {p.games} | {d.deals} / {p.deals} "
              f"| {d.mean:+.2f} | {p.mean:+.2f} | {d.se:.3f} | {p.se:.3f} | {games_ratio(p, d):.2f} "
              f"| {'-' if same_z is None else f'{same_z:.2f}'} | {alike} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
