"""Recovering a damaged results database from the folder's ``deals.csv``
(``simlab recover FOLDER``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from simlab.errors import ConfigError
from simlab.experiments.config import load_config
from simlab.experiments.lock import folder_lock
from simlab.experiments.report import RESOLVED_CONFIG
from simlab.experiments.store import (
    DATABASE_NAME,
    OPTIONAL_COLUMNS,
    ROW_COLUMNS,
    ResultStore,
    cell_identity,
    cell_records,
    cells_of,
    now,
    typed_deals,
)


def recover(folder: Path) -> int:
    """Rebuild a damaged ``results.sqlite`` from ``deals.csv`` (the last report's deals).

    The damaged file is kept beside it as ``results.sqlite.damaged``. Rows are
    attached to the cells of ``config.resolved.yaml`` as its code is now; failed
    deals are left out (a rerun retries them). Returns the rows recovered.

    Raises:
        ConfigError: the folder lacks the resolved config or the per-deal table.
    """
    folder = Path(folder)
    for needed in (RESOLVED_CONFIG, "deals.csv"):
        if not (folder / needed).is_file():
            raise ConfigError(f"{folder}: cannot recover the database: '{needed}' is missing. Move "
                              f"{folder / DATABASE_NAME} away and run the experiment again.")
    config = load_config(folder / RESOLVED_CONFIG)
    frame = typed_deals(pd.read_csv(folder / "deals.csv", keep_default_na=False))
    cells = cells_of(config)
    keys = {(c.game.label, c.policy.label): c.key for c in cells}
    frame = frame[frame["verdict"] != "error"].assign(
        cell=[keys.get(pair) for pair in zip(frame["game"], frame["policy"])], traceback="")
    frame = frame[frame["cell"].notna()]
    with folder_lock(folder):
        for suffix in ("", "-wal", "-shm"):
            damaged = folder / f"{DATABASE_NAME}{suffix}"
            if damaged.exists():
                damaged.replace(folder / f"{DATABASE_NAME}{suffix}.damaged")
        with ResultStore(folder) as store:
            for cell in cells:
                store.add_cell(cell.key, cell_identity(cell.game, cell.policy, config.root_seed))
            kept = list(ROW_COLUMNS) + [c for c in OPTIONAL_COLUMNS if c in frame]
            store.add_rows(frame[kept].to_dict("records"))
            store.add_config(now(), config.to_dict(), cell_records(config, cells))
    return len(frame)
