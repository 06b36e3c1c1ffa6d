"""The exceptions simlab raises, with one grammar for every message."""

from __future__ import annotations


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
