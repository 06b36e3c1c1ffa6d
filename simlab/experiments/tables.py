"""The tables of a report, computed from the per-deal table alone.

Every function takes the per-deal frame (``simlab.run``'s result, or a
re-read ``deals.csv``) and returns a new frame. Deals whose policy raised
(verdict ``error``) are left out of every estimate and counted as ``failed``.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Iterable

import numpy as np
import pandas as pd

from simlab.experiments import resolutions, stats
from simlab.experiments.config import Claim

WON, LOST, UNKNOWN, ERROR = "won", "lost", "unknown", "error"
# Labels of ``cells.information_label`` (not imported: tables read only the per-deal frame).
THOUGHTFUL, FAIR, RELAXATION = "thoughtful", "fair", "relaxation"


def players(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of cells that play (every cell but a ``relaxation`` bound's)."""
    return frame[frame["information"] != RELAXATION] if "information" in frame else frame


def _groups(frame: pd.DataFrame, by: str | list[str]) -> Iterable[tuple[Any, pd.DataFrame]]:
    """Groups in order of first appearance (the config's order), not sorted."""
    return frame.groupby(by, sort=False) if len(frame) else []


def summarize(frame: pd.DataFrame, level: float = stats.LEVEL) -> pd.DataFrame:
    """Per game and policy: counts, win rate with its Wilson interval, the range
    with unknowns counted as losses and as wins, and mean moves and effort.

    A ``relaxation`` cell (a policy that bounds perfect fair play, ``Policy.bound``)
    wins nothing: its row leaves the verdict columns empty and gives ``bound``, the
    mean of its per-deal values, with a Student-t interval (``bound_low``,
    ``bound_high``). ``bracket_end`` marks the rows that give each game's bracket
    (``brackets_table``): ``lower`` and ``upper``.

    Args:
        frame: the per-deal table.
        level: the confidence level of every interval.

    Returns:
        One row per (game, policy), in the order they first appear.
    """
    rows = [_summary_row(game, policy, group, level)
            for (game, policy), group in _groups(frame, ["game", "policy"])]
    summary = pd.DataFrame(rows, columns=SUMMARY_COLUMNS[:-1])
    for column in ("won", "lost", "unknown"):  # empty in a relaxation row, counts elsewhere
        summary[column] = summary[column].astype("Int64")
    ends = {}
    for bracket in brackets_table(summary).itertuples():
        ends[(bracket.game, bracket.lower_policy)] = "lower"
        ends[(bracket.game, bracket.upper_policy)] = "upper"
    summary["bracket_end"] = [ends.get(key, np.nan) for key in zip(summary["game"], summary["policy"])]  # NaN: neither
    return summary


SUMMARY_COLUMNS = [
    "game", "policy", "information", "deals", "failed", "played", "won", "lost", "unknown", "win_rate",
    "wilson_low", "wilson_high", "range_low", "range_high", "range_centre", "range_half_width",
    "mean_moves", "mean_cards_home", "mean_nodes", "mean_cpu_seconds", "bound", "bound_low", "bound_high",
    "bracket_end",
]


def _summary_row(game: str, policy: str, group: pd.DataFrame, level: float) -> dict[str, Any]:
    if _information(group) == RELAXATION:
        return _bound_row(game, policy, group, level)
    played = group[group["verdict"] != ERROR]
    n = len(played)
    won, lost, unknown = (int((played["verdict"] == v).sum()) for v in (WON, LOST, UNKNOWN))
    low, high = stats.wilson_interval(won, n, level)
    bounds = stats.unknown_range(won, unknown, n, level) if n else stats.Range(*[np.nan] * 4)
    return {
        "game": game, "policy": policy, "information": _information(group),
        "deals": len(group), "failed": len(group) - n,
        "played": n, "won": won, "lost": lost, "unknown": unknown,
        "win_rate": won / n if n else np.nan, "wilson_low": low, "wilson_high": high,
        "range_low": bounds.low, "range_high": bounds.high, "range_centre": bounds.centre,
        "range_half_width": bounds.half_width,
        "mean_moves": _mean(played["moves"]), "mean_cards_home": _mean(played["cards_home"]),
        "mean_nodes": _mean(played["nodes"]), "mean_cpu_seconds": _mean(played["cpu_seconds"]),
    }


def _bound_row(game: str, policy: str, group: pd.DataFrame, level: float) -> dict[str, Any]:
    """The summary row of a ``relaxation`` cell: its per-deal values' mean and interval."""
    values = group["bound_value"].dropna() if "bound_value" in group else pd.Series(dtype=float)
    played = group[group["verdict"] != ERROR]
    low, high = stats.mean_interval(values.tolist(), level)
    return {"game": game, "policy": policy, "information": RELAXATION, "deals": len(group),
            "failed": len(group) - len(played), "played": len(values),
            "mean_nodes": _mean(played["nodes"]), "mean_cpu_seconds": _mean(played["cpu_seconds"]),
            "bound": float(values.mean()) if len(values) else np.nan, "bound_low": low, "bound_high": high}


def _information(group: pd.DataFrame) -> str:
    """The cell's ``open`` / ``thoughtful`` / ``fair`` label (``cells.information_label``)."""
    labels = group["information"].unique() if "information" in group else []
    return str(labels[0]) if len(labels) == 1 else ""


def _mean(values: pd.Series) -> float:
    return float(values.mean()) if len(values) else np.nan


BRACKET_COLUMNS = [
    "game", "lower_policy", "lower", "lower_low", "upper_policy", "upper_information", "upper", "upper_high",
    "width", "width_95", "played", "vacuous",
]


def brackets_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Perfect play bracketed, per game that hides cards or shuffles: the best
    ``fair`` player's win rate below and the tightest upper bound above.

    ``lower`` is that player's win rate and ``lower_low`` its 95% Wilson lower end
    with every unknown counted as a loss. The upper bound is a ``thoughtful`` cell
    (``upper``: won and unknown deals over played, ``upper_high`` the Wilson upper
    end of that) or a ``relaxation`` cell (``upper``: its mean value, ``upper_high``
    the upper end of its interval), whichever upper end is lowest. ``width`` is
    ``upper - lower``; ``width_95`` is ``upper_high - lower_low``, the bracket with
    both intervals. ``vacuous`` marks a bound whose upper end is 100%: it excludes
    no win rate, so the bracket says nothing above its lower end (thoughtful play that
    wins, or may win, every deal: La Belle Lucie's). A game with no fair cell or no
    bound has no row.
    """
    rows = [row for game, group in _groups(summary, "game") if (row := _bracket_row(game, group))]
    return pd.DataFrame(rows, columns=BRACKET_COLUMNS)


def _bracket_row(game: str, group: pd.DataFrame) -> dict[str, Any] | None:
    fair = group[(group["information"] == FAIR) & (group["played"] > 0)]
    uppers = [_upper(row) for row in group.itertuples() if row.played > 0 and row.information in (THOUGHTFUL,
                                                                                                     RELAXATION)]
    if fair.empty or not uppers:
        return None
    lower = fair.loc[fair["win_rate"].idxmax()]  # the first of equals: the config's order
    policy, information, upper, high = min(uppers, key=lambda u: u[3])
    return {"game": game, "lower_policy": lower["policy"], "lower": lower["win_rate"],
            "lower_low": lower["range_low"], "upper_policy": policy, "upper_information": information,
            "upper": upper, "upper_high": high, "width": upper - lower["win_rate"],
            "width_95": high - lower["range_low"], "played": int(lower["played"]),
            "vacuous": bool(high >= 1.0)}


def _upper(row: Any) -> tuple[str, str, float, float]:
    """(policy, information, upper figure, its 95% upper end) of a bounding cell."""
    if row.information == RELAXATION:
        return row.policy, row.information, row.bound, row.bound_high
    return row.policy, row.information, (row.won + row.unknown) / row.played, row.range_high


CLAIM_COLUMNS = [
    "game", "policy", "claimed", "tolerance", "source", "text", "played", "won", "unknown",
    "estimate", "range_low", "range_high", "p_value", "p_unknown_lost", "p_unknown_won",
    "verdict", "note",
]


def claims_table(frame: pd.DataFrame, claims: Iterable[Claim], level: float = stats.LEVEL) -> pd.DataFrame:
    """Each claim against the estimate: exact binomial test and a plain verdict.

    The verdict is ``consistent`` when some resolution of the unknowns gives a
    two-sided p-value of at least ``1 - level``, else ``inconsistent``;
    ``no data`` when the cell has no played deal.
    """
    summary = summarize(frame, level).set_index(["game", "policy"])
    return pd.DataFrame([_claim_row(c, summary, level) for c in claims], columns=CLAIM_COLUMNS)


def _claim_row(claim: Claim, summary: pd.DataFrame, level: float) -> dict[str, Any]:
    row: dict[str, Any] = {"game": claim.game, "policy": claim.policy, "claimed": claim.win_rate,
                           "tolerance": claim.tolerance, "source": claim.source, "text": claim.text}
    key = (claim.game, claim.policy)
    played = int(summary.loc[key, "played"]) if key in summary.index else 0
    if not played:
        return {**row, "played": 0, "won": 0, "unknown": 0, "verdict": "no data",
                "note": "no deal of this game and policy was played"}
    cell = summary.loc[key]
    won, unknown = int(cell["won"]), int(cell["unknown"])
    test = stats.claim_test(won, unknown, played, claim.win_rate, claim.tolerance, level)
    return {
        **row, "played": played, "won": won, "unknown": unknown, "estimate": won / played,
        "range_low": cell["range_low"], "range_high": cell["range_high"], "p_value": test.p_value,
        "p_unknown_lost": test.p_unknown_lost, "p_unknown_won": test.p_unknown_won,
        "verdict": "consistent" if test.consistent else "inconsistent",
        "note": _claim_note(test, unknown, level),
    }


def _claim_note(test: stats.ClaimTest, unknown: int, level: float) -> str:
    alpha = 1 - level
    if unknown and test.consistent and min(test.p_unknown_lost, test.p_unknown_won) < alpha:
        return f"consistent only because {unknown} unknown results could go either way"
    return ""


COMPARISON_COLUMNS = [
    "comparison", "within", "a", "b", "n_a", "n_b", "won_a", "won_b", "only_a", "only_b",
    "rate_a", "rate_b", "difference", "difference_low", "difference_high", "odds_ratio",
    "test", "p_value", "p_holm", "significant",
    "unknown_a", "unknown_b", "rate_a_high", "rate_b_high", "unknown_pairs", "difference_min",
    "difference_max", "p_min", "p_holm_min", "significance", "upper_bound",
]
# The ``comparisons`` setting of a config's ``report`` (``config.ReportOptions``).
ALL_CELLS, PLAYERS_ONLY = "all", "players"


def comparisons_table(frame: pd.DataFrame, level: float = stats.LEVEL, keep: str = ALL_CELLS) -> pd.DataFrame:
    """Every two policies of a game, and every two games of a policy, compared.

    Two cells that played the same deal numbers share PySolFC's shuffle, so they are
    compared deal by deal on the deals both played (``comparison`` ends in ``(paired)``;
    McNemar's exact test, Newcombe's paired interval); cells with no deal in common
    are compared as independent samples (Fisher's exact test, Newcombe's hybrid
    interval). ``test`` names the test and, when paired, the deals compared.

    An unknown result may be a win or a loss (``simlab.experiments.resolutions``):
    ``rate_a`` .. ``rate_a_high`` is A's win rate with its unknowns lost .. won;
    ``difference`` (with every unknown lost) lies in ``difference_min`` ..
    ``difference_max``; ``difference_low`` .. ``difference_high`` is the union of the
    95% intervals of every resolution; ``p_value`` is the largest p-value over every
    resolution and ``p_min`` the least. ``p_holm`` adjusts the ``p_value``s of the whole
    table together (Holm) and ``significant`` is ``p_holm < 1 - level``: a difference is
    called significant only when it is for every way the unknowns can resolve.
    ``p_holm_min`` adjusts the ``p_min``s; Holm's adjustment never falls when a p-value
    rises, so every resolution's adjusted p lies between ``p_holm_min`` and ``p_holm``.
    ``significance``: ``significant``, ``undecided`` (not significant, but it might be
    once the unknowns are resolved: ``p_holm_min`` is below the level) or ``not significant``.

    A ``thoughtful`` cell (the solver seeing hidden cards and shuffles) is an upper bound,
    not a player: ``upper_bound`` names the side(s) of a row that are one (``a``, ``b``,
    ``a and b``; empty between players). ``keep="players"`` leaves such rows out, so the
    table (and Holm's adjustment) holds only comparisons of players.
    """
    played = players(frame[frame["verdict"] != ERROR])
    if keep == PLAYERS_ONLY and "information" in played:
        played = played[played["information"] != THOUGHTFUL]
    rows = [*_pairs(played, "game", "policy", "policies", level), *_pairs(played, "policy", "game", "games", level)]
    table = pd.DataFrame(rows, columns=COMPARISON_COLUMNS)
    alpha = 1 - level
    table["p_holm"] = stats.holm(table["p_value"].tolist())
    table["p_holm_min"] = stats.holm(table["p_min"].tolist())
    table["significant"] = table["p_holm"] < alpha
    table["significance"] = [SIGNIFICANT if significant else UNDECIDED if low < alpha else NOT_SIGNIFICANT
                             for significant, low in zip(table["significant"], table["p_holm_min"])]
    for column in ("only_a", "only_b", "unknown_pairs"):
        table[column] = table[column].astype("Int64")
    return table


SIGNIFICANT, UNDECIDED, NOT_SIGNIFICANT = "significant", "undecided", "not significant"


def _pairs(played: pd.DataFrame, within: str, compared: str, kind: str,
           level: float) -> Iterable[dict[str, Any]]:
    """Every two cells of each ``within`` group (a game, or a policy) compared."""
    for name, group in _groups(played, within):
        cells = {key: cell.set_index("deal")["verdict"] for key, cell in _groups(group, compared)}
        bounds = set(group.loc[group["information"] == THOUGHTFUL, compared]) if "information" in group else set()
        for a, b in combinations(cells, 2):
            row = _comparison_row(kind, name, a, b, cells[a], cells[b], level)
            yield {**row, "upper_bound": _bound_sides(a in bounds, b in bounds)}


def _bound_sides(a: bool, b: bool) -> str:
    """Which side of a comparison is an upper bound (thoughtful), not a player."""
    return "a and b" if a and b else "a" if a else "b" if b else ""


def _comparison_row(kind: str, within: str, a: str, b: str, verdicts_a: pd.Series, verdicts_b: pd.Series,
                    level: float) -> dict[str, Any]:
    """Paired on the deals both cells played, else independent; see ``comparisons_table``."""
    common = verdicts_a.index.intersection(verdicts_b.index)
    if len(common):
        return _paired_row(kind, within, a, b, verdicts_a[common], verdicts_b[common], level)
    return _independent_row(kind, within, a, b, verdicts_a, verdicts_b, level)


def _paired_row(kind: str, within: str, a: str, b: str, verdicts_a: pd.Series, verdicts_b: pd.Series,
                level: float) -> dict[str, Any]:
    pairs = resolutions.PairedVerdicts.count(verdicts_a, verdicts_b)
    result = resolutions.paired_comparison(pairs, level)
    n = pairs.deals
    both, only_a, only_b, _ = pairs.unknowns_lost()
    unknown_a = pairs.unknown_lost + pairs.unknown_won + pairs.unknown_unknown
    unknown_b = pairs.won_unknown + pairs.lost_unknown + pairs.unknown_unknown
    return {
        "comparison": f"{kind} (paired)", "test": f"mcnemar_exact (paired, {n} deals)",
        "only_a": only_a, "only_b": only_b, "unknown_pairs": pairs.unknown_pairs,
        "odds_ratio": only_a / only_b if only_b else (np.inf if only_a else np.nan),
        **_common_columns(within, a, b, (both + only_a, unknown_a, n), (both + only_b, unknown_b, n), result),
    }


def _independent_row(kind: str, within: str, a: str, b: str, verdicts_a: pd.Series, verdicts_b: pd.Series,
                     level: float) -> dict[str, Any]:
    side_a, side_b = _counts(verdicts_a), _counts(verdicts_b)
    result = resolutions.independent_comparison(*side_a, *side_b, level)
    odds_ratio, _ = stats.fisher_exact(side_a[0], side_a[2], side_b[0], side_b[2])
    return {
        "comparison": f"{kind} (independent)", "test": "fisher_exact (independent)",
        "only_a": pd.NA, "only_b": pd.NA, "unknown_pairs": pd.NA, "odds_ratio": odds_ratio,
        **_common_columns(within, a, b, side_a, side_b, result),
    }


def _counts(verdicts: pd.Series) -> tuple[int, int, int]:
    """(won, unknown, played) of one cell."""
    return int((verdicts == WON).sum()), int((verdicts == UNKNOWN).sum()), len(verdicts)


def _common_columns(within: str, a: str, b: str, side_a: tuple[int, int, int], side_b: tuple[int, int, int],
                    result: resolutions.Comparison) -> dict[str, Any]:
    """The columns of every row: each side's (won, unknown, deals) and the comparison."""
    (won_a, unknown_a, n_a), (won_b, unknown_b, n_b) = side_a, side_b
    return {
        "within": within, "a": a, "b": b, "n_a": n_a, "n_b": n_b, "won_a": won_a, "won_b": won_b,
        "rate_a": won_a / n_a, "rate_b": won_b / n_b, "unknown_a": unknown_a, "unknown_b": unknown_b,
        "rate_a_high": (won_a + unknown_a) / n_a, "rate_b_high": (won_b + unknown_b) / n_b,
        "difference": result.difference, "difference_min": result.difference_min,
        "difference_max": result.difference_max, "difference_low": result.low, "difference_high": result.high,
        "p_value": result.p_max, "p_min": result.p_min,
    }


CRITICAL_COLUMNS = [
    "game", "policy", "information", "won", "probed", "mean_positions", "mean_critical", "median_critical",
    "mean_share", "median_share", "max_share", "undecided_deals", "mean_undecided",
]


def critical_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per game and policy whose won deals had their critical decisions counted
    (``simlab.solver.critical``): won deals, those probed, mean positions with a choice,
    mean and median critical decisions and share, and how many deals had undecided
    positions (an alternative left unknown within the probe budget) with their mean.
    Empty when the per-deal table has no such count."""
    if "critical_decisions" not in frame:
        return pd.DataFrame(columns=CRITICAL_COLUMNS)
    rows = []
    for (game, policy), group in _groups(frame, ["game", "policy"]):
        probed = group[(group["verdict"] == WON) & group["critical_decisions"].notna()]
        if probed.empty:
            continue
        critical = probed["critical_decisions"].astype(float)
        share = probed["critical_share"].astype(float)
        undecided = probed["critical_undecided"].astype(float)
        rows.append({
            "game": game, "policy": policy, "information": _information(group),
            "won": int((group["verdict"] == WON).sum()), "probed": len(probed),
            "mean_positions": float(probed["decision_positions"].astype(float).mean()),
            "mean_critical": float(critical.mean()), "median_critical": float(critical.median()),
            "mean_share": float(share.mean()), "median_share": float(share.median()),
            "max_share": float(share.max()), "undecided_deals": int((undecided > 0).sum()),
            "mean_undecided": float(undecided.mean()),
        })
    return pd.DataFrame(rows, columns=CRITICAL_COLUMNS)
