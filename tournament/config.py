"""Tournament configuration: TOML in, validated dataclasses out, effective TOML back.

Every error names the key it is about (``bots[2].command``, ``time.decision_ms``) and
what is wrong, and all errors of a file are reported together, so a user fixes a
config in one round trip.  The reference for every key is ``docs/tournament.md``.
"""

from __future__ import annotations

import dataclasses
import difflib
import errno
import hashlib
import importlib.util
import json
import os
import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, overload

from tournament import cgroups
from tournament.sprt import SprtSpec, SprtSpecError
from trickcore.deals import DealFileError, read_deals
from trickcore.game import GameConfigError, GameInfo
from trickcore.games import get_game

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as a package
    import tomli as tomllib

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


# ---- validation helpers -------------------------------------------------------------

class _Checker:
    """Collects problems while walking the TOML document."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def error(self, key: str, message: str) -> None:
        self.problems.append(f"{key}: {message}")

    def unknown_keys(self, table: dict[str, Any], allowed: tuple[str, ...], prefix: str) -> None:
        for key in table:
            if key not in allowed:
                hint = difflib.get_close_matches(key, allowed, n=1)
                full = f"{prefix}.{key}" if prefix else key
                self.error(full, "unknown key" + (f" (did you mean {hint[0]!r}?)" if hint else
                                                   f"; allowed here: {', '.join(allowed)}"))

    def table(self, doc: dict[str, Any], key: str, prefix: str = "") -> dict[str, Any]:
        full = f"{prefix}.{key}" if prefix else key
        value = doc.get(key, {})
        if not isinstance(value, dict):
            self.error(full, f"must be a table, got {_type_name(value)}")
            return {}
        return value

    @overload
    def integer(self, table: dict[str, Any], key: str, prefix: str, default: int, minimum: int | None = None,
                maximum: int | None = None, required: bool = False) -> int: ...

    @overload
    def integer(self, table: dict[str, Any], key: str, prefix: str, default: None, minimum: int | None = None,
                maximum: int | None = None, required: bool = False) -> int | None: ...

    def integer(self, table: dict[str, Any], key: str, prefix: str, default: int | None,
                minimum: int | None = None, maximum: int | None = None, required: bool = False) -> int | None:
        full = f"{prefix}.{key}" if prefix else key
        if key not in table:
            if required:
                self.error(full, "missing (an integer)")
            return default
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(full, f"must be an integer, got {_type_name(value)} {value!r}")
            return default
        if minimum is not None and value < minimum:
            self.error(full, f"must be >= {minimum}, got {value}")
            return default
        if maximum is not None and value > maximum:
            self.error(full, f"must be <= {maximum}, got {value}")
            return default
        return value

    def number(self, table: dict[str, Any], key: str, prefix: str, default: float, minimum: float = 0.0) -> float:
        full = f"{prefix}.{key}"
        if key not in table:
            return default
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.error(full, f"must be a number, got {_type_name(value)} {value!r}")
            return default
        if value < minimum:
            self.error(full, f"must be >= {minimum:g}, got {value}")
            return default
        return value

    @overload
    def string(self, table: dict[str, Any], key: str, prefix: str, default: str, choices: tuple[str, ...] = (),
               required: bool = False) -> str: ...

    @overload
    def string(self, table: dict[str, Any], key: str, prefix: str, default: None, choices: tuple[str, ...] = (),
               required: bool = False) -> str | None: ...

    def string(self, table: dict[str, Any], key: str, prefix: str, default: str | None,
               choices: tuple[str, ...] = (), required: bool = False) -> str | None:
        full = f"{prefix}.{key}" if prefix else key
        if key not in table:
            if required:
                self.error(full, "missing (a string)" if not choices else f"missing (one of {', '.join(choices)})")
            return default
        value = table[key]
        if not isinstance(value, str):
            self.error(full, f"must be a string, got {_type_name(value)} {value!r}")
            return default
        if choices and value not in choices:
            self.error(full, f"must be one of {', '.join(choices)}, got {value!r}")
            return default
        return value

    def boolean(self, table: dict[str, Any], key: str, prefix: str, default: bool) -> bool:
        full = f"{prefix}.{key}"
        if key not in table:
            return default
        value = table[key]
        if not isinstance(value, bool):
            self.error(full, f"must be true or false, got {_type_name(value)} {value!r}")
            return default
        return value


def _type_name(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)


def expand_placeholders(word: str, config_dir: Path) -> str:
    """``{python}`` = this interpreter, ``{bots}`` = the bundled bots folder,
    ``{config_dir}`` = the folder of the config file; so configs run on any machine."""
    return (word.replace("{python}", sys.executable)
            .replace("{bots}", str(BUNDLED_BOTS_DIR))
            .replace("{config_dir}", str(config_dir)))


TOP_KEYS = ("game", "tournament", "time", "limits", "records", "failures", "bots", "executor", "sandbox", "stop")
GAME_KEYS = ("name", "players", "options")
TOURNAMENT_KEYS = ("name", "format", "deals", "seed", "concurrency", "output", "candidate", "candidates",
                   "auto_play_forced", "event_delivery", "cpu_affinity", "workers", "preflight", "deal_file")
BOT_KEYS = ("name", "command", "cwd", "env", "options", "restart", "sandbox")
POLICY_KEYS = ("action", "forfeit_after", "disqualify_after")


def parse_config(doc: dict[str, Any], source: str = "config", config_dir: Path | None = None,
                 people: int = 0) -> TournamentConfig:
    """Validate a TOML document (already parsed) and build the config; raise ConfigError with
    every problem of the document, each naming its key.  One function per section.  ``people``
    seats are held by people, not bots (``trickcore play``): the bots fill the other seats."""
    config_dir = Path(config_dir or ".").resolve()
    c = _Checker()
    c.unknown_keys(doc, TOP_KEYS, "")
    info, players, game_options = _game_section(c, doc)
    t = _tournament_section(c, doc, source)
    time_control = _time_section(c, doc)
    limits = _limits_section(c, doc)
    records = _records_section(c, doc)
    failures = _failures_section(c, doc)
    executor = _executor_section(c, doc, config_dir)
    sandbox = _sandbox_section(c, doc, config_dir)
    bots, raw_bots, names, complete = _bots_section(c, doc, config_dir)
    candidates = _candidates(c, t["format"], t["candidates"], names, info, players)
    if candidates is not None and players is not None and complete and len(bots) == sum(map(len, candidates)):
        # No filler named: the bundled heuristic bot holds every other seat.
        seen = {b.name: b.key for b in bots}
        for raw in default_fillers(players - len(candidates[0]), names):
            bot = _bot(c, raw, f"bots[{len(bots)}]", config_dir, seen)
            if bot is not None:
                bots.append(bot)
                raw_bots.append(raw)
    if players is not None and complete:
        _check_field_size(c, t["format"], players, len(bots) + people, candidates)
    candidate = _candidate(c, t["format"], t["candidate"], names)
    sprt = _stop_section(c, doc, t["format"])
    deal_seeds = _deal_file(c, doc, t, info, players, game_options, config_dir)
    if c.problems:
        raise ConfigError(c.problems, source)
    assert info is not None and players is not None  # else a problem was recorded
    return TournamentConfig(game=info.name, players=players, game_options=game_options, format=t["format"],
                            deals=t["deals"], seed=t["seed"], concurrency=t["concurrency"], output=t["output"],
                            name=t["name"], candidate=candidate, auto_play_forced=t["auto_play_forced"],
                            event_delivery=t["event_delivery"], time=time_control, limits=limits, records=records,
                            failures=failures, bots=tuple(bots), source=source, raw_bots=tuple(raw_bots),
                            cpu_affinity=t["cpu_affinity"], workers=t["workers"], preflight=t["preflight"],
                            executor=executor, config_dir=str(config_dir), sandbox=sandbox, candidates=candidates,
                            sprt=sprt, deal_file=t["deal_file"], deal_seeds=deal_seeds)


def _deal_file(c: _Checker, doc: dict[str, Any], t: dict[str, Any], info: GameInfo | None, players: int | None,
               game_options: dict[str, Any], config_dir: Path) -> tuple[int, ...]:
    """``tournament.deal_file``: the game seeds of the file's deals (trickcore.deals), each a deal
    of the config's game, player count and options; ``tournament.deals`` is their number unless
    given (then at most it).  A file's deals are played instead of seeded ones: no seed with it."""
    if t["deal_file"] is None:
        return ()
    written = doc.get("tournament", {})
    if "seed" in written and written["seed"] != DRAWN_SEED:
        c.error("tournament.seed", "a deal file fixes the deals (tournament.deal_file): there is nothing to seed")
    try:
        deals = read_deals(Path(config_dir) / expand_placeholders(t["deal_file"], config_dir))
    except DealFileError as exc:
        c.error("tournament.deal_file", str(exc))
        return ()
    if info is None or players is None:
        return ()
    for number, deal in enumerate(deals, start=1):
        if (deal.game, deal.players, deal.options) != (info.name, players, game_options):
            c.error("tournament.deal_file", f"deal {number} is of {deal.game} for {deal.players} players with "
                                            f"options {deal.options}; the [game] section plays {info.name} for "
                                            f"{players} with {game_options}")
            return ()
    if "deals" not in written:
        t["deals"] = len(deals)
    elif t["deals"] > len(deals):
        c.error("tournament.deals", f"{t['deals']} deals, but the deal file holds {len(deals)}")
    return tuple(deal.seed for deal in deals)


def _game_section(c: _Checker, doc: dict[str, Any]) -> tuple[GameInfo | None, int | None, dict[str, Any]]:
    """``[game]``: the game, its player count (default: its smallest) and its options."""
    game_t = c.table(doc, "game")
    c.unknown_keys(game_t, GAME_KEYS, "game")
    game_name = c.string(game_t, "name", "game", None, required=True)
    info: GameInfo | None = None
    if game_name is not None:
        try:
            info = get_game(game_name)
        except GameConfigError as exc:
            c.error("game.name", str(exc))
    players = c.integer(game_t, "players", "game", None, minimum=1)
    if info is not None and players is None:
        players = min(info.players)
    if info is not None and players is not None:
        try:
            info.check_players(players)
        except GameConfigError as exc:
            c.error("game.players", str(exc))
            players = None
    game_options: dict[str, Any] = {}
    raw_options = c.table(game_t, "options", "game")
    if info is not None:
        try:
            game_options = info.resolve_options(raw_options, players)
        except GameConfigError as exc:
            for option, message in exc.problems:      # every bad option, each under its own key
                c.error(f"game.options.{option}" if option else "game.options", message)
    return info, players, game_options


def _tournament_section(c: _Checker, doc: dict[str, Any], source: str) -> dict[str, Any]:
    """``[tournament]``: format, size, seed and how the run is carried out."""
    t = c.table(doc, "tournament")
    c.unknown_keys(t, TOURNAMENT_KEYS, "tournament")
    return {
        "format": c.string(t, "format", "tournament", "round-robin", FORMATS),
        "deals": c.integer(t, "deals", "tournament", 1, minimum=1),
        "seed": _seed(c, t),
        "concurrency": c.integer(t, "concurrency", "tournament", os.cpu_count() or 1, minimum=1),
        "output": c.string(t, "output", "tournament", "tournament-out"),
        "name": c.string(t, "name", "tournament", Path(source).stem if source != "config" else "tournament"),
        "candidate": c.string(t, "candidate", "tournament", None),
        "candidates": t.get("candidates"),  # checked with the bots (_candidates)
        "auto_play_forced": c.boolean(t, "auto_play_forced", "tournament", False),
        "event_delivery": c.string(t, "event_delivery", "tournament", "on-request", EVENT_DELIVERY),
        "cpu_affinity": c.string(t, "cpu_affinity", "tournament", "none", CPU_AFFINITY),
        "workers": c.string(t, "workers", "tournament", "auto", WORKERS),
        "preflight": c.string(t, "preflight", "tournament", "stop", PREFLIGHT),
        "deal_file": c.string(t, "deal_file", "tournament", None),
    }


#: ``tournament.seed = "drawn"``, the same as no seed: a secret drawn when the run starts and kept
#: in its output folder; the effective config says so.
DRAWN_SEED = "drawn"
SEED_HEX_DIGITS = 64  # a hex seed holds at most 256 bits


def _seed(c: _Checker, t: dict[str, Any]) -> int | str | None:
    """``tournament.seed``: an integer >= 0, a string of hex digits (lower-cased; how a
    128-bit seed is written in TOML), or none (or ``"drawn"``): None, drawn for the run."""
    value = t.get("seed", DRAWN_SEED)
    if isinstance(value, str):
        if value == DRAWN_SEED:
            return None
        if 0 < len(value) <= SEED_HEX_DIGITS and all(ch in "0123456789abcdefABCDEF" for ch in value):
            return value.lower()
        c.error("tournament.seed", f'must be an integer, a string of 1 to {SEED_HEX_DIGITS} hex digits '
                                   f'(e.g. 32 from: python -c "import secrets; print(secrets.token_hex(16))"), '
                                   f'or "{DRAWN_SEED}"; got {value!r}')
        return None
    return c.integer(t, "seed", "tournament", None, minimum=0, maximum=2**63 - 1)


def _time_section(c: _Checker, doc: dict[str, Any]) -> TimeControl:
    tt = c.table(doc, "time")
    c.unknown_keys(tt, tuple(f.name for f in dataclasses.fields(TimeControl)), "time")
    d = TimeControl()
    return TimeControl(
        startup_ms=c.number(tt, "startup_ms", "time", d.startup_ms, minimum=1),
        ready_ms=c.number(tt, "ready_ms", "time", d.ready_ms, minimum=1),
        decision_ms=c.number(tt, "decision_ms", "time", d.decision_ms, minimum=1),
        game_ms=c.number(tt, "game_ms", "time", d.game_ms, minimum=0),
        shutdown_ms=c.number(tt, "shutdown_ms", "time", d.shutdown_ms, minimum=0),
    )


def _limits_section(c: _Checker, doc: dict[str, Any]) -> Limits:
    lt = c.table(doc, "limits")
    c.unknown_keys(lt, tuple(f.name for f in dataclasses.fields(Limits)), "limits")
    d = Limits()
    return Limits(
        max_line_bytes=c.integer(lt, "max_line_bytes", "limits", d.max_line_bytes, minimum=256),
        max_lines_per_request=c.integer(lt, "max_lines_per_request", "limits", d.max_lines_per_request,
                                        minimum=1),
        stderr_bytes=c.integer(lt, "stderr_bytes", "limits", d.stderr_bytes, minimum=0),
        transcript_bytes=c.integer(lt, "transcript_bytes", "limits", d.transcript_bytes, minimum=1024),
    )


def _records_section(c: _Checker, doc: dict[str, Any]) -> Records:
    rt = c.table(doc, "records")
    c.unknown_keys(rt, ("transcripts", "stderr", "report", "report_every"), "records")
    return Records(transcripts=c.string(rt, "transcripts", "records", "failed", KEEP_CHOICES),
                   stderr=c.string(rt, "stderr", "records", "failed", KEEP_CHOICES),
                   report=c.boolean(rt, "report", "records", True),
                   report_every=c.integer(rt, "report_every", "records", 0, minimum=0))


def _stop_section(c: _Checker, doc: dict[str, Any], fmt: str) -> SprtSpec | None:
    """``[stop]``: ``sprt = { m0, m1, alpha, beta, min_samples }``, the sequential test that ends a
    paired run once it decides (docs/tournament.md, "Testing a change to a bot")."""
    st = c.table(doc, "stop")
    c.unknown_keys(st, ("sprt",), "stop")
    if "sprt" not in st:
        return None
    table = st["sprt"]
    if not isinstance(table, dict):
        c.error("stop.sprt", f"must be a table, e.g. sprt = {{ m0 = 0, m1 = 2 }}, got {_type_name(table)}")
        return None
    if fmt != "paired":
        c.error("stop.sprt", f"needs format 'paired' (its samples are the margins of A over B on the same deals); "
                             f"format is {fmt!r}")
        return None
    try:
        return SprtSpec.from_toml(table)
    except SprtSpecError as exc:
        for problem in exc.problems:
            c.error(f"stop.sprt.{problem.split(':', 1)[0]}", problem.split(":", 1)[1].strip())
        return None


def _executor_section(c: _Checker, doc: dict[str, Any], config_dir: Path) -> ExecutorConfig:
    """``[executor]``: local tables (the default) or Ray actors on a cluster (docs/tournament.md,
    "Running on a cluster")."""
    et = c.table(doc, "executor")
    c.unknown_keys(et, tuple(f.name for f in dataclasses.fields(ExecutorConfig)), "executor")
    d = ExecutorConfig()
    kind = c.string(et, "kind", "executor", d.kind, EXECUTOR_KINDS)
    if kind == "ray" and importlib.util.find_spec("ray") is None:
        c.error("executor.kind", '"ray" needs the ray package on this machine: pip install ".[ray]" in a '
                                 'trickcore clone (or pip install "ray[default]")')
    address = c.string(et, "address", "executor", d.address)
    if address is not None and address.strip() != address:
        c.error("executor.address", f"must not start or end with spaces, got {address!r}")
    elif address and address.startswith("ray://"):
        c.error("executor.address", f"{address!r} is a Ray Client address, which the runner cannot use (it streams "
                                    f"records from the tables); run the tournament on a machine of the cluster with "
                                    f'address = "auto" or the head\'s host:port')
    cpus = c.number(et, "cpus_per_table", "executor", d.cpus_per_table, minimum=0)
    working_dir = c.string(et, "working_dir", "executor", d.working_dir)
    if working_dir:
        folder = Path(expand_placeholders(working_dir, config_dir))
        if not folder.is_dir():
            c.error("executor.working_dir", f"{working_dir!r} is not a directory (it is shipped to every Ray "
                                            f"worker; relative paths are relative to the current directory)")
    return ExecutorConfig(
        kind=kind or d.kind, address=address or "", cpus_per_table=float(cpus),
        batch_games=c.integer(et, "batch_games", "executor", d.batch_games, minimum=1),
        working_dir=working_dir or "",
        max_attempts=c.integer(et, "max_attempts", "executor", d.max_attempts, minimum=1),
        start_timeout_s=c.number(et, "start_timeout_s", "executor", d.start_timeout_s, minimum=1),
    )


def _sandbox_limits(c: _Checker, table: dict[str, Any], prefix: str, keys: tuple[str, ...],
                    config_dir: Path) -> dict[str, Any]:
    """The sandbox keys of ``table`` that are given, checked (``[sandbox]`` or a bot's ``sandbox``)."""
    out: dict[str, Any] = {}
    for key in SANDBOX_LIMIT_KEYS:
        if key in table and key in keys:
            out[key] = c.integer(table, key, prefix, 0, minimum=0)
    if "network" in table and "network" in keys:
        out["network"] = c.boolean(table, "network", prefix, False)
    if "read_only" in table and "read_only" in keys:
        value = table["read_only"]
        if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
            c.error(f"{prefix}.read_only", f"must be an array of paths (strings), got {value!r}")
        else:
            paths = tuple(str(Path(expand_placeholders(p, config_dir)).expanduser().absolute()) for p in value)
            for given, path in zip(value, paths):
                if not os.path.exists(path):
                    c.error(f"{prefix}.read_only", f"{given!r} does not exist")
            out["read_only"] = paths
    if "cpus" in table and "cpus" in keys:
        value = table["cpus"]
        usable = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        if (not isinstance(value, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
            c.error(f"{prefix}.cpus", f"must be an array of CPU numbers, got {value!r}")
        elif usable and not set(value) <= set(usable):
            c.error(f"{prefix}.cpus", f"{sorted(set(value) - set(usable))} are not CPUs this runner may use "
                                      f"({', '.join(map(str, usable))})")
        else:
            out["cpus"] = tuple(value)
    return out


def _sandbox_section(c: _Checker, doc: dict[str, Any], config_dir: Path) -> SandboxSettings:
    """``[sandbox]``: the sandbox every bot runs in, and its limits (docs/tournament.md, "Fair play")."""
    st = c.table(doc, "sandbox")
    c.unknown_keys(st, tuple(f.name for f in dataclasses.fields(SandboxSettings)), "sandbox")
    kind = c.string(st, "kind", "sandbox", SandboxSettings.kind, SANDBOX_KINDS) or SandboxSettings.kind
    cgroup = c.string(st, "cgroup", "sandbox", SandboxSettings.cgroup)
    if cgroup not in ("", "none"):
        cgroup = str(Path(expand_placeholders(cgroup, config_dir)).expanduser())
        problem = cgroups.problem(cgroup)
        if problem:
            c.error("sandbox.cgroup", f"{cgroup!r} {problem} (\"\" finds the runner's own delegated cgroup, "
                                      f"\"none\" makes no cgroups)")
    return SandboxSettings(kind=kind, cgroup=cgroup, **_sandbox_limits(c, st, "sandbox", BOT_SANDBOX_KEYS, config_dir))


def _failures_section(c: _Checker, doc: dict[str, Any]) -> dict[str, FaultPolicy]:
    """``[failures.<class>]``: one policy per fault class, defaults for the classes not given."""
    ft = c.table(doc, "failures")
    c.unknown_keys(ft, FAULT_CLASSES, "failures")
    failures: dict[str, FaultPolicy] = {}
    for cls in FAULT_CLASSES:
        default = DEFAULT_POLICIES[cls]
        pt = c.table(ft, cls, "failures")
        prefix = f"failures.{cls}"
        c.unknown_keys(pt, POLICY_KEYS, prefix)
        failures[cls] = FaultPolicy(
            action=c.string(pt, "action", prefix, default.action, FAULT_ACTIONS),
            forfeit_after=c.integer(pt, "forfeit_after", prefix, default.forfeit_after, minimum=0),
            disqualify_after=c.integer(pt, "disqualify_after", prefix, default.disqualify_after, minimum=0),
        )
    return failures


def _bots_section(c: _Checker, doc: dict[str, Any], config_dir: Path
                  ) -> tuple[list[BotConfig], list[dict[str, Any]], list[str], bool]:
    """``[[bots]]``: every bot, its raw table, every valid name given (also of entries that are
    otherwise broken), and whether every entry became a bot (only then do the per-format bot
    counts mean something)."""
    bot_list = doc.get("bots")
    if bot_list is None:
        c.error("bots", "missing: define each bot in a [[bots]] table with name and command")
        return [], [], [], False
    if not isinstance(bot_list, list):
        c.error("bots", f"must be an array of tables ([[bots]]), got {_type_name(bot_list)}")
        return [], [], [], False
    bots: list[BotConfig] = []
    raw_bots: list[dict[str, Any]] = []
    seen: dict[str, str] = {}
    for i, b in enumerate(bot_list):
        bot = _bot(c, b, f"bots[{i}]", config_dir, seen)
        if bot is not None:
            bots.append(bot)
            raw_bots.append(b)
    return bots, raw_bots, list(seen), len(bots) == len(bot_list)


def _bot(c: _Checker, b: Any, key: str, config_dir: Path, seen: dict[str, str]) -> BotConfig | None:
    """One ``[[bots]]`` entry; ``seen`` maps the names so far to their keys (names are unique)."""
    if not isinstance(b, dict):
        c.error(key, f"must be a table with name and command, got {_type_name(b)}")
        return None
    c.unknown_keys(b, BOT_KEYS, key)
    name = c.string(b, "name", key, None, required=True)
    if name is not None:
        if not name.strip() or any(ch.isspace() for ch in name):
            c.error(f"{key}.name", f"must be a non-empty name without spaces, got {name!r}")
        elif name in seen:
            c.error(f"{key}.name", f"{name!r} is already the name of {seen[name]}; bot names must be "
                                   f"unique (to seat one program twice, define it twice with two names)")
        else:
            seen[name] = key
    command = _bot_command(c, b, key, config_dir)
    cwd = c.string(b, "cwd", key, None)
    if cwd is not None:
        cwd = expand_placeholders(cwd, config_dir)
        if not Path(cwd).is_dir():
            c.error(f"{key}.cwd", f"{cwd!r} is not a directory")
    if command:
        # Paths in the command mean what they mean where the bot's author wrote it: in its cwd,
        # else beside the config (on the command line, config_dir is the current folder).
        base = Path(cwd).absolute() if cwd is not None else config_dir
        command = resolve_command(command, base)
        if cwd is None:
            cwd = module_folder(command, base)
    env = _bot_env(c, b, key, config_dir)
    options = _bot_options(c, b, key)
    restart = c.string(b, "restart", key, "table", RESTART_CHOICES)
    bt = c.table(b, "sandbox", key)
    c.unknown_keys(bt, BOT_SANDBOX_KEYS, f"{key}.sandbox")
    sandbox = tuple(sorted(_sandbox_limits(c, bt, f"{key}.sandbox", BOT_SANDBOX_KEYS, config_dir).items()))
    if name is None or not command:
        return None
    return BotConfig(name, command, cwd, env, options, restart, key, sandbox)


def _bot_command(c: _Checker, b: dict[str, Any], key: str, config_dir: Path) -> tuple[str, ...]:
    command = b.get("command")
    if command is None:
        c.error(f"{key}.command", "missing (an array of strings: the program and its arguments, "
                                  "e.g. [\"{python}\", \"{bots}/random_bot.py\"])")
        return ()
    if not isinstance(command, list) or not command or not all(isinstance(w, str) for w in command):
        c.error(f"{key}.command", f"must be a non-empty array of strings (the program and its arguments), "
                                  f"got {command!r}")
        return ()
    return tuple(expand_placeholders(w, config_dir) for w in command)


# ---- bot commands as their authors mean them (docs/tournament.md, "Bot commands") -------------

#: Flags after which the next word is a module or code, never a path: ``python -m pkg``, ``-c code``.
_NEXT_IS_NO_PATH = ("-m", "-c")
#: A script's place holds a path when the word is written like one: ``bots/x``, ``mybot.py``, ``Bot.jar``.
_PATH_LIKE = re.compile(r".*/.*|.*\w\.[A-Za-z]\w*")
_BASE_RULE = ("relative paths in a bot command are taken from its cwd, else from the config file's folder; on the "
              "command line, from the current folder")


def _script_index(command: Sequence[str]) -> int | None:
    """Where a command's script stands: its first word after the program that is neither a flag nor
    the module or code of ``-m``/``-c``; None when there is none."""
    for i in range(1, len(command)):
        if command[i - 1] in _NEXT_IS_NO_PATH:
            return None  # python -m pkg, sh -c ...: a module or code takes the script's place
        if not command[i].startswith("-"):
            return i
    return None


def resolve_command(command: Sequence[str], base: Path) -> tuple[str, ...]:
    """``command`` with its paths made absolute against ``base``, as a person running it in
    ``base`` means them: the program when written with a slash (``./bot``; a bare name such as
    ``python`` or ``bot`` is a program on PATH, as in a shell), the script (``mybot.py`` in
    ``python mybot.py``, also when the file is missing, so the error names it), and any later
    word that names an existing file or folder in ``base`` (``.`` in ``java -cp . Bot``).
    Flags and the module or code after ``-m`` or ``-c`` stay as written."""
    program, *args = command
    words = [os.path.normpath(base / program) if "/" in program else program]
    script = _script_index(command)
    for i, word in enumerate(args, start=1):
        path = base / word
        if (not word.startswith("-") and command[i - 1] not in _NEXT_IS_NO_PATH
                and (path.exists() or (i == script and _PATH_LIKE.fullmatch(word)))):
            words.append(os.path.normpath(path))
        else:
            words.append(word)
    return tuple(words)


def module_folder(command: Sequence[str], base: Path) -> str | None:
    """``python -m pkg`` finds ``pkg`` in its working directory: ``base`` when it holds the
    module (a package folder or a ``.py`` file), which makes it the bot's own folder."""
    for flag, word in zip(command, command[1:]):
        if flag == "-m":
            top = word.split(".")[0]
            return str(base) if (base / top).is_dir() or (base / f"{top}.py").is_file() else None
    return None


def command_folder(command: Sequence[str]) -> str | None:
    """The folder a bot without a ``cwd`` starts in, its own: that of its script, the first path
    after the program (a file's folder; a folder, as in ``java -cp . Bot``, is itself), else that
    of its program when the command names it by a path (``./bot``), else None (a program on PATH
    and no path after it)."""
    for before, word in zip(command, command[1:]):
        if os.path.isabs(word) and before not in _NEXT_IS_NO_PATH:
            return word if os.path.isdir(word) else os.path.dirname(word)
    if os.path.isabs(command[0]) and command[0] != sys.executable:
        return os.path.dirname(command[0])
    return None


def check_command(command: Sequence[str]) -> None:
    """Raise FileNotFoundError or PermissionError, in words that name the path tried and the
    folder looked in, when ``command`` (resolved: resolve_command) cannot start: its program
    is not on PATH or not there, or its script is not there."""
    program = command[0]
    if "/" not in program:
        if shutil.which(program) is None:
            raise FileNotFoundError(errno.ENOENT, f"no program {program!r} on PATH ({os.environ.get('PATH', '')}); "
                                                  f"a program of the bot's own is named by its path, e.g. "
                                                  f"./{program}")
    elif not os.path.isfile(program):
        raise FileNotFoundError(errno.ENOENT, _not_there(program))
    elif not os.access(program, os.X_OK):
        raise PermissionError(errno.EACCES, f"{program} is not executable (chmod +x {program})")
    script = _script_index(command)
    if script is not None and os.path.isabs(command[script]) and not os.path.exists(command[script]):
        raise FileNotFoundError(errno.ENOENT, _not_there(command[script]))


def _not_there(path: str) -> str:
    folder, name = os.path.split(path)
    where = f"no {name} in {folder}" if os.path.isdir(folder) else f"no folder {folder} (for {name})"
    return f"there is {where} ({_BASE_RULE})"


def _bot_env(c: _Checker, b: dict[str, Any], key: str, config_dir: Path) -> tuple[tuple[str, str], ...]:
    env: list[tuple[str, str]] = []
    for name, value in c.table(b, "env", key).items():
        if not isinstance(value, str):
            c.error(f"{key}.env.{name}", f"must be a string, got {_type_name(value)} {value!r}")
        else:
            env.append((name, expand_placeholders(value, config_dir)))
    return tuple(env)


def _bot_options(c: _Checker, b: dict[str, Any], key: str) -> tuple[tuple[str, Any], ...]:
    options: list[tuple[str, Any]] = []
    for name, value in c.table(b, "options", key).items():
        if isinstance(value, (dict, list)) or (isinstance(value, float) and value != value):
            c.error(f"{key}.options.{name}", f"must be a string, number or boolean, got {_type_name(value)}")
        elif any(ch.isspace() for ch in name):
            c.error(f"{key}.options.{name}", "option names cannot contain spaces")
        else:
            options.append((name, value))
    return tuple(options)


def _check_field_size(c: _Checker, fmt: str, players: int, n: int,
                      candidates: tuple[tuple[str, ...], tuple[str, ...]] | None = None) -> None:
    """Each format needs a field of bots that fits its seats."""
    if fmt == "duplicate" and n != players:
        c.error("bots", f"format 'duplicate' seats every bot at every table, so it needs exactly "
                        f"{players} bots for {players} seats; got {n} (too {'many' if n > players else 'few'}"
                        f"; use format 'round-robin' or 'gauntlet' for a larger field)")
    elif fmt == "round-robin" and n < players:
        c.error("bots", f"format 'round-robin' needs at least {players} bots for {players} seats; got {n} "
                        f"(too few)")
    elif fmt == "gauntlet" and n < players:
        c.error("bots", f"format 'gauntlet' needs the candidate and at least {players - 1} field bots "
                        f"for {players} seats; got {n} bots (too few)")
    elif fmt == "paired" and candidates is not None:
        held = len(candidates[0])
        fillers = n - 2 * held
        if fillers != players - held:
            holds = "1 seat" if held == 1 else f"the {held} seats of a partnership"
            c.error("bots", f"format 'paired' seats candidate A or B in {holds} and a filler in each of the other "
                            f"{players - held}, so it needs exactly {players - held} bots besides the candidates; "
                            f"got {fillers} (too {'many' if fillers > players - held else 'few'}; leave out every "
                            f"bot but the candidates to fill those seats with the bundled heuristic bot)")


def _candidate(c: _Checker, fmt: str, candidate: str | None, names: list[str]) -> str | None:
    """The gauntlet's candidate: the named bot, by default the first; other formats have none."""
    if fmt != "gauntlet":
        if candidate is not None:
            c.error("tournament.candidate", f"only used with format 'gauntlet' (format is {fmt!r})")
        return candidate
    if candidate is None:
        return names[0] if names else None
    if candidate not in names:
        c.error("tournament.candidate", f"{candidate!r} is not the name of a bot; bots are "
                                        f"{', '.join(names) or '(none)'}")
    return candidate


def parse_value(text: str) -> Any:
    """A value given on the command line (``--set KEY=VALUE``, a game or bot option) in TOML
    syntax (``3``, ``true``, ``"x"``, ``[1, 2]``); bare words are strings."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def program_name(argv: list[str]) -> str:
    """A bot named after its script, else its module, else its program: ``python bot.py --depth 3``
    -> bot, ``python -m pkg`` -> pkg, ``java -cp . Bot`` -> Bot, ``./bot`` -> bot."""
    script = _script_index(argv)
    if script is not None:
        names = [Path(w).stem for w in argv[script:] if not w.startswith("-") and Path(w).stem]
        if names:
            return names[0]
    for flag, word in zip(argv, argv[1:]):
        if flag == "-m":
            return word
    return Path(argv[0]).stem if argv and Path(argv[0]).stem else "bot"


#: paired: the bot that holds the seats the candidates do not, when the config names none -- the
#: bundled heuristic bot (trickcore.policies.<game>), one process per seat, each seeded by its number.
DEFAULT_FILLER = ("{python}", "{bots}/heuristic_bot.py")
DEFAULT_FILLER_NAME = "filler"


def default_fillers(count: int, taken: list[str]) -> list[dict[str, Any]]:
    """The [[bots]] entries of the default fillers (as the effective config lists them):
    ``filler-1`` ... ``filler-<count>``; a name already taken by a candidate is skipped."""
    out: list[dict[str, Any]] = []
    number = 0
    while len(out) < count:
        number += 1
        name = f"{DEFAULT_FILLER_NAME}-{number}"
        if name not in taken:
            out.append({"name": name, "command": list(DEFAULT_FILLER), "options": {"seed": number}})
    return out


def _candidates(c: _Checker, fmt: str, value: Any, names: list[str], info: GameInfo | None,
                players: int | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """``tournament.candidates`` of format 'paired': A and B, each a bot's name or, in a partnership
    game, an array of names, one per seat of a partnership (a candidate holds a whole partnership:
    docs/tournament.md, "The paired format").  None when not paired, or when it is wrong."""
    key = "tournament.candidates"
    if fmt != "paired":
        if value is not None:
            c.error(key, f"only used with format 'paired' (format is {fmt!r})")
        return None
    teams = info.teams(players) if info is not None and players is not None and info.teams is not None else None
    held = len(teams[0]) if teams else 1
    example = ('["new", "old"]' if held == 1 else
               "[" + ", ".join("[" + ", ".join(f'"{v}-{i}"' for i in range(1, held + 1)) + "]"
                               for v in ("new", "old")) + "]")
    if value is None:
        c.error(key, f"missing (format 'paired' compares candidate A with candidate B, e.g. candidates = {example}"
                     f"{'' if held == 1 else ', one bot per seat of a partnership'})")
        return None
    if not isinstance(value, list) or len(value) != 2:
        got = (_type_name(value) if not isinstance(value, list)
               else f"{len(value)} entr{'y' if len(value) == 1 else 'ies'}")
        c.error(key, f"must be an array of two candidates, A and B (e.g. {example}), got {got}")
        return None
    sides: list[tuple[str, ...]] = []
    seen: dict[str, str] = {}
    for i, entry in enumerate(value):
        entry_key, label = f"{key}[{i}]", "AB"[i]
        given = [entry] if isinstance(entry, str) else entry
        if not isinstance(given, list) or not all(isinstance(n, str) for n in given):
            c.error(entry_key, f"must be {'the name of a bot' if held == 1 else 'an array of bot names'}, got "
                               f"{_type_name(entry)} {entry!r}")
            continue
        if len(given) != held:
            if held == 1:
                c.error(entry_key, f"must be the name of one bot, got {len(given)} names")
            else:
                assert info is not None and teams is not None  # held > 1 comes from the game's partnerships
                c.error(entry_key, f"{info.name} with {players} players is played in partnerships of {held} seats, "
                                   f"and a candidate holds a whole partnership: name {held} bots, one per seat "
                                   f"(e.g. {example}; define the program once per seat, each under its own name: "
                                   f"a process per seat), got {len(given)} name{'s' if len(given) != 1 else ''}")
            continue
        for name in given:
            if name not in names:
                c.error(entry_key, f"{name!r} is not the name of a bot; bots are {', '.join(names) or '(none)'}")
            elif name in seen:
                c.error(entry_key, f"{name!r} is already {seen[name]}; each seat of a candidate is a bot of its "
                                   f"own (to seat one program twice, define it twice with two names)")
            else:
                seen[name] = f"candidate {label}" if held == 1 else f"a seat of candidate {label}"
        sides.append(tuple(given))
    if len(sides) != 2 or len(seen) != 2 * held:
        return None
    return sides[0], sides[1]


def load_config(path: str | os.PathLike[str], overrides: dict[str, Any] | None = None) -> TournamentConfig:
    """Read and validate a TOML file.  ``overrides`` maps dotted keys (``tournament.deals``)
    to values applied before validation, as the CLI options do."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            doc = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(["file not found"], str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"not valid TOML: {exc}"], str(path)) from None
    for dotted, value in (overrides or {}).items():
        apply_override(doc, dotted, value)
    try:
        return parse_config(doc, str(path), path.parent)
    except ConfigError as exc:
        # A problem with a key the command line set is the command line's, not the file's.
        given = tuple(overrides or ())
        problems = [f"{p} (set on the command line)" if any(p.startswith(f"{k}:") or p.startswith(f"{k}.")
                                                           for k in given) else p for p in exc.problems]
        raise ConfigError(problems, exc.source) from None


_INDEXED = re.compile(r"^(?P<name>[^\[\]]+)\[(?P<index>\d+)\]$")


def apply_override(doc: dict[str, Any], dotted: str, value: Any) -> None:
    """Set ``dotted`` (``tournament.deals``, ``bots[0].command``: a table key, or an array of
    tables and an index) in ``doc`` to ``value``."""
    *parents, last = dotted.split(".")
    table: Any = doc
    for p in [*parents, last]:
        m = _INDEXED.match(p)
        if m:
            array = table.get(m["name"]) if isinstance(table, dict) else None
            if not isinstance(array, list) or int(m["index"]) >= len(array):
                size = len(array) if isinstance(array, list) else 0
                raise ConfigError([f"{dotted}: there is no {p} (the config has {size} {m['name']})"])
            if p is last:
                array[int(m["index"])] = value
                return
            table = array[int(m["index"])]
        elif p is last:
            break
        else:
            table = table.setdefault(p, {})
        if not isinstance(table, dict):
            raise ConfigError([f"{dotted}: cannot override inside {p!r}, which is not a table"])
    table[last] = value


def dump_effective(config: TournamentConfig, path: Path) -> None:
    import tomli_w

    path.write_text(tomli_w.dumps(config.effective()), encoding="utf-8")
