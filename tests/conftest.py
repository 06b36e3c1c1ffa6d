"""Test-session set-up: compile the solver's kernels once before the xdist workers start.

Why: from a fresh clone the numba cache is empty, and both workers of ``make test`` would
compile the same search kernels side by side (about 75 CPU-s each for the solver). Two
processes here compile disjoint starting points, one per core, into the shared cache
(``NUMBA_CACHE_DIR``), and the workers then load them. It changes no test: a warm cache
skips this in a second.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from simlab.experiments.folders import RESULTS_ROOT_ENV

WARM_UPS = (
    # the Castle portfolio: best-first, depth-first, loss proofs, safe plays
    "from simlab.cli import main; main(['solve', 'beleaguered_castle', '1'])",
    # the stock search, the fans' searches and the round search
    "from simlab.cli import main; main(['solve', 'windmill', '1', '--budget', '20000']);"
    "main(['solve', 'la_belle_lucie', '1', '--budget', '20000']);"
    "main(['play', 'la_belle_lucie', '1', '--policy', 'round_max'])",
)


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
    runs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for code in WARM_UPS]
    for run in runs:
        run.wait()  # a failure here shows up again, with its message, in the tests themselves
