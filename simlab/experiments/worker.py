"""What a worker process runs: one chunk of deals of one (game, policy) cell.

Kept free of pandas, scipy and matplotlib so that workers start fast. A task
carries names and parameters, never live objects: the worker rebuilds the game
and policy itself (so a user's ``module:Class`` must be importable there, i.e.
on the worker's ``PYTHONPATH``).
"""

from __future__ import annotations

import json
import time
import traceback
from functools import lru_cache
from typing import Any, NamedTuple

from simlab.engine.game import Game
from simlab.play import play_deal
from simlab.policies.base import Policy
from simlab.policies.record import LOST, UNKNOWN, WON

ERROR = "error"
VERDICTS = (WON, LOST, UNKNOWN)


class ChunkTask(NamedTuple):
    """One unit of work: some deals of one cell. Plain data, cheap to pickle."""

    cell: str
    game: str
    game_params: str  # JSON, so the task is hashable and the cache key is exact
    policy: str
    policy_params: str
    root_seed: int
    deals: tuple[int, ...]


@lru_cache(maxsize=64)
def _components(game: str, game_params: str, policy: str, policy_params: str) -> tuple[Game, Policy]:
    """The game and policy of a cell, built once per worker process (building compiles rules)."""
    from simlab.games import make_game
    from simlab.policies import make_policy

    return make_game(game, **json.loads(game_params)), make_policy(policy, **json.loads(policy_params))


def play_chunk(task: ChunkTask) -> list[dict[str, Any]]:
    """Play every deal of ``task``; a deal whose policy raises becomes an error row.

    Returns:
        One row per deal: cell, deal, verdict, end_reason, moves, cards_home,
        nodes, cpu_seconds, error, traceback.
    """
    try:
        game, policy = _components(task.game, task.game_params, task.policy, task.policy_params)
    except Exception as error:  # noqa: BLE001  (e.g. a user module missing on this worker)
        return [_error_row(task.cell, deal, error, 0.0) for deal in task.deals]
    return [_play_one(task.cell, game, policy, deal, task.root_seed) for deal in task.deals]


def _play_one(cell: str, game: Game, policy: Policy, deal: int, root_seed: int) -> dict[str, Any]:
    # CPU time is reported, never used for results: it differs from run to run.
    start = time.process_time()
    try:
        record = play_deal(game, policy, deal, root_seed)
        if record.verdict not in VERDICTS:
            raise ValueError(f"the policy returned verdict {record.verdict!r}; expected one of {VERDICTS}")
    except Exception as error:  # noqa: BLE001  (one bad deal must not stop the batch)
        return _error_row(cell, deal, error, time.process_time() - start)
    return {
        "cell": cell, "deal": deal, "verdict": record.verdict, "end_reason": str(record.end_reason),
        "moves": int(record.move_count), "cards_home": int(record.cards_home),
        "nodes": int(record.nodes), "cpu_seconds": time.process_time() - start,
        "error": "", "traceback": "",
    }


def _error_row(cell: str, deal: int, error: BaseException, seconds: float) -> dict[str, Any]:
    return {
        "cell": cell, "deal": deal, "verdict": ERROR, "end_reason": ERROR, "moves": 0,
        "cards_home": 0, "nodes": 0, "cpu_seconds": seconds,
        "error": f"{type(error).__name__}: {error}",
        "traceback": "".join(traceback.format_exception(error)),
    }
