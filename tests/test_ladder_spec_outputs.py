"""Issue 22 (a ladder of players): what a user gets out of it, tested from the issue's wording.

- ``simlab deals GAME --winnable --first N --count K --out FILE.jsonl``: one JSON
  line per deal, keys ``game``, ``deal``, ``moves`` (``[[source, destination], ...]``),
  every line a win the rules engine replays;
- an experiment's ``ladder: {rungs, perfect, tries}``: a ``difficulty`` column in
  ``deals.csv`` and the files difficulty.csv, skill_curve.csv, difficulty.png,
  skill_curve.png;
- the solver's ``probe_budget``: the columns ``critical_decisions``,
  ``decision_positions``, ``critical_share``, ``critical_undecided`` in ``deals.csv``.

Written without reading the implementations; until they exist these tests fail
(unknown command, config key, parameter or column).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

import simlab
from simlab import make_game, make_policy, play_deal, solve
from simlab.solver.replay import replays_to_win

LADDER_LEVELS = {"perfect play only", "unwinnable", "unknown"}


# ======================================================================================
# 7. simlab deals
# ======================================================================================
def test_deals_lists_winnable_deals_with_lines_that_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from simlab import cli

    monkeypatch.chdir(tmp_path)  # whatever the experiment underneath writes stays here
    out = tmp_path / "easy.jsonl"
    status = cli.main(["deals", "beleaguered_castle", "--winnable", "--first", "1", "--count", "3",
                       "--out", str(out)])
    assert status == 0
    lines = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    assert 1 <= len(lines) <= 3
    game = make_game("beleaguered_castle")
    deals = [entry["deal"] for entry in lines]
    assert deals == sorted(set(deals)) and deals[0] >= 1
    for entry in lines:
        assert entry["game"] == "beleaguered_castle"
        moves = [tuple(move) for move in entry["moves"]]
        assert all(len(move) == 2 and all(isinstance(p, str) for p in move) for move in moves)
        assert replays_to_win(game, game.initial_state(entry["deal"]), moves), entry["deal"]
    # Whether --count counts deals looked at or deals listed, no winnable deal from
    # --first up to the last one listed is left out, and no other deal is in
    # (deal 1 is lost, deal 2 won: make bench and the README).
    winnable = [deal for deal in range(1, deals[-1] + 1) if solve(game, deal).verdict == "won"]
    assert deals == winnable


def test_deals_writes_json_lines_to_standard_output(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch):
    from simlab import cli

    monkeypatch.chdir(tmp_path)
    assert cli.main(["deals", "citadel", "--winnable", "--first", "5", "--count", "1"]) == 0
    entries = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    game = make_game("citadel")
    assert entries, "citadel deal 5 is won by the solver (README), so something is listed"
    for entry in entries:
        assert entry["deal"] >= 5
        assert replays_to_win(game, game.initial_state(entry["deal"]), [tuple(m) for m in entry["moves"]])


# ======================================================================================
# The ladder in an experiment: difficulty and the skill curve
# ======================================================================================
LADDER_CONFIG = {
    "name": "ladder_spec",
    "root_seed": 3,
    "deals": {"start": 1, "count": 6},
    "games": ["beleaguered_castle"],
    "policies": ["tap", "greedy", {"name": "lookahead", "label": "lookahead_10", "params": {"budget": 10}},
                 {"name": "solver", "label": "solver", "params": {"budget": 200_000}}],
    "ladder": {"rungs": ["tap", "greedy", "lookahead_10"], "perfect": "solver", "tries": 2},
    "execution": {"n_jobs": 1},
}


@pytest.fixture(scope="module")
def ladder_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    folder = tmp_path_factory.mktemp("ladder") / "out"
    simlab.run({**LADDER_CONFIG, "output": str(folder)}, progress=False)
    return folder, pd.read_csv(folder / "deals.csv", keep_default_na=False)


def test_a_ladder_writes_its_files(ladder_run):
    folder, _ = ladder_run
    names = {p.name for p in folder.iterdir()}
    assert {"difficulty.csv", "skill_curve.csv", "difficulty.png", "skill_curve.png"} <= names


def test_every_deal_gets_one_difficulty_consistent_with_its_rows(ladder_run):
    _, deals = ladder_run
    rungs = LADDER_CONFIG["ladder"]["rungs"]
    assert "difficulty" in deals.columns
    for (game, deal), rows in deals.groupby(["game", "deal"]):
        levels = {value for value in rows["difficulty"] if value != ""}
        assert len(levels) == 1, (game, deal, levels)
        level = levels.pop()
        assert level in set(rungs) | LADDER_LEVELS, level
        verdicts = rows.groupby("policy")["verdict"].agg(set).to_dict()  # a set: tries may add rows
        (perfect,) = verdicts["solver"]
        won_rungs = [rung for rung in rungs if "won" in verdicts.get(rung, set())]
        if won_rungs:  # a rung's recorded win: the deal is no harder than that rung
            assert level in rungs and rungs.index(level) <= rungs.index(won_rungs[0]), (deal, level)
        if level in rungs:
            assert perfect != "lost", (deal, level)  # a rung won it: it is winnable
        elif level == "perfect play only":
            assert perfect == "won" and not won_rungs
        elif level == "unwinnable":
            assert perfect == "lost" and not won_rungs
        else:
            assert perfect == "unknown" and not won_rungs


def test_the_difficulty_table_counts_every_deal(ladder_run):
    folder, deals = ladder_run
    table = pd.read_csv(folder / "difficulty.csv", keep_default_na=False)
    assert "game" in table.columns and "difficulty" in table.columns
    assert set(deals["difficulty"]) - {""} <= set(table["difficulty"])
    count = next((c for c in ("deals", "count") if c in table.columns), None)
    if count is not None:  # the column's name is not fixed by the issue; if it has one of these, it adds up
        assert table[count].sum() == deals[["game", "deal"]].drop_duplicates().shape[0]


def test_the_skill_curve_lists_every_rung_and_the_solver(ladder_run):
    folder, _ = ladder_run
    curve = pd.read_csv(folder / "skill_curve.csv")
    named = set(curve.astype(str).to_numpy().ravel())
    for label in ("tap", "greedy", "lookahead_10", "solver"):
        assert label in named, label


# ======================================================================================
# Critical decisions in deals.csv (the solver's probe_budget)
# ======================================================================================
CRITICAL_COLUMNS = ["critical_decisions", "decision_positions", "critical_share", "critical_undecided"]
PROBE_BUDGET = 500


@pytest.fixture(scope="module")
def probed_run(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    folder = tmp_path_factory.mktemp("probed") / "out"
    config = {"name": "probed", "root_seed": 0, "deals": [1, 2], "games": ["beleaguered_castle"],
              "policies": [{"name": "solver", "params": {"budget": 200_000, "probe_budget": PROBE_BUDGET}}],
              "execution": {"n_jobs": 1}}
    simlab.run(config, output=folder, progress=False)
    return pd.read_csv(folder / "deals.csv")


def test_deals_table_has_the_critical_columns(probed_run):
    assert set(CRITICAL_COLUMNS) <= set(probed_run.columns)
    won = probed_run[probed_run["verdict"] == "won"]
    assert list(won["deal"]) == [2]  # deal 1 is lost
    row = won.iloc[0]
    assert 0 <= row["critical_decisions"] <= row["decision_positions"]
    assert row["critical_decisions"] + row["critical_undecided"] <= row["decision_positions"]
    assert row["decision_positions"] > 0
    assert math.isclose(row["critical_share"], row["critical_decisions"] / row["decision_positions"])


def test_the_critical_columns_are_those_of_critical_decisions(probed_run):
    from simlab.solver.critical import critical_decisions

    game = make_game("beleaguered_castle")
    record = play_deal(game, make_policy("solver", budget=200_000, probe_budget=PROBE_BUDGET), 2)
    found = critical_decisions(game, game.initial_state(2), record.moves, PROBE_BUDGET)
    row = probed_run[probed_run["deal"] == 2].iloc[0]
    assert (row["critical_decisions"], row["decision_positions"], row["critical_undecided"]) == (
        found.critical, found.positions, found.undecided)
