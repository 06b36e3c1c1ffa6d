"""report.md labels what ran (issue 45): a claim names what searched and its budget, a
bracket with a 100% upper end is called vacuous and points to ``relaxation_bound``, a
comparison with an upper bound on one side is set apart and labelled (or left out with
``report: {comparisons: players}``), and a win rate's interval is given by its two ends.
Drawn from hand-made per-deal tables: no deal is played."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simlab.experiments.config import config_from_dict
from simlab.experiments.markdown import _brackets, _claims, _comparisons, _win_rates, budget_phrase, report_markdown
from simlab.experiments.plots import effort_subject
from simlab.experiments.stats import holm, wilson_interval
from simlab.experiments.tables import brackets_table, claims_table, comparisons_table, summarize


def cell(game: str, policy: str, information: str, won: int, lost: int, unknown: int = 0,
         nodes: int = 0) -> pd.DataFrame:
    """One cell's per-deal rows, deals 1..n: wins first, then losses, then unknowns."""
    verdicts = ["won"] * won + ["lost"] * lost + ["unknown"] * unknown
    return pd.DataFrame({
        "game": game, "policy": policy, "information": information, "deal": np.arange(1, len(verdicts) + 1),
        "verdict": verdicts, "end_reason": ["won" if v == "won" else "no_moves" for v in verdicts],
        "moves": 10, "cards_home": 20, "nodes": nodes, "cpu_seconds": 0.1, "error": "",
    })


def config(policies: list[Any], games: list[Any] | None = None, **extra: Any) -> Any:
    return config_from_dict({"name": "labels", "deals": {"start": 1, "count": 40},
                             "games": games or ["citadel"], "policies": policies, **extra}, source="labels.yaml")


def test_a_claim_on_lookahead_names_lookahead_and_its_budget_not_a_solver() -> None:
    setup = config(["greedy", {"name": "lookahead", "label": "lookahead_100", "params": {"budget": 100}}],
                   claims=[{"game": "citadel", "policy": "lookahead_100", "win_rate": 0.5, "source": "app"}])
    frame = pd.concat([cell("citadel", "greedy", "open", 5, 35), cell("citadel", "lookahead_100", "open", 20, 20)])
    text = _claims(claims_table(frame, setup.claims), setup)
    assert "lookahead budget 100 positions per move" in text
    assert "solver" not in text


def test_each_policy_says_what_its_budget_bounds() -> None:
    setup = config(["greedy", "solver", {"name": "lookahead", "params": {"budget": 10}}, "round_max"],
                   games=["la_belle_lucie"])
    phrases = [budget_phrase(policy) for policy in setup.policies]
    assert phrases == ["", f"solver budget {setup.policies[1].params['budget']:,} nodes per deal",
                       "lookahead budget 10 positions per move",
                       f"round_max budget {setup.policies[3].params['round_budget']:,} positions per round"]


def test_a_bracket_at_100_percent_is_called_vacuous_and_points_to_the_relaxation_bound() -> None:
    lucie = config(["round_max", {"name": "solver", "label": "solver_thoughtful"}], games=["la_belle_lucie"])
    frame = pd.concat([cell("la_belle_lucie", "round_max", "fair", 12, 28),
                       cell("la_belle_lucie", "solver_thoughtful", "thoughtful", 38, 0, 2)])
    summary = summarize(frame)
    brackets = brackets_table(summary)
    assert brackets["vacuous"].tolist() == [True]
    text = _brackets(brackets, summary, lucie)
    assert "**la_belle_lucie: the upper bound is vacuous.**" in text
    assert "add the policy `relaxation_bound`" in text
    # a real bound (thoughtful play lost some deals) is not vacuous
    tight = pd.concat([cell("la_belle_lucie", "round_max", "fair", 12, 28),
                       cell("la_belle_lucie", "solver_thoughtful", "thoughtful", 30, 10)])
    assert brackets_table(summarize(tight))["vacuous"].tolist() == [False]
    assert "vacuous" not in _brackets(brackets_table(summarize(tight)), summarize(tight), lucie)


def test_a_vacuous_bracket_without_shuffles_does_not_offer_the_relaxation_bound() -> None:
    mill = config(["greedy", {"name": "solver", "label": "solver_thoughtful"}], games=["windmill"])
    frame = pd.concat([cell("windmill", "greedy", "fair", 3, 37), cell("windmill", "solver_thoughtful",
                                                                        "thoughtful", 40, 0)])
    text = _brackets(brackets_table(summarize(frame)), summarize(frame), mill)
    assert "the upper bound is vacuous" in text and "no tighter upper bound" in text
    assert "relaxation_bound" not in text


def lucie_players() -> pd.DataFrame:
    """Heuristic and round_max (fair players) far apart, and the thoughtful solver (a bound)."""
    return pd.concat([cell("lucie", "heuristic", "fair", 2, 38), cell("lucie", "round_max", "fair", 30, 10),
                      cell("lucie", "thoughtful", "thoughtful", 40, 0)], ignore_index=True)


def test_comparisons_with_an_upper_bound_are_set_apart_and_labelled() -> None:
    table = comparisons_table(lucie_players())
    assert table.set_index(["a", "b"])["upper_bound"].to_dict() == {
        ("heuristic", "round_max"): "", ("heuristic", "thoughtful"): "b", ("round_max", "thoughtful"): "b"}
    text = _comparisons(table)
    players, bounds = text.split("### Against an upper bound")
    assert "heuristic" in players and "thoughtful" not in players.split("Significant at the 95% level")[1]
    assert "- lucie: heuristic 5.0% vs thoughtful [upper bound] 100.0%" in bounds
    assert "report: {comparisons: players}" in bounds


def test_players_only_leaves_the_upper_bounds_out() -> None:
    table = comparisons_table(lucie_players(), keep="players")
    assert table[["a", "b"]].values.tolist() == [["heuristic", "round_max"]]
    assert (table["upper_bound"] == "").all()
    text = _comparisons(table, keep="players")
    assert "thoughtful" not in text.replace("(`thoughtful` cells)", "")
    assert "Only players are compared" in text
    # Holm's adjustment over the players' comparisons alone: never above the whole table's
    everything = comparisons_table(lucie_players()).set_index(["a", "b"])
    assert table["p_holm"].iloc[0] <= everything.loc[("heuristic", "round_max"), "p_holm"]
    assert table["p_holm"].iloc[0] == table["p_value"].iloc[0]  # one comparison kept: nothing to adjust for
    assert everything.loc[("heuristic", "round_max"), "p_holm"] == holm(everything["p_value"].tolist())[0]


def test_no_win_is_an_asymmetric_interval_not_plus_minus() -> None:
    summary = summarize(pd.concat([cell("citadel", "random", "open", 0, 100), cell("citadel", "greedy", "open",
                                                                                   30, 70)]))
    text = _win_rates(summary, [])
    row = summary.iloc[0]
    assert row.range_high == wilson_interval(0, 100)[1]  # the ends are stats' Wilson ends, not a centre ± half
    assert f"| 0.0% (0.0–{100 * row.range_high:.1f}) |" in text
    assert "| 0.0% (0.0–3.7) |" in text and "(0 wins in 100 deals: 0.0% (0.0–3.7))" in text
    assert "±" not in text


def test_a_vacuous_bracket_beside_a_relaxation_bound_does_not_ask_for_one() -> None:
    lucie = config(["round_max", {"name": "solver", "label": "solver_thoughtful"}, "relaxation_bound"],
                   games=["la_belle_lucie"])
    frame = pd.concat([cell("la_belle_lucie", "round_max", "fair", 12, 28),
                       cell("la_belle_lucie", "solver_thoughtful", "thoughtful", 38, 0, 2)])
    summary = summarize(frame)
    text = _brackets(brackets_table(summary), summary, lucie)
    assert "the upper bound is vacuous" in text and "add the policy" not in text
    assert "Every upper bound of this experiment, `relaxation_bound` included, reaches 100% here." in text


def test_the_effort_caption_names_what_the_figure_draws() -> None:
    """The figure draws players only (a relaxation bound's searches are not in it), so its
    caption counts what searched among players too: the solver alone here."""
    setup = config(["greedy", {"name": "solver", "label": "solver_thoughtful"}, "relaxation_bound"],
                   games=["la_belle_lucie"])
    frame = pd.concat([cell("la_belle_lucie", "greedy", "fair", 5, 35),
                       cell("la_belle_lucie", "solver_thoughtful", "thoughtful", 30, 10, nodes=500),
                       cell("la_belle_lucie", "relaxation_bound", "relaxation", 0, 0, 40, nodes=900)
                       .assign(bound_value=0.9)], ignore_index=True)
    names = {p.label: p.name for p in setup.policies}
    assert effort_subject(frame, names) == "Search"  # every cell: solver and relaxation_bound
    summary = summarize(frame)
    tables = {"deals": frame, "summary": summary, "brackets": brackets_table(summary),
              "claims": claims_table(frame, setup.claims), "comparisons": comparisons_table(frame)}
    text = report_markdown(setup, tables, ["solver_effort"], {})
    assert "Positions (nodes) the solver searched per deal, by verdict." in text
