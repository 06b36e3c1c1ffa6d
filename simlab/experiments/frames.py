"""The per-deal table: built from the stored rows of a config's cells, typed, read back.

``deals_frame`` reads the rows of a config's cells from the results database as the
per-deal table (``DEAL_COLUMNS``) that the runner returns and every report table is
computed from; ``typed_deals`` gives it (or a re-read ``deals.csv``) its documented
dtypes; ``tries_frame`` is the table of a ladder's extra tries.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from simlab.errors import ConfigError
from simlab.experiments.cells import Cell, cells_of, information_label
from simlab.experiments.config import ExperimentConfig
from simlab.experiments.schema import BOUND_COLUMNS, ROW_COLUMNS
from simlab.experiments.store import ResultStore

DEALS_CSV = "deals.csv"  # the per-deal table a report writes beside it
# The per-deal table (``deals_frame``): one row per (game, policy, deal).
DEAL_COLUMNS = ("game", "policy", "information", "deal", "verdict", "end_reason", "moves", "cards_home", "nodes",
                "cpu_seconds", "error")
# The optional counts (``schema.CRITICAL_COLUMNS``) in the per-deal table, present only when
# some deal of it has them (``critical_share`` is derived): tables of other experiments keep
# their columns. ``schema.BOUND_COLUMNS`` likewise appear only when some deal has a bound's value.
DEAL_CRITICAL_COLUMNS = ("critical_decisions", "decision_positions", "critical_share", "critical_undecided")
# The last column of ``deals.csv`` (not of the per-deal table): each row's cell key, so
# ``simlab recover`` files a row under the key it was played with, whatever the code is now.
KEY_COLUMN = "cell"
TIMING_COLUMNS = ("cpu_seconds",)  # differ from run to run; leave out of equality checks
# The table of a ladder's extra tries (``tries_frame``).
TRY_COLUMNS = ("game", "policy", "deal", "attempt", "verdict")


def tries_frame(config: ExperimentConfig, store: ResultStore, extra: list[Cell]) -> pd.DataFrame:
    """The stored extra tries ``extra`` (``cells.try_cells``) of this config's deals:
    game, the rung's own policy label, deal, attempt (>= 1) and verdict."""
    rows = store.rows([c.key for c in extra]) if extra else pd.DataFrame(columns=list(ROW_COLUMNS))
    rows = rows[rows["deal"].isin(set(config.deals))]
    by_key = {c.key: c for c in extra}
    return pd.DataFrame({
        "game": rows["cell"].map(lambda k: by_key[k].game.label),
        "policy": rows["cell"].map(lambda k: by_key[k].policy.label.rsplit(" (try ", 1)[0]),
        "deal": rows["deal"].astype("int64"),
        "attempt": rows["cell"].map(lambda k: by_key[k].attempt).astype("int64"),
        "verdict": rows["verdict"].astype(str),
    }, columns=list(TRY_COLUMNS)).reset_index(drop=True)


def deals_frame(config: ExperimentConfig, store: ResultStore, tracebacks: bool = False,
                cells: list[Cell] | None = None) -> pd.DataFrame:
    """The per-deal table of this config's cells (default ``cells_of(config)``) and deals,
    in config order.

    Rows of other parameters or deals that share the database are left out.
    """
    cells = cells if cells is not None else cells_of(config)
    rows = store.rows([c.key for c in cells])
    position = {deal: i for i, deal in enumerate(config.deals)}
    rows = rows[rows["deal"].isin(position)]
    order = {c.key: i for i, c in enumerate(cells)}
    rows = rows.assign(_cell=rows["cell"].map(order), _deal=rows["deal"].map(position))
    rows = rows.sort_values(["_cell", "_deal"], kind="stable")
    rows["game"] = rows["cell"].map({c.key: c.game.label for c in cells})
    rows["policy"] = rows["cell"].map({c.key: c.policy.label for c in cells})
    rows["information"] = rows["cell"].map({c.key: c.information or information_label(c) for c in cells})
    rows = with_critical_share(rows)
    columns = (list(DEAL_COLUMNS) + critical_columns(rows) + bound_columns(rows)
               + (["traceback"] if tracebacks else []))
    return typed_deals(rows[columns].reset_index(drop=True))


def with_critical_share(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with ``critical_share``: critical decisions per position with a choice
    (0 without one; empty where not computed)."""
    critical = pd.to_numeric(rows["critical_decisions"], errors="coerce")
    positions = pd.to_numeric(rows["decision_positions"], errors="coerce")
    share = (critical / positions.where(positions > 0)).where(positions > 0, 0.0).where(critical.notna())
    return rows.assign(critical_share=share)


def critical_columns(frame: pd.DataFrame) -> list[str]:
    """``DEAL_CRITICAL_COLUMNS`` when some deal of ``frame`` has a count, else none."""
    return list(DEAL_CRITICAL_COLUMNS) if _any_number(frame, "critical_decisions") else []


def bound_columns(frame: pd.DataFrame) -> list[str]:
    """``BOUND_COLUMNS`` when some deal of ``frame`` has a bound's value, else none."""
    return list(BOUND_COLUMNS) if _any_number(frame, "bound_value") else []


def _numbers(values: pd.Series) -> pd.Series:
    """An optional column as numbers: NaN where empty (a re-read ``deals.csv`` holds "")."""
    return pd.to_numeric(values.replace("", None), errors="coerce")


def _any_number(frame: pd.DataFrame, column: str) -> bool:
    """Whether ``frame`` has ``column`` and some row of it holds a number."""
    return column in frame and bool(_numbers(frame[column]).notna().any())


def typed_deals(frame: pd.DataFrame) -> pd.DataFrame:
    """The per-deal table with its documented dtypes (also for a re-read ``deals.csv``,
    whose ``KEY_COLUMN`` it leaves out)."""
    frame = frame.drop(columns=[KEY_COLUMN], errors="ignore")
    if "information" not in frame:  # a deals.csv written before the column existed
        frame.insert(2, "information", "")
    for column in ("deal", "moves", "cards_home", "nodes"):
        frame[column] = frame[column].astype("int64")
    frame["cpu_seconds"] = frame["cpu_seconds"].astype("float64")
    for column in ("game", "policy", "information", "verdict", "end_reason", "error"):
        frame[column] = frame[column].fillna("").astype(str)
    for column in DEAL_CRITICAL_COLUMNS:
        if column in frame:  # empty where not computed (a re-read deals.csv holds "")
            values = _numbers(frame[column])
            frame[column] = values.astype("float64" if column == "critical_share" else "Int64")
    if "bound_value" in frame:
        frame["bound_value"] = _numbers(frame["bound_value"]).astype("float64")
    return frame


def read_deals(folder: Path) -> pd.DataFrame:
    """The per-deal table of an output folder as its last run or report wrote it
    (``deals.csv``), with its documented dtypes; the folder is only read.

    Raises:
        ConfigError: the folder has no ``deals.csv`` or it is not the table simlab writes.
    """
    path = Path(folder) / DEALS_CSV
    if not path.is_file():
        raise ConfigError(f"{path}: expected the per-deal table of an experiment's output folder, found "
                          f"{'no such file' if not path.exists() else 'something that is not a file'}. "
                          "Run the experiment first (simlab run FILE), or name its output folder.")
    try:
        return typed_deals(pd.read_csv(path, keep_default_na=False, dtype={KEY_COLUMN: str}))
    except (OSError, ValueError, KeyError, TypeError, pd.errors.ParserError) as error:
        raise ConfigError(f"{path}: expected the per-deal table simlab writes, found a column missing or a "
                          f"value of another type ({type(error).__name__}: {error}).") from None
