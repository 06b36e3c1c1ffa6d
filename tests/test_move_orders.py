"""Move orders of the depth-first search (``simlab.solver.search.ordered_moves``):
every order searches the same moves (only the order differs, so each search
stays complete, whatever the seed), and the seeded orders do depend on the seed."""

from __future__ import annotations

import numpy as np
import pytest

from simlab import make_game
from simlab.engine import kernel
from simlab.engine.game import State
from simlab.engine.incremental import start_tracking
from simlab.engine.layout import N_CARDS, N_PILES
from simlab.solver.search import (
    MAX_BRANCHING,
    ORDER_GUIDED,
    ORDER_JITTERED,
    ORDER_PLAIN,
    ORDER_SHUFFLED,
    new_workspace,
    ordered_moves,
)

CASTLE_GAMES = ["beleaguered_castle", "streets_and_alleys", "citadel", "siegecraft", "stronghold", "fortress"]


def moves_in_order(game, state: State, order: int, seed: int) -> list[int]:
    """The moves ``ordered_moves`` writes for ``state``, in its order."""
    rules, array = game.rules, state.array.copy()
    pile_hashes = np.empty(rules[N_PILES], dtype=np.uint64)
    card_piles = np.empty(rules[N_CARDS], dtype=np.int64)
    key = np.uint64(start_tracking(rules, array, kernel.ZOBRIST, pile_hashes, card_piles))
    out = np.empty(MAX_BRANCHING, dtype=np.int32)
    count = ordered_moves(rules, array, -1, new_workspace(rules), out, 0, order, seed, key, card_piles)
    return [int(code) for code in out[:count]]


def playout_positions(game, deals: range, steps: int, seed: int) -> list[State]:
    """Positions along random playouts of ``deals``."""
    generator = np.random.default_rng(seed)
    positions = []
    for deal in deals:
        state = game.initial_state(deal)
        for _ in range(steps):
            positions.append(state)
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, moves[generator.integers(len(moves))])
    return positions


@pytest.mark.parametrize("game_name", CASTLE_GAMES + ["chessboard"])
def test_every_order_searches_the_same_moves(game_name: str) -> None:
    game = make_game(game_name)
    positions = playout_positions(game, range(1, 41), steps=30, seed=3)
    for state in positions:
        plain = moves_in_order(game, state, ORDER_PLAIN, 0)
        assert len(set(plain)) == len(plain)
        for order in (ORDER_GUIDED, ORDER_JITTERED, ORDER_SHUFFLED):
            for seed in (1, 7):
                assert sorted(moves_in_order(game, state, order, seed)) == sorted(plain), game.piles(state)
    assert len(positions) >= 200


@pytest.mark.parametrize("order", [ORDER_JITTERED, ORDER_SHUFFLED])
def test_the_seeded_orders_depend_on_the_seed(order: int) -> None:
    game = make_game("beleaguered_castle")
    state = game.initial_state(5)
    orders = {tuple(moves_in_order(game, state, order, seed)) for seed in range(1, 21)}
    assert len(orders) > 5
