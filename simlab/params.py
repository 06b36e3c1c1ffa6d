"""Declarative parameters: constructors store them, ``validate`` checks them.

Games and policies declare ``parameters: dict[str, Param]``. Validation happens
in one place (``resolve_params``) with one error grammar, after scikit-learn:
"The 'budget' parameter of policy 'solver' must be an int in [1, inf]. Got 0."
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from simlab.errors import ParameterError, UnknownNameError
from simlab.registry import did_you_mean

# Every int a game or policy takes reaches compiled code as a signed 64-bit int (numba's
# int64): a larger one fails every deal at play time, so it is refused at validation.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


@dataclass(frozen=True)
class Param:
    """One parameter: its type, default, allowed values and meaning.

    Args:
        kind: ``int``, ``float``, ``bool`` or ``str``.
        default: the value used when the caller gives none.
        doc: one sentence a user can read in ``simlab games``.
        choices: allowed values for a ``str`` parameter.
        low: smallest allowed value of a number (inclusive).
        high: largest allowed value of a number (inclusive). An int is also bounded
            by ``INT64_MIN`` and ``INT64_MAX`` (what compiled code takes).
    """

    kind: type
    default: Any
    doc: str
    choices: tuple[str, ...] | None = None
    low: float | None = None
    high: float | None = None

    def describe(self) -> str:
        """What the parameter must be, as used in error messages."""
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        name = {int: "an int", float: "a float", bool: "a bool", str: "a str"}[self.kind]
        low, high = self.bounds()
        if low is None and high is None:
            return name
        low_text = "-inf" if low is None else _bound(self.kind, low)
        high_text = "inf" if high is None else _bound(self.kind, high)
        return f"{name} in [{low_text}, {high_text}]"

    def bounds(self) -> tuple[float | None, float | None]:
        """The smallest and largest allowed value (None: unbounded); an int's within int64."""
        if self.kind is not int:
            return self.low, self.high
        low = INT64_MIN if self.low is None else max(self.low, INT64_MIN)
        high = INT64_MAX if self.high is None else min(self.high, INT64_MAX)
        return low, high

    def check(self, value: Any) -> Any:
        """Return ``value`` coerced to ``kind``, or raise ``ValueError`` (also for NaN or infinity:
        a weight of NaN compares false with everything and silently breaks a policy)."""
        value = _coerce(self.kind, value)
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError
        if self.choices is not None and value not in self.choices:
            raise ValueError
        low, high = self.bounds()
        if low is not None and value < low:
            raise ValueError
        if high is not None and value > high:
            raise ValueError
        return value


# Numbers the command line and configs check alike (``option_type``, the config validation).
DEAL_NUMBER = Param(int, 1, "PySolFC's game number (the results database stores it as a 64-bit int)",
                    low=1, high=INT64_MAX)
ROOT_SEED = Param(int, 0, "root seed of every random choice", low=0)


def _bound(kind: type, value: float) -> str:
    """A bound as messages show it: an int bound in full (1000000, not 1e+06)."""
    return str(int(value)) if kind is int else f"{value:g}"


def _coerce(kind: type, value: Any) -> Any:
    """Accept exact types, ints for floats, and the strings of the CLI."""
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
            return value.lower() in ("true", "yes", "1")
        raise ValueError
    if kind is int:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            return int(value)
        raise ValueError
    if kind is float:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, (int, float)):
            return float(value)
        if isinstance(value, str):
            return float(value)
        raise ValueError
    if isinstance(value, kind):
        return value
    raise ValueError


def resolve_params(
    owner: str, declared: Mapping[str, Param], given: Mapping[str, Any]
) -> dict[str, Any]:
    """Check ``given`` against ``declared`` and fill in defaults.

    Args:
        owner: e.g. "game 'citadel'", used in messages.
        declared: the parameter declarations.
        given: the values a user supplied.

    Returns:
        Every declared parameter with its checked value, in declaration order.

    Raises:
        UnknownNameError: for a parameter that is not declared (with did-you-mean).
        ParameterError: for a value that is not allowed.
    """
    for key in given:
        if key not in declared:
            known = ", ".join(declared) or "none"
            raise UnknownNameError(
                f"Unknown parameter '{key}' of {owner}.{did_you_mean(key, tuple(declared))}"
                f" Its parameters are: {known}."
            )
    resolved = {}
    for key, param in declared.items():
        value = given.get(key, param.default)
        try:
            resolved[key] = param.check(value)
        except (ValueError, TypeError, OverflowError):  # float(10**400) overflows
            finite = "a finite number, " if isinstance(value, float) and not math.isfinite(value) else ""
            raise ParameterError(
                f"The '{key}' parameter of {owner} must be {finite}{param.describe()}. Got {_shown(value)}."
            ) from None
    return resolved


def _shown(value: Any) -> str:
    """A found value as a message shows it: its repr, cut after 60 characters (10**400 has 401)."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:40]}… ({len(text)} characters)"


def parse_cli_params(pairs: list[str] | None) -> dict[str, str]:
    """Turn ``["k=v", ...]`` from the command line into a dict of strings."""
    result: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ParameterError(f"A parameter must be written key=value. Got {pair!r}.")
        result[key.strip()] = value.strip()
    return result


def option_type(param: Param) -> Callable[[str], Any]:
    """An argparse ``type=`` that checks an option's text as ``param`` does in a config,
    so that a bad value exits with status 2 and the same words: "argument --budget: must
    be an int in [1, 9223372036854775807]. Got '0'."."""

    def convert(text: str) -> Any:
        try:
            return param.check(text)
        except (ValueError, TypeError, OverflowError):
            raise argparse.ArgumentTypeError(f"must be {param.describe()}. Got {text!r}.") from None

    convert.__name__ = param.describe()  # what argparse would name the type
    return convert


def merged_params(params: Mapping[str, Any] | None, keywords: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """A mapping of parameters and keyword parameters as one dict (``kind``: "game",
    "policy", for the message); a key given both ways is an error."""
    if params is None:
        return dict(keywords)
    if not isinstance(params, Mapping):
        raise ParameterError(f"{kind} parameters are a mapping (a dict of name: value); got "
                             f"{type(params).__name__} {params!r}.")
    twice = sorted(set(params) & set(keywords))
    if twice:
        raise ParameterError(f"{kind} parameter(s) {twice} given both in the mapping and as keywords.")
    return {**params, **keywords}


def refuse_params_with_object(kind: str, made: object, given: Mapping[str, Any]) -> None:
    """Parameters go with a name: given with an object already made (``kind``: "game",
    "policy", for the message), which has its own, they are an error."""
    if given:
        raise ParameterError(f"{kind} parameters {sorted(given)} go with a {kind}'s name, not with the "
                             f"{kind} object {made!r}, which has its own.")
