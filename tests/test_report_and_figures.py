"""Outputs a researcher can read: the figures' titles, legends, labels, claim
intervals, per-panel limits and unknowns; report.md's p-value ranges, solver budgets, Blake
and Gent's range by its two ends, "deals" as in summary.csv, ties; cards home without the solver."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection
from run_helpers import config

import simlab
from simlab.experiments import plots

LONG = "a_policy_with_a_rather_long_label"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A solver-like policy with unknowns and a budget, a flaky one (failed deals), and random
    play under a long label, on two games; claims with and without a tolerance."""
    output = tmp_path_factory.mktemp("outputs") / "out"
    data = config(output, deals={"start": 1, "count": 20}, games=["citadel", "beleaguered_castle"],
                  policies=[{"name": "experiment_helpers:FakeSolver", "label": "fake", "params": {"budget": 5000}},
                            {"name": "experiment_helpers:Flaky", "label": "flaky", "params": {"fail_rate": 0.3}},
                            {"name": "random", "label": LONG}],
                  claims=[{"game": "citadel", "policy": "fake", "win_rate": 0.3, "source": "paper"},
                          {"game": "citadel", "policy": "fake", "win_rate": 0.5, "tolerance": 0.1,
                           "source": "app", "text": "roughly half"}],
                  execution={"backend": "sequential"})
    with pytest.warns(RuntimeWarning, match="deal\\(s\\) failed"):
        simlab.run(data, progress=False)
    return output


def tables(folder: Path) -> dict[str, pd.DataFrame]:
    return {name: pd.read_csv(folder / f"{name}.csv", keep_default_na=False)
            for name in ("deals", "summary", "claims")}


def test_report_gives_p_value_ranges_and_the_solver_budget(run: Path) -> None:
    report, claims = (run / "report.md").read_text(), tables(run)["claims"]
    for claim in claims.itertuples():
        assert claim.unknown > 0
        low = min(claim.p_unknown_lost, claim.p_unknown_won)
        assert f"p = {low:.3g} to {claim.p_value:.3g} (over the ways the {claim.unknown} unknowns resolve)" in report
    assert report.count("solver budget 5,000 nodes") == 2


def test_report_counts_deals_as_summary_csv_and_gives_the_range_by_its_ends(run: Path) -> None:
    """Blake and Gent's range is not symmetric about the win rate (0 wins: 0.0% (0.0–x), never
    "x/2% ± x/2"): the report gives the rate and the range's two ends; summary.csv keeps the centre."""
    report, summary = (run / "report.md").read_text(), tables(run)["summary"]
    assert "| deals | failed | played |" in report and "win rate (95% range, unknowns lost … won)" in report
    for row in summary.itertuples():
        line = next(line for line in report.splitlines() if line.startswith(f"| {row.game} | {row.policy} |"))
        cells = [cell.strip() for cell in line.split("|")[1:-1]]
        assert cells[3:6] == [str(row.deals), str(row.failed), str(row.played)]
        assert cells[10] == f"{100 * row.win_rate:.1f}% ({100 * row.range_low:.1f}–{100 * row.range_high:.1f})"
        assert "±" not in line
        assert row.range_centre == pytest.approx((row.range_low + row.range_high) / 2)
    flaky = summary[summary["policy"] == "flaky"].iloc[0]
    assert flaky.deals == 20 and flaky.failed > 0  # the two counts differ, and both are shown


def test_ties_are_phrased_as_ties(tmp_path: Path) -> None:
    data = config(tmp_path / "out", policies=["random", {"name": "experiment_helpers:FirstMove", "label": "first"}],
                  execution={"backend": "sequential"})
    simlab.run(data, progress=False)
    report = (tmp_path / "out" / "report.md").read_text()
    assert "- citadel: no policy won a deal." in report
    assert "won the most deals (0.0%)" not in report


def test_win_rates_figure_has_room_wrapped_labels_and_claim_intervals(run: Path) -> None:
    t = tables(run)
    figure = plots.win_rate_figure(plots_summary(t), t["claims"])
    figure.canvas.draw()
    axis = figure.axes[0]
    box = figure.bbox
    title = figure.get_suptitle()
    assert title and figure._suptitle.get_window_extent().x1 <= box.x1 + 1  # not clipped
    legend = axis.get_legend().get_window_extent()
    assert legend.y1 <= axis.get_window_extent().y0  # below the plot, not over it
    assert any("\n" in text.get_text() for text in axis.get_legend().get_texts())  # the long label wrapped
    segments = [seg for c in axis.collections if isinstance(c, LineCollection) for seg in c.get_segments()]
    assert any(np.allclose(sorted(seg[:, 1]), [40.0, 60.0]) for seg in segments)  # 50% ± 10 as an interval


def plots_summary(t: dict[str, pd.DataFrame]) -> pd.DataFrame:
    return simlab.summarize(t["deals"])


def test_convergence_zooms_each_panel_labels_claims_and_shows_unknowns(run: Path) -> None:
    t = tables(run)
    deals = t["deals"]
    # Beleaguered Castle under random play only: a low rate, which a shared 0-100 axis would flatten.
    deals = deals[(deals["game"] == "citadel") | (deals["policy"] == LONG)]
    figure = plots.convergence_figure(deals, t["claims"])
    tops = [axis.get_ylim()[1] for axis in figure.axes if axis.get_visible()]
    assert len(tops) == 2 and tops[1] < tops[0] < 100  # each panel its own limit
    citadel = figure.axes[0]
    # Claims are named in the panel's legend (issue 24: no label on the curves), unknowns
    # counted as wins are a dotted line of the policy's colour, named in the figure's legend.
    assert "claim: fake 30%" in citadel.get_legend_handles_labels()[1]
    fake = next(line for line in citadel.get_lines() if line.get_linestyle() == "-" and line.get_marker() != "None"
                and np.allclose(line.get_ydata()[-1], 100 * np.mean(deals[(deals["game"] == "citadel")
                                                                        & (deals["policy"] == "fake")]["verdict"]
                                                                  == "won")))
    assert any(line.get_linestyle() == ":" and line.get_color() == fake.get_color() for line in citadel.get_lines())
    assert "unknowns counted\nas wins" in [text.get_text() for text in figure.legends[0].get_texts()]


def test_cards_home_leaves_the_solver_out_and_says_so(run: Path) -> None:
    figure = plots.cards_home_figure(tables(run)["deals"])
    labels = [text.get_text() for axis in figure.axes for text in axis.get_legend().get_texts()]
    assert labels and not any(label.startswith("fake") for label in labels)
    assert "a deal the solver decided before a move is left out" in figure.get_suptitle()
    assert re.search(r"a deal the solver proved lost, or gave up on, before making a move .* left out",
                     (run / "report.md").read_text())


def test_a_run_whose_every_deal_fails_writes_its_report(tmp_path: Path) -> None:
    """Issue 44: every deal an error row (a policy that raises on each; the issue's policy
    killed its worker with os._exit, the same rows): the run ended in matplotlib's
    ValueError from the convergence legend and wrote no report.md. Now every table and
    report.md are written; the figures with nothing to show are left out."""
    output = tmp_path / "out"
    data = config(output, deals={"start": 1, "count": 3},
                  policies=[{"name": "experiment_helpers:Flaky", "label": "fails", "params": {"fail_rate": 1.0}}],
                  execution={"backend": "sequential"})
    with pytest.warns(RuntimeWarning, match="3 deal\\(s\\) failed"):
        frame = simlab.run(data, progress=False)
    assert (frame["verdict"] == "error").all() and len(frame) == 3
    for name in ("deals.csv", "summary.csv", "claims.csv", "comparisons.csv", "errors.txt", "report.md"):
        assert (output / name).is_file(), name
    assert "citadel: no deal was played." in (output / "report.md").read_text()
    assert not list(output.glob("*.png"))
