"""``simlab.engine.incremental``: the hash and card locations kept move by move
must equal the ones computed from scratch, after every move and after undoing.

Random playouts over every registered game (later games included), with the
solver's own ``undo_move_tracked`` walking each playout back to its start.
"""

from __future__ import annotations

import numpy as np
import pytest

from simlab import GAMES, make_game
from simlab.engine import kernel
from simlab.engine.game import NO_CHANCE
from simlab.engine.incremental import apply_move_tracked, start_tracking, undo_move_tracked
from simlab.engine.layout import FIRST_FOUNDATION, MOVE_BASE, MOVE_CARD, N_CARDS, N_PILES
from simlab.solver.plan import plan_for

GAME_NAMES = GAMES.names()


def fresh_tracking(game, array):
    pile_hashes = np.empty(game.rules[N_PILES], dtype=np.uint64)
    card_piles = np.empty(game.rules[N_CARDS], dtype=np.int64)
    key = start_tracking(game.rules, array, kernel.ZOBRIST, pile_hashes, card_piles)
    return np.uint64(key), pile_hashes, card_piles


def card_piles_from_scratch(game, array):
    """Where each card is, read pile by pile from the state."""
    where = {}
    for pile in range(game.rules[N_PILES]):
        for index in range(kernel.height(game.rules, array, pile)):
            where[int(kernel.card_at(game.rules, array, pile, index))] = pile
    return where


@pytest.mark.parametrize("game_name", GAME_NAMES, ids=GAME_NAMES)
@pytest.mark.parametrize("deal", [1, 77, 31999, 123456789])
def test_tracked_facts_match_recomputed_ones_along_a_playout_and_back(game_name, deal):
    game = make_game(game_name)
    rules = game.rules
    array = game.initial_state(deal).array.copy()
    start = array.copy()
    key, pile_hashes, card_piles = fresh_tracking(game, array)
    assert key == kernel.position_hash(rules, array, kernel.ZOBRIST)
    generator = np.random.default_rng(deal)
    played, keys = [], [key]
    scratch = np.empty(1024, dtype=np.int32)
    for _ in range(120):
        count = kernel.legal_moves(rules, array, scratch)
        # tracked card moves only: the search makes every other kind (a redeal, a draw) from a snapshot
        card_moves = [int(m) for m in scratch[:count] if kernel.move_kind(int(m)) == MOVE_CARD]
        if not card_moves:
            break
        move = card_moves[generator.integers(len(card_moves))]
        # np.uint64: a Python int below 2**63 would reach numba as int64
        key = np.uint64(apply_move_tracked(rules, array, move, kernel.ZOBRIST, pile_hashes, card_piles, key))
        played.append(move)
        keys.append(key)
        assert key == kernel.position_hash(rules, array, kernel.ZOBRIST)
        assert key == fresh_tracking(game, array.copy())[0]
        assert np.array_equal(pile_hashes, fresh_tracking(game, array.copy())[1])
        where = card_piles_from_scratch(game, array)
        assert all(card_piles[card] == pile for card, pile in where.items())
    assert played, "the playout should make at least one move"
    for move in reversed(played):
        keys.pop()
        key = np.uint64(undo_move_tracked(rules, array, move, kernel.ZOBRIST, pile_hashes, card_piles, key))
        assert key == keys[-1]
        assert key == kernel.position_hash(rules, array, kernel.ZOBRIST)
    assert np.array_equal(array, start)
    _, start_hashes, start_piles = fresh_tracking(game, start.copy())
    assert np.array_equal(pile_hashes, start_hashes)
    assert np.array_equal(card_piles, start_piles)


def has_quiet_moves(name):
    """Whether the search may make a quiet move in this game: a card may go to
    a row or cell, and card moves are their own inverse (else every move is
    made from a snapshot: Windmill's refills)."""
    from simlab.engine.layout import FIRST_FOUNDATION, P_ACCEPTS_FROM
    from simlab.engine.moves import card_moves_irreversible

    rules = make_game(name).rules
    takers = [kernel.spec(rules, pile, P_ACCEPTS_FROM) for pile in range(rules[FIRST_FOUNDATION])]
    return not card_moves_irreversible(rules) and any(takers)


QUIET_GAMES = [name for name in GAME_NAMES if has_quiet_moves(name)]


def test_windmill_has_no_quiet_move():
    assert "windmill" in GAME_NAMES and "windmill" not in QUIET_GAMES


@pytest.mark.parametrize("game_name", QUIET_GAMES, ids=QUIET_GAMES)
def test_a_quiet_move_is_looked_up_by_the_hash_it_will_have(game_name):
    """Along playouts from positions where every safe play has been made (as in the
    solver): for every move ``search.quiet`` calls quiet, ``hash_after`` equals the
    hash after making it and no safe play follows it; every move to a row or cell
    it does not call quiet uncovers a card that would go home."""
    from simlab.engine.incremental import hash_after
    from simlab.solver.autoplay import next_safe_play
    from simlab.solver.search import play_safe_moves, quiet

    game = make_game(game_name)
    rules = game.rules
    autoplay = plan_for(game).autoplay
    log = np.empty(rules[N_CARDS] + 1, dtype=np.int32)
    scratch = np.empty(1024, dtype=np.int32)
    checked = {True: 0, False: 0}
    for deal in (1, 2, 3, 4):
        array = game.initial_state(deal).array.copy()
        generator = np.random.default_rng(deal)
        for _ in range(60):
            play_safe_moves(rules, array, log, 0, autoplay)
            key, pile_hashes, _ = fresh_tracking(game, array.copy())
            count = kernel.legal_moves(rules, array, scratch)
            if count == 0:
                break
            for move in scratch[:count].tolist():
                if kernel.move_kind(move) != MOVE_CARD:
                    continue  # a redeal or a draw: the search makes it from a snapshot, never as quiet
                if move % MOVE_BASE >= rules[FIRST_FOUNDATION] or move // MOVE_BASE >= rules[FIRST_FOUNDATION]:
                    assert not quiet(rules, array, move, autoplay)
                    continue
                is_quiet = quiet(rules, array, move, autoplay)
                predicted = hash_after(rules, array, move, kernel.ZOBRIST, pile_hashes, key)
                child = array.copy()
                kernel.apply_move(rules, child, move)
                assert (next_safe_play(rules, child, autoplay) < 0) == is_quiet
                if is_quiet:
                    assert predicted == kernel.position_hash(rules, child, kernel.ZOBRIST)
                checked[is_quiet] += 1
            kernel.apply_move(rules, array, int(scratch[generator.integers(count)]))
    assert checked[True] > 50, checked


def test_row_order_does_not_change_the_tracked_hash():
    """Rows are interchangeable: swapping two rows keeps the hash (as the full one)."""
    game = make_game("beleaguered_castle")
    state = game.initial_state(5)
    piles = game.piles(state)
    piles["row0"], piles["row3"] = piles["row3"], piles["row0"]
    swapped = game.state_from_piles(piles)
    assert fresh_tracking(game, state.array.copy())[0] == fresh_tracking(game, swapped.array.copy())[0]


def test_a_grown_position_set_keeps_every_hash():
    from simlab.engine.position_set import add, capacity, contains, grown, new_position_set

    generator = np.random.default_rng(7)
    keys = generator.integers(1, 2**63, size=5000, dtype=np.int64).astype(np.uint64)
    table = new_position_set(1000, 20)
    for key in keys[: capacity(table)]:
        assert add(table, key)
    bigger = grown(table)
    assert bigger.shape[0] == 2 * table.shape[0]
    assert all(contains(bigger, key) for key in keys[: capacity(table)])
    assert not any(contains(bigger, key) for key in keys[capacity(table):])


def test_the_table_grows_as_the_search_needs_up_to_its_cap():
    """Beleaguered Castle deal 631 is lost in about 330,000 positions without the
    stuck checks (which prove it in fewer): the table starts at 65,536 entries
    and grows until the proof fits; capped at 2**18 slots (196,608 usable) it
    cannot, and the search says so (never "lost")."""
    import simlab.solver.search as search
    from simlab.solver.plan import PLAN_STUCK
    from simlab.solver.search import ORDER_GUIDED, STATUS_LOST, depth_first_search

    game = make_game("beleaguered_castle")
    start = game.initial_state(631).array
    plan = plan_for(game).array.copy()
    plan[PLAN_STUCK] = 0
    grown_run = depth_first_search(
        game.rules, plan, start.copy(), NO_CHANCE, kernel.ZOBRIST, 2_000_000, 22, ORDER_GUIDED, 0
    )
    assert grown_run[0] == STATUS_LOST and grown_run[1] > 4 * search.FIRST_TABLE_ENTRIES
    capped = depth_first_search(
        game.rules, plan, start.copy(), NO_CHANCE, kernel.ZOBRIST, 2_000_000, 18, ORDER_GUIDED, 0
    )
    assert capped[0] == search.STATUS_MEMORY, "a table capped at 2**18 slots cannot hold the proof"


@pytest.mark.parametrize("game_name, deal", [
    ("beleaguered_castle", 631),  # lost in about 330,000 positions: many pauses, the table grows
    ("beleaguered_castle", 4),    # won
    ("chessboard", 2),
])
@pytest.mark.parametrize("order", [0, 2])  # guided, shuffled
def test_a_search_run_in_slices_equals_one_run_straight_through(game_name, deal, order):
    """The solver's long search is paused and resumed between restarts: run in
    slices of 7,919 positions it must give the same verdict, count and line."""
    from simlab.solver.search import (
        STATUS_BUDGET,
        begin_depth_first,
        depth_first_search,
        positions_searched,
        resume_depth_first,
    )

    game = make_game(game_name)
    start = game.initial_state(deal).array
    budget = 400_000
    plan = plan_for(game).array
    straight = depth_first_search(game.rules, plan, start.copy(), NO_CHANCE, kernel.ZOBRIST, budget, 22, order, 5)
    search = begin_depth_first(game.rules, plan, start.copy(), NO_CHANCE, kernel.ZOBRIST, budget, 22, order, 5)
    limit, pauses = 0, 0
    while True:
        limit = min(budget, limit + 7919)
        status, moves, search = resume_depth_first(game.rules, kernel.ZOBRIST, order, 5, search, limit)
        if status != STATUS_BUDGET or limit == budget:
            break
        pauses += 1
    assert status == straight[0]
    assert positions_searched(search) == straight[1]
    assert np.array_equal(moves, straight[2])
    assert pauses >= straight[1] // 7919 - 1  # it really was cut into slices
