"""The exceptions simlab raises, with one grammar for every message."""

from __future__ import annotations

import sys
import warnings
from contextlib import contextmanager
from typing import Iterator, TextIO


class SimlabError(Exception):
    """Base class of every error simlab raises on purpose."""


class UnknownNameError(SimlabError, KeyError):
    """A game, policy, parameter or config key that does not exist."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class ParameterError(SimlabError, ValueError):
    """A parameter value outside what its declaration allows."""


class IllegalMoveError(SimlabError, ValueError):
    """A move that the rules do not allow in the given position."""


class ConfigError(SimlabError):
    """A bad experiment config; the message names the file and the key path."""


class UnusedParameterWarning(UserWarning):
    """A policy parameter set to a value that changes nothing in the games it plays
    (``Policy.unused_parameters``): most likely a mistake, but a result stays as it was."""


@contextmanager
def warnings_as_lines() -> Iterator[None]:
    """While a command runs, print each simlab warning (``UnusedParameterWarning``) on stderr
    as one line, ``warning: ...``, as errors are printed; other warnings as Python prints them."""
    with warnings.catch_warnings():
        default = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: TextIO | None = None, line: str | None = None) -> None:
            if issubclass(category, UnusedParameterWarning):
                print(f"warning: {message}", file=sys.stderr, flush=True)
            else:
                default(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        warnings.simplefilter("always", UnusedParameterWarning)  # each one, not once per line of code
        yield
