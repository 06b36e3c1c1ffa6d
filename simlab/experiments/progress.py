"""Progress bars: deals done, rate and ETA overall, and each cell's running win rate.

Shown only on a terminal by default, so logs and CI output stay quiet.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from simlab.policies.record import WON

if TYPE_CHECKING:
    from simlab.experiments.config import ExperimentConfig
    from simlab.experiments.store import Cell, ResultStore
    from simlab.experiments.worker import ChunkTask

MAX_CELL_BARS = 24  # beyond this, one line per cell would not fit a screen


class Progress:
    """An overall bar plus one bar per (game, policy) cell.

    Args:
        config: the experiment.
        cells: its cells.
        store: the database (for the deals a resumed run already has).
        tasks: the chunks this run will play.
        enabled: show the bars; ``None`` = only when stderr is a terminal.
    """

    def __init__(self, config: ExperimentConfig, cells: list[Cell], store: ResultStore,
                 tasks: list[ChunkTask], enabled: bool | None = None) -> None:
        if enabled is None:
            enabled = sys.stderr.isatty()
        self.enabled = enabled
        self.failed = 0
        self.wins: dict[str, list[int]] = {}
        self.cell_bars: dict[str, Any] = {}
        total = sum(len(task.deals) for task in tasks)
        self.overall = tqdm(total=total, desc="deals", unit="deal", disable=not enabled,
                            dynamic_ncols=True, position=0)
        if enabled and len(cells) <= MAX_CELL_BARS:
            self._open_cell_bars(config, cells, store)

    def _open_cell_bars(self, config: ExperimentConfig, cells: list[Cell], store: ResultStore) -> None:
        rows = store.rows([c.key for c in cells])
        rows = rows[rows["deal"].isin(set(config.deals)) & (rows["verdict"] != "error")]
        width = max(len(f"{c.game.label} / {c.policy.label}") for c in cells)
        for position, cell in enumerate(cells, start=1):
            mine = rows[rows["cell"] == cell.key]
            self.wins[cell.key] = [int((mine["verdict"] == WON).sum()), len(mine)]
            label = f"{cell.game.label} / {cell.policy.label}"
            self.cell_bars[cell.key] = tqdm(
                total=len(config.deals), initial=len(mine), desc=f"{label:<{width}}", unit="deal",
                position=position, leave=True, dynamic_ncols=True,
                bar_format="{desc} {bar:20} {n_fmt}/{total_fmt} {postfix}")
            self._show_rate(cell.key)

    def _show_rate(self, key: str) -> None:
        won, decided = self.wins[key]
        rate = f"win {100 * won / decided:5.1f}%" if decided else "win   -  "
        self.cell_bars[key].set_postfix_str(rate, refresh=False)

    def update(self, rows: list[dict[str, Any]]) -> None:
        """Count one finished chunk."""
        failed = sum(row["verdict"] == "error" for row in rows)
        if failed:
            self.failed += failed
            self.overall.set_postfix_str(f"failed {self.failed}", refresh=False)
        self.overall.update(len(rows))
        key = rows[0]["cell"] if rows else None
        if key in self.cell_bars:
            self.wins[key][0] += sum(row["verdict"] == WON for row in rows)
            self.wins[key][1] += len(rows) - failed
            self._show_rate(key)
            self.cell_bars[key].update(len(rows))

    def close(self) -> None:
        for bar in self.cell_bars.values():
            bar.close()
        self.overall.close()
