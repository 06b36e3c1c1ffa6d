"""Recovering never loses or resurrects results: a full disk is bad input and
the rerun resumes; ``simlab recover`` rebuilds only a damaged database, never overwrites a
kept copy and files each row under the cell key it was played with; an empty file or a
foreign SQLite database in the folder is refused with its bytes untouched."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from run_helpers import ENV, SEQUENTIAL, SIMLAB, config, folder_state, run_here, simlab, write_config

from simlab import cli
from simlab.cli import experiments as experiment_commands
from simlab.experiments.health import check_database
from simlab.experiments.schema import SCHEMA
from simlab.experiments.store import ResultStore

DATABASE = "results.sqlite"


def stored_count(output: Path) -> int:
    with sqlite3.connect(f"file:{output / DATABASE}?mode=ro", uri=True) as db:
        return db.execute("SELECT COUNT(*) FROM deals WHERE verdict != 'error'").fetchone()[0]


# --- a full disk -------------------------------------------------------------------------

# Inside a user and mount namespace (no root needed): a 1 MiB tmpfs, nearly filled, holds
# the output folder, so SQLite and every file write meet a real ENOSPC, as on a user's full
# disk. The filler is then removed ("space freed") and the same command run again.
FULL_DISK_SCRIPT = """
set -u
mount -t tmpfs -o size=1m none "$DISK" || exit 99
mkdir "$DISK/out"
head -c 920000 /dev/zero > "$DISK/filler"
"$@" > "$LOGS/1.out" 2> "$LOGS/1.err"; echo $? > "$LOGS/1.status"
ls "$DISK/out" > "$LOGS/1.files"
cp "$DISK/out/results.sqlite"* "$LOGS/"
rm "$DISK/filler"
"$@" > "$LOGS/2.out" 2> "$LOGS/2.err"; echo $? > "$LOGS/2.status"
cp "$DISK/out/deals.csv" "$LOGS/"
"""


def in_a_mount_namespace(script: str, args: list[str], env: dict[str, str], what: str) -> None:
    """Run the shell ``script`` with ``args`` in a user and mount namespace (root there, so it
    can mount without root here); skip the test where that cannot be done (no unshare(1), or
    mounts refused: the script exits 99 when its mount fails). ``what`` the mount made, for
    the reason of a skip."""
    if shutil.which("unshare") is None:
        pytest.skip(f"needs unshare(1) to mount {what} without root")
    result = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "namespace",
                             *args], env={**ENV, **env}, capture_output=True, text=True, timeout=240)
    if result.returncode == 99 or "unshare:" in result.stderr:  # a mount refused (exit 99), or the namespace
        pytest.skip(f"cannot mount {what} in a user namespace here: {result.stderr.strip()[:200]}")


def test_a_full_disk_is_bad_input_and_the_rerun_resumes(tmp_path: Path) -> None:
    disk, logs = tmp_path / "disk", tmp_path / "logs"
    disk.mkdir()
    logs.mkdir()
    path = write_config(tmp_path / "full.yaml", config(
        disk / "out", deals={"start": 1, "count": 30}, execution={"backend": "sequential", "chunk_size": 1}))
    in_a_mount_namespace(FULL_DISK_SCRIPT, [*SIMLAB, "run", str(path), "--no-progress"],
                         {"DISK": str(disk), "LOGS": str(logs)}, "a small tmpfs")
    first_err = (logs / "1.err").read_text()
    assert (logs / "1.status").read_text().strip() == "2", first_err
    assert first_err.startswith(f"error: {disk / 'out'}: the disk is full")
    assert f"Every deal finished before is saved in {disk / 'out' / DATABASE}." in first_err
    assert "(or run into a folder on another disk: --output)" in first_err
    assert "run the same command again" in first_err and "Traceback" not in first_err
    stored = stored_count(logs)  # the copy of what the first run left: its finished deals
    assert 0 < stored < 30
    second_err = (logs / "2.err").read_text()
    assert (logs / "2.status").read_text().strip() == "0", second_err
    assert "damaged" not in second_err
    assert f"Played {30 - stored} deal(s); 30 stored in total." in (logs / "2.out").read_text()
    assert len(pd.read_csv(logs / "deals.csv")) == 30


def sqlite_full_error() -> sqlite3.OperationalError:
    """The error SQLite raises when the database cannot grow (a real one: ``SQLITE_FULL``)."""
    db = sqlite3.connect(":memory:")
    db.execute("PRAGMA max_page_count = 1")
    try:
        db.execute("CREATE TABLE t (x)")
        db.execute("CREATE TABLE u (x)")
    except sqlite3.OperationalError as error:
        return error
    finally:
        db.close()
    raise AssertionError("SQLite grew past max_page_count")


def test_a_database_that_cannot_grow_stops_with_status_2_and_keeps_its_deals(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no tmpfs can be mounted: the store's fifth chunk meets SQLite's SQLITE_FULL."""
    output = tmp_path / "out"
    path = write_config(tmp_path / "c.yaml", config(output, deals={"start": 1, "count": 12},
                                                    execution={"backend": "sequential", "chunk_size": 2}))
    original, calls = ResultStore.add_rows, []

    def add_rows(self: ResultStore, rows: list[dict]) -> None:
        calls.append(len(rows))
        if len(calls) == 5:
            raise sqlite_full_error()
        original(self, rows)

    monkeypatch.setattr(ResultStore, "add_rows", add_rows)
    status, _, err = run_here(path, capsys)
    assert status == 2, err
    assert err.startswith(f"error: {output}: the disk is full: writing the output folder failed "
                          "(OperationalError: database or disk is full)")
    assert f"Every deal finished before is saved in {output / DATABASE}. Free some space" in err
    assert stored_count(output) == 8  # the four chunks stored before
    check_database(output / DATABASE)  # sound: a rerun resumes (the tmpfs test above reruns)


# No inode left on the disk for SQLite's journal when the database is made (a real full disk:
# "unable to open database file"); then space is freed and the same command run again.
NO_INODE_SCRIPT = """
set -u
mount -t tmpfs -o size=1m,nr_inodes=4 none "$DISK" || exit 99
mkdir "$DISK/out"
"$@" > "$LOGS/1.out" 2> "$LOGS/1.err"; echo $? > "$LOGS/1.status"
ls -A "$DISK/out" > "$LOGS/1.files"
umount "$DISK"
"$@" > "$LOGS/2.out" 2> "$LOGS/2.err"; echo $? > "$LOGS/2.status"
"""


def test_a_disk_that_cannot_take_the_new_database_is_status_2(tmp_path: Path) -> None:
    """Issue 44: the database could not be made (its schema written) on a full disk: status 70."""
    disk, logs = tmp_path / "disk", tmp_path / "logs"
    disk.mkdir()
    logs.mkdir()
    path = write_config(tmp_path / "full.yaml", config(disk / "out", execution=SEQUENTIAL))
    in_a_mount_namespace(NO_INODE_SCRIPT, [*SIMLAB, "run", str(path), "--no-progress"],
                         {"DISK": str(disk), "LOGS": str(logs)}, "a small tmpfs")
    first_err = (logs / "1.err").read_text()
    assert (logs / "1.status").read_text().strip() == "2", first_err
    assert first_err.startswith(f"error: {disk / 'out'}: the disk failed a write (it may be full, or failing): "
                                "writing the output folder failed (OperationalError: unable to open database file)")
    assert "Traceback" not in first_err and "run the same command again" in first_err
    # the database was never made: no deal is said to be saved in it
    assert f"No deal was stored: the database {disk / 'out' / DATABASE} could not be made." in first_err
    assert "Every deal finished before" not in first_err
    assert (logs / "1.files").read_text().split() == []  # no half-made database, no lock left
    assert (logs / "2.status").read_text().strip() == "0", (logs / "2.err").read_text()


def test_a_disk_io_error_while_the_database_is_made_is_status_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's "disk I/O error" (SQLITE_IOERR_WRITE, as a full tmpfs gave the issue's
    reporter) while the schema of a new database is written: status 2 naming the folder,
    no database left half-made, and the same command runs once the disk is sound."""
    output = tmp_path / "out"
    path = write_config(tmp_path / "c.yaml", config(output, execution=SEQUENTIAL))
    connect = sqlite3.connect

    class FailingDisk:
        """A connection to the database being made whose schema meets a failing write."""

        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def executescript(self, script: str) -> None:
            error = sqlite3.OperationalError("disk I/O error")
            error.sqlite_errorcode, error.sqlite_errorname = 778, "SQLITE_IOERR_WRITE"
            raise error

        def close(self) -> None:
            self.db.close()

    def failing(database: object, *args: object, **kwargs: object) -> object:
        db = connect(database, *args, **kwargs)
        return FailingDisk(db) if str(database).endswith(".new") else db

    monkeypatch.setattr(sqlite3, "connect", failing)
    status, _, err = run_here(path, capsys)
    assert status == 2, err
    assert err.startswith(f"error: {output}: the disk failed a write (it may be full, or failing): writing the "
                          "output folder failed (OperationalError: disk I/O error). No deal was stored: "
                          f"the database {output / DATABASE} could not be made. Free some space")
    assert sorted(p.name for p in output.iterdir()) == []
    monkeypatch.setattr(sqlite3, "connect", connect)
    assert run_here(path, capsys)[0] == 0 and stored_count(output) == 6


# A read-only view of a folder (a bind mount remounted read-only, in a user and mount
# namespace: root's chmod would not stop root), then simlab report and simlab recover in it.
READ_ONLY_SCRIPT = """
set -u
mount --bind "$FOLDER" "$FOLDER" && mount -o remount,bind,ro "$FOLDER" || exit 99
"$@" report "$FOLDER" > "$LOGS/report.out" 2> "$LOGS/report.err"; echo $? > "$LOGS/report.status"
"$@" recover "$FOLDER" > "$LOGS/recover.out" 2> "$LOGS/recover.err"; echo $? > "$LOGS/recover.status"
"""


def test_report_and_recover_on_a_read_only_folder_are_status_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44: the lock file could not be made, status 70. Now status 2 naming the folder,
    and nothing in it changed."""
    output, logs = tmp_path / "out", tmp_path / "logs"
    logs.mkdir()
    assert run_here(write_config(tmp_path / "c.yaml", config(output, execution=SEQUENTIAL)), capsys)[0] == 0
    before = folder_state(output)
    in_a_mount_namespace(READ_ONLY_SCRIPT, SIMLAB, {"FOLDER": str(output), "LOGS": str(logs)},
                         "a folder read-only")
    for command in ("report", "recover"):
        err = (logs / f"{command}.err").read_text()
        assert (logs / f"{command}.status").read_text().strip() == "2", err
        assert err.startswith(f"error: {output}: the folder must be writable: simlab writes its tables, figures, "
                              "report and database there, and first its lock file simlab.lock, which could not "
                              "be made (Read-only file system). Nothing was changed."), err
    assert folder_state(output) == before


def test_a_folder_that_takes_no_lock_file_is_status_2_in_process(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above without a mount, so that it runs wherever the suite runs: the lock file
    cannot be made (EROFS, as on a read-only folder; EACCES, as in a folder of another user).
    simlab report, simlab recover (of a damaged database, which it would otherwise replace)
    and a rerun each stop with status 2 naming the folder, and no byte in it changes."""
    import errno
    import os

    output = tmp_path / "out"
    path = write_config(tmp_path / "c.yaml", config(output, execution=SEQUENTIAL))
    assert run_here(path, capsys)[0] == 0
    (output / DATABASE).write_bytes(b"damaged" * 500)
    before = folder_state(output)
    real_open = os.open
    for code in (errno.EROFS, errno.EACCES):
        def refusing(file: object, flags: int, *args: object, code: int = code, **kwargs: object) -> int:
            if str(file).endswith("simlab.lock"):
                raise OSError(code, os.strerror(code), str(file))
            return real_open(file, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", refusing)
        for command in (["report", str(output)], ["recover", str(output)], ["run", str(path), "--no-progress"]):
            assert cli.main(command) == 2, command
            err = capsys.readouterr().err
            assert err.startswith(f"error: {output}: the folder must be writable: simlab writes its tables, figures, "
                                  "report and database there, and first its lock file simlab.lock, which could not "
                                  f"be made ({os.strerror(code)}). Nothing was changed."), (command, err)
            assert folder_state(output) == before, command
    monkeypatch.setattr(os, "open", real_open)
    assert cli.main(["recover", str(output)]) == 0 and stored_count(output) == 6  # the same folder, writable


def test_a_full_disk_stops_recover_with_the_damaged_database_back_in_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A recovery that meets a full disk while it fills the new database undoes itself: the
    half-made database (sound, so a second recover would have left it alone and a run would
    have played its missing deals again) is removed and the damaged one is back under its
    name; the message says so, offers recover again (not run's --output), and recover then
    rebuilds it all."""
    output = tmp_path / "out"
    path = write_config(tmp_path / "c.yaml", config(output, execution=SEQUENTIAL))
    assert run_here(path, capsys)[0] == 0
    (output / DATABASE).write_bytes(b"damaged" * 500)
    before = folder_state(output)
    original = ResultStore.add_rows

    def add_rows(self: ResultStore, rows: list[dict]) -> None:
        raise sqlite_full_error()

    monkeypatch.setattr(ResultStore, "add_rows", add_rows)
    assert cli.main(["recover", str(output)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {output}: the disk is full: writing the output folder failed (OperationalError: "
                          f"database or disk is full). Nothing was changed: {output / DATABASE} is as it was before "
                          f"simlab recover. Free some space on that disk and run simlab recover {output} again to "
                          "go on."), err
    assert folder_state(output) == before
    monkeypatch.setattr(ResultStore, "add_rows", original)
    assert cli.main(["recover", str(output)]) == 0
    assert stored_count(output) == 6 and (output / "results.sqlite.damaged").read_bytes() == b"damaged" * 500


def test_a_full_disk_stops_report_with_its_own_command_to_rerun(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """simlab report has no --output: its full-disk message offers report again."""
    import errno

    from simlab.experiments import rebuild

    output = tmp_path / "out"
    assert run_here(write_config(tmp_path / "c.yaml", config(output, execution=SEQUENTIAL)), capsys)[0] == 0

    def full(*_: object, **__: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(rebuild, "write_reports", full)
    assert cli.main(["report", str(output)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {output}: the disk is full: writing the output folder failed (OSError: [Errno "
                          f"28] No space left on device). Every deal finished before is saved in "
                          f"{output / DATABASE}. Free some space on that disk and run simlab report {output} "
                          "again to go on."), err
    assert stored_count(output) == 6


def test_deals_committed_only_in_the_wal_file_are_read_not_called_damaged(tmp_path: Path) -> None:
    """What a run stopped by a full disk leaves: committed pages in ``-wal`` alone (the
    check used to read the database file without it and call the folder damaged)."""
    writer = sqlite3.connect(tmp_path / DATABASE)  # made in WAL mode, as simlab did before
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")  # as when no checkpoint could be written
    writer.executescript(SCHEMA)
    writer.executemany("INSERT INTO deals VALUES ('c', ?, 'won', 'won', 1, 52, 0, 0.0, '', '')",
                       [(d,) for d in range(1, 60)])
    writer.commit()
    left = tmp_path / "left"
    left.mkdir()
    for suffix in ("", "-wal"):  # the files as a process that died with the store open leaves them
        shutil.copy(tmp_path / f"{DATABASE}{suffix}", left / f"{DATABASE}{suffix}")
    writer.close()
    immutable = sqlite3.connect(f"file:{left / DATABASE}?mode=ro&immutable=1", uri=True)
    with pytest.raises(sqlite3.DatabaseError):  # the database file alone lacks the tables
        immutable.execute("SELECT COUNT(*) FROM deals").fetchone()
    immutable.close()
    before = folder_state(left)
    check_database(left / DATABASE)
    assert folder_state(left) == before  # read only: no file changed, no -shm left behind
    with ResultStore(left) as store:
        assert store.finished_deals("c") == set(range(1, 60))


# --- simlab recover ----------------------------------------------------------------------

def test_recover_leaves_a_sound_database_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out"
    path = write_config(tmp_path / "ok.yaml", config(output, execution=SEQUENTIAL))
    assert run_here(path, capsys)[0] == 0
    before = folder_state(output)
    for _ in range(2):
        assert cli.main(["recover", str(output)]) == 0
        out, _ = capsys.readouterr()
        assert out.startswith(f"{output}/results.sqlite is sound: nothing to recover, nothing was changed.")
        assert folder_state(output) == before


def test_recover_keeps_every_damaged_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out"
    path = write_config(tmp_path / "ok.yaml", config(output, execution=SEQUENTIAL))
    assert run_here(path, capsys)[0] == 0
    database = output / DATABASE
    kept = []
    for damage in (b"first damage" * 100, b"second damage" * 100):
        database.write_bytes(damage)
        assert cli.main(["recover", str(output)]) == 0
        kept.append(capsys.readouterr().out)
    assert "kept as " + str(output / "results.sqlite.damaged") + "." in kept[0]
    assert "kept as " + str(output / "results.sqlite.damaged.2") + "." in kept[1]
    assert (output / "results.sqlite.damaged").read_bytes() == b"first damage" * 100
    assert (output / "results.sqlite.damaged.2").read_bytes() == b"second damage" * 100
    status, out, err = run_here(path, capsys)
    assert status == 0 and "Played 0 deal(s); 6 stored in total." in out, err


POLICY = '''\
from simlab import Policy


class Mine(Policy):
    """The first legal move."""

    def choose(self, game, observation, moves, rng):
        return moves[0]  # VERSION
'''


def test_recovered_rows_keep_the_key_of_the_code_that_played_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "recovered_policy.py"  # a name no other test imports (the first run is in-process)
    module.write_text(POLICY)
    monkeypatch.syspath_prepend(str(tmp_path))
    output = tmp_path / "out"
    path = write_config(tmp_path / "mine.yaml", config(output, policies=[
        "random", {"name": "recovered_policy:Mine", "label": "mine"}], execution=SEQUENTIAL))
    assert run_here(path, capsys)[0] == 0
    module.write_text(POLICY.replace("moves[0]  # VERSION", "moves[-1]  # VERSION 2"))
    (output / DATABASE).write_bytes(b"\0" * 5000)  # damaged after the policy was edited
    assert cli.main(["recover", str(output)]) == 0
    assert "12 deal(s), each under the cell key it was played with" in capsys.readouterr().out
    rerun = simlab("run", str(path), "--no-progress", cwd=tmp_path)  # a fresh process: the edited code
    assert rerun.returncode == 0, rerun.stderr
    assert "Played 6 deal(s); 12 stored in total." in rerun.stdout  # the edited policy's deals afresh
    assert "plays citadel / mine from the start: its module's source changed" in rerun.stderr
    assert "keeps citadel / random: 6 deal(s) stored" in rerun.stderr
    assert stored_count(output) == 18  # the old code's rows are kept, under the old code's key


@pytest.mark.parametrize("change", ["no keys", "cut short"])
def test_recover_refuses_a_deals_csv_it_cannot_trust(
        tmp_path: Path, change: str, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out"
    path = write_config(tmp_path / "ok.yaml", config(output, execution=SEQUENTIAL))
    assert run_here(path, capsys)[0] == 0
    csv = output / "deals.csv"
    if change == "no keys":  # as an earlier simlab wrote it
        pd.read_csv(csv, keep_default_na=False).drop(columns="cell").to_csv(csv, index=False)
    else:  # as a full disk leaves it: the last row cut in its key
        csv.write_bytes(csv.read_bytes()[:-10])
    (output / DATABASE).write_bytes(b"")
    before = folder_state(output)
    assert cli.main(["recover", str(output)]) == 2
    err = capsys.readouterr().err
    if change == "no keys":
        assert err.startswith(f"error: {csv}: cannot recover the database: expected a 'cell' column")
        assert "will not guess" in err
    else:
        assert err.startswith(f"error: {output / 'manifest.json'}: cannot recover the database: expected the "
                              "cells of deals.csv with their code, found none for citadel / random (key ")
    assert folder_state(output) == before


# --- files that are not a results database -----------------------------------------------

def foreign_database(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE deals (id INTEGER, name TEXT)")
        db.execute("INSERT INTO deals VALUES (1, 'mine')")
    db.close()


@pytest.mark.parametrize("kind", ["empty", "foreign"])
def test_a_file_that_is_no_results_database_is_refused_untouched(
        tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out"
    output.mkdir()
    database = output / DATABASE
    if kind == "empty":
        database.write_bytes(b"")
    else:
        foreign_database(database)
    before = folder_state(output)
    path = write_config(tmp_path / "ok.yaml", config(output, execution=SEQUENTIAL))
    status, out, err = run_here(path, capsys)
    assert status == 2, err
    if kind == "empty":
        assert err.startswith(f"error: {database}: the results database is damaged (an empty file, 0 bytes, "
                              "where a SQLite database was expected). Nothing was changed.")
    else:
        assert err.startswith(f"error: {database}: expected a simlab results database (tables 'cells' and "
                              "'deals'), found a SQLite database without a 'cells' table (its tables: deals). "
                              "Nothing was changed.")
    assert folder_state(output) == before  # the same bytes, and no file added
    if kind == "foreign":  # recover will not take it for a damaged database either
        assert cli.main(["recover", str(output)]) == 2
        assert "recover rebuilds only a damaged database" in capsys.readouterr().err
        assert folder_state(output) == before


def test_the_readmes_offer_report_and_recover_only_options_they_have() -> None:
    """Issue 44: experiments/README.md's "Recovering" offered --progress / --no-progress,
    which simlab recover refuses. Every option named in that section, and on a line of
    either README that runs simlab report or simlab recover, is one the command has."""
    import argparse
    import re

    from run_helpers import REPO

    parser = argparse.ArgumentParser()
    experiment_commands.add_parsers(parser.add_subparsers(dest="command"))
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command in ("report", "recover"):
        known = {option for action in subparsers.choices[command]._actions for option in action.option_strings}
        offered = set()
        for readme in (REPO / "README.md", REPO / "experiments" / "README.md"):
            text = readme.read_text(encoding="utf-8")
            if command == "recover":
                offered |= set(re.findall(r"--[a-z][a-z-]*", text.split("### Recovering", 1)[-1].split("\n#", 1)[0]))
            for line in text.splitlines():
                for call in re.findall(rf"simlab {command} [^`]*", line):
                    offered |= set(re.findall(r"--[a-z][a-z-]*", call))
        assert offered <= known, (command, offered - known)
