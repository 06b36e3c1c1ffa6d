"""CPU time spent compiling simlab's kernels, told apart from the work itself.

numba compiles a kernel the first time it is called with new argument types,
unless its on-disk cache (``NUMBA_CACHE_DIR``, else ``__pycache__``) already
holds it for this version of the sources. In a fresh checkout that is about a
minute of CPU before the first solve, and a later run loads the same kernels in
a second. numba announces each real compilation (never a cache load) as a
``numba:compile`` event, nested when one kernel compiles another; listening to
the outermost ones lets a command say that it is compiling, and lets a solve
report its own CPU without the compiler's.

Interrupting a compilation: ``simlab.interrupts`` delivers Ctrl-C or SIGTERM at once while a
kernel compiles (``CompileTracker``, listening for the whole process), instead of after
it. numba's own passes are Python and take it at their next bytecode; LLVM's optimisation
and code generation are C++ that hold the GIL, so a signal arriving in one of them waits
for it to return (measured: about a second or less per stretch on the development machine).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from numba.core import event

from simlab.interrupts import compiling_ended, compiling_started

COMPILE_EVENT = "numba:compile"


class CompileTracker(event.Listener):
    """Tells ``simlab.interrupts`` when numba compiles (registered once, for the whole process)."""

    def on_start(self, event: event.Event) -> None:
        compiling_started()

    def on_end(self, event: event.Event) -> None:
        compiling_ended()


event.register(COMPILE_EVENT, CompileTracker())


class CompileClock(event.Listener):
    """CPU seconds spent in outermost numba compilations while installed.

    Attributes:
        seconds: CPU seconds compiling so far.
        compilations: outermost compilations finished so far.
    """

    def __init__(self, on_first: Callable[[], None] | None = None) -> None:
        self.seconds = 0.0
        self.compilations = 0
        self._depth = 0
        self._started = 0.0
        self._on_first = on_first

    def on_start(self, event: event.Event) -> None:
        if self._depth == 0:
            if self._on_first is not None:
                self._on_first()
                self._on_first = None  # said once
            self._started = time.process_time()
        self._depth += 1

    def on_end(self, event: event.Event) -> None:
        if self._depth == 0:  # its start unheard: a Ctrl-C raised by ``CompileTracker`` before this saw it
            return
        self._depth -= 1
        if self._depth == 0:
            self.seconds += time.process_time() - self._started
            self.compilations += 1


@contextmanager
def compile_clock(on_first: Callable[[], None] | None = None) -> Iterator[CompileClock]:
    """Count the CPU spent compiling inside the ``with`` block; ``on_first()`` is called
    as the first compilation starts (a command uses it to say that it is compiling)."""
    clock = CompileClock(on_first)
    with event.install_listener(COMPILE_EVENT, clock):
        yield clock
