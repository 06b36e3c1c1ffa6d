"""The ``simlab run FILE`` and ``simlab report FOLDER`` subcommands.

``simlab.cli`` calls ``add_parsers(subparsers)``; each handler returns the exit
status: 2 for a config error (nothing written), 1 when some deals failed,
130 when interrupted (every finished deal is kept), 0 otherwise.
Without ``simlab.cli`` they run as ``python -m simlab.experiments.commands``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from simlab.errors import ConfigError

EXIT_OK, EXIT_FAILED_DEALS, EXIT_CONFIG, EXIT_INTERRUPTED = 0, 1, 2, 130


def add_parsers(subparsers: Any) -> None:
    """Add ``run`` and ``report`` to an argparse subparsers object."""
    run = subparsers.add_parser(
        "run", help="run an experiment config (resumes what its output folder holds)",
        description="Play every game x policy x deal of a YAML config in parallel, store each "
                    "result as it finishes, and write tables, plots and report.md.")
    run.add_argument("file", help="the experiment config (YAML), e.g. experiments/default.yaml")
    run.add_argument("--n-jobs", type=int, help="worker processes (-1: every core)")
    run.add_argument("--backend", help="loky (default), threading, sequential or dask")
    run.add_argument("--chunk-size", type=int, help="deals per unit of work")
    run.add_argument("--scheduler", help="dask scheduler address, e.g. tcp://host:8786")
    run.add_argument("--output", help="output folder (default: results/<name>)")
    run.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="show progress bars (default: only on a terminal)")
    run.set_defaults(func=run_command)
    report = subparsers.add_parser(
        "report", help="rebuild tables, plots and report.md from an output folder's database",
        description="Rebuild every table, plot and report.md of FOLDER without replaying deals.")
    report.add_argument("folder", help="an experiment's output folder, e.g. results/default")
    report.set_defaults(func=report_command)


def run_command(args: argparse.Namespace) -> int:
    """``simlab run FILE``: returns the exit status."""
    from simlab.experiments.config import load_config, with_overrides
    from simlab.experiments.runner import run_experiment

    config = None
    try:
        config = load_config(args.file)
        config = with_overrides(config, n_jobs=args.n_jobs, backend=args.backend,
                                chunk_size=args.chunk_size, scheduler=args.scheduler,
                                output=args.output)
        outcome = run_experiment(config, progress=args.progress)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        where = f" in {config.output}/" if config is not None else ""
        print(f"\nInterrupted. Every finished deal is saved{where}; run the same command again "
              "to play the rest.", file=sys.stderr)
        return EXIT_INTERRUPTED
    _print_outcome(outcome.folder, outcome.played, outcome.frame)
    if outcome.failed:
        print(f"{outcome.failed} deal(s) failed (the policy raised). See {outcome.folder}/errors.txt "
              f"and the 'error' column of {outcome.folder}/deals.csv; a rerun retries them.",
              file=sys.stderr)
        return EXIT_FAILED_DEALS
    return EXIT_OK


def report_command(args: argparse.Namespace) -> int:
    """``simlab report FOLDER``: returns the exit status."""
    from simlab.experiments.report import rebuild

    try:
        tables = rebuild(args.folder)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    print(f"Rebuilt the tables, plots and report.md of {args.folder}/ from its database.")
    failed = int(tables["summary"]["failed"].sum()) if len(tables["summary"]) else 0
    return EXIT_FAILED_DEALS if failed else EXIT_OK


def _print_outcome(folder: Any, played: int, frame: Any) -> None:
    """A few lines a user reads first: the win rates, the claims, where the report is."""
    from simlab.experiments.markdown import interval, percent
    from simlab.experiments.tables import summarize

    print(f"Played {played} deal(s); {len(frame)} stored in total.")
    for row in summarize(frame).itertuples():
        print(f"  {row.game} / {row.policy}: {percent(row.win_rate)} "
              f"(95% {interval(row.wilson_low, row.wilson_high)}, {row.played} deals"
              + (f", {row.unknown} unknown" if row.unknown else "") + ")")
    print(f"Report: {folder}/report.md")


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry point with just these two subcommands."""
    parser = argparse.ArgumentParser(prog="python -m simlab.experiments.commands",
                                     description="simlab experiments")
    subparsers = parser.add_subparsers(dest="command", required=True)
    add_parsers(subparsers)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
