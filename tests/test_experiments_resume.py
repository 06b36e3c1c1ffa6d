"""Killing a run with SIGKILL loses no finished deal, and a rerun completes it exactly."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml
from experiment_helpers import tables_without_timing
from run_helpers import stored_rows

from simlab.experiments.config import load_config
from simlab.experiments.frames import typed_deals
from simlab.experiments.runner import run_experiment

REPO = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
DEALS = 80

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")


def slow_config(folder: Path, output: Path) -> Path:
    """About 2 s of work on 2 workers: a first-move policy that sleeps 50 ms a deal."""
    data = {
        "name": "slow", "root_seed": 5, "deals": {"start": 1, "count": DEALS},
        "games": ["beleaguered_castle"],
        "policies": [{"name": "experiment_helpers:FirstMove", "params": {"delay": 0.05}}],
        "execution": {"n_jobs": 2, "chunk_size": 2}, "output": str(output),
    }
    path = folder / f"{output.name}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def stored_deals(output: Path) -> int:
    """Deals stored so far (0 before the run made its database: read-only, so asking
    never makes an empty one the run would refuse)."""
    return len(stored_rows(output))


def kill_partway(config: Path, output: Path) -> int:
    """Start ``simlab run`` in its own process group, SIGKILL it once some deals are stored."""
    errors = output.parent / f"{output.name}.stderr"
    with errors.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "simlab.cli", "run", str(config)], cwd=REPO,
            env={**os.environ, "PYTHONPATH": f"{TESTS}:{REPO}"}, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=stderr)
        deadline = time.monotonic() + 120
        try:
            while stored_deals(output) < 6 and time.monotonic() < deadline and process.poll() is None:
                time.sleep(0.02)
        finally:
            with contextlib.suppress(ProcessLookupError):  # the group is gone if the run already ended
                os.killpg(process.pid, signal.SIGKILL)  # the runner and its loky workers
            process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL, f"the run ended itself ({process.returncode}): {errors.read_text()}"
    return stored_deals(output)


def test_sigkill_then_rerun_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    killed = tmp_path / "killed"
    stored = kill_partway(slow_config(tmp_path, killed), killed)
    assert 0 < stored < DEALS, "the run should have been killed partway"
    assert not (killed / "summary.csv").exists()  # it never got to write reports

    resumed = run_experiment(load_config(slow_config(tmp_path, killed)), progress=False)
    assert resumed.played == DEALS - stored  # only what was missing

    clean = tmp_path / "clean"
    uninterrupted = run_experiment(load_config(slow_config(tmp_path, clean)), progress=False)
    assert uninterrupted.played == DEALS
    pd.testing.assert_frame_equal(typed_deals(resumed.frame).drop(columns="cpu_seconds"),
                                  typed_deals(uninterrupted.frame).drop(columns="cpu_seconds"))
    for name, frame in tables_without_timing(killed).items():
        pd.testing.assert_frame_equal(frame, tables_without_timing(clean)[name], obj=name)
