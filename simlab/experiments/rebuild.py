"""Rebuilding an output folder's tables, figures and ``report.md`` from its database
(``simlab report FOLDER``), without playing a deal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from simlab.errors import ConfigError
from simlab.experiments.cells import cell_records, readable_cells, stored_cells, try_cells
from simlab.experiments.config import config_from_dict, load_config
from simlab.experiments.frames import deals_frame, tries_frame
from simlab.experiments.lock import folder_lock
from simlab.experiments.report import MANIFEST, RESOLVED_CONFIG, build_manifest, write_reports
from simlab.experiments.schema import DATABASE_NAME
from simlab.experiments.space import disk_full_is_bad_input
from simlab.experiments.store import ResultStore


def rebuild(folder: Path) -> dict[str, pd.DataFrame]:
    """Rebuild every table, figure and report.md of ``folder`` from its database.

    Raises:
        ConfigError: if the folder holds no experiment (no resolved config or database),
            a run is writing to it, its database is damaged, or the disk is full.
    """
    folder = Path(folder)
    for needed in (RESOLVED_CONFIG, DATABASE_NAME):
        if not (folder / needed).is_file():
            raise ConfigError(f"{folder}: not an experiment folder: '{needed}' is missing. "
                              "Run the experiment first (simlab run FILE).")
    with disk_full_is_bad_input(folder, f"simlab report {folder}"), folder_lock(folder):
        return _rebuild(folder)  # under the lock: a run writes these same files


def _rebuild(folder: Path) -> dict[str, pd.DataFrame]:
    """``rebuild`` once the folder is ours."""
    with ResultStore(folder) as store:
        configs = store.configs()
        if configs:  # the cells as recorded: no user policy module is imported
            last = configs[-1]
            config = config_from_dict(last["config"], source=str(folder / RESOLVED_CONFIG),
                                      import_policies=False)
            cells = stored_cells(config, last["cells"])
            records = last["cells"]
        else:  # a folder written before configs were recorded (simlab 0.1): its keys then
            config = load_config(folder / RESOLVED_CONFIG)
            cells = readable_cells(config, store.cell_identities())
            records = cell_records(config, cells)
        frame = deals_frame(config, store, tracebacks=True, cells=cells)
        tries = tries_frame(config, store, try_cells(config, cells, stochastic_only=False))
        sessions = list(store.sessions())
    manifest = _stored_manifest(folder) or build_manifest(
        config, sessions[0]["started"] if sessions else "", sessions[-1]["finished"] if sessions else "",
        0, sessions)
    manifest["sessions"] = sessions
    manifest["configs"] = [{"recorded": c["recorded"], "config": c["config"]} for c in configs]
    errors = frame[frame["verdict"] == "error"]
    return write_reports(folder, config, frame.drop(columns="traceback"), manifest, errors, tries,
                         cells=records)


def _stored_manifest(folder: Path) -> dict[str, Any] | None:
    try:
        return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
