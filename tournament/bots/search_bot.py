#!/usr/bin/env python3
"""The search bot: perfect-information Monte Carlo over sampled worlds (trickcore.search).

It keeps its own copy of the game, rebuilt from the events its seat is sent
(trickcore.mirror: nothing but what the seat may see), and at each decision searches it: worlds
drawn uniformly from what the seat knows, every legal option played in each and the deal played
out (cards in C), the option with the best mean deal result chosen.  Bids, colour cards, layouts
and card play are all searched the same way.

Options: ``fraction`` of the decision time to spend (the rest covers the protocol and the
rebuild), ``max_worlds`` per decision, ``policy`` of the rollouts' card play (``random`` or
``greedy``; ``auto``: per game), ``guide`` of the rollouts' other decisions (``heuristic``: the
game's bundled heuristic, trickcore.search.heuristic_guide; ``none``: at random; ``auto``: per
game), ``searched``: which decisions are searched (``all``; ``play``: card play only, the game's
heuristic makes the others; ``auto``: per game), ``min_rollouts`` (when the time allowed fewer
rollouts of some option than this, the search is too thin to trust and the game's heuristic
decides), ``seed``.  With a game budget (``game_ms``) it spends at most the game time left
divided by a guess of the decisions left.

What ``auto`` means per game is the game's ``GameInfo.search_tuning``, where something else was
measured stronger (docs/search.md); elsewhere every decision is searched with random rollouts,
unguided.  Klaberjass's rollouts are guided by the heuristic, whose bids and contracts random
rollouts misjudge.  Squint searches card play only, with greedy rollouts.  Its bids, 4-1 choice,
squint, discards and Null passes are the heuristic's: a bid has up to ten options whose random
rollouts run through the other seats' bids, discards and passing, and searched with them those
decisions lost to the heuristic's; greedy card play in the rollouts (everybody takes the trick
while it can) judged the cards better than random.

Every game the mirror can follow (trickcore.mirror: one that names its deck and samples worlds)
is followed from its events; should an event stream ever not be reproducible (a MirrorError), or
the game not be followable, the bot plays the game's heuristic policy in that game and says so
on stderr.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

try:
    from trickcore.bot import Bot, Option, run
except ModuleNotFoundError:
    if __package__ not in (None, ""):
        raise
    sys.path.append(str(Path(__file__).resolve().parents[2]))
    from trickcore.bot import Bot, Option, run

from trickcore.games import get_game
from trickcore.mirror import Mirror, MirrorError
from trickcore.search import Guide, heuristic_guide, search

sys.path.append(str(Path(__file__).resolve().parent))
from heuristic_bot import load_policy  # type: ignore[import-not-found]  # noqa: E402  (the bundled bots' own directory)

#: What the ``auto`` options mean for a game whose GameInfo.search_tuning says nothing of them.
AUTO = {"policy": "random", "guide": "none", "searched": "all"}


class SearchBot(Bot):
    name = "search"
    author = "trickcore"
    declared_options = (Option("fraction", "float", 0.6, 0.05, 0.95),
                        Option("max_worlds", "int", 100_000, 1, 10_000_000),
                        Option("policy", "choice", "auto", choices=("auto", "random", "greedy")),
                        Option("guide", "choice", "auto", choices=("auto", "heuristic", "none")),
                        Option("searched", "choice", "auto", choices=("auto", "all", "play")),
                        Option("min_rollouts", "int", 1, 1, 1_000_000),
                        Option("seed", "int", 0, 0, 2**32 - 1))

    def __init__(self) -> None:
        super().__init__()
        self.mirror: Mirror | None = None
        self.fallback: Callable[[dict[str, Any], list[str], random.Random], str] | None = None
        self.guide: Guide | None = None
        self.rng = random.Random(0)
        self.policy = "random"
        self.searched = "all"
        self.decisions = 0

    def new_game(self, game: dict[str, Any]) -> None:
        super().new_game(game)
        name, seat = game["game"], game["seat"]
        self.rng = random.Random(f"{self.options['seed']}:{seat}")
        try:
            self.mirror = Mirror(name, game["players"], game.get("options"), seat, seed=self.rng.getrandbits(32))
        except MirrorError as exc:
            self.mirror = None
            print(f"search: cannot follow {name} from its events ({exc}); playing its heuristic policy",
                  file=sys.stderr)
        self.fallback = load_policy(name)
        tuned = {**AUTO, **get_game(name).search_tuning}
        chosen = {key: self.options[key] if self.options[key] != "auto" else tuned[key] for key in AUTO}
        self.guide = heuristic_guide(name) if chosen["guide"] == "heuristic" else None
        self.policy, self.searched = chosen["policy"], chosen["searched"]
        self.decisions = 0

    def event(self, event: dict[str, Any]) -> None:
        if self.mirror is not None:
            self.mirror.feed(event)

    def choose(self, view: dict[str, Any], legal: list[str], request: dict[str, Any]) -> str:
        start = time.perf_counter()
        self.decisions += 1
        seat = self.game["seat"]
        kind = request.get("decision") or view.get("decision")
        if self.searched == "play" and kind != "play" and self.fallback is not None:
            if len(legal) == 1:
                return legal[0]
            print(f"search: {kind} not searched in {self.game['game']}", file=sys.stderr)
            return str(self.fallback(view, legal, self.rng))
        if self.mirror is not None and len(legal) > 1:
            try:
                state = self.mirror.sync()
                if json.loads(json.dumps(state.observation(seat))) != view:
                    raise MirrorError("the rebuilt state does not show the view the referee sent")
            except MirrorError as exc:
                print(f"search: {exc}; heuristic move", file=sys.stderr)
                self.mirror = None
            else:
                budget = self._budget_ms(request) - (time.perf_counter() - start) * 1000
                result = search(state, seat, self.rng, max(budget, 1.0), max_worlds=self.options["max_worlds"],
                                policy=self.policy, guide=self.guide)
                print(f"search: {result.worlds} worlds, {result.total_rollouts} rollouts, "
                      f"{result.elapsed_ms:.0f} ms", file=sys.stderr)
                thinnest = min(result.rollouts.values())
                if thinnest >= self.options["min_rollouts"] or self.fallback is None:
                    return state.action_to_string(result.action)
                print(f"search: {thinnest} rollouts of an option, under min_rollouts; heuristic move",
                      file=sys.stderr)
        if self.fallback is not None and len(legal) > 1:
            return str(self.fallback(view, legal, self.rng))
        return legal[0]

    def _budget_ms(self, request: dict[str, Any]) -> float:
        clock = request.get("time", {})
        budget: float = float(clock.get("decision_ms") or 1000.0) * self.options["fraction"]
        left = clock.get("game_left_ms")
        if left:                                   # spread the game's time over the decisions
            budget = min(budget, float(left) * self.options["fraction"] / 40)
        return budget


if __name__ == "__main__":
    run(SearchBot())
