"""The streamlined search (``simlab.solver.portfolio.streamlined_search``): every
card a foundation accepts goes home at once and positions are hashed by rank
only. It finds wins the complete searches miss, and its exhausting proves
nothing: a deal it misses is still searched completely."""

from __future__ import annotations

import numpy as np
import pytest

from simlab import make_game
from simlab.engine import kernel
from simlab.engine.layout import FIRST_FOUNDATION, MOVE_BASE
from simlab.solver import plan_for, solve
from simlab.solver.autoplay import AUTOPLAY_DOWN_ANY_SUIT, AUTOPLAY_EVERY, is_safe
from simlab.solver.portfolio import long_and_restarts, streamlined_search
from simlab.solver.replay import codes_replay_to_win
from simlab.solver.search import STATUS_BUDGET, STATUS_LOST, STATUS_WON

TABLE_BITS = 20
# Beleaguered Castle deal 363: the complete searches alone left it undecided at
# 32M positions; the streamlined search wins it in 39,930.
HARD_WON = 363
# Beleaguered Castle deal 891: the streamlined search exhausts; the complete
# searches win it in 588 positions.
MISSED_WON = 891


def castle():
    game = make_game("beleaguered_castle")
    return game, plan_for(game)


def test_the_castle_family_searches_streamlined_first_and_no_other_game_does() -> None:
    for name in ("beleaguered_castle", "streets_and_alleys", "citadel", "siegecraft", "stronghold"):
        assert plan_for(make_game(name)).streamlined, name
    for name in ("fortress", "chessboard", "fan", "la_belle_lucie", "windmill"):
        assert not plan_for(make_game(name)).streamlined, name


def test_the_streamlined_search_wins_a_deal_the_complete_searches_cannot_decide_in_the_same_positions() -> None:
    game, plan = castle()
    start = game.initial_state(HARD_WON)
    budget = 100_000
    status, nodes, moves = streamlined_search(game, plan, start.array, start.chance, budget, TABLE_BITS)
    assert status == STATUS_WON and nodes <= budget
    assert codes_replay_to_win(game, start, moves)
    assert long_and_restarts(game, plan, start.array, start.chance, budget, TABLE_BITS).status == STATUS_BUDGET


def test_its_line_plays_home_a_card_no_safe_rule_would() -> None:
    """The line the streamlined search finds for the hard deal makes at least one
    foundation play the safe rule refuses: the streamliner is what found it."""
    game, plan = castle()
    start = game.initial_state(HARD_WON)
    _, _, moves = streamlined_search(game, plan, start.array, start.chance, 100_000, TABLE_BITS)
    rules, state = game.rules, start.array.copy()
    unsafe = 0
    for move in moves:
        source, destination = int(move) // MOVE_BASE, int(move) % MOVE_BASE
        if destination >= rules[FIRST_FOUNDATION] and source < rules[FIRST_FOUNDATION]:
            card = kernel.top_card(rules, state, source)
            assert is_safe(rules, state, card, AUTOPLAY_EVERY)
            unsafe += not is_safe(rules, state, card, AUTOPLAY_DOWN_ANY_SUIT)
        kernel.apply_move(rules, state, np.int64(move))
    assert kernel.is_won(rules, state) and unsafe > 0


def test_an_exhausted_streamlined_search_is_no_loss() -> None:
    game, plan = castle()
    start = game.initial_state(MISSED_WON)
    status, nodes, _ = streamlined_search(game, plan, start.array, start.chance, 100_000, TABLE_BITS)
    assert status == STATUS_LOST  # it saw every position its streamliners leave
    result = solve(game, MISSED_WON, budget=100_000, table_bits=TABLE_BITS)
    assert result.verdict == "won" and result.nodes > nodes


def test_a_loss_counts_the_streamlined_positions_within_the_budget() -> None:
    game, plan = castle()
    start = game.initial_state(1)  # lost
    status, streamlined, _ = streamlined_search(game, plan, start.array, start.chance, 10_000, TABLE_BITS)
    complete = long_and_restarts(game, plan, start.array, start.chance, 100_000 - streamlined, TABLE_BITS)
    result = solve(game, 1, budget=100_000, table_bits=TABLE_BITS)
    assert status == STATUS_LOST and complete.status == STATUS_LOST
    assert result.verdict == "lost" and result.nodes == streamlined + complete.nodes


@pytest.mark.parametrize("budget", [1, 10, 5_000])
def test_an_undecided_deal_spends_at_most_its_budget(budget: int) -> None:
    game, _ = castle()
    result = solve(game, 192, budget=budget, table_bits=TABLE_BITS)  # won, but only after millions of positions
    assert result.verdict == "unknown" and result.nodes <= budget
