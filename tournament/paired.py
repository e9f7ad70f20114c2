"""A paired run's results, reckoned in one place: its records made into pairs, the pairs into
per-deal samples, and the samples into the margin A - B with its 95% interval.

Everything that shows a paired run's margin reads it from here: the standings' paired line and
``summary.json``, ``pairs.json``, ``trickcore margin``, the progress line, and the HTML report; the
sequential test (tournament.sequential) takes its samples from here too.

A **pair** is the deal played under one seating with A (table 0) and with B (table 1), both games
played; its margin is A's score minus B's, each candidate scoring the mean of the seats it held (two
in a partnership game).  The pairs of one deal share its cards, so they are not independent
samples; deals are.  A deal's **sample** is the mean margin of its complete pairs, and the margin
is the mean of the deal samples with **Student's t interval** over them: the usual interval of a
paired mean, a little wider than 1.96 standard errors when there are few deals (docs/tournament.md,
"The paired format").
"""

from __future__ import annotations

import collections
import dataclasses
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tournament.ratings import t95
from tournament.schedule import PAIRED_TABLES, Candidates, paired_pair_number, paired_seatings

if TYPE_CHECKING:
    from tournament.config import TournamentConfig


def half_width95(se: float | None, samples: int) -> float | None:
    """The half-width of the 95% interval of a mean with standard error ``se`` over ``samples``
    samples: Student's t with samples - 1 degrees of freedom; None without two samples."""
    if se is None or samples < 2:
        return None
    return t95(samples - 1) * se


def mean_interval(samples: Sequence[float]) -> tuple[float, float | None, float | None]:
    """The mean of ``samples`` (at least one), its standard error and its 95% half-width (both
    None with a single sample)."""
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return mean, None, None
    se = statistics.stdev(samples) / math.sqrt(len(samples))
    return mean, se, half_width95(se, len(samples))


@dataclasses.dataclass
class PairedMargin:
    """Candidate A's score per game minus candidate B's over the complete pairs: the mean over
    deals of each deal's mean pair margin, with its 95% interval (Student's t over the deals)."""

    a: str  # candidate A: a bot, or its partnership ("new-1 + new-2")
    b: str
    mean: float
    ci95: float | None  # half-width; None with fewer than 2 deals
    se: float | None  # standard error of the mean (ci95 is se times Student t's 97.5% point)
    deals: int
    pairs: int

    @property
    def excludes_zero(self) -> bool:
        return self.ci95 is not None and abs(self.mean) > self.ci95

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def candidate_label(side: Sequence[str]) -> str:
    """A candidate as the margin names it: its bot, or its partnership's bots joined by " + "."""
    return " + ".join(side)


@dataclasses.dataclass(frozen=True)
class PairedShape:
    """What the pairs of a run depend on: the candidates, the deals and the number of seatings."""

    candidates: Candidates
    deals: int
    seatings: int

    @classmethod
    def of_config(cls, config: TournamentConfig) -> PairedShape:
        if config.candidates is None:
            raise ValueError(f"format {config.format!r} has no pairs (only format 'paired' does)")
        return cls(config.candidates, config.deals, len(paired_seatings(config)))

    @property
    def labels(self) -> tuple[str, str]:
        a, b = self.candidates
        return candidate_label(a), candidate_label(b)


def _pair_row(shape: PairedShape, a_rec: Mapping[str, Any], b_rec: Mapping[str, Any]) -> dict[str, Any]:
    """The row of one complete pair (its two records: A's game, B's game)."""
    scores = [statistics.fmean(rec["result"]["scores"][seat] for seat, bot in enumerate(rec["bots"]) if bot in side)
              for side, rec in zip(shape.candidates, (a_rec, b_rec))]
    deal, seating = a_rec["deal"], a_rec["seating"]
    return {"pair": paired_pair_number(deal, seating, shape.deals, shape.seatings), "deal": deal,
            "seed": a_rec["seed"], "seating": seating,
            "seats": [seat for seat, bot in enumerate(a_rec["bots"]) if bot in shape.candidates[0]],
            "a_job": a_rec["job"], "b_job": b_rec["job"], "a_score": scores[0], "b_score": scores[1],
            "margin": scores[0] - scores[1]}


class PairedResults:
    """The complete pairs of a paired run, fed its records one at a time (:meth:`add`, as the
    runner writes them) or all at once.

    A record counts when it was played at one of the two candidates' tables; a pair is complete
    when both its games were played (a skipped game, or one not played yet, leaves it open)."""

    def __init__(self, shape: PairedShape, records: Iterable[Mapping[str, Any]] = ()) -> None:
        self.shape = shape
        self.games_played = 0      # played games at the candidates' tables
        self._open: dict[tuple[int, int], dict[int, Mapping[str, Any]]] = {}   # (deal, seating) -> table -> record
        self._rows: list[dict[str, Any]] = []
        self._by_deal: dict[int, list[float]] = collections.defaultdict(list)   # deal -> its pairs' margins
        for record in records:
            self.add(record)

    def add(self, record: Mapping[str, Any]) -> dict[str, Any] | None:
        """Take one record; the pair's row when it completed one, else None."""
        if record.get("status") != "played" or record.get("table") not in PAIRED_TABLES:
            return None
        self.games_played += 1
        key = (record["deal"], record["seating"])
        by_table = self._open.setdefault(key, {})
        by_table[record["table"]] = record
        if len(by_table) < len(PAIRED_TABLES):
            return None
        del self._open[key]
        row = _pair_row(self.shape, *(by_table[table] for table in PAIRED_TABLES))
        self._rows.append(row)
        self._by_deal[row["deal"]].append(row["margin"])
        return row

    @property
    def pairs(self) -> int:
        return len(self._rows)

    def rows(self) -> list[dict[str, Any]]:
        """One row per complete pair, in pair order (the schedule's: paired_pair_number), whatever
        order the games finished in.  A row: ``pair``, ``deal``, ``seed``, ``seating``, ``seats``
        (the seats the candidate held), ``a_job`` and ``b_job``, ``a_score`` and ``b_score`` (each
        candidate's score as the standings count it, forfeits applied; a candidate holding a
        partnership scores its seats' mean) and ``margin`` = a_score - b_score."""
        return sorted(self._rows, key=lambda row: row["pair"])

    def deal_sample(self, deal: int) -> float | None:
        """The deal's sample, once every seating of it has its pair (the sequential test's
        samples): the mean of its pairs' margins; None before."""
        margins = self._by_deal.get(deal, ())
        return statistics.fmean(margins) if len(margins) == self.shape.seatings else None

    def margin(self) -> PairedMargin | None:
        """The margin A - B over the complete pairs so far; None before the first."""
        return paired_margin(self._rows, *self.shape.labels) if self._rows else None


def pair_rows(config: TournamentConfig, records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A paired run's complete pairs from its records, in pair order (:meth:`PairedResults.rows`)."""
    return PairedResults(PairedShape.of_config(config), records).rows()


def paired_margin(pairs: Sequence[Mapping[str, Any]], a: str, b: str) -> PairedMargin:
    """:class:`PairedMargin` of pair rows (:func:`pair_rows`, or those of pairs.json): the pairs of
    a deal are averaged first, then the deals."""
    by_deal: dict[int, list[float]] = collections.defaultdict(list)
    for row in pairs:
        by_deal[row["deal"]].append(row["margin"])
    if not by_deal:
        raise ValueError(f"no complete pair of {a} and {b} (both games of a deal and seating played)")
    mean, se, ci95 = mean_interval([statistics.fmean(by_deal[deal]) for deal in sorted(by_deal)])
    return PairedMargin(a, b, mean, ci95, se, len(by_deal), len(pairs))


def describe_paired(m: PairedMargin) -> str:
    """One line for the standings and ``trickcore margin``: A - B per game with its interval."""
    interval = f" ± {m.ci95:.2f} (95%)" if m.ci95 is not None else " (one deal: no interval)"
    verdict = ("; the interval excludes zero" if m.excludes_zero
               else "; the interval includes zero" if m.ci95 is not None else "")
    return (f"{m.a} - {m.b}: {m.mean:+.2f}{interval} per game, paired over {m.deals} deal{'s' if m.deals != 1 else ''}"
            f" ({m.pairs} pair{'s' if m.pairs != 1 else ''}){verdict}")


def describe_progress(results: PairedResults) -> str:
    """The progress line's figure: the margin over the pairs complete so far, with the interval
    the summary prints at the end."""
    a, b = results.shape.labels
    m = results.margin()
    if m is None:
        return f"paired {a} - {b}: no pair complete yet ({results.games_played} games)"
    spread = "" if m.ci95 is None else f" ± {m.ci95:.2f}"
    return (f"paired {a} - {b}: {m.mean:+.2f}{spread} over {m.deals} deal{'s' if m.deals != 1 else ''} "
            f"({results.games_played} games)")
