"""What a tournament is set to: the validated settings a config becomes (``TournamentConfig`` and
its parts), their allowed values, and ``ConfigError``.  Reading a config into them is
tournament/config.py's job, with the one validator (tournament/validate.py); the reference for
every key is ``docs/tournament.md``."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from tournament.sprt import SprtSpec
from trickcore.game import GameInfo
from trickcore.games import get_game

FORMATS = ("round-robin", "duplicate", "gauntlet", "paired")
FAULT_CLASSES = ("handshake", "protocol", "illegal", "timeout", "crash", "flood", "garbage", "limit")
FAULT_ACTIONS = ("substitute", "forfeit")
KEEP_CHOICES = ("all", "failed", "none")
RESTART_CHOICES = ("table", "game")
EVENT_DELIVERY = ("immediate", "on-request")
CPU_AFFINITY = ("none", "table")
WORKERS = ("auto", "threads", "processes")
PREFLIGHT = ("stop", "warn")  # a bot that fails its handshake before the first game: stop, or warn and play
EXECUTOR_KINDS = ("local", "ray")  # where tables run: this machine (threads/processes) or a Ray cluster
SANDBOX_KINDS = ("bwrap", "none")  # each bot in a bubblewrap sandbox, or (on purpose) none

BUNDLED_BOTS_DIR = Path(__file__).resolve().parent / "bots"

#: tournament.seed when the runner draws a secret master seed (the default)
DRAWN_SEED = "drawn"
SEED_HEX_DIGITS = 64  # a hex seed holds at most 256 bits

# Keys whose value may differ between the start of a run and its --resume without
# changing any game's result: where the files go, how many tables run at once and where.
RUN_ENVIRONMENT_KEYS = (("tournament", "output"), ("tournament", "concurrency"), ("tournament", "cpu_affinity"),
                        ("tournament", "workers"), ("executor", "kind"), ("executor", "address"),
                        ("executor", "cpus_per_table"), ("executor", "batch_games"), ("executor", "working_dir"),
                        ("executor", "max_attempts"), ("executor", "start_timeout_s"), ("records", "report"),
                        ("records", "report_every"), ("sandbox", "cgroup"))


class ConfigError(ValueError):
    """One or more problems in a tournament config; ``problems`` lists them one per key."""

    def __init__(self, problems: list[str], source: str = "config"):
        self.problems = list(problems)
        self.source = source
        super().__init__(f"{source}: " + "; ".join(self.problems) if len(self.problems) == 1 else
                         f"{source}: {len(self.problems)} problems:\n  " + "\n  ".join(self.problems))


@dataclasses.dataclass(frozen=True)
class FaultPolicy:
    """What happens when a bot commits one fault of a class.

    ``action`` applies to each fault: ``substitute`` plays a random legal option for the
    bot (seeded, so reproducible) and keeps asking it; ``forfeit`` ends the bot's part in
    the game (the runner plays its remaining decisions randomly, the bot ranks last).
    ``forfeit_after`` turns the n-th fault of this class in one game into a forfeit
    (0 = never).  ``disqualify_after`` removes the bot from the rest of the tournament
    once it has committed that many faults of this class in total (0 = never).
    """

    action: str = "substitute"
    forfeit_after: int = 0
    disqualify_after: int = 0


DEFAULT_POLICIES = {
    "handshake": FaultPolicy("forfeit"),
    "protocol": FaultPolicy("substitute", forfeit_after=3),
    "illegal": FaultPolicy("substitute", forfeit_after=3),
    "timeout": FaultPolicy("substitute", forfeit_after=3),
    "crash": FaultPolicy("forfeit"),
    "flood": FaultPolicy("substitute", forfeit_after=3),
    "garbage": FaultPolicy("substitute", forfeit_after=3),
    "limit": FaultPolicy("forfeit"),
}


@dataclasses.dataclass(frozen=True)
class TimeControl:
    startup_ms: float = 10000  # process start to ``trickcoreok``
    ready_ms: float = 5000  # ``isready`` to ``readyok`` (each barrier)
    decision_ms: float = 10000  # one request to its action
    game_ms: float = 0  # total thinking time per bot per game; 0 = no game budget
    shutdown_ms: float = 1000  # ``quit`` to process exit before the runner kills it


@dataclasses.dataclass(frozen=True)
class Limits:
    max_line_bytes: int = 65536  # longest bot line accepted
    max_lines_per_request: int = 1000  # bot lines (info included) per request before it is a flood
    stderr_bytes: int = 65536  # stderr kept per bot and game (the tail)
    transcript_bytes: int = 4194304  # transcript kept per seat and game (the head; the rest is counted)


@dataclasses.dataclass(frozen=True)
class SandboxSettings:
    """``[sandbox]``, and a bot's own ``sandbox`` table over it (docs/tournament.md, "Fair play").
    A limit of 0 means none."""

    kind: str = "bwrap"  # bwrap | none (set on purpose: every bot then runs as the organiser)
    memory_mb: int = 1024  # what the bot's processes hold together (the runner's count)
    processes: int = 64  # processes and threads of the bot together
    open_files: int = 256  # open file descriptors per process
    file_size_mb: int = 64  # largest file the bot may write
    scratch_mb: int = 64  # its private /tmp (and /dev/shm), each
    network: bool = False  # true: the host's network (otherwise only its own loopback)
    read_only: tuple[str, ...] = ()  # more folders or files the bot may read
    cpus: tuple[int, ...] = ()  # the CPUs the bot may run on; () = its table's (cpu_affinity) or any
    # [sandbox] only: the cgroup v2 folder each bot gets a cgroup of its own in (the kernel then
    # counts its memory); "" = the runner's own cgroup if delegated to it, "none" = no cgroups
    cgroup: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["read_only"] = list(self.read_only)
        d["cpus"] = list(self.cpus)
        return d


SANDBOX_LIMIT_KEYS = ("memory_mb", "processes", "open_files", "file_size_mb", "scratch_mb")
BOT_SANDBOX_KEYS = (*SANDBOX_LIMIT_KEYS, "network", "read_only", "cpus")


@dataclasses.dataclass(frozen=True)
class Records:
    transcripts: str = "failed"  # all | failed | none: per-game protocol transcript files
    stderr: str = "failed"  # all | failed | none: per-game bot stderr files
    report: bool = True  # write report.html (docs/tournament.md, "The HTML report") when the run ends
    report_every: int = 0  # also rewrite it every this many recorded games while the run goes on (0: never)


@dataclasses.dataclass(frozen=True)
class ExecutorConfig:
    """``[executor]``: where the tables run.  None of it changes a game's result, so all of it
    may change between a run and its ``--resume`` (RUN_ENVIRONMENT_KEYS)."""

    kind: str = "local"  # local: threads or forked processes here; ray: Ray actors on a cluster
    address: str = ""  # ray: "" starts Ray on this machine, "auto" joins the local cluster, or host:port
    cpus_per_table: float = 1.0  # ray: CPUs each table reserves (its bots run inside that share)
    batch_games: int = 8  # ray: scheduled games per work unit sent to a table
    working_dir: str = ""  # ray: folder shipped to every worker (runtime_env working_dir); "" = none
    max_attempts: int = 3  # ray: a game whose table died this often is not played again in this run
    start_timeout_s: float = 300.0  # ray: how long the run waits with no table running before it gives up


@dataclasses.dataclass(frozen=True)
class BotConfig:
    name: str
    command: tuple[str, ...]  # placeholders {python}, {bots}, {config_dir} already expanded
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    restart: str = "table"  # table: one process per table, reused; game: a fresh process per game
    key: str = "bots[0]"  # where in the config this bot is defined, for error messages
    sandbox: tuple[tuple[str, Any], ...] = ()  # this bot's own sandbox keys over [sandbox]

    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)

    def environment(self) -> dict[str, str]:
        """The environment of an unsandboxed bot: the organiser's and the bot's own ``env``.
        (A sandboxed bot gets a short allowlist instead: tournament.sandbox.)"""
        env = dict(os.environ)
        env.update(dict(self.env))
        return env


@dataclasses.dataclass(frozen=True)
class TournamentConfig:
    game: str  # canonical registry name
    players: int
    game_options: dict[str, Any]  # resolved with defaults by the game
    format: str
    deals: int
    seed: int | str | None  # master seed: an integer, a string of hex digits, or None: drawn for each run
    concurrency: int
    output: str
    name: str
    candidate: str | None  # gauntlet only
    auto_play_forced: bool
    event_delivery: str
    time: TimeControl
    limits: Limits
    records: Records
    failures: dict[str, FaultPolicy]
    bots: tuple[BotConfig, ...]
    source: str = "config"
    raw_bots: tuple[dict[str, Any], ...] = ()  # bots as written (placeholders kept), for the effective config
    cpu_affinity: str = "none"  # none | table: each table and its bots on one CPU
    workers: str = "auto"  # auto | threads | processes: how tables run in parallel
    preflight: str = "stop"  # stop | warn: a bot failing its handshake before the first game
    executor: ExecutorConfig = ExecutorConfig()  # where tables run ([executor])
    config_dir: str = "."  # the folder of the config file ({config_dir}), resolved
    sandbox: SandboxSettings = SandboxSettings()  # [sandbox]: what every bot may see and use
    # paired only: candidate A and candidate B, each the bots of the seats it holds (one bot; in a
    # partnership game one per seat of a partnership); every other bot is a filler
    candidates: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    # [stop] sprt: the sequential test that ends a paired run as soon as it decides (tournament.sprt)
    sprt: SprtSpec | None = None
    # tournament.deal_file: the deal file as written (its deals are played in order, not secret
    # seeded ones) and the game seeds of its deals, read and checked with the config
    deal_file: str | None = None
    deal_seeds: tuple[int, ...] = ()

    def sandbox_for(self, bot: BotConfig) -> SandboxSettings:
        """The sandbox of one bot: ``[sandbox]`` with the bot's own keys over it."""
        return dataclasses.replace(self.sandbox, **dict(bot.sandbox)) if bot.sandbox else self.sandbox

    @property
    def game_info(self) -> GameInfo:
        return get_game(self.game)

    def bot(self, name: str) -> BotConfig:
        for b in self.bots:
            if b.name == name:
                return b
        raise KeyError(name)

    def effective(self) -> dict[str, Any]:
        """The complete config with every default filled in, as written to the output folder."""
        out: dict[str, Any] = {
            "game": {"name": self.game, "players": self.players, "options": dict(self.game_options)},
            "tournament": {"name": self.name, "format": self.format, "deals": self.deals,
                           "seed": DRAWN_SEED if self.seed is None else self.seed,
                           "concurrency": self.concurrency, "output": self.output,
                           "auto_play_forced": self.auto_play_forced, "event_delivery": self.event_delivery,
                           "cpu_affinity": self.cpu_affinity, "workers": self.workers},
            "time": dataclasses.asdict(self.time),
            "limits": dataclasses.asdict(self.limits),
            "records": dataclasses.asdict(self.records),
            "failures": {k: dataclasses.asdict(v) for k, v in self.failures.items()},
            "sandbox": self.sandbox.to_dict(),
            "bots": [dict(b) for b in self.raw_bots],
        }
        if self.executor != ExecutorConfig():
            out["executor"] = dataclasses.asdict(self.executor)
        if self.candidate is not None:
            out["tournament"]["candidate"] = self.candidate
        if self.candidates is not None:
            # As written: a bot's name, or an array of names for a candidate holding a partnership.
            out["tournament"]["candidates"] = [side[0] if len(side) == 1 else list(side) for side in self.candidates]
        if self.sprt is not None:
            out["stop"] = {"sprt": self.sprt.to_dict()}
        if self.deal_file is not None:
            del out["tournament"]["seed"]  # the file's deals are played: nothing is seeded
            out["tournament"]["deal_file"] = self.deal_file
        return out

    @property
    def fillers(self) -> tuple[str, ...]:
        """paired: the bots that hold the seats the candidates do not, in the order of [[bots]]."""
        if self.candidates is None:
            return ()
        taken = {name for side in self.candidates for name in side}
        return tuple(b.name for b in self.bots if b.name not in taken)

    def fingerprint(self) -> str:
        """Hash of everything that can change a game's result; a resume must match it."""
        eff = self.effective()
        for section, key in RUN_ENVIRONMENT_KEYS:
            eff.get(section, {}).pop(key, None)
        if not eff.get("executor", True):
            del eff["executor"]
        if self.deal_file is not None:  # the deals themselves, not only the file's name
            eff["tournament"]["deal_seeds"] = list(self.deal_seeds[:self.deals])
        # Bots are compared as written (placeholders unexpanded), so that moving the
        # checkout or the interpreter is not mistaken for a different program.
        blob = json.dumps(eff, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]
