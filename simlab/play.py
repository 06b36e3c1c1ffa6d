"""Playing one deal: the seed derivation and the single entry point the runner uses."""

from __future__ import annotations

import zlib
from typing import Any, Mapping

import numpy as np

from simlab.engine.game import Game
from simlab.games import make_game
from simlab.policies import make_policy
from simlab.policies.base import Policy
from simlab.policies.record import PlayRecord


def component_id(name: str) -> int:
    """A stable 32-bit number for a component name (the same in every process)."""
    return zlib.crc32(name.encode("utf-8"))


def deal_rng(deal_number: int, root_seed: int, component: str, attempt: int = 0) -> np.random.Generator:
    """The generator for one deal: derived from (deal number, root seed, component, try) only,
    never from a worker's identity or the order deals are played in.

    Try 0 is the ordinary play (its seed is the one simlab always used); tries 1, 2, ...
    (a ladder's extra tries of a stochastic policy) each get a seed of their own.
    """
    entropy = [deal_number, root_seed, component_id(component)] + ([attempt] if attempt else [])
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy)))


def play_deal(game: str | Game, policy: str | Policy | type[Policy], deal_number: int, root_seed: int = 0,
              attempt: int = 0, *, game_params: Mapping[str, Any] | None = None,
              policy_params: Mapping[str, Any] | None = None) -> PlayRecord:
    """Let ``policy`` play deal ``deal_number`` of ``game`` from its start (try ``attempt``).

    ``game`` and ``policy`` are objects or registered names (``play_deal("citadel", "greedy", 5)``;
    a policy also a ``Policy`` subclass), a name's parameters in ``game_params`` /
    ``policy_params`` (``make_game``, ``make_policy``).
    """
    game = make_game(game, game_params)
    policy = make_policy(policy, policy_params)
    rng = deal_rng(deal_number, root_seed, f"policy:{policy.registered_name}", attempt)
    return policy.play(game, game.initial_state(deal_number), rng)
