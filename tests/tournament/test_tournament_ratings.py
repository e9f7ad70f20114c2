"""The 95% interval of the standings uses exact Student t quantiles (docs/tournament.md,
"Standings"): checked against published table values and, independently, against a
numerical integral of the t density."""

from __future__ import annotations

import math

import pytest

from tournament.ratings import t95, t_cdf

# Two-sided 95% critical values to four decimals, from any statistics table.
TABLE = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 9: 2.2622, 10: 2.2281, 19: 2.0930,
         21: 2.0796, 24: 2.0639, 26: 2.0555, 29: 2.0452, 35: 2.0301, 45: 2.0141, 99: 1.9842, 121: 1.9798,
         1000: 1.9623}


@pytest.mark.parametrize("df", sorted(TABLE))
def test_t95_matches_the_table(df):
    assert t95(df) == pytest.approx(TABLE[df], abs=6e-5)


def _density_mass(q: float, df: int, steps: int = 20000) -> float:
    """P(0 <= T <= q) by Simpson's rule over the t density (no incomplete beta involved)."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    f = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)  # noqa: E731
    h = q / steps
    total = f(0) + f(q) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, steps))
    return total * h / 3


@pytest.mark.parametrize("df", [3, 7, 21, 22, 23, 50, 61])
def test_t95_is_the_quantile_of_the_density(df):
    q = t95(df)
    assert _density_mass(q, df) == pytest.approx(0.475, abs=1e-9)
    assert t_cdf(q, df) == pytest.approx(0.975, abs=1e-12) and t_cdf(-q, df) == pytest.approx(0.025, abs=1e-12)


def test_intervals_never_narrower_than_the_exact_quantile_between_table_rows():
    # A table rounded to its next row (df 21 read as 25) gives intervals that are too narrow.
    for df in range(1, 200):
        assert t95(df) > t95(df + 1) > 1.959963
