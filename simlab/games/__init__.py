"""Every game simlab knows. Importing a game module registers it by name."""

from simlab.games import (  # noqa: F401  (imported to register)
    beleaguered_castle,
    chessboard,
    citadel,
    fortress,
    siegecraft,
    streets_and_alleys,
    stronghold,
)
from simlab.games.catalog import GAMES, make_game, register_game

__all__ = ["GAMES", "make_game", "register_game"]
