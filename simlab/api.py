"""The notebook API of experiments: ``run``, ``summarize``, ``load_config``.

``import simlab`` imports this module, in every worker process too. The runner
and the tables bring pandas, scipy, matplotlib and joblib, so ``run`` and
``summarize`` import them when called: importing them here took ``import simlab``
from 2.5 s to 10 s (measured on the 2-core development machine under load).
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simlab.experiments.config import ExperimentConfig, config_from_dict, load_config, with_overrides

if TYPE_CHECKING:  # annotations only: pandas is one of the heavy imports (module docstring)
    import pandas as pd

__all__ = ["load_config", "run", "summarize"]


def run(config: str | Path | dict[str, Any] | ExperimentConfig, *, n_jobs: int | None = None,
        backend: str | None = None, chunk_size: int | None = None, scheduler: str | None = None,
        deal_timeout: float | None = None, worker_memory: float | str | None = None,
        output: str | Path | None = None, progress: bool | None = None,
        allow_outside_results: bool = False) -> pd.DataFrame:
    """Run an experiment (resuming what its output folder already holds) and write its report.

    Args:
        config: a YAML file, an already parsed dict, or an ``ExperimentConfig``.
        n_jobs, backend, chunk_size, scheduler, deal_timeout, worker_memory: override the
            config's ``execution`` (``None`` keeps the config's; ``"none"``: no limit).
        output: override the output folder.
        progress: show progress bars (default: only on a terminal).
        allow_outside_results: let the output folder lie outside the results root
            (``results/`` of the current directory, or ``SIMLAB_RESULTS_ROOT``).

    Returns:
        The per-deal table: game, policy, deal, verdict, end_reason, moves,
        cards_home, nodes, cpu_seconds, error; with a ``ladder`` also difficulty.

    Raises:
        ConfigError: for an invalid config, before anything is written.
    """
    from simlab.experiments.runner import run_experiment  # when called: see the module docstring

    if isinstance(config, dict):
        config = config_from_dict(config, source="<dict>")
    elif not isinstance(config, ExperimentConfig):
        config = load_config(config)
    config = with_overrides(config, source="run()", n_jobs=n_jobs, backend=backend,
                            chunk_size=chunk_size, scheduler=scheduler, deal_timeout=deal_timeout,
                            worker_memory=worker_memory, output=str(output) if output is not None else None)
    outcome = run_experiment(config, progress=progress, allow_outside_results=allow_outside_results)
    if outcome.failed:
        warnings.warn(f"{outcome.failed} deal(s) failed; see {outcome.folder / 'errors.txt'} and the "
                      "'error' column.", RuntimeWarning, stacklevel=2)
    return outcome.frame


def summarize(frame: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Per game and policy: deals, won, lost, unknown, win rate, Wilson interval,
    the range with unknowns as losses and as wins, mean moves and effort."""
    from simlab.experiments.tables import summarize as table  # when called: see the module docstring

    return table(frame, level)
