"""A ladder of players: the difficulty of each deal and the skill curve of each game.

A config's ``ladder`` (``config.Ladder``) orders some of its policies from the
weakest to the strongest (the *rungs*) and names the policy that stands for
perfect play (the solver). From the per-deal table (and the extra tries of
stochastic rungs, ``frames.tries_frame``) this module computes:

- the **difficulty** of a deal: the weakest rung that wins it (in any of its
  tries), else ``perfect play only`` (the perfect policy won it), ``unwinnable``
  (it lost: an exhaustive search) or ``unknown``;
- the **difficulty table**: per game, how many deals sit at each level;
- the **skill curve**: per game, each rung's win rate (its first try, the ordinary
  play) with its Wilson interval, placed on a "positions searched per move" axis.

Everything here is a pure function of tables: no I/O, no plotting.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import pandas as pd

from simlab.experiments import stats
from simlab.experiments.config import Component, Ladder

PERFECT_ONLY, UNWINNABLE, UNKNOWN_LEVEL = "perfect play only", "unwinnable", "unknown"
WON, LOST, ERROR = "won", "lost", "error"

# The default ladder of ``simlab deals --difficulty`` (policy specs as a config's
# ``policies`` takes them), weakest first: the casual players, the heuristic, then
# ``lookahead`` at 10 to 10,000 positions per move. The 100,000 rung is left out
# here: it costs about 13 CPU-s a Beleaguered Castle deal (``make bench``, section
# ``ladder``); ``experiments/ladder.yaml`` has it.
DEFAULT_LADDER: tuple[dict[str, Any], ...] = (
    {"name": "random"},
    {"name": "tap"},
    {"name": "greedy"},
    {"name": "greedy", "label": "greedy_play_on", "params": {"play_on": True}},
    {"name": "heuristic"},
    *({"name": "lookahead", "label": f"lookahead_{budget}", "params": {"budget": budget}}
      for budget in (10, 100, 1000, 10_000)),
)
DEFAULT_PERFECT: dict[str, Any] = {"name": "solver"}  # the default budget
DEFAULT_TRIES = 3


def deal_difficulty(rung_wins: Sequence[bool], rung_names: Sequence[str],
                    perfect_verdict: str | None, loss_proved: bool = True) -> str:
    """The difficulty of one deal.

    Args:
        rung_wins: per rung, weakest first, whether it won the deal (in any try).
        rung_names: the rungs' names, in the same order.
        perfect_verdict: the perfect player's verdict (``won``, ``lost``, ``unknown``),
            or None when there is none.
        loss_proved: whether the perfect player's ``lost`` is a proved loss
            (``Ladder.unproved``); when it is not, a loss says nothing: ``"unknown"``.

    Returns:
        The name of the first rung that won; else ``"perfect play only"`` when the
        perfect player won, ``"unwinnable"`` when it lost (a proved loss),
        ``"unknown"`` otherwise.
    """
    for won, name in zip(rung_wins, rung_names):
        if won:
            return name
    if perfect_verdict == WON:
        return PERFECT_ONLY
    if perfect_verdict == LOST and loss_proved:
        return UNWINNABLE
    return UNKNOWN_LEVEL


def levels(ladder: Ladder) -> list[str]:
    """Every difficulty level in ladder order: the rungs, then the three verdict levels."""
    return [*ladder.rungs, PERFECT_ONLY, UNWINNABLE, UNKNOWN_LEVEL]


def wins_any_try(frame: pd.DataFrame, tries: pd.DataFrame | None) -> pd.DataFrame:
    """Per game, policy and deal: ``won`` (any try), ``decided`` (some try played to a verdict).

    ``frame`` holds the first tries (the per-deal table), ``tries`` the extra ones.
    """
    columns = ["game", "policy", "deal", "verdict"]
    plays = pd.concat([frame[columns], tries[columns]] if tries is not None and len(tries) else [frame[columns]])
    plays = plays.assign(won=plays["verdict"] == WON, decided=plays["verdict"] != ERROR)
    return plays.groupby(["game", "policy", "deal"], sort=False)[["won", "decided"]].any().reset_index()


def difficulty_column(frame: pd.DataFrame, tries: pd.DataFrame | None, ladder: Ladder) -> pd.Series:
    """The ``difficulty`` of every row of the per-deal table (the same on every row of
    one game and deal).

    A deal where a rung below the first winner has no result yet (not played, or its
    policy failed) is ``unknown``: that rung might have won it; so is a deal the perfect
    player lost in a game where its losses are not proved (``Ladder.unproved``).
    """
    results = wins_any_try(frame, tries).set_index(["game", "policy", "deal"])
    perfect = frame[frame["policy"] == ladder.perfect].set_index(["game", "deal"])["verdict"]
    level: dict[tuple[str, int], str] = {}
    for game, deal in frame[["game", "deal"]].drop_duplicates().itertuples(index=False):
        wins, complete = [], True
        for rung in ladder.rungs:
            key = (game, rung, deal)
            decided = bool(results["decided"].get(key, False))
            wins.append(bool(results["won"].get(key, False)))
            if not any(wins) and not decided:
                complete = False
        verdict = perfect.get((game, deal))
        verdict = None if verdict is None or verdict == ERROR else str(verdict)
        found = deal_difficulty(wins, ladder.rungs, verdict, game not in ladder.unproved)
        level[(game, deal)] = found if complete else UNKNOWN_LEVEL
    return pd.Series([level[(g, d)] for g, d in zip(frame["game"], frame["deal"])],
                     index=frame.index, dtype=object, name="difficulty")


DIFFICULTY_COLUMNS = ["game", "difficulty", "information", "deals", "share"]


def difficulty_table(deals: pd.DataFrame, ladder: Ladder) -> pd.DataFrame:
    """Per game, every level in ladder order: the deals at it and their share.

    ``deals`` is the per-deal table with its ``difficulty`` column. ``information``
    is what the level's player saw (``open``/``thoughtful``/``fair``): the rung's own
    for a rung, the perfect player's for the three verdict levels.
    """
    rows = []
    for game, group in deals.groupby("game", sort=False):
        per_deal = group.drop_duplicates("deal")
        seen = dict(zip(group["policy"], group["information"]))
        total = len(per_deal)
        for level in levels(ladder):
            count = int((per_deal["difficulty"] == level).sum())
            rows.append({"game": game, "difficulty": level,
                         "information": seen.get(level if level in ladder.rungs else ladder.perfect, ""),
                         "deals": count, "share": count / total if total else math.nan})
    return pd.DataFrame(rows, columns=DIFFICULTY_COLUMNS)


def curve_positions(budgets: Sequence[float | None]) -> list[float]:
    """Where each player of the curve (rungs in ladder order, then perfect play) sits on
    the log "positions searched per move" axis.

    A rung with a ``budget`` sits at it; rungs without one sit a decade apart to the
    left of the first budgeted rung (or of 1); a later rung without one, or whose budget
    would not move right, a decade right of the one before; perfect play (the last
    entry, its budget ignored) a decade right of the last rung.
    """
    rungs = list(budgets[:-1])
    first = next((b for b in rungs if b), None)
    leading = next((i for i, b in enumerate(rungs) if b), len(rungs))
    anchor = float(first) if first else 10.0 ** leading
    positions = [anchor / 10.0 ** (leading - i) for i in range(leading)]
    for budget in rungs[leading:]:
        previous = positions[-1] if positions else 0.0
        positions.append(float(budget) if budget and budget > previous else previous * 10.0)
    positions.append((positions[-1] if positions else 1.0) * 10.0)
    return positions


SKILL_COLUMNS = ["game", "position", "policy", "information", "budget", "x", "played", "won", "unknown",
                 "win_rate", "wilson_low", "wilson_high", "won_any_try"]


def skill_curve(summary: pd.DataFrame, deals: pd.DataFrame, tries: pd.DataFrame | None, ladder: Ladder,
                policies: Sequence[Component], level: float = stats.LEVEL) -> pd.DataFrame:
    """Per game, each rung and then perfect play: win rate (first try) with its Wilson
    interval, the rung's ``budget`` parameter (positions per move for ``lookahead``;
    empty when it has none), its place ``x`` on the curve's axis (``curve_positions``),
    and ``won_any_try``: deals it won in at least one of its tries."""
    players = [*ladder.rungs, ladder.perfect]
    params = {p.label: p.params for p in policies}
    budgets = [params.get(p, {}).get("budget") for p in players]
    xs = curve_positions(budgets)
    any_try = wins_any_try(deals, tries).groupby(["game", "policy"], sort=False)["won"].sum()
    by_cell = summary.set_index(["game", "policy"])
    rows = []
    for game in summary["game"].unique():
        for position, (player, budget, x) in enumerate(zip(players, budgets, xs)):
            if (game, player) not in by_cell.index:
                continue
            cell = by_cell.loc[(game, player)]
            played, won = int(cell["played"]), int(cell["won"])
            low, high = stats.wilson_interval(won, played, level)
            rows.append({"game": game, "position": position, "policy": player,
                         "information": cell["information"], "budget": budget if player != ladder.perfect else None,
                         "x": x, "played": played, "won": won, "unknown": int(cell["unknown"]),
                         "win_rate": won / played if played else math.nan, "wilson_low": low,
                         "wilson_high": high, "won_any_try": int(any_try.get((game, player), 0))})
    table = pd.DataFrame(rows, columns=SKILL_COLUMNS)
    table["budget"] = table["budget"].astype("Int64")
    return table
