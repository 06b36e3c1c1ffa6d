"""The notebook API: ``run``, ``summarize``, ``load_results``, ``load_config`` for
experiments, and ``env`` for one deal played step by step.

``import simlab`` imports this module, in every worker process too. The runner
and the tables bring pandas, scipy, matplotlib and joblib, so ``run`` and
``summarize`` import them when called: importing them here took ``import simlab``
from 2.5 s to 10 s (measured on the 2-core development machine under load).
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from simlab.engine.environment import Environment
from simlab.engine.game import Game
from simlab.errors import ParameterError
from simlab.experiments.config import ExperimentConfig, config_from_dict, load_config, with_overrides
from simlab.games import make_game

if TYPE_CHECKING:  # annotations only: pandas is one of the heavy imports (module docstring)
    import pandas as pd

__all__ = ["env", "load_config", "load_results", "run", "summarize"]


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


def summarize(deals: pd.DataFrame | str | Path, level: float = 0.95) -> pd.DataFrame:
    """Per game and policy: deals, won, lost, unknown, win rate, Wilson interval,
    the range with unknowns as losses and as wins, mean moves and effort.

    Args:
        deals: the per-deal table (``run``, ``load_results``) or an output folder.
        level: the intervals' confidence level.
    """
    from simlab.experiments.tables import summarize as table  # when called: see the module docstring

    return table(load_results(deals) if isinstance(deals, (str, Path)) else deals, level)


def load_results(folder: str | Path) -> pd.DataFrame:
    """The per-deal table of an experiment already run (its output folder's ``deals.csv``),
    as ``run`` returns it; ``summarize`` gives its win rates with their intervals.

    Raises:
        ConfigError: the folder holds no per-deal table simlab wrote (the message names the file).
    """
    from simlab.experiments.frames import read_deals  # when called: see the module docstring

    return read_deals(Path(folder))


def env(game: str | Game, deal: int, /, observe: bool = True, *, max_moves: int | None = None,
        params: Mapping[str, Any] | None = None, **game_params: Any) -> Environment:
    """Deal ``deal`` of ``game`` (a name, its parameters as keywords or the mapping
    ``params``, or a ``Game``) to play step by step (``simlab.engine.environment``):
    ``reset``, ``legal_moves``, ``step``, ``observation``, ``clone``. With ``observe`` (the
    default) the agent sees only what a player sees; ``max_moves`` cuts a game short
    (``truncated``).

    Raises:
        UnknownNameError: an unknown game or parameter (with did-you-mean).
        ParameterError: a parameter's value, ``observe`` not a bool, ``max_moves`` not None
            nor an int of at least 1.
        ValueError: ``deal`` not a deal number (an int of at least 1).
    """
    if not isinstance(observe, bool):
        raise ParameterError(f"observe is True (what a player sees) or False (the full state); got {observe!r}.")
    if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1):
        raise ParameterError(f"max_moves is None (no cap) or an int of at least 1; got {max_moves!r}.")
    return Environment(make_game(game, params, **game_params), deal, observe=observe, max_moves=max_moves)
