"""``trickcore compliance``: check one bot program against the protocol (docs/protocol.md).

Stricter than a tournament: whatever a tournament tolerates and reports (unknown lines,
stale replies) fails a compliance check, so bot authors find problems before a long run.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from typing import Any

from tournament import wire
from tournament.config import FAULT_CLASSES, ConfigError, TournamentConfig, parse_config
from tournament.results import read_results
from tournament.runner import RunSummary, run_tournament
from tournament.sandbox import SandboxUnavailable, require_sandbox
from tournament.session import BotFault, BotSession
from trickcore.game import GameConfigError
from trickcore.games import get_game, list_games


@dataclasses.dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


@dataclasses.dataclass
class ComplianceReport:
    checks: list[Check]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


def default_game() -> str:
    """The game a check plays when none is named: the reference game, else the first registered."""
    try:
        return get_game("reference").name
    except GameConfigError:
        games = list_games()
        if not games:
            raise ConfigError(["no game is registered"], "compliance") from None
        return games[0].name


def run_compliance(command: list[str], game: str | None = None, players: int | None = None, games: int = 2,
                   startup_ms: float = 10000, decision_ms: float = 5000, options: dict[str, Any] | None = None,
                   out_dir: str | None = None, sandbox: str | None = None) -> ComplianceReport:
    """Check the bot started by ``command``.  The games' records and transcripts go to
    ``out_dir`` when one is given (and stay there); otherwise to a temporary folder that is
    removed before returning."""
    if out_dir is None:
        with tempfile.TemporaryDirectory(prefix="trickcore-compliance-") as tmp:
            return _run_compliance(command, game, players, games, startup_ms, decision_ms, options, tmp, False,
                                   sandbox)
    return _run_compliance(command, game, players, games, startup_ms, decision_ms, options, out_dir, True, sandbox)


def _run_compliance(command: list[str], game: str | None, players: int | None, games: int, startup_ms: float,
                    decision_ms: float, options: dict[str, Any] | None, out_dir: str, kept: bool,
                    sandbox: str | None = None) -> ComplianceReport:
    config = _compliance_config(command, game, players, games, startup_ms, decision_ms, options, out_dir, sandbox)
    try:  # the bot runs sandboxed as in a tournament, or the check says why it cannot
        require_sandbox(config)
    except SandboxUnavailable as exc:
        raise ConfigError([f"sandbox: {exc}"], "compliance") from None
    checks = _session_checks(config)
    if not checks[0].ok:  # no handshake: no games either
        return ComplianceReport(checks)
    summary = run_tournament(config, check_bots=False)
    if summary.interrupted:  # (SIGTERM or Ctrl-C) an unfinished check passes nothing
        raise KeyboardInterrupt
    checks += _game_checks(config, summary, read_results(summary.out_dir), kept)
    return ComplianceReport(checks)


def _compliance_config(command: list[str], game: str | None, players: int | None, games: int, startup_ms: float,
                       decision_ms: float, options: dict[str, Any] | None, out_dir: str,
                       sandbox: str | None = None) -> TournamentConfig:
    """A round robin of the bot against copies of itself that counts every fault and keeps asking."""
    game = game or default_game()
    try:
        info = get_game(game)
    except GameConfigError as exc:
        raise ConfigError([f"--game: {exc}"], "compliance") from None
    players = players or min(info.players)
    doc = {"game": {"name": info.name, "players": players},
           "tournament": {"name": "compliance", "format": "round-robin", "deals": games, "seed": 1,
                          "concurrency": 1, "output": out_dir},
           "time": {"startup_ms": startup_ms, "ready_ms": startup_ms, "decision_ms": decision_ms},
           "records": {"transcripts": "failed", "stderr": "failed"},
           # Count every fault and keep asking, so one run shows all of them.
           "failures": {cls: {"action": "substitute", "forfeit_after": 0} for cls in FAULT_CLASSES},
           "bots": [{"name": f"seat{i}", "command": list(command), "options": dict(options or {})}
                    for i in range(players)]}
    if sandbox is not None:
        doc["sandbox"] = {"kind": sandbox}
    return parse_config(doc, "compliance")


def _session_checks(config: TournamentConfig) -> list[Check]:
    """One bot process on its own: handshake, identity, unknown commands ignored, quit."""
    checks: list[Check] = []
    session = BotSession(config.bots[0], config)
    try:
        t0 = time.perf_counter()
        try:
            session.spawn()
            session.handshake()
        except BotFault as fault:
            return [Check("handshake", False, fault.detail)]
        declared = ", ".join(f"{d.name} ({d.type}, default {wire.format_option_value(d.default)})"
                             for d in session.declared.values()) or "no options"
        checks.append(Check("handshake", True, f"name {session.name!r}, author {session.author!r}, {declared}; "
                                               f"ready after {1000 * (time.perf_counter() - t0):.0f} ms"))
        checks.append(Check("identity", bool(session.name), "sends 'id name'" if session.name
                            else "no 'id name <text>' line in the handshake"))
        try:
            session.send("frobnicate 1 2 3")  # a command from a future protocol version
            session.barrier()
            checks.append(Check("unknown commands", True, "ignored an unknown command and answered isready"))
        except BotFault as fault:
            checks.append(Check("unknown commands", False, f"after an unknown command: {fault.detail}"))
        session.send(wire.quit_())
        assert session.process is not None  # spawned above
        deadline = time.perf_counter() + config.time.shutdown_ms / 1000
        while session.process.alive() and time.perf_counter() < deadline:
            time.sleep(0.01)
        exited = not session.process.alive()
        checks.append(Check("quit", exited, "exited after quit" if exited else
                            f"still running {config.time.shutdown_ms:g} ms after quit"))
    finally:
        session.kill()
    return checks


def _game_checks(config: TournamentConfig, summary: RunSummary, records: list[dict[str, Any]],
                 kept: bool) -> list[Check]:
    """Whole games against copies of itself: legal, timely answers; no unknown lines or stale replies."""
    checks: list[Check] = []
    faults = [f for r in records for f in r.get("faults", [])]
    decisions = [a for r in records for a in r.get("actions", []) if a.get("by") == "bot"]
    if summary.errors:
        checks.append(Check("games", False, summary.errors[0]))
    elif faults:
        first = faults[0]
        checks.append(Check("games", False, f"{len(faults)} faults in {len(records)} games of {config.game}; first: "
                                            f"{first['class']}: {first['detail']} "
                                            + (f"(see {summary.out_dir})" if kept else
                                               "(run again with --out DIR to keep the transcripts)")))
    else:
        slowest = max((a.get("ms", 0) for a in decisions), default=0)
        checks.append(Check("games", True, f"{len(records)} games of {config.game} with {config.players} seats, "
                                           f"{len(decisions)} legal answers, slowest {slowest:.1f} ms"))
    notes = [n for r in records for n in r.get("notes", {}).values()]
    unknown = sum(n.get("unknown_lines", 0) for n in notes)
    examples = [e for n in notes for e in n.get("unknown_examples", [])]
    checks.append(Check("no unknown lines", unknown == 0, "none" if not unknown else
                        f"{unknown} lines that are no protocol command, e.g. {examples[0]!r} (use 'info <text>' "
                        f"for messages, stderr for logs)"))
    stale = sum(n.get("stale_replies", 0) for n in notes)
    checks.append(Check("no stale replies", stale == 0, "none" if not stale else
                        f"{stale} replies with the id of an earlier request"))
    return checks
