#!/usr/bin/env python3
"""The heuristic bot: a per-game policy where one exists, random play otherwise.

For game ``beim-jupiter`` it imports ``trickcore.policies.beim_jupiter`` and asks its
``choose(observation, legal, rng) -> option`` (``rng`` is a ``random.Random`` seeded by the
bot's ``seed`` option, its seat and the request's number in the game, so games are
reproducible; a policy taking only ``(observation, legal)`` works too).  The lookup is generic (importlib on the
game name announced in ``newgame``), so a new game gets a heuristic bot by adding a
policy module, without touching this file.  A game without a policy module, or a
policy that returns something illegal or raises, falls back to a seeded random choice
and says so on stderr.
"""

from __future__ import annotations

import importlib
import inspect
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

try:
    from trickcore.bot import Bot, Option, run, seeded_choice
except ModuleNotFoundError:
    # Run as a file from a source checkout in which trickcore is not installed: use the
    # checkout, after everything else on the path, so an installed trickcore always wins.
    if __package__ not in (None, ""):
        raise
    sys.path.append(str(Path(__file__).resolve().parents[2]))
    from trickcore.bot import Bot, Option, run, seeded_choice

POLICY_PACKAGE = "trickcore.policies"
#: A game's policy: ``choose(observation, legal, rng) -> option``.
Policy = Callable[[dict[str, Any], list[str], random.Random], str]


def policy_module_name(game: str) -> str:
    return f"{POLICY_PACKAGE}.{game.replace('-', '_').replace(' ', '_').lower()}"


def load_policy(game: str) -> Policy | None:
    """The game's ``choose`` function, or None when the game has no policy module."""
    name = policy_module_name(game)
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # Only a missing policy module means "no policy"; a policy whose own imports fail
        # is a bug that must not be hidden behind random play.
        if exc.name in (name, POLICY_PACKAGE, "trickcore"):
            return None
        raise
    choose: object = getattr(module, "choose", None)
    if not callable(choose):
        raise TypeError(f"{name} has no function choose(observation, legal)")
    if _takes_rng(choose):
        return choose
    return lambda observation, legal, rng: choose(observation, legal)


def _takes_rng(function: Callable[..., Any]) -> bool:
    try:
        params = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 3 or any(p.kind == p.VAR_POSITIONAL for p in params)


class HeuristicBot(Bot):
    name = "heuristic"
    author = "trickcore"
    declared_options = (Option("seed", "int", 0, 0, 2**32 - 1),)

    def __init__(self) -> None:
        super().__init__()
        self.policies: dict[str, Policy | None] = {}
        self.requests = 0  # requests in the current game

    def new_game(self, game: dict[str, Any]) -> None:
        super().new_game(game)
        self.requests = 0
        name = game.get("game", "")
        if name not in self.policies:
            self.policies[name] = load_policy(name)
            if self.policies[name] is None:
                print(f"heuristic: no module {policy_module_name(name)}; playing randomly", file=sys.stderr)

    def choose(self, view: dict[str, Any], legal: list[str], request: dict[str, Any]) -> str:
        policy = self.policies.get(self.game.get("game", ""))
        self.requests += 1
        if policy is not None:
            rng = random.Random(f"{self.options['seed']}:{self.game.get('seat')}:{self.requests}")
            try:
                choice = policy(view, legal, rng)
            except Exception as exc:  # a policy bug costs a random move, not the game
                print(f"heuristic: policy raised {exc!r}; playing randomly", file=sys.stderr)
            else:
                if choice in legal:
                    return choice
                print(f"heuristic: policy chose {choice!r}, not in {legal}; playing randomly", file=sys.stderr)
        return seeded_choice(legal, self.options["seed"], view, legal)


if __name__ == "__main__":
    run(HeuristicBot())
