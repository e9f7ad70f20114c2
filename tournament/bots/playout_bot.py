#!/usr/bin/env python3
"""A 30-line search bot (docs/search.md): worlds from its own mirror, card play by C playouts."""
import random
import sys
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parents[2]))  # run from a checkout too
from trickcore.bot import Bot, run  # noqa: E402
from trickcore.mirror import Mirror  # noqa: E402


class PlayoutBot(Bot):
    name = "playout-example"

    def new_game(self, game: dict[str, Any]) -> None:
        super().new_game(game)
        self.seat, self.rng = game["seat"], random.Random(game["seat"])
        self.mirror = Mirror(game["game"], game["players"], game.get("options"), self.seat)

    def event(self, event: dict[str, Any]) -> None:
        self.mirror.feed(event)                       # every event this seat may see

    def choose(self, view: dict[str, Any], legal: list[str], request: dict[str, Any]) -> str:
        state = self.mirror.sync()                    # a state that shows this seat its view
        if state.decision() != "play":                # bids, colours...: not searched here
            return self.rng.choice(legal)
        points: dict[int, float] = {}
        for world in state.worlds(self.seat, 20, seed=self.rng.getrandbits(32)):
            per_card = world.playouts(100, policy="greedy", seed=self.rng.getrandbits(32), per_move=True)
            for action, mean in per_card.items():     # card points this seat takes, on average
                points[action] = points.get(action, 0.0) + mean["points"][self.seat]
        return state.action_to_string(max(points, key=points.get))  # type: ignore[arg-type]  # keys all present


if __name__ == "__main__":
    run(PlayoutBot())
