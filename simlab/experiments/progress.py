"""Progress: deals done, rate and ETA overall, and each cell's running win rate.

On a terminal (stderr is a TTY): one live bar for the run, with deals done, the rate
and the ETA, and under it one bar per cell (its running win rate and unknown count).
Elsewhere (a log file, ``| tee``, CI, nohup): one short timestamped line every
``LOG_SECONDS`` seconds (deals, rate, ETA, unknowns), and the cells' running win
rates, wrapped, at most every ``RATES_SECONDS`` seconds and at the end, so a
long run can still be watched without lines too long to read.

The rate and the ETA count from the end of the first chunk of every worker (``Pace``):
before it the workers start and may compile, which says nothing about the deals to come
(and the first chunks of several workers end together, however long they took), so until
a later chunk ends the ETA reads ``estimating``.
"""

from __future__ import annotations

import sys
import time
from datetime import timedelta
from typing import Any, TextIO

from tqdm import tqdm

from simlab.experiments.cells import Cell
from simlab.experiments.config import ExperimentConfig
from simlab.experiments.store import ResultStore
from simlab.experiments.worker import ChunkTask
from simlab.policies.record import UNKNOWN, WON

MAX_CELL_BARS = 24  # beyond this, one line per cell would not fit a screen
LOG_SECONDS = 5.0  # between two log lines when the output is not a terminal
RATES_SECONDS = 30.0  # between two listings of the cells' win rates in the log
LOG_WIDTH = 100  # characters a logged line wraps at
# Until the first deal ends (the runner says apart, once, when the workers must compile first).
STARTING = "starting the workers"
ESTIMATING = "estimating"  # the ETA until the pace of the deals is known
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar:24}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]"


class Pace:
    """Deals per second and the time left, measured from the end of the first chunk of
    each of the ``workers`` (those include starting the workers and compiling, and end
    about together); unknown until a later chunk ends."""

    def __init__(self, total: int, workers: int = 1) -> None:
        self.total = total
        self.first_chunks = max(1, workers)  # chunks that end before the basis is taken
        self.chunks = self.seen = 0
        self.basis: tuple[float, int] | None = None  # (when, deals done) at the last first chunk's end

    def add(self, done: int, now: float) -> None:
        """Note ``done`` deals finished at ``now`` (more than before: a chunk, or part of one, ended)."""
        if done > self.seen:
            self.chunks, self.seen = self.chunks + 1, done
        if self.basis is None and self.chunks >= self.first_chunks:
            self.basis = (now, done)

    def rate(self, done: int, now: float) -> float | None:
        """Deals per second since the basis, or None before a chunk ended after it."""
        if self.basis is None or done <= self.basis[1] or now <= self.basis[0]:
            return None
        return (done - self.basis[1]) / (now - self.basis[0])

    def eta(self, done: int, now: float) -> str:
        """The time left (``0:01:05``), or ``estimating``."""
        if done >= self.total:
            return str(timedelta(0))
        rate = self.rate(done, now)
        return str(timedelta(seconds=round((self.total - done) / rate))) if rate else ESTIMATING


class CellCounts:
    """One cell's running counts: won, played to a verdict, unknown; for a bound
    (``Policy.bound``: its rows carry ``bound_value``) the sum and count of its values."""

    def __init__(self, label: str, won: int = 0, decided: int = 0, unknown: int = 0,
                 values: list[float] | None = None) -> None:
        self.label, self.won, self.decided, self.unknown = label, won, decided, unknown
        self.value_sum, self.valued = sum(values or []), len(values or [])

    def add(self, rows: list[dict[str, Any]]) -> None:
        played = [row for row in rows if row["verdict"] != "error"]
        values = [row["bound_value"] for row in played if _has_value(row.get("bound_value"))]
        self.value_sum += sum(values)
        self.valued += len(values)
        self.won += sum(row["verdict"] == WON for row in played)
        self.unknown += sum(row["verdict"] == UNKNOWN for row in played) - len(values)
        self.decided += len(played)

    def rate(self) -> str:
        if self.valued:  # a bound, not a player: its running mean
            return f"bound {100 * self.value_sum / self.valued:5.1f}%"
        return f"{100 * self.won / self.decided:5.1f}%" if self.decided else "  -  "

    def unknowns(self) -> str:
        return f", {self.unknown} unknown" if self.unknown else ""


def _has_value(value: Any) -> bool:
    """Whether a row's optional ``bound_value`` holds a number (not None or NaN)."""
    return value is not None and value == value


class Progress:
    """Bars on a terminal, log lines elsewhere, or nothing.

    Args:
        config: the experiment.
        cells: its cells.
        store: the database (for the deals a resumed run already has).
        tasks: the chunks this run will play.
        enabled: ``True`` bars, ``False`` nothing, ``None`` bars on a terminal and log
            lines otherwise.
        stream: where log lines go (stderr).
        workers: how many play at once (the rate waits for the first chunk of each).
    """

    def __init__(self, config: ExperimentConfig, cells: list[Cell], store: ResultStore,
                 tasks: list[ChunkTask], enabled: bool | None = None, stream: TextIO | None = None,
                 workers: int = 1) -> None:
        self.stream = stream or sys.stderr
        bars = enabled if enabled is not None else self.stream.isatty()
        self.logging = enabled is None and not bars
        self.failed, self.done = 0, 0
        self.total = sum(len(task.deals) for task in tasks)
        self.started = self.last_line = self.last_rates = time.monotonic()
        self.pace = Pace(self.total, workers)
        self.counts = self._stored_counts(config, cells, store) if bars or self.logging else {}
        self.cell_bars: dict[str, Any] = {}
        self.overall = tqdm(total=self.total, desc="deals", unit="deal", disable=not bars,
                            dynamic_ncols=True, position=0, file=self.stream, bar_format=BAR_FORMAT)
        if bars and len(cells) <= MAX_CELL_BARS:
            self._open_cell_bars(config, cells)
        if bars and self.total:
            self.overall.set_postfix_str(STARTING)

    @staticmethod
    def _stored_counts(config: ExperimentConfig, cells: list[Cell], store: ResultStore) -> dict[str, CellCounts]:
        rows = store.rows([c.key for c in cells])
        rows = rows[rows["deal"].isin(set(config.deals)) & (rows["verdict"] != "error")]
        counts = {}
        for cell in cells:
            mine = rows[rows["cell"] == cell.key]
            values = mine["bound_value"].dropna().tolist()
            counts[cell.key] = CellCounts(f"{cell.game.label} / {cell.policy.label}",
                                          int((mine["verdict"] == WON).sum()), len(mine),
                                          int((mine["verdict"] == UNKNOWN).sum()) - len(values), values)
        return counts

    def _open_cell_bars(self, config: ExperimentConfig, cells: list[Cell]) -> None:
        width = max(len(self.counts[c.key].label) for c in cells)
        for position, cell in enumerate(cells, start=1):
            counts = self.counts[cell.key]
            self.cell_bars[cell.key] = tqdm(
                total=len(config.deals), initial=counts.decided, desc=f"{counts.label:<{width}}",
                unit="deal", position=position, leave=True, dynamic_ncols=True, file=self.stream,
                bar_format="{desc} {bar:20} {n_fmt}/{total_fmt} {postfix}")
            self._show_rate(cell.key)

    def _show_rate(self, key: str) -> None:
        counts = self.counts[key]
        shown = counts.rate() if counts.valued else f"win {counts.rate()}"
        self.cell_bars[key].set_postfix_str(f"{shown}{counts.unknowns()}", refresh=False)

    def update(self, rows: list[dict[str, Any]]) -> None:
        """Count one finished chunk (or part of one; none: a tick, for the log line's clock)."""
        self.failed += sum(row["verdict"] == "error" for row in rows)
        self.done += len(rows)
        self.pace.add(self.done, time.monotonic())
        self.overall.update(len(rows))
        if self.done:  # no longer starting: the rate and ETA (or that they are being estimated)
            self.overall.set_postfix_str(self.pace_text())
        key = rows[0]["cell"] if rows else None
        if key in self.counts:
            self.counts[key].add(rows)
        if key in self.cell_bars:
            self._show_rate(key)
            self.cell_bars[key].update(len(rows))
        if self.logging and time.monotonic() - self.last_line >= LOG_SECONDS:
            self.log_line()

    def pace_text(self) -> str:
        """The bar's rate and ETA, and failures: ``2.5 deals/s, ETA 0:00:12, failed 1``."""
        now = time.monotonic()
        rate = self.pace.rate(self.done, now)
        text = (f"{rate:.1f} deals/s, " if rate else "") + f"ETA {self.pace.eta(self.done, now)}"
        return text + (f", failed {self.failed}" if self.failed else "")

    def log_line(self, rates: bool = False) -> None:
        """One short plain line: deals done, rate, ETA, unknowns, failures; then the cells'
        running win rates, wrapped, when ``rates`` or ``RATES_SECONDS`` have passed."""
        self.last_line = time.monotonic()
        unknown = sum(c.unknown for c in self.counts.values())
        notes = (f", {unknown} unknown" if unknown else "") + (f", {self.failed} failed" if self.failed else "")
        done = f"[{time.strftime('%H:%M:%S')}] {self.done}/{self.total} deals"
        if not self.done and self.total:  # no rate or ETA to give yet
            print(f"{done}, {STARTING}", file=self.stream, flush=True)
        else:  # the rate since the first chunk once known, else the plain average so far
            rate = (self.pace.rate(self.done, self.last_line)
                    or self.done / max(self.last_line - self.started, 1e-9))
            eta = self.pace.eta(self.done, self.last_line)
            print(f"{done} ({100 * self.done / max(self.total, 1):.0f}%), {rate:.1f} deals/s, ETA {eta}{notes}",
                  file=self.stream, flush=True)
        if self.counts and (rates or self.last_line - self.last_rates >= RATES_SECONDS):
            self.last_rates = self.last_line
            cells = [f"{c.label} {c.rate().strip()}{c.unknowns()}" for c in self.counts.values()]
            print("\n".join(packed(cells, "  win rates: ", "    ")), file=self.stream, flush=True)

    def close(self) -> None:
        for bar in self.cell_bars.values():
            bar.close()
        self.overall.close()
        if self.logging and self.done:  # the last word: where the run ended, every cell's rate
            self.log_line(rates=True)


def packed(items: list[str], first: str, indent: str, width: int = LOG_WIDTH) -> list[str]:
    """``items`` joined by ``; `` into lines of at most ``width`` characters, broken only
    between items (a label cut in two reads as two), the first line after ``first``."""
    lines, line = [], first
    for i, item in enumerate(items):
        text = item + (";" if i < len(items) - 1 else "")
        if line.strip() and len(line) + 1 + len(text) > width and line not in (first, indent):
            lines.append(line)
            line = indent
        line += ("" if line in (first, indent) else " ") + text
    return lines + [line]
