"""The statistics of the reports, checked against known values."""

from __future__ import annotations

import math

import pytest

from simlab.experiments import stats


def test_wilson_matches_a_textbook_value() -> None:
    # 81 of 263 (Wilson 1927 style example, as in every textbook): [0.2553, 0.3662].
    low, high = stats.wilson_interval(81, 263)
    assert low == pytest.approx(0.25529, abs=5e-5)
    assert high == pytest.approx(0.36621, abs=5e-5)


@pytest.mark.parametrize(("successes", "trials", "low", "high"), [
    # Newcombe (1998), Statistics in Medicine 17:857, Table II, method 3 (Wilson's score interval).
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_newcombes_examples(successes: int, trials: int, low: float, high: float) -> None:
    assert stats.wilson_interval(successes, trials) == pytest.approx((low, high), abs=5e-5)


def test_wilson_at_the_edges_stays_in_unit_interval() -> None:
    assert stats.wilson_interval(0, 10)[0] == 0.0
    assert stats.wilson_interval(10, 10)[1] == 1.0
    # With no successes the upper bound is z^2 / (n + z^2).
    z = stats.z_value()
    assert stats.wilson_interval(0, 40)[1] == pytest.approx(z * z / (40 + z * z))
    assert all(math.isnan(v) for v in stats.wilson_interval(0, 0))


@pytest.mark.parametrize(
    ("won", "lost", "unknown", "centre", "half"),
    [
        # Blake and Gent, Table 2 from the raw counts of Table 8 (docs/rules.md sections 1, 5 and 6).
        (1_362_720, 635_919, 1_361, 68.170, 0.099),   # Beleaguered Castle
        (973_689, 26_106, 205, 97.379, 0.042),        # Stronghold
        (202_396, 797_604, 0, 20.240, 0.079),         # Fortress (Wolter), no unknowns
    ],
)
def test_unknown_range_reproduces_blake_and_gent(won: int, lost: int, unknown: int,
                                                 centre: float, half: float) -> None:
    result = stats.unknown_range(won, unknown, won + lost + unknown)
    assert round(100 * result.centre, 3) == centre
    assert round(100 * result.half_width, 3) == half


def test_streets_and_alleys_range_is_within_their_conservative_rounding() -> None:
    result = stats.unknown_range(1_021_425, 4_642, 2_000_000)
    assert round(100 * result.centre, 3) == 51.187
    assert 100 * result.half_width == pytest.approx(0.186, abs=0.001)  # published ±0.186


def test_binomial_p_values() -> None:
    # 3 of 10 against 1/2: 2 * (1 + 10 + 45 + 120) / 1024.
    assert stats.binomial_p_value(3, 10, 0.5) == pytest.approx(352 / 1024)
    assert stats.binomial_p_value(5, 10, 0.5) == pytest.approx(1.0)
    # Inside an interval claim the p-value is 1; outside, that of the nearest end.
    assert stats.binomial_p_value(48, 100, 0.45, 0.55) == 1.0
    assert stats.binomial_p_value(30, 100, 0.45, 0.55) == pytest.approx(stats.binomial_p_value(30, 100, 0.45))


def test_claim_test_lets_unknowns_resolve_either_way() -> None:
    # 60 won, 10 unknown of 100 against 68%: 60/100 alone is borderline, 68 is reachable.
    result = stats.claim_test(60, 10, 100, 0.68)
    assert result.p_value == pytest.approx(1.0)
    assert result.consistent
    assert result.p_unknown_lost == pytest.approx(stats.binomial_p_value(60, 100, 0.68))
    assert result.p_unknown_won == pytest.approx(stats.binomial_p_value(70, 100, 0.68))
    # 20 of 100 cannot be 68%, whatever two unknowns do.
    far = stats.claim_test(20, 2, 100, 0.68)
    assert not far.consistent
    assert far.p_value == pytest.approx(stats.binomial_p_value(22, 100, 0.68))


def test_mcnemar_exact_on_a_small_table() -> None:
    # Discordant pairs 1 and 7: 2 * P(X <= 1 | 8, 1/2) = 2 * 9 / 256.
    assert stats.mcnemar_exact(1, 7) == pytest.approx(18 / 256)
    assert stats.mcnemar_exact(7, 1) == pytest.approx(18 / 256)
    assert stats.mcnemar_exact(0, 0) == 1.0
    # 0 and 6: 2 / 64.
    assert stats.mcnemar_exact(0, 6) == pytest.approx(2 / 64)
    # Cavo et al. (above): 6 and 16 discordant, 2 * P(X <= 6 | 22, 1/2) = 0.0525.
    assert stats.mcnemar_exact(6, 16) == pytest.approx(2 * sum(math.comb(22, k) for k in range(7)) / 2**22)
    assert stats.mcnemar_exact(6, 16) == pytest.approx(0.0525, abs=1e-4)


def test_fisher_exact_lady_tasting_tea() -> None:
    odds_ratio, p_value = stats.fisher_exact(3, 4, 1, 4)
    assert odds_ratio == pytest.approx(9.0)
    assert p_value == pytest.approx(34 / 70)


def test_newcombe_independent_difference_matches_his_example() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873, 56/70 vs 48/80, method 10: 0.0524 to 0.3339.
    difference, low, high = stats.independent_difference_interval(56, 70, 48, 80)
    assert difference == pytest.approx(0.2)
    assert low == pytest.approx(0.0524, abs=1e-4)
    assert high == pytest.approx(0.3339, abs=1e-4)


@pytest.mark.parametrize(("won_a", "n_a", "won_b", "n_b", "low", "high"), [
    # Newcombe (1998), Statistics in Medicine 17:873, Table II, method 10: his other examples.
    (9, 10, 3, 10, 0.1705, 0.8090), (5, 56, 0, 29, -0.0381, 0.1926), (0, 10, 0, 20, -0.1611, 0.2775),
    (0, 10, 0, 10, -0.2775, 0.2775), (10, 10, 0, 20, 0.6791, 1.0), (10, 10, 0, 10, 0.6075, 1.0),
])
def test_newcombe_independent_difference_matches_his_table(won_a: int, n_a: int, won_b: int, n_b: int,
                                                           low: float, high: float) -> None:
    difference, got_low, got_high = stats.independent_difference_interval(won_a, n_a, won_b, n_b)
    assert difference == pytest.approx(won_a / n_a - won_b / n_b)
    assert (got_low, got_high) == pytest.approx((low, high), abs=1e-4)


def test_newcombe_paired_difference_matches_a_published_value() -> None:
    # Fagerland, Lydersen and Laake, Statistical Analysis of Contingency Tables (2017), chapter 8:
    # complete response before and after consolidation therapy (Cavo et al. 2012), table 59 6 / 16 80,
    # Newcombe's square-and-add interval: -0.0621 (-0.1186 to -0.0046).
    difference, low, high = stats.paired_difference_interval(59, 6, 16, 80)
    assert (difference, low, high) == pytest.approx((-0.0621, -0.1186, -0.0046), abs=1e-4)


def test_paired_difference_interval_is_antisymmetric_and_sane() -> None:
    difference, low, high = stats.paired_difference_interval(12, 9, 2, 21)
    assert difference == pytest.approx(7 / 44)
    assert low < difference < high
    swapped = stats.paired_difference_interval(12, 2, 9, 21)
    assert swapped == pytest.approx((-difference, -high, -low))
    # No discordant pairs: the difference is 0 and the interval straddles it.
    zero, low0, high0 = stats.paired_difference_interval(5, 0, 0, 5)
    assert zero == 0 and low0 < 0 < high0


def test_fisher_range_of_one_table_is_scipys_p_value() -> None:
    # Every table of these sizes, one at a time, against scipy's own test.
    for n_a, n_b in ((7, 9), (10, 10), (12, 4)):
        for won_a in range(n_a + 1):
            for won_b in range(n_b + 1):
                expected = stats.fisher_exact(won_a, n_a, won_b, n_b)[1]
                least, largest = stats.fisher_exact_p_range((won_a, won_a), n_a, (won_b, won_b), n_b)
                assert least == pytest.approx(expected, rel=1e-9) and largest == pytest.approx(expected, rel=1e-9)


def test_fisher_range_covers_the_whole_grid_where_p_is_not_monotone() -> None:
    # 7 and 8 wins of 25 against 0 of 11: the p-value rises from 7 to 8 wins.
    p7, p8 = stats.fisher_exact(7, 25, 0, 11)[1], stats.fisher_exact(8, 25, 0, 11)[1]
    assert p8 > p7
    assert stats.fisher_exact_p_range((7, 8), 25, (0, 0), 11) == pytest.approx((p7, p8), rel=1e-9)
    grid = [stats.fisher_exact(a, 30, b, 40)[1] for a in range(3, 9) for b in range(10, 14)]
    assert stats.fisher_exact_p_range((3, 8), 30, (10, 13), 40) == pytest.approx((min(grid), max(grid)), rel=1e-9)


def test_holm_adjustment() -> None:
    # R: p.adjust(c(0.01, 0.04, 0.03, 0.2), "holm")
    assert stats.holm([0.01, 0.04, 0.03, 0.2]) == pytest.approx([0.04, 0.09, 0.09, 0.2])
    assert stats.holm([]) == []
