"""Declarative parameters: constructors store them, ``validate`` checks them.

Games and policies declare ``parameters: dict[str, Param]``. Validation happens
in one place (``resolve_params``) with one error grammar, after scikit-learn:
"The 'budget' parameter of policy 'solver' must be an int in [1, inf]. Got 0."
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from simlab.errors import ParameterError, UnknownNameError
from simlab.registry import did_you_mean


@dataclass(frozen=True)
class Param:
    """One parameter: its type, default, allowed values and meaning.

    Args:
        kind: ``int``, ``float``, ``bool`` or ``str``.
        default: the value used when the caller gives none.
        doc: one sentence a user can read in ``simlab games``.
        choices: allowed values for a ``str`` parameter.
        low: smallest allowed value of a number (inclusive).
        high: largest allowed value of a number (inclusive).
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
        if self.low is None and self.high is None:
            return name
        low = "-inf" if self.low is None else _bound(self.kind, self.low)
        high = "inf" if self.high is None else _bound(self.kind, self.high)
        return f"{name} in [{low}, {high}]"

    def check(self, value: Any) -> Any:
        """Return ``value`` coerced to ``kind``, or raise ``ValueError`` (also for NaN or infinity:
        a weight of NaN compares false with everything and silently breaks a policy)."""
        value = _coerce(self.kind, value)
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError
        if self.choices is not None and value not in self.choices:
            raise ValueError
        if self.low is not None and value < self.low:
            raise ValueError
        if self.high is not None and value > self.high:
            raise ValueError
        return value


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
        except (ValueError, TypeError):
            finite = "a finite number, " if isinstance(value, float) and not math.isfinite(value) else ""
            raise ParameterError(
                f"The '{key}' parameter of {owner} must be {finite}{param.describe()}. Got {value!r}."
            ) from None
    return resolved


def parse_cli_params(pairs: list[str] | None) -> dict[str, str]:
    """Turn ``["k=v", ...]`` from the command line into a dict of strings."""
    result: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ParameterError(f"A parameter must be written key=value. Got {pair!r}.")
        result[key.strip()] = value.strip()
    return result
