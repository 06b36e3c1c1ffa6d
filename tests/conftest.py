"""Test-session set-up: compile every kernel once before the xdist workers start.

Why: from a fresh clone the numba cache is empty, and both workers of ``make test`` would
compile the same kernels side by side (about 75 CPU-s each for the solver alone).
``simlab.compiling.warm_up`` compiles disjoint sets of them, one process per core, into the
shared cache (``simlab.numba_cache``), and the workers then load them. It changes no test:
after ``make setup`` (or once it has run) the cache holds them and this takes no time.
"""

from __future__ import annotations


def pytest_configure(config) -> None:
    """In the controller of an xdist run only (``make test``), before its workers start."""
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    from simlab.compiling import warm_up

    try:
        warm_up()
    except RuntimeError:  # a failure here shows up again, with its message, in the tests themselves
        pass
