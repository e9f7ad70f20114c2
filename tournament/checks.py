"""What the runner checks around the games, whichever executor runs the tables: that every
bot starts (the preflight), and the faults that add up to a disqualification."""

from __future__ import annotations

import collections
import threading
from collections.abc import Iterable
from typing import Any

from tournament.config import BotConfig, ConfigError, TournamentConfig
from tournament.sandbox import SandboxUnavailable, require_sandbox
from tournament.session import BotFault, BotSession


def preflight(config: TournamentConfig, strict: bool = False) -> list[str]:
    """Start every bot once: a missing program or a bad option is a config error (raised);
    a bot that fails its handshake only earns a warning -- its failure policy applies -- or, when
    ``strict`` (``--check``), is an error as well, raised with the others."""
    try:  # on the machine the tables run on, which for Ray is each node that runs this
        require_sandbox(config)
    except SandboxUnavailable as exc:
        raise ConfigError([f"sandbox: {exc}"], config.source) from None
    problems: list[str] = []
    warnings: list[str] = []
    lock = threading.Lock()

    def check(bot: BotConfig) -> None:
        session = BotSession(bot, config)
        try:
            session.spawn()
            session.handshake()
        except BotFault as fault:
            with lock:
                if fault.detail.startswith(f"{bot.key}.options."):
                    problems.append(fault.detail)
                elif fault.detail.startswith("cannot start"):
                    problems.append(f"{bot.key}.command: {fault.detail}")
                else:
                    warnings.append(f"bot {bot.name!r} ({bot.key}) failed its handshake in the preflight check: "
                                    f"{fault.detail}")
        finally:
            session.kill()

    threads = [threading.Thread(target=check, args=(b,), daemon=True) for b in config.bots]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if problems or (strict and warnings):
        raise ConfigError(sorted(problems) + (sorted(warnings) if strict else []), config.source)
    return sorted(warnings)


def fault_totals(records: Iterable[dict[str, Any]]) -> dict[str, collections.Counter[str]]:
    """Faults per bot and class over the played games among ``records``."""
    totals: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for rec in records:
        if rec.get("status") == "played":
            for seat, counts in enumerate(rec.get("fault_counts", [])):
                totals[rec["bots"][seat]].update(counts)
    return totals


def disqualifications(config: TournamentConfig, totals: dict[str, collections.Counter[str]]) -> dict[str, str]:
    """The bots whose fault totals reach a ``disqualify_after``, with why."""
    dq = {}
    for bot, counts in totals.items():
        for cls, policy in config.failures.items():
            if policy.disqualify_after and counts[cls] >= policy.disqualify_after:
                dq[bot] = f"{counts[cls]} {cls} faults (failures.{cls}.disqualify_after = {policy.disqualify_after})"
                break
    return dq
