"""The supervised worker pool of the ``loky`` backend: a dying or endless worker costs only its deal.

joblib's process pool gives up on the whole run when one worker dies (a segfault
in compiled code, the out-of-memory killer, ``os._exit``), and it cannot stop a
task that never ends. Here the parent owns each worker process and its pipe: a
worker says which deal it starts and sends each row as it ends. So the parent

- turns the deal a dead worker was playing into an error row ``worker_died``
  naming the cause, puts the rest of its chunk back in the queue, and starts a
  new worker;
- kills a worker whose deal has run longer than ``deal_timeout`` seconds, records
  that deal as an error row ``timeout``, and goes on the same way;
- kills a worker whose resident memory passed ``worker_memory`` (read about ten
  times a second) and records its deal as an error row ``memory``, the same way; a
  worker that holds more than half its cap between two deals retires itself
  (``worker.RECYCLE_SHARE``) and its chunk's other deals go to a fresh one, so what a
  leaking deal left behind never fails a later deal;
- on Ctrl-C or SIGTERM (``KeyboardInterrupt`` here) stops every worker before
  the exception leaves, so none is left orphaned.

Workers are started the way loky starts them (a fresh interpreter: no threads
or locks inherited from the parent, the parent's ``sys.path``, and, unlike
``multiprocessing``'s spawn, the parent's ``__main__`` is not re-run, so a
script need not guard its code). A deal's result never depends on which worker
played it, so requeued deals give the same rows.
"""

from __future__ import annotations

import os
import signal
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Iterator

import psutil
from joblib.externals.loky.backend.context import get_context

from simlab.experiments.worker import MEMORY, TIMEOUT, WORKER_DIED, ChunkTask, failure_row, resident_bytes, serve

POLL_SECONDS = 0.25  # how often deal timeouts are checked while nothing arrives
MEMORY_POLL_SECONDS = 0.1  # how often workers' memory is read when a task has a cap
# ``worker_memory: auto``: this share of the machine's memory split among the ``n_jobs`` workers,
# but at least ``AUTO_FLOOR_MIB`` (the solver at its default table peaks near 900 MiB) and at most
# the share itself; a leak grows without bound, so a generous cap still stops it.
AUTO_SHARE = 0.9
AUTO_FLOOR_MIB = 2048
MIB = 2**20
# Extra seconds for the first deal of a cell in a worker: it also compiles the numba kernels
# of the game and policy (15 s and more on a cold cache), which is not the policy's own time.
FIRST_DEAL_GRACE = 120.0
STOP_SECONDS = 5.0  # how long a worker gets to exit before it is killed


@dataclass
class _Worker:
    """One worker process, its end of the pipe, and what it is doing."""

    process: Any
    connection: Connection
    task: ChunkTask | None = None
    deal: int | None = None  # the deal it is playing now
    started: float = 0.0  # time.monotonic() when that deal started
    grace: float = 0.0  # extra seconds that deal may take (``FIRST_DEAL_GRACE``)
    rows: list[dict[str, Any]] = field(default_factory=list)  # rows of the task so far
    handed: int = 0  # how many of ``rows`` were handed out already


class SupervisedPool:
    """``n_workers`` worker processes playing chunks, with per-deal supervision.

    Args:
        n_workers: worker processes to run at once. Each task's ``timeout`` is the
            seconds one of its deals may take (``None``: no limit).
    """

    def __init__(self, n_workers: int) -> None:
        self.n_workers = max(1, n_workers)
        self.context = get_context("loky")
        self.workers: list[_Worker] = []
        self.memory_read = 0.0  # time.monotonic() when workers' memory was last read

    def run(self, tasks: list[ChunkTask]) -> Iterator[list[dict[str, Any]]]:
        """Rows of each chunk (or part of a chunk) as soon as they are final, and an empty
        list after a poll with nothing final (so progress can speak while chunks run)."""
        queue = deque(tasks)
        try:
            while queue or any(w.task is not None for w in self.workers):
                self._fill(queue)
                finished = list(self._collect(queue))
                yield from finished if finished else [[]]
        finally:
            self.close()

    def _fill(self, queue: deque[ChunkTask]) -> None:
        """Give every idle worker a task, starting workers as needed."""
        while len(self.workers) < min(self.n_workers, len(self.workers) + len(queue)):
            self.workers.append(self._start())
        for index, worker in enumerate(self.workers):
            if worker.task is None and queue:
                task = queue.popleft()
                try:
                    if not worker.process.is_alive():  # it died while idle: it had no deal to lose
                        raise OSError("idle worker died")
                    worker.connection.send(task)
                except OSError:
                    _stop(worker, kill=True)
                    worker = self.workers[index] = self._start()
                    worker.connection.send(task)
                worker.task, worker.rows, worker.handed, worker.deal = task, [], 0, None

    def _start(self) -> _Worker:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=serve, args=(child, os.getpid()), daemon=True,
                                       name="simlab-worker")
        process.start()
        child.close()  # the parent keeps only its end, so a dead worker reads as EOF
        return _Worker(process, parent)

    def _collect(self, queue: deque[ChunkTask]) -> Iterator[list[dict[str, Any]]]:
        """Wait a little for messages or deaths, then hand out what is final."""
        busy = [w for w in self.workers if w.task is not None]
        capped = any(w.task.memory is not None for w in busy)
        ready = set(wait([w.connection for w in busy] + [w.process.sentinel for w in busy],
                         timeout=MEMORY_POLL_SECONDS if capped else POLL_SECONDS))
        for worker in busy:
            if worker.connection in ready or worker.process.sentinel in ready:
                done = self._read(worker)
                if done == "retire":
                    yield self._retire(worker, queue)
                elif done:
                    yield self._take(worker)
                    worker.task, worker.rows, worker.handed = None, [], 0
                elif not worker.process.is_alive():
                    yield self._replace(worker, queue, WORKER_DIED, _death_cause(worker.process))
                else:
                    finished = self._take(worker)  # each deal's row as it ends: an interrupt loses none
                    if finished:
                        yield finished
            elif self._overran(worker):
                yield self._replace(worker, queue, TIMEOUT,
                                    f"Timeout: the deal took longer than execution.deal_timeout "
                                    f"({worker.task.timeout:g} s); its worker was stopped")
        yield from self._check_memory(queue)

    def _check_memory(self, queue: deque[ChunkTask]) -> Iterator[list[dict[str, Any]]]:
        """Stop each worker whose resident memory passed its task's cap (``MEMORY_POLL_SECONDS``
        apart at most, so a busy pool does not spend its time reading memory)."""
        if time.monotonic() - self.memory_read < MEMORY_POLL_SECONDS:
            return
        self.memory_read = time.monotonic()
        for worker in [w for w in self.workers if w.task is not None and w.task.memory is not None]:
            held = resident_bytes(worker.process.pid)
            if held > worker.task.memory and not worker.connection.poll():  # its messages first: which deal?
                yield self._replace(worker, queue, MEMORY,
                                    f"Memory: the worker grew past execution.worker_memory "
                                    f"({worker.task.memory / MIB:,.0f} MiB; it held {held / MIB:,.0f} MiB) "
                                    "while playing this deal; it was stopped and replaced")

    def _read(self, worker: _Worker) -> bool | str:
        """Read every waiting message; True once the worker's chunk is done, ``"retire"``
        when the worker ends before its chunk does (``worker.RECYCLE_SHARE``)."""
        try:
            while worker.connection.poll():
                kind, value = worker.connection.recv()
                if kind == "start":
                    (worker.deal, first), worker.started = value, time.monotonic()
                    worker.grace = FIRST_DEAL_GRACE if first else 0.0
                elif kind == "row":
                    worker.rows.append(value)
                    worker.deal = None
                elif kind == "retire":
                    return "retire"
                else:  # done
                    return True
        except (EOFError, OSError):
            worker.process.join(STOP_SECONDS)  # it died: let its exit code arrive
        return False

    @staticmethod
    def _take(worker: _Worker) -> list[dict[str, Any]]:
        """The rows of ``worker`` not handed out yet (each is final once it arrives)."""
        rows = worker.rows[worker.handed:]
        worker.handed = len(worker.rows)
        return rows

    @staticmethod
    def _overran(worker: _Worker) -> bool:
        limit = worker.task.timeout if worker.task is not None else None
        return (limit is not None and worker.deal is not None
                and time.monotonic() - worker.started > limit + worker.grace)

    def _replace(self, worker: _Worker, queue: deque[ChunkTask], reason: str,
                 cause: str) -> list[dict[str, Any]]:
        """Stop ``worker``; its finished rows plus an error row for its deal (or, if it died
        before starting one, for its whole chunk); requeue the rest; start a new worker."""
        task = worker.task
        assert task is not None
        _stop(worker, kill=True)
        self.workers.remove(worker)
        done = {row["deal"] for row in worker.rows}
        if worker.deal is not None:
            failed = [worker.deal]
        elif worker.rows:  # it died between two deals: none failed, the rest are played again
            failed = []
        else:  # it died loading the game or policy: the whole chunk failed
            failed = [d for d in task.deals if d not in done]
            cause += " (while loading the game and policy)"
        rows = worker.rows[worker.handed:] + [failure_row(task.cell, deal, reason, cause) for deal in failed]
        rest = tuple(d for d in task.deals if d not in done and d not in failed)
        if rest:
            queue.appendleft(task._replace(deals=rest))
        return rows

    def _retire(self, worker: _Worker, queue: deque[ChunkTask]) -> list[dict[str, Any]]:
        """``worker`` retired between two deals: its rows so far; the rest of its chunk is
        requeued (a new worker starts when there is work for it)."""
        task = worker.task
        assert task is not None
        _stop(worker, kill=False)
        self.workers.remove(worker)
        done = {row["deal"] for row in worker.rows}
        rest = tuple(d for d in task.deals if d not in done)
        if rest:
            queue.appendleft(task._replace(deals=rest))
        return worker.rows[worker.handed:]

    def close(self) -> None:
        """Stop every worker (politely first, then by force) and wait for each."""
        for worker in self.workers:
            try:
                worker.connection.send(None)
            except OSError:
                pass
        for worker in self.workers:
            _stop(worker, kill=worker.task is not None)
        self.workers.clear()


def memory_cap(setting: float | str | None, n_jobs: int) -> int | None:
    """Bytes of resident memory one worker may hold for ``execution.worker_memory`` ``setting``
    (MiB, ``"auto"`` or None: no cap). ``auto`` splits ``AUTO_SHARE`` of the machine's memory
    among ``n_jobs`` workers (-1: one per core), at least ``AUTO_FLOOR_MIB`` and at most that share."""
    if setting is None:
        return None
    if setting != "auto":
        return int(float(setting) * MIB)
    workers = (os.cpu_count() or 1) if n_jobs == -1 else max(1, n_jobs)
    usable = AUTO_SHARE * psutil.virtual_memory().total
    return int(min(usable, max(usable / workers, AUTO_FLOOR_MIB * MIB)))


def _stop(worker: _Worker, kill: bool) -> None:
    """End ``worker``'s process: at once if ``kill`` (it may be mid-deal), else when it exits."""
    if kill:
        _kill(worker.process)
    worker.process.join(STOP_SECONDS)
    if worker.process.is_alive():
        _kill(worker.process)
        worker.process.join()
    worker.connection.close()


def _kill(process: Any) -> None:
    """SIGKILL ``process`` if it still runs (loky's process objects have no ``kill``)."""
    if process.is_alive():
        try:
            os.kill(process.pid, getattr(signal, "SIGKILL", signal.SIGTERM))  # Windows has no SIGKILL
        except ProcessLookupError:  # it ended meanwhile
            pass


def _death_cause(process: Any) -> str:
    """Why a worker process ended, in words a user can act on."""
    code = process.exitcode
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else f"signal {-code}"
        hint = {"SIGKILL": " (often the out-of-memory killer)", "SIGSEGV": " (a crash in native code)"}
        return f"WorkerDied: the worker process was killed by {name}{hint.get(name, '')} while playing this deal"
    return (f"WorkerDied: the worker process exited with status {code} while playing this deal "
            "(os._exit, or a fault in native code)")
