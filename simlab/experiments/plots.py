"""The report's figures, each a function from tables to a matplotlib ``Figure``.

Figures are built with ``matplotlib.figure.Figure`` (the Agg canvas), never
pyplot, so no global state or display is touched. Each is saved as PNG and SVG.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import matplotlib
import matplotlib.ticker
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from simlab.experiments import stats

WON, LOST, UNKNOWN, ERROR = "won", "lost", "unknown", "error"
FORMATS = ("png", "svg")
_COLOURS = matplotlib.colormaps["tab10"].colors
_VERDICT_COLOURS = {WON: "#2a9d8f", LOST: "#e76f51", UNKNOWN: "#8d99ae"}


def _policy_colours(policies: list[str]) -> dict[str, tuple[float, ...]]:
    return {policy: _COLOURS[i % len(_COLOURS)] for i, policy in enumerate(policies)}


def _labels(axis: Axes) -> list[str]:
    return axis.get_legend_handles_labels()[1]


def _grid(count: int, width: float = 4.6, height: float = 3.4) -> tuple[Figure, list[Axes]]:
    """A figure with one panel per game, at most three to a row."""
    columns = min(3, count)
    rows = math.ceil(count / columns)
    figure = Figure(figsize=(width * columns, height * rows), layout="constrained")
    axes = figure.subplots(rows, columns, squeeze=False).ravel().tolist()
    for spare in axes[count:]:
        spare.set_visible(False)
    return figure, axes[:count]


LABEL_WIDTH = 16  # characters per line of a wrapped tick or legend label


def _wrap(label: str) -> str:
    """A long label on several lines, broken after an underscore or at a space (labels of
    configs are often long identifiers such as beleaguered_castle)."""
    lines: list[str] = []
    for word in textwrap.wrap(str(label), LABEL_WIDTH, break_long_words=False) or [""]:
        line = ""
        for part in word.split("_"):
            piece = part if not line else "_" + part
            if line and len(line) + len(piece) > LABEL_WIDTH:
                lines.append(line + "_")
                piece = part
                line = ""
            line += piece
        lines.append(line)
    return "\n".join(lines)


def win_rate_figure(summary: pd.DataFrame, claims: pd.DataFrame) -> Figure:
    """Win rate by game and policy: bars with Wilson 95% intervals, the range
    with unknowns as grey lines beside the bars, and each claim as a black
    diamond (a claim with a tolerance as its interval). The legend sits below."""
    games, policies = list(summary["game"].unique()), list(summary["policy"].unique())
    width = 0.8 / len(policies)
    figure = Figure(figsize=(max(6.4, 1.9 * len(games) + 2), 5.0), layout="constrained")
    axis = figure.subplots()
    positions = {}
    for j, policy in enumerate(policies):
        x = np.arange(len(games)) + (j - (len(policies) - 1) / 2) * width
        rows = summary[summary["policy"] == policy].set_index("game").reindex(games)
        _policy_bars(axis, x, width, rows, _wrap(policy), _policy_colours(policies)[policy])
        positions.update({(game, policy): x[i] for i, game in enumerate(games)})
    for _, claim in claims.iterrows():
        if (claim["game"], claim["policy"]) in positions:
            _claim_mark(axis, positions[(claim["game"], claim["policy"])], claim)
    axis.set_xticks(np.arange(len(games)), [_wrap(game) for game in games])
    axis.set_ylabel("deals won (%)")
    # Zoom to the data (low win rates are unreadable on a 0-100 axis), with room for labels.
    top = np.nanmax([summary["wilson_high"].max(), summary["range_high"].max(),
                     (claims["claimed"] + claims["tolerance"]).max() if len(claims) else 0.0])
    axis.set_ylim(0, min(100.0, 100 * top * 1.15 + 2))
    figure.suptitle("Win rate by game and policy\n(bars: Wilson 95% interval)", fontsize="medium")
    axis.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), frameon=False, fontsize="small",
                ncol=min(4, len(policies) + 2))
    return figure


def _claim_mark(axis: Axes, x: float, claim: pd.Series) -> None:
    """A claim: a diamond at its figure, and its interval when it has a tolerance."""
    claimed, tolerance = claim["claimed"] * 100, claim["tolerance"] * 100
    if tolerance:
        axis.vlines(x, max(0.0, claimed - tolerance), min(100.0, claimed + tolerance), color="black",
                    linewidth=1.2, label=None if "claim ± tolerance" in _labels(axis) else "claim ± tolerance")
        axis.plot([x, x], [max(0.0, claimed - tolerance), min(100.0, claimed + tolerance)], "_",
                  color="black", markersize=10)
    axis.plot(x, claimed, "D", color="black", markersize=5,
              label=None if "claim" in _labels(axis) else "claim")


def _policy_bars(axis: Axes, x: np.ndarray, width: float, rows: pd.DataFrame, policy: str,
                 colour: tuple[float, ...]) -> None:
    """One policy's bars, labels, and (where there are unknowns) the unknown range."""
    rate = rows["win_rate"].to_numpy(float) * 100
    errors = np.vstack([rate - rows["wilson_low"] * 100, rows["wilson_high"] * 100 - rate])
    bars = axis.bar(x, rate, width * 0.9, color=colour, label=policy, yerr=errors, capsize=3,
                    error_kw={"elinewidth": 1})
    axis.bar_label(bars, labels=[f"{r:.1f}" if r == r else "" for r in rate], padding=2,
                   fontsize="x-small")
    unknown = rows["unknown"].fillna(0).to_numpy() > 0
    if unknown.any():
        axis.vlines(x[unknown] + width * 0.3, rows["range_low"][unknown] * 100,
                    rows["range_high"][unknown] * 100, color="dimgrey", linewidth=3, alpha=0.6,
                    label=None if "unknowns lost … won" in _labels(axis) else "unknowns lost … won")


def convergence_figure(frame: pd.DataFrame, claims: pd.DataFrame, level: float = stats.LEVEL) -> Figure:
    """The running win rate against deals played, with its Wilson band, one panel per
    game, each zoomed to its own data. Where a policy has unknowns, a dotted line of its
    colour counts them as wins (the solid line counts them as losses); claims are
    labelled dashed lines."""
    played = frame[frame["verdict"] != ERROR]
    games, policies = list(played["game"].unique()), list(played["policy"].unique())
    colours = _policy_colours(policies)
    figure, axes = _grid(max(1, len(games)))
    for axis, game in zip(axes, games):
        top = 0.0
        for policy, group in played[played["game"] == game].groupby("policy", sort=False):
            top = max(top, _running_rate(axis, group, colours[policy], _wrap(policy), level))
        for _, claim in claims[claims["game"] == game].iterrows():
            top = max(top, claim["claimed"] * 100)
            axis.axhline(claim["claimed"] * 100, color="black", linestyle="--", linewidth=0.8)
            axis.annotate(f"claim: {claim['policy']} {100 * claim['claimed']:.4g}%", fontsize="x-small",
                          xy=(1, claim["claimed"] * 100), xycoords=("axes fraction", "data"),
                          ha="right", va="bottom")
        axis.set(title=_wrap(game), xlabel="deals played", ylabel="running win rate (%)",
                 ylim=(0, min(102.0, top * 1.15 + 2)))  # 102: a 100% line stays visible
        axis.legend(title="policy", frameon=False, fontsize="x-small", loc="best")
    figure.suptitle("Convergence of the estimate\n(band: Wilson 95%; dashed: claims; dotted: "
                    "unknowns counted as wins)", fontsize="medium")
    return figure


def _running_rate(axis: Axes, group: pd.DataFrame, colour: tuple[float, ...], label: str,
                  level: float) -> float:
    """One policy's running rate and band (and, with unknowns, the rate counting them as won);
    returns the highest value drawn, in percent."""
    z = stats.z_value(level)
    n = np.arange(1, len(group) + 1)
    verdicts = group["verdict"].to_numpy()
    p = np.cumsum(verdicts == WON) / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    axis.plot(n, p * 100, color=colour, label=label, linewidth=1.4)
    axis.fill_between(n, (centre - half) * 100, (centre + half) * 100, color=colour, alpha=0.15, linewidth=0)
    top = float(np.max((centre + half)[min(len(n) - 1, 9):]) * 100)  # the first few deals swing widely
    if (verdicts == UNKNOWN).any():
        upper = np.cumsum((verdicts == WON) | (verdicts == UNKNOWN)) / n
        axis.plot(n, upper * 100, color=colour, linestyle=":", linewidth=1.2,
                  label=f"{label}: unknowns as wins")
        top = max(top, float(upper[-1] * 100))
    return top


def effort_figure(frame: pd.DataFrame) -> Figure | None:
    """Distribution of solver nodes per deal (log scale) by verdict; None without solver runs."""
    searched = frame[(frame["nodes"] > 0) & (frame["verdict"] != ERROR)]
    if searched.empty:
        return None
    cells = list(searched.groupby(["game", "policy"], sort=False))
    figure, axes = _grid(len(cells))
    for axis, ((game, policy), group) in zip(axes, cells):
        nodes = np.log10(group["nodes"].to_numpy(float))
        bins = np.linspace(nodes.min(), max(nodes.max(), nodes.min() + 1), 30)
        for verdict in (WON, LOST, UNKNOWN):
            values = np.log10(group.loc[group["verdict"] == verdict, "nodes"].to_numpy(float))
            if len(values):
                axis.hist(values, bins=bins, color=_VERDICT_COLOURS[verdict], alpha=0.7,
                          label=f"{verdict} ({len(values)})")
        axis.set(title=f"{game} / {policy}", xlabel="log10(nodes searched)", ylabel="deals")
        axis.legend(frameon=False, fontsize="small")
    figure.suptitle("Solver effort per deal")
    return figure


def cards_home_figure(frame: pd.DataFrame) -> Figure | None:
    """How far lost games got: cards on the foundations at the end, one panel per game.

    Only policies that play a game out: a searching policy (any deal with nodes
    searched, e.g. the solver) proves a deal lost without an end position, so its
    cells are left out (the title says so)."""
    searched = frame.groupby(["game", "policy"], sort=False)["nodes"].transform("max") > 0
    lost = frame[(frame["verdict"] == LOST) & ~searched]
    if lost.empty:
        return None
    games = list(lost["game"].unique())
    colours = _policy_colours(list(frame["policy"].unique()))
    figure, axes = _grid(len(games))
    bins = np.arange(0, 54) - 0.5
    for axis, game in zip(axes, games):
        for policy, group in lost[lost["game"] == game].groupby("policy", sort=False):
            axis.hist(group["cards_home"], bins=bins, histtype="step", linewidth=1.5,
                      color=colours[policy], label=f"{policy} ({len(group)})")
        axis.set(title=game, xlabel="cards on the foundations at the end", ylabel="lost deals",
                 xlim=(-0.5, min(52, lost["cards_home"].max() + 3) + 0.5))
        axis.legend(title="policy (lost)", frameon=False, fontsize="small")
    figure.suptitle("Cards home at the end of lost games\n(policies that play the deal out; "
                    "searching policies such as the solver are left out)", fontsize="medium")
    return figure


def critical_figure(frame: pd.DataFrame) -> Figure | None:
    """Distribution of the critical share (critical decisions per position with a choice,
    ``simlab.solver.critical``) over won deals, one panel per game, a line per policy;
    None when no deal has it."""
    if "critical_share" not in frame:
        return None
    counted = frame[(frame["verdict"] == WON) & frame["critical_share"].notna()]
    if counted.empty:
        return None
    games = list(counted["game"].unique())
    colours = _policy_colours(list(frame["policy"].unique()))
    figure, axes = _grid(len(games))
    bins = np.linspace(0.0, max(0.05, float(counted["critical_share"].max())) * 1.0001, 21)
    for axis, game in zip(axes, games):
        for policy, group in counted[counted["game"] == game].groupby("policy", sort=False):
            shares = group["critical_share"].to_numpy(float)
            axis.hist(shares, bins=bins, histtype="step", linewidth=1.5, color=colours[policy],
                      label=f"{_wrap(policy)} ({len(shares)}; median {100 * np.median(shares):.0f}%)")
        axis.set(title=_wrap(game), xlabel="critical share of decisions", ylabel="won deals")
        axis.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
        axis.legend(title="policy (won deals)", frameon=False, fontsize="x-small")
    figure.suptitle("Critical decisions along each won deal's line\n(positions where another legal move "
                    "was proved lost, per position with a choice)", fontsize="medium")
    return figure


_LEVEL_COLOURS = {"perfect play only": "#264653", "unwinnable": "#e76f51", "unknown": "#bfc5cc"}


def difficulty_figure(difficulty: pd.DataFrame) -> Figure | None:
    """One stacked bar per game: the share of its deals at each difficulty level, the
    easiest at the bottom, in ladder order (``ladder.difficulty_table``)."""
    if difficulty is None or not len(difficulty):
        return None
    games, levels = list(difficulty["game"].unique()), list(difficulty["difficulty"].unique())
    rungs = [level for level in levels if level not in _LEVEL_COLOURS]
    greens = matplotlib.colormaps["YlGn"](np.linspace(0.25, 0.85, max(len(rungs), 1)))
    colours = {**{rung: tuple(greens[i]) for i, rung in enumerate(rungs)}, **_LEVEL_COLOURS}
    figure = Figure(figsize=(max(6.4, 1.3 * len(games) + 3.5), 4.8), layout="constrained")
    axis = figure.subplots()
    bottom = np.zeros(len(games))
    for level in levels:
        rows = difficulty[difficulty["difficulty"] == level].set_index("game").reindex(games)
        shares = 100 * rows["share"].fillna(0.0).to_numpy()
        axis.bar(np.arange(len(games)), shares, 0.6, bottom=bottom, color=colours[level],
                 edgecolor="white", linewidth=0.5, label=_wrap(_seen(level, rows["information"])))
        bottom += shares
    axis.set_xticks(np.arange(len(games)), [_wrap(g) for g in games])
    axis.set(ylabel="deals (%)", ylim=(0, 100), title="Difficulty: the weakest player that wins each deal")
    handles, labels = axis.get_legend_handles_labels()
    # Legend top to bottom as the stack, outside the axes so it covers no bar.
    axis.legend(handles[::-1], labels[::-1], title="difficulty", frameon=False, fontsize="small",
                loc="center left", bbox_to_anchor=(1.01, 0.5))
    return figure


def _seen(label: str, information: pd.Series) -> str:
    """``label (open)``: what the player saw, when every game says the same."""
    seen = set(information.dropna()) - {""}
    return f"{label} ({seen.pop()})" if len(seen) == 1 else label


def skill_curve_figure(curve: pd.DataFrame) -> Figure | None:
    """Win rate against thinking budget: one line per game through the rungs (ladder
    order) to perfect play, on a log "positions searched per move" axis, with Wilson
    bands (``ladder.skill_curve``)."""
    if curve is None or not len(curve):
        return None
    figure = Figure(figsize=(8.4, 5.0), layout="constrained")
    axis = figure.subplots()
    for i, (game, group) in enumerate(curve.groupby("game", sort=False)):
        colour = _COLOURS[i % len(_COLOURS)]
        group = group.sort_values("position")
        axis.plot(group["x"], 100 * group["win_rate"], marker="o", color=colour, label=_wrap(game))
        axis.fill_between(group["x"], 100 * group["wilson_low"], 100 * group["wilson_high"],
                          color=colour, alpha=0.15, linewidth=0)
    ticks = curve.drop_duplicates("position").sort_values("position")
    last = ticks["position"].max()
    names = [f"{r.policy}\n({r.budget:,})" if not pd.isna(r.budget) else str(r.policy)
             for r in ticks.itertuples()]
    names[-1] += "\nperfect play" + _seen("", curve[curve["position"] == last]["information"])
    axis.set_xscale("log")
    axis.set_xticks(ticks["x"].tolist(), names, rotation=30, ha="right", fontsize="small")
    axis.minorticks_off()
    axis.set(xlabel="player, placed by positions searched per move (log scale; non-searching "
                    "players left, perfect play right)", ylabel="deals won (%)", ylim=(-2, 102),
             title="Skill curve: win rate by player (Wilson 95% bands)")
    axis.grid(axis="y", alpha=0.3)
    axis.legend(title="game", frameon=False, fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    return figure


def save_figures(folder: Path, frame: pd.DataFrame, summary: pd.DataFrame,
                 claims: pd.DataFrame, difficulty: pd.DataFrame | None = None,
                 curve: pd.DataFrame | None = None) -> list[str]:
    """Draw and save every figure that has data; return their names (without extension)."""
    figures = {
        "win_rates": win_rate_figure(summary, claims) if len(summary) else None,
        "convergence": convergence_figure(frame, claims) if len(frame) else None,
        "solver_effort": effort_figure(frame),
        "cards_home_lost": cards_home_figure(frame),
        "critical_decisions": critical_figure(frame),
        "difficulty": difficulty_figure(difficulty),
        "skill_curve": skill_curve_figure(curve),
    }
    saved = []
    for name, figure in figures.items():
        if figure is None:
            continue
        for extension in FORMATS:
            # A fixed hash salt and no date keep SVG files identical between rebuilds.
            with matplotlib.rc_context({"svg.hashsalt": "simlab"}):
                figure.savefig(Path(folder) / f"{name}.{extension}", dpi=120,
                               metadata={"Date": None} if extension == "svg" else None)
        saved.append(name)
    return saved
