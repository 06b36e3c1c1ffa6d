"""Perfect play bracketed: the tables that put the best fair player below and the
tightest upper bound (thoughtful play or an information relaxation) above,
computed from hand-made per-deal tables whose answers are known."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from simlab.experiments import stats
from simlab.experiments.store import ResultStore
from simlab.experiments.tables import brackets_table, comparisons_table, summarize


def cell(game: str, policy: str, information: str, verdicts: list[str],
         values: list[float] | None = None) -> pd.DataFrame:
    """The per-deal rows of one cell, deals 1..n."""
    n = len(verdicts)
    frame = pd.DataFrame({
        "game": game, "policy": policy, "information": information, "deal": np.arange(1, n + 1),
        "verdict": verdicts, "end_reason": ["won" if v == "won" else "no_moves" for v in verdicts],
        "moves": 10, "cards_home": 20, "nodes": 0, "cpu_seconds": 0.1, "error": "",
    })
    frame["bound_value"] = values if values is not None else np.nan
    return frame


def hidden_game(thoughtful_unknown: int = 0, bound_values: list[float] | None = None) -> pd.DataFrame:
    """Game ``lucie`` on 40 deals: two fair players (8 and 12 wins), the thoughtful
    solver (30 wins and ``thoughtful_unknown`` unknowns), optionally a relaxation bound."""
    fair_a = ["won"] * 8 + ["lost"] * 32
    fair_b = ["won"] * 12 + ["lost"] * 28
    thoughtful = ["won"] * 30 + ["unknown"] * thoughtful_unknown + ["lost"] * (10 - thoughtful_unknown)
    parts = [cell("lucie", "round_max", "fair", fair_a), cell("lucie", "solver_fair", "fair", fair_b),
             cell("lucie", "solver_thoughtful", "thoughtful", thoughtful)]
    if bound_values is not None:
        parts.append(cell("lucie", "relaxation_bound", "relaxation", ["unknown"] * len(bound_values),
                          bound_values))
    parts.append(cell("castle", "solver", "open", ["won"] * 25 + ["lost"] * 15))
    return pd.concat(parts, ignore_index=True)


def test_the_bracket_runs_from_the_best_fair_player_to_thoughtful_play() -> None:
    frame = hidden_game(thoughtful_unknown=2)
    brackets = brackets_table(summarize(frame))
    assert brackets["game"].tolist() == ["lucie"]  # an open game has no bracket
    row = brackets.iloc[0]
    assert row["lower_policy"] == "solver_fair" and row["lower"] == pytest.approx(12 / 40)
    assert row["lower_low"] == pytest.approx(stats.wilson_interval(12, 40)[0])
    # thoughtful: unknowns counted as wins, Wilson upper end of that
    assert row["upper_policy"] == "solver_thoughtful" and row["upper_information"] == "thoughtful"
    assert row["upper"] == pytest.approx(32 / 40)
    assert row["upper_high"] == pytest.approx(stats.wilson_interval(32, 40)[1])
    assert row["width"] == pytest.approx(20 / 40)
    assert row["width_95"] == pytest.approx(row["upper_high"] - row["lower_low"])


def test_the_tighter_relaxation_bound_replaces_thoughtful_play() -> None:
    rng = np.random.default_rng(1)
    values = (0.35 + 0.1 * rng.standard_normal(40)).tolist()
    summary = summarize(hidden_game(bound_values=values))
    bound = summary[summary["policy"] == "relaxation_bound"].iloc[0]
    assert bound["information"] == "relaxation"
    assert bound["bound"] == pytest.approx(np.mean(values))
    t = scipy_stats.t.ppf(0.975, 39) * np.std(values, ddof=1) / math.sqrt(40)
    assert (bound["bound_low"], bound["bound_high"]) == pytest.approx((np.mean(values) - t, np.mean(values) + t))
    assert pd.isna(bound["won"]) and pd.isna(bound["win_rate"])  # a bound wins nothing
    row = brackets_table(summary).iloc[0]
    assert (row["upper_policy"], row["upper_information"]) == ("relaxation_bound", "relaxation")
    assert row["upper_high"] == pytest.approx(bound["bound_high"])
    assert row["width"] == pytest.approx(np.mean(values) - 12 / 40)
    ends = summary.set_index("policy")["bracket_end"]
    assert (ends["solver_fair"], ends["relaxation_bound"]) == ("lower", "upper")
    assert ends[["round_max", "solver_thoughtful"]].isna().all()  # neither end: empty in summary.csv


def test_a_looser_relaxation_bound_does_not_replace_thoughtful_play() -> None:
    summary = summarize(hidden_game(bound_values=[0.9, 1.0, 0.95, 0.97] * 10))
    assert brackets_table(summary).iloc[0]["upper_policy"] == "solver_thoughtful"


def test_a_game_without_a_fair_player_or_a_bound_has_no_bracket() -> None:
    frame = hidden_game()
    assert brackets_table(summarize(frame[frame["policy"] != "solver_thoughtful"])).empty
    assert brackets_table(summarize(frame[frame["information"] != "fair"])).empty


def test_player_counts_keep_their_integer_type() -> None:
    summary = summarize(hidden_game(bound_values=[0.5] * 40))
    players = summary[summary["information"] != "relaxation"]
    assert players["won"].tolist() == [8, 12, 30, 25]
    assert "12" in summary.to_csv() and "12.0" not in summary.to_csv(columns=["won"])


def test_comparisons_leave_a_bound_out() -> None:
    comparisons = comparisons_table(hidden_game(bound_values=[0.5] * 40))
    pairs = set(comparisons["a"]) | set(comparisons["b"])
    assert "relaxation_bound" not in pairs and "solver_fair" in pairs


def test_mean_interval_matches_students_t() -> None:
    values = [0.2, 0.4, 0.1, 0.5, 0.3]
    low, high = stats.mean_interval(values)
    half = scipy_stats.t.ppf(0.975, 4) * np.std(values, ddof=1) / math.sqrt(5)
    assert (low, high) == pytest.approx((0.3 - half, 0.3 + half))
    assert all(math.isnan(v) for v in stats.mean_interval([0.4]))


def test_the_store_keeps_a_bound_value(tmp_path: Path) -> None:
    row = {"cell": "c", "deal": 3, "verdict": "unknown", "end_reason": "bound", "moves": 0, "cards_home": 0,
           "nodes": 5, "cpu_seconds": 0.5, "error": "", "traceback": ""}
    with ResultStore(tmp_path) as store:
        store.add_rows([{**row, "bound_value": 0.625}, {**row, "deal": 4}])
        rows = store.rows(["c"]).set_index("deal")
    assert rows.loc[3, "bound_value"] == 0.625 and pd.isna(rows.loc[4, "bound_value"])


# the default label names the parameters that differ from the defaults
BOUND = "relaxation_bound (samples=1, final_samples=2, final_budget=2000)"


def test_a_run_with_a_relaxation_bound_writes_its_bracket(tmp_path: Path) -> None:
    import simlab

    config = {
        "name": "bracket", "root_seed": 0, "deals": {"start": 1, "count": 2},
        "games": ["la_belle_lucie", "beleaguered_castle"],
        "policies": ["round_max", {"name": "relaxation_bound",
                                   "params": {"samples": 1, "final_samples": 2, "final_budget": 2_000}}],
        "execution": {"n_jobs": 1}, "output": str(tmp_path / "out"),
    }
    frame = simlab.run(config, progress=False)
    bound = frame[frame["policy"] == BOUND]
    assert (bound["information"] == "relaxation").all()  # also where nothing is hidden
    lucie = bound[bound["game"] == "la_belle_lucie"]["bound_value"]
    assert lucie.notna().all() and lucie.between(0, 1).all()
    assert bound[bound["game"] == "beleaguered_castle"]["bound_value"].isna().all()  # it does not apply there
    brackets = pd.read_csv(tmp_path / "out" / "brackets.csv")
    assert brackets["game"].tolist() == ["la_belle_lucie"]
    row = brackets.iloc[0]
    assert (row["lower_policy"], row["upper_policy"], row["upper_information"]) == (
        "round_max", BOUND, "relaxation")
    assert row["upper"] == pytest.approx(lucie.mean())
    report = (tmp_path / "out" / "report.md").read_text()
    assert "## Perfect play bracketed" in report and f"{BOUND} [relaxation]" in report
    comparisons = pd.read_csv(tmp_path / "out" / "comparisons.csv")
    assert BOUND not in set(comparisons["a"]) | set(comparisons["b"])
