"""A long ``playouts`` call runs in batches with the GIL released and checks for signals between
them (trickcore/_core.pyx, PLAYOUT_BATCH): Ctrl-C stops ``playouts(2**31 - 1)``, which would
otherwise run for hours, and batching changes no result."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from trickcore import _core

SCRIPT = r"""
import random, sys, trickcore
state = trickcore.new_game("sticheln", 4, seed=5)
rng = random.Random(5)
while state._tp is None or state._tp.over:
    state.apply_action(rng.choice(state.legal_actions()))
print("ready", flush=True)
state.playouts(2**31 - 1, per_move=%s)
print("finished", flush=True)
"""


def _interrupted(per_move: bool) -> subprocess.CompletedProcess[str]:
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT % per_move], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    time.sleep(0.3)                                   # well inside the call
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=120)      # a call that ignored it would run for hours
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("playouts(2**31 - 1) did not stop on SIGINT") from None
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_ctrl_c_stops_a_huge_playouts_call():
    for per_move in (False, True):
        done = _interrupted(per_move)
        assert done.returncode != 0 and "KeyboardInterrupt" in done.stderr and "finished" not in done.stdout


def test_batches_give_the_results_of_one_run():
    """Totals over batches are the core's own: a number of playouts that is not a multiple of
    the batch gives the same means as the core in one call (tc_playouts through a single batch
    when the batch is that large)."""
    deck = _core.reference_deck()
    hands = [sum(1 << (s * 13 + r) for r in range(13)) for s in range(4)]
    tp = _core.TrickPhase(deck, 4, _core.FOLLOW_SUIT, _core.WIN_TRUMP, 0, hands, 0, 13)
    n = 2 * _core.PLAYOUT_BATCH + 123
    batched = tp.playouts(n, _core.Rng(9))
    mean_of_parts = [0.0] * 4
    rng = _core.Rng(9)
    for size in (_core.PLAYOUT_BATCH, _core.PLAYOUT_BATCH, 123):
        tricks, _ = tp.playouts(size, rng)
        mean_of_parts = [m + t * size for m, t in zip(mean_of_parts, tricks)]
    assert batched[0] == [round(m) / n for m in mean_of_parts]
    assert abs(sum(batched[0]) - 13) < 1e-9
