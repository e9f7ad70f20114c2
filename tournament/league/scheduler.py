"""The league's scheduler: tables formed to reduce rating uncertainty, played as tournaments of
duplicate deals, rated once complete.

A table is a tournament run folder, ``<league>/tables/<id>/``, of the ``duplicate`` format: each
deal at every seating of its bots, under the league's sandbox, time control and failure
policies, through the runner (``tournament.runner.run_tournament``), so its results.jsonl holds
the same game records as any tournament's (``trickcore replay`` and the report open them).

Nothing is lost and nothing doubled across a crash (``kill -9`` at any point):

* a table's row is committed (state ``playing``) before its first game starts, and its bots are
  fixed in the row, so a restart resumes the same run: the runner skips the games recorded
  (each record is appended and fsynced as its game ends) and drops a torn last line, so a game
  that was interrupted is played again from its start;
* a table is rated in one database transaction that adds its games, moves its versions'
  ratings, writes their history and marks it ``rated`` with the next number of the rating
  order: either all of that is there after a crash or none of it, and then the restart rates it;
* ratings therefore equal a recomputation from the records (``recompute_ratings``): every rated
  table's records, taken in the rating order, through the same update.

Rating: openskill's Plackett-Luce, one update per table.  Duplicate deals cancel the cards'
luck when a table is taken whole, so the update ranks the table's bots by the sum of their
ranks over all its games (lower is better; equal sums tie), not game by game.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tournament.config import parse_config
from tournament.league.config import LeagueConfig
from tournament.league.db import Bot, Game, LeagueTable, RatingEntry, Version, now
from tournament.league.league import TABLES_DIR, League
from tournament.league.submit import bot_command
from tournament.results import read_results
from tournament.runner import RunSummary, run_tournament

log = logging.getLogger("trickcore.league")

#: Runs of one table before it is rated with the games it has: each run plays the games the
#: earlier ones left unrecorded (a game whose table process died is not recorded).
ATTEMPTS = 3


@dataclasses.dataclass(frozen=True)
class Seat:
    version_id: int
    name: str  # the bot's name at the table: <bot>-v<number>
    command: tuple[str, ...]
    folder: str
    options: dict[str, Any]


def table_folder(league: League, table_id: int) -> Path:
    return league.folder / TABLES_DIR / str(table_id)


def _playing_versions(session: Session) -> set[int]:
    return {v for t in session.scalars(select(LeagueTable).where(LeagueTable.state == "playing")) for v in t.versions}


def form_table(league: League) -> int | None:
    """Form and commit the next table, or None while too few versions can play.

    The first seat goes to the version with the fewest games (new bots first), ties to the widest
    interval (largest sigma).  Its opponents come from the versions nearest to it in rating (mu;
    ties again to the widest interval), twice as many as the seats to fill: of those, the ones
    with the fewest games, ties to the nearest.  So opponents are near in rating, and a bot in the
    middle of the ratings, nearest to everyone, does not play every table.  Versions already at
    a table that is playing wait."""
    players = league.config.players
    with Session(league.engine) as session, session.begin():
        busy = _playing_versions(session)
        candidates = [v for v in session.scalars(
            select(Version).join(Bot).where(Version.active, Bot.banned.is_(False), Bot.withdrawn.is_(False))
            .order_by(Version.id)) if v.id not in busy]
        if len(candidates) < players:
            return None
        first = min(candidates, key=lambda v: (v.games, -v.sigma, v.id))
        nearest = sorted((v for v in candidates if v.id != first.id),
                         key=lambda v: (abs(v.mu - first.mu), -v.sigma, v.id))[:2 * (players - 1)]
        opponents = sorted(nearest, key=lambda v: (v.games, nearest.index(v)))[:players - 1]
        opponents.sort(key=nearest.index)
        table = LeagueTable(versions=[first.id, *(v.id for v in opponents)], state="playing")
        session.add(table)
        session.flush()
        return table.id


def seats(league: League, table: LeagueTable, session: Session) -> list[Seat]:
    out = []
    for version_id in table.versions:
        version = session.get_one(Version, version_id)
        bot = session.get_one(Bot, version.bot_id)
        folder = league.folder / version.folder
        out.append(Seat(version_id, f"{bot.name}-v{version.number}",
                        bot_command(league.config, folder, version.runtime, version.command), str(folder),
                        dict(version.options)))
    return out


def table_config_doc(league: League, table_id: int, table_seats: Sequence[Seat]) -> dict[str, Any]:
    bots = [{"name": s.name, "command": list(s.command), "cwd": s.folder, "options": s.options} for s in table_seats]
    doc = league.config.table_doc(f"{league.config.name}-table-{table_id}", table_folder(league, table_id), bots)
    if league.executor is not None:
        doc["executor"] = dict(league.executor)
    return doc


def play_table(league: League, table_id: int, cancel: threading.Event | None = None) -> RunSummary:
    """Play the table's games not yet recorded in its folder (all of them, the first time); a
    set ``cancel`` stops the run as Ctrl-C does."""
    with Session(league.engine) as session:
        table = session.get_one(LeagueTable, table_id)
        table_seats = seats(league, table, session)
    config = parse_config(table_config_doc(league, table_id, table_seats), f"table {table_id}")
    return run_tournament(config, resume=True, check_bots=False, cancel=cancel)


def _table_outcome(config: LeagueConfig, records: Iterable[dict[str, Any]], names: Sequence[str]
                   ) -> tuple[dict[str, int], dict[str, int], dict[str, int], list[tuple[str, list[str], list[float],
                                                                                        int]]]:
    """Per bot name: the sum of its ranks, its games and its faults; and the games, as
    (job, bot per seat, scores, faults)."""
    rank_sum = dict.fromkeys(names, 0)
    games = dict.fromkeys(names, 0)
    faults = dict.fromkeys(names, 0)
    played = []
    for record in records:
        for seat, name in enumerate(record["bots"]):
            rank_sum[name] += int(record["ranks"][seat])
            games[name] += 1
            faults[name] += sum(record.get("fault_counts", [{}] * len(record["bots"]))[seat].values())
        played.append((record["job"], list(record["bots"]), [float(s) for s in record["scores"]],
                       len(record.get("faults", []))))
    return rank_sum, games, faults, played


def model(config: LeagueConfig) -> PlackettLuce:
    r = config.rating
    return PlackettLuce(mu=r.mu, sigma=r.sigma, beta=r.beta, tau=r.tau)


def rate(config: LeagueConfig, before: Sequence[tuple[float, float]], rank_sums: Sequence[int]
         ) -> list[tuple[float, float]]:
    """One table's openskill update: the bots' (mu, sigma) before, ranked by their sums of ranks."""
    m = model(config)
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    ranks = [1.0 + sum(other < mine for other in rank_sums) for mine in rank_sums]
    return [(team[0].mu, team[0].sigma) for team in m.rate(teams, ranks=ranks)]


def rate_table(league: League, table_id: int) -> bool:
    """Rate a played table in one transaction; False when it has no game to rate (it is then void)."""
    folder = table_folder(league, table_id)
    records = read_results(folder) if (folder / "results.jsonl").exists() else []
    with Session(league.engine) as session, session.begin():
        table = session.get_one(LeagueTable, table_id, with_for_update=True)
        if table.state != "playing":
            return table.state == "rated"  # rated by another worker meanwhile
        table_seats = seats(league, table, session)
        by_name = {s.name: s.version_id for s in table_seats}
        table.finished = now()
        if not records:
            table.state = "void"
            return False
        rank_sums, games, faults, played = _table_outcome(league.config, records, list(by_name))
        versions = [session.get_one(Version, s.version_id) for s in table_seats]
        after = rate(league.config, [(v.mu, v.sigma) for v in versions], [rank_sums[s.name] for s in table_seats])
        for version, seat, (mu, sigma) in zip(versions, table_seats, after):
            version.mu, version.sigma = mu, sigma
            version.games += games[seat.name]
            version.faults += faults[seat.name]
            version.last_game = table.finished
            session.add(RatingEntry(version_id=version.id, table_id=table_id, mu=mu, sigma=sigma, at=table.finished))
        for job, bots, scores, fault_count in played:
            session.add(Game(table_id=table_id, job=job, seats=[by_name[b] for b in bots], scores=scores,
                             faults=fault_count))
        last = session.scalar(select(func.max(LeagueTable.rated_seq))) or 0
        table.state, table.rated_seq = "rated", last + 1
    return True


def recompute_ratings(league: League) -> dict[int, tuple[float, float]]:
    """Every version's (mu, sigma) from the records alone: each rated table's results.jsonl, in
    the rating order, through the same update as when it was rated."""
    config = league.config
    with Session(league.engine) as session:
        ratings = {v.id: (config.rating.mu, config.rating.sigma) for v in session.scalars(select(Version))}
        for table in session.scalars(select(LeagueTable).where(LeagueTable.state == "rated")
                                     .order_by(LeagueTable.rated_seq)):
            table_seats = seats(league, table, session)
            rank_sums, _, _, _ = _table_outcome(config, read_results(table_folder(league, table.id)),
                                                [s.name for s in table_seats])
            after = rate(config, [ratings[s.version_id] for s in table_seats],
                         [rank_sums[s.name] for s in table_seats])
            ratings.update({s.version_id: r for s, r in zip(table_seats, after)})
    return ratings


class Scheduler:
    """Tables played ``[league] parallel_tables`` at a time, each by a worker thread that forms a
    table, plays it and rates it, until ``stop`` is set, ``max_tables`` tables have been rated in
    this run, or a table is interrupted (Ctrl-C, SIGTERM: every table's runner stops its games
    and keeps what is recorded).  A table's own games run ``[league] concurrency`` at a time.
    Forming and rating take turns (one lock): a table is formed from the ratings rated so far,
    and the rating order is the order in which tables were rated.  A start first finishes the
    tables the last run left playing."""

    def __init__(self, league: League, max_tables: int | None = None, on_rated: Callable[[int], None] | None = None,
                 idle_s: float = 1.0) -> None:
        self.league = league
        self.max_tables = max_tables
        self.on_rated = on_rated
        self.idle_s = idle_s
        self.stop = threading.Event()
        self.rated = 0
        self.errors: list[str] = []
        self.interrupted = False
        self.playing: set[int] = set()  # the tables playing now
        self.play_s = 0.0  # wall time inside the tables' runs, summed over the workers
        self.own_s = 0.0  # the league's own: forming and rating tables, summed over the workers
        self._turn = threading.Lock()  # forming and rating, one at a time; guards the fields above
        self._cancel = threading.Event()  # stops every table's run (as Ctrl-C stops one)
        self._leftover: list[int] = []
        self._failure: BaseException | None = None

    @property
    def current(self) -> int | None:
        """A table playing now (the lowest id), if any."""
        return min(self.playing, default=None)

    def run(self) -> None:
        with Session(self.league.engine) as session:
            self._leftover = list(session.scalars(select(LeagueTable.id).where(LeagueTable.state == "playing")
                                                  .order_by(LeagueTable.id)))
        workers = [threading.Thread(target=self._work, name=f"league-table-{i + 1}", daemon=True)
                   for i in range(self.league.config.parallel_tables)]
        with _ray_connection(self.league.executor, len(workers)):
            for worker in workers:
                worker.start()
            try:
                while any(w.is_alive() for w in workers):
                    for worker in workers:
                        worker.join(timeout=0.2)
            except KeyboardInterrupt:
                self.interrupted = True
                self._cancel.set()
                self.stop.set()
                for worker in workers:
                    worker.join()
        if self._failure is not None:
            raise self._failure

    def _take(self) -> int | None:
        """The next table to play: one left playing, else a new one; None when there is none now."""
        with self._turn:
            enough = self.max_tables is not None and self.rated + len(self.playing) >= self.max_tables
            if self.stop.is_set() or enough:
                return None
            started = time.perf_counter()
            table_id = self._leftover.pop(0) if self._leftover else None
            if table_id is None and not self.league.paused:
                table_id = form_table(self.league)
            if table_id is not None:
                self.playing.add(table_id)
            self.own_s += time.perf_counter() - started
            return table_id

    def _finished(self) -> bool:
        with self._turn:
            return self.stop.is_set() or (self.max_tables is not None and self.rated >= self.max_tables)

    def _work(self) -> None:
        try:
            while not self._finished():
                table_id = self._take()
                if table_id is None:  # paused, too few bots free, or the last tables are playing
                    self.stop.wait(self.idle_s)
                    continue
                if not self._play(table_id):
                    return
        except BaseException as exc:  # noqa: BLE001 - raised again by run(), in the main thread
            with self._turn:
                self._failure = self._failure or exc
            self.stop.set()
            self._cancel.set()

    def _play(self, table_id: int) -> bool:
        """Play and rate one table; False if it was interrupted."""
        for _ in range(ATTEMPTS):
            started = time.perf_counter()
            summary = play_table(self.league, table_id, self._cancel)
            with self._turn:
                self.play_s += time.perf_counter() - started
            if summary.interrupted:
                with self._turn:
                    self.interrupted = True
                self.stop.set()
                self._cancel.set()  # one table stopped (SIGTERM reaches it): the others stop too
                return False
            if summary.played + summary.resumed + summary.skipped >= summary.total:
                break
            # A table process that died (killed, out of memory) left its game unrecorded
            # and the run ended without it: play the table's missing games again.
            log.warning("table %s: %d of %d games recorded; playing the rest again", table_id,
                        summary.played + summary.resumed, summary.total)
        with self._turn:
            started = time.perf_counter()
            if summary.errors:
                # Runner errors are bugs, never a bot's doing; the games recorded are rated.
                self.errors += [f"table {table_id}: {e}" for e in summary.errors]
                log.error("table %s: %s", table_id, "; ".join(summary.errors))
            rated = rate_table(self.league, table_id)
            self.playing.discard(table_id)
            self.rated += rated
            self.own_s += time.perf_counter() - started
            if rated and self.on_rated is not None:
                self.on_rated(table_id)
        return True


@contextlib.contextmanager
def _ray_connection(executor: dict[str, Any] | None, tables: int) -> Iterator[None]:
    """With the Ray executor and tables at once: one connection to the cluster for all of them
    (a table's run that connected itself would disconnect the others' when it ends)."""
    if executor is None or executor.get("kind") != "ray" or tables < 2:
        yield
        return
    from tournament.executor_ray import connected

    with connected(executor.get("address")):
        yield
