"""Packed positions (``simlab.engine.packed``), as best-first search keeps them:
unpacking gives back exactly the state array that was packed."""

from __future__ import annotations

import numpy as np
import pytest

from simlab import make_game
from simlab.engine import kernel
from simlab.engine.layout import N_CARDS, STATE_SIZE
from simlab.engine.packed import pack, packed_size, unpack
from simlab.games import GAMES


@pytest.mark.parametrize("game_name", GAMES.names())
def test_unpack_restores_every_position_along_playouts(game_name: str) -> None:
    game = make_game(game_name)
    rules = game.rules
    generator = np.random.default_rng(17)
    moves = np.empty(1024, dtype=np.int32)
    packed = np.empty(packed_size(rules), dtype=np.int8)
    seen_sizes = set()
    for deal in range(1, 8):
        state = game.initial_state(deal).array.copy()
        for _ in range(80):
            pack(rules, state, packed)
            rebuilt = np.zeros(rules[STATE_SIZE], dtype=np.int8)  # not -1: unpack must write every slot
            unpack(rules, packed, rebuilt)
            np.testing.assert_array_equal(rebuilt, state)
            seen_sizes.add(sum(kernel.height(rules, state, pile) for pile in range(len(game.pile_names))))
            count = kernel.legal_moves(rules, state, moves)
            if count == 0:
                break
            kernel.apply_move(rules, state, moves[generator.integers(count)])
    assert packed_size(rules) < rules[STATE_SIZE]
    assert seen_sizes == {int(rules[N_CARDS])}  # every card is in some pile: the packed size fits them all
