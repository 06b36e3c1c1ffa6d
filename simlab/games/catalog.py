"""The registry of games: a game module registers its class here by name."""

from __future__ import annotations

from typing import Any

from simlab.engine.game import Game
from simlab.params import resolve_params
from simlab.registry import Registry

GAMES: Registry[type[Game]] = Registry("game")


def register_game(cls: type[Game]) -> type[Game]:
    """Class decorator: makes the game buildable by its ``name``."""
    return GAMES.register(cls.name)(cls)


def make_game(name: str, **params: Any) -> Game:
    """Build the game called ``name``, checking ``params`` against its declaration."""
    cls = GAMES.get(name)
    return cls(**cls.settle_params(params, resolve_params(f"game '{name}'", cls.parameters, params)))
