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

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from numba.core import event

from simlab import numba_cache
from simlab.interrupts import compiling_ended, compiling_started

COMPILE_EVENT = "numba:compile"
# What compiles, by the module of its first kernel, and roughly its CPU seconds on a fresh
# cache, what it calls included (measured on the 2-core development machine: the first solve
# 94 CPU-s, the first play of greedy 23).
COMPILES = (("simlab.solver", "the solver", 90), ("simlab.policies", "a player policy and the rules it calls", 25),
            ("simlab.engine", "the rules engine", 15))
# Commands that compile the kernels the README's commands, experiments/quick.yaml and
# default.yaml (`make experiment`) call, in two groups, one per process (``warm_up``). numba
# compiles a kernel once per type of its arguments, and the games' layouts differ in type, so
# a kernel warmed on one game may compile again on another: a game or policy not played
# here (Fortress, Trefoil, ...) compiles on its first use, said once. Measured one after
# another in a fresh cache: the solver's first solve 94 CPU-s (every later solve and the stock
# and fan searches 2-6 more), lookahead 16, each player 2-7: the solves and lookahead together
# (they share the solver's kernels), the players beside them.
WARM_UPS = (
    (["solve", "beleaguered_castle", "1"], ["solve", "citadel", "5", "--shorten"],
     ["solve", "windmill", "1", "--budget", "20000"], ["solve", "la_belle_lucie", "1", "--budget", "20000"],
     ["solve", "streets_and_alleys", "1", "--budget", "20000"],
     ["play", "beleaguered_castle", "1", "--policy", "lookahead", "--policy-param", "budget=100"],
     ["play", "streets_and_alleys", "1", "--policy", "lookahead", "--policy-param", "budget=100"]),
    (["play", "citadel", "5", "--policy", "random"], ["play", "citadel", "5", "--policy", "tap"],
     ["play", "citadel", "5", "--policy", "greedy"], ["play", "citadel", "5", "--policy", "heuristic"],
     *(["play", game, "1", "--policy", policy] for game in ("beleaguered_castle", "streets_and_alleys")
       for policy in ("random", "greedy", "heuristic")),
     ["play", "windmill", "1", "--policy", "greedy"], ["play", "castle_of_indolence", "1", "--policy", "heuristic"],
     ["play", "la_belle_lucie", "1", "--policy", "round_max"], ["play", "fan", "1", "--policy", "heuristic"],
     ["play", "citadel", "5", "--policy", "lookahead", "--policy-param", "budget=100"]),
)


WARM_UP_CPU = 150  # CPU seconds of ``warm_up`` in a fresh cache (measured: 152, both processes together)


def what_compiles(module: str) -> str:
    """What a kernel of ``module`` belongs to, and roughly how long it compiles:
    ``the solver (about 90 s of CPU)``."""
    for prefix, what, seconds in COMPILES:
        if module.startswith(prefix):
            return f"{what} (about {seconds} s of CPU)"
    return "its kernels"


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

    def __init__(self, announce: Callable[[str], None] | None = None) -> None:
        self.seconds = 0.0
        self.compilations = 0
        self._depth = 0
        self._started = 0.0
        self._announce = announce

    def on_start(self, event: event.Event) -> None:
        if self._depth == 0:
            if self._announce is not None:
                data = event.data if isinstance(event.data, dict) else {}
                function = getattr(data.get("dispatcher"), "py_func", None)
                self._announce(getattr(function, "__module__", "") or "")
                self._announce = None  # said once
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
def compile_clock(announce: Callable[[str], None] | None = None) -> Iterator[CompileClock]:
    """Count the CPU spent compiling inside the ``with`` block; ``announce(module)`` is called
    once, as the first compilation starts, with the module of its kernel (a command uses it
    to say what is compiling: ``what_compiles``)."""
    clock = CompileClock(announce)
    with event.install_listener(COMPILE_EVENT, clock):
        yield clock


def warm_up(say: Callable[[str], None] | None = None) -> float:
    """Compile the common kernels of this version (``WARM_UPS``) into the cache (``numba_cache``) once: the
    commands of ``WARM_UPS``, one group per process, side by side. Nothing to do (0.0) when
    the cache already holds them (``numba_cache.compiled``); else returns the wall seconds,
    written to the stamp file too. ``say`` is told once, before it starts. One warm-up of a
    cache at a time: a second one (``make setup`` beside ``make test``) waits for the first
    and then finds the kernels compiled.

    Raises:
        RuntimeError: the cache folder cannot be written, or a command failed.
    """
    if numba_cache.compiled():
        return 0.0
    stamp = numba_cache.stamp()
    if not numba_cache.writable(stamp.parent):  # numba would cache elsewhere, silently, and this again
        raise RuntimeError(f"the kernels' cache {stamp.parent} cannot be written: set {numba_cache.VARIABLE} "
                           "to a folder that can be (or unset it).")
    with _one_at_a_time(stamp.parent / WARM_UP_LOCK, say):
        if numba_cache.compiled():  # compiled by the process this one waited for
            return 0.0
        if say is not None:
            say(f"simlab: compiling the kernels of its common commands and configs for this version into the "
                f"cache, once (about {WARM_UP_CPU} CPU-s in {len(WARM_UPS)} processes: two minutes or so on two "
                "cores); later commands and runs load them.")
        started = time.monotonic()
        _compile_in_processes()
        seconds = time.monotonic() - started
        stamp.write_text(f"compiled in {seconds:.0f} s (wall, {len(WARM_UPS)} processes)\n", encoding="utf-8")
    return seconds


WARM_UP_LOCK = "warm_up.lock"  # in the cache folder: held by the warm-up compiling into it


@contextmanager
def _one_at_a_time(path: Path, say: Callable[[str], None] | None) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (``flock``: released when the process ends, however
    it ends), waiting for it, and saying so, when another process holds it."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock (two warm-ups at once compile twice, nothing worse)
        yield
        return
    with open(path, "a", encoding="utf-8") as file:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if say is not None:
                say("simlab: another process is compiling the kernels into this cache; waiting for it...")
            fcntl.flock(file, fcntl.LOCK_EX)
        yield


def _compile_in_processes() -> None:
    """Run each group of ``WARM_UPS`` in a process of its own, side by side; any that fails
    raises ``RuntimeError`` with its messages (a command that fails here fails again, with
    its message, when it is used)."""
    code = "import sys\nfrom simlab.cli import main\nsys.exit(max([main(argv) for argv in {!r}]))"
    runs = [subprocess.Popen([sys.executable, "-c", code.format(list(group))], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True) for group in WARM_UPS]
    try:
        failures = [f"simlab {' '.join(group[0])} ...: {error}" for group, run in zip(WARM_UPS, runs)
                    if (error := run.communicate()[1]) is not None and run.returncode]
    finally:  # Ctrl-C or an error here: no process left compiling behind us
        for run in runs:
            if run.poll() is None:
                run.kill()
    if failures:
        raise RuntimeError("compiling simlab's kernels failed:\n" + "\n".join(failures))


def main() -> int:
    """``python -m simlab.precompile``: ``warm_up``, saying what it does and how long it took."""
    try:
        seconds = warm_up(say=lambda text: print(text, file=sys.stderr, flush=True))
    except RuntimeError as error:
        print(f"simlab: {error}", file=sys.stderr)
        return 1
    if seconds:
        print(f"simlab: compiled in {seconds:.0f} s; cache: {os.environ[numba_cache.VARIABLE]}", file=sys.stderr)
    return 0
