"""Writing an output folder's tables, figures, manifest and ``report.md``.

Everything here is computed from the per-deal table, so ``rebuild`` regenerates
it from the database without playing a deal.
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

from simlab.experiments.config import ExperimentConfig
from simlab.experiments.frames import KEY_COLUMN
from simlab.experiments.ladder import difficulty_column, difficulty_table, skill_curve
from simlab.experiments.markdown import report_markdown
from simlab.experiments.plots import policy_names, save_figures
from simlab.experiments.tables import brackets_table, claims_table, comparisons_table, players, summarize
from simlab.games import make_game
from simlab.version import __version__

# Files of an output folder besides the database (``schema.DATABASE_NAME``), the
# tables and the figures.
RESOLVED_CONFIG = "config.resolved.yaml"  # the config as run, written by the runner
MANIFEST = "manifest.json"
ERRORS = "errors.txt"
PACKAGES = ("numpy", "pandas", "scipy", "statsmodels", "joblib", "numba", "matplotlib", "PyYAML", "tqdm",
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
    commit, dirty = git_commit()
    return {
        "experiment": config.name, "config_file": config.source, "root_seed": config.root_seed,
        "simlab_version": __version__,
        "git_commit": commit, "git_dirty": dirty, "python": sys.version.split()[0],
        "platform": platform.platform(), "packages": package_versions(),
        "started": started, "finished": finished, "execution": config.execution.to_dict(),
        "deals_played_by_this_run": played, "sessions": sessions,
        "configs": [{"recorded": c["recorded"], "config": c["config"]} for c in configs or []],
    }


def write_reports(folder: Path, config: ExperimentConfig, frame: pd.DataFrame,
                  manifest: dict[str, Any], errors: pd.DataFrame | None = None,
                  tries: pd.DataFrame | None = None,
                  cells: list[dict[str, Any]] | None = None) -> dict[str, pd.DataFrame]:
    """Write deals/summary/claims/comparisons CSVs, figures, errors, manifest and report.md;
    with a ladder also the ``difficulty`` column of ``deals.csv``, ``difficulty.csv`` and
    ``skill_curve.csv`` (``tries``: the stored extra tries, ``frames.tries_frame``).

    ``cells`` (``cells.cell_records``: key, labels, information, identity of each cell
    of ``frame``) go into the manifest, and each row's key into ``deals.csv``'s last
    column (``frames.KEY_COLUMN``): what ``simlab recover`` needs to file a row under
    the key it was played with.

    Returns:
        The tables by name (the per-deal table without the key column).
    """
    folder = Path(folder)
    summary = summarize(frame)
    tables = {"deals": frame, "summary": summary, "brackets": brackets_table(summary),
              "claims": claims_table(frame, config.claims),
              "comparisons": comparisons_table(frame, keep=config.report.comparisons)}
    if config.ladder is not None:
        tables.update(ladder_tables(config, frame, tables["summary"], tries))
    for name, table in tables.items():
        if name == "deals" and cells is not None:
            table = with_keys(table, cells)
        table.to_csv(folder / f"{name}.csv", index=False)
    if cells is not None:
        manifest = {**manifest, "cells": cells}
    # The figures draw players' win rates; a relaxation bound is in brackets.csv and the report.
    figures = save_figures(folder, players(tables["deals"]), players(summary), tables["claims"],
                           tables.get("difficulty"), tables.get("skill_curve"), game_cards(config),
                           policy_names(config))
    _write_errors(folder, errors)
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    text = report_markdown(config, tables, figures, manifest)
    (folder / "report.md").write_text(text, encoding="utf-8")
    return tables


def game_cards(config: ExperimentConfig) -> dict[str, int]:
    """Each game label's cards (52 times its decks): the range of the cards-home figure."""
    return {game.label: make_game(game.name, **game.params).table.n_cards for game in config.games}


def with_keys(deals: pd.DataFrame, cells: list[dict[str, Any]]) -> pd.DataFrame:
    """``deals`` with each row's cell key as its last column (``frames.KEY_COLUMN``)."""
    keys = {(c["game"], c["policy"]): c["key"] for c in cells}
    return deals.assign(**{KEY_COLUMN: [keys[pair] for pair in zip(deals["game"], deals["policy"])]})


def ladder_tables(config: ExperimentConfig, frame: pd.DataFrame, summary: pd.DataFrame,
                  tries: pd.DataFrame | None) -> dict[str, pd.DataFrame]:
    """The per-deal table with its ``difficulty`` column, the difficulty table and the skill curve."""
    ladder = config.ladder
    assert ladder is not None
    deals = frame.assign(difficulty=difficulty_column(frame, tries, ladder))
    return {"deals": deals, "difficulty": difficulty_table(deals, ladder),
            "skill_curve": skill_curve(summary, deals, tries, ladder, config.policies)}


def _write_errors(folder: Path, errors: pd.DataFrame | None) -> None:
    """Tracebacks of failed deals, or no file when none failed."""
    path = folder / ERRORS
    if errors is None or errors.empty:
        path.unlink(missing_ok=True)
        return
    parts = [f"== {r.game} / {r.policy} / deal {r.deal}\n{r.traceback}" for r in errors.itertuples()]
    path.write_text("\n".join(parts), encoding="utf-8")
