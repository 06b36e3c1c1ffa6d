"""The statistics of the reports: intervals for a win rate, claim tests, comparisons.

One thin typed wrapper over statsmodels and scipy, so every figure comes from a
maintained, reviewed implementation of the standard method and matches R and other
tools: Wilson's interval, Newcombe's interval for a difference of independent
proportions, McNemar's exact test and Holm's adjustment from statsmodels; the exact
binomial and Fisher tests from scipy. What neither has is written here, each with
its reason: Newcombe's interval for a paired difference, the range of a claim's
p-value over the unknowns, Fisher's p-value over a whole grid of tables at once.

Unknown results (a solver out of budget) follow Blake and Gent's protocol: the
reported range runs from the Wilson lower bound with every unknown counted as
a loss to the Wilson upper bound with every unknown counted as a win.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence

import numpy as np
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

LEVEL = 0.95


def z_value(level: float = LEVEL) -> float:
    """The two-sided normal quantile for ``level`` (1.95996... for 95%)."""
    return float(stats.norm.ppf(0.5 + level / 2))


def wilson_interval(successes: int, trials: int, level: float = LEVEL) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials`` (NaN, NaN if no trials)."""
    if trials <= 0:
        return math.nan, math.nan
    low, high = proportion_confint(successes, trials, alpha=1 - level, method="wilson")
    # At 0 or all successes the bound is exact; rounding would leave it a hair off.
    return (0.0 if successes == 0 else float(low)), (1.0 if successes == trials else float(high))


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
    return float(mcnemar([[0, only_a], [only_b, 0]], exact=True).pvalue)


def paired_difference_interval(both: int, only_a: int, only_b: int, neither: int,
                               level: float = LEVEL) -> tuple[float, float, float]:
    """Rate of A minus rate of B on the same deals, with Newcombe's score interval
    for paired data (Newcombe 1998, Statistics in Medicine 17:2635, method 10).

    Written here: statsmodels has no paired difference interval. Its two Wilson
    intervals are statsmodels'. The correlation ``phi`` takes Newcombe's continuity
    correction when it is positive: without it, deals on which both policies agree
    every time would give an interval of zero width.

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
    score interval (Newcombe 1998, Statistics in Medicine 17:873, method 10).

    Returns:
        (difference, low, high).
    """
    low, high = confint_proportions_2indep(won_a, n_a, won_b, n_b, method="newcomb", compare="diff",
                                           alpha=1 - level)
    return won_a / n_a - won_b / n_b, float(low), float(high)


def fisher_exact(won_a: int, n_a: int, won_b: int, n_b: int) -> tuple[float, float]:
    """Fisher's exact test of two win rates: (sample odds ratio, two-sided p-value)."""
    table = [[won_a, n_a - won_a], [won_b, n_b - won_b]]
    odds_ratio, p_value = stats.fisher_exact(table)
    return float(odds_ratio), float(p_value)


# scipy's relative tolerance for "as likely as the observed table" (R's is 1e-7).
_FISHER_TIES = 1 + 1e-14


def fisher_exact_p_range(won_a: tuple[int, int], n_a: int, won_b: tuple[int, int], n_b: int
                         ) -> tuple[float, float]:
    """The least and the largest of Fisher's two-sided p-values (as ``fisher_exact``)
    over every table with A's wins in ``won_a`` (low, high) of ``n_a`` and B's in
    ``won_b`` of ``n_b``.

    Every table is computed: the two-sided p-value is not monotone in the counts
    (on 25 deals against 11, 7 wins against 0 give p = 0.0756 and 8 wins 0.0757), so
    the corners of the grid do not bound it. Written here because scipy's
    ``fisher_exact`` computes one table a call, and a grid holds (unknowns of A + 1) x
    (unknowns of B + 1) tables: this computes each total's
    hypergeometric distribution once (scipy's) and applies scipy's rule to every
    table with that total (the p-value is the probability of the tables no more
    likely than the one observed). The tests check it against scipy table by table.
    """
    least, largest = math.inf, -math.inf
    for total in range(won_a[0] + won_b[0], won_a[1] + won_b[1] + 1):
        a = np.arange(max(won_a[0], total - won_b[1]), min(won_a[1], total - won_b[0]) + 1)
        p_values = _fisher_p_values(a, total, n_a, n_b)
        least, largest = min(least, float(p_values.min())), max(largest, float(p_values.max()))
    return least, largest


def _fisher_p_values(won_a: np.ndarray, total: int, n_a: int, n_b: int) -> np.ndarray:
    """Fisher's two-sided p-value of each table with ``won_a`` of ``n_a`` and ``total - won_a``
    of ``n_b`` won."""
    support = np.arange(max(0, total - n_b), min(n_a, total) + 1)
    pmf = stats.hypergeom.pmf(support, n_a + n_b, n_a, total)
    ordered = np.sort(pmf)
    cumulative = np.cumsum(ordered)  # smallest first: the sum of the tables at most as likely
    observed = pmf[won_a - support[0]]
    summed = cumulative[np.searchsorted(ordered, observed * _FISHER_TIES, side="right") - 1]
    return np.where(observed * _FISHER_TIES >= pmf.max(), 1.0, np.minimum(summed, 1.0))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values (same order as given)."""
    if not len(p_values):
        return []
    return [float(p) for p in multipletests(p_values, method="holm")[1]]
