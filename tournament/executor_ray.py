"""Tables on a Ray cluster: ``[executor] kind = "ray"`` (docs/tournament.md, "Running on a cluster").

Each table is a Ray actor (:class:`TableWorker`) that owns a :class:`~tournament.match.Table`
and its bot processes on whatever node Ray placed it.  The unit of work is a **batch**: a
table plays a run of scheduled games (deal seeds and seatings come from the schedule, as
locally) and yields each game's record as the game ends (a Ray streaming generator), so the
runner records games one by one while the batch goes on.  The runner (this process) stays
the single writer of ``results.jsonl`` and of every other output file: a remote table sends
its transcripts and stderr files along with the record.

Faults: when a table's actor or its whole node dies, the games of its batches that have
not come back are put at the front of the queue and played again by another table (a new
actor, with new bot processes); the games that came back are kept.  A game is recorded at
most once (the runner drops any second record of a job), and a game whose table died
``max_attempts`` times is reported as a runner error, not recorded, so ``--resume`` tries it
again.  Ctrl-C, SIGTERM and ``--resume`` work as with local tables.

Bots are started by the tables, so their commands must work on every node: placeholders
(``{python}``, ``{bots}``, ``{config_dir}``) are expanded on the node itself, and
``[executor] working_dir`` ships a folder (bots, data) to every node with Ray's runtime
environment; ``{config_dir}`` then points into the shipped copy.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import importlib.metadata
import math
import os
import socket
import threading
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ray

from tournament.checks import disqualifications, fault_totals, preflight
from tournament.config import ConfigError, TournamentConfig, expand_placeholders, parse_config
from tournament.match import RECORD_FORMAT, GameAborted, Table
from tournament.process import kill_all
from tournament.results import ProgressCallback
from tournament.schedule import Job, next_free

#: The runner's run (tournament.runner._TournamentRun), which hands itself to the executor; not
#: imported, since the runner imports this module.
_TournamentRun = Any


def _version() -> str:
    try:
        return importlib.metadata.version("trickcore")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def worker_config(doc: dict[str, Any], source: str, config_dir: str, shipped: str | None) -> TournamentConfig:
    """The tournament's config as a worker sees it: the effective config parsed again on the
    node, so that ``{python}`` and ``{bots}`` are this node's interpreter and bundled bots.
    ``{config_dir}`` is the driver's folder of the config, or, when that folder was shipped
    with ``working_dir`` (``shipped`` = its path inside working_dir), the node's copy of it."""
    here = Path(config_dir)
    if shipped is not None:
        here = (Path.cwd() / shipped).resolve()  # the worker runs inside its copy of working_dir
    return parse_config(doc, source, here)


class TableWorker:
    """One table on a Ray node (a Ray actor): plays batches of games and yields their outcomes.

    ``play`` runs in the actor's default group, one batch after another; ``disqualify`` and
    ``interrupt`` run in a control group of their own, so the runner reaches a table that is
    in the middle of a batch."""

    def __init__(self, doc: dict[str, Any], source: str, config_dir: str, shipped: str | None, fingerprint: str,
                 totals: dict[str, dict[str, int]], disqualified: dict[str, str]) -> None:
        context = ray.get_runtime_context()
        self.node = context.get_node_id()
        actor_id = context.get_actor_id()
        assert actor_id is not None  # this runs in an actor
        self.worker = actor_id[:12]
        self.problems: list[str] = []
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.totals: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        for bot, counts in totals.items():
            self.totals[bot].update(counts)
        self.disqualified = dict(disqualified)
        self.table: Table | None = None
        try:
            self.config = worker_config(doc, source, config_dir, shipped)
        except ConfigError as exc:
            self.problems = list(exc.problems)
            return
        if self.config.fingerprint() != fingerprint:
            self.problems = [f"the config reads differently on this node (trickcore {_version()} here): install "
                             f"the runner's trickcore version on every node"]
            return
        self.table = Table(self.config, None, self.stop, node=self.node, collect_files=True)

    def hello(self) -> dict[str, Any]:
        """Where this table runs, and any problem with the config on its node."""
        return {"node": self.node, "host": socket.gethostname(), "pid": os.getpid(), "worker": self.worker,
                "version": _version(), "problems": self.problems}

    def check_bots(self) -> tuple[list[str], list[str]]:
        """The preflight (each bot started once) on this node: (config problems, warnings)."""
        try:
            return [], preflight(self.config)
        except ConfigError as exc:
            return list(exc.problems), []

    def play(self, jobs: list[Job]) -> Iterator[tuple[str, str, dict[str, Any] | str, dict[str, str]]]:
        """Play the batch; yield ``(kind, job id, payload, files)`` as each game ends: ``played``
        with its record, ``skipped`` (a bot disqualified), or ``error`` (a runner error)."""
        assert self.table is not None
        for job in jobs:
            if self.stop.is_set():
                return
            with self.lock:
                out_bots = [b for b in job.bots if b in self.disqualified]
                reason = f"{out_bots[0]} disqualified: {self.disqualified[out_bots[0]]}" if out_bots else None
            if reason:
                yield ("skipped", job.job_id, {"format": RECORD_FORMAT, "status": "skipped", **job.to_dict(),
                                               "reason": reason}, {})
                continue
            try:
                result = self.table.play(job)
            except GameAborted:
                return
            except Exception:
                self.table.close()  # a table in an unknown state starts afresh
                yield ("error", job.job_id, traceback.format_exc(), {})
                continue
            record = result.record
            record["table_worker"] = self.worker
            with self.lock:  # this table's own faults disqualify at once, as with a local table
                for seat, counts in enumerate(record.get("fault_counts", [])):
                    self.totals[job.bots[seat]].update(counts)
                for bot, why in disqualifications(self.config, self.totals).items():
                    self.disqualified.setdefault(bot, why)
            yield ("played", job.job_id, record, result.files)

    @ray.method(concurrency_group="control")
    def disqualify(self, disqualified: dict[str, str]) -> None:
        """Disqualifications decided by the runner (from every table's games)."""
        with self.lock:
            for bot, why in disqualified.items():
                self.disqualified.setdefault(bot, why)

    @ray.method(concurrency_group="control")
    def interrupt(self) -> None:
        """Ctrl-C: stop the game in progress (not recorded) and kill every bot process."""
        self.stop.set()
        kill_all()

    def close(self) -> None:
        """No more games: ``quit`` to the bots."""
        if self.table is not None:
            self.table.close()


# Any: Ray's types cover neither the concurrency_groups option nor calls to the actor's methods.
RemoteTableWorker: Any = ray.remote(concurrency_groups={"control": 1})(TableWorker)  # type: ignore[call-overload, unused-ignore]


@dataclasses.dataclass
class _Batch:
    jobs: list[Job]
    stream: ray.ObjectRefGenerator  # of TableWorker.play
    left: list[str]  # job ids not yet reported, in order


@dataclasses.dataclass
class _Slot:
    """A table: its actor, whether it has said hello, its batches in flight."""

    actor: Any  # the ray ActorHandle of a TableWorker (Ray's types do not cover its methods' .remote)
    hello: ray.ObjectRef[dict[str, Any]] | None  # the ObjectRef of hello(), until it is answered
    created: float
    node: str = ""
    host: str = ""
    ready: bool = False
    batches: list[_Batch] = dataclasses.field(default_factory=list)


class RayExecutor:
    """The tables of one tournament run as Ray actors (see the module's docstring).  The run
    (``tournament.runner._TournamentRun``) keeps the schedule, the fault totals and
    disqualifications, and records every outcome this executor hands it (``run._record``);
    this class connects to Ray, starts the tables, hands out batches and turns what comes
    back into those outcomes."""

    AHEAD = 2  # batches in flight per table: the next one waits at the table, so it never idles

    def __init__(self, config: TournamentConfig) -> None:
        self.config = config
        self.slots: list[_Slot] = []
        self.connected = False
        self.owns_ray = False  # this executor called ray.init, so it calls ray.shutdown
        self.shipped: str | None = None  # the config's folder inside working_dir, if it is shipped
        self.runtime_env: dict[str, str] = {}  # for each actor (empty when the job ships working_dir)
        self.queue: collections.deque[Job] = collections.deque()
        self.attempts: collections.Counter[str] = collections.Counter()
        self.accounted: set[str] = set()  # job ids recorded, skipped or given up on
        self.tables = 0
        self.start_failures = 0  # tables in a row that died before they said hello
        self.progress_at = time.monotonic()  # when a table last said hello or a game last came back

    # ---- the run's hooks --------------------------------------------------------------------
    def preflight(self, run: _TournamentRun) -> list[str]:
        """Start each bot once on a table of the cluster (the bots must start where the games
        are played); that table then plays as the first one."""
        self._connect()
        try:
            slot = self._new_slot(fault_totals(run.existing.values()), {})
            self.slots.append(slot)
            self._await_hello(slot)
            problems, warnings = ray.get(slot.actor.check_bots.remote())
        except BaseException:
            self.close()
            raise
        where = f"on node {slot.node[:12]} ({slot.host})"
        if problems:
            self.close()
            raise ConfigError([f"{where}: {p}" for p in problems], self.config.source)
        if warnings and self.config.preflight == "stop":
            self.close()  # the run stops on them
        return [f"{where}: {w}" for w in warnings]

    def start(self, run: _TournamentRun) -> None:
        self._connect()
        self.queue = collections.deque(run.pending)
        self.tables = min(self.config.concurrency, len(run.pending))
        self.progress_at = time.monotonic()
        if not run.pending:
            return
        cluster_cpus = ray.cluster_resources().get("CPU", 0)  # type: ignore[no-untyped-call, unused-ignore]  # unannotated in Ray
        wanted = self.tables * self.config.executor.cpus_per_table
        if wanted > cluster_cpus:
            run.warnings.append(f"the Ray cluster has {cluster_cpus:g} CPUs, fewer than the {wanted:g} that "
                                f"{self.tables} tables of {self.config.executor.cpus_per_table:g} CPUs need: "
                                f"the others wait for room")
        while len(self.slots) < self.tables:
            self.slots.append(self._new_slot(run.totals, run.disqualified))

    def collect(self, run: _TournamentRun, progress: ProgressCallback | None) -> None:
        """Hand out batches and record what comes back until every pending game is accounted
        for; tables that die give their unfinished games back to the queue."""
        self.run, self.progress = run, progress
        try:
            while len(self.accounted) < len(run.pending) and not self._given_up():
                if run.cancelled():
                    raise KeyboardInterrupt  # stopped from another thread: as Ctrl-C stops it
                if run.drain.is_set() and not any(s.batches for s in self.slots):
                    break   # the sequential test decided and the games in flight are back
                self._dispatch()
                waiting = [s.hello for s in self.slots if not s.ready and s.hello is not None] + \
                          [b.stream for s in self.slots if s.ready for b in s.batches]
                if not waiting:
                    if self._stalled():
                        break
                    time.sleep(0.05)
                    continue
                ready, _ = ray.wait(waiting, num_returns=1, timeout=0.5)
                for item in ready:
                    self._arrived(item)
                if not ready and self._stalled():
                    break
        except KeyboardInterrupt:
            run.interrupted = True
            self._interrupt_tables()
        finally:
            self._close_tables()

    def close(self) -> None:
        """Kill every table's actor and, if this executor started or joined Ray, disconnect."""
        for slot in self.slots:
            try:
                ray.kill(slot.actor)
            except Exception:
                pass
        self.slots = []
        if self.owns_ray:
            ray.shutdown()
            self.owns_ray = False

    # ---- Ray --------------------------------------------------------------------------------
    def _connect(self) -> None:
        if self.connected:
            return
        self.connected = True
        ex = self.config.executor
        if ex.working_dir:
            folder = Path(expand_placeholders(ex.working_dir, Path(self.config.config_dir))).resolve()
            self.runtime_env = {"working_dir": str(folder)}
            config_dir = Path(self.config.config_dir).resolve()
            if config_dir == folder or folder in config_dir.parents:
                self.shipped = str(config_dir.relative_to(folder))
        if ray.is_initialized():
            # The caller's connection (an embedding program, a test's cluster) is used as it is.
            # Ray ships a local folder only for a whole job (ray.init), so it must be shipped there.
            if self.runtime_env and ray.get_runtime_context().runtime_env.get("working_dir") is None:
                raise ConfigError([f"executor.working_dir: this process is already connected to Ray without a "
                                   f"working_dir; Ray ships a folder only for a whole job, so connect with "
                                   f"ray.init(runtime_env={{'working_dir': {self.runtime_env['working_dir']!r}}}) "
                                   f"or let the runner connect"], self.config.source)
            self.runtime_env = {}
            return
        kwargs = _init_options()
        if self.runtime_env:
            kwargs["runtime_env"] = self.runtime_env  # shipped once for the run; every table starts inside it
            self.runtime_env = {}
        if ex.address:
            ray.init(address=ex.address, **kwargs)
        else:
            # A Ray instance on this machine, for this run: room for every table.
            cpus = max(os.cpu_count() or 1, math.ceil(self.config.concurrency * ex.cpus_per_table))
            ray.init(address="local", num_cpus=cpus, **kwargs)
        self.owns_ray = True

    def _new_slot(self, totals: dict[str, collections.Counter[str]], disqualified: dict[str, str]) -> _Slot:
        """Start a table (a Ray actor) with the fault totals and disqualifications known now."""
        ex, config = self.config.executor, self.config
        doc = config.effective()
        doc.pop("executor", None)  # read on the driver; a worker needs none of it
        options: dict[str, Any] = {"num_cpus": ex.cpus_per_table, "max_restarts": 0, "max_task_retries": 0}
        if self.runtime_env:
            options["runtime_env"] = self.runtime_env
        actor = RemoteTableWorker.options(**options).remote(
            doc, config.source, str(Path(config.config_dir).resolve()), self.shipped, config.fingerprint(),
            {bot: dict(counts) for bot, counts in totals.items()}, dict(disqualified))
        return _Slot(actor, actor.hello.remote(), time.monotonic())

    def _await_hello(self, slot: _Slot) -> None:
        """Wait for the first table (the preflight runs there)."""
        assert slot.hello is not None  # a new table's
        ready, _ = ray.wait([slot.hello], timeout=self.config.executor.start_timeout_s)
        if not ready:
            raise ConfigError([f"executor: no table started within start_timeout_s = "
                               f"{self.config.executor.start_timeout_s:g} s (does the cluster have "
                               f"{self.config.executor.cpus_per_table:g} free CPUs for one table?)"],
                              self.config.source)
        self._hello(slot, ray.get(slot.hello))

    def _hello(self, slot: _Slot, info: dict[str, Any]) -> None:
        slot.node, slot.host, slot.ready, slot.hello = info["node"], info["host"], True, None
        if info["problems"]:
            raise ConfigError([f"on node {slot.node[:12]} ({slot.host}): {p}" for p in info["problems"]],
                              self.config.source)

    # ---- batches and outcomes ---------------------------------------------------------------
    def _given_up(self) -> bool:
        """Tables keep dying before they start (a runtime environment that cannot be set up, a
        node without trickcore): stop instead of starting them for ever."""
        limit = max(3, self.tables * self.config.executor.max_attempts)
        if self.start_failures < limit:
            return False
        left = len(self.run.pending) - len(self.accounted)
        self.run.errors.append(f"{self.start_failures} tables in a row died before they started (the warnings say "
                               f"why); {left} games not played (--resume plays them)")
        return True

    def _stalled(self) -> bool:
        """No table has run for start_timeout_s: give up on the rest (a resume plays it)."""
        if any(s.ready for s in self.slots) or time.monotonic() - self.progress_at < \
                self.config.executor.start_timeout_s:
            return False
        left = len(self.run.pending) - len(self.accounted)
        self.run.errors.append(f"no table of the Ray cluster has been running for start_timeout_s = "
                               f"{self.config.executor.start_timeout_s:g} s; {left} games not played "
                               f"(--resume plays them)")
        return True

    def _replace_tables(self) -> None:
        """Start tables for those that died, as long as there are games left for them."""
        unfinished = len(self.queue) + sum(len(b.left) for s in self.slots for b in s.batches)
        while len(self.slots) < min(self.tables, unfinished):
            self.slots.append(self._new_slot(self.run.totals, self.run.disqualified))

    def _dispatch(self) -> None:
        """Give each running table up to AHEAD batches; skip games of disqualified bots here."""
        size, disqualified = self.config.executor.batch_games, self.run.disqualified
        if self.run.drain.is_set():     # the sequential test decided: no new games
            return
        for slot in self.slots:
            while slot.ready and len(slot.batches) < self.AHEAD and self.queue:
                # No two games of one deal at once (schedule.next_free): a deal still to be
                # played in another table's batches is left in the queue for later.  This
                # table's own batches are played one after another, so its own deals may repeat.
                busy = {job.deal for other in self.slots if other is not slot for b in other.batches
                        for job in b.jobs if job.job_id in b.left}
                jobs: list[Job] = []
                while len(jobs) < size:
                    # Looking no further ahead than the games all tables hold in flight: what is
                    # handed out stays as close to the schedule's order as without the rule.
                    at = next_free(self.queue, busy, window=size * self.AHEAD * max(len(self.slots), 1))
                    if at is None:
                        break
                    job = self.queue[at]
                    del self.queue[at]
                    out_bots = [b for b in job.bots if b in disqualified]
                    if out_bots:
                        self._outcome("skipped", job, {"format": RECORD_FORMAT, "status": "skipped", **job.to_dict(),
                                                       "reason": f"{out_bots[0]} disqualified: "
                                                                 f"{disqualified[out_bots[0]]}"}, {})
                    else:
                        jobs.append(job)
                if not jobs:
                    break  # every game left is of a deal in play elsewhere: dispatched when it ends
                stream = slot.actor.play.options(num_returns="streaming").remote(jobs)
                slot.batches.append(_Batch(jobs, stream, [j.job_id for j in jobs]))
        self._replace_tables()

    def _arrived(self, item: ray.ObjectRef[Any] | ray.ObjectRefGenerator) -> None:
        """A table said hello, or a batch has its next outcome (or has ended)."""
        if not isinstance(item, ray.ObjectRefGenerator):
            slot = next(s for s in self.slots if s.hello is not None and s.hello == item)
            try:
                info = ray.get(item)
            except ray.exceptions.RayError as exc:
                self.start_failures += 1
                self._died(slot, f"it could not start: {_why(exc)}")
                return
            self._hello(slot, info)
            self.start_failures = 0
            self.progress_at = time.monotonic()
            return
        slot, batch = next((s, b) for s in self.slots for b in s.batches if b.stream is item)
        try:
            ref = next(item)
        except StopIteration:
            slot.batches.remove(batch)
            if batch.left:  # a batch that ended early (its table was stopped or died) gives its games back
                self._requeue(batch.left, batch.jobs)
            return
        try:
            kind, job_id, payload, files = ray.get(ref)
        except ray.exceptions.RayError as exc:
            self._died(slot, _why(exc))
            return
        self.progress_at = time.monotonic()
        if job_id in batch.left:
            batch.left.remove(job_id)
        job = next(j for j in batch.jobs if j.job_id == job_id)
        self._outcome(kind, job, payload, files)

    def _outcome(self, kind: str, job: Job, payload: Any, files: dict[str, str]) -> None:
        """Record one game (once: a job already accounted for is dropped)."""
        run = self.run
        if job.job_id in self.accounted:
            return
        self.accounted.add(job.job_id)
        if kind == "played":
            for path, text in files.items():  # the runner writes every output file
                target = run.out / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
            for seat, counts in enumerate(payload.get("fault_counts", [])):
                run.totals[job.bots[seat]].update(counts)
            new = {bot: why for bot, why in disqualifications(self.config, run.totals).items()
                   if bot not in run.disqualified}
            if new:
                run.disqualified.update(new)
                for slot in self.slots:
                    slot.actor.disqualify.remote(new)
        if run._record(kind, job, payload) and self.progress:
            self.progress(len(self.accounted) + len(run.existing), len(run.schedule), payload, run.progress_note())

    def _requeue(self, job_ids: list[str], jobs: list[Job]) -> None:
        """Games of a dead table go to the front of the queue, in schedule order; one whose
        table died max_attempts times is a runner error (not recorded; --resume retries it)."""
        by_id = {j.job_id: j for j in jobs}
        again = []
        for job_id in job_ids:
            if job_id in self.accounted:
                continue
            self.attempts[job_id] += 1
            if self.attempts[job_id] >= self.config.executor.max_attempts:
                self.accounted.add(job_id)
                self.run.errors.append(f"game {job_id}: runner error (not recorded; --resume retries it): its "
                                       f"table died {self.attempts[job_id]} times while it was to be played "
                                       f"(executor.max_attempts = {self.config.executor.max_attempts})")
            else:
                again.append(by_id[job_id])
        self.run.replayed += len(again)
        self.queue.extendleft(reversed(again))

    def _died(self, slot: _Slot, why: str) -> None:
        """A table's actor (or its node) is gone: its unfinished games are played elsewhere."""
        where = f"node {slot.node[:12]} ({slot.host})" if slot.node else "a node"
        left = [job_id for b in slot.batches for job_id in b.left]
        self.run.warnings.append(f"a table on {where} died ({why}); {len(left)} unfinished games of its batches "
                                 f"are played again by another table")
        self._requeue(left, [job for b in slot.batches for job in b.jobs])
        self.slots.remove(slot)
        try:
            ray.kill(slot.actor)
        except Exception:
            pass

    def _interrupt_tables(self) -> None:
        calls = [s.actor.interrupt.remote() for s in self.slots if s.ready]
        try:
            ray.wait(calls, num_returns=len(calls), timeout=5)
        except Exception:
            pass

    def _close_tables(self) -> None:
        """No more games: each table says quit to its bots; then the actors go."""
        calls = [s.actor.close.remote() for s in self.slots if s.ready and not self.run.interrupted]
        if calls:
            try:
                ray.wait(calls, num_returns=len(calls), timeout=30)
            except Exception:
                pass
        self.close()


def _init_options() -> dict[str, Any]:
    # Ray reports usage statistics over the network unless told otherwise; a tournament runner
    # does not phone home on its user's behalf (RAY_USAGE_STATS_ENABLED=1 allows it).
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    return {"include_dashboard": False, "logging_level": "ERROR", "configure_logging": True}


@contextlib.contextmanager
def connected(address: str | None) -> Iterator[None]:
    """This process connected to the Ray cluster at ``address`` (a Ray instance of this machine
    if None) while the block runs, for several runs at once: each run's executor then uses the
    connection as it is and leaves it open.  A connection made before is used as it is."""
    if ray.is_initialized():
        yield
        return
    if address:
        ray.init(address=address, **_init_options())
    else:
        ray.init(address="local", **_init_options())
    try:
        yield
    finally:
        ray.shutdown()


def _why(exc: BaseException) -> str:
    """The first line of a Ray error, which says what happened (the rest is a long traceback)."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".strip()
