"""Recovering a damaged results database from the folder's ``deals.csv``
(``simlab recover FOLDER``).

Only a damaged (or empty, or missing) ``results.sqlite`` is rebuilt: a sound one is
left as it is, and a sound SQLite database that is not simlab's is refused. The
damaged file is never deleted or overwritten: it is renamed ``results.sqlite.damaged``,
or ``results.sqlite.damaged.2``, ``.3``, ... when that name is taken (with its
``-wal`` and ``-shm`` files under the same number). Each row is filed under the cell
key it was played with (``deals.csv``'s ``cell`` column), with the identity the
manifest recorded for that key, so a rerun after a code or config change replays
what changed instead of reusing rows of the old code. A ``deals.csv`` without keys
(written by an earlier simlab) is refused: which code played it is unknown.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from simlab.errors import ConfigError
from simlab.experiments.frames import DEALS_CSV, KEY_COLUMN, typed_deals
from simlab.experiments.health import FOREIGN, database_problem
from simlab.experiments.lock import folder_lock
from simlab.experiments.report import MANIFEST
from simlab.experiments.schema import DATABASE_NAME, OPTIONAL_COLUMNS, ROW_COLUMNS
from simlab.experiments.space import disk_full_is_bad_input
from simlab.experiments.store import ResultStore, now

SIDE_FILES = ("", "-wal", "-shm")  # the database and SQLite's files beside it


class Recovery(NamedTuple):
    """What ``recover`` did.

    Attributes:
        rows: deals written into the rebuilt database (0 when nothing was done).
        kept: where the damaged database was kept (None: there was none, or it was sound).
        sound: the database was sound, so nothing was changed.
    """

    rows: int
    kept: Path | None
    sound: bool


def recover(folder: Path) -> Recovery:
    """Rebuild ``folder``'s damaged ``results.sqlite`` from ``deals.csv`` and ``manifest.json``.

    Failed deals are left out (a rerun retries them).

    Raises:
        ConfigError: the database is not simlab's; ``deals.csv`` or the manifest is
            missing or does not say which cell key each row was played with; the disk
            is full. Nothing is changed then.
    """
    folder = Path(folder)
    database = folder / DATABASE_NAME
    if not folder.is_dir():
        raise ConfigError(f"{folder}: expected an experiment's output folder, found "
                          f"{'a file' if folder.exists() else 'nothing'}.")
    unchanged = f"Nothing was changed: {database} is as it was before simlab recover."
    with disk_full_is_bad_input(folder, f"simlab recover {folder}", unchanged), folder_lock(folder):
        problem = database_problem(database) if database.exists() else None
        if database.exists() and problem is None:
            return Recovery(0, None, sound=True)
        if problem is not None and problem.kind == FOREIGN:
            raise ConfigError(f"{database}: expected a simlab results database (tables 'cells' and "
                              f"'deals'), found {problem.found}. Nothing was changed: recover rebuilds "
                              "only a damaged database. Move the file away to start afresh.")
        frame, records, config = _readable(folder)
        kept = _keep(database) if database.exists() else None
        try:
            _store(folder, frame, records, config)
        except BaseException:
            _restore(database, kept)
            raise
    return Recovery(len(frame), kept, sound=False)


def _store(folder: Path, frame: pd.DataFrame, records: list[dict[str, Any]], config: dict[str, Any]) -> None:
    """A new database in ``folder`` holding ``frame``'s rows under their cells."""
    with ResultStore(folder) as store:
        for record in records:
            store.add_cell(record["key"], record["identity"])
        columns = list(ROW_COLUMNS) + [c for c in OPTIONAL_COLUMNS if c in frame]
        store.add_rows(frame[columns].to_dict("records"))
        store.add_config(now(), config, records)


def _restore(database: Path, kept: Path | None) -> None:
    """Undo a recovery that stopped (a full disk, Ctrl-C): the half-made database goes, the
    damaged one comes back under its name. Why: a half-made database is a sound one, so a
    second ``simlab recover`` would leave it alone and a run would play its missing deals
    again, while the deals of ``deals.csv`` wait in the kept copy."""
    for suffix in SIDE_FILES:
        database.with_name(database.name + suffix).unlink(missing_ok=True)
    if kept is not None:
        for suffix in SIDE_FILES:
            source = kept.with_name(database.name + suffix + kept.name[len(database.name):])
            if source.exists():
                source.rename(database.with_name(database.name + suffix))


def _readable(folder: Path) -> tuple[pd.DataFrame, list[dict[str, Any]], dict[str, Any]]:
    """The rows of ``deals.csv`` to store (with their ``cell``), the manifest's cell
    records of their keys and the config the manifest recorded last.

    Raises:
        ConfigError: a file is missing, or a row's key is not one the manifest describes.
    """
    database = folder / DATABASE_NAME
    refuse = (f"Nothing was changed. Move {database} away (if present) and run the experiment "
              "again to play every deal afresh.")
    for needed in (DEALS_CSV, MANIFEST):
        if not (folder / needed).is_file():
            raise ConfigError(f"{folder}: cannot recover the database: '{needed}' is missing. {refuse}")
    raw = _deals_csv(folder / DEALS_CSV, refuse)
    if KEY_COLUMN not in raw:
        raise ConfigError(f"{folder / DEALS_CSV}: cannot recover the database: expected a '{KEY_COLUMN}' "
                          "column (the key of the code each deal was played with); this file was written "
                          "by an earlier simlab, and recover will not guess which code played it. " + refuse)
    manifest = _manifest(folder / MANIFEST)
    by_key = {record["key"]: record for record in manifest.get("cells", [])}
    unknown = raw[~raw[KEY_COLUMN].isin(by_key)]
    if len(unknown) or not manifest.get("configs"):
        where = (f"{unknown['game'].iloc[0]} / {unknown['policy'].iloc[0]} (key {unknown[KEY_COLUMN].iloc[0]})"
                 if len(unknown) else "its config")
        raise ConfigError(f"{folder / MANIFEST}: cannot recover the database: expected the cells of "
                          f"{DEALS_CSV} with their code, found none for {where} (the two files are from "
                          "different runs, or the manifest from an earlier simlab). " + refuse)
    keys = raw[KEY_COLUMN]
    try:
        frame = typed_deals(raw).assign(cell=keys.values, traceback="")
    except (KeyError, ValueError, TypeError) as error:  # a file cut short (a full disk) or edited
        raise ConfigError(f"{folder / DEALS_CSV}: cannot recover the database: expected the per-deal "
                          f"table simlab writes, found a column missing or a value of another type "
                          f"({type(error).__name__}: {error}). " + refuse) from None
    frame = frame[frame["verdict"] != "error"]
    records = [by_key[key] for key in dict.fromkeys(keys)]
    return frame, records, manifest["configs"][-1]["config"]


def _deals_csv(path: Path, refuse: str) -> pd.DataFrame:
    """``deals.csv`` as written (every value a string where it is one)."""
    try:
        return pd.read_csv(path, keep_default_na=False, dtype={KEY_COLUMN: str})
    except (OSError, ValueError, pd.errors.ParserError) as error:
        raise ConfigError(f"{path}: cannot recover the database: expected the per-deal table simlab "
                          f"writes ({type(error).__name__}: {error}). " + refuse) from None


def _manifest(path: Path) -> dict[str, Any]:
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ConfigError(f"{path}: cannot recover the database: expected the JSON manifest of the "
                          f"last report ({type(error).__name__}: {error}).") from None
    if not isinstance(manifest, dict):
        raise ConfigError(f"{path}: cannot recover the database: expected a JSON object.")
    return manifest


def _keep(database: Path) -> Path:
    """Rename the damaged database (and its ``-wal``/``-shm`` files) to the first
    ``.damaged`` name none of them has yet; return the database's new path."""
    number = 1
    while True:
        tail = ".damaged" if number == 1 else f".damaged.{number}"
        names = {suffix: database.with_name(f"{database.name}{suffix}{tail}") for suffix in SIDE_FILES}
        if not any(path.exists() for path in names.values()):
            break
        number += 1
    for suffix, name in names.items():
        source = database.with_name(database.name + suffix)
        if source.exists():
            source.rename(name)
    return names[""]
