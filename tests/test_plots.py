"""The figures read right for every game (issue 24): drawn from hand-made per-deal
tables of a one-deck game (52 cards, open) and a two-deck one (104 cards, hidden
cards: fair and thoughtful players), with no game played. Each test checks an axis
or a legend against the data it shows."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from simlab.experiments import plots
from simlab.experiments.config import Ladder, config_from_dict
from simlab.experiments.frames import DEAL_COLUMNS, TRY_COLUMNS
from simlab.experiments.ladder import difficulty_column, difficulty_table, skill_curve
from simlab.experiments.report import game_cards, write_reports
from simlab.experiments.tables import summarize

matplotlib.use("Agg")

CARDS = {"castle": 52, "windmill": 104}
DEALS = 60


def cell(game: str, policy: str, information: str, verdicts: list[str], cards_home: list[int],
         nodes: list[int] | None = None) -> pd.DataFrame:
    """The per-deal rows of one cell, deals 1..n, shaped like ``deals.csv``'s: a searching
    cell (``nodes``) ends as the solver does (no move made unless won), a player's
    lost deal with no legal move left after 40 moves."""
    n = len(verdicts)
    searching = nodes is not None
    ends = {"won": "won", "lost": "exhausted" if searching else "no_moves", "unknown": "budget"}
    return pd.DataFrame({
        "game": game, "policy": policy, "information": information, "deal": np.arange(1, n + 1),
        "verdict": verdicts, "end_reason": [ends[v] for v in verdicts],
        "moves": [40 if v == "won" or not searching else 0 for v in verdicts],
        "cards_home": cards_home, "nodes": nodes if nodes is not None else 0,
        "cpu_seconds": 0.01, "error": "",
    })


def spread(low: int, high: int, n: int = DEALS) -> list[int]:
    """``n`` card counts spread evenly from ``low`` to ``high``."""
    return np.linspace(low, high, n).round().astype(int).tolist()


@pytest.fixture(scope="module")
def deals() -> pd.DataFrame:
    return make_deals()


@pytest.fixture(scope="module")
def claims() -> pd.DataFrame:
    return make_claims()


def make_deals() -> pd.DataFrame:
    """Castle (one deck): random wins nothing, greedy the same (one curve), the solver
    18 deals with 6 proved lost at the first position and 12 unknowns. Windmill (two
    decks): players lose with 55 to 103 cards home; the thoughtful solver wins 20 with
    36 unknowns (its range reaches near 100%), the fair one 10."""
    rng = np.random.default_rng(7)
    lost_castle = ["lost"] * DEALS
    solver = ["won"] * 18 + ["lost"] * 6 + ["unknown"] * 12 + ["won"] * 12 + ["lost"] * 12
    solver_nodes = ([500] * 18 + [1] * 6 + [20000] * 12 + [900] * 12 + [300] * 12)
    thoughtful = ["won"] * 20 + ["unknown"] * 36 + ["lost"] * 4
    fair = ["won"] * 10 + ["lost"] * 50
    parts = [
        cell("castle", "random", "open", lost_castle, spread(0, 20)),
        cell("castle", "greedy", "open", lost_castle, spread(2, 30)),
        cell("castle", "solver", "open", solver, [52 if v == "won" else 0 for v in solver], solver_nodes),
        cell("windmill", "random", "fair", ["won"] * 3 + ["lost"] * (DEALS - 3),
             [104] * 3 + spread(55, 103, DEALS - 3)),
        cell("windmill", "greedy", "fair", ["won"] * 5 + ["lost"] * (DEALS - 5),
             [104] * 5 + spread(60, 100, DEALS - 5)),
        cell("windmill", "solver_thoughtful", "thoughtful", thoughtful, [104 if v == "won" else 8 for v in thoughtful],
             rng.integers(1000, 200000, DEALS).tolist()),
        cell("windmill", "solver_fair", "fair", fair, [104 if v == "won" else 8 for v in fair],
             rng.integers(5000, 90000, DEALS).tolist()),
    ]
    return pd.concat(parts, ignore_index=True)


def make_claims() -> pd.DataFrame:
    """Two claims on the castle's solver (one with a tolerance); on Windmill one below a bar's
    interval and one just above another's, where that bar's label would go."""
    return pd.DataFrame({"game": ["castle", "castle", "windmill", "windmill"],
                         "policy": ["solver", "solver", "greedy", "random"],
                         "claimed": [0.68, 0.5, 0.1, 0.16], "tolerance": [0.0, 0.05, 0.0, 0.0]})


def drawn(figure: Figure) -> list:
    """The figure's visible panels, once laid out as when saved."""
    figure.draw_without_rendering()
    return [axis for axis in figure.axes if axis.get_visible()]


def panel(figure: Figure, title: str):
    return next(axis for axis in drawn(figure) if axis.get_title().split(" /")[0] == title)


def overlaps(a: Bbox, b: Bbox) -> bool:
    return a.x0 < b.x1 - 1 and b.x0 < a.x1 - 1 and a.y0 < b.y1 - 1 and b.y0 < a.y1 - 1


def test_cards_home_runs_to_each_games_cards_and_shows_every_lost_deal(deals: pd.DataFrame) -> None:
    for cards in (CARDS, None):  # given by the config, or read off the data
        figure = plots.cards_home_figure(deals, cards)
        for game, total in CARDS.items():
            axis = panel(figure, game)
            low, high = axis.get_xlim()
            lost = deals[(deals["game"] == game) & (deals["verdict"] == "lost") & (deals["nodes"] == 0)]
            assert high >= total and high <= total + 1
            assert lost["cards_home"].between(low, high).all()
            assert f"(of {total})" in axis.get_xlabel()
            counted = sum(patch.get_path().vertices[:, 1].max() > 0 for patch in axis.patches)
            assert counted == 2  # both players' lost deals are drawn, none is empty
        assert panel(figure, "windmill").get_xticks().max() == 104


def test_win_rate_axis_holds_every_interval_and_unknown_and_marks_what_the_player_saw(
        deals: pd.DataFrame, claims: pd.DataFrame) -> None:
    summary = summarize(deals)
    figure = plots.win_rate_figure(summary, claims)
    (axis,) = drawn(figure)
    tops = 100 * np.maximum(summary["range_high"], (summary["won"] + summary["unknown"]) / summary["played"])
    assert tops.max() > 95  # the thoughtful solver's range nearly reaches 100%
    assert axis.get_ylim()[1] >= max(tops.max(), 100 * summary["wilson_high"].max()) + 1
    assert max(axis.get_yticks()) <= 100  # no tick past 100%
    hatches = {patch.get_hatch() or "" for patch in axis.patches if patch.get_height() > 0}
    assert {"////", ".."} <= hatches  # thoughtful and fair bars
    labels = [text.get_text() for text in axis.get_legend().get_texts()]
    assert any(label.startswith("thoughtful") for label in labels)
    assert any(label.startswith("fair") for label in labels)
    # every swatch of what a player saw matches bars drawn: an open bar has no hatching, so no swatch
    assert not any(label.startswith("open") for label in labels)
    swatches = [h for h in axis.get_legend().legend_handles if h.get_label().startswith(("fair", "thoughtful"))]
    assert swatches and all(h.get_hatch() in hatches for h in swatches)
    legend = axis.get_legend().get_window_extent()
    assert legend.y1 <= axis.get_window_extent().y0 and legend.x0 >= 0 and legend.x1 <= figure.bbox.x1
    diamonds = [axis.transData.transform(xy) for line in axis.get_lines() if line.get_marker() == "D"
                for xy in line.get_xydata()]
    assert len(diamonds) == len(claims)
    for text in axis.texts:  # every bar's label inside the axes, clear of the claims
        box = text.get_window_extent()
        assert box.y1 <= axis.get_window_extent().y1 + 1
        assert not any(box.overlaps(Bbox.from_extents(x - 5, y - 5, x + 5, y + 5)) for x, y in diamonds)


def test_convergence_keeps_legends_off_the_curves_and_names_hidden_ones(
        deals: pd.DataFrame, claims: pd.DataFrame) -> None:
    figure = plots.convergence_figure(deals, claims)
    axes = drawn(figure)
    assert len(axes) == 2
    for axis in axes:
        box = axis.get_window_extent()
        legend = axis.get_legend()
        assert legend is not None and not overlaps(legend.get_window_extent(), box)
    for legend in figure.legends:  # the policies' legend, below every panel
        assert legend.get_window_extent().y1 <= min(axis.get_window_extent().y0 for axis in axes)
    castle = panel(figure, "castle")
    notes = " ".join(text.get_text().replace("\n", " ") for text in castle.get_legend().get_texts())
    assert "no deal won" in notes and "random, greedy" in notes
    assert "claim: solver 68%" in notes and "claim: solver 50% ± 5" in notes
    # No band for the two policies that won nothing: only the solver's.
    assert len([c for c in castle.collections if type(c).__name__ == "FillBetweenPolyCollection"
                or type(c).__name__ == "PolyCollection"]) == 1
    assert castle.get_ylim()[0] < 0 < 100 * 0.6 < castle.get_ylim()[1]


def test_a_zero_bar_is_drawn_and_labelled(deals: pd.DataFrame, claims: pd.DataFrame) -> None:
    """The castle's random and greedy players won nothing: each bar is a stroke of its own
    colour on the axis, as wide as a bar, not an empty slot under a whisker."""
    summary = summarize(deals[deals["game"] == "castle"])
    figure = plots.win_rate_figure(summary, claims)
    (axis,) = drawn(figure)
    colours = plots._policy_colours(summary["policy"].tolist())
    strokes = [(segment, collection.get_colors()[0]) for collection in axis.collections
               if collection.get_linewidth()[0] >= 3 for segment in collection.get_segments()]
    zero = summary[summary["win_rate"] == 0]["policy"].tolist()
    assert zero == ["random", "greedy"]
    for policy in zero:
        bar = next(s for s, colour in strokes if np.allclose(colour[:3], colours[policy][:3]))
        assert np.allclose(bar[:, 1], 0) and bar[1, 0] - bar[0, 0] > 0.1  # on the axis, a bar wide
    assert len(strokes) == len(zero)  # the solver's bar has height: no stroke
    assert [t.get_text() for t in axis.texts][:2] == ["0.0", "0.0"]


def test_the_effort_figure_is_titled_for_what_searched(deals: pd.DataFrame) -> None:
    castle = deals[deals["game"] == "castle"]
    looking = castle.assign(policy=castle["policy"].replace({"solver": "lookahead_100"}))
    names = {"solver": "solver", "lookahead_100": "lookahead", "random": "random", "greedy": "greedy"}
    assert plots.effort_figure(castle, names).get_suptitle().startswith("Solver effort per deal")
    assert plots.effort_figure(looking, names).get_suptitle().startswith("Lookahead effort per deal")
    both = pd.concat([castle, looking[looking["policy"] == "lookahead_100"]])
    assert plots.effort_figure(both, names).get_suptitle().startswith("Search effort per deal")
    assert plots.effort_figure(castle).get_suptitle().startswith("Search effort")  # names unknown: not guessed


def test_effort_panels_share_one_scale_and_name_the_losses_before_a_move(deals: pd.DataFrame) -> None:
    figure = plots.effort_figure(deals)
    axes = drawn(figure)
    assert len(axes) == 3
    limits = {axis.get_xlim() for axis in axes}
    assert len(limits) == 1
    low, high = limits.pop()
    searched = deals[deals["nodes"] > 0]["nodes"]
    assert low <= searched.min() and high >= searched.max()
    castle = panel(figure, "castle")
    assert any("6 proved lost" in text.get_text() for text in castle.texts)
    assert "before any move" in figure.get_suptitle()


def test_the_report_gives_the_figures_each_games_cards(tmp_path: Path, deals: pd.DataFrame,
                                                      claims: pd.DataFrame) -> None:
    config = config_from_dict({"name": "cards", "root_seed": 0, "deals": {"start": 1, "count": 2},
                               "games": ["beleaguered_castle", {"name": "windmill", "label": "mill"},
                                         "castle_of_indolence"],
                               "policies": ["random"]}, source="test")
    assert game_cards(config) == {"beleaguered_castle": 52, "mill": 104, "castle_of_indolence": 104}
    saved = plots.save_figures(tmp_path, deals, summarize(deals), claims, cards=CARDS)
    assert {"win_rates", "convergence", "solver_effort", "cards_home_lost"} <= set(saved)
    assert (tmp_path / "cards_home_lost.png").stat().st_size > 0


def test_titles_fit_a_one_panel_figure(deals: pd.DataFrame, claims: pd.DataFrame) -> None:
    """A single game and cell: the narrowest figures, whose titles wrap rather than run off."""
    castle = deals[deals["game"] == "castle"]
    figures = [plots.convergence_figure(castle[castle["policy"] == "solver"], claims),
               plots.effort_figure(castle), plots.cards_home_figure(castle[castle["policy"] == "random"], CARDS),
               plots.win_rate_figure(summarize(castle[castle["policy"] == "solver"]), claims)]
    for figure in figures:
        drawn(figure)
        title = figure._suptitle.get_window_extent()
        assert title.x0 >= -1 and title.x1 <= figure.bbox.x1 + 1, figure.get_suptitle()
        for legend in figure.legends + [axis.get_legend() for axis in figure.axes if axis.get_legend()]:
            box = legend.get_window_extent()
            assert box.x0 >= -1 and box.x1 <= figure.bbox.x1 + 1


def test_cards_home_keeps_players_that_search_as_they_play(deals: pd.DataFrame) -> None:
    """A lookahead player counts nodes too, but plays its deals out: its lost deals stay."""
    looking = cell("castle", "lookahead", "open", ["lost"] * 6 + ["won"] * 2, spread(10, 40, 8))
    looking["nodes"] = 1000  # searched before every move, and made its moves
    looking["end_reason"] = ["gave_up"] * 6 + ["won"] * 2
    figure = plots.cards_home_figure(pd.concat([deals, looking], ignore_index=True), CARDS)
    labels = [text.get_text() for text in panel(figure, "castle").get_legend().get_texts()]
    assert any(label.startswith("lookahead (6)") for label in labels)
    assert not any(label.startswith("solver") for label in labels)  # decided before a move


# ----- any subset of results (issue 44): every figure drawn, or left out when it has no data ------
EDGE_CASES = ("no rows", "all errors", "none won", "none finished", "one cell all errors")
LADDER = Ladder(rungs=("random", "greedy"), perfect="solver", tries=1)


def edge_case(deals: pd.DataFrame, case: str) -> pd.DataFrame:
    """The per-deal table of ``make_deals`` (the solver's won castle deals with critical
    counts) as a run could leave it: no rows, every deal an error row (``worker.failure_row``:
    no moves, no nodes), no deal won, no deal played to a win or a loss (all unknown), one
    cell's every deal failed."""
    won = deals["verdict"] == "won"
    counted = won & (deals["policy"] == "solver")
    deals = deals.assign(critical_decisions=np.where(counted, 3, np.nan),
                         decision_positions=np.where(counted, 30, np.nan),
                         critical_share=np.where(counted, 0.1, np.nan),
                         critical_undecided=np.where(counted, 0, np.nan))
    failed = {"verdict": "error", "end_reason": "worker_died", "moves": 0, "cards_home": 0, "nodes": 0,
              "error": "WorkerDied: exit status 3", "critical_decisions": np.nan,
              "decision_positions": np.nan, "critical_share": np.nan, "critical_undecided": np.nan}
    if case == "no rows":
        return deals.iloc[0:0]
    if case == "all errors":
        return deals.assign(**failed)
    if case == "none won":
        return deals.assign(verdict=deals["verdict"].replace("won", "lost"),
                            end_reason=np.where(won, "no_moves", deals["end_reason"]),
                            critical_share=np.nan)
    if case == "none finished":
        return deals.assign(verdict="unknown", end_reason="budget", moves=0, critical_share=np.nan)
    one = deals["policy"] == "greedy"
    return pd.concat([deals[~one], deals[one].assign(**failed)], ignore_index=True)


EXPECTED = {  # the figures with something to show in each case
    "no rows": set(),
    "all errors": {"difficulty"},  # every deal's difficulty is unknown: a bar says so
    "none won": {"win_rates", "convergence", "solver_effort", "cards_home_lost", "difficulty", "skill_curve"},
    "none finished": {"win_rates", "convergence", "solver_effort", "difficulty", "skill_curve"},
    "one cell all errors": {"win_rates", "convergence", "solver_effort", "cards_home_lost",
                            "critical_decisions", "difficulty", "skill_curve"},
}


@pytest.mark.parametrize("case", EDGE_CASES)
def test_every_figure_is_drawn_or_left_out_from_any_subset_of_results(
        tmp_path: Path, deals: pd.DataFrame, claims: pd.DataFrame, case: str) -> None:
    """No figure raises on a degenerate table (the convergence legend of a run whose every
    deal failed raised ValueError from matplotlib: no policy, ncol=0); each is drawn when
    it has data and is None when it has none, and save_figures saves exactly those."""
    frame = edge_case(deals, case)
    summary = summarize(frame)
    castle = frame[frame["game"] == "castle"]
    ranked = castle.assign(difficulty=difficulty_column(castle, None, LADDER))
    difficulty = difficulty_table(ranked, LADDER)
    curve = skill_curve(summarize(castle), ranked, None, LADDER, [])
    figures = {
        "win_rates": plots.win_rate_figure(summary, claims),
        "convergence": plots.convergence_figure(frame, claims),
        "solver_effort": plots.effort_figure(frame),
        "cards_home_lost": plots.cards_home_figure(frame, CARDS),
        "critical_decisions": plots.critical_figure(frame),
        "difficulty": plots.difficulty_figure(difficulty),
        "skill_curve": plots.skill_curve_figure(curve),
    }
    assert {name for name, figure in figures.items() if figure is not None} == EXPECTED[case]
    # saved: each laid out and rendered, legends included
    saved = plots.save_figures(tmp_path, frame, summary, claims, difficulty, curve, CARDS)
    assert set(saved) == EXPECTED[case]
    assert all((tmp_path / f"{name}.{extension}").stat().st_size > 0
               for name in saved for extension in plots.FORMATS)


def test_a_run_whose_every_deal_failed_writes_every_table_and_the_report(tmp_path: Path) -> None:
    """Every deal an error row (a ladder too): every table and report.md are written, the
    figures that have nothing to show are left out, and the report says the deals failed."""
    config = config_from_dict({"name": "failed", "root_seed": 0, "deals": {"start": 1, "count": 3},
                               "games": ["citadel"], "policies": ["random", "greedy", "solver"],
                               "ladder": {"rungs": ["random", "greedy"], "perfect": "solver", "tries": 2}},
                              source="test")
    rows = [{"game": "citadel", "policy": policy, "information": "open", "deal": deal, "verdict": "error",
             "end_reason": "worker_died", "moves": 0, "cards_home": 0, "nodes": 0, "cpu_seconds": 0.0,
             "error": "WorkerDied: exit status 3"} for policy in ("random", "greedy", "solver") for deal in (1, 2, 3)]
    frame = pd.DataFrame(rows, columns=list(DEAL_COLUMNS))
    tables = write_reports(tmp_path, config, frame, {"sessions": []}, None, pd.DataFrame(columns=list(TRY_COLUMNS)))
    for name in ("deals", "summary", "brackets", "claims", "comparisons", "difficulty", "skill_curve"):
        assert (tmp_path / f"{name}.csv").is_file()
    assert tables["summary"]["failed"].tolist() == [3, 3, 3]
    assert set(tables["difficulty"].query("deals > 0")["difficulty"]) == {"unknown"}
    report = (tmp_path / "report.md").read_text()
    assert "citadel" in report
    assert not (tmp_path / "win_rates.png").exists() and not (tmp_path / "convergence.png").exists()
    assert (tmp_path / "difficulty.png").is_file()
