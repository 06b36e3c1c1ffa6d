"""The notebook API of experiments: ``run``, ``summarize``, ``load_config``.

Heavy modules (pandas, joblib, matplotlib) are imported when called, so
``import simlab`` stays fast in worker processes.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from simlab.experiments.config import ExperimentConfig


def load_config(path: str | Path) -> ExperimentConfig:
    """Read and validate an experiment config (YAML).

    Raises:
        ConfigError: naming the file and key path of the first mistake.
    """
    from simlab.experiments.config import load_config as load

    return load(path)


def run(config: str | Path | dict[str, Any] | ExperimentConfig, *, n_jobs: int | None = None,
        backend: str | None = None, chunk_size: int | None = None, scheduler: str | None = None,
        deal_timeout: float | None = None, output: str | Path | None = None,
        progress: bool | None = None) -> pd.DataFrame:
    """Run an experiment (resuming what its output folder already holds) and write its report.

    Args:
        config: a YAML file, an already parsed dict, or an ``ExperimentConfig``.
        n_jobs, backend, chunk_size, scheduler, deal_timeout: override the config's ``execution``.
        output: override the output folder.
        progress: show progress bars (default: only on a terminal).

    Returns:
        The per-deal table: game, policy, deal, verdict, end_reason, moves,
        cards_home, nodes, cpu_seconds, error.

    Raises:
        ConfigError: for an invalid config, before anything is written.
    """
    from simlab.experiments.config import ExperimentConfig, config_from_dict, with_overrides
    from simlab.experiments.runner import run_experiment

    if isinstance(config, dict):
        config = config_from_dict(config, source="<dict>")
    elif not isinstance(config, ExperimentConfig):
        config = load_config(config)
    config = with_overrides(config, source="run()", n_jobs=n_jobs, backend=backend,
                            chunk_size=chunk_size, scheduler=scheduler, deal_timeout=deal_timeout,
                            output=str(output) if output is not None else None)
    outcome = run_experiment(config, progress=progress)
    if outcome.failed:
        warnings.warn(f"{outcome.failed} deal(s) failed; see {outcome.folder / 'errors.txt'} and the "
                      "'error' column.", RuntimeWarning, stacklevel=2)
    return outcome.frame


def summarize(frame: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Per game and policy: deals, won, lost, unknown, win rate, Wilson interval,
    the range with unknowns as losses and as wins, mean moves and effort."""
    from simlab.experiments.tables import summarize as table

    return table(frame, level)
