"""Runner benchmark: decisions per second and runner overhead per decision, against a floor.

    trickcore bench-runner [--games 40] [--repeat 3] [--delivery immediate|on-request|both]
    python -m tournament.cli bench-runner  (the same, without the engine commands)

A source checkout's benchmark, not part of the installed package: ``bench-runner`` is a thin
command that imports this module from the checkout's bench/ folder.

What is measured (the definitions are also in docs/tournament.md, "Performance"):

* **The runner**: a real tournament (``run_tournament``, records and transcripts as by
  default) of the bundled random bot against three copies of itself over pipes, at
  concurrency 1 and 2.  Each bot measures its own **think time**: from having read a
  request line to just before writing its action (``TRICKCORE_BOT_TIMING``).
* **Runner overhead per decision** = (sum over games of the game's wall time from the
  first ``newgame`` to the finished record, i.e. ``duration_s - setup_s``, minus the sum
  of the bots' think times) / number of decisions.  It is everything a decision costs
  that is not the bot thinking: the runner's own work (applying the action, events,
  the view, JSON, records), the pipe transfers both ways and the bots' own line reading.
  Process start-up and handshakes (``setup_s``) are left out; they are per process, not
  per decision.
* **The floor**: a minimal pipe ping-pong between two processes measured in the same
  run -- a driver writes a short request line, an echo process (written like the random
  bot: Python, ``for line in sys.stdin``, write and flush) answers a short action line --
  with the same definition: (wall time of N exchanges - the echo's own time) / N.  At
  concurrency c, c such pairs run at once, like c tables.
* **The minimal referee** (``bench/minimal_referee.py``): the least a referee of this
  protocol can do -- per decision the request with the seat's complete view as JSON, one
  write, poll, read, the reply applied; per game ``newgame``, a readiness barrier and
  ``gameover``; no records, transcripts, timing, fault handling or events -- with the
  same bots, the same game, the same definition of overhead and the same pinning.  The
  floor shows what the pipes cost; the minimal referee shows what the protocol and the
  game cost before the runner adds anything.
* Also reported: **decisions per second** (decisions / the tournament's whole wall time,
  start-up included), the runner process's **CPU time per decision** (all its threads,
  start-up included) next to the ping-pong driver's CPU time per exchange, and the
  runner's self-measured latency p50 (``runner_us``: reply read -> next request written).

Repeats alternate floor and runner and report medians: on a shared machine both see the
same background load.  The machine is never quiet enough for a timed test, so this is a
benchmark, not a test (bench/test_bench_runner.py runs it under pytest-benchmark).
"""

from __future__ import annotations

import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from tournament.config import BUNDLED_BOTS_DIR, TournamentConfig, parse_config
from trickcore import tables

_T = TypeVar("_T")

#: The least a referee can do, run as a program (python bench/minimal_referee.py ...).
MINIMAL_REFEREE = Path(__file__).resolve().parent / "minimal_referee.py"

# The echo side of the floor: written like the random bot (line iteration over sys.stdin,
# write and flush), measuring its own time per line the same way.
ECHO_SOURCE = r"""
import sys, time
clock = time.perf_counter
think = 0.0
count = 0
out = sys.stdout
for raw in sys.stdin:
    start = clock()
    command, _, rest = raw.rstrip("\r\n").partition(" ")
    if command == "quit":
        break
    answer = "action 1 x\n"
    think += clock() - start
    count += 1
    out.write(answer)
    out.flush()
sys.stderr.write(f"{think!r} {count}\n")
"""

# The driver side: the minimal loop a runner could be -- write a line, block reading the
# answer.  It starts its echo process, warms up, waits for "go", runs, reports JSON.
DRIVER_SOURCE = r"""
import json, os, subprocess, sys, time
n, warm, echo, cpu = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
if cpu >= 0:
    os.sched_setaffinity(0, {cpu})  # the echo process inherits it: both on one CPU
child = subprocess.Popen([sys.executable, "-c", echo], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
fi, fo = child.stdin.fileno(), child.stdout.fileno()
msg = b"request 1 1 {}\n"
def exchange(k):
    for _ in range(k):
        os.write(fi, msg)
        data = os.read(fo, 4096)
        while not data.endswith(b"\n"):
            data += os.read(fo, 4096)
exchange(warm)
sys.stdout.write("ready\n")
sys.stdout.flush()
sys.stdin.readline()
t0, c0 = time.perf_counter(), time.process_time()
exchange(n)
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
os.write(fi, b"quit\n")
child.stdin.close()
think, count = child.stderr.read().split()
child.wait()
print(json.dumps({"wall_s": wall, "cpu_s": cpu, "n": n, "echo_s_per_exchange": float(think) / int(count)}))
"""


@dataclasses.dataclass
class FloorResult:
    concurrency: int
    pinned: bool  # each pair on one CPU (pair i on the i-th CPU), like cpu_affinity = "table"
    exchanges: int  # per pair
    overhead_us: float  # wall per exchange minus the echo's own time, mean over the pairs
    wall_us: float  # wall per exchange
    driver_cpu_us: float  # the driver's CPU time per exchange


@dataclasses.dataclass
class RefereeResult:
    concurrency: int
    pinned: bool
    decisions: int  # per referee
    overhead_us: float  # (wall - the bots' think time) / decisions, mean over the referees
    cpu_us: float  # the referee process's CPU time per decision (not the bots')


@dataclasses.dataclass
class RunnerResult:
    concurrency: int
    delivery: str
    affinity: str  # the tournament's cpu_affinity
    games: int
    decisions: int
    wall_s: float  # the whole run_tournament call
    play_s: float  # sum over games of duration_s - setup_s
    think_s: float  # sum of the bots' own think times
    cpu_s: float  # the runner's CPU time over the whole call: its process, plus its table processes' games
    runner_us_p50: float | None  # the runner's self-measured latency reply -> next request

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.wall_s

    @property
    def overhead_us(self) -> float:
        return (self.play_s - self.think_s) / self.decisions * 1e6

    @property
    def think_us(self) -> float:
        return self.think_s / self.decisions * 1e6

    @property
    def cpu_us(self) -> float:
        return self.cpu_s / self.decisions * 1e6


def _cpus() -> list[int]:
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


def measure_floor(concurrency: int = 1, exchanges: int = 4000, warmup: int = 300, pinned: bool = False) -> FloorResult:
    """c ping-pong pairs at once; each driver times ``exchanges`` round trips after a warm-up.
    ``pinned`` puts each pair on one CPU (pair i on the i-th CPU)."""
    cpus = _cpus() if pinned else []
    drivers = [subprocess.Popen([sys.executable, "-c", DRIVER_SOURCE, str(exchanges), str(warmup), ECHO_SOURCE,
                                 str(cpus[i % len(cpus)] if cpus else -1)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
               for i in range(concurrency)]
    for d in drivers:
        assert d.stdout is not None  # PIPE
        if d.stdout.readline().strip() != "ready":
            raise RuntimeError("floor driver failed to start")
    for d in drivers:
        assert d.stdin is not None  # PIPE
        d.stdin.write("go\n")
        d.stdin.flush()
    reports = []
    for d in drivers:
        out, _ = d.communicate(timeout=600)
        reports.append(json.loads(out))
    over = [r["wall_s"] / r["n"] - r["echo_s_per_exchange"] for r in reports]
    return FloorResult(concurrency, bool(cpus), exchanges, statistics.fmean(over) * 1e6,
                       statistics.fmean(r["wall_s"] / r["n"] for r in reports) * 1e6,
                       statistics.fmean(r["cpu_s"] / r["n"] for r in reports) * 1e6)


def measure_minimal_referee(concurrency: int = 1, games: int = 40, game: str | None = None,
                            players: int | None = None, pinned: bool = False, view: str = "full") -> RefereeResult:
    """c minimal referees at once (bench/minimal_referee.py), each with its own random bots;
    ``pinned`` puts referee i and its bots on the i-th CPU.  ``view="empty"`` sends ``{}`` as
    the view (an experiment: what a decision costs when the view costs nothing)."""
    if game is None:
        game, default_players = default_game()
        players = players or default_players
    if players is None:
        from trickcore.games import get_game

        players = min(get_game(game).players)
    cpus = _cpus() if pinned else []
    bot = json.dumps([sys.executable, str(BUNDLED_BOTS_DIR / "random_bot.py")])
    with tempfile.TemporaryDirectory(prefix="trickcore-bench-") as tmp:
        timings = [Path(tmp) / f"timing{i}.txt" for i in range(concurrency)]
        referees = [subprocess.Popen([sys.executable, str(MINIMAL_REFEREE), game, str(players), str(games),
                                      str(cpus[i % len(cpus)] if cpus else -1), bot, str(timings[i]), view],
                                     stdout=subprocess.PIPE, text=True, env=_child_env())
                    for i in range(concurrency)]
        over, cpu, decisions = [], [], 0
        for ref, timing in zip(referees, timings):
            out, _ = ref.communicate(timeout=600)
            if ref.returncode != 0:
                raise RuntimeError(f"the minimal referee failed (exit code {ref.returncode})")
            report = json.loads(out)
            think = sum(float(line.split()[0]) for line in timing.read_text().splitlines())
            over.append((report["wall_s"] - think) / report["decisions"])
            cpu.append(report["cpu_s"] / report["decisions"])
            decisions = report["decisions"]
    return RefereeResult(concurrency, bool(cpus), decisions, statistics.fmean(over) * 1e6,
                         statistics.fmean(cpu) * 1e6)


def _child_env() -> dict[str, str]:
    # The referee runs as a script of bench/: make this checkout importable for it whether or
    # not the package is installed.
    root = str(Path(__file__).resolve().parent.parent)
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": root + (os.pathsep + path if path else "")}


def default_game() -> tuple[str, int]:
    from trickcore.games import list_games

    names = {g.name: g for g in list_games()}
    if "reference" in names:
        return "reference", 4
    g = sorted(names.values(), key=lambda g: g.name)[0]
    return g.name, min(g.players)


def measure_runner(concurrency: int = 1, games: int = 40, delivery: str = "on-request", game: str | None = None,
                   players: int | None = None, workdir: str | Path | None = None,
                   affinity: str = "none", sandbox: str = "none") -> RunnerResult:
    """A round robin of ``players`` random bots (one lineup, one game per deal) over ``games`` deals.
    The overhead figures need the bots' own think times, which a bot reports in a file of the
    benchmark's folder: a sandboxed bot cannot write there, so with ``sandbox = "bwrap"`` only
    the figures of the whole run (decisions per second, CPU time) are measured (think_s is NaN)."""
    from tournament.results import read_results
    from tournament.runner import run_tournament, use_processes

    if game is None:
        game, default_players = default_game()
        players = players or default_players
    if players is None:
        from trickcore.games import get_game

        players = min(get_game(game).players)
    with tempfile.TemporaryDirectory(prefix="trickcore-bench-", dir=workdir) as tmp:
        timing = Path(tmp) / "timing.txt"
        out = Path(tmp) / "out"
        bot = [sys.executable, str(BUNDLED_BOTS_DIR / "random_bot.py")]
        doc = {"game": {"name": game, "players": players},
               "tournament": {"name": "bench-runner", "format": "round-robin", "deals": games, "seed": 1,
                              "concurrency": concurrency, "event_delivery": delivery, "cpu_affinity": affinity,
                              "output": str(out)},
               "sandbox": {"kind": sandbox},
               "bots": [{"name": f"random-{i}", "command": bot, "options": {"seed": i},
                         "env": {"TRICKCORE_BOT_TIMING": str(timing)} if sandbox == "none" else {}}
                        for i in range(players)]}
        config = parse_config(doc, "bench-runner")
        t0, c0 = time.perf_counter(), time.process_time()
        summary = run_tournament(config, out, check_bots=False)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        if summary.errors or summary.played != games:
            raise RuntimeError(f"benchmark tournament failed: {summary.errors or summary}")
        records = read_results(out)
        if use_processes(config, min(concurrency, games)):
            cpu += sum(r["cpu_s"] for r in records)  # the table processes' own CPU time
        decisions = sum(1 for r in records for a in r["actions"] if a.get("by") == "bot")
        play_s = sum(r["duration_s"] - r["setup_s"] for r in records)
        latencies = sorted(a["runner_us"] for r in records for a in r["actions"] if "runner_us" in a)
        think_s: float = 0.0
        requests = 0
        for line in timing.read_text().splitlines() if sandbox == "none" else ():
            t, n = line.split()
            think_s += float(t)
            requests += int(n)
        if sandbox != "none":
            think_s = float("nan")
        elif requests != decisions:
            raise RuntimeError(f"the bots report {requests} requests, the records {decisions} decisions")
    return RunnerResult(concurrency, delivery, affinity, games, decisions, wall, play_s, think_s, cpu,
                        latencies[len(latencies) // 2] if latencies else None)


@dataclasses.dataclass
class SandboxCost:
    """What the sandbox costs (docs/tournament.md, "Fair play"): the same tournament with and
    without it, and one bot's start-up to the end of its handshake, each the median of runs that
    alternate between the two."""

    games: int
    decisions: int
    plain_decisions_per_s: float
    sandboxed_decisions_per_s: float
    plain_startup_ms: float  # spawn to the end of the handshake, one bot process
    sandboxed_startup_ms: float
    runs: list[tuple[float, float]]  # decisions/s (plain, sandboxed) of each repeat

    @property
    def ratio(self) -> float:
        """Sandboxed over plain decisions per second (1 = free): the median of each pair's ratio,
        the two runs of a pair played one after the other, so that what moves the machine's speed
        between pairs moves both of a pair alike."""
        return statistics.median(b / a for a, b in self.runs)

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "decisions": self.decisions,
                "decisions_per_s": {"none": round(self.plain_decisions_per_s, 1),
                                    "bwrap": round(self.sandboxed_decisions_per_s, 1)},
                "ratio": round(self.ratio, 3),
                "startup_ms": {"none": round(self.plain_startup_ms, 1), "bwrap": round(self.sandboxed_startup_ms, 1)},
                "runs": [[round(a, 1), round(b, 1)] for a, b in self.runs]}


def _startup_config(sandbox: str) -> TournamentConfig:
    game, players = default_game()
    doc = {"game": {"name": game, "players": players}, "sandbox": {"kind": sandbox},
           "bots": [{"name": f"random-{i}", "command": [sys.executable, str(BUNDLED_BOTS_DIR / "random_bot.py")]}
                    for i in range(players)]}
    return parse_config(doc, "bench-startup")


def _time_startup(config: TournamentConfig) -> float:
    from tournament.session import BotSession

    session = BotSession(config.bots[0], config)
    t0 = time.perf_counter()
    try:
        session.spawn()
        session.handshake()
        return (time.perf_counter() - t0) * 1000
    finally:
        session.kill()


def measure_startup(sandbox: str, starts: int = 10) -> float:
    """Median milliseconds from starting the bundled random bot to the end of its handshake."""
    return statistics.median(measure_startups((sandbox,), starts)[sandbox])


def measure_startups(kinds: Sequence[str], starts: int = 10) -> dict[str, list[float]]:
    """Milliseconds from starting the bundled random bot to the end of its handshake, ``starts``
    times for each kind of sandbox, one start of each kind after the other: a machine whose
    speed drifts (other work, the CPU's clock) moves every kind alike."""
    configs = {kind: _startup_config(kind) for kind in kinds}
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    for _ in range(starts):
        for kind in kinds:
            times[kind].append(_time_startup(configs[kind]))
    return times


def measure_sandbox_cost(games: int = 40, repeat: int = 3, game: str | None = None, players: int | None = None,
                         concurrency: int = 1, starts: int = 10,
                         progress: Callable[[str], None] | None = None) -> SandboxCost:
    """The tournament of ``measure_runner`` without and with the sandbox in alternation,
    ``repeat`` times each (the medians are kept), and ``starts`` bot start-ups of each after
    every pair, alternating start by start (the median of all is kept)."""
    runs = []
    startups: dict[str, list[float]] = {"none": [], "bwrap": []}
    decisions = 0
    for i in range(repeat):
        if progress:
            progress(f"sandbox cost: {i + 1}/{repeat}")
        pair = []
        for kind in ("none", "bwrap"):
            r = measure_runner(concurrency, games, game=game, players=players, sandbox=kind)
            decisions = r.decisions
            pair.append(r.decisions_per_s)
        runs.append((pair[0], pair[1]))
        for kind, times in measure_startups(("none", "bwrap"), starts).items():
            startups[kind] += times
    return SandboxCost(games, decisions, statistics.median(a for a, _ in runs), statistics.median(b for _, b in runs),
                       statistics.median(startups["none"]), statistics.median(startups["bwrap"]), runs)


def format_sandbox_cost(cost: SandboxCost) -> str:
    header = ["sandbox", "decisions/s", "bot start-up ms"]
    body = [["none", f"{cost.plain_decisions_per_s:,.0f}", f"{cost.plain_startup_ms:.1f}"],
            ["bwrap", f"{cost.sandboxed_decisions_per_s:,.0f}", f"{cost.sandboxed_startup_ms:.1f}"],
            ["bwrap / none", f"{cost.ratio:.3f}x",
             f"{cost.sandboxed_startup_ms / cost.plain_startup_ms:.2f}x"]]
    return tables.render(header, body, right=[1, 2])


@dataclasses.dataclass
class BenchRow:
    concurrency: int
    delivery: str
    affinity: str
    runner: RunnerResult  # the median run by overhead
    floor: FloorResult  # the median run by overhead (pinned like the runner)
    referee: RefereeResult  # the minimal referee, the median run by overhead (pinned like the runner)
    overheads_us: list[float]
    floors_us: list[float]
    referees_us: list[float]

    @property
    def ratio(self) -> float:
        return self.runner.overhead_us / self.floor.overhead_us

    @property
    def referee_ratio(self) -> float:
        """The minimal referee's overhead over the floor: what the protocol and the game cost."""
        return self.referee.overhead_us / self.floor.overhead_us

    @property
    def vs_referee(self) -> float:
        """The runner's overhead over the minimal referee's: what the runner adds."""
        return self.runner.overhead_us / self.referee.overhead_us

    @property
    def cpu_ratio(self) -> float:
        return self.runner.cpu_us / self.floor.driver_cpu_us

    def to_json(self) -> dict[str, Any]:
        r, f = self.runner, self.floor
        return {"concurrency": self.concurrency, "event_delivery": self.delivery, "cpu_affinity": self.affinity,
                "games": r.games, "decisions": r.decisions, "decisions_per_s": round(r.decisions_per_s, 1),
                "overhead_us": round(r.overhead_us, 1), "floor_us": round(f.overhead_us, 1),
                "ratio": round(self.ratio, 2), "min_referee_us": round(self.referee.overhead_us, 1),
                "min_referee_ratio": round(self.referee_ratio, 2), "vs_min_referee": round(self.vs_referee, 2),
                "min_referee_cpu_us": round(self.referee.cpu_us, 1), "bot_think_us": round(r.think_us, 1),
                "runner_cpu_us": round(r.cpu_us, 1), "floor_cpu_us": round(f.driver_cpu_us, 1),
                "cpu_ratio": round(self.cpu_ratio, 2), "runner_us_p50": r.runner_us_p50,
                "overheads_us": [round(x, 1) for x in self.overheads_us],
                "floors_us": [round(x, 1) for x in self.floors_us],
                "min_referees_us": [round(x, 1) for x in self.referees_us]}


def _median_by(items: Iterable[_T], key: Callable[[_T], float]) -> _T:
    ordered = sorted(items, key=key)
    return ordered[(len(ordered) - 1) // 2]


def run(concurrencies: Sequence[int] = (1, 2), deliveries: Sequence[str] = ("on-request",),
        affinities: Sequence[str] = ("none", "table"), games: int = 40, repeat: int = 3, exchanges: int = 4000,
        game: str | None = None, players: int | None = None,
        progress: Callable[[str], None] | None = None) -> list[BenchRow]:
    """Every combination; within one, floor and runner alternate ``repeat`` times (medians)."""
    rows = []
    for affinity in affinities:
        for delivery in deliveries:
            for c in concurrencies:
                runs, floors, referees = [], [], []
                for i in range(repeat):
                    if progress:
                        progress(f"{c} table{'s' if c > 1 else ''}, {delivery}, cpu_affinity {affinity}: "
                                 f"{i + 1}/{repeat}")
                    floors.append(measure_floor(c, exchanges, pinned=affinity == "table"))
                    referees.append(measure_minimal_referee(c, games, game, players, pinned=affinity == "table"))
                    runs.append(measure_runner(c, games * c, delivery, game, players, affinity=affinity))
                rows.append(BenchRow(c, delivery, affinity, _median_by(runs, lambda r: r.overhead_us),
                                     _median_by(floors, lambda f: f.overhead_us),
                                     _median_by(referees, lambda r: r.overhead_us),
                                     [r.overhead_us for r in runs], [f.overhead_us for f in floors],
                                     [r.overhead_us for r in referees]))
    return rows


#: The columns a narrow terminal leaves out, first to last: the CPU times and the runner's own
#: latency, then the minimal referee's figures, keeping the runner's overhead against the floor.
OPTIONAL_COLUMNS = (14, 13, 12, 11, 10, 9, 8, 7)


def format_rows(rows: list[BenchRow], width: int | None = None) -> str:
    header = ["tables", "events", "affinity", "decisions/s", "overhead µs", "floor µs", "ratio", "min referee µs",
              "min ref/floor", "runner/min ref", "bot think µs", "runner CPU µs", "min ref CPU µs", "floor CPU µs",
              "runner_us p50"]
    body = [[str(r.concurrency), r.delivery, r.affinity, f"{r.runner.decisions_per_s:,.0f}",
             f"{r.runner.overhead_us:.1f}", f"{r.floor.overhead_us:.1f}", f"{r.ratio:.2f}x",
             f"{r.referee.overhead_us:.1f}", f"{r.referee_ratio:.2f}x", f"{r.vs_referee:.2f}x",
             f"{r.runner.think_us:.1f}", f"{r.runner.cpu_us:.1f}", f"{r.referee.cpu_us:.1f}",
             f"{r.floor.driver_cpu_us:.1f}",
             "-" if r.runner.runner_us_p50 is None else f"{r.runner.runner_us_p50:.0f}"]
            for r in rows]
    return tables.render(header, body, right=[i for i in range(len(header)) if i not in (1, 2)], width=width,
                         optional=OPTIONAL_COLUMNS)
