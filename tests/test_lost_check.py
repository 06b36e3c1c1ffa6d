"""A loss is confirmed by a second search with independent hash keys
(``simlab.solver.portfolio.confirmed``): a collision of the first hash that hides
the winning line no longer makes a won deal ``lost``."""

from __future__ import annotations

import dataclasses

import numpy as np

from simlab import make_game
from simlab.engine import kernel
from simlab.solver import plan_for, solve
from simlab.solver.best_first import best_first_search
from simlab.solver.portfolio import PROMISE_WEIGHTS, long_and_restarts, portfolio_verdict, streamlined_search
from simlab.solver.replay import replays_to_win
from simlab.solver.search import ORDER_GUIDED, STATUS_BUDGET, STATUS_LOST, STATUS_WON, depth_first_search

BUDGET = 100_000
TABLE_BITS = 20
WON_DEAL = 2  # Beleaguered Castle deal 2: won in 329 positions
WEAK_MASK = np.uint64(3)  # two bits per key: positions collide everywhere


def weakened(plan):
    """``plan`` whose first hash keys keep two bits each (its check keys are left as they are),
    without the streamlined search: it hashes with keys of its own and would win
    the deal before the complete searches whose losses are checked run."""
    return dataclasses.replace(plan, zobrist=plan.zobrist & WEAK_MASK, streamlined=False)


def test_a_weak_first_hash_calls_a_won_deal_lost_without_the_check() -> None:
    game = make_game("beleaguered_castle")
    plan = weakened(plan_for(game))
    start = game.initial_state(WON_DEAL)
    rules, array = game.rules, plan.array
    depth_first = depth_first_search(rules, array, start.array.copy(), start.chance, plan.zobrist, BUDGET,
                                     TABLE_BITS, ORDER_GUIDED, 0)
    best_first = best_first_search(rules, array, start.array.copy(), plan.zobrist, BUDGET, TABLE_BITS,
                                   PROMISE_WEIGHTS, 0)
    unchecked = long_and_restarts(game, plan, start.array, start.chance, BUDGET, TABLE_BITS)
    assert depth_first[0] == best_first[0] == unchecked.status == STATUS_LOST


def test_the_check_finds_the_win_a_collision_hid() -> None:
    game = make_game("beleaguered_castle")
    plan = weakened(plan_for(game))
    start = game.initial_state(WON_DEAL)
    verdict = portfolio_verdict(game, plan, start.array, start.chance, BUDGET, TABLE_BITS)
    assert verdict.status == STATUS_WON and verdict.check_nodes > 0
    moves = [game.move_from_code(int(code)) for code in verdict.moves]
    assert replays_to_win(game, start, moves)


def test_a_check_that_runs_out_leaves_the_deal_unknown() -> None:
    # deal 5 is won; the weak search "proves" it lost in its first restart, whose
    # budget (2048 positions) is too small for the check to find the win
    game = make_game("beleaguered_castle")
    plan = weakened(plan_for(game))
    start = game.initial_state(5)
    verdict = portfolio_verdict(game, plan, start.array, start.chance, BUDGET, TABLE_BITS)
    assert verdict.status == STATUS_BUDGET


def test_a_real_loss_is_confirmed_with_as_many_positions() -> None:
    # with no collision both searches see the same positions (every pruning keeps
    # every reachable position, whatever the order or the keys)
    # (``nodes`` also counts the streamlined search's, which proves nothing and is not checked)
    game = make_game("beleaguered_castle")
    start = game.initial_state(1)
    streamlined = streamlined_search(game, plan_for(game), start.array, start.chance, BUDGET, TABLE_BITS)[1]
    result = solve(game, 1)
    assert result.verdict == "lost" and result.check_nodes == result.nodes - streamlined == 255


def test_the_check_keys_are_independent_and_use_every_bit() -> None:
    assert plan_for(make_game("beleaguered_castle")).check_zobrist is kernel.CHECK_ZOBRIST
    assert not np.any(kernel.CHECK_ZOBRIST == kernel.ZOBRIST)
    assert np.any(kernel.CHECK_ZOBRIST >> np.uint64(63))  # the first keys are drawn below 2**63
    assert plan_for(make_game("windmill")).check_zobrist is kernel.RANK_CHECK_ZOBRIST  # rules read ranks only
