"""Helpers of the tests that run simlab as a user does: configs written to disk
and the real ``simlab`` command run in a fresh process, as a user runs it."""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from simlab.experiments.schema import DATABASE_NAME

REPO = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
SIMLAB = [sys.executable, "-m", "simlab.cli"]
ENV = {**os.environ, "PYTHONPATH": f"{TESTS}:{REPO}"}


def config(output: Path, **changes: Any) -> dict[str, Any]:
    """A tiny config into ``output``: 6 deals of Citadel under random play, one worker
    process (``SEQUENTIAL`` instead plays in the test's own process: no worker to start)."""
    data: dict[str, Any] = {
        "name": "robust", "root_seed": 3, "deals": {"start": 1, "count": 6},
        "games": ["citadel"], "policies": ["random"],
        "execution": {"n_jobs": 1, "chunk_size": 3}, "output": str(output),
    }
    data.update(changes)
    return data


SEQUENTIAL = {"backend": "sequential", "chunk_size": 3}


def run_here(path: Path, capsys: Any, *extra: str) -> tuple[int, str, str]:
    """``simlab run PATH`` in this process: (status, stdout, stderr)."""
    from simlab import cli

    status = cli.main(["run", str(path), "--no-progress", *extra])
    out, err = capsys.readouterr()
    return status, out, err


def write_config(path: Path, data: dict[str, Any] | str) -> Path:
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False))
    return path


def simlab(*argv: str, cwd: Path = REPO, timeout: float = 240,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``simlab argv...`` in a fresh process (``env`` added to its environment)."""
    return subprocess.run([*SIMLAB, *argv], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout, env={**ENV, **(env or {})})


def start(*argv: str, cwd: Path = REPO) -> subprocess.Popen[str]:
    """``simlab argv...`` started in its own session (so signals reach only it and its workers),
    with Ctrl-C's default action: a pytest-xdist worker ignores SIGINT, and a child inherits an
    ignored signal (Python then installs no KeyboardInterrupt handler), as a terminal's does not."""
    return subprocess.Popen([*SIMLAB, *argv], cwd=cwd, env=ENV, start_new_session=True,
                            preexec_fn=default_interrupt, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def default_interrupt() -> None:
    """In the child before it runs simlab: SIGINT back to its default action."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stored_rows(output: Path) -> list[tuple[Any, ...]]:
    """(deal, verdict, end_reason, error) of every stored row; [] before the database exists.
    Opened read-only, which never creates the file: a plain connect made an empty
    database when it asked before the run had written its own, and the run then
    refused it as damaged (a test that polls while a run starts)."""
    try:
        db = sqlite3.connect(f"file:{output / DATABASE_NAME}?mode=ro", uri=True, timeout=5)
        try:
            return db.execute("SELECT deal, verdict, end_reason, error FROM deals ORDER BY deal").fetchall()
        finally:
            db.close()
    except sqlite3.OperationalError:
        return []


def folder_state(folder: Path) -> dict[str, str]:
    """Every file of ``folder`` and the hash of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}
