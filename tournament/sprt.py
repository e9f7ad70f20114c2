"""A sequential probability ratio test of "is bot A better than bot B?" on per-pair margins.

Each sample is one margin A - B (for example the score difference of one deal pair, in the
game's points per game); the test weighs H0 "the mean margin is m0" against H1 "it is m1" (m0 <
m1, in the units of the samples) and stops as soon as the log-likelihood ratio (LLR) crosses one
of Wald's bounds, deciding H1 at m0 in about alpha of the runs and H0 at m1 in about beta of them
(docs/sprt.md).

The distribution of the margins is not assumed, neither its variance nor its shape: the LLR is
the generalised one of fishtest and fastchess, the log of the ratio between the likeliest
distribution on the values seen with mean m1 and the likeliest one with mean m0, each found by
tilting the empirical distribution (Michel Van den Bergh, "Comparing the approximations for the
generalized log likelihood ratio of a multinomial distribution", Proposition 1.1).  fishtest
stops its tests on it (``MLE_expected`` and ``LLR`` in ``server/fishtest/stats/LLRcalc.py``, the
statistic "expectation" that ``LLR_logistic`` uses) over the five outcomes of a game pair, and so
does fastchess (``getLLR_logistic`` in ``app/src/matchmaking/sprt/sprt.cpp``); here the outcomes are
the distinct margins seen.  Not the normal approximation of the same LLR,
``n (m1 - m0) (2 mean - m0 - m1) / (2 variance)`` (fishtest's ``LLR_alt2``, which it uses for
its Elo estimates): with skewed margins, which card games give, that approximation misses its
error rates (bench/sprt_simulation.py --statistic normal; numbers in docs/sprt.md).  Bounds and
decision as both: lower ``ln(beta / (1 - alpha))``, upper ``ln((1 - beta) / alpha)``, H1 at or
above the upper, H0 at or below the lower.

The decision is a function of the sample list alone (its values and their order): the runner
passes the margins in a deterministic order, so a resumed run that rebuilds the test from the
recorded margins reaches the same decision at the same sample.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from tournament.validate import Checker, join

Decision = Literal["H0", "H1"]
DECISIONS: tuple[Decision, ...] = ("H0", "H1")

# No decision before this many samples.  The LLR's guarantees hold as samples accumulate; a few
# dozen margins can still miss the rare large ones (a skewed or mostly-zero distribution of
# margins), and a decision taken then errs more often than alpha or beta.  With 50, the simulated
# error rates stay within them for the distributions of bench/sprt_simulation.py; with 30 they do
# not for margins that are zero in most pairs (docs/sprt.md).
DEFAULT_MIN_SAMPLES = 50

# The weight of each of two pseudo-observations, at m0 - (m1 - m0) and at m1 + (m1 - m0), that the
# empirical distribution always holds (fishtest's LLRcalc.regularize gives this weight to each
# outcome never seen).  They keep both hypotheses strictly inside the range of the values, so the
# likeliest distribution with mean m0 or m1 always exists and the LLR is finite.  After identical
# samples the LLR moves a fixed step per sample toward the hypothesis nearer to them (ln 2 when
# they equal m0 or m1) and stays 0 when they lie halfway.  Placed relative to the hypotheses, they
# keep the test independent of the unit of the scores; next to real samples their weight is
# negligible.
PSEUDO_WEIGHT = 1e-3

# Far more than the root search takes: three or four steps from the previous root, up to about 20
# when a new extreme margin has moved the bracket (measured on the simulated runs).
MAX_NEWTON_STEPS = 200

SPEC_KEYS = ("m0", "m1", "alpha", "beta", "min_samples")


class SprtSpecError(ValueError):
    """An invalid SPRT specification; ``problems`` holds one ``"key: message"`` line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _range_problems(values: Mapping[str, float | int]) -> list[str]:
    """What is wrong with the values given (each already of the right type); keys that are
    absent are not checked."""
    problems = []
    for key in ("m0", "m1"):
        if key in values and not math.isfinite(values[key]):
            problems.append(f"{key}: must be a finite number, got {values[key]}")
    if "m0" in values and "m1" in values and math.isfinite(values["m0"]) and math.isfinite(values["m1"]):
        if not values["m1"] > values["m0"]:
            problems.append(f"m1: must be greater than m0 (H1 says A is better by more than H0 does), "
                            f"got m0 = {values['m0']:g} and m1 = {values['m1']:g}")
    for key in ("alpha", "beta"):
        if key in values and not 0.0 < values[key] < 1.0:
            problems.append(f"{key}: must be between 0 and 1 (exclusive), got {values[key]}")
    if "alpha" in values and "beta" in values and 0.0 < values["alpha"] < 1.0 and 0.0 < values["beta"] < 1.0:
        if not values["alpha"] + values["beta"] < 1.0:
            problems.append(f"alpha + beta: must be less than 1, got {values['alpha']:g} + {values['beta']:g}")
    if "min_samples" in values and values["min_samples"] < 1:
        problems.append(f"min_samples: must be >= 1, got {values['min_samples']}")
    return problems


@dataclasses.dataclass(frozen=True)
class SprtSpec:
    """H0: the mean margin A - B is m0; H1: it is m1 (m0 < m1, in the units of the samples).

    ``alpha`` is the accepted rate of deciding H1 when m0 is true, ``beta`` that of deciding H0
    when m1 is true; no decision is taken before ``min_samples`` samples."""

    m0: float
    m1: float
    alpha: float = 0.05
    beta: float = 0.05
    min_samples: int = DEFAULT_MIN_SAMPLES

    def __post_init__(self) -> None:
        problems = _range_problems(dataclasses.asdict(self))
        if problems:
            raise SprtSpecError(problems)

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: ln(beta / (1 - alpha))."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: ln((1 - beta) / alpha)."""
        return math.log((1.0 - self.beta) / self.alpha)

    @classmethod
    def from_toml(cls, table: Mapping[str, Any], prefix: str = "") -> SprtSpec:
        """The spec of a TOML table such as ``{ m0 = 0, m1 = 2, alpha = 0.05, beta = 0.05 }``:
        m0 and m1 are required, the others default.  Every problem of the table is reported in
        one :class:`SprtSpecError` (unknown keys by name, wrong types, values out of range), each
        under its key, after ``prefix`` (``stop.sprt``) when given: tournament/validate.py."""
        c = Checker()
        given = dict(table)
        c.unknown_keys(given, SPEC_KEYS, prefix)
        what = "a number, in the units of the margins A - B"
        read: dict[str, float | int | None] = {
            "m0": c.number(given, "m0", prefix, None, minimum=None, required=what),
            "m1": c.number(given, "m1", prefix, None, minimum=None, required=what),
            "alpha": c.number(given, "alpha", prefix, None, minimum=None),
            "beta": c.number(given, "beta", prefix, None, minimum=None),
            "min_samples": c.integer(given, "min_samples", prefix, None)}
        values = {key: value for key, value in read.items() if value is not None}
        problems = c.problems + [join(prefix, problem) for problem in _range_problems(values)]
        if problems:
            raise SprtSpecError(problems)
        return cls(m0=float(values["m0"]), m1=float(values["m1"]),
                   alpha=float(values.get("alpha", cls.alpha)), beta=float(values.get("beta", cls.beta)),
                   min_samples=int(values.get("min_samples", cls.min_samples)))

    def to_dict(self) -> dict[str, float | int]:
        """Every field, defaults included: ``SprtSpec.from_toml(spec.to_dict()) == spec``."""
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class SprtStatus:
    """Where a test stands after ``samples`` margins.

    ``llr`` is the log-likelihood ratio of H1 against H0 over all the samples; ``decision`` is the
    bound the LLR crossed first at or after ``min_samples`` samples, and ``decided_at`` the number
    of samples it had then.  Margins that arrive after the decision (games that were already
    running) still count in ``llr``, ``mean`` and ``stderr`` but never change the decision.
    ``mean`` is None without samples, ``stderr`` (of the mean) with fewer than two; ``llr_path``
    holds the LLR after each sample when it was asked for."""

    llr: float
    lower: float
    upper: float
    samples: int
    mean: float | None
    stderr: float | None
    decision: Decision | None
    decided_at: int | None
    llr_path: tuple[float, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for JSON (``llr_path`` as a list, left out when it was not asked for)."""
        out = dataclasses.asdict(self)
        if self.llr_path is None:
            del out["llr_path"]
        else:
            out["llr_path"] = list(self.llr_path)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SprtStatus:
        """The status :meth:`to_dict` wrote (as read back from JSON)."""
        decision = data["decision"]
        if decision is not None and decision not in DECISIONS:
            raise ValueError(f"decision: must be H0, H1 or null, got {decision!r}")
        path = data.get("llr_path")
        return cls(llr=float(data["llr"]), lower=float(data["lower"]), upper=float(data["upper"]),
                   samples=int(data["samples"]),
                   mean=None if data["mean"] is None else float(data["mean"]),
                   stderr=None if data["stderr"] is None else float(data["stderr"]),
                   decision=decision,
                   decided_at=None if data["decided_at"] is None else int(data["decided_at"]),
                   llr_path=None if path is None else tuple(float(x) for x in path))


class Sprt:
    """A test in progress: :meth:`add` one margin at a time, read :meth:`status` at any point.

    ``Sprt(spec, margins)`` equals, field for field, a test fed the same margins one by one.  An
    :meth:`add` costs O(k), k the number of distinct margins so far: two root searches over them
    (docs/sprt.md, "Cost"); :meth:`status` is O(1) (``status(path=True)`` copies the path)."""

    def __init__(self, spec: SprtSpec, samples: Iterable[float] = ()) -> None:
        self.spec = spec
        self._count = 0
        # Welford's running mean and sum of squared deviations, for the mean and its standard
        # error: accurate where the mean is large against the spread, unlike a sum of squares.
        self._mean = 0.0
        self._squared_deviations = 0.0
        # The empirical distribution: each distinct margin and its weight (its count), with the
        # two pseudo-observations first.
        step = spec.m1 - spec.m0
        self._values: list[float] = [spec.m0 - step, spec.m1 + step]
        self._weights: list[float] = [PSEUDO_WEIGHT, PSEUDO_WEIGHT]
        self._index: dict[float, int] = {spec.m0 - step: 0, spec.m1 + step: 1}
        self._smallest, self._largest = spec.m0 - step, spec.m1 + step
        self._tilts = [0.0, 0.0]  # the last root for m0 and for m1: where the next search starts
        self._llr = 0.0
        self._llr_path: list[float] = []
        self._decision: Decision | None = None
        self._decided_at: int | None = None
        for sample in samples:
            self.add(sample)

    @property
    def decision(self) -> Decision | None:
        return self._decision

    @property
    def samples(self) -> int:
        return self._count

    def add(self, sample: float) -> None:
        """Take the next margin (a finite number; the order matters for the decision)."""
        if isinstance(sample, bool) or not isinstance(sample, (int, float)) or not math.isfinite(sample):
            raise ValueError(f"a margin must be a finite number, got {sample!r}")
        sample = float(sample)
        self._count += 1
        delta = sample - self._mean
        self._mean += delta / self._count
        self._squared_deviations += delta * (sample - self._mean)
        where = self._index.get(sample)
        if where is None:
            self._index[sample] = len(self._values)
            self._values.append(sample)
            self._weights.append(1.0)
            self._smallest, self._largest = min(self._smallest, sample), max(self._largest, sample)
        else:
            self._weights[where] += 1.0
        self._llr = self._current_llr()
        self._llr_path.append(self._llr)
        if self._decision is None and self._count >= self.spec.min_samples:
            if self._llr >= self.spec.upper:
                self._decision, self._decided_at = "H1", self._count
            elif self._llr <= self.spec.lower:
                self._decision, self._decided_at = "H0", self._count

    def _current_llr(self) -> float:
        """log of (the likelihood of the samples under the likeliest distribution on their values
        with mean m1) / (the same with mean m0): the sum over the samples of log(p1 / p0)."""
        (theta0, cost0), (theta1, cost1) = (
            _tilt(self._values, self._weights, self._smallest, self._largest, mean, start)
            for mean, start in ((self.spec.m0, self._tilts[0]), (self.spec.m1, self._tilts[1])))
        self._tilts = [theta0, theta1]
        return cost0 - cost1

    def status(self, path: bool = False) -> SprtStatus:
        """Where the test stands; with ``path``, the LLR after each sample too (for a chart)."""
        n = self._count
        stderr = math.sqrt(self._squared_deviations / (n - 1) / n) if n >= 2 else None
        return SprtStatus(llr=self._llr, lower=self.spec.lower, upper=self.spec.upper, samples=n,
                          mean=self._mean if n else None, stderr=stderr, decision=self._decision,
                          decided_at=self._decided_at, llr_path=tuple(self._llr_path) if path else None)


def _tilt(values: list[float], weights: list[float], smallest: float, largest: float, mean: float,
          start: float) -> tuple[float, float]:
    """The likeliest distribution on ``values`` with mean ``mean``, given the empirical weights:
    p_i = w_i / (W (1 + theta (v_i - mean))), theta the root of sum w_i y_i / (1 + theta y_i) = 0
    with y_i = v_i - mean (Proposition 1.1 of Van den Bergh's note, fishtest's ``MLE_expected``).
    Returns theta and sum w_i log(1 + theta y_i) = sum w_i log(w_i / (W p_i)): how much less likely
    the samples are under that distribution than under their own empirical one, in log units.

    The root lies in (-1 / max y, -1 / min y), where every p_i is positive (``smallest`` and
    ``largest`` of the values lie on either side of ``mean``), and the sum falls strictly there:
    Newton's method from ``start`` (the previous root, which one more sample moves little: three or
    four steps), kept inside the bracket that the signs of the sum narrow.  Stops when a step
    moves theta by less than 1e-10 of the first bracket: the log-likelihood is flat at the root,
    so its error is of the order of that squared."""
    low = -1.0 / (largest - mean)
    high = -1.0 / (smallest - mean)
    tolerance = 1e-10 * (high - low)
    theta = start if low < start < high else 0.0
    for _ in range(MAX_NEWTON_STEPS):
        slope = 0.0
        curvature = 0.0
        for value, weight in zip(values, weights):
            y = value - mean
            q = y / (1.0 + theta * y)
            slope += weight * q
            curvature += weight * q * q
        if slope == 0.0:
            break
        if slope > 0.0:
            low = theta
        else:
            high = theta
        following = theta + slope / curvature
        if following >= high:  # a step out of the bracket goes halfway to its end instead
            following = (theta + high) / 2.0
        elif following <= low:
            following = (theta + low) / 2.0
        if abs(following - theta) <= tolerance:
            theta = following
            break
        theta = following
    return theta, math.fsum(weight * math.log1p(theta * (value - mean)) for value, weight in zip(values, weights))


def sprt_status(spec: SprtSpec, samples: Iterable[float], path: bool = False) -> SprtStatus:
    """The status of the test after ``samples`` (the margins in the order the pairs completed)."""
    return Sprt(spec, samples).status(path)
