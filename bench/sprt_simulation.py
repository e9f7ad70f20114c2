"""The SPRT of tournament/sprt.py on synthetic margins with known true means: error rates and lengths.

    python bench/sprt_simulation.py --runs 2000                       # the table in docs/sprt.md
    python bench/sprt_simulation.py --runs 2000 --statistic normal    # the normal approximation instead
    python bench/sprt_simulation.py --runs 500 --min-samples 30
    python bench/sprt_simulation.py --shapes 40                       # the margins they are shaped after

Each run feeds one test margins A - B drawn from a distribution whose true mean is known, until it
decides (or gives up after --max-samples).  The hypotheses are those of a card game in points per
game, m0 = 0 and m1 = 2.  Four distributions of margins, shaped after the per-pair margins of the
bundled heuristic against a copy of itself that plays a random option one time in ten (``--shapes``
measures them), each at five true means (m0 - 2, m0, midway, m1, m1 + 2):

* normal: whole points from a normal distribution with standard deviation 15 (Beim Jupiter and
  Sticheln: standard deviation 15 and 17, skewness 0.0 and +0.4);
* skewed: both bots score a draw from a small, skewed integer distribution (the same for both),
  and A's style adds a swing: +20 points with probability q, otherwise -5, with q set so that the
  mean margin is the true margin; standard deviation 10 to 13, skewness +0.4 to +1.3 (Squint: +1.2);
* left-skewed: the same leaning the other way (A usually a little better, now and then far worse);
* zero-inflated: no difference in 60% of the pairs, otherwise whole points from a normal
  distribution with standard deviation 13; standard deviation 8 to 10, skewness -1.0 to +1.4
  (Klaberjass for two: 60% zeros, skewness +0.9).

It prints one markdown table row per distribution and true margin: the shares of runs that
decided H0, H1 or nothing, and the mean and 90th percentile of the samples they took.  Exit status
1 if, beyond three binomial standard errors of the simulation, the test decides H1 more often
than alpha at m0 or H0 more often than beta at m1.

``--statistic normal`` runs the normal approximation of the LLR, n (m1 - m0) (2 mean - m0 - m1) /
(2 s^2), on the same margins: the comparison that docs/sprt.md quotes for choosing the exact one.

``--shapes DEALS`` plays instead, in process, DEALS deals of each of four games with the candidate
in every seat: the heuristic, and the heuristic that plays a random option one time in ten, every
other seat the heuristic; it prints the mean, spread, skewness and share of zeros of the margins.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.sprt import DEFAULT_MIN_SAMPLES, Sprt, SprtSpec  # noqa: E402

M0, M1 = 0.0, 2.0
NORMAL_SD = 15.0
# Each bot's points in one deal of the skewed distribution: mostly a few, now and then many.
BASE_POINTS = (0, 1, 2, 3, 5, 10, 20)
BASE_WEIGHTS = (0.30, 0.25, 0.15, 0.12, 0.10, 0.05, 0.03)
SWING_WIN, SWING_LOSS = 20, 5
DIFFERENT_SHARE, DIFFERENT_SD = 0.4, 13.0
# --shapes: the games (and player counts) whose margins the distributions above follow.
SHAPE_GAMES = (("beim-jupiter", 4), ("sticheln", 4), ("squint", 5), ("klaberjass", 2))
SLIP_SHARE = 0.1

Draw = Callable[[random.Random], float]


def normal_margins(true_margin: float) -> Draw:
    return lambda rng: round(rng.gauss(true_margin, NORMAL_SD))


def skewed_margins(true_margin: float) -> Draw:
    # E[swing] = q * SWING_WIN - (1 - q) * SWING_LOSS = true_margin; the points of both bots cancel.
    q = (true_margin + SWING_LOSS) / (SWING_WIN + SWING_LOSS)
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"the skewed margins cannot have mean {true_margin}")

    def draw(rng: random.Random) -> float:
        a, b = rng.choices(BASE_POINTS, BASE_WEIGHTS, k=2)
        swing = SWING_WIN if rng.random() < q else -SWING_LOSS
        return a - b + swing

    return draw


def left_skewed_margins(true_margin: float) -> Draw:
    """The skewed margins the other way round: A usually a little better, now and then far worse."""
    mirrored = skewed_margins(-true_margin)
    return lambda rng: -mirrored(rng)


def zero_inflated_margins(true_margin: float) -> Draw:
    # Rounding a normal to whole points keeps its mean (to far below 0.001 at this spread).
    different_mean = true_margin / DIFFERENT_SHARE
    return lambda rng: round(rng.gauss(different_mean, DIFFERENT_SD)) if rng.random() < DIFFERENT_SHARE else 0


DISTRIBUTIONS: dict[str, Callable[[float], Draw]] = {
    "normal": normal_margins, "skewed": skewed_margins, "left-skewed": left_skewed_margins,
    "zero-inflated": zero_inflated_margins}


class SequentialTest(Protocol):
    @property
    def decision(self) -> str | None: ...

    @property
    def samples(self) -> int: ...

    def add(self, sample: float) -> None: ...


class NormalApproximationSprt:
    """The same test with the normal approximation of the LLR (fishtest's ``LLR_alt2``): only the
    mean and the sample variance of the margins, floored at 1e-6 (m1 - m0)^2 for identical ones."""

    def __init__(self, spec: SprtSpec) -> None:
        self.spec = spec
        self.samples = 0
        self.decision: str | None = None
        self._mean = 0.0
        self._squared_deviations = 0.0

    def add(self, sample: float) -> None:
        self.samples += 1
        delta = sample - self._mean
        self._mean += delta / self.samples
        self._squared_deviations += delta * (sample - self._mean)
        if self.decision is not None or self.samples < max(2, self.spec.min_samples):
            return
        m0, m1 = self.spec.m0, self.spec.m1
        variance = max(self._squared_deviations / (self.samples - 1), 1e-6 * (m1 - m0) ** 2)
        llr = self.samples * (m1 - m0) * (2.0 * self._mean - m0 - m1) / (2.0 * variance)
        if llr >= self.spec.upper:
            self.decision = "H1"
        elif llr <= self.spec.lower:
            self.decision = "H0"


STATISTICS: dict[str, Callable[[SprtSpec], SequentialTest]] = {"exact": Sprt, "normal": NormalApproximationSprt}


def simulate(new_test: Callable[[], SequentialTest], draw: Draw, runs: int, rng: random.Random,
             max_samples: int) -> list[tuple[str, int]]:
    """Per run, its decision ("H0", "H1" or "none") and the samples it took."""
    outcomes = []
    for _ in range(runs):
        test = new_test()
        while test.decision is None and test.samples < max_samples:
            test.add(draw(rng))
        outcomes.append((test.decision or "none", test.samples))
    return outcomes


def paired_margins(game: str, players: int, deals: int) -> list[float]:
    """Per deal and seat: the heuristic's score in that seat minus the score of the heuristic that
    slips (plays a random option one time in ten) in the same seat of the same deal."""
    # Only this mode plays games: the compiled engine is not needed for the simulations.
    import trickcore
    import trickcore.games

    heuristic = trickcore.games.policy_of(game)
    assert heuristic is not None, f"{game} has no policy"

    def slipping(observation: dict[str, object], legal: list[str], rng: random.Random) -> str:
        return rng.choice(legal) if rng.random() < SLIP_SHARE else heuristic(observation, legal, rng)

    def score(deal: int, seat: int, candidate: Callable[[dict[str, object], list[str], random.Random], str]) -> float:
        state = trickcore.new_game(game, players, seed=deal)
        decision = 0
        while not state.is_terminal():
            player = state.current_player()
            policy = candidate if player == seat else heuristic
            rng = random.Random(f"{deal}:{player}:{decision}")
            state.apply_action(policy(state.observation(player), state.legal_action_strings(), rng))
            decision += 1
        return float(state.scores()[seat])

    return [score(deal, seat, heuristic) - score(deal, seat, slipping)
            for deal in range(deals) for seat in range(players)]


def print_shapes(deals: int) -> None:
    print(f"Margins of the heuristic over itself slipping one time in ten; every seat of deals 0 to {deals - 1}\n")
    print("| game | players | pairs | mean | standard deviation | skewness | zeros |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for game, players in SHAPE_GAMES:
        margins = paired_margins(game, players, deals)
        mean, sd = statistics.fmean(margins), statistics.pstdev(margins)
        skewness = statistics.fmean([(x - mean) ** 3 for x in margins]) / sd**3
        zeros = sum(1 for x in margins if x == 0) / len(margins)
        print(f"| {game} | {players} | {len(margins)} | {mean:.2f} | {sd:.2f} | {skewness:+.2f} | {zeros:.2f} |",
              flush=True)


def percentile(values: list[int], share: float) -> int:
    """The smallest value with at least ``share`` of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--runs", type=int, default=2000, help="runs per distribution and true margin")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--min-samples", type=int, default=DEFAULT_MIN_SAMPLES)
    parser.add_argument("--max-samples", type=int, default=20000, help="a run that has not decided by then stops")
    parser.add_argument("--statistic", choices=sorted(STATISTICS), default="exact",
                        help="the LLR of tournament/sprt.py (exact) or its normal approximation")
    parser.add_argument("--distributions", nargs="+", choices=sorted(DISTRIBUTIONS), default=list(DISTRIBUTIONS))
    parser.add_argument("--shapes", type=int, metavar="DEALS",
                        help="measure the margins of bundled policies instead of simulating")
    args = parser.parse_args(argv)
    if args.shapes is not None:
        print_shapes(args.shapes)
        return 0
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    spec = SprtSpec(M0, M1, alpha=args.alpha, beta=args.beta, min_samples=args.min_samples)
    new_test = STATISTICS[args.statistic]
    step = M1 - M0
    margins = (M0 - step, M0, (M0 + M1) / 2, M1, M1 + step)

    print(f"SPRT ({args.statistic} LLR) m0 = {M0:g}, m1 = {M1:g}, alpha = {spec.alpha:g}, beta = {spec.beta:g}, "
          f"min_samples = {spec.min_samples}, bounds [{spec.lower:.3f}, {spec.upper:.3f}]; "
          f"{args.runs} runs per row, seed {args.seed}\n")
    print("| distribution | true margin | H0 | H1 | undecided | mean samples | p90 samples |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    failures = []
    started = time.perf_counter()
    for name in args.distributions:
        for margin in margins:
            rng = random.Random(f"{args.seed}:{name}:{margin}")
            outcomes = simulate(lambda: new_test(spec), DISTRIBUTIONS[name](margin), args.runs, rng,
                                args.max_samples)
            share = {d: sum(1 for decision, _ in outcomes if decision == d) / args.runs for d in ("H0", "H1", "none")}
            lengths = [n for _, n in outcomes]
            print(f"| {name} | {margin:+g} | {share['H0']:.3f} | {share['H1']:.3f} | {share['none']:.3f} "
                  f"| {sum(lengths) / len(lengths):.0f} | {percentile(lengths, 0.9)} |", flush=True)
            for wrong, nominal, at in (("H1", spec.alpha, M0), ("H0", spec.beta, M1)):
                if margin == at:
                    allowed = nominal + 3 * math.sqrt(nominal * (1 - nominal) / args.runs)
                    if share[wrong] > allowed:
                        failures.append(f"{name} at true margin {margin:g}: {wrong} in {share[wrong]:.3f} "
                                        f"of the runs, more than {nominal:g} + 3 standard errors = {allowed:.3f}")
    print(f"\n{time.perf_counter() - started:.0f} s")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
