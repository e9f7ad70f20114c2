"""Which games a tournament plays: tables, deals, seatings, seeds.

Vocabulary (also in docs/tournament.md):

* a **lineup** is the ordered tuple of bots at one table (``lineup[i]`` sits in seat ``i``
  under the identity seating);
* a **seating** is a permutation ``seat -> lineup index``;
* a **deal** is one game seed.  The same seed gives the same cards, so replaying a deal
  under every seating of a lineup (duplicate) cancels the luck of the cards;
* a **job** is one game: (table, deal, seating).  Its id is stable, so results are keyed
  by it and ``--resume`` can skip what is already recorded.

Seat rotations: all permutations up to 4 seats, the n cyclic rotations above (n! grows
too fast).  When the game has partnerships (``GameInfo.teams``), partnerships are kept
together: the teams are permuted as units over the team slots and the members rotated
cyclically inside each team, so every bot still sits in every seat once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
from collections.abc import Sequence

from tournament.config import TournamentConfig

FULL_PERMUTATIONS_UP_TO = 4


@dataclasses.dataclass(frozen=True)
class Job:
    index: int  # position in the schedule; standings are computed in this order
    job_id: str
    table: int  # index of the lineup
    deal: int
    seed: int
    seating: int  # index into the table's seat rotations
    bots: tuple[str, ...]  # bot name per seat

    def to_dict(self) -> dict:
        return {"index": self.index, "job": self.job_id, "table": self.table, "deal": self.deal,
                "seed": self.seed, "seating": self.seating, "bots": list(self.bots)}


def deal_seed(master_seed: int, deal: int) -> int:
    """The game seed of deal ``deal``: a hash, so that neighbouring master seeds share no deals."""
    digest = hashlib.sha256(f"trickcore-deal:{master_seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def _unit_orders(n: int) -> list[tuple[int, ...]]:
    """Orders of n units: all permutations up to FULL_PERMUTATIONS_UP_TO, else cyclic shifts."""
    if n <= FULL_PERMUTATIONS_UP_TO:
        return list(itertools.permutations(range(n)))
    return [tuple((i + r) % n for i in range(n)) for r in range(n)]


def seat_rotations(players: int, teams: Sequence[Sequence[int]] | None = None) -> list[tuple[int, ...]]:
    """Every seating used for a lineup, identity first.  Each entry maps seat -> lineup index."""
    if not teams:
        return _unit_orders(players)
    teams = [tuple(t) for t in teams]
    seated = sorted(s for t in teams for s in t)
    if seated != list(range(players)):
        raise ValueError(f"teams {teams} do not partition the seats 0..{players - 1}")
    rotations = []
    for order in _unit_orders(len(teams)):
        # A team can only move into a slot with as many seats as it has members.
        if any(len(teams[order[k]]) != len(teams[k]) for k in range(len(teams))):
            continue
        for shift in range(max(len(t) for t in teams)):
            rotation = [0] * players
            for slot, unit in enumerate(order):
                members = teams[unit]
                for m, seat in enumerate(teams[slot]):
                    rotation[seat] = members[(m + shift) % len(members)]
            if tuple(rotation) not in rotations:
                rotations.append(tuple(rotation))
    return rotations


def lineups(config: TournamentConfig) -> list[tuple[str, ...]]:
    names = [b.name for b in config.bots]
    n = config.players
    if config.format == "duplicate":
        return [tuple(names)]
    if config.format == "gauntlet":
        field = [x for x in names if x != config.candidate]
        return [(config.candidate, *combo) for combo in itertools.combinations(field, n - 1)]
    return list(itertools.combinations(names, n))


def build_schedule(config: TournamentConfig) -> list[Job]:
    """All jobs in a fixed order (table, deal, seating) that does not depend on concurrency."""
    info = config.game_info
    teams = info.teams(config.players) if info.teams is not None else None
    rotations = seat_rotations(config.players, teams)
    jobs: list[Job] = []
    for table, lineup in enumerate(lineups(config)):
        for deal in range(config.deals):
            seed = deal_seed(config.seed, deal)
            if config.format == "round-robin":
                # One game per deal; the seating advances with the deal so that over the deals
                # every bot visits every seat.
                chosen = [deal % len(rotations)]
            else:
                chosen = range(len(rotations))
            for seating in chosen:
                bots = tuple(lineup[i] for i in rotations[seating])
                job_id = f"t{table}-d{deal}-s{seating}"
                jobs.append(Job(len(jobs), job_id, table, deal, seed, seating, bots))
    return jobs
