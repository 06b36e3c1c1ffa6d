"""The runner: plays every (game, policy, deal) of an experiment in parallel, resumably.

The unit of work is a chunk of deals of one cell (``worker.play_chunk``).
Chunks go to joblib (loky processes by default, or a dask cluster) and come
back as they finish; the parent writes each one to the results database at
once. A rerun plays only the deals the database lacks. Nothing that decides a
result depends on the backend, ``n_jobs`` or the chunking: each deal's layout
and each policy's randomness derive from (deal number, root seed, component).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import textwrap
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, NamedTuple

import pandas as pd
from joblib import Parallel, delayed, parallel_config

from simlab import numba_cache
from simlab.errors import ConfigError
from simlab.experiments import costs
from simlab.experiments.cells import Cell, cell_records, cells_of, try_cells
from simlab.experiments.config import Execution, ExperimentConfig
from simlab.experiments.folders import check_inside_root, check_simlab_folder, mark
from simlab.experiments.frames import deals_frame, tries_frame
from simlab.experiments.history import cell_lines, config_changes
from simlab.experiments.lock import folder_lock
from simlab.experiments.pool import SupervisedPool, memory_cap
from simlab.experiments.progress import Progress
from simlab.experiments.report import RESOLVED_CONFIG, build_manifest, write_reports
from simlab.experiments.space import disk_full_is_bad_input, out_of_space
from simlab.experiments.store import ResultStore, now
from simlab.experiments.worker import ERROR, WORKER_DIED, ChunkTask, failure_row, play_chunk
from simlab.policies.catalog import policy_class

SCHEDULER_TIMEOUT = "10s"
NOT_COMPILED = ("simlab: this version's kernels are not compiled yet, so each worker first compiles those it "
                "needs (a minute or two of CPU; the ETA waits for the first deals). `make setup` or "
                "`python -m simlab.precompile` compiles the common ones once for every later command and run.")


class RunOutcome(NamedTuple):
    """What ``run_experiment`` did.

    Attributes:
        folder: the output folder.
        frame: the per-deal table (``frames.DEAL_COLUMNS``).
        played: deals played by this run (the rest were already stored).
        failed: deals of the experiment whose policy raised.
    """

    folder: Path
    frame: pd.DataFrame
    played: int
    failed: int


def run_experiment(config: ExperimentConfig, progress: bool | None = None, results_root: Path | None = None,
                   allow_outside_results: bool = False) -> RunOutcome:
    """Play what the output folder lacks, then write every table, plot and report.

    Args:
        config: a validated config (execution settings already overridden).
        progress: show progress bars; ``None`` shows them only on a terminal.
        results_root: the folder output folders must lie in (default
            ``folders.results_root()``: ``results/`` or ``SIMLAB_RESULTS_ROOT``).
        allow_outside_results: let the output folder lie outside it.

    Raises:
        ConfigError: for an unwritable output folder, one outside the results root, a
            folder of the user's own (``folders``), an unreachable scheduler, a
            folder another run is writing to, or a damaged or foreign database, before
            anything in the folder is changed; for a full disk (every deal stored
            before is kept: ``space.disk_full_is_bad_input``).
    """
    check_inside_root(config.output, config.source, results_root, allow_outside_results)
    check_output(config.output, config.source)
    check_simlab_folder(config.output, config.source)
    with backend_context(config.execution, config.source):
        folder = Path(config.output)
        with disk_full_is_bad_input(folder):  # the folder and the lock file need space too
            make_output(folder, config.source)
            with folder_lock(folder):
                return _run_locked(config, folder, progress)


def _run_locked(config: ExperimentConfig, folder: Path, progress: bool | None) -> RunOutcome:
    """``run_experiment`` once the folder is ours: open the store first (a damaged
    one stops the run before any file is rewritten), then play and report."""
    started = now()
    with ResultStore(folder) as store:
        mark(folder)  # once its database is known to be simlab's: a foreign folder stays untouched
        cells = cells_of(config)
        configs = record_config(config, cells, store, started)
        (folder / RESOLVED_CONFIG).write_text(config.to_yaml(), encoding="utf-8")
        extra = try_cells(config, cells)
        played = play_missing(config, cells + extra, store, started, progress)
        frame = deals_frame(config, store, tracebacks=True, cells=cells)
        tries = tries_frame(config, store, extra)
        sessions = list(store.sessions())
    manifest = build_manifest(config, started, now(), played, sessions, configs)
    errors = frame[frame["verdict"] == ERROR]
    tables = write_reports(folder, config, frame.drop(columns="traceback"), manifest, errors, tries,
                           cells=cell_records(config, cells))
    return RunOutcome(folder, tables["deals"], played, len(errors))


def record_config(config: ExperimentConfig, cells: list[Cell], store: ResultStore,
                  started: str) -> list[dict]:
    """Record ``config`` if the folder has not seen it (or its cells); on a rerun with a
    changed config, say what changed and which cells are kept or played afresh.

    Returns:
        Every config the folder has seen, oldest first.
    """
    records = cell_records(config, cells)
    configs = store.configs()
    last = configs[-1] if configs else None
    if last is not None and last["config"] == config.to_dict() and last["cells"] == records:
        return configs
    # a ladder's extra tries (``cells.try_cells``) follow their cell: leave them out of the story
    known = {key: identity for key, identity in store.cell_identities().items() if "try" not in identity}
    counts = store.deal_counts()
    if known:  # a rerun: what changed, and what it means for the stored deals
        changes = config_changes(last["config"], config.to_dict()) if last else []
        lines = [f"{config.output}/ holds results of another config. Changes:" if changes
                 else f"{config.output}/ holds results of earlier runs:"]
        lines += [f"  {change}" for change in changes]
        lines += [f"  {line}" for line in cell_lines(records, known, counts)]
        say("\n".join(lines))
    store.add_config(started, config.to_dict(), records)
    return store.configs()


def say(text: str) -> None:
    """A notice for the user, beside the progress output (stderr)."""
    print(text, file=sys.stderr, flush=True)


def play_missing(config: ExperimentConfig, cells: list[Cell], store: ResultStore, started: str,
                 progress: bool | None) -> int:
    """Play and store every deal the database lacks; return how many were played."""
    for cell in cells:
        store.add_cell(cell.key, cell.identity(config.root_seed))
    tasks = plan(config, cells, store)
    say_costs(config, cells, store, tasks, quiet=progress is False)
    if tasks and not numba_cache.compiled() and progress is not False:
        say(textwrap.fill(NOT_COMPILED, 100))
    session = store.start_session(started, sum(len(t.deals) for t in tasks))
    bars = Progress(config, cells, store, tasks, enabled=progress, workers=workers_of(config.execution, len(tasks)))
    played, status = 0, "crashed"
    stream = _dispatch(tasks, config.execution)
    try:
        for rows in stream:
            if rows:  # the supervised pool also sends [] while chunks run (progress ticks)
                with signals_deferred():  # a chunk is stored whole, or not at all
                    store.add_rows(rows)
            bars.update(rows)
            played += len(rows)
        status = "finished"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        getattr(stream, "close", lambda: None)()  # stop the workers now, not at garbage collection
        bars.close()
        store.finish_session(session, now(), status, played)
    return played


def say_costs(config: ExperimentConfig, cells: list[Cell], store: ResultStore, tasks: list[ChunkTask],
              quiet: bool = False) -> bool:
    """Before anything runs: the CPU each cell will take, from measured per-deal costs
    (``costs``), with a warning when the run will take more than a few minutes; ``quiet``
    (no progress output: ``--no-progress``, ``simlab.run(progress=False)``) says only the
    warning, with the estimate it rests on. Returns whether it warned."""
    missing: dict[str, int] = {}
    for task in tasks:
        missing[task.cell] = missing.get(task.cell, 0) + len(task.deals)
    try:
        table = costs.load_table()
    except (OSError, ValueError) as error:  # an estimate never stops a run: every cost unknown instead
        say(f"simlab: the table of measured costs cannot be read ({error}); every cost is unknown.")
        table = pd.DataFrame(columns=costs.COST_COLUMNS)
    estimates = costs.estimate(cells, missing, table, costs.history(store, cells))
    lines, warned = costs.describe(estimates, workers_of(config.execution, len(tasks)))
    if lines and (warned or not quiet):
        say("\n".join(lines))
    return warned


def workers_of(execution: Execution, tasks: int) -> int:
    """How many deals play at once: the worker processes (or threads) the run will start."""
    if execution.backend == "sequential" or not tasks:
        return 1
    workers = (os.cpu_count() or 1) if execution.n_jobs == -1 else execution.n_jobs
    return max(1, min(workers, tasks))


def plan(config: ExperimentConfig, cells: list[Cell], store: ResultStore) -> list[ChunkTask]:
    """Chunks of the missing deals, interleaved across cells so every running
    estimate moves from the start, in the order ``compile_once`` gives (the
    order never changes a result)."""
    per_cell: list[list[ChunkTask]] = []
    size = config.execution.chunk_size
    for cell in cells:
        done = store.finished_deals(cell.key)
        missing = [deal for deal in config.deals if deal not in done]
        per_cell.append([_task(config, cell, tuple(missing[i:i + size]))
                         for i in range(0, len(missing), size)])
    longest = max((len(chunks) for chunks in per_cell), default=0)
    return compile_once([chunks[i] for i in range(longest) for chunks in per_cell if i < len(chunks)])


def compile_once(tasks: list[ChunkTask]) -> list[ChunkTask]:
    """``tasks`` with the first chunk of a budgeted policy (a search: the solver, lookahead)
    first, then every chunk of the policies without a budget, then the other budgeted chunks.

    Why: in a fresh checkout a worker compiles a policy's kernels on its first deal
    (the solver's take about a minute of CPU), and two workers that start on the same
    search compile it twice side by side. This way one worker compiles the search
    while the others compile and play the cheap playouts, which in the default
    experiment is about as long, and the search is in the on-disk cache by the time
    they reach it. Every cell still starts within the first minute or so.
    """
    budgeted = [policy_class(task.policy).budgeted for task in tasks]
    if not any(budgeted) or all(budgeted):
        return tasks
    first = budgeted.index(True)
    cheap = [task for task, dear in zip(tasks, budgeted) if not dear]
    dear = [task for index, (task, is_dear) in enumerate(zip(tasks, budgeted)) if is_dear and index != first]
    return [tasks[first], *cheap, *dear]


def _task(config: ExperimentConfig, cell: Cell, deals: tuple[int, ...]) -> ChunkTask:
    # a policy whose own node budget bounds every deal (``Policy.budgeted``) is not timed out
    timeout = None if policy_class(cell.policy.name).budgeted else config.execution.deal_timeout
    memory = memory_cap(config.execution.worker_memory, config.execution.n_jobs)
    return ChunkTask(cell.key, cell.game.name, json.dumps(cell.game.params, sort_keys=True),
                     cell.policy.name, json.dumps(cell.policy.params, sort_keys=True),
                     config.root_seed, deals, timeout, cell.attempt, memory)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while the block runs (they arrive right after it)."""
    deferred = {signal.SIGINT, signal.SIGTERM}
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no deferring
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, deferred)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _dispatch(tasks: list[ChunkTask], execution: Execution) -> Iterator[list[dict]]:
    """Each chunk's rows, as soon as it finishes (in no particular order)."""
    if not tasks:
        return iter(())
    if execution.backend == "loky":
        # simlab's own pool: a dead or endless worker costs its deal, not the run (pool.py).
        return SupervisedPool(workers_of(execution, len(tasks))).run(tasks)
    if execution.backend == "dask":
        return _dask_chunks(tasks)
    # threading or sequential: in this process, so neither deaths nor timeouts can be supervised.
    parallel = Parallel(n_jobs=execution.n_jobs, backend=execution.backend,
                        return_as="generator_unordered", batch_size=1)
    return parallel(delayed(play_chunk)(task) for task in tasks)


def _dask_chunks(tasks: list[ChunkTask]) -> Iterator[list[dict]]:
    """Each chunk's rows from the dask cluster of ``backend_context``, as chunks finish.

    A chunk whose worker died (dask gives up on it with ``KilledWorker`` after its
    retries) becomes error rows ``worker_died``; the other chunks go on.
    """
    from distributed import as_completed, default_client  # here: dask is optional (the 'dask' extra)

    client = default_client()
    futures = {client.submit(play_chunk, task, pure=False): task for task in tasks}
    try:
        for future in as_completed(list(futures)):
            task = futures.pop(future)
            if future.status == "finished":
                yield future.result()
                continue
            error = future.exception()
            cause = f"WorkerDied: the dask worker playing this chunk failed ({type(error).__name__}: {error})"
            yield [failure_row(task.cell, deal, WORKER_DIED, cause) for deal in task.deals]
    finally:
        client.cancel(list(futures))


def make_output(folder: Path, source: str) -> None:
    """Create ``folder``; one that cannot be created (``/proc/x``) is bad input, not a bug."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):  # a folder that takes no file (/proc) is refused too
            pass
    except OSError as error:
        if out_of_space(error):
            raise  # a full disk is said as such by disk_full_is_bad_input around this call
        raise ConfigError(f"{source}: output must be a folder that can be created and written. Got "
                          f"'{folder}': {error.strerror or error}.") from None


def check_output(output: Path, source: str) -> None:
    """Fail before writing anything if ``output`` cannot be a writable folder."""
    path = Path(output)
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{source}: output must be a folder. Got '{output}', which is a file.")
    ancestor = path.absolute()
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ConfigError(f"{source}: output must be a folder that can be created. Got '{output}', "
                          f"but '{ancestor}' is a file.")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise ConfigError(f"{source}: output must be a writable folder. Got '{output}', but "
                          f"'{ancestor}' is not writable.")


@contextmanager
def backend_context(execution: Execution, source: str) -> Iterator[None]:
    """Make the dask backend active for the run (a no-op for the local backends).

    Raises:
        ConfigError: dask is not installed, or the scheduler cannot be reached.
    """
    if execution.backend != "dask":
        yield
        return
    try:
        from dask.distributed import Client, LocalCluster  # here: dask is optional (the 'dask' extra)
    except ImportError:
        raise ConfigError(f"{source}: execution.backend 'dask' needs the dask extra: "
                          "pip install 'simlab[dask]'.") from None
    cluster = None
    if execution.scheduler is None:
        workers = (os.cpu_count() or 1) if execution.n_jobs == -1 else execution.n_jobs
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
    client = _connect(Client, cluster or execution.scheduler, source)
    try:
        with parallel_config(backend="dask"):
            yield
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _connect(client_class: type, address: object, source: str) -> object:
    """A dask client for ``address``, with a config error if it is out of reach."""
    try:
        client = _client_within(client_class, address, SCHEDULER_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:
        raise ConfigError(f"{source}: execution.scheduler must be the address of a running dask "
                          f"scheduler. Got {address!r}: no dask scheduler answered within "
                          f"{SCHEDULER_TIMEOUT} ({type(error).__name__}: {error}).") from None
    try:
        # Every host must run the same package versions, or results could differ.
        client.get_versions(check=True)
    except ValueError as error:
        client.close()
        raise ConfigError(f"{source}: execution.scheduler: the cluster's package versions differ "
                          f"from this machine's: {error}") from None
    return client


def _client_within(client_class: type, address: object, timeout: str) -> object:
    """``client_class(address)``, or ``TimeoutError`` after ``timeout``.

    dask's own timeout does not cover a server that accepts the connection and
    then says nothing (not a dask scheduler): its handshake waits for ever. So
    the client is made in a daemon thread that is abandoned when time is up.
    """
    from dask.utils import parse_timedelta  # here: dask is optional (the 'dask' extra)

    outcome: dict[str, object] = {}

    def connect() -> None:
        try:
            outcome["client"] = client_class(address, timeout=timeout)
        except BaseException as error:  # noqa: BLE001  (re-raised in the caller's thread)
            outcome["error"] = error

    thread = threading.Thread(target=connect, daemon=True, name="simlab-dask-connect")
    thread.start()
    thread.join(parse_timedelta(timeout) + 1.0)
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    if "client" not in outcome:
        raise TimeoutError("the address accepted a connection but did not answer as a scheduler")
    return outcome["client"]
