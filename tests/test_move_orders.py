"""Move orders of the depth-first search (``simlab.solver.search.ordered_moves``):
every order searches the same moves (only the order differs, so each search
stays complete), and the shuffled order puts the moves that open a pile up
first. What "opens a pile up" means is written here again from the rules' side
(pile names and the game's own legal moves), not from the search's code."""

from __future__ import annotations

import numpy as np
import pytest

from simlab import make_game
from simlab.engine import kernel
from simlab.engine.game import State
from simlab.engine.incremental import start_tracking
from simlab.engine.layout import N_CARDS, N_PILES
from simlab.solver.search import (
    MAX_BRANCHING, ORDER_GUIDED, ORDER_JITTERED, ORDER_PLAIN, ORDER_SHUFFLED, ordered_moves,
)

CASTLE_GAMES = ["beleaguered_castle", "streets_and_alleys", "citadel", "siegecraft", "stronghold", "fortress"]


def moves_in_order(game, state: State, order: int, seed: int) -> list[int]:
    """The moves ``ordered_moves`` writes for ``state``, in its order."""
    rules, array = game.rules, state.array.copy()
    pile_hashes = np.empty(rules[N_PILES], dtype=np.uint64)
    card_piles = np.empty(rules[N_CARDS], dtype=np.int64)
    key = np.uint64(start_tracking(rules, array, kernel.ZOBRIST, pile_hashes, card_piles))
    out = np.empty(MAX_BRANCHING, dtype=np.int32)
    count = ordered_moves(
        rules, array, -1, np.empty(MAX_BRANCHING, dtype=np.int32), np.empty(MAX_BRANCHING, dtype=np.float64),
        out, 0, order, seed, key, card_piles, np.empty(rules[N_PILES]), np.empty(rules[N_PILES]),
    )
    return [int(code) for code in out[:count]]


def opens_up(game, state: State, code: int) -> bool:
    """The move takes the last card of its pile onto another card (not home), or
    the card it uncovers is one that a foundation accepts in ``state``."""
    move = game.move_from_code(code)
    cards = game.pile_cards(state, move.source)
    if len(cards) == 1:
        return not move.destination.startswith("foundation") and len(game.pile_cards(state, move.destination)) > 0
    foundations = [i for i, name in enumerate(game.pile_names) if name.startswith("foundation")]
    return any(kernel.foundation_accepts(game.rules, state.array, pile, cards[-2]) for pile in foundations)


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


@pytest.mark.parametrize("game_name", CASTLE_GAMES)
def test_every_order_searches_the_same_moves_and_shuffled_opens_piles_first(game_name: str) -> None:
    game = make_game(game_name)
    opening_seen = ordinary_seen = 0
    for state in playout_positions(game, range(1, 9), steps=60, seed=3):
        plain = moves_in_order(game, state, ORDER_PLAIN, 0)
        for order in (ORDER_GUIDED, ORDER_JITTERED, ORDER_SHUFFLED):
            assert sorted(moves_in_order(game, state, order, 7)) == sorted(plain), game.piles(state)
        shuffled = moves_in_order(game, state, ORDER_SHUFFLED, 11)
        flags = [opens_up(game, state, code) for code in shuffled]
        assert flags == sorted(flags, reverse=True), (game.piles(state), [str(game.move_from_code(c)) for c in shuffled])
        opening_seen += sum(flags)
        ordinary_seen += len(flags) - sum(flags)
    assert opening_seen >= 20 and ordinary_seen >= 100, (opening_seen, ordinary_seen)


def test_the_shuffled_order_depends_on_the_seed() -> None:
    game = make_game("beleaguered_castle")
    state = game.initial_state(5)
    orders = {tuple(moves_in_order(game, state, ORDER_SHUFFLED, seed)) for seed in range(1, 21)}
    assert len(orders) > 5
