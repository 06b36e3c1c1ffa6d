"""Playing one deal: the seed derivation and the single entry point the runner uses."""

from __future__ import annotations

import zlib

import numpy as np

from simlab.engine.game import Game
from simlab.policies.base import Policy
from simlab.policies.record import PlayRecord


def component_id(name: str) -> int:
    """A stable 32-bit number for a component name (the same in every process)."""
    return zlib.crc32(name.encode("utf-8"))


def deal_rng(deal_number: int, root_seed: int, component: str) -> np.random.Generator:
    """The generator for one deal: derived from (deal number, root seed, component) only,
    never from a worker's identity or the order deals are played in."""
    sequence = np.random.SeedSequence([deal_number, root_seed, component_id(component)])
    return np.random.Generator(np.random.PCG64(sequence))


def play_deal(game: Game, policy: Policy, deal_number: int, root_seed: int = 0) -> PlayRecord:
    """Let ``policy`` play deal ``deal_number`` of ``game`` from its start."""
    rng = deal_rng(deal_number, root_seed, f"policy:{policy.registered_name}")
    return policy.play(game, game.initial_state(deal_number), rng)
