"""What a run will cost, said before it starts: CPU seconds per cell from measured per-deal costs.

A cell's cost per deal comes from, first, the deals of that very cell already in the
output folder (a resumed run: the same game, policy, parameters and code), else the
table shipped with simlab, ``costs.csv``: the mean CPU seconds per deal measured for a
game and a policy with exactly these parameters (every parameter, defaults included:
a solver at another budget costs something else). A cell found in neither is
``unknown``: no figure is invented for it. The table is made from finished runs by::

    python -m simlab.experiments.costs results/quick results/costs [...]

(``make costs`` runs ``experiments/quick.yaml``, ``costs.yaml`` and ``costs_windmill.yaml``
after ``make setup`` has compiled the kernels, so that compiling is not counted as play,
and does so): it adds or replaces one row per cell measured. Costs are CPU seconds on the
machine that measured them; the wall time divides them among the workers. Each row says
where and when it was measured (``measured``: the run's finishing date, its git commit,
``+`` when the sources had uncommitted changes, and its platform, from its ``manifest.json``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

import pandas as pd

from simlab.experiments.cells import Cell
from simlab.experiments.report import MANIFEST
from simlab.experiments.schema import DATABASE_NAME
from simlab.experiments.store import ResultStore
from simlab.version import __version__

COSTS_FILE = Path(__file__).with_name("costs.csv")
COST_COLUMNS = ["game", "game_params", "policy", "policy_params", "deals", "mean_cpu_seconds",
                "simlab_version", "measured"]
WARN_SECONDS = 180.0  # a run longer than this (wall time) is announced with a warning: "a few minutes"
MIN_HISTORY = 3  # deals of the folder's own history that make a cost (fewer: the first ones compile)
MAX_LISTED_CELLS = 30  # cells listed one a line; the rest are summed
WIDTH = 100  # characters a warning wraps at (as the progress lines of a log)


@dataclass(frozen=True)
class CellCost:
    """One cell's estimate: ``deals`` still to play at ``per_deal`` CPU seconds (None:
    unknown), measured on ``measured`` deals of ``source``."""

    label: str
    deals: int
    per_deal: float | None
    measured: int = 0
    source: str = ""

    @property
    def seconds(self) -> float | None:
        return None if self.per_deal is None else self.deals * self.per_deal


def params_key(params: Mapping[str, Any]) -> str:
    """Parameters as the table keys them: JSON, keys sorted."""
    return json.dumps(dict(params), sort_keys=True)


def load_table(path: Path = COSTS_FILE) -> pd.DataFrame:
    """The table of measured costs (empty when there is none).

    Raises:
        ValueError: the file is not such a table (a column missing, or not CSV).
        OSError: it cannot be read.
    """
    if not Path(path).is_file():
        return pd.DataFrame(columns=COST_COLUMNS)
    table = pd.read_csv(path, dtype={"game_params": str, "policy_params": str, "measured": str},
                        keep_default_na=False)
    if "measured" not in table:  # a table made before the column
        table = table.assign(measured="")
    if missing := [column for column in COST_COLUMNS if column not in table]:
        raise ValueError(f"{path}: no column {', '.join(missing)}")
    return table


def history(store: ResultStore, cells: list[Cell]) -> dict[str, tuple[int, float]]:
    """Per cell key: (deals, mean CPU seconds) of its deals stored in this folder."""
    return store.cpu_per_cell([cell.key for cell in cells])


def estimate(cells: list[Cell], missing: Mapping[str, int], table: pd.DataFrame,
             stored: Mapping[str, tuple[int, float]] | None = None) -> list[CellCost]:
    """Each cell with deals to play (``missing``: cell key to deals) and its cost."""
    index = {(r.game, r.game_params, r.policy, r.policy_params): r for r in table.itertuples()}
    costs = []
    for cell in cells:
        deals = missing.get(cell.key, 0)
        if not deals:
            continue
        label = f"{cell.game.label} / {cell.policy.label}" + (f" (try {cell.attempt + 1})" if cell.attempt else "")
        own = (stored or {}).get(cell.key)
        if own and own[0] >= MIN_HISTORY:
            costs.append(CellCost(label, deals, own[1], own[0], "this folder"))
            continue
        row = index.get((cell.game.name, params_key(cell.game.params), cell.policy.name,
                         params_key(cell.policy.params)))
        if row is None:
            costs.append(CellCost(label, deals, None))
        else:
            costs.append(CellCost(label, deals, float(row.mean_cpu_seconds), int(row.deals),
                                  f"costs.csv, simlab {row.simlab_version}"))
    return costs


def describe(costs: list[CellCost], workers: int, warn_seconds: float | None = None) -> tuple[list[str], bool]:
    """The lines a run prints before it starts, and whether they warn (the known CPU
    spread over ``workers`` exceeds ``warn_seconds``, by default ``WARN_SECONDS``)."""
    warn_seconds = WARN_SECONDS if warn_seconds is None else warn_seconds
    if not costs:
        return [], False
    known = [c.seconds for c in costs if c.seconds is not None]
    unknown = [c for c in costs if c.seconds is None]
    total = sum(known)
    lines = ["Estimated CPU per cell (deals to play x measured CPU-s per deal):"]
    for cost in costs[:MAX_LISTED_CELLS]:
        lines.append(f"  {cost.label}: " + (
            f"{cost.deals} x {_seconds(cost.per_deal)} = {_duration(cost.seconds)} "
            f"(from {cost.measured} deals, {cost.source})" if cost.seconds is not None else
            f"{cost.deals} deals, cost unknown (never measured with these parameters)"))
    if len(costs) > MAX_LISTED_CELLS:
        rest = [c.seconds for c in costs[MAX_LISTED_CELLS:] if c.seconds is not None]
        lines.append(f"  ... and {len(costs) - MAX_LISTED_CELLS} more cells ({_duration(sum(rest))} known).")
    wall = total / max(workers, 1)
    if unknown:
        lines.append(f"Total of the known cells: {_duration(total)} of CPU, about {_duration(wall)} on {workers} "
                     f"worker(s), plus {len(unknown)} cell(s) of unknown cost.")
    else:
        lines.append(f"Total: {_duration(total)} of CPU: about {_duration(wall)} on {workers} worker(s).")
    warn = wall > warn_seconds
    if warn:
        dearest = sorted((c for c in costs if c.seconds is not None), key=lambda c: -c.seconds)[:3]
        lines += textwrap.wrap(f"warning: this run will take more than {_duration(warn_seconds)} "
                     f"(about {_duration(wall)}). To shrink it: fewer deals (deals.count), fewer or cheaper "
                     f"cells (the dearest: {', '.join(f'{c.label} {_duration(c.seconds)}' for c in dearest)}; "
                     "a smaller search budget), or more workers (execution.n_jobs). Ctrl-C keeps every "
                     "finished deal.", WIDTH, subsequent_indent="  ")
    return lines, warn


def _seconds(value: float | None) -> str:
    return "?" if value is None else f"{value:.3g} CPU-s"


def _duration(seconds: float | None) -> str:
    """``45 s``, ``12 min``, ``3.4 h``."""
    if seconds is None or math.isnan(seconds):
        return "unknown"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


# ----- making the table -------------------------------------------------------------------
def measured(folders: Iterable[Path]) -> pd.DataFrame:
    """One row per cell of the finished runs in ``folders``: its game, policy and their
    parameters, deals played to a verdict, and their mean CPU seconds (the first deal
    of each worker included: that is what a run pays)."""
    rows = []
    for folder in folders:
        if not (Path(folder) / DATABASE_NAME).is_file():
            raise SystemExit(f"{folder}: no {DATABASE_NAME}: run the experiment first.")
        provenance = measured_where(Path(folder))
        with ResultStore(Path(folder)) as store:
            identities = store.cell_identities()
            deals = store.rows(list(identities))
        deals = deals[deals["verdict"] != "error"]
        for key, group in deals.groupby("cell"):
            identity = identities[key]
            if "try" in identity or not len(group):  # a ladder's extra tries are the same cost again
                continue
            rows.append({"game": identity["game"]["name"], "game_params": params_key(identity["game"]["params"]),
                         "policy": identity["policy"]["name"],
                         "policy_params": params_key(identity["policy"]["params"]), "deals": len(group),
                         "mean_cpu_seconds": round(float(group["cpu_seconds"].mean()), 5),
                         "simlab_version": __version__, "measured": provenance})
    return pd.DataFrame(rows, columns=COST_COLUMNS)


def measured_where(folder: Path) -> str:
    """Where and when a run measured its costs, from its ``manifest.json``:
    ``2026-12-06, git 8d9dba9+, Linux-6.1-x86_64`` (``+``: uncommitted changes)."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "unknown (no manifest)"
    commit = (str(manifest.get("git_commit") or "")[:7] or "unknown") + ("+" if manifest.get("git_dirty") else "")
    finished = str(manifest.get("finished") or "unknown")[:10]
    return f"{finished}, git {commit}, {manifest.get('platform') or 'unknown platform'}"


def merged(table: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame:
    """``table`` with the rows of ``new`` added, each replacing a row of the same cell."""
    keys = ["game", "game_params", "policy", "policy_params"]
    both = pd.concat([table, new], ignore_index=True).drop_duplicates(keys, keep="last")
    return both.sort_values(keys, kind="stable").reset_index(drop=True)[COST_COLUMNS]


def main(argv: list[str] | None = None) -> int:
    """``python -m simlab.experiments.costs FOLDER...``: add the folders' measured costs to the table."""
    parser = argparse.ArgumentParser(prog="python -m simlab.experiments.costs",
                                     description="Add the measured CPU per deal of finished runs to the "
                                                 "table simlab run estimates costs from.")
    parser.add_argument("folders", nargs="+", type=Path, help="output folders of finished runs")
    parser.add_argument("--table", type=Path, default=COSTS_FILE, help=f"the table (default {COSTS_FILE})")
    args = parser.parse_args(argv)
    new = measured(args.folders)
    merged(load_table(args.table), new).to_csv(args.table, index=False)
    print(f"{len(new)} cell(s) measured into {args.table}.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
