"""The report's figures, each a function from tables to a matplotlib ``Figure``.

Figures are built with ``matplotlib.figure.Figure`` (the Agg canvas), never
pyplot, so no global state or display is touched. Each is saved as PNG and SVG.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Mapping

import matplotlib
import matplotlib.ticker
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from simlab.experiments import stats

WON, LOST, UNKNOWN, ERROR = "won", "lost", "unknown", "error"
FORMATS = ("png", "svg")
_COLOURS = matplotlib.colormaps["tab10"].colors
_VERDICT_COLOURS = {WON: "#2a9d8f", LOST: "#e76f51", UNKNOWN: "#8d99ae"}


def _policy_colours(policies: list[str]) -> dict[str, tuple[float, ...]]:
    return {policy: _COLOURS[i % len(_COLOURS)] for i, policy in enumerate(policies)}


def _labels(axis: Axes) -> list[str]:
    return axis.get_legend_handles_labels()[1]


def _grid(count: int, width: float = 4.6, height: float = 3.4, columns: int = 3
          ) -> tuple[Figure, list[Axes]]:
    """A figure with one panel per game, at most ``columns`` to a row."""
    columns = min(columns, count)
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


_HATCHES = {"open": "", "fair": "..", "thoughtful": "////"}
_INFORMATION_TEXT = {"open": "open: the game hides nothing", "fair": "fair: sees what a player sees",
                     "thoughtful": "thoughtful: sees hidden cards\nand shuffles (an upper bound)"}
_UNKNOWN_SEGMENT = 0.35  # opacity of the share of unknowns stacked on a bar
# How a search ends: with no move made, such a row has no end position to count cards of.
UNPLAYED_ENDS = ("exhausted", "budget", "memory")


def _suptitle(figure: Figure, text: str, fontsize: str = "medium") -> None:
    """The figure's title, each line wrapped to the figure's width (about 12 characters an
    inch at the medium size), so that a narrow figure does not clip it."""
    width = max(30, int(figure.get_figwidth() * 12))
    lines = [part for line in text.split("\n") for part in textwrap.wrap(line, width) or [""]]
    figure.suptitle("\n".join(lines), fontsize=fontsize)


def _title(label: str, width: int = 40) -> str:
    """A panel's title: the label, wrapped only when longer than ``width`` characters."""
    return label if len(label) <= width else _wrap(label)


def win_rate_figure(summary: pd.DataFrame, claims: pd.DataFrame) -> Figure | None:
    """Win rate by game and policy: bars with Wilson 95% intervals; a pale segment
    on a bar is its share of unknowns, and a grey whisker above the interval runs to
    its top with every unknown counted won (Blake and Gent's range); hatching says
    what the player saw (``information``); each claim is a white diamond beside its
    bar (a claim with a tolerance with its interval); each bar's label sits above all
    that is drawn on it; a 0% bar is a thick stroke of its colour on the axis. The axis
    fits all of it; the legend sits below. None when no deal was played to a verdict (no
    rows, or every deal failed): there is no rate to draw."""
    if not len(summary) or not (summary["played"].fillna(0) > 0).any():
        return None
    games, policies = list(summary["game"].unique()), list(summary["policy"].unique())
    width = min(0.4, 0.8 / len(policies))  # one policy: a bar, not a slab
    figure = Figure(figsize=(max(6.4, 1.9 * len(games) + 2), 5.0), layout="constrained")
    axis = figure.subplots()
    # Narrow bars get their labels on end, so that neighbours' labels do not run together.
    upright = width * figure.get_figwidth() / (len(games) + 0.5) < 0.4
    colours, positions, tops, rates = _policy_colours(policies), {}, {}, {}
    for j, policy in enumerate(policies):
        x = np.arange(len(games)) + (j - (len(policies) - 1) / 2) * width
        rows = summary[summary["policy"] == policy].set_index("game").reindex(games)
        drawn = _policy_bars(axis, x, width, rows, colours[policy])
        for i, game in enumerate(games):
            positions[(game, policy)], tops[(game, policy)] = x[i], drawn[i]
            rates[(game, policy)] = 100 * rows["win_rate"].iloc[i]
    marks: dict[tuple[str, str], list[tuple[float, float]]] = {cell: [] for cell in positions}
    for _, claim in claims.iterrows():
        cell = (claim["game"], claim["policy"])
        if cell in positions:
            marks[cell].append(_claim_mark(axis, positions[cell] + 0.25 * width, claim))
    axis.set_xticks(np.arange(len(games)), [_wrap(game) for game in games])
    axis.set_xlim(-0.5, len(games) - 0.5)
    axis.set_ylabel("deals won (%)")
    headroom = (0.13 if upright else 0.07) + (0.03 if len(claims) else 0.0)
    top = float(np.nanmax([0.0, *tops.values(), *(high for spans in marks.values() for _, high in spans)]))
    limit = _fit_rates(axis, top, headroom)
    for cell, rate in rates.items():
        if rate == rate:
            axis.annotate(f"{rate:.1f}", (positions[cell], _label_height(tops[cell], marks[cell], limit, headroom)),
                          xytext=(0, 2), textcoords="offset points", ha="center", va="bottom",
                          fontsize="x-small", rotation=90 if upright else 0)
    _suptitle(figure, "Win rate by game and policy\n(bars: Wilson 95% interval)")
    kinds = summary["information"].dropna().unique().tolist() if "information" in summary else []
    handles = _legend_handles(axis, policies, kinds)
    # As many columns as the figure's width holds (an entry takes up to about 2.4 inches).
    columns = max(1, min(4, len(handles), int(figure.get_figwidth() // 2.4)))
    axis.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.12), frameon=False,
                fontsize="small", ncol=columns)
    return figure


def _fit_rates(axis: Axes, top: float, headroom: float) -> float:
    """Zoom to the data (low rates are unreadable on a 0-100 axis), keeping every interval
    and ``headroom`` (a share of the axis) above it for the labels; ticks stop at 100%.
    Returns the axis's top."""
    limit = (top + 1.0) / (1.0 - headroom)
    axis.set_ylim(0, limit)
    axis.yaxis.set_major_locator(_RatesLocator())
    return limit


def _label_height(top: float, marks: list[tuple[float, float]], limit: float, headroom: float) -> float:
    """Where a bar's label goes: above its interval, and above a claim drawn beside it only
    when the claim would run through the label (``headroom`` of the axis tall)."""
    pad = 0.03 * limit
    for low, high in sorted(marks):
        if low - pad < top + (headroom - 0.03) * limit and high + pad > top:
            top = high + pad
    return top


def _legend_handles(axis: Axes, policies: list[str], kinds: list[str]) -> list[Artist]:
    """The policies' colours, then what the axis labelled (unknowns, claims), then the
    hatching of each kind of player shown (``information``): ``fair`` and ``thoughtful``
    (an ``open`` bar has no hatching, so no swatch of its own)."""
    colours = _policy_colours(policies)
    handles: list[Artist] = [Patch(facecolor=colours[policy], label=_wrap(policy)) for policy in policies]
    handles += axis.get_legend_handles_labels()[0]
    return handles + [Patch(facecolor="#a0a0a0", edgecolor="white", hatch=_HATCHES[kind], linewidth=0,
                            label=_INFORMATION_TEXT[kind]) for kind in _HATCHES if kind in kinds and _HATCHES[kind]]


def _claim_mark(axis: Axes, x: float, claim: pd.Series) -> tuple[float, float]:
    """A claim: a diamond at its figure, and its interval when it has a tolerance, at ``x``
    (beside the bar's own interval); returns its bottom and top in percent."""
    claimed, tolerance = claim["claimed"] * 100, claim["tolerance"] * 100
    if tolerance:
        axis.vlines(x, max(0.0, claimed - tolerance), min(100.0, claimed + tolerance), color="black",
                    linewidth=1.2, label=None if "claim ± tolerance" in _labels(axis) else "claim ± tolerance")
        axis.plot([x, x], [max(0.0, claimed - tolerance), min(100.0, claimed + tolerance)], "_",
                  color="black", markersize=10)
    axis.plot(x, claimed, "D", markerfacecolor="white", markeredgecolor="black", markersize=6,
              linestyle="none", label=None if "claim" in _labels(axis) else "claim")
    return max(0.0, claimed - tolerance), min(100.0, claimed + tolerance)


def _policy_bars(axis: Axes, x: np.ndarray, width: float, rows: pd.DataFrame,
                 colour: tuple[float, ...]) -> np.ndarray:
    """One policy's bars (hatched by what the player saw), their share of unknowns and
    intervals; returns the top of what is drawn at each bar, in percent."""
    rate = rows["win_rate"].to_numpy(float) * 100
    hatches = [_HATCHES.get(kind, "") for kind in rows.get("information", pd.Series("", rows.index)).fillna("")]
    bars = axis.bar(x, rate, width * 0.9, color=colour, edgecolor="white", linewidth=0)
    for bar, hatch in zip(bars, hatches):
        bar.set_hatch(hatch)
    zero = rate == 0  # a bar of no height: drawn as a thick stroke on the axis, so it is seen
    if zero.any():
        axis.hlines(np.zeros(int(zero.sum())), x[zero] - width * 0.45, x[zero] + width * 0.45, colors=[colour],
                    linewidth=_ZERO_BAR_WIDTH, clip_on=False, zorder=3)
    played = rows["played"].fillna(0).to_numpy(float)  # 0 for a cell whose every deal failed
    unknown = np.divide(rows["unknown"].fillna(0).to_numpy(float), played, out=np.zeros(len(played)),
                        where=played > 0) * 100
    shown = np.nan_to_num(unknown) > 0
    if shown.any():
        axis.bar(x[shown], unknown[shown], width * 0.9, bottom=rate[shown], color=colour,
                 alpha=_UNKNOWN_SEGMENT, linewidth=0)
        if _UNKNOWN_LABEL not in _labels(axis):  # a grey proxy: the segments take their bar's colour
            axis.bar([x[0]], [0], color="grey", alpha=_UNKNOWN_SEGMENT, linewidth=0, label=_UNKNOWN_LABEL)
        axis.vlines(x[shown], rows["wilson_high"][shown] * 100, rows["range_high"][shown] * 100,
                    color="dimgrey", linewidth=2.5,
                    label=None if _RANGE_LABEL in _labels(axis) else _RANGE_LABEL)
    low, high = rows["wilson_low"].to_numpy(float) * 100, rows["wilson_high"].to_numpy(float) * 100
    axis.errorbar(x, rate, yerr=np.vstack([rate - low, high - rate]), fmt="none", ecolor="black",
                  elinewidth=1, capsize=3)
    return np.fmax(high, np.where(shown, rows["range_high"].to_numpy(float) * 100, high))


_RANGE_LABEL = "95% top with unknowns won"
_ZERO_BAR_WIDTH = 4.0  # points: how thick a 0% bar is drawn
_UNKNOWN_LABEL = "unknown (budget ran out)"
# Dashes for claims, none of them dotted (dots are a policy's unknowns counted as wins).
_CLAIM_STYLES = ((0, (5, 2)), (0, (9, 3, 2, 3)), (0, (14, 4)), (0, (3, 2, 3, 2, 9, 2)))
_MARKERS = ("o", "s", "^", "v", "D", "P", "X", "<", ">", "*")


def convergence_figure(frame: pd.DataFrame, claims: pd.DataFrame, level: float = stats.LEVEL) -> Figure | None:
    """The running win rate against deals played, with its Wilson band, one panel per
    game, each zoomed to its own data. Each policy has its colour and marker (one legend
    below the panels), and is drawn thinner than the one before, so curves that coincide
    stay visible; each panel's own legend, beside it, names its claims (dashed lines, a
    tolerance as a grey band) and the policies whose curves coincide. Where a policy has
    unknowns, a dotted line of its colour counts them as wins (the solid line counts them
    as losses). A policy that won no deal has no band. None when no deal was played to a
    verdict (no rows, or every deal failed)."""
    played = frame[frame["verdict"] != ERROR]
    if played.empty:
        return None
    games, policies = list(played["game"].unique()), list(played["policy"].unique())
    colours = _policy_colours(policies)
    markers = {policy: _MARKERS[i % len(_MARKERS)] for i, policy in enumerate(policies)}
    figure, axes = _grid(max(1, len(games)), width=6.4, height=3.3, columns=2)
    for axis, game in zip(axes, games):
        groups = played[played["game"] == game].groupby("policy", sort=False)
        curves = {policy: _running(group["verdict"].to_numpy()) for policy, group in groups}
        top = 0.0
        for k, (policy, curve) in enumerate(curves.items()):
            style = {"color": colours[policy], "marker": markers[policy],
                     "linewidth": max(1.0, 3.2 - 0.55 * k), "zorder": 2 + 0.1 * k}
            top = max(top, _running_rate(axis, curve, style, level, k, len(curves)))
        top = max([top] + _claim_lines(axis, claims[claims["game"] == game]))
        axis.set(title=_title(game), xlabel="deals played", ylabel="running win rate (%)",
                 ylim=(-2, min(102.0, max(10.0, top * 1.15 + 2))))  # -2, 102: a 0% or 100% line shows
        axis.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        axis.yaxis.set_major_locator(_RatesLocator())
        handles = axis.get_legend_handles_labels()[0]
        handles += [Line2D([], [], linestyle="none", label=note) for note in _curve_notes(curves)]
        if handles:
            axis.legend(handles=handles, frameon=False, fontsize="x-small", loc="upper left",
                        bbox_to_anchor=(1.01, 1.0), handlelength=2.4)
    _policy_legend(figure, policies, colours, markers, dotted=bool((played["verdict"] == UNKNOWN).any()))
    _suptitle(figure, f"Convergence of the estimate\n(band: Wilson {100 * level:.0f}%, none where no deal was "
                      "won; dashed: claims; dotted: unknowns counted as wins)")
    return figure


def _policy_legend(figure: Figure, policies: list[str], colours: dict[str, tuple[float, ...]],
                   markers: dict[str, str], dotted: bool) -> None:
    """One legend below the panels: each policy's colour and marker (the same in every panel)."""
    handles = [Line2D([], [], color=colours[p], marker=markers[p], linewidth=2, markersize=5, label=_wrap(p))
               for p in policies]
    if dotted:
        handles.append(Line2D([], [], color="dimgrey", linestyle=":", linewidth=1.4,
                              label="unknowns counted\nas wins"))
    figure.legend(handles=handles, loc="outside lower center", ncol=min(6, len(handles)), frameon=False,
                  fontsize="small", title="policy")


def _curve_notes(curves: dict[str, dict[str, np.ndarray]]) -> list[str]:
    """What the lines cannot show: the policies that won no deal (on the 0% line, no band)
    and each set of policies whose running rates are the same curve."""
    zero = [policy for policy, curve in curves.items() if curve["won"][-1] == 0]
    notes = [_note("no deal won (0% line, no band): ", zero)] if zero else []
    rest = [policy for policy in curves if policy not in zero]
    while rest:
        same = [p for p in rest if np.array_equal(curves[p]["won"], curves[rest[0]]["won"])]
        if len(same) > 1:
            notes.append(_note("one curve (drawn one on another): ", same))
        rest = [p for p in rest if p not in same]
    return notes


def _note(head: str, policies: list[str], width: int = 34) -> str:
    return "\n".join(textwrap.wrap(head + ", ".join(policies), width, break_on_hyphens=False))


def _claim_lines(axis: Axes, claims: pd.DataFrame) -> list[float]:
    """Each claimed figure of a game as a dashed line (its tolerance as a grey band), named
    in the legend with the policies that claim it; returns their tops in percent."""
    tops = []
    grouped = claims.groupby(["claimed", "tolerance"], sort=False)["policy"]
    for k, ((claimed, tolerance), who) in enumerate(grouped):
        claimed, tolerance = 100 * claimed, 100 * tolerance
        if tolerance:
            axis.axhspan(claimed - tolerance, claimed + tolerance, color="black", alpha=0.07, linewidth=0)
        names = list(dict.fromkeys(who))
        by = ", ".join(names) if len(names) <= 2 else f"{len(names)} policies"
        text = f"claim: {by} {claimed:.4g}%" + (f" ± {tolerance:.3g}" if tolerance else "")
        axis.axhline(claimed, color="black", linewidth=0.9, linestyle=_CLAIM_STYLES[k % len(_CLAIM_STYLES)],
                     label="\n".join(textwrap.wrap(text, 34)))
        tops.append(min(100.0, claimed + tolerance))
    return tops


def _running_rate(axis: Axes, curve: dict[str, np.ndarray], style: dict, level: float,
                  k: int, count: int) -> float:
    """One policy's running rate and band (and, with unknowns, the rate counting them as won);
    returns the highest value drawn after the first few deals, in percent."""
    z = stats.z_value(level)
    n = curve["n"]
    p = curve["won"] / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # Markers at staggered deals, so that curves lying on one another each show theirs.
    every = max(1, len(n) // 8)
    start = min(len(n) - 1, (k * every) // max(1, count))
    axis.plot(n, p * 100, markersize=4, markevery=(start, every), **style)
    settled = min(len(n) - 1, 9)  # the first few deals swing widely
    top = float(np.max(p[settled:]) * 100)
    if curve["won"][-1] > 0:
        axis.fill_between(n, (centre - half) * 100, (centre + half) * 100, color=style["color"], alpha=0.12,
                          linewidth=0)
        top = max(top, float(np.max((centre + half)[settled:]) * 100))
    if curve["won_or_unknown"][-1] > curve["won"][-1]:
        upper = curve["won_or_unknown"] / n
        axis.plot(n, upper * 100, color=style["color"], linestyle=":", linewidth=1.2)
        top = max(top, float(upper[-1] * 100))
    return top


class _RatesLocator(matplotlib.ticker.MaxNLocator):
    """Ticks of a rate axis: from 0 to 100% only (its limits leave a little room around them),
    at round steps."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**{"nbins": 6, "steps": [1, 2, 2.5, 5, 10], **kwargs})

    def tick_values(self, vmin: float, vmax: float) -> np.ndarray:
        ticks = super().tick_values(max(0.0, vmin), min(100.0, vmax))
        return ticks[(ticks >= 0) & (ticks <= 100)]


def _running(verdicts: np.ndarray) -> dict[str, np.ndarray]:
    """Cumulative wins and wins-or-unknowns after each deal, and the deal counts."""
    return {"n": np.arange(1, len(verdicts) + 1), "won": np.cumsum(verdicts == WON),
            "won_or_unknown": np.cumsum((verdicts == WON) | (verdicts == UNKNOWN))}


def policy_names(config: object) -> dict[str, str]:
    """Each policy label of an experiment config and its registered name."""
    return {policy.label: policy.name for policy in getattr(config, "policies", ())}


_EFFORT_SUBJECTS = {frozenset({"solver"}): "Solver", frozenset({"lookahead"}): "Lookahead"}


def effort_subject(frame: pd.DataFrame, names: Mapping[str, str] | None = None) -> str:
    """What searched in ``frame`` (``names``: policy label to registered name): ``Solver``,
    ``Lookahead``, or ``Search`` for several kinds of searcher or one not known."""
    searched = frame[(frame["nodes"] > 0) & (frame["verdict"] != ERROR)] if len(frame) else frame
    kinds = frozenset((names or {}).get(label) for label in searched["policy"].unique()) if len(searched) else None
    return _EFFORT_SUBJECTS.get(kinds, "Search")


def effort_figure(frame: pd.DataFrame, names: Mapping[str, str] | None = None) -> Figure | None:
    """Distribution of positions searched per deal (log scale) by verdict, one panel per game
    and searching policy, every panel on the same x range; None when nothing searched. The
    title names what searched (``effort_subject``: the solver, lookahead, or both: "Search
    effort"); ``names`` maps policy labels to registered names. A deal proved lost at its
    first position (one position searched, before any move) is counted in its legend and marked."""
    searched = frame[(frame["nodes"] > 0) & (frame["verdict"] != ERROR)]
    if searched.empty:
        return None
    cells = list(searched.groupby(["game", "policy"], sort=False))
    figure, axes = _grid(len(cells))
    low = math.floor(np.log10(searched["nodes"].min()))
    high = max(low + 1.0, float(np.log10(searched["nodes"].max())) + 1e-9)
    bins = np.logspace(low, high, 31)
    for axis, ((game, policy), group) in zip(axes, cells):
        for verdict in (WON, LOST, UNKNOWN):
            values = group.loc[group["verdict"] == verdict, "nodes"].to_numpy(float)
            if len(values):
                axis.hist(values, bins=bins, color=_VERDICT_COLOURS[verdict], alpha=0.7,
                          label=f"{verdict} ({len(values)})")
        axis.set_xscale("log")
        title = f"{game} / {policy}"
        axis.set(title=title if len(title) <= 40 else f"{game} /\n{policy}", xlabel="positions searched (log scale)",
                 ylabel="deals", xlim=(bins[0] / 1.5, bins[-1] * 1.5))
        axis.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        _mark_first_position(axis, group)
        axis.legend(frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    at_start = bool(((searched["nodes"] <= 1) & (searched["verdict"] == LOST)).any())
    _suptitle(figure, f"{effort_subject(frame, names)} effort per deal (every panel on the same scale)"
              + ("\nat 1 position: the deal was proved lost at its first position, before any move"
                 if at_start else ""))
    return figure


def _mark_first_position(axis: Axes, group: pd.DataFrame) -> None:
    """Name the bar at one position: losses proved before a move."""
    at_start = int(((group["nodes"] <= 1) & (group["verdict"] == LOST)).sum())
    if at_start:
        axis.annotate(f"{at_start} proved lost\nbefore a move", xy=(1.0, at_start), xytext=(8, -2),
                      textcoords="offset points", fontsize="x-small", va="top", ha="left",
                      arrowprops={"arrowstyle": "-", "color": "dimgrey", "linewidth": 0.6})


def cards_home_figure(frame: pd.DataFrame, cards: Mapping[str, int] | None = None) -> Figure | None:
    """How far lost games got: cards on the foundations at the end, one panel per game,
    its axis running to the game's cards (``cards``: game label to 52 times its decks;
    without it, 52 or 104 by the data).

    Only deals played out to an end position: a solver that proves a deal lost (or
    runs out) before making a move has none, so those rows are left out (the title
    says so); a player that searches as it plays (lookahead, the fair solver) keeps
    every deal it played moves of."""
    unplayed = (frame["moves"] == 0) & frame["end_reason"].isin(UNPLAYED_ENDS)
    lost = frame[(frame["verdict"] == LOST) & ~unplayed]
    if lost.empty:
        return None
    games = list(lost["game"].unique())
    policies = list(frame["policy"].unique())
    colours = _policy_colours(policies)
    figure, axes = _grid(len(games))
    for axis, game in zip(axes, games):
        rows = lost[lost["game"] == game]
        total = _game_cards(game, rows["cards_home"], cards)
        step = max(1, total // 52)  # one bin per card of a deck, two with two decks
        bins = np.arange(0, total + step + 1, step) - 0.5
        for k, (policy, group) in enumerate(rows.groupby("policy", sort=False)):
            axis.hist(group["cards_home"], bins=bins, histtype="step", linewidth=1.6,
                      linestyle=("-", "--", "-.", ":")[k % 4], color=colours[policy],
                      label=f"{_wrap(policy)} ({len(group)})")
        axis.set(title=_title(game, 30), xlabel=f"cards on the foundations at the end (of {total})",
                 ylabel="lost deals", xlim=(-0.5, total + 0.5))
        axis.set_xticks(np.arange(0, total + 1, 13))  # a suit's worth of cards
        axis.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        axis.legend(title="policy (lost)", frameon=False, fontsize="small", loc="upper left",
                    bbox_to_anchor=(1.0, 1.0))
    _suptitle(figure, "Cards home at the end of lost games\n(policies that play the deal out; "
                      "a deal the solver decided before a move is left out)")
    return figure


def _game_cards(game: str, cards_home: pd.Series, cards: Mapping[str, int] | None) -> int:
    """The cards of ``game``: from ``cards`` (label to cards), else the decks the data needs."""
    if cards and game in cards:
        return int(cards[game])
    return 52 * max(1, math.ceil(float(cards_home.max()) / 52)) if len(cards_home) else 52


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
        axis.set(title=_title(game, 30), xlabel="critical share of decisions", ylabel="won deals")
        axis.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
        axis.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        axis.legend(title="policy (won deals)", frameon=False, fontsize="x-small", loc="upper left",
                    bbox_to_anchor=(1.0, 1.0))
    _suptitle(figure, "Critical decisions along each won deal's line\n(positions where another legal move "
                      "was proved lost, per position with a choice)")
    return figure


_LEVEL_COLOURS = {"perfect play only": "#264653", "unwinnable": "#e76f51", "unknown": "#bfc5cc"}


def difficulty_figure(difficulty: pd.DataFrame) -> Figure | None:
    """One stacked bar per game: the share of its deals at each difficulty level, the
    easiest at the bottom, in ladder order (``ladder.difficulty_table``)."""
    if difficulty is None or not len(difficulty):
        return None
    games, levels = list(difficulty["game"].unique()), list(difficulty["difficulty"].unique())
    rungs = [level for level in levels if level not in _LEVEL_COLOURS]
    # A wide stretch of the map, so that neighbouring rungs of a long ladder stay apart.
    greens = matplotlib.colormaps["YlGnBu"](np.linspace(0.1, 0.75, max(len(rungs), 1)))
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
    intervals as whiskers, each game's set a little apart so that none hides another;
    each game has its marker, and lines are drawn thinner one after another, so lines
    that coincide stay visible (``ladder.skill_curve``). None when no player of it played a
    deal to a verdict (every deal failed): no point to draw."""
    if curve is None or not len(curve) or not (curve["played"] > 0).any():
        return None
    figure = Figure(figsize=(8.4, 5.0), layout="constrained")
    axis = figure.subplots()
    groups = list(curve.groupby("game", sort=False))
    for i, (game, group) in enumerate(groups):
        colour = _COLOURS[i % len(_COLOURS)]
        group = group.sort_values("position")
        x = group["x"].to_numpy(float) * 10 ** (0.03 * (i - (len(groups) - 1) / 2))  # apart on the log axis
        rate = 100 * group["win_rate"].to_numpy(float)
        axis.errorbar(x, rate, yerr=[rate - 100 * group["wilson_low"], 100 * group["wilson_high"] - rate],
                      color=colour, marker=_MARKERS[i % len(_MARKERS)], markersize=5, capsize=2,
                      elinewidth=0.8, linewidth=max(1.0, 2.6 - 0.4 * i), label=_wrap(game))
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
             title="Skill curve: win rate by player (whiskers: Wilson 95% intervals)")
    axis.grid(axis="y", alpha=0.3)
    axis.legend(title="game", frameon=False, fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    return figure


def save_figures(folder: Path, frame: pd.DataFrame, summary: pd.DataFrame,
                 claims: pd.DataFrame, difficulty: pd.DataFrame | None = None,
                 curve: pd.DataFrame | None = None, cards: Mapping[str, int] | None = None,
                 names: Mapping[str, str] | None = None) -> list[str]:
    """Draw and save every figure that has data; return their names (without extension).
    ``cards``: each game label's cards (52 times its decks), the cards-home figure's range;
    ``names``: each policy label's registered name (what the effort figure's title names)."""
    figures = {
        "win_rates": win_rate_figure(summary, claims),
        "convergence": convergence_figure(frame, claims),
        "solver_effort": effort_figure(frame, names),
        "cards_home_lost": cards_home_figure(frame, cards),
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
