"""What a worker process runs: one chunk of deals of one (game, policy) cell.

Kept free of pandas, scipy and matplotlib so that workers start fast. A task
carries names and parameters, never live objects: the worker rebuilds the game
and policy itself (so a user's ``module:Class`` must be importable there, i.e.
on the worker's ``PYTHONPATH``).
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import traceback
from functools import lru_cache
from typing import Any, NamedTuple

import psutil

from simlab.engine.game import Game
from simlab.games import make_game
from simlab.play import play_deal
from simlab.policies import make_policy
from simlab.policies.base import Policy
from simlab.policies.record import LOST, UNKNOWN, WON, PlayRecord

ERROR = "error"
VERDICTS = (WON, LOST, UNKNOWN)
# ``end_reason`` of error rows the supervisor writes (``pool.py``) besides a policy's own exception.
TIMEOUT, WORKER_DIED, MEMORY = "timeout", "worker_died", "memory"
# Between two deals a worker holding more than this share of its memory cap retires (the pool
# starts a fresh one), so what earlier deals left behind never counts against a later deal.
RECYCLE_SHARE = 0.5


class ChunkTask(NamedTuple):
    """One unit of work: some deals of one cell. Plain data, cheap to pickle."""

    cell: str
    game: str
    game_params: str  # JSON, so the task is hashable and the cache key is exact
    policy: str
    policy_params: str
    root_seed: int
    deals: tuple[int, ...]
    timeout: float | None = None  # seconds a deal may take (``execution.deal_timeout``); None: no limit
    attempt: int = 0  # which try of the deal (``play.deal_rng``): 0, the ordinary play
    memory: int | None = None  # bytes of resident memory a worker may hold (``pool.memory_cap``); None: no cap


@lru_cache(maxsize=64)
def _components(game: str, game_params: str, policy: str, policy_params: str) -> tuple[Game, Policy]:
    """The game and policy of a cell, built once per worker process (building compiles rules)."""
    return make_game(game, **json.loads(game_params)), make_policy(policy, **json.loads(policy_params))


def play_chunk(task: ChunkTask) -> list[dict[str, Any]]:
    """Play every deal of ``task``; a deal whose policy raises becomes an error row.

    Returns:
        One row per deal: cell, deal, verdict, end_reason, moves, cards_home,
        nodes, cpu_seconds, error, traceback.
    """
    try:
        game, policy = components_of(task)
    except Exception as error:  # noqa: BLE001  (e.g. a user module missing on this worker)
        return [error_row(task.cell, deal, error, 0.0) for deal in task.deals]
    return [play_one(task.cell, game, policy, deal, task.root_seed, task.attempt) for deal in task.deals]


def components_of(task: ChunkTask) -> tuple[Game, Policy]:
    """The task's game and policy; a ``sys.exit`` while importing a user module is an error too."""
    try:
        return _components(task.game, task.game_params, task.policy, task.policy_params)
    except SystemExit as exit_:
        raise RuntimeError(f"importing the policy called sys.exit({exit_.code!r})") from None


def play_one(cell: str, game: Game, policy: Policy, deal: int, root_seed: int,
             attempt: int = 0) -> dict[str, Any]:
    """One deal's row (try ``attempt``); whatever the policy raises (even ``sys.exit``) becomes
    an error row."""
    # CPU time is reported, never used for results: it differs from run to run.
    start = time.process_time()
    try:
        record = play_deal(game, policy, deal, root_seed, attempt)
        if record.verdict not in VERDICTS:
            raise ValueError(f"the policy returned verdict {record.verdict!r}; expected one of {VERDICTS}")
    except (Exception, SystemExit) as error:  # noqa: BLE001  (one bad deal must not stop the batch)
        return error_row(cell, deal, error, time.process_time() - start)
    return {
        "cell": cell, "deal": deal, "verdict": record.verdict, "end_reason": str(record.end_reason),
        "moves": int(record.move_count), "cards_home": int(record.cards_home),
        "nodes": int(record.nodes), "cpu_seconds": time.process_time() - start,
        "error": "", "traceback": "", **critical_fields(record), "bound_value": record.value,
    }


def critical_fields(record: PlayRecord) -> dict[str, int | None]:
    """The record's critical decisions as the store's optional columns (None: not computed)."""
    return {"critical_decisions": record.critical, "decision_positions": record.critical_positions,
            "critical_undecided": record.critical_undecided}


def error_row(cell: str, deal: int, error: BaseException, seconds: float) -> dict[str, Any]:
    """The row of a deal whose policy raised ``error``."""
    trace = "".join(traceback.format_exception(error))
    if isinstance(error, SystemExit):  # its str() is just the code
        message = f"SystemExit: the policy called sys.exit({error.code!r})"
        trace += message + "\n"
    else:
        message = f"{type(error).__name__}: {once(str(error))}"
    return failure_row(cell, deal, ERROR, message, trace, seconds)


def once(message: str) -> str:
    """``message`` with each paragraph kept once. Numba caches a failed compilation's exception
    and appends its "This error may have been caused by ..." paragraph to that same object
    each time it raises it again, so the nth deal's message held n copies."""
    paragraphs = message.split("\n\n")
    return "\n\n".join(dict.fromkeys(p.strip("\n").rstrip() for p in paragraphs))


def failure_row(cell: str, deal: int, reason: str, message: str, trace: str = "",
                seconds: float = 0.0) -> dict[str, Any]:
    """An error row: verdict ``error``, ``end_reason`` saying why (``error``, ``timeout``,
    ``worker_died``), and the message."""
    return {
        "cell": cell, "deal": deal, "verdict": ERROR, "end_reason": reason, "moves": 0,
        "cards_home": 0, "nodes": 0, "cpu_seconds": seconds, "error": message,
        "traceback": trace or message + "\n",
    }


# ----- the worker process of the supervised pool (``pool.py``) ----------------------------
PARENT_CHECK_SECONDS = 1.0


def serve(connection: Any, parent_pid: int) -> None:
    """A worker process's loop: receive a task, report each deal as it starts and ends.

    The parent reads ``("start", deal)`` before a deal and ``("row", row)`` after it,
    so when this process dies, overruns ``deal_timeout`` or outgrows its memory cap the
    parent knows which deal it was on. ``("retire", None)`` instead of a deal's start
    says this process holds more than ``RECYCLE_SHARE`` of its cap and ends here (the
    parent plays the chunk's other deals elsewhere). ``None`` (or a closed pipe) ends the loop.
    """
    # Ctrl-C reaches the whole process group; the parent decides when workers stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, args=(parent_pid,), daemon=True).start()
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return
        if task is None or not _serve_task(connection, task):
            return


def _serve_task(connection: Any, task: ChunkTask) -> bool:
    """Play ``task``'s deals, reporting each; False if this process retired before the end."""
    try:
        game, policy = components_of(task)
    except Exception as error:  # noqa: BLE001  (reported per deal, like a raising policy)
        for deal in task.deals:
            connection.send(("row", error_row(task.cell, deal, error, 0.0)))
        connection.send(("done", None))
        return True
    first = task.cell not in _started_cells
    if first and ":" in task.policy:
        _warm_up(game, task.deals[0])
    for deal in task.deals:
        if _should_retire(task.memory):
            connection.send(("retire", None))
            return False
        # A built-in policy's first deal in this process also compiles (or loads) its kernels:
        # the parent gives it extra time. A user policy's game kernels are warmed up above.
        connection.send(("start", (deal, first and ":" not in task.policy)))
        first = False
        _started_cells.add(task.cell)
        connection.send(("row", play_one(task.cell, game, policy, deal, task.root_seed, task.attempt)))
    connection.send(("done", None))
    return True


_started_cells: set[str] = set()  # cells this worker process has played a deal of


def _should_retire(cap: int | None) -> bool:
    """True when this process has played a deal and holds more than ``RECYCLE_SHARE`` of ``cap``
    (a fresh process never retires: it would only be replaced by another as big)."""
    return cap is not None and bool(_started_cells) and resident_bytes(os.getpid()) > RECYCLE_SHARE * cap


def resident_bytes(pid: int) -> int:
    """The resident memory (RSS) of process ``pid`` in bytes; 0 if it has ended."""
    try:
        return int(psutil.Process(pid).memory_info().rss)
    except psutil.Error:
        return 0


def _warm_up(game: Game, deal: int) -> None:
    """Compile (or load) the game's kernels that a user policy calls, before its clock starts."""
    try:
        state = game.initial_state(deal)
        moves = game.legal_moves(game.observe(state))
        after = game.apply(state, moves[0]) if moves else state
        game.position_hash(after), game.is_won(after), game.cards_home(after)
    except Exception:  # noqa: BLE001, S110  (the deal itself will report any real problem)
        pass


def _exit_with_parent(parent_pid: int) -> None:
    """Leave no orphan: a worker whose parent died (even by ``kill -9``) exits too."""
    while True:
        time.sleep(PARENT_CHECK_SECONDS)
        if os.getppid() != parent_pid:
            os._exit(1)
