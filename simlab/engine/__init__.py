"""The rules engine: layouts as data, compiled kernels, and the Python Game API."""

from simlab.engine.game import Game, Move, Observation, State
from simlab.engine.layout import Layout

__all__ = ["Game", "Layout", "Move", "Observation", "State"]
