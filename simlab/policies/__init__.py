"""Every player simlab knows. Each policy is one module of this package that
registers itself (``@register_policy``); the modules are found and imported
here, so adding a policy touches no list."""

import importlib
import pkgutil

from simlab.policies.base import Policy
from simlab.policies.catalog import POLICIES, make_policy, register_policy
from simlab.policies.record import PlayRecord

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["POLICIES", "PlayRecord", "Policy", "make_policy", "register_policy"]
