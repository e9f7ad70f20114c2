"""Standings: per-bot mean score with a 95% confidence interval, rank, win share, faults,
timing, and an openskill (Plackett-Luce) multiplayer rating with its uncertainty.

Why deal groups: games of one deal share their cards, so they are not independent; the
confidence interval treats each (table, deal) group as one sample -- the card-game
analogue of chess's game pairs.  In round robin a group is a single game.

Records are processed in schedule order, never completion order, so the online openskill
rating does not depend on concurrency.
"""

from __future__ import annotations

import collections
import dataclasses
import math
import statistics
from collections.abc import Iterable, Sequence
from typing import Any

from openskill.models import PlackettLuce

from tournament.config import FAULT_CLASSES, TournamentConfig


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction
    (modified Lentz), accurate to about 1e-14 for the arguments Student's t needs."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x > (a + 1.0) / (a + b + 2.0):  # the fraction converges fast only below the mean
        return 1.0 - _betainc(b, a, 1.0 - x)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)) / a
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return front * f


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The exact ``p`` quantile (0.5 < p < 1) of Student's t, by bisection on :func:`t_cdf`."""
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return (lo + hi) / 2.0


def t95(df: int) -> float:
    """Half-width factor of a two-sided 95% interval with ``df`` degrees of freedom (few deal
    groups give a wider interval than the normal 1.96)."""
    return t_quantile(0.975, df)


@dataclasses.dataclass
class BotStanding:
    name: str
    games: int = 0
    mean_score: float | None = None
    ci95: float | None = None  # half-width over deal groups; None with fewer than 2 groups
    groups: int = 0
    mean_rank: float | None = None
    win_share: float | None = None
    forfeits: int = 0
    faults: dict[str, int] = dataclasses.field(default_factory=dict)
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0  # mu - 3 sigma: a conservative rating
    decisions: int = 0
    think_ms_mean: float | None = None
    think_ms_max: float | None = None
    runner_us_mean: float | None = None  # the runner's own latency before this bot's requests
    disqualified: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def unit_seats(players: int, teams: Sequence[Sequence[int]] | None) -> list[tuple[int, ...]]:
    return [tuple(t) for t in teams] if teams else [(s,) for s in range(players)]


class _Tally:
    """What the standings need from the played games, gathered game by game in schedule order."""

    def __init__(self, config: TournamentConfig) -> None:
        info = config.game_info
        self.units = unit_seats(config.players, info.teams(config.players) if info.teams is not None else None)
        self.model = PlackettLuce()
        self.ratings = {b.name: self.model.rating(name=b.name) for b in config.bots}
        self.per_bot = {b.name: BotStanding(b.name, faults={c: 0 for c in FAULT_CLASSES}) for b in config.bots}
        self.scores: dict[str, list[float]] = collections.defaultdict(list)
        self.ranks: dict[str, list[int]] = collections.defaultdict(list)
        self.wins: dict[str, float] = collections.defaultdict(float)
        # Games of one (table, deal) share their cards: one sample of the confidence interval.
        self.groups: dict[str, dict[tuple[int, int], list[float]]] = collections.defaultdict(
            lambda: collections.defaultdict(list))
        self.think: dict[str, list[float]] = collections.defaultdict(list)
        self.overhead: dict[str, list[float]] = collections.defaultdict(list)

    def add(self, rec: dict[str, Any]) -> None:
        bots = rec["bots"]
        unit_ranks = [max(rec["result"]["ranks"][s] for s in unit) for unit in self.units]
        self._results(rec, bots, unit_ranks)
        self._faults(rec, bots)
        self._timings(rec, bots)
        new = self.model.rate([[self.ratings[bots[s]] for s in unit] for unit in self.units], ranks=unit_ranks)
        for unit, rated in zip(self.units, new):
            for s, r in zip(unit, rated):
                self.ratings[bots[s]] = r

    def _results(self, rec: dict[str, Any], bots: list[str], unit_ranks: list[int]) -> None:
        first = sum(1 for r in unit_ranks if r == 1)  # a shared first place is a shared win
        for unit, rank in zip(self.units, unit_ranks):
            if rank == 1:
                for s in unit:
                    self.wins[bots[s]] += 1 / first
        result = rec["result"]
        for seat, bot in enumerate(bots):
            self.scores[bot].append(result["scores"][seat])
            self.ranks[bot].append(result["ranks"][seat])
            self.groups[bot][(rec["table"], rec["deal"])].append(result["scores"][seat])

    def _faults(self, rec: dict[str, Any], bots: list[str]) -> None:
        for seat, bot in enumerate(bots):
            st = self.per_bot[bot]
            if seat in rec.get("forfeited", []):
                st.forfeits += 1
            for cls, n in rec.get("fault_counts", [{}] * len(bots))[seat].items():
                st.faults[cls] = st.faults.get(cls, 0) + n

    def _timings(self, rec: dict[str, Any], bots: list[str]) -> None:
        for a in rec.get("actions", []):
            if a.get("by") in ("bot", "substitute") and "ms" in a:
                self.think[bots[a["seat"]]].append(a["ms"])
            if "runner_us" in a:
                self.overhead[bots[a["seat"]]].append(a["runner_us"])

    def standing(self, name: str, disqualified: dict[str, str]) -> BotStanding:
        st = self.per_bot[name]
        st.games = len(self.scores[name])
        if st.games:
            st.mean_score = statistics.fmean(self.scores[name])
            st.mean_rank = statistics.fmean(self.ranks[name])
            st.win_share = self.wins[name] / st.games
            group_means = [statistics.fmean(v) for v in self.groups[name].values()]
            st.groups = len(group_means)
            if len(group_means) >= 2:
                st.ci95 = t95(len(group_means) - 1) * statistics.stdev(group_means) / math.sqrt(len(group_means))
        if self.think[name]:
            st.decisions = len(self.think[name])
            st.think_ms_mean = statistics.fmean(self.think[name])
            st.think_ms_max = max(self.think[name])
        if self.overhead[name]:
            st.runner_us_mean = statistics.fmean(self.overhead[name])
        r = self.ratings[name]
        st.mu, st.sigma, st.ordinal = r.mu, r.sigma, r.ordinal()
        st.disqualified = disqualified.get(name)
        return st


def compute_standings(config: TournamentConfig, records: Iterable[dict[str, Any]],
                      disqualified: dict[str, str] | None = None) -> list[BotStanding]:
    """Standings of every bot from the played records, best first.  Records are taken in
    schedule order, so the online rating does not depend on the order games finished in."""
    tally = _Tally(config)
    for rec in sorted(records, key=lambda r: r["index"]):
        if rec.get("status") == "played":
            tally.add(rec)
    standings = [tally.standing(name, disqualified or {}) for name in tally.per_bot]
    return sorted(standings, key=lambda s: (s.mean_score is None, -(s.mean_score or 0.0), -s.ordinal, s.name))


def deal_rows(config: TournamentConfig, records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Results grouped by deal: each bot's mean score over the seatings of one (table, deal)."""
    by_group: dict[tuple[int, int], dict[str, Any]] = {}
    for rec in sorted(records, key=lambda r: r["index"]):
        if rec.get("status") != "played":
            continue
        key = (rec["table"], rec["deal"])
        row = by_group.setdefault(key, {"table": rec["table"], "deal": rec["deal"], "seed": rec["seed"],
                                        "games": 0, "scores": collections.defaultdict(list)})
        row["games"] += 1
        for seat, bot in enumerate(rec["bots"]):
            row["scores"][bot].append(rec["result"]["scores"][seat])
    rows = []
    for key in sorted(by_group):
        row = by_group[key]
        rows.append({"table": row["table"], "deal": row["deal"], "seed": row["seed"], "games": row["games"],
                     "mean_scores": {b: statistics.fmean(v) for b, v in sorted(row["scores"].items())}})
    return rows


@dataclasses.dataclass
class Margin:
    """How far one bot's mean score per deal lies above the mean of the others at its table:
    the mean over deal groups of that per-deal difference, with a 95% interval (Student t over
    the groups: a duplicate deal's games share their cards, so each group is one sample)."""

    bot: str
    mean: float
    ci95: float | None
    groups: int

    @property
    def excludes_zero(self) -> bool:
        return self.ci95 is not None and abs(self.mean) > self.ci95


def margin(deals: list[dict[str, Any]], bot: str | Sequence[str]) -> Margin:
    """``Margin`` of ``bot`` (or of several bots together: partners, or copies of one program)
    from the per-deal rows of ``deals.json`` (``mean_scores`` per bot)."""
    side = [bot] if isinstance(bot, str) else list(bot)
    diffs = []
    for row in deals:
        scores = row["mean_scores"]
        if not all(name in scores for name in side):
            continue
        ours = [scores[name] for name in side]
        others = [v for name, v in scores.items() if name not in side]
        if others:
            diffs.append(sum(ours) / len(ours) - sum(others) / len(others))
    bot = " + ".join(side)
    if not diffs:
        raise ValueError(f"bot {bot!r} played no deal with others")
    mean = sum(diffs) / len(diffs)
    if len(diffs) < 2:
        return Margin(bot, mean, None, len(diffs))
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return Margin(bot, mean, t95(len(diffs) - 1) * math.sqrt(var / len(diffs)), len(diffs))
