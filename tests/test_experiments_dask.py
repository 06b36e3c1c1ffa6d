"""The dask backend: a LocalCluster gives the same tables as a local loky run."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pandas as pd
import pytest
from experiment_helpers import tables_without_timing

import simlab

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.dask

CONFIG = {
    "name": "dask_check", "root_seed": 2, "deals": {"start": 1, "count": 20},
    "games": ["beleaguered_castle", "streets_and_alleys"], "policies": ["random", "greedy"],
    "claims": [{"game": "streets_and_alleys", "policy": "greedy", "win_rate": 0.1, "source": "x"}],
    "execution": {"n_jobs": 2, "chunk_size": 6},
}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_local_cluster_matches_loky(scheduler: str, tmp_path: Path) -> None:
    local = simlab.run(CONFIG, output=tmp_path / "loky", progress=False)
    clustered = simlab.run(CONFIG, output=tmp_path / "dask", backend="dask", scheduler=scheduler,
                           chunk_size=5, progress=False)
    pd.testing.assert_frame_equal(local.drop(columns="cpu_seconds"),
                                  clustered.drop(columns="cpu_seconds"))
    loky_tables = tables_without_timing(tmp_path / "loky")
    dask_tables = tables_without_timing(tmp_path / "dask")
    for name, frame in loky_tables.items():
        pd.testing.assert_frame_equal(frame, dask_tables[name], obj=name)
