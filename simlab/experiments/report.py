"""Writing an output folder's tables, figures, manifest and ``report.md``.

Everything here is rebuilt from the per-deal table, so ``simlab report FOLDER``
regenerates it from the database without playing a deal.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd

from simlab.experiments.config import ExperimentConfig, config_from_dict, load_config
from simlab.experiments.plots import save_figures
from simlab.experiments.store import DATABASE_NAME, ResultStore, deals_frame, readable_cells, stored_cells
from simlab.experiments.tables import claims_table, comparisons_table, summarize

# Files of an output folder besides the database (``store.DATABASE_NAME``), the
# tables and the figures.
RESOLVED_CONFIG = "config.resolved.yaml"  # the config as run, written by the runner
MANIFEST = "manifest.json"
ERRORS = "errors.txt"
PACKAGES = ("numpy", "pandas", "scipy", "joblib", "numba", "matplotlib", "PyYAML", "tqdm",
            "dask", "distributed")


def git_commit() -> tuple[str | None, bool | None]:
    """The commit of the simlab checkout and whether it has uncommitted changes."""
    root = Path(__file__).resolve().parents[2]
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                                capture_output=True, text=True, timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None, None
    return commit or None, bool(status.strip())


def package_versions() -> dict[str, str | None]:
    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def build_manifest(config: ExperimentConfig, started: str, finished: str, played: int,
                   sessions: list[dict[str, Any]], configs: list[dict[str, Any]] | None = None
                   ) -> dict[str, Any]:
    """Where and how the results were made: versions, commit, times, execution, and
    every config the folder has seen (``store.configs``)."""
    from simlab import __version__

    commit, dirty = git_commit()
    return {
        "experiment": config.name, "config_file": config.source, "simlab_version": __version__,
        "git_commit": commit, "git_dirty": dirty, "python": sys.version.split()[0],
        "platform": platform.platform(), "packages": package_versions(),
        "started": started, "finished": finished, "execution": config.execution.to_dict(),
        "deals_played_by_this_run": played, "sessions": sessions,
        "configs": [{"recorded": c["recorded"], "config": c["config"]} for c in configs or []],
    }


def write_reports(folder: Path, config: ExperimentConfig, frame: pd.DataFrame,
                  manifest: dict[str, Any], errors: pd.DataFrame | None = None) -> dict[str, pd.DataFrame]:
    """Write deals/summary/claims/comparisons CSVs, figures, errors, manifest and report.md.

    Returns:
        The tables by name.
    """
    folder = Path(folder)
    tables = {"deals": frame, "summary": summarize(frame),
              "claims": claims_table(frame, config.claims), "comparisons": comparisons_table(frame)}
    for name, table in tables.items():
        table.to_csv(folder / f"{name}.csv", index=False)
    figures = save_figures(folder, frame, tables["summary"], tables["claims"])
    _write_errors(folder, errors)
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    from simlab.experiments.markdown import report_markdown

    text = report_markdown(config, tables, figures, manifest)
    (folder / "report.md").write_text(text, encoding="utf-8")
    return tables


def _write_errors(folder: Path, errors: pd.DataFrame | None) -> None:
    """Tracebacks of failed deals, or no file when none failed."""
    path = folder / ERRORS
    if errors is None or errors.empty:
        path.unlink(missing_ok=True)
        return
    parts = [f"== {r.game} / {r.policy} / deal {r.deal}\n{r.traceback}" for r in errors.itertuples()]
    path.write_text("\n".join(parts), encoding="utf-8")


def rebuild(folder: Path) -> dict[str, pd.DataFrame]:
    """Rebuild every table, figure and report.md of ``folder`` from its database.

    Raises:
        ConfigError: if the folder holds no experiment (no resolved config or database),
            a run is writing to it, or its database is damaged.
    """
    from simlab.errors import ConfigError
    from simlab.experiments.lock import folder_lock

    folder = Path(folder)
    for needed in (RESOLVED_CONFIG, DATABASE_NAME):
        if not (folder / needed).is_file():
            raise ConfigError(f"{folder}: not an experiment folder: '{needed}' is missing. "
                              "Run the experiment first (simlab run FILE).")
    with folder_lock(folder):  # a run writes these same files
        return _rebuild(folder)


def _rebuild(folder: Path) -> dict[str, pd.DataFrame]:
    """``rebuild`` once the folder is ours."""
    with ResultStore(folder) as store:
        configs = store.configs()
        if configs:  # the cells as recorded: no user policy module is imported
            last = configs[-1]
            config = config_from_dict(last["config"], source=str(folder / RESOLVED_CONFIG),
                                      import_policies=False)
            cells = stored_cells(config, last["cells"])
        else:  # a folder written before configs were recorded (simlab 0.1): its keys then
            config = load_config(folder / RESOLVED_CONFIG)
            cells = readable_cells(config, store.cell_identities())
        frame = deals_frame(config, store, tracebacks=True, cells=cells)
        sessions = list(store.sessions())
    manifest = _stored_manifest(folder) or build_manifest(
        config, sessions[0]["started"] if sessions else "", sessions[-1]["finished"] if sessions else "",
        0, sessions)
    manifest["sessions"] = sessions
    manifest["configs"] = [{"recorded": c["recorded"], "config": c["config"]} for c in configs]
    errors = frame[frame["verdict"] == "error"]
    return write_reports(folder, config, frame.drop(columns="traceback"), manifest, errors)


def _stored_manifest(folder: Path) -> dict[str, Any] | None:
    try:
        return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def recover(folder: Path) -> int:
    """Rebuild a damaged ``results.sqlite`` from ``deals.csv`` (the last report's deals).

    The damaged file is kept beside it as ``results.sqlite.damaged``. Rows are
    attached to the cells of ``config.resolved.yaml`` as its code is now; failed
    deals are left out (a rerun retries them). Returns the rows recovered.

    Raises:
        ConfigError: the folder lacks the resolved config or the per-deal table.
    """
    from simlab.errors import ConfigError
    from simlab.experiments.store import ROW_COLUMNS, cell_identity, cell_records, cells_of, typed_deals

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
    from simlab.experiments.lock import folder_lock
    from simlab.experiments.runner import now

    with folder_lock(folder):
        for suffix in ("", "-wal", "-shm"):
            damaged = folder / f"{DATABASE_NAME}{suffix}"
            if damaged.exists():
                damaged.replace(folder / f"{DATABASE_NAME}{suffix}.damaged")
        with ResultStore(folder) as store:
            for cell in cells:
                store.add_cell(cell.key, cell_identity(cell.game, cell.policy, config.root_seed))
            store.add_rows(frame[list(ROW_COLUMNS)].to_dict("records"))
            store.add_config(now(), config.to_dict(), cell_records(config, cells))
    return len(frame)
