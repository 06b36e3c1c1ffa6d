"""Stuck checks (``simlab.solver.stuck``), against a plain search written here
from the rule the module's docstring states: a position is stuck for ``levels``
when no line of legal moves from it wins or makes ``levels`` foundation plays.
The plain search knows positions by every card (rows and cells sorted, as
interchangeable), so where the check's rank keys merged positions that differ,
the two disagree.

Positions are small real deals with most cards home and the fewest legal moves
of those drawn (``tests/test_deadlock.py``'s ``drawn_positions``), so that
both stuck and live ones occur.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from reference_search import _canonical, reference_search
from test_deadlock import CASTLE_GAMES, drawn_positions

from simlab import make_game
from simlab.engine import kernel
from simlab.engine.layout import CAPACITY, FIRST_CELL, FIRST_FOUNDATION, MOVE_BASE, N_CARDS, N_PILES, OFFSET_HEIGHTS
from simlab.engine.position_set import new_position_set
from simlab.solver import plan_for, solve
from simlab.solver.plan import PLAN_STUCK
from simlab.solver.portfolio import long_and_restarts
from simlab.solver.search import (
    MAX_BRANCHING,
    ORDER_GUIDED,
    STATUS_BUDGET,
    STATUS_LOST,
    STUCK_CAP,
    begin_depth_first,
    resume_depth_first,
)
from simlab.solver.stuck import (
    STUCK_BUDGET,
    STUCK_FLOOR,
    STUCK_LEVELS,
    STUCK_NO,
    STUCK_UNKNOWN,
    STUCK_YES,
    empties_alike,
    lowered_cap,
    moved_rank_hash,
    new_check_space,
    raise_level,
    rank_hash,
    rank_values,
    stuck,
    stuck_budget,
    stuck_levels,
    toggle_home,
    toggle_moved,
    values_hash,
)


def plays_within_reach(game, array: np.ndarray, levels: int, limit: int = 30_000) -> bool | None:
    """Whether some line of legal moves from ``array`` wins or makes ``levels``
    foundation plays (None: more than ``limit`` positions to tell)."""
    rules, first_foundation = game.rules, int(game.rules[FIRST_FOUNDATION])
    out = np.empty(1024, dtype=np.int32)
    start = (array.copy(), 0)
    seen = {(_canonical(game, array), 0)}
    stack = [start]
    while stack:
        position, plays = stack.pop()
        for code in out[: kernel.legal_moves(rules, position, out)].tolist():
            child = position.copy()
            kernel.apply_move(rules, child, code)
            made = plays + (code % MOVE_BASE >= first_foundation)
            if made == levels or kernel.is_won(rules, child):
                return True
            key = (_canonical(game, child), made)
            if key not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(key)
                stack.append((child, made))
    return False


def check(game, array: np.ndarray, levels: int, budget: int = 100_000, known=None) -> tuple[int, int]:
    """``stuck`` on a copy of ``array`` with fresh working space: (status, positions)."""
    known = new_position_set(0, 22) if known is None else known
    space = new_check_space(game.rules, array, budget + 1, 24)
    status, nodes, _ = stuck(
        game.rules, array.copy(), plan_for(game).zobrist, levels, budget, known, 0, space,
        np.empty(MAX_BRANCHING, dtype=np.int32),
    )
    return status, nodes


@pytest.mark.parametrize("game_name", CASTLE_GAMES)
def test_stuck_exactly_when_the_plain_search_finds_no_line(game_name):
    game, positions = drawn_positions(game_name, seed=20261203, count=160)
    answers = {STUCK_YES: 0, STUCK_NO: 0}
    for state in positions:
        for levels in (1, 2, 3):
            within_reach = plays_within_reach(game, state.array, levels)
            status, _ = check(game, state.array, levels)
            if within_reach is None or status == STUCK_UNKNOWN:
                continue
            assert status == (STUCK_NO if within_reach else STUCK_YES), (levels, game.piles(state))
            answers[status] += 1
    assert answers[STUCK_YES] >= 4 and answers[STUCK_NO] >= 100, answers


@pytest.mark.parametrize("game_name", CASTLE_GAMES)
def test_a_stuck_position_is_lost(game_name):
    game, positions = drawn_positions(game_name, seed=20261203, count=160)
    stuck_ones = 0
    for state in positions:
        if check(game, state.array, STUCK_LEVELS)[0] == STUCK_YES:
            stuck_ones += 1
            assert reference_search(game, state, limit=20_000)[0] in ("lost", "limit"), game.piles(state)
    assert stuck_ones >= 2


def test_a_check_gives_up_at_its_budget():
    game, positions = drawn_positions("streets_and_alleys", seed=11, count=30)
    gave_up = 0
    for state in positions:
        status, nodes = check(game, state.array, 3, budget=5)
        assert nodes <= 5
        gave_up += status == STUCK_UNKNOWN
    assert gave_up >= 1


def test_a_check_that_gives_up_halves_the_cap_of_the_next_down_to_the_floor():
    assert lowered_cap(STUCK_BUDGET) == STUCK_BUDGET // 2
    assert lowered_cap(2 * STUCK_FLOOR + 2) == STUCK_FLOOR + 1
    assert lowered_cap(STUCK_FLOOR + 1) == lowered_cap(STUCK_FLOOR) == STUCK_FLOOR
    assert lowered_cap(5) == 5  # a small search's cap, under the floor, stays as it is


def test_checks_that_give_up_lower_the_cap_of_their_level_only():
    """Streets and Alleys 1,000,528: from the long search's first positions on,
    checks asking for 4 plays give up at the cap. That level's cap is lower
    afterwards, and the levels whose checks did not give up keep the search's."""
    game = make_game("streets_and_alleys")
    plan = plan_for(game)
    start = game.initial_state(1_000_528)
    budget = 32_000_000
    search = begin_depth_first(game.rules, plan.array, start.array.copy(), start.chance, plan.zobrist, budget, 25,
                               ORDER_GUIDED, 0)
    cap = int(search.counters[STUCK_CAP])
    assert cap == stuck_budget(budget) == STUCK_BUDGET
    status, _, search = resume_depth_first(game.rules, plan.zobrist, ORDER_GUIDED, 0, search, 3 * cap)
    caps = search.checks.caps
    assert status == STATUS_BUDGET
    assert STUCK_FLOOR <= caps[4] < cap, caps
    assert all(caps[level] == -1 for level in (1, 2, 3)), caps


def test_a_position_found_stuck_before_is_stuck_without_a_search():
    game, positions = drawn_positions("beleaguered_castle", seed=7, count=30)
    state = next(s for s in positions if check(game, s.array, 2)[0] == STUCK_YES)
    known = new_position_set(0, 22)
    assert check(game, state.array, 2, known=known)[1] >= 1
    assert check(game, state.array, 2, known=known) == (STUCK_YES, 0)


def test_a_position_kept_live_is_not_stuck_without_a_search():
    game, positions = drawn_positions("beleaguered_castle", seed=7, count=30)
    state = next(s for s in positions if check(game, s.array, 2)[0] == STUCK_NO and check(game, s.array, 2)[1] > 1)
    known = new_position_set(0, 22)
    assert check(game, state.array, 2, known=known)[1] > 1
    assert check(game, state.array, 2, known=known) == (STUCK_NO, 0)


def test_which_games_check():
    checking = {name for name in ("beleaguered_castle", "streets_and_alleys", "citadel", "siegecraft", "stronghold",
                                  "castle_of_indolence", "fortress", "chessboard", "fan", "la_belle_lucie",
                                  "trefoil", "windmill") if plan_for(make_game(name)).stuck}
    assert checking == set(CASTLE_GAMES)
    assert plan_for(make_game("streets_and_alleys")).array[PLAN_STUCK] == STUCK_LEVELS
    assert plan_for(make_game("streets_and_alleys")).streamlined_array[PLAN_STUCK] == 0


def test_the_checks_prove_a_loss_in_fewer_positions_and_no_verdict_changes():
    """Streets and Alleys deal 5 (lost): the complete searches prove it in fewer
    positions with the checks (theirs counted) than without."""
    game = make_game("streets_and_alleys")
    plan = plan_for(game)
    without = dataclasses.replace(plan, stuck=0)
    start = game.initial_state(5)
    results = [long_and_restarts(game, p, start.array, start.chance, 2_000_000, 22) for p in (plan, without)]
    assert [r.status for r in results] == [STATUS_LOST, STATUS_LOST]
    assert results[0].nodes < results[1].nodes / 2, [r.nodes for r in results]


@pytest.mark.parametrize("deal", [4, 5, 7])
def test_verdicts_with_and_without_the_checks_agree(deal):
    game = make_game("streets_and_alleys")
    with_checks = solve(game, deal, budget=300_000)
    plan = plan_for(game)
    saved = plan.array[PLAN_STUCK]
    plan.array[PLAN_STUCK] = 0
    try:
        without = solve(game, deal, budget=300_000)
    finally:
        plan.array[PLAN_STUCK] = saved
    assert with_checks.verdict == without.verdict != "unknown"


def followed_hash(game, array, move, level, values, places, key):
    """The hash a check follows to after ``move`` from ``array`` (its piles'
    ``values`` updated as the check updates them), the level there and the position."""
    rules, zobrist = game.rules, plan_for(game).zobrist
    if move % MOVE_BASE >= int(rules[FIRST_FOUNDATION]):
        toggle_home(rules, array, move, zobrist, level, values, places)
        after = array.copy()
        kernel.apply_move(rules, after, move)
        return values_hash(rules, after, level - 1, values), level - 1, after
    child = moved_rank_hash(rules, array, move, zobrist, level, values, np.uint64(key))
    toggle_moved(rules, array, move, zobrist, level, values)
    after = array.copy()
    kernel.apply_move(rules, after, move)
    return child, level, after


@pytest.mark.parametrize("game_name", CASTLE_GAMES)
def test_the_hash_a_check_follows_is_the_hash_recomputed(game_name):
    """Every move from drawn positions, at every level: the hash a check
    follows move by move equals ``rank_hash`` recomputed, its pile hashes equal
    those ``rank_values`` fills, and undoing the update restores them."""
    game, positions = drawn_positions(game_name, seed=5, count=20)
    rules, zobrist = game.rules, plan_for(game).zobrist
    n_piles, n_cards = int(rules[N_PILES]), int(rules[N_CARDS])
    tried = home = 0
    for state in positions:
        for level in range(2, STUCK_LEVELS + 1):
            values, places = np.empty(n_piles, np.uint64), np.empty(n_cards, np.int64)
            key = rank_values(rules, state.array, zobrist, level, values, places)
            raised_values, raised_places = values.copy(), places.copy()
            raised = raise_level(rules, state.array, zobrist, level, raised_values, raised_places)
            assert raised == rank_hash(rules, state.array, zobrist, level + 1)
            fresh_raised = np.empty(n_piles, np.uint64)
            rank_values(rules, state.array, zobrist, level + 1, fresh_raised, np.empty(n_cards, np.int64))
            assert raised_values.tolist() == fresh_raised.tolist()
            for move in game.legal_move_codes(state):
                moved_values = values.copy()
                child, child_level, after = followed_hash(game, state.array, move, level, moved_values, places, key)
                fresh_values = np.empty(n_piles, np.uint64)
                assert child == rank_hash(rules, after, zobrist, child_level) == rank_values(
                    rules, after, zobrist, child_level, fresh_values, np.empty(n_cards, np.int64)
                )
                assert moved_values.tolist() == fresh_values.tolist()
                back = moved_values.copy()
                if move % MOVE_BASE >= int(rules[FIRST_FOUNDATION]):
                    toggle_home(rules, state.array, move, zobrist, level, back, places)
                    home += 1
                else:
                    toggle_moved(rules, state.array, move, zobrist, level, back)
                assert back.tolist() == values.tolist()
                tried += 1
    assert tried >= 200 and home >= 10, (tried, home)


def shifted(rules, array: np.ndarray, source: int, keep: int) -> np.ndarray:
    """``array`` with the cards of row ``source`` above its bottom ``keep`` moved,
    top first, onto the lowest rows with room, ignoring the rules (a rank hash
    is defined on any position): a way to empty rows or leave a lone card."""
    array = array.copy()
    heights, capacity = int(rules[OFFSET_HEIGHTS]), int(rules[CAPACITY])
    while array[heights + source] > keep:
        height = int(array[heights + source])
        rows = [row for row in range(int(rules[FIRST_CELL])) if row != source and 0 < array[heights + row] < capacity]
        target = min(rows, key=lambda row: int(array[heights + row]))
        array[target * capacity + int(array[heights + target])] = array[source * capacity + height - 1]
        array[heights + target] += 1
        array[heights + source] = height - 1
    return array


@pytest.mark.parametrize("game_name", CASTLE_GAMES)
def test_a_move_left_out_for_empty_rows_reaches_a_position_reached_before(game_name):
    """``empties_alike`` leaves out a move only if the rank hash after it is the
    position's own (a row's only card into an empty row) or the one after a
    move of the same card listed before it and kept (into the first empty row). Drawn
    positions with two rows emptied and a row left with one card."""
    game, positions = drawn_positions(game_name, seed=7, count=20)
    rules, zobrist = game.rules, plan_for(game).zobrist
    legal = np.empty(MAX_BRANCHING, np.int32)
    left_out = lone = kept = 0
    for state in positions:
        array = shifted(rules, shifted(rules, shifted(rules, state.array, 1, 0), 2, 0), 4, 1)
        key = rank_hash(rules, array, zobrist, 3)
        codes = [int(move) for move in legal[: kernel.legal_moves(rules, array, legal)]]
        for index, move in enumerate(codes):
            if move % MOVE_BASE >= int(rules[FIRST_FOUNDATION]):
                continue
            after = array.copy()
            kernel.apply_move(rules, after, move)
            if not empties_alike(rules, array, move):
                kept += 1
                continue
            left_out += 1
            child = rank_hash(rules, after, zobrist, 3)
            if child == key:
                lone += 1
                continue
            earlier = []  # what the same card's earlier moves that are kept reach
            for other in codes[:index]:
                if (other // MOVE_BASE == move // MOVE_BASE and other % MOVE_BASE < int(rules[FIRST_FOUNDATION])
                        and not empties_alike(rules, array, other)):
                    reached = array.copy()
                    kernel.apply_move(rules, reached, other)
                    earlier.append(rank_hash(rules, reached, zobrist, 3))
            assert child in earlier, (move, codes)
    assert left_out - lone >= 30 and lone >= 10 and kept >= 100, (left_out, lone, kept)


def test_a_plan_without_checks_does_no_work():
    """``stuck_levels`` asked for no plays touches nothing: the searches of every
    game call it where the foundations change, and only the Castle family's keys
    have rows for the cards a check keeps apart."""
    game = make_game("streets_and_alleys")
    state = game.initial_state(1)
    space = new_check_space(game.rules, state.array, 101, 16)
    space.start_values[:] = 7
    space.start_places[:] = 7
    answer = stuck_levels(
        game.rules, state.array, plan_for(game).zobrist, 0, 100, 100, new_position_set(0, 12), 0, space,
        np.empty(MAX_BRANCHING, dtype=np.int32),
    )
    assert answer == (STUCK_NO, 0, 0)
    assert set(space.start_values.tolist()) == {7} and set(space.start_places.tolist()) == {7}
