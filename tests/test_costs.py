"""What a run will cost, said before it starts (issue 45): each cell's CPU from measured
per-deal costs (the folder's own deals, else the shipped ``costs.csv``), "unknown" where
none was measured, and a warning with how to shrink a run that takes more than a few minutes."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from run_helpers import SEQUENTIAL, config

import simlab
from simlab.experiments import costs
from simlab.experiments.cells import cells_of
from simlab.experiments.config import config_from_dict, load_config
from simlab.experiments.store import ResultStore

REPO = Path(__file__).resolve().parents[1]


def setup(tmp_path: Path, policies: list, count: int = 200) -> tuple[list, dict[str, int]]:
    """The cells of a config of ``count`` Citadel deals, each with every deal to play."""
    experiment = config_from_dict(config(tmp_path / "out", deals={"start": 1, "count": count}, policies=policies),
                                  source="c.yaml")
    cells = cells_of(experiment)
    return cells, {cell.key: count for cell in cells}


def table(cells: list, per_deal: dict[str, float]) -> pd.DataFrame:
    """A costs table measuring the cells whose policy label is in ``per_deal``."""
    rows = [{"game": c.game.name, "game_params": costs.params_key(c.game.params), "policy": c.policy.name,
             "policy_params": costs.params_key(c.policy.params), "deals": 40,
             "mean_cpu_seconds": per_deal[c.policy.label], "simlab_version": "test", "measured": "test"}
            for c in cells if c.policy.label in per_deal]
    return pd.DataFrame(rows, columns=costs.COST_COLUMNS)


def test_an_expensive_cell_warns_with_how_to_shrink_the_run(tmp_path: Path) -> None:
    cells, missing = setup(tmp_path, ["random", "solver"])
    estimates = costs.estimate(cells, missing, table(cells, {"random": 0.002, "solver": 5.0}))
    assert [c.seconds for c in estimates] == pytest.approx([0.4, 1000.0])
    lines, warned = costs.describe(estimates, workers=2)
    assert warned
    text = "\n".join(lines)
    assert "citadel / solver: 200 x 5 CPU-s = 17 min (from 40 deals, costs.csv, simlab test)" in text
    assert "about 8 min on 2 worker(s)" in text
    assert "warning: this run will take more than 3 min" in text and "deals.count" in text
    assert "citadel / solver 17 min" in text  # the dearest cell named
    assert max(len(line) for line in lines) <= 100


def test_a_cheap_run_does_not_warn(tmp_path: Path) -> None:
    cells, missing = setup(tmp_path, ["random", "greedy"])
    lines, warned = costs.describe(costs.estimate(cells, missing, table(cells, {"random": 0.002, "greedy": 0.003})),
                                   workers=2)
    assert not warned and not any("warning" in line for line in lines)
    assert lines[-1] == "Total: 1 s of CPU: about 0 s on 2 worker(s)."


def test_a_cost_never_measured_is_unknown_not_invented(tmp_path: Path) -> None:
    cells, missing = setup(tmp_path, ["random", {"name": "lookahead", "params": {"budget": 7}}])
    # lookahead measured at another budget: not these parameters, so not its cost
    other = table(cells, {"random": 0.002})
    looked = [c for c in cells if c.policy.name == "lookahead"][0]
    other.loc[len(other)] = ["citadel", costs.params_key(looked.game.params), "lookahead",
                             costs.params_key({**looked.policy.params, "budget": 1000}), 40, 9.0, "test", "test"]
    estimates = costs.estimate(cells, missing, other)
    assert estimates[1].per_deal is None and estimates[1].seconds is None
    lines, warned = costs.describe(estimates, workers=1)
    assert "citadel / lookahead (budget=7): 200 deals, cost unknown" in "\n".join(lines)
    assert lines[-1] == ("Total of the known cells: 0 s of CPU, about 0 s on 1 worker(s), "
                         "plus 1 cell(s) of unknown cost.")
    assert not warned  # nothing known says it is long


def test_the_folders_own_deals_come_first(tmp_path: Path) -> None:
    cells, missing = setup(tmp_path, ["random"])
    stored = {cells[0].key: (12, 0.5)}
    (estimate,) = costs.estimate(cells, missing, table(cells, {"random": 0.002}), stored)
    assert (estimate.per_deal, estimate.measured, estimate.source) == (0.5, 12, "this folder")
    (early,) = costs.estimate(cells, missing, table(cells, {"random": 0.002}), {cells[0].key: (2, 30.0)})
    assert early.per_deal == 0.002  # two deals (compiling) are no basis


def test_a_run_prints_its_estimate_first_and_the_table_is_made_from_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    simlab.run(config(tmp_path / "out", execution=SEQUENTIAL), progress=None)  # a log: progress lines
    err = capsys.readouterr().err
    assert err.startswith("Estimated CPU per cell") and "citadel / random: 6 x " in err
    assert err.index("Estimated CPU") < err.index("6/6 deals")  # before it starts
    made = costs.measured([tmp_path / "out"])
    assert made[["game", "policy", "deals"]].values.tolist() == [["citadel", "random", 6]]
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert made["measured"][0] == costs.measured_where(tmp_path / "out")  # where and when: from the run itself
    assert made["measured"][0].startswith(f"{manifest['finished'][:10]}, git ")
    assert made["measured"][0].endswith(manifest["platform"])
    old = made.assign(mean_cpu_seconds=99.0, deals=1)
    both = costs.merged(pd.concat([old, old.assign(policy="greedy")]), made)
    assert both.set_index("policy")["mean_cpu_seconds"].to_dict() == {"greedy": 99.0,
                                                                      "random": made["mean_cpu_seconds"][0]}
    written = tmp_path / "costs.csv"
    assert costs.main([str(tmp_path / "out"), "--table", str(written)]) == 0
    assert costs.load_table(written).astype(str).values.tolist() == made.astype(str).values.tolist()
    with ResultStore(tmp_path / "out") as store:  # a resumed run's own deals: 6 of the cell
        cells = cells_of(config_from_dict(config(tmp_path / "out", execution=SEQUENTIAL), source="c.yaml"))
        assert [n for n, _ in costs.history(store, cells).values()] == [6]


def test_the_shipped_table_covers_the_quick_tour() -> None:
    """``experiments/quick.yaml`` (the README's first run) and the solver of ``default.yaml``
    have a measured cost in the shipped table."""
    shipped = costs.load_table()
    for name in ("quick.yaml", "default.yaml"):
        experiment = load_config(REPO / "experiments" / name)
        cells = cells_of(experiment)
        estimates = costs.estimate(cells, {c.key: len(experiment.deals) for c in cells}, shipped)
        assert all(e.per_deal is not None and e.per_deal > 0 for e in estimates), name


def test_without_progress_only_a_warning_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``--no-progress`` (``progress=False``) keeps stderr for errors: no estimate, but a
    warning still, with the estimate it rests on."""
    simlab.run(config(tmp_path / "quiet", execution=SEQUENTIAL), progress=False)
    assert "Estimated CPU" not in capsys.readouterr().err
    monkeypatch.setattr(costs, "WARN_SECONDS", 0.0)  # every run is long
    simlab.run(config(tmp_path / "warned", execution=SEQUENTIAL), progress=False)
    err = capsys.readouterr().err
    assert err.startswith("Estimated CPU per cell") and "warning: this run will take more than" in err


def test_an_unreadable_cost_table_makes_costs_unknown_and_the_run_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "costs.csv"
    bad.write_text("game,policy\ncitadel,random\n")
    with pytest.raises(ValueError, match="no column game_params"):
        costs.load_table(bad)
    shipped = costs.load_table
    monkeypatch.setattr(costs, "load_table", lambda path=bad: shipped(path))  # as if the shipped one were so
    outcome = simlab.run(config(tmp_path / "out", execution=SEQUENTIAL), progress=None)
    err = capsys.readouterr().err
    assert "the table of measured costs cannot be read" in err and "no column game_params" in err
    assert "citadel / random: 6 deals, cost unknown" in err
    monkeypatch.undo()
    simlab.run(config(tmp_path / "good", execution=SEQUENTIAL), progress=None)  # the shipped table
    columns = ["game", "policy", "deal", "verdict", "moves"]
    played = [pd.read_csv(tmp_path / folder / "deals.csv")[columns] for folder in ("out", "good")]
    assert len(outcome) and len(played[0]) == 6 and played[0].equals(played[1])  # the run went on, the same

