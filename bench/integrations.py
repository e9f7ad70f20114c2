"""Speed of the encodings and of the two adapters against the plain interface, per game.

    python bench/integrations.py [--matches N]

Prints, per game configuration: ns per tensor (``Encoding.tensor`` on a view dict), ns per
``observation(seat)`` and ns per step of the plain loop (``legal_actions`` + ``apply_action`` of
a random legal action, from the loop's rate);
then steps per second of seeded random matches through the plain interface, the plain interface
with one tensor and mask per step, OpenSpiel (``pyspiel`` states, with and without
``observation_tensor``) and PettingZoo (``agent_iter``/``last``/``step``, which observes every
step).  docs/integrations.md quotes one run; the machine is shared, so compare figures of one run.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import trickcore
from trickcore.encodings import encoding

CONFIGS = [("beim-jupiter", 4, {}), ("sticheln", 4, {"rounds": 1}), ("hattrick", 4, {"games": 1}),
           ("squint", 5, {"deal_limit": 1}), ("klaberjass", 4, {"max_deals": 3}), ("reference", 4, {})]


def plain(game, n, options, matches, tensors=False):
    enc = encoding(game, n, options)
    steps, start = 0, time.perf_counter()
    for seed in range(matches):
        rng = random.Random(seed)
        state = trickcore.new_game(game, n, options, seed)
        while not state.is_terminal():
            if tensors:
                enc.tensor(state.observation(state.current_player()))
                enc.legal_mask(state)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def costs(game, n, options, matches):
    """(ns per tensor, ns per observation) over the views of the seat to move in seeded random
    matches."""
    enc = encoding(game, n, options)
    views, t_obs = [], 0.0
    for seed in range(matches):
        rng = random.Random(seed)
        state = trickcore.new_game(game, n, options, seed)
        while not state.is_terminal():
            t = time.perf_counter()
            views.append(state.observation(state.current_player()))
            t_obs += time.perf_counter() - t
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    out = np.zeros(enc.size, np.float32)
    t = time.perf_counter()
    for view in views:
        enc.tensor(view, out)
    t_tensor = time.perf_counter() - t
    return t_tensor / len(views) * 1e9, t_obs / len(views) * 1e9


def openspiel(game, n, options, matches, tensors=""):
    """``tensors``: "" none, "state" ``state.observation_tensor(p)``, "observer" one
    ``make_observation(game)`` and ``set_from`` per step."""
    from open_spiel.python.observation import make_observation

    from trickcore.integrations import openspiel as tos
    g = tos.load(game, n, options, seed=0)
    observer = make_observation(g)
    steps, start = 0, time.perf_counter()
    for seed in range(matches):
        rng = random.Random(seed)
        state = g.new_initial_state()
        while not state.is_terminal():
            if tensors == "state":
                state.observation_tensor(state.current_player())
            elif tensors == "observer":
                observer.set_from(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo(game, n, options, matches):
    from trickcore.integrations.pettingzoo import raw_env
    e = raw_env(game=game, players=n, options=options)
    steps, start = 0, time.perf_counter()
    for seed in range(matches):
        e.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in e.agent_iter():
            obs, _r, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def best(repeat, fn, *args, **kwargs):
    """The best of ``repeat`` runs (the highest rate, the lowest costs)."""
    runs = [fn(*args, **kwargs) for _ in range(repeat)]
    if isinstance(runs[0], tuple):
        return tuple(min(r[i] for r in runs) for i in range(len(runs[0])))
    return max(runs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    m, r = args.matches, args.repeat
    for game, n, options in CONFIGS:          # warm up: imports, decks, encodings
        plain(game, n, options, 1, tensors=True)
    print("| game | players | tensor size | ns per tensor | ns per observation | ns per plain step "
          "| tensor / step |")
    print("|---|---|---|---|---|---|---|")
    for game, n, options in CONFIGS:
        tensor, obs = best(r, costs, game, n, options, m)
        step = 1e9 / best(r, plain, game, n, options, m)   # legal_actions + apply_action
        print(f"| {game} | {n} | {encoding(game, n, options).size} | {tensor:,.0f} | {obs:,.0f} | {step:,.0f} "
              f"| {tensor / step:.1f} |")
    print()
    print("| game | plain | plain + tensor + mask | OpenSpiel | OpenSpiel + observer | "
          "OpenSpiel + state.observation_tensor | PettingZoo |")
    print("|---|---|---|---|---|---|---|")
    for game, n, options in CONFIGS:
        row = [best(r, plain, game, n, options, m), best(r, plain, game, n, options, m, tensors=True),
               best(r, openspiel, game, n, options, m), best(r, openspiel, game, n, options, m, "observer"),
               best(1, openspiel, game, n, options, 1, "state"), best(r, pettingzoo, game, n, options, m)]
        print(f"| {game} | " + " | ".join(f"{x:,.0f}" for x in row) + " |")


if __name__ == "__main__":
    main()
