"""Two builds of trickcore side by side: the speed users feel, as ratios from one run.

    python bench/compare_builds.py --base OTHER/.venv/bin/python [--new .venv/bin/python] [--slices 9]

Each build is a Python interpreter with trickcore importable (an editable install of another
checkout, say one of ``main`` before a change).  Every figure is CPU time of one worker process
per slice, the builds' slices interleaved (base, new, base, new, ...) so that a machine that
changes speed during the run slows both alike; the table gives each build's median and the
median of the per-slice ratios new / base.  What is measured, per game configuration:

* ``card``: the natural loop ``apply_action(choice(legal_actions()))`` over the cards of trick
  phases, from states at the start of a trick phase to the phase's last card (which runs the
  game's own flow, scoring and the next deal, so it counts under ``game``), per card;
* ``game``: full random games from Python, per card play (every decision of the game timed,
  divided by the number of card plays);
* ``clone``: ``clone()`` at every decision of full random games, mean per call.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any

#: (game, players, options): every game and player count, each in its default match length.
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("beim-jupiter", 3, {}), ("beim-jupiter", 4, {}), ("beim-jupiter", 5, {}),
    ("sticheln", 3, {}), ("sticheln", 4, {}), ("sticheln", 8, {}),
    ("hattrick", 4, {}), ("hattrick", 7, {}),
    ("squint", 5, {}),
    ("klaberjass", 2, {}), ("klaberjass", 3, {}), ("klaberjass", 4, {}),
    ("reference", 4, {}),
]
CARD_ACTIONS = 256   # action ids below this are card moves (trickcore._core.PLAY_ACTIONS)


def _worker(game: str, players: int, options: dict[str, Any], seed: int, games: int) -> dict[str, float]:
    """One slice in this process: full games, then card loops, then clones (CPU nanoseconds)."""
    import random

    import trickcore

    clock = time.process_time_ns
    rng = random.Random(seed)
    starts = []              # clones of states at the start of a trick phase, for the card loop
    # One untimed game first: imports, first-call caches and the interpreter's specialisation of
    # the flow's code are start-up costs, not the steady state a loop of many games runs in.
    warm = trickcore.new_game(game, players, options, seed)
    while not warm.is_terminal():
        warm.apply_action(rng.choice(warm.legal_actions()))
        warm.clone()
    game_ns = cards = 0
    for g in range(games):
        state = trickcore.new_game(game, players, options, seed * 1000 + g)
        choice, legal_of, apply = rng.choice, state.legal_actions, state.apply_action
        begin = clock()
        while not state.is_terminal():
            legal = legal_of()
            action = choice(legal)
            if action < CARD_ACTIONS:
                cards += 1
            apply(action)
        game_ns += clock() - begin
    # The card loop from trick-phase starts (collected in a separate, untimed pass).
    for g in range(games):
        state = trickcore.new_game(game, players, options, seed * 1000 + g)
        was_card = False
        while not state.is_terminal():
            legal = state.legal_actions()
            is_card = legal[0] < CARD_ACTIONS
            if is_card and not was_card:
                starts.append(state.clone())
            was_card = is_card
            state.apply_action(rng.choice(legal))
    card_ns = played = 0
    for start in starts:
        state = start.clone()
        tp = state._tp
        # Every card of the phase but its last, whose play runs the game's own flow (scoring).
        count = tp.tricks_left * players - tp.trick_len - 1
        choice, legal_of, apply = rng.choice, state.legal_actions, state.apply_action
        begin = clock()
        for _ in range(count):
            legal = legal_of()
            if legal[0] >= CARD_ACTIONS:      # a decision inside the trick phase (a Belle)
                break
            apply(choice(legal))
            played += 1
        card_ns += clock() - begin
    # clone() at every decision of the first games.
    clone_ns = clones = 0
    for g in range(max(1, games // 4)):
        state = trickcore.new_game(game, players, options, seed * 1000 + g)
        while not state.is_terminal():
            clone = state.clone
            begin = clock()
            for _ in range(8):
                clone()
            clone_ns += clock() - begin
            clones += 8
            state.apply_action(rng.choice(state.legal_actions()))
    return {"game": game_ns / max(cards, 1), "card": card_ns / max(played, 1), "clone": clone_ns / max(clones, 1)}


def _slice(python: str, config: tuple[str, int, dict[str, Any]], seed: int, games: int) -> dict[str, float]:
    game, players, options = config
    out = subprocess.run([python, __file__, "--worker", json.dumps([game, players, options, seed, games])],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{python}: {game} {players}p failed:\n{out.stderr}")
    result: dict[str, float] = json.loads(out.stdout.splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="the Python of the build to compare against")
    parser.add_argument("--new", default=sys.executable, help="the Python of the new build (default: this one)")
    parser.add_argument("--slices", type=int, default=9, help="worker processes per build and configuration")
    parser.add_argument("--games", type=int, default=6, help="full games per slice")
    parser.add_argument("--only", default="", help="comma-separated game names to run (default: all)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        game, players, options, seed, games = json.loads(args.worker)
        print(json.dumps(_worker(game, players, options, seed, games)))
        return
    if not args.base:
        parser.error("--base is required")
    only = set(filter(None, args.only.split(",")))
    print(f"{'game':<16} {'what':<6} {'base ns':>9} {'new ns':>9} {'ratio':>6}  (median of {args.slices} slices)")
    for config in CONFIGS:
        if only and config[0] not in only:
            continue
        base: list[dict[str, float]] = []
        new: list[dict[str, float]] = []
        for k in range(args.slices):
            base.append(_slice(args.base, config, k + 1, args.games))
            new.append(_slice(args.new, config, k + 1, args.games))
        label = f"{config[0]} {config[1]}"
        for what in ("card", "game", "clone"):
            b = statistics.median(s[what] for s in base)
            n = statistics.median(s[what] for s in new)
            ratio = statistics.median(y[what] / x[what] for x, y in zip(base, new))
            print(f"{label:<16} {what:<6} {b:>9.0f} {n:>9.0f} {ratio:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
