"""The registry of policies, and loading a user's own policy named ``module:Class``."""

from __future__ import annotations

import importlib
import warnings
from typing import Any, Mapping, Sequence

from simlab.engine.game import Game
from simlab.errors import ParameterError, SimlabError, UnknownNameError, UnusedParameterWarning
from simlab.params import merged_params, refuse_params_with_object, resolve_params
from simlab.policies.base import Policy
from simlab.registry import Registry, did_you_mean

POLICIES: Registry[type[Policy]] = Registry("policy")


def register_policy(cls: type[Policy]) -> type[Policy]:
    """Class decorator: makes the policy buildable by its ``name``."""
    return POLICIES.register(cls.name)(cls)


def policy_class(name: str) -> type[Policy]:
    """The class for a registered name or a ``package.module:Class`` path."""
    if ":" not in name:
        return POLICIES.get(name)
    module_name, _, class_name = name.partition(":")
    module = _import_user_module(module_name, name)
    cls = getattr(module, class_name, None)
    if cls is None:
        policies = [key for key, value in vars(module).items()
                    if isinstance(value, type) and issubclass(value, Policy) and value is not Policy]
        raise UnknownNameError(
            f"Policy '{name}' must name a subclass of simlab.Policy; "
            f"module '{module_name}' has no such class '{class_name}'.{did_you_mean(class_name, policies)}"
        )
    if not (isinstance(cls, type) and issubclass(cls, Policy)):
        what = "a class" if isinstance(cls, type) else f"a {type(cls).__name__}"
        raise UnknownNameError(
            f"Policy '{name}' must name a subclass of simlab.Policy; "
            f"'{class_name}' of module '{module_name}' is {what}, but not a Policy."
        )
    return cls


def class_name(cls: type[Policy]) -> str:
    """The name a policy class goes by: its registered name, else ``module:Class``. A policy
    made from its class then draws the random numbers it draws by that name (``play_deal``)."""
    registered = cls.name in POLICIES and POLICIES.get(cls.name) is cls
    return cls.name if registered else f"{cls.__module__}:{cls.__qualname__}"


def _import_user_module(module_name: str, name: str) -> Any:
    """The module of a user policy; whatever importing it raises (even ``sys.exit``) is a
    ``SimlabError`` saying so, for the config check and the command line alike."""
    try:
        return importlib.import_module(module_name)
    except ImportError as error:
        raise UnknownNameError(f"Cannot import module '{module_name}' for policy '{name}': {error}.") from None
    except SystemExit as exit_:
        raise PolicyImportError(f"importing policy '{name}' failed: the module called sys.exit({exit_.code!r}) "
                                "while being imported. Guard its script code with "
                                "`if __name__ == '__main__':`.") from None
    except Exception as error:  # noqa: BLE001  (a user module that fails while importing)
        raise PolicyImportError(f"importing policy '{name}' failed: {type(error).__name__}: {error}") from None


class PolicyImportError(SimlabError):
    """A user policy's module raised (or called ``sys.exit``) while being imported."""


class UnplayableError(SimlabError):
    """A policy asked to play a game it cannot play (``Policy.cannot_play``)."""


def refuse_unplayable(policy: Policy, game: Game, policy_label: str | None = None,
                      game_label: str | None = None) -> None:
    """Raise ``UnplayableError`` if ``policy`` cannot play ``game`` (``Policy.cannot_play``):
    the one check the config validation and the command line share."""
    reason = policy.cannot_play(game)
    if reason:
        raise UnplayableError(f"policy '{policy_label or policy.registered_name}' cannot play game "
                              f"'{game_label or game.name}': {reason}")


def warn_unused(policy: Policy, games: Sequence[tuple[Game, str]], where: str) -> None:
    """Warn (``UnusedParameterWarning``) of each parameter of ``policy`` set to another value
    than its default that has no effect on any of ``games`` (game, label) (``Policy.unused_parameters``):
    the one check the config validation and the command line share. ``where`` names the
    parameters for the message, each followed by its key (``x.yaml: policies[1].params.``,
    ``--policy-param ``)."""
    defaults = {key: param.default for key, param in type(policy).all_parameters().items()}
    unused = [policy.unused_parameters(game) for game, _ in games]
    for key, value in policy.params.items():
        if key not in defaults or value == defaults[key] or not unused or not all(key in u for u in unused):
            continue
        which = f"game '{games[0][1]}'" if len(games) == 1 else "any game of this config"
        warnings.warn(UnusedParameterWarning(
            f"{where}{key}: {key}={value!r} has no effect on {which}: {unused[0][key]}. Remove it, or "
            f"play a game it applies to."), stacklevel=2)


def make_policy(policy: str | Policy | type[Policy], params: Mapping[str, Any] | None = None, /,
                **keywords: Any) -> Policy:
    """The policy called ``policy`` (a registered name or ``module:Class``, or a ``Policy``
    subclass, e.g. one defined in a notebook), its parameters checked, given as a mapping, as
    keywords or both; a ``Policy`` object is returned as it is.

    Raises:
        UnknownNameError: an unknown policy or parameter (with did-you-mean).
        ParameterError: a value its declaration does not allow; parameters given with a
            ``Policy`` object; ``policy`` neither a name, a ``Policy`` subclass nor a ``Policy``.
    """
    given = merged_params(params, keywords, "policy")
    if isinstance(policy, Policy):
        refuse_params_with_object("policy", policy, given)
        return policy
    if isinstance(policy, type) and issubclass(policy, Policy):
        cls, name = policy, class_name(policy)
    elif isinstance(policy, str):
        cls, name = policy_class(policy), policy
    else:
        raise ParameterError(f"a policy is a registered name (see simlab.POLICIES), module:Class, a "
                             f"simlab.Policy subclass or object; got {type(policy).__name__} {policy!r}.")
    made = cls(**resolve_params(f"policy '{name}'", cls.all_parameters(), given))
    made.registered_name = name
    return made
