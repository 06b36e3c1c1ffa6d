"""Comparisons that stay honest: paired by deal number where two cells share deals, and
with unknown results given as ranges over every way they can resolve. Hand-made
per-deal tables (no play), so every answer is known."""

from __future__ import annotations

from itertools import product

import numpy as np
import pandas as pd
import pytest

from simlab.experiments import resolutions, stats
from simlab.experiments.markdown import _best_policy_sentence, _comparisons
from simlab.experiments.tables import comparisons_table, summarize

VERDICTS = ("won", "lost", "unknown")


def cell(game: str, policy: str, verdicts: list[str], first_deal: int = 1) -> pd.DataFrame:
    """The per-deal rows of one cell, deals ``first_deal`` onwards."""
    n = len(verdicts)
    return pd.DataFrame({
        "game": game, "policy": policy, "information": "open", "deal": np.arange(first_deal, first_deal + n),
        "verdict": verdicts, "end_reason": ["won" if v == "won" else "stuck" for v in verdicts],
        "moves": 10, "cards_home": 20, "nodes": 0, "cpu_seconds": 0.1, "error": "",
    })


def shuffled(counts: dict[str, int], seed: int) -> list[str]:
    verdicts = [v for v, n in counts.items() for _ in range(n)]
    np.random.default_rng(seed).shuffle(verdicts)
    return verdicts


def resolved(verdicts: list[str], choice: tuple[bool, ...]) -> list[bool]:
    """Won or not per deal, the unknowns taken in turn from ``choice``."""
    answers = iter(choice)
    return [v == "won" or (v == "unknown" and next(answers)) for v in verdicts]


def every_resolution(a: list[str], b: list[str]) -> list[tuple[list[bool], list[bool]]]:
    unknown_a, unknown_b = a.count("unknown"), b.count("unknown")
    return [(resolved(a, ca), resolved(b, cb)) for ca in product((False, True), repeat=unknown_a)
            for cb in product((False, True), repeat=unknown_b)]


def table_of(won_a: list[bool], won_b: list[bool]) -> tuple[int, int, int, int]:
    pairs = list(zip(won_a, won_b))
    return (pairs.count((True, True)), pairs.count((True, False)), pairs.count((False, True)),
            pairs.count((False, False)))


@pytest.mark.parametrize("seed", range(12))
def test_paired_ranges_are_those_of_every_resolution(seed: int) -> None:
    """McNemar's p-value range, the difference's range and the interval union equal a brute force
    over every resolution of the unknowns (at most 2**8 here)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 13))
    a = [VERDICTS[i] for i in rng.choice(3, n, p=[0.4, 0.35, 0.25])]
    b = [VERDICTS[i] for i in rng.choice(3, n, p=[0.3, 0.45, 0.25])]
    while a.count("unknown") + b.count("unknown") > 8:
        a[a.index("unknown")] = "lost"
    tables = [table_of(*r) for r in every_resolution(a, b)]
    p_values = [stats.mcnemar_exact(t[1], t[2]) for t in tables]
    intervals = [stats.paired_difference_interval(*t) for t in tables]
    result = resolutions.paired_comparison(resolutions.PairedVerdicts.count(pd.Series(a), pd.Series(b)))
    assert (result.p_min, result.p_max) == pytest.approx((min(p_values), max(p_values)))
    assert (result.difference_min, result.difference_max) == pytest.approx(
        (min(i[0] for i in intervals), max(i[0] for i in intervals)))
    assert (result.low, result.high) == pytest.approx((min(i[1] for i in intervals), max(i[2] for i in intervals)))
    lost = table_of([v == "won" for v in a], [v == "won" for v in b])  # every unknown counted as not won
    assert result.difference == pytest.approx((lost[1] - lost[2]) / n)


def test_paired_interval_ends_move_with_the_wins_on_every_small_table() -> None:
    """The union of the paired intervals is taken at the two extreme resolutions: each end
    rises with a win of A and falls with a win of B (every table of up to 12 deals)."""
    for n in range(1, 13):
        for both in range(n + 1):
            for only_a in range(n + 1 - both):
                for only_b in range(n + 1 - both - only_a):
                    table = (both, only_a, only_b, n - both - only_a - only_b)
                    _, low, high = stats.paired_difference_interval(*table)
                    for better in _better_for_a(table):
                        _, low2, high2 = stats.paired_difference_interval(*better)
                        assert low2 >= low - 1e-12 and high2 >= high - 1e-12, (table, better)


def _better_for_a(table: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]]:
    """The tables one deal better for A: A wins one more, or B one fewer."""
    both, only_a, only_b, neither = table
    moves = []
    if neither:
        moves.append((both, only_a + 1, only_b, neither - 1))
    if only_b:
        moves += [(both + 1, only_a, only_b - 1, neither), (both, only_a, only_b - 1, neither + 1)]
    if both:
        moves.append((both - 1, only_a + 1, only_b, neither))
    return moves


def test_independent_ranges_are_those_of_every_resolution() -> None:
    result = resolutions.independent_comparison(6, 3, 20, 2, 4, 15)
    grid = [(a, b) for a in range(6, 10) for b in range(2, 7)]
    p_values = [stats.fisher_exact(a, 20, b, 15)[1] for a, b in grid]
    intervals = [stats.independent_difference_interval(a, 20, b, 15) for a, b in grid]
    assert (result.p_min, result.p_max) == pytest.approx((min(p_values), max(p_values)))
    assert (result.low, result.high) == pytest.approx((min(i[1] for i in intervals), max(i[2] for i in intervals)))
    assert (result.difference_min, result.difference_max) == pytest.approx((6 / 20 - 6 / 15, 9 / 20 - 2 / 15))


def windmill_rule_sets(first_deal_strict: int = 1) -> pd.DataFrame:
    """The user's example: the solver on Windmill deals 1-100 under two rule sets, none proved
    lost, 30 and 57 unknown."""
    return pd.concat([
        cell("windmill", "solver", shuffled({"won": 70, "unknown": 30}, 1)),
        cell("windmill_strict", "solver", shuffled({"won": 43, "unknown": 57}, 2), first_deal_strict),
    ], ignore_index=True)


@pytest.mark.parametrize(("first_deal_strict", "test"), [(1, "mcnemar_exact (paired, 100 deals)"),
                                                         (101, "fisher_exact (independent)")])
def test_unknowns_that_could_close_the_gap_make_no_significant_difference(first_deal_strict: int,
                                                                           test: str) -> None:
    row = comparisons_table(windmill_rule_sets(first_deal_strict)).iloc[0]
    assert row["test"] == test
    # With every unknown counted as a loss, as before, it looked significant (+27 points):
    if test.startswith("mcnemar"):
        old_p = stats.mcnemar_exact(int(row["only_a"]), int(row["only_b"]))
    else:
        old_p = stats.fisher_exact(70, 100, 43, 100)[1]
    assert row["difference"] == pytest.approx(0.27) and old_p < 0.01
    # ... but the unknowns can resolve either way: p runs from below 0.05 to above it.
    assert row["p_min"] < 0.05 <= row["p_value"]
    assert not row["significant"] and row["significance"] == "undecided"
    assert row["p_holm_min"] <= row["p_holm"]
    assert (row["rate_a"], row["rate_a_high"], row["rate_b"], row["rate_b_high"]) == pytest.approx(
        (0.70, 1.0, 0.43, 1.0))
    assert (row["unknown_a"], row["unknown_b"]) == (30, 57)
    assert row["difference_min"] < 0 < row["difference_max"]
    assert row["difference_low"] < 0 < row["difference_high"]


def test_unknowns_too_few_to_matter_leave_a_difference_significant() -> None:
    frame = pd.concat([cell("castle", "solver", shuffled({"won": 80, "unknown": 5, "lost": 15}, 3)),
                       cell("castle", "greedy", shuffled({"won": 10, "lost": 90}, 4))], ignore_index=True)
    row = comparisons_table(frame).iloc[0]
    assert row["significant"] and row["significance"] == "significant"
    assert row["p_min"] <= row["p_value"] < 0.05
    assert row["unknown_pairs"] == 5


def test_shared_deals_are_compared_deal_by_deal_where_fisher_would_see_nothing() -> None:
    """Two games on the same deals, B winning a subset of A's deals: McNemar sees 10 discordant
    deals all one way (p = 2 / 1024), Fisher's test of 30% against 20% sees no difference."""
    a = ["won"] * 30 + ["lost"] * 70
    b = ["won"] * 20 + ["lost"] * 80
    frame = pd.concat([cell("citadel", "heuristic", a), cell("citadel_hoyle", "heuristic", b)], ignore_index=True)
    row = comparisons_table(frame).iloc[0]
    assert (row["comparison"], row["test"]) == ("games (paired)", "mcnemar_exact (paired, 100 deals)")
    assert (row["only_a"], row["only_b"]) == (10, 0)
    assert row["p_value"] == pytest.approx(2 / 1024)
    assert stats.fisher_exact(30, 100, 20, 100)[1] > 0.05  # what the independent test would say
    assert row["significant"]
    # The paired interval is the narrower one here: the results go together deal by deal.
    _, low, high = stats.independent_difference_interval(30, 100, 20, 100)
    assert row["difference_high"] - row["difference_low"] < high - low


def test_partly_shared_deals_are_paired_on_the_shared_ones() -> None:
    frame = pd.concat([cell("castle", "random", shuffled({"won": 30, "lost": 70}, 5)),
                       cell("castle", "greedy", shuffled({"won": 40, "lost": 60}, 6), first_deal=51)],
                      ignore_index=True)
    row = comparisons_table(frame).iloc[0]
    assert row["test"] == "mcnemar_exact (paired, 50 deals)"
    assert row["n_a"] == row["n_b"] == 50


def test_independent_rows_use_fisher_and_newcombe() -> None:
    frame = pd.concat([cell("castle", "random", shuffled({"won": 56, "lost": 14}, 7)),
                       cell("fan", "random", shuffled({"won": 48, "lost": 32}, 8), first_deal=1001)],
                      ignore_index=True)
    row = comparisons_table(frame).iloc[0]
    assert (row["comparison"], row["test"]) == ("games (independent)", "fisher_exact (independent)")
    assert row["p_value"] == pytest.approx(stats.fisher_exact(56, 70, 48, 80)[1])
    assert (row["difference_low"], row["difference_high"]) == pytest.approx((0.0524, 0.3339), abs=1e-4)


def summary_of(counts: dict[str, dict[str, int]]) -> pd.DataFrame:
    frame = pd.concat([cell("windmill", policy, shuffled(c, i)) for i, (policy, c) in enumerate(counts.items())],
                      ignore_index=True)
    return summarize(frame)


def test_the_report_does_not_rank_overlapping_ranges() -> None:
    summary = summary_of({"solver": {"won": 70, "unknown": 30}, "solver_fair": {"won": 75, "lost": 25},
                          "greedy": {"won": 5, "lost": 95}})
    sentence = _best_policy_sentence("windmill", summary)
    assert "solver won the most" not in sentence and "solver_fair won the most" not in sentence
    assert ("which won the most deals cannot be told yet between solver and solver_fair: their win-rate ranges "
            "overlap (solver 70.0–100.0% with 30 unknown, solver_fair 75.0%) while 30 of their results are "
            "unknown") in sentence
    assert "greedy the fewest (5.0%)" in sentence


def test_the_report_ranks_a_range_wholly_above_the_others() -> None:
    summary = summary_of({"solver": {"won": 70, "unknown": 30}, "greedy": {"won": 60, "lost": 40}})
    assert _best_policy_sentence("windmill", summary) == (
        "- windmill: solver won the most deals (70.0–100.0% with 30 unknown), greedy the fewest (60.0%).")
    tied = summary_of({"a": {"won": 5, "lost": 5}, "b": {"won": 5, "lost": 5}, "c": {"won": 1, "lost": 9}})
    assert _best_policy_sentence("windmill", tied) == (
        "- windmill: a and b tied for the most deals (50.0%), c the fewest (10.0%).")
    none = summary_of({"a": {"won": 5, "unknown": 5}, "b": {"won": 4, "unknown": 6}})
    assert "which policy won the most or the fewest deals cannot be told yet between a and b" in (
        _best_policy_sentence("windmill", none))


def test_the_report_names_each_comparisons_test_and_its_p_range() -> None:
    text = _comparisons(comparisons_table(pd.concat([
        windmill_rule_sets(),
        cell("windmill", "greedy", shuffled({"won": 5, "lost": 95}, 9)),
    ], ignore_index=True)))
    assert "McNemar's exact test on the 100 deals both played" in text
    assert "Undecided: 1" in text
    assert ("- solver: windmill 70.0–100.0% with 30 unknown vs windmill_strict 43.0–100.0% with 57 unknown, "
            "difference -30.0 to +57.0 points") in text
    assert "over the ways the 87 unknowns resolve" in text


def test_a_lone_policy_is_not_called_both_best_and_worst() -> None:
    alone = summary_of({"solver": {"won": 7, "unknown": 3}})
    assert _best_policy_sentence("windmill", alone) == (
        "- windmill: only solver played, winning 70.0–100.0% with 3 unknown.")
