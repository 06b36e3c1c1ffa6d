"""A ladder of players in experiments: the config key, the difficulty of a deal, the
skill curve, their tables and figures, extra tries, and ``simlab deals``.

Timing columns differ between runs and are left out of every equality check.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml

import simlab
from simlab import cli
from simlab.errors import ConfigError
from simlab.experiments.config import Ladder, config_from_dict
from simlab.experiments.deal_lists import LINE_KEYS, DealQuery, default_levels, write_lines
from simlab.experiments.frames import TIMING_COLUMNS
from simlab.experiments.ladder import (
    DEFAULT_LADDER,
    PERFECT_ONLY,
    UNKNOWN_LEVEL,
    UNWINNABLE,
    curve_positions,
    deal_difficulty,
    difficulty_column,
)
from simlab.experiments.rebuild import rebuild
from simlab.experiments.schema import DATABASE_NAME
from simlab.games import make_game
from simlab.play import deal_rng
from simlab.policies import make_policy
from simlab.solver.replay import replays_to_win

# Citadel: the solver decides a deal in a few hundred positions, so the ladder is cheap.
LADDER: dict[str, Any] = {
    "name": "tiny_ladder",
    "root_seed": 3,
    "deals": {"start": 1, "count": 8},
    "games": ["citadel", "beleaguered_castle"],
    "policies": ["random", "greedy", "heuristic", {"name": "solver", "label": "solver_300", "params": {"budget": 300}},
                 {"name": "solver", "label": "solver", "params": {"budget": 200_000}}],
    "ladder": {"rungs": ["random", "greedy", "heuristic", "solver_300"], "perfect": "solver", "tries": 3},
    "execution": {"n_jobs": 1, "chunk_size": 3, "backend": "sequential"},
}
LEVELS = ["random", "greedy", "heuristic", "solver_300", PERFECT_ONLY, UNWINNABLE, UNKNOWN_LEVEL]
CSV_TABLES = ("deals", "summary", "claims", "comparisons", "difficulty", "skill_curve")


def config_with(**changes: Any) -> dict[str, Any]:
    return {**LADDER, **changes}


def csv_tables(folder: Path) -> dict[str, pd.DataFrame]:
    tables = {}
    for name in CSV_TABLES:
        if not (folder / f"{name}.csv").exists():  # a config without a ladder: no ladder tables
            continue
        frame = pd.read_csv(folder / f"{name}.csv", keep_default_na=False)
        tables[name] = frame.drop(columns=[c for c in frame.columns if any(t in c for t in TIMING_COLUMNS)])
    return tables


def assert_same_tables(a: Path, b: Path) -> None:
    for name, frame in csv_tables(a).items():
        pd.testing.assert_frame_equal(frame, csv_tables(b)[name], obj=name)


# ----- config -------------------------------------------------------------------------
@pytest.mark.parametrize(("ladder", "message"), [
    ({"rungs": ["random", "greedyy"], "perfect": "solver"},
     "ladder.rungs[1] must name a policy of this experiment. Got 'greedyy' (a str). Did you mean 'greedy'?"),
    ({"rungs": ["random"], "perfect": "solvr"},
     "ladder.perfect must name a policy of this experiment. Got 'solvr' (a str). Did you mean 'solver'?"),
    ({"rungs": ["random"], "perfect": "solver", "tries": 0}, "ladder.tries must be an int >= 1. Got 0"),
    ({"rungs": ["random"], "perfect": "solver", "tries": True}, "ladder.tries must be an int >= 1. Got True"),
    ({"rungs": ["random", "solver"], "perfect": "solver"}, "ladder.perfect: the policy 'solver' is also rung 1"),
    ({"rungs": ["random", "random"], "perfect": "solver"}, "ladder.rungs[1]: the policy 'random' is already rung 0"),
    ({"rungs": [], "perfect": "solver"}, "ladder.rungs must be a list of at least 1 item"),
    ({"rungs": ["random"]}, "ladder: the required key 'perfect' is missing"),
    ({"rungs": ["random"], "perfect": "solver", "trys": 2}, "ladder: unknown key 'trys'. Did you mean 'tries'?"),
])
def test_a_bad_ladder_is_a_config_error_naming_its_key(ladder: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as error:
        config_from_dict(config_with(ladder=ladder), source="x.yaml")
    assert str(error.value).startswith("x.yaml: "), str(error.value)
    assert message in str(error.value), str(error.value)


def test_perfect_play_must_prove_its_losses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """difficulty.csv calls the perfect player's losses 'unwinnable': a player whose lost is
    only a game it did not win (random), or the fair solver where cards are hidden, is
    refused with status 2 before anything runs; the solver, thoughtful or on an open game, is
    taken (issue 44: 'perfect: random' called every deal unwinnable)."""
    expected = ("x.yaml: ladder.perfect must be a policy whose every 'lost' is a loss proved by exhaustive "
                "search, such as the solver (in mode 'thoughtful' where cards are hidden or shuffled): "
                "difficulty.csv calls its losses 'unwinnable'. Got 'random', whose losses on game 'citadel' "
                "are not proved.")
    with pytest.raises(ConfigError, match=re.escape(expected)):
        config_from_dict(config_with(ladder={"rungs": ["greedy"], "perfect": "random"}), source="x.yaml")
    fair = {"name": "solver", "label": "fair", "params": {"mode": "fair"}}
    with pytest.raises(ConfigError, match="Got 'fair', whose losses on game 'windmill' are not proved"):
        config_from_dict(config_with(games=["citadel", "windmill"], policies=["greedy", fair],
                                     ladder={"rungs": ["greedy"], "perfect": "fair"}), source="x.yaml")
    assert config_from_dict(config_with(games=["citadel"], policies=["greedy", fair],
                                        ladder={"rungs": ["greedy"], "perfect": "fair"})).ladder is not None
    output = tmp_path / "out"
    path = tmp_path / "x.yaml"
    path.write_text(yaml.safe_dump(config_with(ladder={"rungs": ["greedy"], "perfect": "random"},
                                               output=str(output))))
    assert cli.main(["run", str(path), "--no-progress"]) == 2
    assert expected.replace("x.yaml", str(path)) in capsys.readouterr().err and not output.exists()


def test_a_folder_an_earlier_simlab_ran_with_an_unproving_perfect_player_is_reported_honestly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder run before perfect play had to prove its losses (here 'perfect: random', as the
    issue's reporter ran it): simlab report rebuilds its report (status 0; the data are the
    user's), but a deal random lost is 'unknown', never 'unwinnable', and report.md says why;
    a new run of that config is refused (status 2) with the folder left as it was."""
    from simlab.experiments.config import _Validator

    output = tmp_path / "old"
    data = config_with(games=["citadel"], policies=["random", "greedy"], deals={"start": 1, "count": 6},
                       ladder={"rungs": ["greedy"], "perfect": "random"}, output=str(output))
    path = tmp_path / "old.yaml"
    path.write_text(yaml.safe_dump(data))
    with monkeypatch.context() as earlier:  # the check an earlier simlab did not make
        earlier.setattr(_Validator, "unproved", lambda *_: ())
        assert cli.main(["run", str(path), "--no-progress"]) == 0
    old = pd.read_csv(output / "difficulty.csv").set_index("difficulty")["deals"]
    assert old[UNWINNABLE] > 0  # what the earlier simlab wrote: random's losses called unwinnable
    capsys.readouterr()
    assert cli.main(["report", str(output)]) == 0, capsys.readouterr().err
    new = pd.read_csv(output / "difficulty.csv").set_index("difficulty")["deals"]
    assert new[UNWINNABLE] == 0 and new[UNKNOWN_LEVEL] == old[UNWINNABLE] + old[UNKNOWN_LEVEL]
    assert new["greedy"] == old["greedy"] and new[PERFECT_ONLY] == old[PERFECT_ONLY]
    deals = pd.read_csv(output / "deals.csv")
    assert UNWINNABLE not in set(deals["difficulty"])
    assert ("random does not prove its losses on citadel (a loss there is only a game it did not win; this "
            "folder was run by an earlier simlab, which took such a perfect player): a deal random lost there "
            "is `unknown`, not `unwinnable`.") in (output / "report.md").read_text()
    before = {p.name: p.read_bytes() for p in output.iterdir() if p.is_file()}
    assert cli.main(["run", str(path), "--no-progress"]) == 2
    assert "ladder.perfect must be a policy whose every 'lost' is a loss proved" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in output.iterdir() if p.is_file()} == before


def test_a_lost_that_proves_nothing_is_unknown() -> None:
    assert deal_difficulty([False], ["greedy"], "lost") == UNWINNABLE
    assert deal_difficulty([False], ["greedy"], "lost", loss_proved=False) == UNKNOWN_LEVEL
    assert deal_difficulty([False], ["greedy"], "won", loss_proved=False) == PERFECT_ONLY


def test_a_ladder_is_resolved_and_a_config_without_one_reads_as_before() -> None:
    config = config_from_dict(config_with(ladder={"rungs": ["random", "greedy"], "perfect": "solver"}))
    assert config.ladder is not None and config.ladder.tries == 1
    assert config.to_dict()["ladder"] == {"rungs": ["random", "greedy"], "perfect": "solver", "tries": 1}
    assert config_from_dict(config.to_dict()) == config
    plain = {k: v for k, v in LADDER.items() if k != "ladder"}
    assert "ladder" not in config_from_dict(plain).to_dict()


# ----- the difficulty of a deal, the curve's axis ----------------------------------------
@pytest.mark.parametrize(("wins", "verdict", "expected"), [
    ([False, True, True], "won", "b"),
    ([True, False, False], "lost", "a"),  # a rung's win stands whatever the perfect player said
    ([False, False, False], "won", PERFECT_ONLY),
    ([False, False, False], "lost", UNWINNABLE),
    ([False, False, False], "unknown", UNKNOWN_LEVEL),
    ([False, False, False], None, UNKNOWN_LEVEL),
    ([False, False, True], "unknown", "c"),
])
def test_deal_difficulty_is_the_first_winning_rung_else_the_perfect_verdict(
        wins: list[bool], verdict: str | None, expected: str) -> None:
    assert deal_difficulty(wins, ["a", "b", "c"], verdict) == expected


def test_difficulty_column_counts_extra_tries_and_a_missing_result_as_unknown() -> None:
    rows = [("r", 1, "lost"), ("s", 1, "won"), ("p", 1, "won"),
            ("r", 2, "lost"), ("s", 2, "lost"), ("p", 2, "lost"),
            ("r", 3, "lost"), ("s", 3, "lost"), ("p", 3, "won"),
            ("r", 4, "error"), ("s", 4, "lost"), ("p", 4, "won"),
            ("r", 5, "error"), ("s", 5, "won"), ("p", 5, "unknown")]
    frame = pd.DataFrame([("g", policy, deal, verdict) for policy, deal, verdict in rows],
                         columns=["game", "policy", "deal", "verdict"])
    tries = pd.DataFrame([("g", "r", 2, 1, "lost"), ("g", "r", 2, 2, "won"), ("g", "r", 3, 1, "lost")],
                         columns=["game", "policy", "deal", "attempt", "verdict"])
    levels = difficulty_column(frame, tries, Ladder(rungs=("r", "s"), perfect="p", tries=3))
    by_deal = dict(zip(frame["deal"], levels))
    # deal 2: r won its third try; deal 4: r has no result, so s losing proves nothing;
    # deal 5: s won, but r, below it, might have won too.
    assert by_deal == {1: "s", 2: "r", 3: PERFECT_ONLY, 4: UNKNOWN_LEVEL, 5: UNKNOWN_LEVEL}
    assert (levels.index == frame.index).all()


def test_curve_positions_put_budgets_on_the_axis_and_the_rest_in_order() -> None:
    assert curve_positions([None, None, 10, 1000, None]) == [0.1, 1.0, 10.0, 1000.0, 10000.0]
    assert curve_positions([None, None, None]) == [1.0, 10.0, 100.0]
    assert curve_positions([None, 100, 50, None, 7]) == [10.0, 100.0, 1000.0, 10000.0, 100000.0]


def test_random_is_stochastic_and_tries_are_seeded_apart() -> None:
    assert make_policy("random").is_stochastic()
    assert not make_policy("greedy").is_stochastic() and not make_policy("solver").is_stochastic()
    first = deal_rng(5, 0, "policy:random").random(4)
    assert (deal_rng(5, 0, "policy:random", 0).random(4) == first).all()  # try 0: the seed as always
    assert not (deal_rng(5, 0, "policy:random", 1).random(4) == first).any()
    assert not (deal_rng(5, 0, "policy:random", 2).random(4) == deal_rng(5, 0, "policy:random", 1).random(4)).any()


# ----- end to end -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ladder_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("ladder") / "out"
    simlab.run({**LADDER, "output": str(folder)}, progress=False)
    return folder


def test_a_ladder_run_writes_the_difficulty_column_tables_and_figures(ladder_run: Path) -> None:
    for name in ("difficulty.csv", "skill_curve.csv", "difficulty.png", "skill_curve.png"):
        assert (ladder_run / name).is_file(), name
    deals = pd.read_csv(ladder_run / "deals.csv", keep_default_na=False)
    assert set(deals["difficulty"]) <= set(LEVELS)
    assert (deals.groupby(["game", "deal"])["difficulty"].nunique() == 1).all()
    for (game, deal), group in deals.groupby(["game", "deal"]):
        verdicts = dict(zip(group["policy"], group["verdict"]))
        level = group["difficulty"].iloc[0]
        if level in LEVELS[:4]:  # a rung won it (its first try, or for random maybe another)
            assert level == "random" or verdicts[level] == "won"
            assert all(verdicts[rung] != "won" for rung in LEVELS[:LEVELS.index(level)])
        else:
            assert all(verdicts[rung] != "won" for rung in LEVELS[1:4])
            assert level == {"won": PERFECT_ONLY, "lost": UNWINNABLE}.get(verdicts["solver"], UNKNOWN_LEVEL)
    difficulty = pd.read_csv(ladder_run / "difficulty.csv", keep_default_na=False)
    for game, group in difficulty.groupby("game", sort=False):
        assert list(group["difficulty"]) == LEVELS
        assert group["deals"].sum() == 8 and abs(group["share"].sum() - 1) < 1e-9
        counts = deals[deals["game"] == game].drop_duplicates("deal")["difficulty"].value_counts()
        assert dict(zip(group["difficulty"], group["deals"])) == {lv: int(counts.get(lv, 0)) for lv in LEVELS}
    assert set(difficulty["information"]) == {"open"}
    curve = pd.read_csv(ladder_run / "skill_curve.csv", keep_default_na=False)
    assert list(curve[curve["game"] == "citadel"]["policy"]) == LEVELS[:4] + ["solver"]
    summary = pd.read_csv(ladder_run / "summary.csv").set_index(["game", "policy"])
    for row in curve.itertuples():
        assert row.won == summary.loc[(row.game, row.policy), "won"]
        assert row.wilson_low <= row.win_rate <= row.wilson_high
    assert list(curve["x"].iloc[:5]) == [0.3, 3.0, 30.0, 300.0, 3000.0]
    report = (ladder_run / "report.md").read_text()
    assert "## Difficulty" in report and "## Skill curve" in report and "![Skill curve" in report


def test_extra_tries_are_stored_apart_and_the_main_tables_equal_a_run_without_a_ladder(
        ladder_run: Path, tmp_path: Path) -> None:
    with sqlite3.connect(ladder_run / DATABASE_NAME) as db:
        identities = [json.loads(i) for (i,) in db.execute("SELECT identity FROM cells")]
        rows = db.execute("SELECT COUNT(*) FROM deals").fetchone()[0]
    tries = [i for i in identities if "try" in i]
    assert sorted(i["try"] for i in tries) == [1, 1, 2, 2]  # random's tries 2 and 3, in both games
    assert all(i["policy"]["name"] == "random" for i in tries)
    assert rows == 2 * 5 * 8 + 4 * 8
    plain = tmp_path / "plain"
    simlab.run({**{k: v for k, v in LADDER.items() if k != "ladder"}, "output": str(plain)}, progress=False)
    ladder_tables, plain_tables = csv_tables(ladder_run), csv_tables(plain)
    assert not (plain / "difficulty.csv").exists() and not (plain / "skill_curve.png").exists()
    pd.testing.assert_frame_equal(ladder_tables["deals"].drop(columns="difficulty"), plain_tables["deals"])
    for name in ("summary", "claims", "comparisons"):
        pd.testing.assert_frame_equal(ladder_tables[name], plain_tables[name], obj=name)


def test_results_do_not_depend_on_workers_or_chunks_and_a_rerun_resumes(ladder_run: Path, tmp_path: Path) -> None:
    two = tmp_path / "two"
    simlab.run({**LADDER, "output": str(two), "execution": {"n_jobs": 2, "chunk_size": 5}}, progress=False)
    assert_same_tables(ladder_run, two)
    with sqlite3.connect(two / DATABASE_NAME) as db:  # lose some first and extra tries
        db.execute("DELETE FROM deals WHERE deal > 5")
    simlab.run({**LADDER, "output": str(two)}, progress=False)
    assert_same_tables(ladder_run, two)
    (two / "difficulty.csv").unlink()
    rebuild(two)
    assert_same_tables(ladder_run, two)


# ----- simlab deals ---------------------------------------------------------------------
def test_simlab_deals_lists_matching_deals_whose_lines_replay_to_a_win(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "easy.jsonl"
    status = cli.main(["deals", "citadel", "--winnable", "--won-by", "heuristic", "--first", "3",
                            "--count", "2", "--out", str(out), "--jobs", "1", "--results", str(tmp_path),
                            "--no-progress"])
    assert status == 0
    entries = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(entries) == 2 and [e["deal"] for e in entries] == sorted(e["deal"] for e in entries)
    game = make_game("citadel")
    deals = pd.read_csv(tmp_path / "citadel" / "deals.csv")
    for entry in entries:
        assert tuple(entry) == LINE_KEYS == ("game", "deal", "difficulty", "won_by", "moves")  # as the README says
        assert entry["difficulty"] is None  # no ladder ran: --difficulty was not asked
        assert isinstance(entry["won_by"], list)
        assert entry["game"] == "citadel" and entry["deal"] >= 3
        assert {"heuristic", "solver"} <= set(entry["won_by"])
        assert replays_to_win(game, game.initial_state(entry["deal"]), [tuple(m) for m in entry["moves"]])
        won = deals[(deals["deal"] == entry["deal"]) & (deals["verdict"] == "won")]["policy"]
        assert sorted(won) == sorted(entry["won_by"])
    # every deal examined before the last listed one that is not listed did not match
    examined = deals[deals["deal"] < entries[-1]["deal"]]
    listed = {e["deal"] for e in entries}
    for deal, group in examined.groupby("deal"):
        if deal not in listed:
            assert not {"heuristic", "solver"} <= set(group[group["verdict"] == "won"]["policy"])
    again = cli.main(["deals", "citadel", "--winnable", "--won-by", "heuristic", "--first", "3",
                           "--count", "2", "--jobs", "1", "--results", str(tmp_path), "--no-progress"])
    assert again == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == entries


def test_simlab_deals_with_a_difficulty_uses_the_default_ladder(tmp_path: Path, capsys: Any) -> None:
    status = cli.main(["deals", "citadel", "--difficulty", "heuristic", "--count", "1", "--jobs", "1",
                            "--results", str(tmp_path), "--no-progress"])
    assert status == 0
    (entry,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert tuple(entry) == LINE_KEYS
    assert entry["difficulty"] == "heuristic" and "heuristic" in entry["won_by"]
    assert "random" not in entry["won_by"] and "greedy" not in entry["won_by"]
    game = make_game("citadel")
    assert replays_to_win(game, game.initial_state(entry["deal"]), [tuple(m) for m in entry["moves"]])
    assert default_levels()[:len(DEFAULT_LADDER)] == [s.get("label", s["name"]) for s in DEFAULT_LADDER]


@pytest.mark.parametrize(("arguments", "message"), [
    (["citadel"], "give at least one of --winnable"),
    (["citadel", "--difficulty", "heuristc"], "Did you mean 'heuristic'?"),
    (["citadl", "--winnable"], "Did you mean 'citadel'?"),
])
def test_simlab_deals_refuses_a_bad_query(arguments: list[str], message: str, tmp_path: Path,
                                          capsys: Any) -> None:
    assert cli.main(["deals", *arguments, "--results", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err
    assert DealQuery("citadel", 1, 1, winnable=True).folder(tmp_path) == tmp_path / "citadel"


def test_simlab_deals_checks_out_before_anything_runs(tmp_path: Path, capsys: Any) -> None:
    """Issue 44: --out to a missing folder or to a folder failed (status 70) only after the
    whole experiment ran. Now status 2 at once, naming --out, with no experiment made; an
    existing list is not emptied by a run that stops before it is written."""
    results = tmp_path / "results"
    for out, found in ((tmp_path / "missing" / "easy.jsonl",
                        f"but its folder '{tmp_path / 'missing'}' does not exist; make it first"),
                       (tmp_path, "which is a folder.")):
        status = cli.main(["deals", "citadel", "--winnable", "--count", "1", "--jobs", "1",
                                "--results", str(results), "--out", str(out), "--no-progress"])
        assert status == 2
        assert (f"error: simlab deals: --out must be a file the JSON lines can be written to. Got '{out}', "
                f"{found}") in capsys.readouterr().err
        assert not results.exists()  # nothing ran
    kept = tmp_path / "kept.jsonl"
    kept.write_text('{"deal": 1}\n')

    def stopped(*_: Any) -> Any:
        raise KeyboardInterrupt
        yield  # a generator, as find_deals

    with pytest.raises(KeyboardInterrupt):
        write_lines(stopped(), kept)
    assert kept.read_text() == '{"deal": 1}\n'


def test_simlab_deals_out_is_replaced_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that fills as the new list is written leaves the earlier list whole (it was
    truncated first, then written), with status 2's message and no partial file beside it."""
    import errno
    import os

    kept = tmp_path / "kept.jsonl"
    kept.write_text('{"deal": 1}\n')
    real_replace = os.replace

    def full(*_: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(ConfigError, match=re.escape(f"Got '{kept}': No space left on device. An earlier file of "
                                                    "that name is as it was.")):
        write_lines(iter([{"deal": 2}, {"deal": 3}]), kept)
    assert kept.read_text() == '{"deal": 1}\n' and sorted(p.name for p in tmp_path.iterdir()) == ["kept.jsonl"]
    monkeypatch.setattr(os, "replace", real_replace)
    assert write_lines(iter([{"deal": 2}, {"deal": 3}]), kept) == 2
    assert kept.read_text() == '{"deal": 2}\n{"deal": 3}\n' and sorted(p.name for p in tmp_path.iterdir()) == [
        "kept.jsonl"]
