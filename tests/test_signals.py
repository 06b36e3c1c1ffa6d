"""SIGTERM stops a run like Ctrl-C: finished deals kept, a message, no worker left
running, status 143 (130 for Ctrl-C); a rerun plays only the rest."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import psutil
import pytest
from run_helpers import config, run_here, start, stored_rows, write_config

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")
DEALS = 200


def slow_config(folder: Path) -> tuple[Path, Path]:
    """About 5 s of work on 2 workers (a first-move policy that sleeps 50 ms a deal): time enough
    for the signal to arrive mid-run on a busy machine."""
    output = folder / "out"
    data = config(output, deals={"start": 1, "count": DEALS},
                  policies=[{"name": "experiment_helpers:FirstMove", "params": {"delay": 0.05}}],
                  execution={"n_jobs": 2, "chunk_size": 2})
    return write_config(folder / "slow.yaml", data), output


def interrupt_partway(folder: Path, deliver: str) -> tuple[int, str, list[int], Path, Path]:
    """Start ``simlab run``, send SIGTERM to it (or SIGINT to its group, as a terminal's
    Ctrl-C does) once some deals are stored; return status, stderr, its workers, paths."""
    path, output = slow_config(folder)
    process = start("run", str(path), "--no-progress")
    deadline = time.monotonic() + 120
    while len(stored_rows(output)) < 4 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    workers = [p.pid for p in psutil.Process(process.pid).children(recursive=True)]
    if deliver == "SIGTERM":
        os.kill(process.pid, signal.SIGTERM)  # the parent only, as `kill PID` or a scheduler does
    else:
        os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    return process.returncode, err, workers, path, output


def no_process_left(pids: list[int]) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        alive = [pid for pid in pids if psutil.pid_exists(pid)
                 and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
        if not alive:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize(("deliver", "status", "word"), [("SIGTERM", 143, "Terminated (SIGTERM)"),
                                                          ("SIGINT", 130, "Interrupted")])
def test_a_signal_keeps_finished_deals_stops_workers_and_resumes(
        tmp_path: Path, deliver: str, status: int, word: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, err, workers, path, output = interrupt_partway(tmp_path, deliver)
    assert code == status, err
    assert f"{word}. Every finished deal is saved in {output}/" in err
    assert "Traceback" not in err
    assert workers and no_process_left(workers)
    kept = len(stored_rows(output))
    assert 4 <= kept < DEALS
    if deliver == "SIGINT":  # resuming after Ctrl-C is test_experiments_resume's and SIGTERM's case
        return
    code, out, err = run_here(path, capsys)
    assert code == 0, err
    assert f"Played {DEALS - kept} deal(s)" in out


def test_workers_of_a_run_killed_with_sigkill_exit_too(tmp_path: Path) -> None:
    path, output = slow_config(tmp_path)
    process = start("run", str(path), "--no-progress")
    deadline = time.monotonic() + 120
    while len(stored_rows(output)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = [p.pid for p in psutil.Process(process.pid).children(recursive=True)]
    os.kill(process.pid, signal.SIGKILL)  # the parent only: nobody stops its workers for it
    process.wait(timeout=30)
    assert workers and no_process_left(workers)


def test_an_internal_error_has_its_own_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from simlab import cli
    from simlab.cli.experiments import EXIT_INTERNAL
    from simlab.experiments import runner

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(runner, "run_experiment", broken)
    path, _ = slow_config(tmp_path)
    assert cli.main(["run", str(path)]) == EXIT_INTERNAL == 70
    err = capsys.readouterr().err
    assert "internal error (a bug in simlab, please report it)" in err and "RuntimeError: a bug" in err


def test_a_signal_while_a_kernel_compiles_stops_the_compilation() -> None:
    """Issue 44: inside ``signals_deferred`` (a solver's search) a signal waited for the
    whole compilation of the kernels a fresh checkout compiles first (80 s and more, with
    ``simlab solve`` in a fresh cache). Now it stops the compilation itself: Ctrl-C sent as
    numba starts to compile a new kernel ends that compilation with KeyboardInterrupt, and
    the kernel never runs. (numba's Python passes take it at once; a stretch of LLVM's C++
    code, which holds the GIL, is waited for: measured, under a second.)"""
    from numba import njit
    from numba.core import event

    from simlab.compiling import COMPILE_EVENT
    from simlab.interrupts import signals_deferred

    def total(n: int) -> int:  # a kernel of its own: compiled here, never cached
        result = 0
        for i in range(n):
            result += i * i
        return result

    kernel, ran, sent = njit(total), [], []

    class CtrlC(event.Listener):
        """Ctrl-C as the first compilation starts."""

        def on_start(self, ev: event.Event) -> None:
            if not sent:
                sent.append(True)
                os.kill(os.getpid(), signal.SIGINT)

        def on_end(self, ev: event.Event) -> None:
            pass

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # an xdist worker ignores it
    try:
        with event.install_listener(COMPILE_EVENT, CtrlC()), pytest.raises(KeyboardInterrupt):
            with signals_deferred():
                ran.append(kernel(10))
    finally:
        signal.signal(signal.SIGINT, previous)
    assert sent and ran == [] and kernel.signatures == [], (ran, kernel.signatures)  # never compiled, never run
    assert kernel(10) == 285  # the kernel compiles and runs afterwards


def test_a_compile_clock_that_missed_a_start_counts_the_next_compilation() -> None:
    """Ctrl-C delivered as a compilation starts (``CompileTracker``, registered first) stops
    numba's broadcast of that start: a clock installed later hears only its end. It must
    stay balanced, or every later compilation of the process goes uncounted."""
    from numba.core import event

    from simlab.compiling import COMPILE_EVENT, CompileClock

    clock = CompileClock()
    start, end = (event.Event(COMPILE_EVENT, status) for status in (event.EventStatus.START, event.EventStatus.END))
    clock.on_end(end)  # the interrupted compilation's end, its start unheard
    clock.on_start(start)
    clock.on_end(end)
    assert clock.compilations == 1
