"""simlab: Monte Carlo win rates of patience games."""

from simlab.engine import Game, Move, State
from simlab.games import GAMES, make_game

__version__ = "0.1.0"

__all__ = ["GAMES", "Game", "Move", "State", "make_game", "__version__"]
