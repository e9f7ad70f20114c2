"""Speed of the encodings and of the two adapters against the plain interface, per game.

    python bench/integrations.py [--matches N] [--repeat R] [--quick]

Prints, per game configuration (every game, player count and Sticheln variant; ``--quick``: one
per game): ns per tensor written from the state (``Encoding.state_tensor``, the compiled encoder)
and ns per step of the plain loop (``legal_actions`` + ``apply_action`` of a random legal action, from the loop's rate),
with the ratios to the step; then steps per second of seeded random matches through the plain
interface, the plain interface with one tensor and mask per step, OpenSpiel (``pyspiel`` states,
with and without observations) and PettingZoo (``agent_iter``/``last``/``step``, which observes
every step).

A tensor is timed where a training loop asks for it: for the seat to move at every decision of
seeded random matches, each call between two clock readings (the clock's own cost, measured
alike, is taken off).  Every figure is the best of ``--repeat`` runs.  docs/integrations.md
quotes one run; the machine is shared, so compare figures of one run.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # numpy's idle BLAS threads would share the cores

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import trickcore  # noqa: E402
from trickcore.encodings import encoding  # noqa: E402
from trickcore.games import sticheln  # noqa: E402

#: One configuration per game: the adapters' table.
CONFIGS = [("beim-jupiter", 4, {}), ("sticheln", 4, {"rounds": 1}), ("hattrick", 4, {"games": 1}),
           ("squint", 5, {"deal_limit": 1}), ("klaberjass", 4, {"max_deals": 3}), ("reference", 4, {})]

#: Every game and player count, and every Sticheln variant (4 players): the tensors' table.
TENSOR_CONFIGS = (
    [("beim-jupiter", n, {}) for n in (3, 4, 5)]
    + [("sticheln", n, {"rounds": 1}) for n in range(3, 9)]
    + [("sticheln", 4, dict(sticheln.variant_options(v), rounds=1)) for v in sticheln.VARIANTS if v != "classic"]
    + [("hattrick", n, {"games": 1}) for n in (4, 5, 6, 7)]
    + [("squint", 5, {"deal_limit": 1})]
    + [("klaberjass", n, {"max_deals": 3}) for n in (2, 3, 4)]
    + [("reference", 4, {})])


def label(game, n, options):
    flags = "+".join(k for k, v in options.items() if v is True)
    return f"{game} {flags}".strip()


def plain(game, n, options, matches, tensors=False):
    enc = encoding(game, n, options)
    out = np.zeros(enc.size, np.float32)
    steps, start = 0, time.perf_counter()
    for seed in range(matches):
        rng = random.Random(seed)
        state = trickcore.new_game(game, n, options, seed)
        while not state.is_terminal():
            if tensors:
                enc.state_tensor(state, state.current_player(), out)
                enc.legal_mask(state)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def clock_cost() -> float:
    """ns between two readings of the clock with nothing in between (the least of many)."""
    clock = time.perf_counter_ns
    best = 10**9
    for _ in range(20_000):
        t0 = clock()
        best = min(best, clock() - t0)
    return float(best)


def tensor_cost(game, n, options, matches):
    """ns per tensor (``state_tensor`` into a reused buffer) of the seat to move at every decision
    of seeded random matches."""
    enc = encoding(game, n, options)
    out = np.zeros(enc.size, np.float32)
    write, clock = enc.state_tensor, time.perf_counter_ns
    total = count = 0
    for seed in range(matches):
        rng = random.Random(seed)
        state = trickcore.new_game(game, n, options, seed)
        while not state.is_terminal():
            seat = state.current_player()
            t0 = clock()
            write(state, seat, out)
            total += clock() - t0
            count += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return total / count


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
    """The best of ``repeat`` runs (the highest rate, the lowest cost)."""
    runs = [fn(*args, **kwargs) for _ in range(repeat)]
    return min(runs) if fn is tensor_cost else max(runs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one configuration per game")
    parser.add_argument("--no-adapters", action="store_true", help="the tensors' table only")
    args = parser.parse_args()
    m, r = args.matches, args.repeat
    configs = CONFIGS if args.quick else TENSOR_CONFIGS
    for game, n, options in configs:          # warm up: imports, decks, encodings
        plain(game, n, options, 1, tensors=True)
    print("| game | players | tensor size | ns per tensor from the state | ns per plain step | state tensor / step |")
    print("|---|---|---|---|---|---|")
    for game, n, options in configs:
        clock = clock_cost()
        tensor = best(r, tensor_cost, game, n, options, m) - clock
        step = 1e9 / best(r, plain, game, n, options, m)   # legal_actions + apply_action
        print(f"| {label(game, n, options)} | {n} | {encoding(game, n, options).size:,} | {tensor:,.0f} "
              f"| {step:,.0f} | {tensor / step:.2f} |")
    if args.no_adapters:
        return
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
