"""The SPRT of tournament/sprt.py (docs/sprt.md): its specification, its LLR against closed forms
and the constraints of the likeliest distributions, its decisions, its invariances, and error rates
over a small simulation (the large one is bench/sprt_simulation.py)."""

from __future__ import annotations

import json
import math
import random
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.sprt import (
    DEFAULT_MIN_SAMPLES,
    PSEUDO_WEIGHT,
    Sprt,
    SprtSpec,
    SprtSpecError,
    SprtStatus,
    _tilt,
    sprt_status,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as a package
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]

margins = st.lists(st.integers(-40, 40).map(float) | st.floats(-50, 50, allow_nan=False), min_size=1, max_size=60)


# ---- the specification -------------------------------------------------------------------

@pytest.mark.parametrize("alpha, beta", [(0.05, 0.05), (0.05, 0.1), (0.01, 0.2), (0.3, 0.001)])
def test_bounds_are_walds(alpha, beta):
    spec = SprtSpec(0, 2, alpha=alpha, beta=beta)
    assert spec.lower == pytest.approx(math.log(beta / (1 - alpha)), rel=1e-12)
    assert spec.upper == pytest.approx(math.log((1 - beta) / alpha), rel=1e-12)
    assert spec.lower < 0 < spec.upper


def test_equal_error_rates_give_symmetric_bounds():
    spec = SprtSpec(-1, 1)
    assert spec.lower == pytest.approx(-spec.upper) == pytest.approx(-math.log(19))


@pytest.mark.parametrize("kwargs, message", [
    ({"m0": 2, "m1": 2}, "m1: must be greater than m0"),
    ({"m0": 3, "m1": 1}, "got m0 = 3 and m1 = 1"),
    ({"m0": 0, "m1": math.inf}, "m1: must be a finite number"),
    ({"m0": math.nan, "m1": 1}, "m0: must be a finite number"),
    ({"m0": 0, "m1": 2, "alpha": 0}, "alpha: must be between 0 and 1 (exclusive), got 0"),
    ({"m0": 0, "m1": 2, "alpha": 1.0}, "alpha: must be between 0 and 1"),
    ({"m0": 0, "m1": 2, "beta": -0.1}, "beta: must be between 0 and 1"),
    ({"m0": 0, "m1": 2, "alpha": 0.6, "beta": 0.5}, "alpha + beta: must be less than 1, got 0.6 + 0.5"),
    ({"m0": 0, "m1": 2, "min_samples": 0}, "min_samples: must be >= 1, got 0"),
])
def test_invalid_specs_are_refused_with_the_key_and_the_value(kwargs, message):
    with pytest.raises(SprtSpecError) as raised:
        SprtSpec(**kwargs)
    assert message in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_every_problem_of_a_table_is_reported_at_once():
    with pytest.raises(SprtSpecError) as raised:
        SprtSpec.from_toml({"m0": "0", "alpha": 1.5, "beta": True, "elo0": 0, "min_samples": 2.5})
    assert raised.value.problems == [
        "elo0: unknown key; allowed here: m0, m1, alpha, beta, min_samples",
        "m0: must be a number, got a string '0'",
        "m1: missing (a number, in the units of the margins A - B)",
        "beta: must be a number, got a boolean True",
        "min_samples: must be an integer, got a float 2.5",
        "alpha: must be between 0 and 1 (exclusive), got 1.5",
    ]


def test_the_config_table_reads_and_writes_back():
    table = tomllib.loads("[stop]\nsprt = { m0 = 0, m1 = 2, alpha = 0.05, beta = 0.1 }\n")["stop"]["sprt"]
    spec = SprtSpec.from_toml(table)
    assert spec == SprtSpec(0.0, 2.0, alpha=0.05, beta=0.1, min_samples=DEFAULT_MIN_SAMPLES)
    assert spec.to_dict() == {"m0": 0.0, "m1": 2.0, "alpha": 0.05, "beta": 0.1, "min_samples": DEFAULT_MIN_SAMPLES}
    assert SprtSpec.from_toml(json.loads(json.dumps(spec.to_dict()))) == spec


@given(m0=st.floats(-100, 100), gap=st.floats(0.01, 50), alpha=st.floats(0.001, 0.45),
       beta=st.floats(0.001, 0.45), min_samples=st.integers(1, 500))
def test_every_valid_spec_survives_its_dict(m0, gap, alpha, beta, min_samples):
    spec = SprtSpec(m0, m0 + gap, alpha=alpha, beta=beta, min_samples=min_samples)
    assert SprtSpec.from_toml(spec.to_dict()) == spec


# ---- the LLR -----------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(samples=margins, m0=st.floats(-5, 5), gap=st.floats(0.1, 10))
def test_the_likeliest_distributions_have_the_hypothesised_means(samples, m0, gap):
    """The LLR is the sum over the samples of log(p1 / p0), p0 and p1 the empirical distribution
    (with its two pseudo-observations) tilted to mean m0 and m1: each must be a distribution with
    that mean, and the LLR that sum."""
    spec = SprtSpec(m0, m0 + gap)
    test = Sprt(spec, samples)
    values, weights = test._values, test._weights
    total = sum(weights)
    tilted = []
    for mean in (spec.m0, spec.m1):
        theta, _ = _tilt(values, weights, min(values), max(values), mean, 0.0)
        p = [w / (total * (1 + theta * (v - mean))) for v, w in zip(values, weights)]
        assert min(p) > 0
        assert sum(p) == pytest.approx(1.0, abs=1e-9)
        assert sum(pi * v for pi, v in zip(p, values)) == pytest.approx(mean, abs=1e-7 * (1 + abs(mean)))
        tilted.append(p)
    p0, p1 = tilted
    expected = sum(w * math.log(b / a) for w, a, b in zip(weights, p0, p1))
    assert test.status().llr == pytest.approx(expected, rel=1e-7, abs=1e-7)


def test_symmetric_margins_agree_with_the_normal_approximation():
    """Where the margins are symmetric and m1 - m0 small against their spread, the exact LLR and
    fishtest's normal approximation n (m1 - m0) (2 mean - m0 - m1) / (2 variance) (LLR_alt2, with
    the variance of the empirical distribution) agree: they differ from the fourth order on."""
    samples = [v + 0.7 for v in range(-20, 21)] * 10
    n, mean = len(samples), statistics.fmean(samples)
    variance = statistics.pvariance(samples)
    for m0, m1 in ((0.0, 2.0), (-1.0, 0.5), (0.5, 1.5)):
        approximation = n * (m1 - m0) * (2 * mean - m0 - m1) / (2 * variance)
        assert sprt_status(SprtSpec(m0, m1), samples).llr == pytest.approx(approximation, rel=0.02), (m0, m1)


@pytest.mark.parametrize("centre, sign", [(5.0, 1), (2.5, 1), (-3.0, -1), (0.4, -1), (1.6, 1)])
def test_the_llr_favours_the_hypothesis_nearer_to_the_mean(centre, sign):
    samples = [centre + d for d in (-9, -4, -1, 0, 1, 4, 9)] * 5
    assert sign * sprt_status(SprtSpec(0, 2), samples).llr > 0


def test_identical_samples_give_finite_steps_toward_the_nearer_hypothesis():
    """No variance to divide by: the pseudo-observations make the step ln 2 per sample when the
    samples equal a hypothesis (the likeliest distribution with the other mean puts half its weight
    on a pseudo-observation), and 0 halfway.  Their own weight adds a few thousandths in all."""
    spec = SprtSpec(0, 2)
    for value, step in ((0.0, -math.log(2)), (2.0, math.log(2)), (1.0, 0.0)):
        path = sprt_status(spec, [value] * 40, path=True).llr_path
        assert path is not None
        for n, llr in enumerate(path, 1):
            assert llr == pytest.approx(n * step, abs=20 * PSEUDO_WEIGHT), (value, n)
        assert sprt_status(spec, [value] * 60).decision == {-1: "H0", 0: None, 1: "H1"}[round(step / math.log(2))]


@settings(max_examples=60, deadline=None)
@given(samples=margins, scale=st.floats(0.01, 100), shift=st.floats(-100, 100))
def test_the_llr_does_not_depend_on_the_unit_or_the_origin_of_the_scores(samples, scale, shift):
    spec = SprtSpec(0, 2, min_samples=1)
    moved = SprtSpec(shift, shift + 2 * scale, min_samples=1)
    original = sprt_status(spec, samples, path=True)
    transformed = sprt_status(moved, [shift + scale * x for x in samples], path=True)
    assert original.llr_path is not None and transformed.llr_path is not None
    assert transformed.llr_path == pytest.approx(original.llr_path, rel=1e-6, abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(samples=margins)
def test_mirrored_margins_mirror_the_llr(samples):
    """B - A against -m1 and -m0 is the same question the other way round: the LLR changes sign.
    So skewed margins are handled alike whichever way they lean."""
    forward = sprt_status(SprtSpec(0, 2), samples)
    mirrored = sprt_status(SprtSpec(-2, 0), [-x for x in samples])
    assert mirrored.llr == pytest.approx(-forward.llr, rel=1e-6, abs=1e-6)


# ---- decisions and status ---------------------------------------------------------------

def test_decisions_wait_for_min_samples_and_then_hold():
    spec = SprtSpec(0, 2, min_samples=20)
    high = Sprt(spec, [10.0] * 19)
    assert high.status().llr > spec.upper and high.decision is None
    high.add(10.0)
    assert (high.decision, high.status().decided_at) == ("H1", 20)
    for _ in range(100):  # the pairs that were still running come in against A
        high.add(-10.0)
    status = high.status()
    assert status.llr < spec.lower
    assert (status.decision, status.decided_at, status.samples) == ("H1", 20, 120)

    low = sprt_status(spec, [-10.0] * 25)
    assert (low.decision, low.decided_at) == ("H0", 20)
    halfway = sprt_status(spec, [1.0] * 500)
    assert (halfway.decision, halfway.decided_at) == (None, None)


def test_a_crossing_before_min_samples_that_comes_back_is_no_decision():
    spec = SprtSpec(0, 2, min_samples=30)
    samples = [10.0] * 5 + [-6.0, 6.0] * 13  # far above m1 at first, then around m0
    path = sprt_status(spec, samples, path=True).llr_path
    assert path is not None and path[4] > spec.upper
    assert all(spec.lower < llr < spec.upper for llr in path[spec.min_samples - 1:])
    assert sprt_status(spec, samples).decision is None


def test_the_decision_is_where_the_path_first_leaves_the_bounds():
    rng = random.Random(11)
    spec = SprtSpec(0, 1, min_samples=10)
    for true_margin in (0.0, 1.0, 0.5):
        samples = [round(rng.gauss(true_margin, 3)) for _ in range(600)]
        status = sprt_status(spec, samples, path=True)
        assert status.llr_path is not None
        crossings = [n for n, llr in enumerate(status.llr_path, 1)
                     if n >= spec.min_samples and not spec.lower < llr < spec.upper]
        assert crossings, f"seed 11, true margin {true_margin}: undecided after 600 samples"
        assert status.decided_at == crossings[0]
        assert status.decision == ("H1" if status.llr_path[crossings[0] - 1] >= spec.upper else "H0")


@settings(max_examples=40, deadline=None)
@given(samples=margins)
def test_the_status_is_a_function_of_the_sample_list(samples):
    """What a resumed run relies on: rebuilt from the recorded margins, the test is the one that
    was fed them one by one."""
    spec = SprtSpec(0, 2, min_samples=5)
    fed = Sprt(spec)
    for x in samples:
        fed.add(x)
    assert fed.status(path=True) == Sprt(spec, samples).status(path=True) == sprt_status(spec, list(samples), True)


def test_mean_and_stderr_are_those_of_the_samples():
    samples = [3.0, -7.0, 12.0, 0.0, 5.5, 1e6 + 1, 1e6 - 1]
    status = sprt_status(SprtSpec(0, 2), samples)
    assert status.mean == pytest.approx(statistics.fmean(samples), rel=1e-12)
    assert status.stderr == pytest.approx(statistics.stdev(samples) / math.sqrt(len(samples)), rel=1e-9)
    one = sprt_status(SprtSpec(0, 2), [4.0])
    none = sprt_status(SprtSpec(0, 2), [])
    assert (one.mean, one.stderr, none.mean, none.stderr, none.llr, none.samples) == (4.0, None, None, None, 0.0, 0)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, True, "3", None])
def test_a_margin_that_is_not_a_finite_number_is_refused(bad):
    test = Sprt(SprtSpec(0, 2))
    with pytest.raises(ValueError, match="a margin must be a finite number"):
        test.add(bad)
    assert test.samples == 0


@pytest.mark.parametrize("path", [False, True])
def test_the_status_survives_json(path):
    status = sprt_status(SprtSpec(0, 2, min_samples=5), [10.0, -3.0, 4.5, 8.0, 7.0, 9.0, 12.0, 6.0, 11.0],
                          path=path)
    assert status.decision == "H1"
    data = json.loads(json.dumps(status.to_dict()))
    assert ("llr_path" in data) is path
    assert SprtStatus.from_dict(data) == status
    undecided = sprt_status(SprtSpec(0, 2), [1.0])
    assert SprtStatus.from_dict(json.loads(json.dumps(undecided.to_dict()))) == undecided
    with pytest.raises(ValueError, match="decision: must be H0, H1 or null"):
        SprtStatus.from_dict({**data, "decision": "accepted"})


# ---- error rates -------------------------------------------------------------------------

RUNS = 400


def skewed(true_margin: float) -> Callable[[random.Random], float]:
    """Integer margins: both bots score 0, 1, 2 or 4 points (the same distribution), and A adds
    +9 with probability q, else -2, with q giving the true margin: standard deviation 4.6 at 0 and
    5.2 at 1, skewness +1.3 and +0.8."""
    q = (true_margin + 2) / 11

    def draw(rng: random.Random) -> float:
        a, b = rng.choices((0, 1, 2, 4), (0.4, 0.3, 0.2, 0.1), k=2)
        return a - b + (9 if rng.random() < q else -2)

    return draw


def mirrored(true_margin: float) -> Callable[[random.Random], float]:
    """The same margins leaning the other way: A usually a little better, now and then far worse."""
    draw = skewed(-true_margin)
    return lambda rng: -draw(rng)


def decisions(draw: Callable[[random.Random], float], seed: str) -> dict[str | None, float]:
    """The share of RUNS tests of m0 = 0 against m1 = 1 that decide H0, H1 or nothing (None)."""
    spec = SprtSpec(0, 1)
    rng = random.Random(seed)
    counts: dict[str | None, int] = {"H0": 0, "H1": 0, None: 0}
    for _ in range(RUNS):
        test = Sprt(spec)
        while test.decision is None and test.samples < 5000:
            test.add(draw(rng))
        counts[test.decision] += 1
    return {decision: count / RUNS for decision, count in counts.items()}


def noise(rate: float) -> float:
    return 3 * math.sqrt(rate * (1 - rate) / RUNS)


@pytest.mark.parametrize("family", [skewed, mirrored], ids=lambda f: f.__name__)
def test_error_rates_stay_within_alpha_and_beta(family):
    """m0 = 0, m1 = 1 on skewed margins (a decision takes 100 to 150 samples on average): at m0
    the test decides H1 in at most alpha of the runs and at m1 H0 in at most beta, up to three
    binomial standard errors of 400 runs; and it does decide, mostly rightly.  Margins leaning
    either way: the normal approximation of the LLR errs too often on one side here (9.0% of
    skewed runs decide H0 at m1, 8.5% of mirrored ones H1 at m0)."""
    at_m0 = decisions(family(0.0), f"{family.__name__}:0")
    at_m1 = decisions(family(1.0), f"{family.__name__}:1")
    assert at_m0["H1"] <= 0.05 + noise(0.05), f"{family.__name__}, seed '{family.__name__}:0': {at_m0}"
    assert at_m1["H0"] <= 0.05 + noise(0.05), f"{family.__name__}, seed '{family.__name__}:1': {at_m1}"
    assert at_m0["H0"] >= 0.85 and at_m1["H1"] >= 0.85, (at_m0, at_m1)


def test_a_clearly_better_bot_is_found_better():
    far = decisions(skewed(3.0), "skewed:3")
    assert far["H1"] >= 0.99, far


# ---- the simulation script ---------------------------------------------------------------

def test_the_simulation_script_prints_its_table():
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "sprt_simulation.py"), "--runs", "4",
                           "--distributions", "skewed", "--seed", "3"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| skewed |")]
    assert [row.split("|")[2].strip() for row in rows] == ["-2", "+0", "+1", "+2", "+4"]
    for row in rows:
        h0, h1, undecided = (float(cell) for cell in row.split("|")[3:6])
        assert h0 + h1 + undecided == pytest.approx(1.0)
