"""Running experiments end to end: files, tables, determinism, resuming, failures.

Timing columns (``cpu_seconds`` and ``mean_cpu_seconds``) differ between runs
and are left out of every equality check.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import simlab
from simlab import cli
from simlab.experiments.config import config_from_dict
from simlab.experiments.frames import TIMING_COLUMNS, typed_deals
from simlab.experiments.runner import run_experiment
from simlab.experiments.schema import DATABASE_NAME
from simlab.experiments.store import ResultStore

REPO = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent

TINY: dict[str, Any] = {
    "name": "tiny",
    "root_seed": 11,
    "deals": {"start": 1, "count": 20},
    "games": ["beleaguered_castle", "citadel"],
    "policies": ["random", "heuristic"],
    "claims": [
        {"game": "citadel", "policy": "heuristic", "win_rate": 0.2, "source": "made up"},
        {"game": "citadel", "policy": "random", "win_rate": 0.9, "source": "wildly wrong"},
    ],
    "execution": {"n_jobs": 1, "chunk_size": 6},
}
TABLES = ("deals", "summary", "claims", "comparisons")
FIGURES = ("win_rates", "convergence", "cards_home_lost")


def comparable(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame without the columns that measure time."""
    timing = [c for c in frame.columns if any(t in c for t in TIMING_COLUMNS)]
    return frame.drop(columns=timing).reset_index(drop=True)


def run_tiny(folder: Path, **execution: Any) -> pd.DataFrame:
    data = {**TINY, "execution": {**TINY["execution"], **execution}, "output": str(folder)}
    return simlab.run(data, progress=False)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    folder = tmp_path_factory.mktemp("tiny") / "out"
    return folder, run_tiny(folder)


def test_end_to_end_writes_every_file(tiny_run: tuple[Path, pd.DataFrame]) -> None:
    folder, _ = tiny_run
    expected = {f"{t}.csv" for t in TABLES} | {f"{f}.{e}" for f in FIGURES for e in ("png", "svg")}
    expected |= {"report.md", "manifest.json", "config.resolved.yaml", DATABASE_NAME}
    assert expected <= {p.name for p in folder.iterdir()}
    assert not (folder / "errors.txt").exists()
    assert not (folder / "solver_effort.png").exists()  # no policy searched nodes


def test_deals_table_has_its_columns_and_types(tiny_run: tuple[Path, pd.DataFrame]) -> None:
    folder, frame = tiny_run
    assert list(frame.columns) == ["game", "policy", "information", "deal", "verdict", "end_reason", "moves",
                                   "cards_home", "nodes", "cpu_seconds", "error"]
    assert set(frame["information"]) == {"open"}  # the Castle family hides no card
    assert len(frame) == 2 * 2 * 20
    assert frame[["deal", "moves", "cards_home", "nodes"]].dtypes.eq("int64").all()
    assert frame["cpu_seconds"].dtype == "float64" and (frame["cpu_seconds"] >= 0).all()
    assert set(frame["verdict"]) <= {"won", "lost"}
    assert (frame["error"] == "").all()
    assert frame["deal"].tolist()[:20] == list(range(1, 21))
    on_disk = typed_deals(pd.read_csv(folder / "deals.csv", keep_default_na=False))
    pd.testing.assert_frame_equal(comparable(on_disk), comparable(frame))


def test_summary_agrees_with_the_deals(tiny_run: tuple[Path, pd.DataFrame]) -> None:
    folder, frame = tiny_run
    summary = pd.read_csv(folder / "summary.csv")
    assert list(summary[["game", "policy"]].itertuples(index=False, name=None)) == [
        ("beleaguered_castle", "random"), ("beleaguered_castle", "heuristic"),
        ("citadel", "random"), ("citadel", "heuristic")]
    for row in summary.itertuples():
        cell = frame[(frame["game"] == row.game) & (frame["policy"] == row.policy)]
        assert row.deals == row.played == len(cell) == 20
        assert row.won == (cell["verdict"] == "won").sum()
        assert row.lost == (cell["verdict"] == "lost").sum()
        assert row.unknown == 0 and row.failed == 0
        assert row.win_rate == pytest.approx(row.won / 20)
        assert row.wilson_low <= row.win_rate <= row.wilson_high
        assert (row.range_low, row.range_high) == pytest.approx((row.wilson_low, row.wilson_high))
        assert row.mean_moves == pytest.approx(cell["moves"].mean())
        assert row.mean_cards_home == pytest.approx(cell["cards_home"].mean())
    pd.testing.assert_frame_equal(comparable(simlab.summarize(frame)), comparable(summary),
                                  check_dtype=False)


def test_claims_and_comparisons(tiny_run: tuple[Path, pd.DataFrame]) -> None:
    folder, frame = tiny_run
    claims = pd.read_csv(folder / "claims.csv")
    assert claims["verdict"].tolist()[1] == "inconsistent"  # 90% for random play: no
    assert claims["p_value"].between(0, 1).all()
    comparisons = pd.read_csv(folder / "comparisons.csv")
    # 2 games x 1 policy pair + 2 policies x 1 game pair, every cell on deals 1-20: all paired by deal.
    assert comparisons["test"].tolist() == ["mcnemar_exact (paired, 20 deals)"] * 4
    assert comparisons["comparison"].tolist() == ["policies (paired)"] * 2 + ["games (paired)"] * 2
    paired = comparisons.iloc[1]
    cell = frame[frame["game"] == "citadel"].pivot(index="deal", columns="policy", values="verdict") == "won"
    assert paired["only_a"] == (cell["random"] & ~cell["heuristic"]).sum()
    assert paired["only_b"] == (~cell["random"] & cell["heuristic"]).sum()
    games = comparisons.iloc[3]
    cell = frame[frame["policy"] == "heuristic"].pivot(index="deal", columns="game", values="verdict") == "won"
    assert games[["within", "a", "b"]].tolist() == ["heuristic", "beleaguered_castle", "citadel"]
    assert games["only_a"] == (cell["beleaguered_castle"] & ~cell["citadel"]).sum()
    assert games["only_b"] == (~cell["beleaguered_castle"] & cell["citadel"]).sum()
    assert (comparisons["p_holm"] >= comparisons["p_value"]).all()
    assert (comparisons["p_min"] == comparisons["p_value"]).all()  # no unknowns: one resolution
    report = (folder / "report.md").read_text()
    assert "**inconsistent**: wildly wrong: random wins 90% of citadel deals. We measured 0.0%" in report
    assert "![Win rate by game and policy](win_rates.png)" in report
    assert "4 comparisons, 4 of them paired" in report
    assert "## Manifest" in report and "git commit" in report


def test_manifest_records_versions_and_times(tiny_run: tuple[Path, pd.DataFrame]) -> None:
    import json

    manifest = json.loads((tiny_run[0] / "manifest.json").read_text())
    assert manifest["simlab_version"] == simlab.__version__
    assert {"started", "finished", "git_commit", "packages", "execution"} <= set(manifest)
    assert manifest["packages"]["numpy"]
    assert manifest["deals_played_by_this_run"] == 80


def test_results_do_not_depend_on_jobs_chunks_or_backend(tiny_run: tuple[Path, pd.DataFrame],
                                                         tmp_path: Path) -> None:
    _, reference = tiny_run  # n_jobs 1, chunk size 6
    variants = [
        {"n_jobs": 2, "chunk_size": 6},
        {"n_jobs": 2, "chunk_size": 1, "backend": "loky"},
        {"n_jobs": 1, "chunk_size": 50, "backend": "sequential"},
        {"n_jobs": 2, "chunk_size": 7, "backend": "threading"},
    ]
    for i, execution in enumerate(variants):
        frame = run_tiny(tmp_path / f"v{i}", **execution)
        pd.testing.assert_frame_equal(comparable(frame), comparable(reference), obj=str(execution))


def test_rerun_resumes_and_new_parameters_are_new_cells(tmp_path: Path) -> None:
    base = {**TINY, "claims": [], "output": str(tmp_path / "out"), "policies": ["greedy"]}
    first = run_experiment(config_from_dict({**base, "deals": {"start": 1, "count": 10}}), progress=False)
    assert first.played == 20
    grown = run_experiment(config_from_dict(base), progress=False)
    assert grown.played == 20  # only deals 11-20 of each game
    again = run_experiment(config_from_dict(base), progress=False)
    assert again.played == 0
    pd.testing.assert_frame_equal(comparable(again.frame), comparable(grown.frame))
    capped = {**base, "policies": [{"name": "greedy", "params": {"max_moves": 3}}]}
    other = run_experiment(config_from_dict(capped), progress=False)
    assert other.played == 40  # a changed parameter shares nothing
    assert (other.frame["moves"] <= 3).all()
    assert len(other.frame) == 40
    with ResultStore(tmp_path / "out") as store:
        assert len(store.rows([c for c in _cells(store)])) == 80


def _cells(store: ResultStore) -> list[str]:
    return [key for (key,) in store._db.execute("SELECT cell FROM cells")]


def test_a_user_policy_runs_in_worker_processes(tmp_path: Path) -> None:
    data = {**TINY, "claims": [], "output": str(tmp_path / "out"),
            "policies": [{"name": "experiment_helpers:FirstMove", "label": "first"}, "greedy"],
            "execution": {"n_jobs": 2, "chunk_size": 5}}
    frame = simlab.run(data, progress=False)
    assert set(frame["policy"]) == {"first", "greedy"}
    assert (frame["error"] == "").all()
    sequential = simlab.run({**data, "execution": {"n_jobs": 1}}, output=tmp_path / "seq", progress=False)
    pd.testing.assert_frame_equal(comparable(frame), comparable(sequential))


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    """The real command in a fresh process, with the tests folder importable (user policies)."""
    return subprocess.run([sys.executable, "-m", "simlab.cli", *argv],
                          capture_output=True, text=True, cwd=REPO, timeout=300,
                          env={**os.environ, "PYTHONPATH": f"{TESTS}:{REPO}"})


def test_failing_deals_are_recorded_and_the_run_exits_1(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    data = {**TINY, "claims": [], "output": str(tmp_path / "out"), "games": ["citadel"],
            "policies": [{"name": "experiment_helpers:Flaky", "params": {"fail_rate": 0.3}}, "greedy"],
            "execution": {"n_jobs": 2, "chunk_size": 4}}
    path = tmp_path / "flaky.yaml"
    path.write_text(yaml.safe_dump(data))
    result = _cli("run", str(path))
    assert result.returncode == 1, result.stderr
    frame = typed_deals(pd.read_csv(tmp_path / "out" / "deals.csv", keep_default_na=False))
    failed = frame[frame["verdict"] == "error"]
    assert 0 < len(failed) < 20 and set(failed["policy"]) == {"experiment_helpers:Flaky (fail_rate=0.3)"}
    assert failed["error"].str.startswith("RuntimeError: flaky policy failed on purpose").all()
    assert f"{len(failed)} deal(s) failed" in result.stderr
    assert "errors.txt" in result.stderr
    assert "Traceback" in (tmp_path / "out" / "errors.txt").read_text()
    summary = pd.read_csv(tmp_path / "out" / "summary.csv")
    assert summary["failed"].tolist() == [len(failed), 0]
    assert (frame[frame["policy"] == "greedy"]["verdict"] != "error").all()
    # A rerun retries only the failed deals, and they fail again the same way.
    assert cli.main(["run", str(path), "--n-jobs", "1"]) == 1
    assert f"Played {len(failed)} deal(s)" in capsys.readouterr().out


def test_report_rebuilds_from_the_database(tiny_run: tuple[Path, pd.DataFrame],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder, _ = tiny_run
    before = {t: (folder / f"{t}.csv").read_text() for t in TABLES}
    for table in TABLES:
        (folder / f"{table}.csv").unlink()
    (folder / "win_rates.png").unlink()
    assert cli.main(["report", str(folder)]) == 0
    assert {t: (folder / f"{t}.csv").read_text() for t in TABLES} == before
    assert (folder / "win_rates.png").exists()
    assert cli.main(["report", str(folder / "nowhere")]) == 2
    assert "not an experiment folder" in capsys.readouterr().err


def test_solver_like_policies_get_the_unknown_range_and_an_effort_plot(tmp_path: Path) -> None:
    data = {**TINY, "output": str(tmp_path / "out"), "games": ["beleaguered_castle"],
            "policies": [{"name": "experiment_helpers:FakeSolver", "label": "solver"}],
            "claims": [{"game": "beleaguered_castle", "policy": "solver", "win_rate": 0.5,
                        "source": "coin"}]}
    frame = simlab.run(data, progress=False)
    summary = simlab.summarize(frame).iloc[0]
    assert summary["unknown"] > 0
    assert summary["range_low"] == pytest.approx(summary["wilson_low"])
    assert summary["range_high"] > summary["wilson_high"]
    assert (tmp_path / "out" / "solver_effort.png").exists()
    assert frame["nodes"].gt(0).all()


def test_progress_bars_show_running_win_rates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = {**TINY, "claims": [], "output": str(tmp_path / "out"), "games": ["citadel"]}
    simlab.run(data, progress=True)
    err = capsys.readouterr().err
    assert "citadel / heuristic" in err and "win" in err and "deal" in err
