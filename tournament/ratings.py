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
from typing import Iterable

from openskill.models import PlackettLuce

from tournament.config import FAULT_CLASSES, TournamentConfig

# Two-sided 95% Student t quantiles by degrees of freedom (few deal groups -> wider CI).
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
        11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
        20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


def t95(df: int) -> float:
    for limit in sorted(_T95):
        if df <= limit:
            return _T95[limit]
    return 1.960


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
    faults: dict = dataclasses.field(default_factory=dict)
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0  # mu - 3 sigma: a conservative rating
    decisions: int = 0
    think_ms_mean: float | None = None
    think_ms_max: float | None = None
    runner_us_mean: float | None = None  # the runner's own latency before this bot's requests
    disqualified: str | None = None

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def unit_seats(players: int, teams) -> list[tuple[int, ...]]:
    return [tuple(t) for t in teams] if teams else [(s,) for s in range(players)]


def compute_standings(config: TournamentConfig, records: Iterable[dict],
                      disqualified: dict[str, str] | None = None) -> list[BotStanding]:
    info = config.game_info
    teams = info.teams(config.players) if info.teams is not None else None
    units = unit_seats(config.players, teams)
    model = PlackettLuce()
    ratings = {b.name: model.rating(name=b.name) for b in config.bots}
    per_bot = {b.name: BotStanding(b.name, faults={c: 0 for c in FAULT_CLASSES}) for b in config.bots}
    scores = collections.defaultdict(list)
    ranks = collections.defaultdict(list)
    wins = collections.defaultdict(float)
    groups: dict[str, dict[tuple, list[float]]] = collections.defaultdict(lambda: collections.defaultdict(list))
    think = collections.defaultdict(list)
    overhead = collections.defaultdict(list)

    for rec in sorted(records, key=lambda r: r["index"]):
        if rec.get("status") != "played":
            continue
        bots = rec["bots"]
        result_scores = rec["result"]["scores"]
        result_ranks = rec["result"]["ranks"]
        unit_ranks = [max(result_ranks[s] for s in unit) for unit in units]
        first = sum(1 for r in unit_ranks if r == 1)
        for u, unit in enumerate(units):
            for s in unit:
                if unit_ranks[u] == 1:
                    wins[bots[s]] += 1 / first
        for seat, bot in enumerate(bots):
            scores[bot].append(result_scores[seat])
            ranks[bot].append(result_ranks[seat])
            groups[bot][(rec["table"], rec["deal"])].append(result_scores[seat])
            st = per_bot[bot]
            if seat in rec.get("forfeited", []):
                st.forfeits += 1
            for cls, n in rec.get("fault_counts", [{}] * len(bots))[seat].items():
                st.faults[cls] = st.faults.get(cls, 0) + n
        for a in rec.get("actions", []):
            if a.get("by") in ("bot", "substitute") and "ms" in a:
                think[bots[a["seat"]]].append(a["ms"])
            if "runner_us" in a:
                overhead[bots[a["seat"]]].append(a["runner_us"])
        new = model.rate([[ratings[bots[s]] for s in unit] for unit in units], ranks=unit_ranks)
        for unit, rated in zip(units, new):
            for s, r in zip(unit, rated):
                ratings[bots[s]] = r

    for name, st in per_bot.items():
        st.games = len(scores[name])
        if st.games:
            st.mean_score = statistics.fmean(scores[name])
            st.mean_rank = statistics.fmean(ranks[name])
            st.win_share = wins[name] / st.games
            group_means = [statistics.fmean(v) for v in groups[name].values()]
            st.groups = len(group_means)
            if len(group_means) >= 2:
                st.ci95 = t95(len(group_means) - 1) * statistics.stdev(group_means) / math.sqrt(len(group_means))
        if think[name]:
            st.decisions = len(think[name])
            st.think_ms_mean = statistics.fmean(think[name])
            st.think_ms_max = max(think[name])
        if overhead[name]:
            st.runner_us_mean = statistics.fmean(overhead[name])
        r = ratings[name]
        st.mu, st.sigma, st.ordinal = r.mu, r.sigma, r.ordinal()
        st.disqualified = (disqualified or {}).get(name)
    return sorted(per_bot.values(),
                  key=lambda s: (s.mean_score is None, -(s.mean_score or 0.0), -s.ordinal, s.name))


def deal_rows(config: TournamentConfig, records: Iterable[dict]) -> list[dict]:
    """Results grouped by deal: each bot's mean score over the seatings of one (table, deal)."""
    by_group: dict[tuple, dict] = {}
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
