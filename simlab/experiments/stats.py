"""The statistics of the reports: intervals for a win rate, claim tests, comparisons.

Unknown results (a solver out of budget) follow Blake and Gent's protocol: the
reported range runs from the Wilson lower bound with every unknown counted as
a loss to the Wilson upper bound with every unknown counted as a win.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence

from scipy import stats

LEVEL = 0.95


def z_value(level: float = LEVEL) -> float:
    """The two-sided normal quantile for ``level`` (1.95996... for 95%)."""
    return float(stats.norm.ppf(0.5 + level / 2))


def wilson_interval(successes: int, trials: int, level: float = LEVEL) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials`` (NaN, NaN if no trials)."""
    if trials <= 0:
        return math.nan, math.nan
    z = z_value(level)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At p = 0 or 1 the bound is exact; rounding would leave it a hair off.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


class Range(NamedTuple):
    """Blake and Gent's range: unknowns as losses (low) to unknowns as wins (high)."""

    low: float
    high: float
    centre: float
    half_width: float


def mean_interval(values: Sequence[float], level: float = LEVEL) -> tuple[float, float]:
    """The Student-t interval of the mean of ``values`` (NaN, NaN for fewer than two;
    the mean twice when they are all equal)."""
    values = [float(v) for v in values]
    if len(values) < 2:
        return math.nan, math.nan
    mean = sum(values) / len(values)
    error = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values))
    half = float(stats.t.ppf(0.5 + level / 2, len(values) - 1)) * error
    return mean - half, mean + half


def unknown_range(won: int, unknown: int, trials: int, level: float = LEVEL) -> Range:
    """The win-rate range when ``unknown`` of ``trials`` deals have no verdict."""
    low, _ = wilson_interval(won, trials, level)
    _, high = wilson_interval(won + unknown, trials, level)
    return Range(low, high, (low + high) / 2, (high - low) / 2)


class ClaimTest(NamedTuple):
    """An exact binomial test of a claimed win rate.

    Attributes:
        p_value: the largest two-sided p-value over every way the unknowns
            could resolve (so unknowns never make a claim look false).
        p_unknown_lost: the p-value with every unknown counted as a loss.
        p_unknown_won: the p-value with every unknown counted as a win.
        consistent: ``p_value >= 1 - level``.
    """

    p_value: float
    p_unknown_lost: float
    p_unknown_won: float
    consistent: bool


def binomial_p_value(successes: int, trials: int, low: float, high: float | None = None) -> float:
    """Two-sided exact binomial p-value against a rate in ``[low, high]``.

    For an interval (a loose claim such as "roughly half") the null is the
    whole interval, so the p-value is that of the nearest rate in it.
    """
    high = low if high is None else high
    observed = successes / trials
    nearest = min(max(observed, low), high)
    if low < high and low < observed < high:
        return 1.0
    return float(stats.binomtest(successes, trials, nearest).pvalue)


def claim_test(won: int, unknown: int, trials: int, claimed: float, tolerance: float = 0.0,
               level: float = LEVEL) -> ClaimTest:
    """Test ``claimed`` (± ``tolerance``) against ``won`` (+ up to ``unknown``) of ``trials``."""
    low, high = max(0.0, claimed - tolerance), min(1.0, claimed + tolerance)
    # The p-value is unimodal in the number of wins, so the most favourable
    # resolution of the unknowns is the count nearest the claim.
    target = min(max(round(trials * claimed), won), won + unknown)
    candidates = {won, won + unknown} | {k for k in range(target - 2, target + 3) if won <= k <= won + unknown}
    p_value = max(binomial_p_value(k, trials, low, high) for k in candidates)
    return ClaimTest(
        p_value=p_value,
        p_unknown_lost=binomial_p_value(won, trials, low, high),
        p_unknown_won=binomial_p_value(won + unknown, trials, low, high),
        consistent=p_value >= 1 - level,
    )


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """McNemar's exact test: two-sided p-value from the discordant pairs.

    Args:
        only_a: deals that A won and B did not.
        only_b: deals that B won and A did not.
    """
    discordant = only_a + only_b
    if discordant == 0:
        return 1.0
    return float(stats.binomtest(only_a, discordant, 0.5).pvalue)


def paired_difference_interval(both: int, only_a: int, only_b: int, neither: int,
                               level: float = LEVEL) -> tuple[float, float, float]:
    """Rate of A minus rate of B on the same deals, with Newcombe's score interval
    for paired data (Newcombe 1998, method 10).

    The correlation ``phi`` takes Newcombe's continuity correction when it is
    positive: without it, deals on which both policies agree every time would
    give an interval of zero width.

    Returns:
        (difference, low, high).
    """
    n = both + only_a + only_b + neither
    p_a, p_b = (both + only_a) / n, (both + only_b) / n
    low_a, high_a = wilson_interval(both + only_a, n, level)
    low_b, high_b = wilson_interval(both + only_b, n, level)
    product = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    agreement = both * neither - only_a * only_b
    if agreement > 0:
        agreement = max(agreement - n / 2, 0.0)
    phi = agreement / math.sqrt(product) if product > 0 else 0.0
    down = math.sqrt(max(0.0, (p_a - low_a) ** 2 - 2 * phi * (p_a - low_a) * (high_b - p_b)
                         + (high_b - p_b) ** 2))
    up = math.sqrt(max(0.0, (high_a - p_a) ** 2 - 2 * phi * (high_a - p_a) * (p_b - low_b)
                       + (p_b - low_b) ** 2))
    difference = p_a - p_b
    return difference, max(-1.0, difference - down), min(1.0, difference + up)


def independent_difference_interval(won_a: int, n_a: int, won_b: int, n_b: int,
                                     level: float = LEVEL) -> tuple[float, float, float]:
    """Rate of A minus rate of B from independent samples, with Newcombe's hybrid
    score interval (Newcombe 1998, method 10).

    Returns:
        (difference, low, high).
    """
    p_a, p_b = won_a / n_a, won_b / n_b
    low_a, high_a = wilson_interval(won_a, n_a, level)
    low_b, high_b = wilson_interval(won_b, n_b, level)
    difference = p_a - p_b
    down = math.sqrt((p_a - low_a) ** 2 + (high_b - p_b) ** 2)
    up = math.sqrt((high_a - p_a) ** 2 + (p_b - low_b) ** 2)
    return difference, difference - down, difference + up


def fisher_exact(won_a: int, n_a: int, won_b: int, n_b: int) -> tuple[float, float]:
    """Fisher's exact test of two win rates: (sample odds ratio, two-sided p-value)."""
    table = [[won_a, n_a - won_a], [won_b, n_b - won_b]]
    odds_ratio, p_value = stats.fisher_exact(table)
    return float(odds_ratio), float(p_value)


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values (same order as given)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
