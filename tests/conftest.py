"""Test-session set-up: compile the common kernels once before the xdist workers start.

Why: from a fresh clone the numba cache is empty, and both workers of ``make test`` would
compile the same kernels side by side (about 75 CPU-s each for the solver alone).
``simlab.compiling.warm_up`` compiles disjoint sets of them, one process per core, into the
shared cache (``simlab.numba_cache``), and the workers then load them. It changes no test:
after ``make setup`` (or once it has run) the cache holds them and this takes no time.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from simlab.experiments.folders import RESULTS_ROOT_ENV


def pytest_configure(config) -> None:
    """Let runs write into the tests' temporary folders; then, in the controller of an xdist
    run only (``make test``), compile before its workers start."""
    # Output folders must lie in the results root (``simlab.experiments.folders``): for the
    # tests that is where pytest makes ``tmp_path`` (the tests of the root set their own):
    # --basetemp, else PYTEST_DEBUG_TEMPROOT, else the system's; absolute, since a relative
    # --basetemp would move with the tests that change directory.
    temp = config.option.basetemp or os.environ.get("PYTEST_DEBUG_TEMPROOT") or tempfile.gettempdir()
    os.environ[RESULTS_ROOT_ENV] = str(Path(temp).resolve())
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    from simlab.compiling import warm_up

    try:
        warm_up()
    except RuntimeError:  # a failure here shows up again, with its message, in the tests themselves
        pass
