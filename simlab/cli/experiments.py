"""The ``simlab run FILE``, ``simlab report FOLDER``, ``simlab recover FOLDER`` and
``simlab deals GAME`` subcommands.

``simlab.cli`` calls ``add_parsers(subparsers)``; each handler returns the exit
status (README, "Exit statuses"): 0 every deal played; 1 some deals failed
(error rows, listed); 2 bad input (nothing written); 130 interrupted by Ctrl-C
and 143 by SIGTERM (every finished deal is kept); 70 an internal error (a bug).

``simlab.cli`` imports this module for every command, ``--help`` included, so
each handler imports the runner, tables and reports it calls (pandas, scipy,
matplotlib, joblib) when it runs: importing them here took ``simlab --help`` from 2.5 s to
10.7 s (measured on the 2-core development machine under load).
"""

from __future__ import annotations

import argparse
import signal
import sys
import traceback
from typing import Any, Callable, TypeVar

from simlab.errors import ConfigError
from simlab.experiments.config import load_config, with_overrides
from simlab.interrupts import Terminated, cause_of, sigterm_as_interrupt

EXIT_OK, EXIT_FAILED_DEALS, EXIT_CONFIG, EXIT_INTERRUPTED = 0, 1, 2, 130
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143, as a shell reports a process killed by SIGTERM
EXIT_INTERNAL = 70  # EX_SOFTWARE of sysexits.h: a bug in simlab, not in the input
MAX_LISTED_FAILURES = 10
T = TypeVar("T")


def add_parsers(subparsers: Any) -> None:
    """Add ``run``, ``report`` and ``recover`` to an argparse subparsers object."""
    run = subparsers.add_parser(
        "run", help="run an experiment config (resumes what its output folder holds)",
        description="Play every game x policy x deal of a YAML config in parallel, store each "
                    "result as it finishes, and write tables, plots and report.md.")
    run.add_argument("file", help="the experiment config (YAML), e.g. experiments/default.yaml")
    run.add_argument("--n-jobs", type=int, help="worker processes (-1: every core)")
    run.add_argument("--backend", help="loky (default), threading, sequential or dask")
    run.add_argument("--chunk-size", type=int, help="deals per unit of work")
    run.add_argument("--scheduler", help="dask scheduler address, e.g. tcp://host:8786")
    run.add_argument("--deal-timeout", metavar="SECONDS",
                     help="seconds one deal may take before it is stopped and recorded as 'timeout' "
                          "('none': no limit)")
    run.add_argument("--worker-memory", metavar="SIZE",
                     help="resident memory one worker may hold: MiB, e.g. '2 GB', 'auto' or 'none' "
                          "(loky backend); past it: error row 'memory'")
    run.add_argument("--output", help="output folder (default: results/<name>)")
    run.add_argument("--allow-outside-results", action="store_true",
                     help="let the output folder lie outside results/ (or the folder SIMLAB_RESULTS_ROOT names)")
    run.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="show progress bars (default: only on a terminal)")
    run.set_defaults(func=run_command)
    report = subparsers.add_parser(
        "report", help="rebuild tables, plots and report.md from an output folder's database",
        description="Rebuild every table, plot and report.md of FOLDER without replaying deals.")
    report.add_argument("folder", help="an experiment's output folder, e.g. results/default")
    report.set_defaults(func=report_command)
    recover = subparsers.add_parser(
        "recover", help="rebuild a damaged results.sqlite from the folder's deals.csv",
        description="Rebuild a damaged FOLDER/results.sqlite from FOLDER/deals.csv and manifest.json, "
                    "each deal under the cell key it was played with (the damaged file is kept as "
                    "results.sqlite.damaged, or .damaged.2, .3, ...); then rerun to play the rest. A "
                    "sound database is left as it is (status 0).")
    recover.add_argument("folder", help="an experiment's output folder, e.g. results/default")
    recover.set_defaults(func=recover_command)
    _add_deals_parser(subparsers)


def _add_deals_parser(subparsers: Any) -> None:
    """``simlab deals GAME ...`` (``deal_lists``)."""
    deals = subparsers.add_parser(
        "deals", help="list deal numbers that match (winnable, a difficulty, won by a policy), "
                      "each with its winning line",
        description="List PySolFC deal numbers of GAME that match every filter given, each with "
                    "its winning line, as JSON lines {game, deal, difficulty, won_by, moves}: an "
                    "'Easy' list ready to ship. K (--count) is the number of matching deals wanted: "
                    "deals are examined from N (--first) on, in batches, until K match or M (--limit) "
                    "deals were examined. It is an experiment underneath, stored in RESULTS/<game>[_param-value]/ "
                    "(default results/deals/): it resumes and runs in parallel like 'simlab run'. "
                    "moves: the winning line of the --won-by policy, else of the solver, else of the "
                    "weakest rung that won; every line is replayed to a win before it is printed.")
    deals.add_argument("game", metavar="GAME", help="a game from 'simlab games'")
    deals.add_argument("--winnable", action="store_true", help="the solver (default budget) won it")
    deals.add_argument("--difficulty", metavar="LEVEL",
                       help="its difficulty on the default ladder: the label of a rung "
                            "(simlab.experiments.ladder.DEFAULT_LADDER: random, tap, greedy, greedy_play_on, "
                            "heuristic, "
                            "lookahead_10 ... lookahead_10000), "
                            "'perfect play only', 'unwinnable' or 'unknown'")
    deals.add_argument("--won-by", metavar="POLICY", help="this policy (default parameters) won it")
    deals.add_argument("--first", type=int, default=1, metavar="N", help="the first deal examined (default 1)")
    deals.add_argument("--count", type=int, default=10, metavar="K",
                       help="matching deals wanted (default 10)")
    deals.add_argument("--limit", type=int, default=10_000, metavar="M",
                       help="deals examined at most (default 10000)")
    deals.add_argument("--out", metavar="FILE.jsonl", help="write the JSON lines here (default: stdout)")
    deals.add_argument("--param", action="append", default=[], metavar="K=V", help="a game parameter")
    deals.add_argument("--jobs", type=int, metavar="J", help="worker processes (default: every core)")
    deals.add_argument("--results", default="results/deals", metavar="RESULTS",
                       help="where the experiment folders go (default results/deals)")
    deals.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="show progress bars (default: only on a terminal)")
    deals.set_defaults(func=deals_command)


def deals_command(args: argparse.Namespace) -> int:
    """``simlab deals GAME``: returns the exit status."""
    from pathlib import Path

    from simlab.errors import ParameterError
    from simlab.experiments.deal_lists import DealQuery, check_out, find_deals, write_lines
    from simlab.params import parse_cli_params

    query = None
    try:
        with sigterm_as_interrupt():
            query = DealQuery(game=args.game, first=args.first, count=args.count, winnable=args.winnable,
                              difficulty=args.difficulty, won_by=args.won_by, limit=args.limit,
                              game_params=parse_cli_params(args.param))
            if args.jobs is not None and not (args.jobs >= 1 or args.jobs == -1):
                raise ConfigError(f"simlab deals: --jobs must be an int >= 1, or -1. Got {args.jobs}.")
            if args.out:
                check_out(Path(args.out))  # before the experiment: it may run for hours
            entries = find_deals(query, Path(args.results), args.jobs, args.progress)
            written = write_lines(entries, Path(args.out) if args.out else None)
    except (ConfigError, ParameterError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt as interrupt:
        cause = cause_of(interrupt)
        if query is None:  # still checking the command line
            print(f"\n{cause} while checking the command line: nothing ran and nothing was written.",
                  file=sys.stderr)
        else:
            print(f"\n{cause}. Every finished deal is saved; run the same command again to go on.",
                  file=sys.stderr)
        return EXIT_TERMINATED if isinstance(interrupt, Terminated) else EXIT_INTERRUPTED
    except Exception:  # noqa: BLE001  (a bug: its own status, as for run)
        return _internal_error()
    print(f"{written} deal(s) of {args.game} listed" + (f" in {args.out}" if args.out else "") +
          f" (experiment: {query.folder(Path(args.results))}/).", file=sys.stderr)
    return EXIT_OK


def run_command(args: argparse.Namespace) -> int:
    """``simlab run FILE``: returns the exit status."""
    config = None
    try:
        with sigterm_as_interrupt():
            from simlab.experiments.runner import run_experiment  # when it runs: see the module docstring

            config = load_config(args.file)
            config = with_overrides(config, n_jobs=args.n_jobs, backend=args.backend,
                                    chunk_size=args.chunk_size, scheduler=args.scheduler,
                                    deal_timeout=args.deal_timeout, worker_memory=args.worker_memory,
                                    output=args.output)
            outcome = run_experiment(config, progress=args.progress,
                                     allow_outside_results=args.allow_outside_results)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt as interrupt:
        cause = cause_of(interrupt)
        if config is None:  # still checking the config (e.g. importing a user's policy module)
            print(f"\n{cause} while checking {args.file}: nothing ran and nothing was written.",
                  file=sys.stderr)
        else:
            print(f"\n{cause}. Every finished deal is saved in {config.output}/; run the same command "
                  "again to play the rest.", file=sys.stderr)
        return EXIT_TERMINATED if isinstance(interrupt, Terminated) else EXIT_INTERRUPTED
    except Exception:  # noqa: BLE001  (a bug: say so, with the traceback, and a status of its own)
        return _internal_error()
    _print_outcome(outcome.folder, outcome.played, outcome.frame)
    if outcome.failed:
        _print_failures(outcome.folder, outcome.frame)
        return EXIT_FAILED_DEALS
    return EXIT_OK


def _print_failures(folder: Any, frame: Any) -> None:
    """The failed deals: how many, the first few with their cause, where the rest are."""
    failed = frame[frame["verdict"] == "error"]
    print(f"{len(failed)} deal(s) failed (the policy raised, its worker died, or it ran past "
          f"deal_timeout or worker_memory); a rerun retries them:", file=sys.stderr)
    for row in failed.head(MAX_LISTED_FAILURES).itertuples():
        print(f"  {row.game} / {row.policy} / deal {row.deal}: {row.end_reason}: {row.error}",
              file=sys.stderr)
    if len(failed) > MAX_LISTED_FAILURES:
        print(f"  … and {len(failed) - MAX_LISTED_FAILURES} more.", file=sys.stderr)
    print(f"Tracebacks: {folder}/errors.txt; every failure: the 'error' column of {folder}/deals.csv.",
          file=sys.stderr)


def _internal_error() -> int:
    """Say that simlab has a bug, with the traceback of the exception being handled."""
    print(f"internal error (a bug in simlab, please report it):\n{traceback.format_exc()}",
          file=sys.stderr)
    return EXIT_INTERNAL


def _guarded(action: Callable[[str], T], folder: str, bugs_too: bool) -> tuple[T | None, int | None]:
    """``(action(folder), None)``, or ``(None, status)`` for the error it raised: a config
    error is printed (status 2); with ``bugs_too``, so is any other exception (status 70)."""
    try:
        return action(folder), None
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return None, EXIT_CONFIG
    except Exception:  # noqa: BLE001  (a bug: its own status, as for run)
        if not bugs_too:
            raise
        return None, _internal_error()


def report_command(args: argparse.Namespace) -> int:
    """``simlab report FOLDER``: returns the exit status."""
    from simlab.experiments.rebuild import rebuild  # when it runs: see the module docstring

    tables, status = _guarded(rebuild, args.folder, bugs_too=True)
    if status is not None:
        return status
    print(f"Rebuilt the tables, plots and report.md of {args.folder}/ from its database.")
    failed = int(tables["summary"]["failed"].sum()) if len(tables["summary"]) else 0
    return EXIT_FAILED_DEALS if failed else EXIT_OK


def recover_command(args: argparse.Namespace) -> int:
    """``simlab recover FOLDER``: returns the exit status (0 also for a sound database,
    which it leaves as it is)."""
    from simlab.experiments.recover import recover  # when it runs: see the module docstring

    done, status = _guarded(recover, args.folder, bugs_too=True)
    if status is not None:
        return status
    database = f"{args.folder}/results.sqlite"
    if done.sound:
        print(f"{database} is sound: nothing to recover, nothing was changed.")
        return EXIT_OK
    kept = f" The damaged file is kept as {done.kept}." if done.kept else ""
    print(f"Rebuilt {database} from deals.csv: {done.rows} deal(s), each under the cell key it was "
          f"played with.{kept} Run the experiment again to play what is missing.")
    return EXIT_OK


def _print_outcome(folder: Any, played: int, frame: Any) -> None:
    """A few lines a user reads first: the win rates, the claims, where the report is."""
    # when it runs, not at the top: see the module docstring
    from simlab.experiments.markdown import interval, percent
    from simlab.experiments.tables import summarize

    print(f"Played {played} deal(s); {len(frame)} stored in total.")
    for row in summarize(frame).itertuples():
        if row.information == "relaxation":  # a bound, not a player (tables.brackets_table)
            print(f"  {row.game} / {row.policy}: upper bound {percent(row.bound)} "
                  f"(95% {interval(row.bound_low, row.bound_high)}, {row.played} deals)")
            continue
        print(f"  {row.game} / {row.policy}: {percent(row.win_rate)} "
              f"(95% {interval(row.wilson_low, row.wilson_high)}, {row.played} deals"
              + (f", {row.unknown} unknown" if row.unknown else "") + ")")
    print(f"Report: {folder}/report.md")
