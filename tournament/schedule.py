"""Which games a tournament plays: tables, deals, seatings, seeds.

Vocabulary (also in docs/tournament.md):

* a **lineup** is the ordered tuple of bots at one table (``lineup[i]`` sits in seat ``i``
  under the identity seating);
* a **seating** is a permutation ``seat -> lineup index``;
* a **deal** is one game seed.  The same seed gives the same cards, so replaying a deal
  under every seating of a lineup (duplicate) cancels the luck of the cards;
* a **job** is one game: (table, deal, seating).  Its id is stable, so results are keyed
  by it and ``--resume`` can skip what is already recorded.

Deal seeds are secret: each is HMAC-SHA256 of the deal number keyed with the master seed
(:func:`deal_seed`), so a bot that knows the engine and its own hand cannot search its way
back to the master seed and from there to every other hand -- unless the master seed itself
is small enough to try them all, which is why a seed under 64 bits gets a warning
(:func:`weak_seed_warning`) and a config without one draws a 128-bit secret for the run
(``tournament.results``).  A config with a deal file (``tournament.deal_file``,
``trickcore.deals``) plays the file's public deals in order instead (DEAL_FILE).

Seat rotations: all permutations up to 4 seats, the n cyclic rotations above (n! grows
too fast).  When the game has partnerships (``GameInfo.teams``), partnerships are kept
together: the teams are permuted as units over the team slots and the members rotated
cyclically inside each team, so every bot still sits in every seat once.

The paired format compares two candidates, A and B: table 0 seats A, table 1 seats B in the
same seats, and every other seat is held by the same fillers at both.  Its seatings are the n
cyclic rotations (or, with partnerships, the partnership rotations), one per seat the candidate
can hold: the fillers are the same at both tables, so permuting them among themselves would only
repeat a comparison, while another deal brings new cards.  The two games of one deal and seating
are a **pair**; A's score in one minus B's in the other is the pair's margin.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import hmac
import itertools
import threading
from collections.abc import Callable, Collection, Sequence
from typing import Any

from tournament.config import DRAWN_SEED, TournamentConfig
from trickcore.game import GameInfo
from trickcore.games import get_game

FULL_PERMUTATIONS_UP_TO = 4
#: paired: the table of each candidate (table 0 seats A, table 1 seats B)
PAIRED_TABLES = (0, 1)
#: paired: deals per block of the schedule (A's games of a block, then B's; see _jobs)
PAIRED_BLOCK_DEALS = 8

#: How deal seeds come from the master seed; run.json names it, so that a run folder is always
#: checked and continued with the derivation it was started with.
DEAL_SEEDS = "hmac-sha256/1"
#: The derivation before DEAL_SEEDS (``sha256("trickcore-deal:<seed>:<deal>")``): kept only to
#: check the records of run folders made with it; such a run cannot be resumed.
LEGACY_DEAL_SEEDS = "sha256/0"
#: The deals of a deal file (tournament.deal_file, trickcore.deals), in the file's order: public,
#: not derived from a secret; run.json keeps their seeds.
DEAL_FILE = "deal-file/1"
#: A master seed with fewer bits than this can be searched by a bot (weak_seed_warning).
STRONG_SEED_BITS = 64
SECRET_BYTES = 16  # a drawn master seed: 128 bits


@dataclasses.dataclass(frozen=True)
class Job:
    index: int  # position in the schedule; standings are computed in this order
    job_id: str
    table: int  # index of the lineup
    deal: int
    seed: int
    seating: int  # index into the table's seat rotations
    bots: tuple[str, ...]  # bot name per seat
    deal_file: str | None = None  # the deal file the deal is taken from (its deal-th), as the config names it

    def to_dict(self) -> dict[str, Any]:
        out = {"index": self.index, "job": self.job_id, "table": self.table, "deal": self.deal,
               "seed": self.seed, "seating": self.seating, "bots": list(self.bots)}
        if self.deal_file is not None:
            out["deal_file"] = self.deal_file  # a public deal: every record says so
        return out


def next_free(jobs: Sequence[Job], busy: Collection[int], window: int | None = None) -> int | None:
    """The position in ``jobs`` of the first whose deal is not in ``busy`` (the deals being played
    at other tables), among the first ``window`` (all when None), or None.  A window keeps the
    games close to the schedule's order, which a sequential test ([stop] sprt) decides in.

    No two games of one deal are played at the same time: a copy of a bot at another table then
    always holds another deal, so whatever the sandbox still lets two copies signal (CPU timing,
    for one) tells neither of them a hand of its own deal."""
    for i, job in enumerate(jobs):
        if window is not None and i >= window:
            break
        if job.deal not in busy:
            return i
    return None


class DealQueue:
    """The pending jobs of local tables, taken in schedule order but for a job whose deal is
    being played at another table (next_free), which waits for it to end."""

    def __init__(self, jobs: Sequence[Job]) -> None:
        self._jobs = list(jobs)
        self._playing: collections.Counter[int] = collections.Counter()
        self._changed = threading.Condition()

    def take(self, stop: Callable[[], bool], poll_s: float = 0.2) -> Job | None:
        """The next job this table may play, waiting while every job left is of a deal in play
        elsewhere; None when no job is left or ``stop()`` says so."""
        with self._changed:
            while self._jobs and not stop():
                i = next_free(self._jobs, +self._playing)
                if i is not None:
                    job = self._jobs.pop(i)
                    self._playing[job.deal] += 1
                    return job
                self._changed.wait(poll_s)
            return None

    def done(self, job: Job) -> None:
        """``job``'s game has ended (played, failed or abandoned): its deal is free again."""
        with self._changed:
            self._playing[job.deal] -= 1
            self._changed.notify_all()


def master_key(seed: int | str) -> bytes:
    """The HMAC key of a master seed: its value as an unsigned number, big-endian, in 16 bytes
    (more if it is larger).  ``seed`` is an integer or a string of hex digits; both name the
    same number, so ``2024`` and ``"7e8"`` are the same tournament, and a drawn secret written
    out as 32 hex digits (``key.hex()``) gives back the same key and so the same deals."""
    if isinstance(seed, bool):
        raise ValueError(f"a master seed is a number >= 0, got {seed!r}")
    value = seed if isinstance(seed, int) else int(seed, 16)
    if value < 0:
        raise ValueError(f"a master seed is a number >= 0, got {seed!r}")
    return value.to_bytes(max(SECRET_BYTES, (value.bit_length() + 7) // 8), "big")


def deal_seed(key: bytes, deal: int) -> int:
    """The 64-bit game seed of deal ``deal``: HMAC-SHA256 keyed with the master seed
    (:func:`master_key`) over the deal number.  Without the key, one deal's seed or cards tell
    nothing of another's, and only trying every key finds them."""
    mac = hmac.new(key, f"trickcore-deal:{deal}".encode(), hashlib.sha256).digest()
    return int.from_bytes(mac[:8], "little")


def legacy_deal_seed(master_seed: int, deal: int) -> int:
    """The game seeds of run folders made before DEAL_SEEDS: a public hash of a small number,
    which a bot can search (kept only to check such folders' records)."""
    digest = hashlib.sha256(f"trickcore-deal:{master_seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def seed_bits(seed: int | str) -> int:
    """How many bits a master seed can hold, as written: any integer counts as small (a TOML
    integer is below 2**63, and people write small ones), a hex string 4 bits per digit after
    its leading zeros (which add no secrecy)."""
    if isinstance(seed, int):
        return 0
    return 4 * len(seed.lstrip("0"))


def weak_seed_warning(seed: int | str | None) -> str | None:
    """The warning for a master seed a bot could find by trying every small one; None for a
    drawn seed or one of at least STRONG_SEED_BITS bits."""
    if seed is None or seed_bits(seed) >= STRONG_SEED_BITS:
        return None
    shown = seed if isinstance(seed, int) else f'"{seed}"'
    return (f"tournament.seed = {shown} has fewer than {STRONG_SEED_BITS} bits: a bot that knows the engine can "
            f"try every small seed until one deals it the hand it holds, and then knows every hand of every deal. "
            f"Omit tournament.seed to draw a secret seed, kept in the output folder, or write a 32-hex-digit "
            f"string, e.g. from: python -c \"import secrets; print(secrets.token_hex(16))\"")


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


#: paired: candidate A and candidate B, each the bots of the seats it holds
Candidates = tuple[tuple[str, ...], tuple[str, ...]]


def lineups(config: TournamentConfig) -> list[tuple[str, ...]]:
    info = config.game_info
    return _lineups([b.name for b in config.bots], config.players, config.format, config.candidate,
                    config.candidates, info.teams(config.players) if info.teams is not None else None)


def _lineups(names: list[str], n: int, fmt: str, candidate: str | None, candidates: Candidates | None = None,
             teams: Sequence[Sequence[int]] | None = None) -> list[tuple[str, ...]]:
    if fmt == "duplicate":
        return [tuple(names)]
    if fmt == "gauntlet":
        field = [x for x in names if x != candidate]
        return [(str(candidate), *combo) for combo in itertools.combinations(field, n - 1)]
    if fmt == "paired":
        if candidates is None:
            raise ValueError("format 'paired' needs its candidates")
        return [paired_lineup(side, candidates, names, n, teams) for side in candidates]
    return list(itertools.combinations(names, n))


def paired_lineup(side: Sequence[str], candidates: Candidates, names: Sequence[str], players: int,
                  teams: Sequence[Sequence[int]] | None) -> tuple[str, ...]:
    """The lineup of one candidate of a paired run: its bots in the seats of the first
    partnership (seat 0 when there are none), the fillers -- every bot that is not a candidate,
    in the order given -- in the other seats in seat order.  Both candidates' lineups have the
    fillers in the same places."""
    held = list(teams[0]) if teams else [0]
    if len(side) != len(held):
        raise ValueError(f"candidate {list(side)} must hold {len(held)} seat(s)")
    taken = {name for c in candidates for name in c}
    fillers = iter([name for name in names if name not in taken])
    lineup = []
    for seat in range(players):
        lineup.append(side[held.index(seat)] if seat in held else next(fillers))
    return tuple(lineup)


def paired_rotations(players: int, teams: Sequence[Sequence[int]] | None = None) -> list[tuple[int, ...]]:
    """The seatings of a paired run, identity first: the candidate's seat goes round the table.
    Without partnerships the n cyclic rotations; with them the partnership rotations of
    :func:`seat_rotations` (the candidate's partnership in every slot, its members in every seat)."""
    if teams:
        return seat_rotations(players, teams)
    return [tuple((i + r) % players for i in range(players)) for r in range(players)]


def paired_seatings(config: TournamentConfig) -> list[tuple[int, ...]]:
    """The seatings of a paired run of ``config`` (:func:`paired_rotations` of its game)."""
    info = config.game_info
    return paired_rotations(config.players, info.teams(config.players) if info.teams is not None else None)


def paired_pair_number(deal: int, seating: int, deals: int, seatings: int) -> int:
    """paired: the position of the pair (deal, seating) among the run's pairs, in schedule order
    (the order in which B's games, the later of each pair, are scheduled: block by block of
    PAIRED_BLOCK_DEALS deals, within a block seating by seating)."""
    first = deal - deal % PAIRED_BLOCK_DEALS
    size = min(PAIRED_BLOCK_DEALS, deals - first)
    return first * seatings + seating * size + deal - first


def candidates_of(value: Any) -> Candidates | None:
    """``tournament.candidates`` as the effective config writes it (each a name, or an array of
    names) as a pair of tuples; None when absent."""
    if value is None:
        return None
    a, b = ((side,) if isinstance(side, str) else tuple(side) for side in value)
    return a, b


def build_schedule(config: TournamentConfig, key: bytes | None = None) -> list[Job]:
    """All jobs in a fixed order that does not depend on concurrency: by table, then seating,
    then deal (round robin: by table, then deal; paired: by blocks of deals, then seating, A's
    games of a block before B's).
    ``key`` is the master key; by default the one of ``config.seed``.  A config without a seed
    (drawn for the run) needs the run's key: ``tournament.results.ResultStore`` draws it, keeps
    it in the output folder and builds the schedule (``store.schedule``).  A config with a deal
    file plays the file's deals in order and needs no key."""
    names = [b.name for b in config.bots]
    if config.deal_file is not None:
        seeds = config.deal_seeds
        return _jobs(config.game_info, config.players, config.format, config.deals, names, config.candidate,
                     lambda deal: seeds[deal], config.candidates, config.deal_file)
    if key is None:
        if config.seed is None:
            raise ValueError("the master seed of this config is drawn for each run: pass the run's key "
                             "(ResultStore.schedule builds the schedule of an output folder)")
        key = master_key(config.seed)
    master = key
    return _jobs(config.game_info, config.players, config.format, config.deals, names, config.candidate,
                 lambda deal: deal_seed(master, deal), config.candidates)


def schedule_of_effective(effective: dict[str, Any], key: bytes | None, scheme: str = DEAL_SEEDS,
                          deal_seeds: Sequence[int] = ()) -> list[Job]:
    """The schedule of a run from its effective config as run.json keeps it (placeholders
    unexpanded, nothing checked on this machine but the game), so that a copied run folder can
    be checked wherever it is.  ``key``: the master key (needed when the seed was drawn);
    ``scheme``: the run's derivation of deal seeds (DEAL_SEEDS, or LEGACY_DEAL_SEEDS for folders
    made before it, or DEAL_FILE: the seeds of its deal file, ``deal_seeds``, as run.json keeps
    them)."""
    game = effective.get("game", {})
    t = effective.get("tournament", {})
    seed = t.get("seed")
    seed_of: Callable[[int], int]
    deal_file = None
    if scheme == DEAL_FILE:
        if len(deal_seeds) < int(t["deals"]) or not isinstance(t.get("deal_file"), str):
            raise ValueError(f"a run on a deal file needs its file's name and the seeds of its {t['deals']} deals")
        seeds = list(deal_seeds)
        seed_of = seeds.__getitem__
        deal_file = t["deal_file"]
    elif scheme == LEGACY_DEAL_SEEDS:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"tournament.seed {seed!r} is not the integer seed of a run of the {scheme} derivation")
        legacy = seed
        seed_of = lambda deal: legacy_deal_seed(legacy, deal)  # noqa: E731
    elif scheme == DEAL_SEEDS:
        if key is None:
            if not isinstance(seed, (int, str)) or isinstance(seed, bool) or seed == DRAWN_SEED:
                raise ValueError("the master seed was drawn for the run; its key is needed")
            key = master_key(seed)
        master = key
        seed_of = lambda deal: deal_seed(master, deal)  # noqa: E731
    else:
        raise ValueError(f"deal seeds derived by {scheme!r}, which this trickcore does not know")
    names = [b["name"] for b in effective.get("bots", [])]
    return _jobs(get_game(game["name"]), int(game["players"]), t.get("format", "round-robin"), int(t["deals"]),
                 names, t.get("candidate"), seed_of, candidates_of(t.get("candidates")), deal_file)


def _jobs(info: GameInfo, players: int, fmt: str, deals: int, names: list[str], candidate: str | None,
          seed_of: Callable[[int], int], candidates: Candidates | None = None,
          deal_file: str | None = None) -> list[Job]:
    teams = info.teams(players) if info.teams is not None else None
    rotations = paired_rotations(players, teams) if fmt == "paired" else seat_rotations(players, teams)
    jobs: list[Job] = []
    seeds = [seed_of(deal) for deal in range(deals)]
    if fmt == "paired":
        # Blocks of PAIRED_BLOCK_DEALS deals; in a block, seating by seating, A's games of the
        # block, then B's.  Each of B's games completes a pair, so pairs come in steadily and in
        # pair order (paired_pair_number), while a table switches between the candidates (and
        # starts the fillers afresh: a filler that has played a deal is not dealt it again) once
        # per block and seating, not once a game.  A block's deals are complete -- every seating,
        # both candidates -- before the next block begins: the samples of a sequential test
        # ([stop] sprt) are whole deals, so they come in a block at a time.
        lineup_of = _lineups(names, players, fmt, candidate, candidates, teams)
        for first in range(0, deals, PAIRED_BLOCK_DEALS):
            for seating, rotation in enumerate(rotations):
                for table in PAIRED_TABLES:
                    for deal in range(first, min(first + PAIRED_BLOCK_DEALS, deals)):
                        bots = tuple(lineup_of[table][i] for i in rotation)
                        jobs.append(Job(len(jobs), f"t{table}-d{deal}-s{seating}", table, deal, seeds[deal],
                                        seating, bots, deal_file))
        return jobs
    if fmt == "round-robin":
        # One game per deal; the seating advances with the deal so that over the deals every
        # bot visits every seat.
        games = [(deal, deal % len(rotations)) for deal in range(deals)]
    else:
        # Every seating of every deal, the deals of one seating one after the other: a bot
        # process is not dealt a deal twice (it could remember the hands), so a table starts its
        # bots afresh when a deal comes round again -- once per seating in this order.
        games = [(deal, seating) for seating in range(len(rotations)) for deal in range(deals)]
    for table, lineup in enumerate(_lineups(names, players, fmt, candidate)):
        for deal, seating in games:
            bots = tuple(lineup[i] for i in rotations[seating])
            jobs.append(Job(len(jobs), f"t{table}-d{deal}-s{seating}", table, deal, seeds[deal], seating, bots,
                            deal_file))
    return jobs
