"""The order chunks are dispatched in: one search compiles while the cheap playouts run."""

from __future__ import annotations

from simlab.experiments.runner import compile_once
from simlab.experiments.worker import ChunkTask


def _task(policy: str, deal: int) -> ChunkTask:
    return ChunkTask(f"cell-{policy}", "beleaguered_castle", "{}", policy, "{}", 0, (deal,), None, 0, None)


def test_one_search_chunk_first_then_the_cheap_playouts_then_the_other_searches() -> None:
    rounds = [_task(policy, deal) for deal in (1, 2) for policy in ("random", "solver", "greedy", "lookahead")]
    ordered = compile_once(rounds)
    assert sorted(ordered) == sorted(rounds)  # every chunk once
    assert [(t.policy, t.deals[0]) for t in ordered] == [
        ("solver", 1),
        ("random", 1), ("greedy", 1), ("random", 2), ("greedy", 2),
        ("lookahead", 1), ("solver", 2), ("lookahead", 2),
    ]


def test_all_cheap_or_all_searches_keep_the_interleaved_order() -> None:
    cheap = [_task(policy, deal) for deal in (1, 2) for policy in ("random", "heuristic")]
    searches = [_task(policy, deal) for deal in (1, 2) for policy in ("solver", "lookahead")]
    assert compile_once(cheap) == cheap
    assert compile_once(searches) == searches
    assert compile_once([]) == []
