"""Stopping cleanly on Ctrl-C (SIGINT) and SIGTERM, also while compiled code runs.

Why this exists: Python runs a signal's handler between two bytecodes of the main
thread. A compiled (numba) search runs no bytecode, so a signal waits until it
returns, which took minutes; and numba's dispatcher runs Python code (typing the
arguments) around every compiled call, so a handler that raised there
(``KeyboardInterrupt``, or ``Terminated`` for SIGTERM) turned into ``SystemError:
CPUDispatcher(...) returned a result with an exception set``, into a swallowed
signal, or into a segfault. So:

- the solver runs its compiled searches in bounded slices inside ``signals_deferred()``,
  where a signal's handler only records it (it can run anywhere, raising nowhere);
- between slices, in plain Python, the solver calls ``stop_point()``, which hands a
  recorded signal to the handler that was there before (Python's ``KeyboardInterrupt``,
  ``Terminated`` under ``sigterm_as_interrupt``, or the default action), and so does
  the end of the outermost block.

Outside such a block nothing changes: a signal is handled as it always was.

A block's first call of a kernel compiles it (a minute of CPU in a fresh checkout), and a
signal waited for the whole compilation (80 s and more). numba's compiler is Python code
whose errors propagate out of the dispatcher like any other, so while it compiles
(``simlab.compiling`` counts its ``numba:compile`` events here) a signal is delivered at
once. It still waits for the stretch of LLVM's C++ code running when it arrives, which
holds the GIL and runs no bytecode (``simlab.compiling``, "Interrupting a compilation").
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator

DEFERRED = (signal.SIGINT, signal.SIGTERM)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be so that both stop a command the same way."""


def cause_of(interrupt: KeyboardInterrupt) -> str:
    """What stopped a command, as its message names it."""
    return "Terminated (SIGTERM)" if isinstance(interrupt, Terminated) else "Interrupted"


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM raises ``Terminated`` (a ``KeyboardInterrupt``)."""
    def raise_terminated(signum: int, frame: Any) -> None:
        raise Terminated

    try:
        previous = signal.signal(signal.SIGTERM, raise_terminated)
    except ValueError:  # not the main thread: leave SIGTERM alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class _Deferral:
    """The state of ``signals_deferred``: how deep the blocks nest, the handlers
    they replaced, and the signals received meanwhile (in order)."""

    depth = 0
    previous: dict[int, Any] = {}
    pending: list[int] = []
    compiling = 0  # numba compilations under way, nested ones counted (``compiling_started``)


def compiling_started() -> None:
    """numba began to compile a kernel (``simlab.compiling`` says so): a signal recorded
    just before is delivered now. Only the main thread's compilations count: a signal is
    raised there, maybe while another thread compiles and this one runs compiled code."""
    if threading.current_thread() is not threading.main_thread():
        return
    _Deferral.compiling += 1
    if _Deferral.pending and _Deferral.depth:
        _deliver_pending()


def compiling_ended() -> None:
    """numba finished (or abandoned) compiling a kernel."""
    if threading.current_thread() is threading.main_thread():
        _Deferral.compiling = max(0, _Deferral.compiling - 1)


def _record(signum: int, frame: Any) -> None:
    """The handler inside ``signals_deferred``: remember the signal, raise nothing; but
    while numba compiles, deliver it now (raising from the compiler's Python code is safe)."""
    if signum not in _Deferral.pending:
        _Deferral.pending.append(signum)
    if _Deferral.compiling:
        _deliver_pending()


@contextmanager
def signals_deferred() -> Iterator[None]:
    """While the block runs, SIGINT and SIGTERM are only recorded; ``stop_point()``
    (or the end of the outermost block) delivers them. Blocks nest; outside the main
    thread (where Python delivers no signal) this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if _Deferral.depth == 0:
        _Deferral.pending = []
        _Deferral.previous = {}
        for signum in DEFERRED:
            handler = signal.getsignal(signum)
            if handler is signal.SIG_IGN or handler is None:  # ignored (a pool worker's SIGINT): keep it so
                continue
            _Deferral.previous[signum] = signal.signal(signum, _record)
    _Deferral.depth += 1
    try:
        yield
    finally:
        _Deferral.depth -= 1
        if _Deferral.depth == 0:
            for signum, handler in _Deferral.previous.items():
                signal.signal(signum, handler)
            _Deferral.previous = {}
    if _Deferral.depth == 0:  # the block ended without an exception: deliver what came meanwhile
        _deliver_pending()


def stop_point() -> None:
    """Deliver a signal received inside ``signals_deferred`` to its earlier handler,
    which normally raises (``KeyboardInterrupt``, ``Terminated``). Cheap: call it
    between slices of compiled work."""
    if _Deferral.pending:
        _deliver_pending()


def _deliver_pending() -> None:
    """Raise each recorded signal again with the earlier handler in place (CPython runs
    it inside ``raise_signal``); a handler that returns leaves the work going on."""
    while _Deferral.pending:
        signum = _Deferral.pending.pop(0)
        if _Deferral.depth == 0 or signum not in _Deferral.previous:
            signal.raise_signal(signum)
            continue
        ours = signal.signal(signum, _Deferral.previous[signum])
        try:
            signal.raise_signal(signum)
        finally:
            signal.signal(signum, ours)
