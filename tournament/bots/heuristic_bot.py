#!/usr/bin/env python3
"""The heuristic bot: a per-game policy where one exists, random play otherwise.

For the game announced in ``newgame`` it plays the game's registered policy
(``GameInfo.policy``, e.g. ``trickcore.games.beim_jupiter.policy:choose``), asking its
``choose(observation, legal, rng) -> option`` (``rng`` is a ``random.Random`` seeded by the
bot's ``seed`` option, its seat and the request's number in the game, so games are
reproducible; a policy taking only ``(observation, legal)`` works too).  A new game gets a
heuristic bot by naming its policy in its registration, without touching this file.  A game
without a policy, an unknown game, or a policy that returns something illegal or raises, falls
back to a seeded random choice and says so on stderr.
"""

from __future__ import annotations

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

#: A game's policy: ``choose(observation, legal, rng) -> option``.
Policy = Callable[[dict[str, Any], list[str], random.Random], str]


def load_policy(game: str) -> Policy | None:
    """The game's registered policy (trickcore.games.policy_of), or None when the game has none
    or is not known to this installation.  The games are imported here, on the first ``newgame``:
    the protocol's handshake needs only the bot SDK."""
    from trickcore.errors import GameConfigError
    from trickcore.games import policy_of

    try:
        return policy_of(game)
    except GameConfigError:
        return None


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
                print(f"heuristic: no policy for game {name!r}; playing randomly", file=sys.stderr)

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
