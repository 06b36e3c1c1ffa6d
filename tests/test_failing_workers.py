"""A worker that dies or never ends costs only its deal: error rows with the cause, the
other deals played, the report written, exit status 1 with the failures listed."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest
from run_helpers import config, simlab, stored_rows, write_config

from simlab.play import deal_rng

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")

MISBEHAVE = "misbehaving_policies:Misbehave"
# The deals of 1-4 that misbehave at rate 0.25: the deal's generator decides (root seed 3, the policy's name).
BAD_DEALS = {deal for deal in range(1, 5) if deal_rng(deal, 3, f"policy:{MISBEHAVE}").random() < 0.25}
(BAD,) = BAD_DEALS  # one deal misbehaves, three play: both kinds of row are checked
CELLS = ("segfault", "os_exit", "sys_exit", "loop")


def misbehaving(how: str) -> dict[str, object]:
    return {"name": MISBEHAVE, "label": how, "params": {"how": how, "rate": 0.25}}


@pytest.fixture(scope="module")
def crashed_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    """One run in which workers segfault, call os._exit, call sys.exit and loop for ever."""
    folder = tmp_path_factory.mktemp("workers")
    output = folder / "out"
    data = config(output, deals={"start": 1, "count": 4},
                  policies=[misbehaving(h) for h in CELLS] + ["random"],
                  execution={"n_jobs": 2, "chunk_size": 2, "deal_timeout": 2})
    path = write_config(folder / "crash.yaml", data)
    return output, path, simlab("run", str(path))


def deals_of(output: Path) -> pd.DataFrame:
    return pd.read_csv(output / "deals.csv", keep_default_na=False)


def test_the_run_finishes_reports_and_exits_1(crashed_run: tuple) -> None:
    output, _, result = crashed_run
    assert result.returncode == 1, result.stderr
    assert "Traceback (most recent call last)" not in result.stderr
    assert (output / "report.md").exists() and (output / "summary.csv").exists()
    frame = deals_of(output)
    assert len(frame) == 5 * 4  # every deal of every cell has a row
    assert (frame[frame["policy"] == "random"]["verdict"] != "error").all()
    for how in CELLS:
        cell = frame[frame["policy"] == how]
        assert set(cell[cell["verdict"] == "error"]["deal"]) == BAD_DEALS, how
        assert cell[~cell["deal"].isin(BAD_DEALS)]["verdict"].isin(["won", "lost"]).all(), how
    assert "4 deal(s) failed" in result.stderr
    assert f"segfault / deal {BAD}: worker_died: WorkerDied: the worker process was killed by SIGSEGV" in result.stderr


@pytest.mark.parametrize(("how", "reason", "message"), [
    ("segfault", "worker_died", "killed by SIGSEGV"),
    ("os_exit", "worker_died", "exited with status 3"),
    ("sys_exit", "error", "SystemExit: the policy called sys.exit(4)"),
    ("loop", "timeout", "took longer than execution.deal_timeout (2 s)"),
])
def test_each_failure_is_an_error_row_with_its_cause(crashed_run: tuple, how: str, reason: str,
                                                      message: str) -> None:
    output, _, _ = crashed_run
    frame = deals_of(output)
    failed = frame[(frame["policy"] == how) & (frame["verdict"] == "error")]
    assert (failed["end_reason"] == reason).all()
    assert failed["error"].str.contains(message, regex=False).all()
    assert message in (output / "errors.txt").read_text()


def test_a_rerun_retries_only_the_failed_deals_and_finishes(crashed_run: tuple) -> None:
    output, path, _ = crashed_run
    before = len(stored_rows(output))
    result = simlab("run", str(path), "--deal-timeout", "1")
    assert result.returncode == 1, result.stderr
    assert "Played 4 deal(s)" in result.stdout  # the failed ones, again; no stall
    assert len(stored_rows(output)) == before


def test_on_dask_a_dying_worker_costs_only_its_chunk(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    output = tmp_path / "out"
    data = config(output, deals={"start": 1, "count": 4}, policies=[misbehaving("segfault"), "random"],
                  execution={"backend": "dask", "n_jobs": 2, "chunk_size": 2})
    path = write_config(tmp_path / "dask.yaml", data)
    # dask retries the tasks a dead worker held; with no retries it gives them up at once (all
    # that worker held: the bad deal's chunk, and any chunk queued behind it).
    result = simlab("run", str(path), env={"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"})
    assert result.returncode == 1, result.stderr
    assert "Traceback (most recent call last)" not in result.stderr
    frame = deals_of(output)
    assert len(frame) == 8 and (output / "report.md").exists()
    failed = frame[frame["verdict"] == "error"]
    chunk = {BAD - (BAD - 1) % 2, BAD - (BAD - 1) % 2 + 1}  # chunks of 2: deals 1-2, 3-4
    assert chunk <= set(failed[failed["policy"] == "segfault"]["deal"])
    assert failed["end_reason"].eq("worker_died").all() and failed["error"].str.contains("KilledWorker").all()
