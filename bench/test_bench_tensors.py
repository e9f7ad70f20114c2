"""Observation tensors (trickcore.encodings), one per decision of a seeded random match of each
game, written straight from the state by the compiled encoder (``state_tensor``).
``extra_info`` records ns per tensor, ns per plain step of the same match (``legal_actions`` +
``apply_action``) and their ratio; bench/integrations.py prints the same comparison for every
configuration."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

import trickcore
from trickcore.encodings import encoding

CONFIGS = [("beim-jupiter", 4, {}), ("sticheln", 4, {"rounds": 1}), ("hattrick", 4, {"games": 1}),
           ("squint", 5, {"deal_limit": 1}), ("klaberjass", 4, {"max_deals": 3}), ("reference", 4, {})]


def match(game: str, players: int, options: dict) -> tuple[float, float]:
    """(ns per tensor, ns per plain step) over one seeded random match."""
    enc = encoding(game, players, options)
    out = np.zeros(enc.size, np.float32)
    rng = random.Random(1)
    state = trickcore.new_game(game, players, options, 1)
    clock = time.perf_counter_ns
    tensors = steps = 0
    while not state.is_terminal():
        seat = state.current_player()
        t0 = clock()
        enc.state_tensor(state, seat, out)
        t1 = clock()
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        t2 = clock()
        tensors += t1 - t0
        steps += t2 - t1
    count = len(state.action_ids)
    return tensors / count, steps / count


@pytest.mark.parametrize("config", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_tensor_per_decision(benchmark, config):
    tensor, step = benchmark(lambda: match(*config))
    benchmark.extra_info.update({"ns_per_tensor": round(tensor), "ns_per_step": round(step),
                                 "tensor_per_step": round(tensor / step, 2)})
