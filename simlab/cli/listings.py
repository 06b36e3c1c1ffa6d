"""``simlab games`` and ``simlab policies``: every game and every policy with its parameters."""

from __future__ import annotations

import argparse
import re
import textwrap
from typing import Mapping

from simlab.games import GAMES
from simlab.params import Param
from simlab.policies import POLICIES


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Add ``games`` and ``policies`` to the ``simlab`` parser."""
    games = subparsers.add_parser("games", help="list the games with their parameters")
    games.set_defaults(func=games_command)
    policies = subparsers.add_parser("policies", help="list the policies with their parameters")
    policies.set_defaults(func=policies_command)


def games_command(args: argparse.Namespace) -> int:
    """List every game: name, title, PySolFC id and parameters."""
    for name in GAMES.names():
        cls = GAMES.get(name)
        pysol = f"PySolFC id {cls.pysol_id}" if cls.pysol_id is not None else "not in PySolFC"
        print(f"{name}: {cls.title} ({pysol})")
        _print_parameters(cls.parameters)
    return 0


def policies_command(args: argparse.Namespace) -> int:
    """List every policy: name, summary and parameters (``max_moves`` included)."""
    for name in POLICIES.names():
        cls = POLICIES.get(name)
        print(textwrap.fill(f"{name}: {summary(cls.__doc__)}", width=100, subsequent_indent="    "))
        _print_parameters(cls.all_parameters())
    return 0


def summary(doc: str | None) -> str:
    """A class docstring's first paragraph as one plain line: reST literals (````x````) shown
    as ``x``, pointers to the module's docstring left out (a reader of the list has none)."""
    paragraph = " ".join((doc or "").strip().split("\n\n")[0].split())
    return plain(re.sub(r" \((see )?(the )?module doc(string)?\)", "", paragraph))


def _print_parameters(parameters: Mapping[str, Param]) -> None:
    if not parameters:
        print("    (no parameters)")
    for key, param in parameters.items():
        line = f"{key}={param.default!r}  ({param.describe()}) {plain(param.doc)}"
        print(textwrap.fill(line, width=100, initial_indent="    ", subsequent_indent="        "))


def plain(text: str) -> str:
    """reST literals (````x````) as ``x``."""
    return re.sub(r"``(.+?)``", r"\1", text)
