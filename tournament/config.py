"""Tournament configuration: TOML in, validated settings out (tournament/settings.py), effective
TOML back.

Every error names the key it is about (``bots[2].command``, ``time.decision_ms``) and
what is wrong, and all errors of a file are reported together, so a user fixes a
config in one round trip (tournament/validate.py).  The reference for every key is
``docs/tournament.md``.  The settings' types and the command rule (tournament/bot_commands.py)
are importable from here too, as the runner's modules import them.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import re
import sys
from pathlib import Path
from typing import Any

from tournament import cgroups
from tournament.bot_commands import (
    check_command,
    command_folder,
    module_folder,
    program_name,
    resolve_command,
)
from tournament.candidates import (
    DEFAULT_FILLER,
    DEFAULT_FILLER_NAME,
    check_field_size,
    default_fillers,
    read_candidate,
    read_candidates,
)
from tournament.settings import (
    BOT_SANDBOX_KEYS,
    BUNDLED_BOTS_DIR,
    CPU_AFFINITY,
    DEFAULT_POLICIES,
    DRAWN_SEED,
    EVENT_DELIVERY,
    EXECUTOR_KINDS,
    FAULT_ACTIONS,
    FAULT_CLASSES,
    FORMATS,
    KEEP_CHOICES,
    PREFLIGHT,
    RESTART_CHOICES,
    RUN_ENVIRONMENT_KEYS,
    SANDBOX_KINDS,
    SANDBOX_LIMIT_KEYS,
    SEED_HEX_DIGITS,
    WORKERS,
    BotConfig,
    ConfigError,
    ExecutorConfig,
    FaultPolicy,
    Limits,
    Records,
    SandboxSettings,
    TimeControl,
    TournamentConfig,
)
from tournament.sprt import SprtSpec, SprtSpecError
from tournament.validate import Checker, type_name
from trickcore.deals import DealFileError, read_deals
from trickcore.game import GameConfigError, GameInfo
from trickcore.games import get_game

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as a package
    import tomli as tomllib

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
    c = Checker()
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
    candidates = read_candidates(c, t["format"], t["candidates"], names, info, players)
    if candidates is not None and players is not None and complete and len(bots) == sum(map(len, candidates)):
        # No filler named: the bundled heuristic bot holds every other seat.
        seen = {b.name: b.key for b in bots}
        for raw in default_fillers(players - len(candidates[0]), names):
            bot = _bot(c, raw, f"bots[{len(bots)}]", config_dir, seen)
            if bot is not None:
                bots.append(bot)
                raw_bots.append(raw)
    if players is not None and complete:
        check_field_size(c, t["format"], players, len(bots) + people, candidates)
    candidate = read_candidate(c, t["format"], t["candidate"], names)
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


def _deal_file(c: Checker, doc: dict[str, Any], t: dict[str, Any], info: GameInfo | None, players: int | None,
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


def _game_section(c: Checker, doc: dict[str, Any]) -> tuple[GameInfo | None, int | None, dict[str, Any]]:
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


def _tournament_section(c: Checker, doc: dict[str, Any], source: str) -> dict[str, Any]:
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


def _seed(c: Checker, t: dict[str, Any]) -> int | str | None:
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


def _time_section(c: Checker, doc: dict[str, Any]) -> TimeControl:
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


def _limits_section(c: Checker, doc: dict[str, Any]) -> Limits:
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


def _records_section(c: Checker, doc: dict[str, Any]) -> Records:
    rt = c.table(doc, "records")
    c.unknown_keys(rt, ("transcripts", "stderr", "report", "report_every"), "records")
    return Records(transcripts=c.string(rt, "transcripts", "records", "failed", KEEP_CHOICES),
                   stderr=c.string(rt, "stderr", "records", "failed", KEEP_CHOICES),
                   report=c.boolean(rt, "report", "records", True),
                   report_every=c.integer(rt, "report_every", "records", 0, minimum=0))


def _stop_section(c: Checker, doc: dict[str, Any], fmt: str) -> SprtSpec | None:
    """``[stop]``: ``sprt = { m0, m1, alpha, beta, min_samples }``, the sequential test that ends a
    paired run once it decides (docs/tournament.md, "Testing a change to a bot")."""
    st = c.table(doc, "stop")
    c.unknown_keys(st, ("sprt",), "stop")
    if "sprt" not in st:
        return None
    table = st["sprt"]
    if not isinstance(table, dict):
        c.error("stop.sprt", f"must be a table, e.g. sprt = {{ m0 = 0, m1 = 2 }}, got {type_name(table)}")
        return None
    if fmt != "paired":
        c.error("stop.sprt", f"needs format 'paired' (its samples are the margins of A over B on the same deals); "
                             f"format is {fmt!r}")
        return None
    try:
        return SprtSpec.from_toml(table, prefix="stop.sprt")
    except SprtSpecError as exc:
        c.problems += exc.problems
        return None


def _executor_section(c: Checker, doc: dict[str, Any], config_dir: Path) -> ExecutorConfig:
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


def _sandbox_limits(c: Checker, table: dict[str, Any], prefix: str, keys: tuple[str, ...],
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


def _sandbox_section(c: Checker, doc: dict[str, Any], config_dir: Path) -> SandboxSettings:
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


def _failures_section(c: Checker, doc: dict[str, Any]) -> dict[str, FaultPolicy]:
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


def _bots_section(c: Checker, doc: dict[str, Any], config_dir: Path
                  ) -> tuple[list[BotConfig], list[dict[str, Any]], list[str], bool]:
    """``[[bots]]``: every bot, its raw table, every valid name given (also of entries that are
    otherwise broken), and whether every entry became a bot (only then do the per-format bot
    counts mean something)."""
    bot_list = doc.get("bots")
    if bot_list is None:
        c.error("bots", "missing: define each bot in a [[bots]] table with name and command")
        return [], [], [], False
    if not isinstance(bot_list, list):
        c.error("bots", f"must be an array of tables ([[bots]]), got {type_name(bot_list)}")
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


def _bot(c: Checker, b: Any, key: str, config_dir: Path, seen: dict[str, str]) -> BotConfig | None:
    """One ``[[bots]]`` entry; ``seen`` maps the names so far to their keys (names are unique)."""
    if not isinstance(b, dict):
        c.error(key, f"must be a table with name and command, got {type_name(b)}")
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


def _bot_command(c: Checker, b: dict[str, Any], key: str, config_dir: Path) -> tuple[str, ...]:
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


def _bot_env(c: Checker, b: dict[str, Any], key: str, config_dir: Path) -> tuple[tuple[str, str], ...]:
    env: list[tuple[str, str]] = []
    for name, value in c.table(b, "env", key).items():
        if not isinstance(value, str):
            c.error(f"{key}.env.{name}", f"must be a string, got {type_name(value)} {value!r}")
        else:
            env.append((name, expand_placeholders(value, config_dir)))
    return tuple(env)


def _bot_options(c: Checker, b: dict[str, Any], key: str) -> tuple[tuple[str, Any], ...]:
    options: list[tuple[str, Any]] = []
    for name, value in c.table(b, "options", key).items():
        if isinstance(value, (dict, list)) or (isinstance(value, float) and value != value):
            c.error(f"{key}.options.{name}", f"must be a string, number or boolean, got {type_name(value)}")
        elif any(ch.isspace() for ch in name):
            c.error(f"{key}.options.{name}", "option names cannot contain spaces")
        else:
            options.append((name, value))
    return tuple(options)


def parse_value(text: str) -> Any:
    """A value given on the command line (``--set KEY=VALUE``, a game or bot option) in TOML
    syntax (``3``, ``true``, ``"x"``, ``[1, 2]``); bare words are strings."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


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


# The settings' types and the command rule, importable from here as the runner's modules do.
__all__ = [
    "BOT_SANDBOX_KEYS",
    "BUNDLED_BOTS_DIR",
    "BotConfig",
    "CPU_AFFINITY",
    "ConfigError",
    "DEFAULT_POLICIES",
    "DRAWN_SEED",
    "EVENT_DELIVERY",
    "EXECUTOR_KINDS",
    "ExecutorConfig",
    "FAULT_ACTIONS",
    "FAULT_CLASSES",
    "FORMATS",
    "FaultPolicy",
    "KEEP_CHOICES",
    "Limits",
    "PREFLIGHT",
    "RESTART_CHOICES",
    "RUN_ENVIRONMENT_KEYS",
    "Records",
    "SANDBOX_KINDS",
    "SANDBOX_LIMIT_KEYS",
    "SEED_HEX_DIGITS",
    "SandboxSettings",
    "TimeControl",
    "TournamentConfig",
    "WORKERS",
    "check_command",
    "command_folder",
    "module_folder",
    "program_name",
    "resolve_command",
    "parse_config", "load_config", "parse_value", "apply_override", "dump_effective",
    "expand_placeholders", "default_fillers", "DEFAULT_FILLER", "DEFAULT_FILLER_NAME",
]
