"""The benchmark's per-deal files: two runs started in the same second (as when
the games are split between two processes) each get a file of their own."""

from __future__ import annotations

from benchmarks.solver import new_results_file


def test_runs_started_together_never_share_a_file(tmp_path) -> None:
    paths = [new_results_file(tmp_path / "bench", "solver") for _ in range(3)]
    assert len(set(paths)) == 3
    assert all(path.exists() and path.stat().st_size == 0 for path in paths)
    assert sorted(p.name for p in (tmp_path / "bench").iterdir()) == sorted(p.name for p in paths)
