"""Every registered game passes the engine's conformance suite (``simlab.testing.check_game``)."""

from __future__ import annotations

import numpy as np
import pytest

from simlab import GAMES, make_game
from simlab.engine.game import Observation, State
from simlab.games.beleaguered_castle import BeleagueredCastle
from simlab.testing import check_game


@pytest.mark.parametrize("name", GAMES.names())
def test_every_registered_game_conforms(name):
    check_game(make_game(name), deals=(1, 2, 40000), walk=100)


def test_the_suite_catches_a_leaking_observation(monkeypatch):
    """The suite is no check that cannot fail: a game that shows its hidden cards fails it."""
    game = make_game("castle_of_indolence")
    monkeypatch.setattr(type(game), "observe", lambda self, state: Observation(state.array))
    with pytest.raises(AssertionError, match="hidden card is shown"):
        check_game(game, deals=(1,), walk=1)


class LostCard(BeleagueredCastle):
    """A broken deal: card 0 is missing and card 1 is there twice."""

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        piles = super().deal_piles(deal_number)
        piles["foundation0"] = [1]
        return piles


def test_the_suite_catches_a_lost_card():
    with pytest.raises(AssertionError, match="cards lost"):
        check_game(LostCard(), deals=(1,), walk=1)


def test_game_modules_are_found_without_a_list():
    import pkgutil

    import simlab.games

    modules = {m.name for m in pkgutil.iter_modules(simlab.games.__path__)}
    registered = {make_game(name).__class__.__module__.rsplit(".", 1)[1] for name in GAMES.names()}
    assert registered <= modules and "castle_of_indolence" in registered


def test_a_state_pickles_with_its_chance_tape():
    import pickle

    state = State(np.arange(5, dtype=np.int8), np.array([0.0, 3.0]))
    assert pickle.loads(pickle.dumps(state)) == state
