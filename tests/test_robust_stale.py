"""Results never go stale silently (issue 16): a user policy's source is part of its cells'
key; a rerun with another config says what changed and which cells it keeps or replays; the
report lists every config the folder has seen; two runs never write one folder at once; a
damaged database is refused with a way out; ``simlab report`` imports no user module."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path

import pytest
from robust_helpers import config, folder_state, simlab, start, stored_rows, write_config

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
    again = simlab("run", str(path), cwd=cwd)
    assert "Played 0 deal(s)" in again.stdout and "holds results" not in again.stderr


def test_a_changed_config_says_what_changed_and_the_report_lists_every_config(tmp_path: Path) -> None:
    output = tmp_path / "out"
    first = write_config(tmp_path / "a.yaml", config(output, policies=["random", "greedy"]))
    assert simlab("run", str(first)).returncode == 0
    second = write_config(tmp_path / "b.yaml", config(output, policies=[
        "random", {"name": "greedy", "params": {"max_moves": 300}}]))
    result = simlab("run", str(second))
    assert result.returncode == 0, result.stderr
    assert "holds results of another config. Changes:" in result.stderr
    assert "policies[1].params.max_moves: 2000 → 300" in result.stderr
    assert "keeps citadel / random: 6 deal(s) stored" in result.stderr
    assert "plays citadel / greedy from the start: its policy parameters changed" in result.stderr
    report = (output / "report.md").read_text()
    section = report.split("## Configs this folder has seen")[1]
    assert section.count("\n- ") >= 2 and "policies[1].params.max_moves: 2000 → 300" in section


def test_a_second_run_into_a_busy_folder_refuses(tmp_path: Path) -> None:
    output = tmp_path / "out"
    data = config(output, deals={"start": 1, "count": 40},
                  policies=[{"name": "experiment_helpers:FirstMove", "params": {"delay": 0.05}}])
    path = write_config(tmp_path / "slow.yaml", data)
    first = start("run", str(path), "--no-progress")
    deadline = time.monotonic() + 120
    while not stored_rows(output) and time.monotonic() < deadline:
        time.sleep(0.05)
    resolved = (output / "config.resolved.yaml").read_bytes()
    second = simlab("run", str(path), "--no-progress")
    assert second.returncode == 2
    assert f"error: {output}: another simlab run is writing to this folder (pid {first.pid} " in second.stderr
    assert (output / "config.resolved.yaml").read_bytes() == resolved
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert len(stored_rows(output)) == 40
    assert not (output / "simlab.lock").exists()


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_a_damaged_database_is_refused_untouched_and_can_be_recovered(tmp_path: Path, damage: str) -> None:
    output = tmp_path / "out"
    path = write_config(tmp_path / "ok.yaml", config(output))
    assert simlab("run", str(path)).returncode == 0
    database = output / "results.sqlite"
    data = database.read_bytes()
    database.write_bytes(data[:len(data) // 2] if damage == "truncated" else b"not a database" * 300)
    before = folder_state(output)
    result = simlab("run", str(path))
    assert result.returncode == 2, result.stderr
    assert f"error: {database}: the results database is damaged" in result.stderr
    assert f"simlab recover {output}" in result.stderr and "start afresh" in result.stderr
    assert folder_state(output) == before  # config.resolved.yaml and the database untouched
    recovered = simlab("recover", str(output))
    assert recovered.returncode == 0, recovered.stderr
    assert "6 deal(s)" in recovered.stdout and (output / "results.sqlite.damaged").exists()
    rerun = simlab("run", str(path))
    assert rerun.returncode == 0 and "Played 0 deal(s)" in rerun.stdout, rerun.stderr


def test_a_folder_from_an_earlier_key_format_is_replayed_with_a_message(tmp_path: Path) -> None:
    output = tmp_path / "out"
    path = write_config(tmp_path / "ok.yaml", config(output))
    assert simlab("run", str(path)).returncode == 0
    with sqlite3.connect(output / "results.sqlite") as db:  # make it look written by simlab 0.1
        (key, identity), = db.execute("SELECT cell, identity FROM cells").fetchall()
        old = json.loads(identity)
        for part in ("game", "policy"):
            del old[part]["code"]
        old_key = hashlib.sha256(json.dumps(old, sort_keys=True).encode()).hexdigest()[:24]
        db.execute("UPDATE cells SET cell = ?, identity = ?", (old_key, json.dumps(old, sort_keys=True)))
        db.execute("UPDATE deals SET cell = ?", (old_key,))
        db.execute("DROP TABLE configs")
    result = simlab("run", str(path))
    assert result.returncode == 0, result.stderr
    assert "Played 6 deal(s)" in result.stdout
    assert "stored by an earlier simlab whose cell key did not include the code's version" in result.stderr


def test_report_rebuilds_without_importing_user_policies(tmp_path: Path) -> None:
    path, output, cwd = user_folder(tmp_path)
    assert simlab("run", str(path), cwd=cwd).returncode == 0
    (cwd / "mine.py").write_text("raise SystemExit('must not be imported')\n")
    (output / "summary.csv").unlink()
    result = simlab("report", str(output), cwd=cwd)
    assert result.returncode == 0, result.stderr
    assert "mine" in (output / "summary.csv").read_text()
