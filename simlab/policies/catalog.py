"""The registry of policies, and loading a user's own policy named ``module:Class``."""

from __future__ import annotations

import importlib
from typing import Any

from simlab.errors import UnknownNameError
from simlab.params import resolve_params
from simlab.policies.base import Policy
from simlab.registry import Registry

POLICIES: Registry[type[Policy]] = Registry("policy")


def register_policy(cls: type[Policy]) -> type[Policy]:
    """Class decorator: makes the policy buildable by its ``name``."""
    return POLICIES.register(cls.name)(cls)


def policy_class(name: str) -> type[Policy]:
    """The class for a registered name or a ``package.module:Class`` path."""
    if ":" not in name:
        return POLICIES.get(name)
    module_name, _, class_name = name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise UnknownNameError(f"Cannot import module '{module_name}' for policy '{name}': {error}.") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise UnknownNameError(
            f"Policy '{name}' must name a subclass of simlab.Policy; "
            f"module '{module_name}' has no such class '{class_name}'."
        )
    if not (isinstance(cls, type) and issubclass(cls, Policy)):
        what = "a class" if isinstance(cls, type) else f"a {type(cls).__name__}"
        raise UnknownNameError(
            f"Policy '{name}' must name a subclass of simlab.Policy; "
            f"'{class_name}' of module '{module_name}' is {what}, but not a Policy."
        )
    return cls


def make_policy(name: str, **params: Any) -> Policy:
    """Build a policy by registered name or ``module:Class``, checking ``params``."""
    cls = policy_class(name)
    declared = cls.all_parameters()
    policy = cls(**resolve_params(f"policy '{name}'", declared, params))
    policy.registered_name = name
    return policy
