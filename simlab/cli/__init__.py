"""The ``simlab`` command line: this package sits on top of every layer (engine,
solver, policies, experiments), and nothing below it imports it.

One module per family of subcommands, each adding its own with
``add_parsers(subparsers)``, in the order ``simlab --help`` lists them:
``listings`` (games, policies), ``play`` (deal, play), ``experiments`` (run,
report, recover, deals), ``solve`` (solve, hint) and ``show``; ``words`` holds
the phrases several of them print. Every subcommand sets ``func=handler``, where
``handler(args) -> int`` returns the exit status. A module of ``COMMAND_MODULES``
that cannot be imported is an error (``ModuleNotFoundError``), never a
subcommand quietly missing from ``simlab --help``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

from simlab import __version__
from simlab.compiling import compile_clock, what_compiles
from simlab.errors import SimlabError, warnings_as_lines
from simlab.interrupts import Terminated, cause_of, sigterm_as_interrupt

COMMAND_MODULES = ("simlab.cli.listings", "simlab.cli.play", "simlab.cli.experiments", "simlab.cli.solve",
                   "simlab.cli.show")
USAGE_ERROR = 2  # argparse's exit status for a bad command line; ours for bad names or values
INTERRUPTED, TERMINATED = 130, 143  # as a shell reports a process stopped by SIGINT, SIGTERM


def build_parser() -> argparse.ArgumentParser:
    """The parser with the subcommands of every command module.

    Raises:
        ModuleNotFoundError: a command module (or a module it imports) is missing."""
    parser = argparse.ArgumentParser(
        prog="simlab", description="Monte Carlo win rates of patience (solitaire) games."
    )
    parser.add_argument("--version", action="version", version=f"simlab {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).add_parsers(subparsers)
    return parser


def _importable_from_cwd() -> None:
    """Let ``--policy my_module:MyPolicy`` find a module in the current directory,
    as ``python -m`` would (a console script's path starts at its own bin directory)."""
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit status (2 for a usage error)."""
    _importable_from_cwd()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version, or a usage error argparse already printed
        code = exit_.code
        return 0 if code is None else code if isinstance(code, int) else USAGE_ERROR
    try:
        with sigterm_as_interrupt(), compile_clock(announce=_say_compiling), warnings_as_lines():
            return int(args.func(args))
    except KeyboardInterrupt as interrupt:  # `run` and `deals` say more themselves
        cause = cause_of(interrupt)
        print(f"\n{cause}. simlab {args.command} stopped; it saves nothing, so run it again to start over.",
              file=sys.stderr)
        return TERMINATED if isinstance(interrupt, Terminated) else INTERRUPTED
    except SimlabError as error:
        print(f"simlab {args.command}: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:  # e.g. `simlab play ... --show | head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _say_compiling(module: str) -> None:
    """Said once per process, as the first kernel compiles: what compiles and roughly how
    long (``simlab.compiling.what_compiles``). ``make setup`` compiles them all ahead
    (``python -m simlab.precompile``), so after it only a game or policy it does not warm says this."""
    print(f"simlab: compiling {what_compiles(module)} for this version, once; later commands load it "
          "from the cache (`python -m simlab.precompile` compiles the common ones ahead)...", file=sys.stderr,
          flush=True)
