"""Every game simlab knows. Each game is one module of this package that
registers itself (``@register_game``); the modules are found and imported here,
so adding a game touches no list."""

import importlib
import pkgutil

from simlab.games.catalog import GAMES, make_game, register_game

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["GAMES", "make_game", "register_game"]
