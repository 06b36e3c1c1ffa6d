"""Player policies. Importing a policy module registers it by name."""

from simlab.policies import greedy, heuristic, random_policy  # noqa: F401  (registers)
from simlab.policies.base import Policy
from simlab.policies.catalog import POLICIES, make_policy, register_policy
from simlab.policies.record import PlayRecord

__all__ = ["POLICIES", "PlayRecord", "Policy", "make_policy", "register_policy"]
