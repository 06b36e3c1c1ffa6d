"""The open set of best-first search (``simlab.solver.best_first``): a bucket
queue that must give out positions highest promise first and, among equal
promise, newest first, exactly as the binary heap it replaced did."""

from __future__ import annotations

import numpy as np
import pytest

from simlab import make_game
from simlab.engine import kernel
from simlab.solver.best_first import (
    PROMISE_NOISE,
    bucket_of,
    priority_range,
    promise_noise,
    queue_pop,
    queue_push,
)
from simlab.solver.evaluation import promise
from simlab.solver.portfolio import PROMISE_WEIGHTS


def test_pops_highest_bucket_first_and_newest_first_among_equals() -> None:
    generator = np.random.default_rng(7)
    priorities = generator.integers(-40, 40, size=500) / 2.0  # many ties
    low_bucket, bucket_count = -200, 400
    heads = np.full(bucket_count, -1, dtype=np.int32)
    next_in_bucket = np.empty(len(priorities), dtype=np.int32)
    top = -1
    for node, priority in enumerate(priorities):
        top = queue_push(heads, next_in_bucket, top, bucket_of(priority, low_bucket), node)
    popped = []
    while True:
        node, top = queue_pop(heads, next_in_bucket, top)
        if node < 0:
            break
        popped.append(node)
    expected = sorted(range(len(priorities)), key=lambda node: (-priorities[node], -node))
    assert popped == expected


def test_interleaved_pushes_and_pops_match_a_sorted_reference() -> None:
    generator = np.random.default_rng(11)
    low_bucket, bucket_count = -100, 200
    heads = np.full(bucket_count, -1, dtype=np.int32)
    next_in_bucket = np.empty(2000, dtype=np.int32)
    top, waiting, node = -1, [], 0
    for _ in range(600):
        for _ in range(generator.integers(0, 4)):
            priority = float(generator.integers(-20, 20))
            top = queue_push(heads, next_in_bucket, top, bucket_of(priority, low_bucket), node)
            waiting.append((priority, node))
            node += 1
        popped, top = queue_pop(heads, next_in_bucket, top)
        if not waiting:
            assert popped == -1
            continue
        best = max(waiting)  # highest priority, then the newest (highest number)
        waiting.remove(best)
        assert popped == best[1]


@pytest.mark.parametrize("game_name", ["beleaguered_castle", "streets_and_alleys", "citadel", "fortress", "chessboard"])
def test_every_promise_falls_inside_the_bucket_range(game_name: str) -> None:
    """Priorities of positions along random playouts, with the largest jitter,
    land in a bucket that exists (an index outside would corrupt the queue)."""
    game = make_game(game_name)
    low_bucket, bucket_count = priority_range(game.rules, PROMISE_WEIGHTS)
    generator = np.random.default_rng(3)
    moves = np.empty(1024, dtype=np.int32)
    for deal in range(1, 30):
        state = game.initial_state(deal).array.copy()
        for _ in range(60):
            for extra in (0.0, PROMISE_NOISE * (1 - 1e-12)):
                bucket = bucket_of(promise(game.rules, state, PROMISE_WEIGHTS) + extra, low_bucket)
                assert 0 <= bucket < bucket_count
            count = kernel.legal_moves(game.rules, state, moves)
            if count == 0:
                break
            kernel.apply_move(game.rules, state, moves[generator.integers(count)])


def test_jitter_stays_below_its_bound_and_is_zero_without_a_seed() -> None:
    keys = np.random.default_rng(5).integers(1, 2**63, size=2000, dtype=np.int64).astype(np.uint64)
    jitters = [promise_noise(9, key) for key in keys]
    assert 0.0 <= min(jitters) and max(jitters) < PROMISE_NOISE
    assert max(jitters) - min(jitters) > PROMISE_NOISE / 2  # it does spread
    assert all(promise_noise(0, key) == 0.0 for key in keys[:50])
