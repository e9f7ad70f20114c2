"""A whole tournament: preflight, worker tables, recording, disqualification, standings.

Each worker thread drives one :class:`~tournament.match.Table` with its own bot
processes: in the runner's process for a single table, else (``workers = "auto"``) in a
forked process per table (:class:`ProcessTable`), because with fast bots the referee's
Python work -- views, JSON, events -- is the bottleneck and threads would share one
interpreter lock.  Workers take jobs in schedule order from a shared queue and decide
disqualifications; only the main thread writes results, so the results file needs no
locking.  Ctrl-C (or SIGTERM via the CLI) stops the workers and the table processes,
kills every bot process group, and leaves every finished game recorded.  A table process
also dies with its runner (Linux: even a killed one), taking its bots with it.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import multiprocessing
import os
import queue
import signal
import socket
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from tournament.checks import disqualifications as _disqualifications
from tournament.checks import fault_totals as _fault_totals
from tournament.checks import preflight
from tournament.config import ConfigError, TournamentConfig, dump_effective
from tournament.files import write_json
from tournament.match import RECORD_FORMAT, GameAborted, GameResult, Table
from tournament.paired import PairedMargin, PairedResults, PairedShape
from tournament.process import kill_all, kill_all_now
from tournament.ratings import BotStanding, compute_standings, deal_rows
from tournament.results import (
    EFFECTIVE_CONFIG_FILE,
    ProgressCallback,
    ResultStore,
    record_in_manifest,
    write_csv,
)
from tournament.sandbox import SandboxUnavailable, require_sandbox, unsandboxed_notice
from tournament.schedule import DealQueue, Job, paired_seatings
from tournament.sequential import PairedProgress
from trickcore import tables

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from types import FrameType

    from tournament.executor_ray import RayExecutor


@dataclasses.dataclass
class RunSummary:
    out_dir: Path
    total: int  # games in the schedule
    played: int  # games played by this invocation
    resumed: int  # games found already recorded
    skipped: int  # games not played because a bot was disqualified
    errors: list[str]  # runner errors (bugs); those games are not recorded and a resume retries them
    interrupted: bool
    standings: list[BotStanding]
    disqualified: dict[str, str]
    warnings: list[str]
    executor: str = "local"  # [executor] kind
    nodes: list[NodeThroughput] = dataclasses.field(default_factory=list)  # this invocation's games per node
    replayed: int = 0  # games started again elsewhere because their table or node died (ray)
    paired: PairedMargin | None = None  # format 'paired': A - B over the complete pairs (None before the first)
    sprt: str | None = None  # [stop] sprt: where the test stands (PairedProgress.describe_sprt)
    stopped_early: bool = False  # the test decided and the rest of the schedule was not played


@dataclasses.dataclass
class NodeThroughput:
    """What one node of the executor played in this invocation."""

    node: str  # "local", or a Ray node id
    host: str
    tables: int  # tables (Ray actors) that recorded a game there
    games: int
    decisions: int  # bot decisions
    seconds: float  # wall time of the invocation, from the first table started to the last record

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else 0.0


def node_throughput(records: list[dict[str, Any]], seconds: float) -> list[NodeThroughput]:
    """Played games and bot decisions per node (records name their ``node`` and ``host``, and
    remote ones their ``table_worker``), busiest node first."""
    nodes: dict[str, NodeThroughput] = {}
    workers: dict[str, set[str | None]] = collections.defaultdict(set)
    for rec in records:
        if rec.get("status") != "played":
            continue
        node = str(rec.get("node", "local"))
        entry = nodes.setdefault(node, NodeThroughput(node, str(rec.get("host", "")), 0, 0, 0, seconds))
        entry.games += 1
        entry.decisions += sum(1 for a in rec.get("actions", ()) if a.get("by") == "bot")
        workers[node].add(rec.get("table_worker"))
    for node, entry in nodes.items():
        entry.tables = len(workers[node])
    return sorted(nodes.values(), key=lambda n: (-n.games, n.node))


def format_throughput(nodes: list[NodeThroughput]) -> str:
    """Per-node throughput as a plain-text table."""
    header = ["node", "host", "tables", "games", "decisions", "decisions/s"]
    rows = [[n.node[:12], n.host, str(n.tables), str(n.games), str(n.decisions), f"{n.rate:,.0f}"] for n in nodes]
    if len(nodes) > 1:
        seconds = max(n.seconds for n in nodes)
        total = sum(n.decisions for n in nodes)
        rows.append(["all", "", str(sum(n.tables for n in nodes)), str(sum(n.games for n in nodes)), str(total),
                     f"{total / seconds if seconds > 0 else 0.0:,.0f}"])
    return tables.render(header, rows, right=[2, 3, 4, 5])



def table_cpus(config: TournamentConfig) -> list[int]:
    """The CPUs tables are pinned to with ``cpu_affinity = "table"`` (table i -> the i-th, round
    robin); empty when tables are not pinned or the platform cannot pin."""
    if config.cpu_affinity != "table" or not hasattr(os, "sched_getaffinity"):
        return []
    return sorted(os.sched_getaffinity(0))


def pin_thread(cpu: int) -> None:
    """Run the calling thread on ``cpu`` only (Linux: the affinity of a thread is its own)."""
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError:
        pass


def use_processes(config: TournamentConfig, tables: int) -> bool:
    """``workers = "auto"``: a process per table when more than one table runs and the platform
    can fork; one table stays in the runner's process."""
    if config.workers == "threads" or tables < 1:
        return False
    can_fork = "fork" in multiprocessing.get_all_start_methods()
    if config.workers == "processes":
        return can_fork
    return tables > 1 and can_fork


class RemoteTableError(RuntimeError):
    """A runner error inside a table process (the traceback is the message)."""


class TableProcessDied(RuntimeError):
    """A table process ended without being asked to."""


class ProcessTable:
    """A :class:`~tournament.match.Table` in a forked child process, so that tables do not share
    one interpreter lock.  A worker thread sends it jobs and receives game records; the child
    owns the bot processes, writes transcripts and stderr files itself, and kills its bots
    when it is interrupted (SIGINT/SIGTERM) or its parent disappears."""

    def __init__(self, config: TournamentConfig, out: Path, cpu: int | None):
        ctx = multiprocessing.get_context("fork")
        self.conn, child_end = ctx.Pipe()
        self.proc = ctx.Process(target=_table_process, args=(config, out, cpu, child_end, self.conn),
                                name="trickcore-table", daemon=True)
        self.proc.start()
        child_end.close()
        self.stopping = False

    def play(self, job: Job) -> GameResult:
        try:
            self.conn.send(job)
            kind, payload = self.conn.recv()
        except Exception:  # EOF, a broken pipe, or a message cut short by a signal
            self.proc.join(timeout=5)
            # The child exits on its own only when interrupted (exit code 0) or by a signal;
            # anything else is a bug.
            if self.stopping or self.proc.exitcode in (0, -signal.SIGINT, -signal.SIGTERM, -signal.SIGKILL):
                raise GameAborted() from None
            raise TableProcessDied(f"the table process ended unexpectedly (exit code {self.proc.exitcode}); "
                                   f"its remaining games are played by the other tables") from None
        if kind == "aborted":
            raise GameAborted()
        if kind == "error":
            raise RemoteTableError(payload)
        return cast(GameResult, payload)

    def interrupt(self) -> None:
        """Ctrl-C: the child kills its bots and exits; the game in progress is not recorded."""
        self.stopping = True
        if self.proc.is_alive():
            assert self.proc.pid is not None  # started in __init__
            try:
                os.kill(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def close(self) -> None:
        """No more games: the child says quit to its bots and exits."""
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.proc.join(timeout=30)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(timeout=5)
        self.conn.close()


def _table_process(config: TournamentConfig, out: Path, cpu: int | None,
                   conn: Connection[tuple[str, GameResult | str | None], Job | None],
                   parent_end: Connection[Any, Any]) -> None:
    """The child side of :class:`ProcessTable`."""
    parent_end.close()
    stopping = _stop_on_signals(conn)
    table = Table(config, out, cpu=cpu)
    graceful = False
    try:
        if not _terminate_with_parent():
            return
        if cpu is not None:
            try:
                os.sched_setaffinity(0, {cpu})
            except OSError:
                pass
        while not stopping():
            job = conn.recv()  # EOFError: the runner is gone, or a signal shut the connection
            if job is None:
                graceful = True
                return
            try:
                result = table.play(job)
            except GameAborted:
                conn.send(("aborted", None))
                continue
            except Exception:
                if stopping():  # its bots were killed under it: the game is abandoned, not failed
                    return
                conn.send(("error", traceback.format_exc()))
                table.close()  # a table in an unknown state starts afresh
                continue
            # a game its bots were killed in is not recorded (the runner reads EOF, then exit 0)
            if not stopping():
                conn.send(("played", result))
    except (EOFError, OSError):
        pass
    finally:
        if graceful:
            table.close()
        kill_all()


def _stop_on_signals(conn: Connection[Any, Any]) -> Callable[[], bool]:
    """Ctrl-C and SIGTERM (the runner's, or the kernel's when the runner dies) in a table process.
    The handler runs between two bytecodes of whatever the main thread is doing, so it raises
    nothing and takes no lock: an exception raised there can leave a lock held (bpo-29988), on
    which the cleanup would then wait forever.  It kills the bots and shuts the connection to the
    runner, which ends the main loop's wait for a job or for a bot's reply; the loop then sees
    the returned check come true and leaves.  Returns that check."""
    stopped = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopped
        stopped = True
        kill_all_now()
        try:
            with socket.fromfd(conn.fileno(), socket.AF_UNIX, socket.SOCK_STREAM) as shared:  # a duplicate fd
                shared.shutdown(socket.SHUT_RDWR)
        except OSError:  # closed already
            pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    return lambda: stopped


def _terminate_with_parent() -> bool:
    """Linux: SIGTERM this process when the runner dies (even by SIGKILL), so that a table
    process never plays on, with its bots, after its runner is gone.  Elsewhere the table
    notices when it next talks to the runner.  False if the runner is gone already."""
    parent = os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return True
    return os.getppid() == parent  # else the runner died before the request was in place


def run_tournament(config: TournamentConfig, out_dir: str | Path | None = None, resume: bool = False,
                   progress: ProgressCallback | None = None, check_bots: bool = True,
                   cancel: threading.Event | None = None) -> RunSummary:
    """Play every scheduled game not yet recorded in the output folder, on ``concurrency``
    tables, appending each record as its game ends; then write the standings and outputs.

    The run stops as Ctrl-C stops it (bots killed, finished games kept, ``interrupted``) on
    SIGINT in the main thread or, from any thread, when ``cancel`` is set: a program that runs
    several tournaments at once in threads (the league's scheduler) stops them that way."""
    if config.executor.kind == "local":  # (remote tables check where they run, in their preflight)
        try:  # before anything is written or started: a run that cannot sandbox its bots does not begin
            require_sandbox(config)
        except SandboxUnavailable as exc:
            raise ConfigError([f"sandbox: {exc}"], config.source) from None
    out = Path(out_dir or config.output)
    if out_dir is not None:  # the folder the bots must not see is the one written to
        config = dataclasses.replace(config, output=str(out))
    store = ResultStore(out)
    existing = store.open(config, resume)
    try:
        dump_effective(config, out / EFFECTIVE_CONFIG_FILE)
        run = _TournamentRun(config, out, store, existing, check_bots)
        run.cancel = cancel
        run.start_tables()
        run.collect(progress)
        return run.finish()
    finally:
        store.close()


def remote_executor(config: TournamentConfig) -> RayExecutor | None:
    """The executor that runs the tables elsewhere (``[executor] kind``), or None for local
    tables.  The Ray executor (:class:`tournament.executor_ray.RayExecutor`) is imported only
    when asked for, so local runs need no Ray."""
    if config.executor.kind == "ray":
        from tournament.executor_ray import RayExecutor

        return RayExecutor(config)
    return None


class _TournamentRun:
    """One invocation of a tournament: a queue of pending games, worker threads each driving a
    table (in this process or a forked one), and the main thread as the single writer of the
    records, counting faults towards disqualifications as games end.

    The tables are local (threads, or forked processes) unless ``[executor]`` names another
    executor: that object then runs the preflight, starts the tables and collects their
    outcomes (``preflight``, ``start``, ``collect``, ``close``, each given this run), handing
    each outcome to ``_record`` here; recording, disqualification and the outputs stay here."""

    def __init__(self, config: TournamentConfig, out: Path, store: ResultStore, existing: dict[str, dict[str, Any]],
                 check_bots: bool) -> None:
        self.config, self.out, self.store, self.existing = config, out, store, existing
        self.schedule = store.schedule  # rebuilt by store.open with the run's master key
        self.pending = [job for job in self.schedule if job.job_id not in existing]
        self.started = time.monotonic()
        self.executor = remote_executor(config)
        self.warnings = self._preflight() if (check_bots and self.pending) else []
        if self.warnings and config.preflight == "stop":
            # Hundreds of forfeits help nobody: a bot that cannot start stops the run up front.
            raise ConfigError([*self.warnings, 'nothing was played; fix the bot, or set tournament.preflight = "warn" '
                                               "to play anyway (its handshake failure policy then applies to every "
                                               "game)"], config.source)
        notice = unsandboxed_notice(config)
        if notice:
            self.warnings.append(notice)
        self.totals = _fault_totals(existing.values())
        self.disqualified = _disqualifications(config, self.totals)
        self.lock = threading.Lock()  # guards totals and disqualified, shared by the workers
        self.stop = threading.Event()
        # [stop] sprt: set once the test decides; the tables finish the games they are playing
        # and take no new one
        self.drain = threading.Event()
        # with [stop] sprt: the games played but not yet counted by the main thread, whose
        # workers wait for that before they take another job (_play)
        self.counted: dict[str, threading.Event] = {}
        # paired: the margin so far for the progress line, and the [stop] sprt test
        self.paired = PairedProgress(config, list(existing.values())) if config.candidates is not None else None
        self.sequential = self.paired if config.sprt is not None else None
        if self.sequential is not None:
            if self.sequential.decision is not None:
                self.drain.set()    # decided before this invocation: nothing more to play
            self.sequential.write(out, stopped_early=self.drain.is_set())   # readable from the start
        self.jobs = DealQueue(self.pending)  # no two games of one deal at once
        self.done: queue.Queue[tuple[str, Job, Any]] = queue.Queue()  # a record, or an error's traceback
        self.cpus = table_cpus(config)
        self.remote: list[ProcessTable] = []
        self.workers: list[threading.Thread] = []
        self.played = self.skipped = 0
        self.errors: list[str] = []
        self.interrupted = False
        self.cancel: threading.Event | None = None  # set by another thread: stop as Ctrl-C does
        self.new_records: list[dict[str, Any]] = []
        self.replayed = 0
        self.last_record = self.started

    def _preflight(self) -> list[str]:
        if self.executor is not None:  # where the tables run: the bots must start there
            return self.executor.preflight(self)
        return preflight(self.config)

    # ---- tables and workers -----------------------------------------------------------
    def start_tables(self) -> None:
        self.started = self.last_record = time.monotonic()
        if self.drain.is_set():     # the sequential test decided in an earlier invocation
            return
        if self.executor is not None:
            self.executor.start(self)
            return
        n_tables = min(self.config.concurrency, len(self.pending))
        if use_processes(self.config, n_tables):
            # Table processes are forked here, by the main thread, before any worker thread runs.
            self.remote = [ProcessTable(self.config, self.out, self._cpu(i)) for i in range(n_tables)]
        self.workers = [threading.Thread(target=self._worker, args=(i,), name=f"table-{i}", daemon=True)
                        for i in range(n_tables)]
        for w in self.workers:
            w.start()

    def _cpu(self, index: int) -> int | None:
        return self.cpus[index % len(self.cpus)] if self.cpus else None

    def _table(self, index: int) -> Table | ProcessTable:
        if self.remote:
            return self.remote[index]
        cpu = self._cpu(index)
        if cpu is not None:
            pin_thread(cpu)
        return Table(self.config, self.out, self.stop, cpu=cpu)

    def _worker(self, index: int) -> None:
        table = self._table(index)
        try:
            while not self.stop.is_set() and not self.drain.is_set():
                job = self.jobs.take(lambda: self.stop.is_set() or self.drain.is_set())
                if job is None:
                    return
                try:
                    if not self._play(table, job):
                        return
                finally:
                    self.jobs.done(job)
        finally:
            table.close()

    def _play(self, table: Table | ProcessTable, job: Job) -> bool:
        """Play (or skip) one job and hand its outcome to the main thread; False when this
        worker must stop (interrupted, or its table process died)."""
        with self.lock:
            out_bots = [b for b in job.bots if b in self.disqualified]
            reason = f"{out_bots[0]} disqualified: {self.disqualified[out_bots[0]]}" if out_bots else None
        if reason:
            self.done.put(("skipped", job, {"format": RECORD_FORMAT, "status": "skipped", **job.to_dict(),
                                            "reason": reason}))
            return True
        try:
            record = table.play(job).record
        except GameAborted:
            return False
        except RemoteTableError as exc:
            self.done.put(("error", job, str(exc)))  # the table process has started afresh
            return True
        except TableProcessDied as exc:
            self.done.put(("error", job, str(exc)))
            return False
        except Exception:
            self.done.put(("error", job, traceback.format_exc()))
            table.close()  # a table in an unknown state starts afresh
            return True
        # Counted here, before this worker takes its next job, so that with one table a
        # disqualification applies from the very next game.
        with self.lock:
            for seat, counts in enumerate(record.get("fault_counts", [])):
                self.totals[job.bots[seat]].update(counts)
            for bot, why in _disqualifications(self.config, self.totals).items():
                self.disqualified.setdefault(bot, why)
        if self.sequential is None:
            self.done.put(("played", job, record))
            return True
        # [stop] sprt: the next game starts only once the main thread has counted this one, so
        # that a decision stops the run after the same game whatever the threads' timing (a
        # resumed run then ends where one going through does).
        counted = threading.Event()
        self.counted[job.job_id] = counted
        self.done.put(("played", job, record))
        while not counted.wait(0.2):
            if self.stop.is_set():
                return False
        return True

    # ---- the main thread: the single writer ---------------------------------------------
    def collect(self, progress: ProgressCallback | None) -> None:
        """Record each game as it ends (append + fsync) until every pending job is accounted
        for or the workers are gone; Ctrl-C stops the tables and keeps what is recorded."""
        if self.executor is not None:
            self.executor.collect(self, progress)
            return
        try:
            accounted = 0
            while accounted < len(self.pending):
                if self.cancelled():
                    raise KeyboardInterrupt  # stopped from another thread: as Ctrl-C stops it
                try:
                    kind, job, payload = self.done.get(timeout=0.2)
                except queue.Empty:
                    if not any(w.is_alive() for w in self.workers) and self.done.empty():
                        break
                    continue
                accounted += 1
                if self._record(kind, job, payload) and progress:
                    progress(accounted + len(self.existing), len(self.schedule), payload, self.progress_note())
        except KeyboardInterrupt:
            self.interrupted = True
            self.stop.set()
            for table in self.remote:
                table.interrupt()
            kill_all()
        for w in self.workers:
            w.join(timeout=10)

    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()

    def _record(self, kind: str, job: Job, payload: Any) -> bool:
        if kind == "error":
            self.errors.append(f"game {job.job_id}: runner error (not recorded; --resume retries it):\n{payload}")
            return False
        self.store.append(payload)
        self.new_records.append(payload)
        self.last_record = time.monotonic()
        if kind == "played":
            self.played += 1
        else:
            self.skipped += 1
        counted = self.paired is not None and self.paired.add(payload)
        test = self.sequential
        if test is not None and counted:
            if test.decision is not None and not self.drain.is_set():
                self.drain.set()
            test.write(self.out, stopped_early=self.drain.is_set())
        waiting = self.counted.pop(job.job_id, None)
        if waiting is not None:     # the worker that played it may take its next job now
            waiting.set()
        every = self.config.records.report_every
        if every and (self.played + self.skipped) % every == 0:
            self._rewrite_report()
        return True

    def progress_note(self) -> str:
        """Where the run's question stands, for the progress line: a paired run's margin A - B
        over the deals complete so far, or its sequential test (the LLR between the bounds, the
        margin); nothing for other formats."""
        return "" if self.paired is None else self.paired.describe()

    def _rewrite_report(self) -> None:
        """``[records] report_every``: the report again, for an organiser watching the run (a
        report that cannot be written now is left for the next time and for the end)."""
        from tournament.report import write_report

        try:
            write_report(self.out, replays=0)   # the replay pages come with the report at the end
        except Exception as exc:  # noqa: BLE001 - a report must never stop the games
            self.warnings.append(f"the report could not be rewritten during the run: {type(exc).__name__}: {exc}")

    def finish(self) -> RunSummary:
        all_records = list(self.existing.values()) + self.new_records
        standings = compute_standings(self.config, all_records, self.disqualified)
        paired = write_outputs(self.config, self.out, all_records, standings, self.disqualified)
        if self.executor is not None:
            self.executor.close()
        nodes = node_throughput(self.new_records, self.last_record - self.started)
        test = self.sequential
        if test is not None:
            test.write(self.out, stopped_early=self.drain.is_set())
            outcome = test.outcome(self.drain.is_set())
            record_in_manifest(self.out, "sprt", outcome)
            add_to_summary(self.out, "sprt", outcome)
        return RunSummary(self.out, len(self.schedule), self.played, len(self.existing), self.skipped, self.errors,
                          self.interrupted, standings, self.disqualified, self.warnings, self.config.executor.kind,
                          nodes, self.replayed, paired, None if test is None else test.describe_sprt(),
                          self.drain.is_set())


STANDINGS_COLUMNS = ("bot", "games", "mean_score", "ci95", "mean_rank", "win_share", "mu", "sigma", "ordinal",
                     "forfeits", "faults", "think_ms_mean", "think_ms_max", "runner_us_mean", "disqualified")


PAIRS_COLUMNS = ("pair", "deal", "seed", "seating", "seats", "a_job", "b_job", "a_score", "b_score", "margin")


def write_outputs(config: TournamentConfig, out: Path, records: list[dict[str, Any]], standings: list[BotStanding],
                  disqualified: dict[str, str]) -> PairedMargin | None:
    """standings.csv/json, deals.csv/json, summary.json -- stable, versioned field sets -- and, for
    format 'paired', pairs.csv/json; returns the paired margin (None for other formats, or before
    the first complete pair)."""
    paired = write_pairs(config, out, records) if config.format == "paired" else None
    rows = []
    for s in standings:
        rows.append([s.name, s.games, _r(s.mean_score), _r(s.ci95), _r(s.mean_rank), _r(s.win_share), _r(s.mu),
                     _r(s.sigma), _r(s.ordinal), s.forfeits, sum(s.faults.values()), _r(s.think_ms_mean),
                     _r(s.think_ms_max), _r(s.runner_us_mean), s.disqualified or ""])
    write_csv(out / "standings.csv", list(STANDINGS_COLUMNS), rows)
    write_json(out / "standings.json", {"format": "trickcore-standings/1",
                                        "standings": [s.to_dict() for s in standings]})
    deals = deal_rows(config, records)
    names = [b.name for b in config.bots]
    write_csv(out / "deals.csv", ["table", "deal", "seed", "games", *names],
              [[d["table"], d["deal"], d["seed"], d["games"], *[_r(d["mean_scores"].get(n)) for n in names]]
               for d in deals])
    write_json(out / "deals.json", {"format": "trickcore-deals/1", "deals": deals})
    played = [r for r in records if r.get("status") == "played"]
    overheads = sorted(a["runner_us"] for r in played for a in r.get("actions", []) if "runner_us" in a)
    write_json(out / "summary.json", {
        "format": "trickcore-summary/1", "fingerprint": config.fingerprint(), "game": config.game,
        "players": config.players, "tournament_format": config.format, "games_played": len(played),
        "games_skipped": sum(1 for r in records if r.get("status") == "skipped"),
        "faults": sum(len(r.get("faults", [])) for r in played), "disqualified": disqualified,
        "sandbox": config.sandbox.kind,
        "deal_file": config.deal_file,  # a run on a deal file plays public deals; null: secret seeded ones
        "runner_latency_us": _percentiles(overheads),
        **({"paired_margin": paired.to_dict() if paired else None} if config.format == "paired" else {})})
    return paired


def add_to_summary(out: Path, key: str, value: Any) -> None:
    """One more entry of summary.json (the sequential test's outcome, known once the run ends)."""
    path = out / "summary.json"
    summary = json.loads(path.read_text(encoding="utf-8"))
    summary[key] = value
    write_json(path, summary)


def write_pairs(config: TournamentConfig, out: Path, records: list[dict[str, Any]]) -> PairedMargin | None:
    """pairs.csv and pairs.json of a paired run: every complete pair in pair order
    (tournament.paired), the number of pairs scheduled, and the margin A - B over them."""
    assert config.candidates is not None  # format 'paired'
    results = PairedResults(PairedShape.of_config(config), records)
    rows, paired = results.rows(), results.margin()
    write_csv(out / "pairs.csv", list(PAIRS_COLUMNS),
              [[" ".join(map(str, row["seats"])) if key == "seats" else row[key] for key in PAIRS_COLUMNS]
               for row in rows])
    write_json(out / "pairs.json", {"format": "trickcore-pairs/1",
                                    "candidates": {"a": list(config.candidates[0]), "b": list(config.candidates[1])},
                                    "scheduled": config.deals * len(paired_seatings(config)), "pairs": rows,
                                    "margin": paired.to_dict() if paired else None})
    return paired


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"decisions": 0}
    pick: Callable[[float], float] = lambda q: values[min(len(values) - 1, int(q * len(values)))]  # noqa: E731
    return {"decisions": len(values), "mean": round(sum(values) / len(values), 1), "p50": pick(0.5),
            "p99": pick(0.99), "max": values[-1]}


def _r(x: float | None, digits: int = 3) -> float | str:
    return "" if x is None else round(x, digits)


#: The columns of the standings a narrow terminal leaves out, first to last (standings.csv has
#: them all): the runner's latency and the bots' think times, forfeits (the faults count them),
#: the mean rank and the rating, so that at 80 columns a row keeps its score, interval, win
#: share and faults.
STANDINGS_OPTIONAL = (11, 10, 9, 5, 7)


def format_standings(standings: list[BotStanding], width: int | None = None) -> str:
    """The standings as a plain-text table (trickcore.tables: rich, no colours), fitted to
    ``width`` by leaving out STANDINGS_OPTIONAL columns where it is given."""
    header = ["#", "bot", "games", "score", "±95%", "rank", "win%", "mu±sigma", "faults", "forfeit", "think ms",
              "runner µs"]
    rows = []
    for i, s in enumerate(standings, 1):
        rows.append([str(i), s.name + (" (DQ)" if s.disqualified else ""), str(s.games), _f(s.mean_score, 2),
                     _f(s.ci95, 2), _f(s.mean_rank, 2), _f(None if s.win_share is None else 100 * s.win_share, 1),
                     f"{s.mu:.1f}±{s.sigma:.1f}", str(sum(s.faults.values())), str(s.forfeits),
                     _f(s.think_ms_mean, 1), _f(s.runner_us_mean, 0)])
    return tables.render(header, rows, right=[i for i in range(len(header)) if i != 1], width=width,
                         optional=STANDINGS_OPTIONAL)


def _f(x: float | None, digits: int) -> str:
    return "-" if x is None else f"{x:.{digits}f}"
