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
from simlab.engine.layout import (
    EMPTY_FILL,
    FILL_NONE,
    FIRST_FOUNDATION,
    MOVE_BASE,
    MOVE_CARD,
    N_CARDS,
    N_PILES,
    ROWS_ALIKE,
    ROWS_ORDERED,
)
from simlab.solver.plan import PLAN_RETURNS, plan_for
from simlab.solver.search import (
    MAX_BRANCHING,
    ORDER_GUIDED,
    ORDER_JITTERED,
    ORDER_PLAIN,
    ORDER_SHUFFLED,
    Workspace,
    new_workspace,
    ordered_moves,
)

CASTLE_GAMES = ["beleaguered_castle", "streets_and_alleys", "citadel", "siegecraft", "stronghold", "fortress"]


def moves_in_order(game, state: State, order: int, seed: int, work: Workspace | None = None) -> list[int]:
    """The moves ``ordered_moves`` writes for ``state``, in its order (working in ``work``,
    default a new ``Workspace``)."""
    rules, array = game.rules, state.array.copy()
    pile_hashes = np.empty(rules[N_PILES], dtype=np.uint64)
    card_piles = np.empty(rules[N_CARDS], dtype=np.int64)
    key = np.uint64(start_tracking(rules, array, kernel.ZOBRIST, pile_hashes, card_piles))
    out = np.empty(MAX_BRANCHING, dtype=np.int32)
    work = new_workspace(rules, plan_for(game).array[PLAN_RETURNS]) if work is None else work
    count = ordered_moves(rules, array, -1, work, out, 0, order, seed, key, card_piles)
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


def dirty_workspace(game, value: float) -> Workspace:
    """A ``Workspace`` whose every slot holds ``value``, as one reused or freshly allocated
    (``np.empty``) may hold anything."""
    work = new_workspace(game.rules, plan_for(game).array[PLAN_RETURNS])
    for array in (work.legal, work.scores, work.whole, work.below_top, work.relaxation):
        array[:] = value
    return work


def foundation_return_positions(game, deals: range, steps: int, seed: int) -> list[State]:
    """Positions along playouts of ``deals`` (no redeal, so one is still ahead; half the
    time a card home when one can go) where the search tries a foundation's card back on a fan."""
    rules = game.rules
    generator = np.random.default_rng(seed)
    positions = []
    for deal in deals:
        state = game.initial_state(deal)
        for _ in range(steps):
            if any(kernel.move_kind(code) == MOVE_CARD and code // MOVE_BASE >= rules[FIRST_FOUNDATION]
                   for code in moves_in_order(game, state, ORDER_PLAIN, 0)):
                positions.append(state)
            moves = [move for move in game.legal_moves(state) if move[0] != "redeal"]
            home = [move for move in moves if move[1].startswith("foundation")]
            if not moves:
                break
            state = game.apply(state, home[0] if home and generator.random() < 0.5
                               else moves[generator.integers(len(moves))])
    return positions


@pytest.mark.parametrize("game_name", ["la_belle_lucie", "trefoil"])
def test_the_orders_read_only_the_position_even_a_card_back_from_a_foundation(game_name: str) -> None:
    """Each order depends on the position, the seed and nothing else: not on what the
    workspace held before (``ordered_moves`` reads only what it wrote). A card back from a
    foundation (``foundation_return``, a redeal ahead) is scored from its source's
    ``below_top``, a foundation's entry, once left unwritten: the solver's lines and node
    counts on these games then changed from one process to the next."""
    game = make_game(game_name, foundation_return=True)
    positions = foundation_return_positions(game, range(1, 6), steps=60, seed=0)
    assert len(positions) >= 20
    for state in positions:
        for order in (ORDER_GUIDED, ORDER_JITTERED):
            orders = {tuple(moves_in_order(game, state, order, 5, dirty_workspace(game, value)))
                      for value in (-1e9, 0.0, 1e9)}
            assert len(orders) == 1, game.piles(state)


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
