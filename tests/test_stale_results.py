"""Results never go stale silently: a user policy's source is part of its cells'
key; a rerun with another config says what changed and which cells it keeps or replays; the
report lists every config the folder has seen; two runs never write one folder at once; a
damaged database is refused with a way out; ``simlab report`` imports no user module."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path

import pandas as pd
import pytest
from run_helpers import SEQUENTIAL, config, folder_state, run_here, simlab, start, stored_rows, write_config

from simlab import cli

POLICY = '''\
from simlab import Policy


class Mine(Policy):
    """The first legal move."""

    def choose(self, game, observation, moves, rng):
        return moves[0]  # VERSION
'''


def user_folder(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A user's working folder with their own policy module and a config using it."""
    (tmp_path / "mine.py").write_text(POLICY)
    output = tmp_path / "out"
    path = write_config(tmp_path / "mine.yaml", config(output, policies=[
        "random", {"name": "mine:Mine", "label": "mine"}]))
    return path, output, tmp_path


def test_editing_a_user_policy_replays_its_deals_only(tmp_path: Path) -> None:
    path, output, cwd = user_folder(tmp_path)
    assert simlab("run", str(path), cwd=cwd).returncode == 0
    (cwd / "mine.py").write_text(POLICY.replace("moves[0]  # VERSION", "moves[-1]  # VERSION 2"))
    result = simlab("run", str(path), cwd=cwd)
    assert result.returncode == 0, result.stderr
    assert "Played 6 deal(s)" in result.stdout
    assert "plays citadel / mine from the start: its module's source changed" in result.stderr
    assert "keeps citadel / random: 6 deal(s) stored" in result.stderr
    # simlab report reads the cells from the database: it never imports the user's module.
    (cwd / "mine.py").write_text("raise SystemExit('must not be imported')\n")
    (output / "summary.csv").unlink()
    report = simlab("report", str(output), cwd=cwd)
    assert report.returncode == 0, report.stderr
    assert "mine" in (output / "summary.csv").read_text()


def test_a_changed_config_says_what_changed_and_the_report_lists_every_config(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out"
    first = write_config(tmp_path / "a.yaml", config(output, policies=["random", "greedy"], execution=SEQUENTIAL))
    assert run_here(first, capsys)[0] == 0
    second = write_config(tmp_path / "b.yaml", config(output, policies=[
        "random", {"name": "greedy", "params": {"max_moves": 300}}], execution=SEQUENTIAL))
    status, out, err = run_here(second, capsys)
    assert status == 0, err
    assert "holds results of another config. Changes:" in err
    assert "policies[1].params.max_moves: 2000 → 300" in err
    assert "keeps citadel / random: 6 deal(s) stored" in err
    assert "plays citadel / greedy (max_moves=300) from the start: its policy parameters changed" in err
    report = (output / "report.md").read_text()
    section = report.split("## Configs this folder has seen")[1].split("\n## ")[0]
    assert section.count("\n- ") == 2 and "policies[1].params.max_moves: 2000 → 300" in section
    status, out, err = run_here(second, capsys)  # the same config again: nothing to say
    assert status == 0 and "Played 0 deal(s)" in out and "holds results" not in err


def test_a_second_run_into_a_busy_folder_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out"
    data = config(output, deals={"start": 1, "count": 40},
                  policies=[{"name": "experiment_helpers:FirstMove", "params": {"delay": 0.05}}])
    path = write_config(tmp_path / "slow.yaml", data)
    first = start("run", str(path), "--no-progress")
    deadline = time.monotonic() + 120
    while not stored_rows(output) and time.monotonic() < deadline:
        time.sleep(0.05)
    resolved = (output / "config.resolved.yaml").read_bytes()
    status, _, err = run_here(path, capsys)
    assert status == 2
    assert f"error: {output}: another simlab run is writing to this folder (pid {first.pid} " in err
    assert (output / "config.resolved.yaml").read_bytes() == resolved
    assert cli.main(["report", str(output)]) == 2  # a report would race the run's own
    assert "another simlab run is writing to this folder" in capsys.readouterr().err
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert len(stored_rows(output)) == 40  # every deal once, by the first run
    assert not (output / "simlab.lock").exists()


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_a_damaged_database_is_refused_untouched_and_can_be_recovered(
        tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out"
    path = write_config(tmp_path / "ok.yaml", config(output, execution=SEQUENTIAL))
    assert run_here(path, capsys)[0] == 0
    database = output / "results.sqlite"
    data = database.read_bytes()
    database.write_bytes(data[:len(data) // 2] if damage == "truncated" else b"not a database" * 300)
    before = folder_state(output)
    status, _, err = run_here(path, capsys)
    assert status == 2, err
    assert err.startswith(f"error: {database}: the results database is damaged")
    assert f"simlab recover {output}" in err and "start afresh" in err
    assert folder_state(output) == before  # config.resolved.yaml and the database untouched
    assert cli.main(["recover", str(output)]) == 0
    assert "6 deal(s)" in capsys.readouterr().out and (output / "results.sqlite.damaged").exists()
    status, out, err = run_here(path, capsys)
    assert status == 0 and "Played 0 deal(s)" in out, err


def test_a_folder_from_an_earlier_key_format_is_replayed_with_a_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out"
    path = write_config(tmp_path / "ok.yaml", config(output, execution=SEQUENTIAL))
    assert run_here(path, capsys)[0] == 0
    with sqlite3.connect(output / "results.sqlite") as db:  # make it look written by simlab 0.1
        (identity,), = db.execute("SELECT identity FROM cells").fetchall()
        old = json.loads(identity)
        for part in ("game", "policy"):
            del old[part]["code"]
        old_key = hashlib.sha256(json.dumps(old, sort_keys=True).encode()).hexdigest()[:24]
        db.execute("UPDATE cells SET cell = ?, identity = ?", (old_key, json.dumps(old, sort_keys=True)))
        db.execute("UPDATE deals SET cell = ?", (old_key,))
        db.execute("DROP TABLE configs")
    (output / "summary.csv").unlink()
    assert cli.main(["report", str(output)]) == 0  # the old folder still reads as it is
    assert pd.read_csv(output / "summary.csv")["deals"].tolist() == [6]
    status, out, err = run_here(path, capsys)
    assert status == 0, err
    assert "Played 6 deal(s)" in out
    assert "stored by an earlier simlab whose cell key did not include the code's version" in err
