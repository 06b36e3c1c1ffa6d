"""The registry of games: a game module registers its class here by name."""

from __future__ import annotations

from typing import Any, Mapping

from simlab.engine.game import Game
from simlab.errors import ParameterError
from simlab.params import merged_params, refuse_params_with_object, resolve_params
from simlab.registry import Registry

GAMES: Registry[type[Game]] = Registry("game")


def register_game(cls: type[Game]) -> type[Game]:
    """Class decorator: makes the game buildable by its ``name``."""
    return GAMES.register(cls.name)(cls)


def make_game(game: str | Game, params: Mapping[str, Any] | None = None, /, **keywords: Any) -> Game:
    """The game called ``game`` (a registered name), its parameters checked against its
    declaration, given as a mapping, as keywords or both (``make_game("citadel", deal="hoyle")``,
    ``make_game("citadel", {"deal": "hoyle"})``); a ``Game`` object is returned as it is.

    Raises:
        UnknownNameError: an unknown game or parameter (with did-you-mean).
        ParameterError: a value its declaration does not allow; parameters given with a
            ``Game`` object (it has its own); ``game`` neither a name nor a ``Game``.
    """
    given = merged_params(params, keywords, "game")
    if isinstance(game, Game):
        refuse_params_with_object("game", game, given)
        return game
    if not isinstance(game, str):
        raise ParameterError(f"a game is a registered name (see simlab.GAMES) or a simlab.Game; got "
                             f"{type(game).__name__} {game!r}.")
    cls = GAMES.get(game)
    return cls(**cls.settle_params(given, resolve_params(f"game '{game}'", cls.parameters, given)))
