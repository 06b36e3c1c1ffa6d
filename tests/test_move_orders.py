"""Move orders of the depth-first search (``simlab.solver.search.ordered_moves``):
every order searches the same moves (only the order differs, so each search
stays complete, whatever the seed), and the seeded orders do depend on the seed."""

from __future__ import annotations

import numpy as np
import pytest
from test_layout_summaries import RULE_SETS

from simlab import make_game
from simlab.engine import kernel
from simlab.engine.game import State
from simlab.engine.incremental import start_tracking
from simlab.engine.layout import EMPTY_FILL, FILL_NONE, N_CARDS, N_PILES, ROWS_ALIKE, ROWS_ORDERED
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


@pytest.mark.parametrize(("game_name", "params"), list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_rows_are_alike_and_ordered_rows_never_take_a_card_into_a_space(game_name: str, params: dict) -> None:
    """What the searches rest on, for every game and rule set. The position hash sums
    rows without their identity (``kernel.pile_term``), which is right only where rows
    are alike. And ``worth_searching`` leaves out a card into an empty row after the
    first, and a row's only card into an empty row, as repeating another position,
    without asking whether the rows' order is part of a position (``ROWS_ORDERED``:
    a redeal gathers them in order); it never needs to, because no game with ordered
    rows lets a player fill a space. A rule set that broke either would make the
    solver prune positions it must search; this says so before it does."""
    rules = make_game(game_name, **params).rules
    assert rules[ROWS_ALIKE] == 1, "rows that differ: the position hash would merge positions that are not alike"
    if rules[ROWS_ORDERED] == 1:
        assert rules[EMPTY_FILL] == FILL_NONE, "ordered rows taking a card into a space: see worth_searching"
