"""The results database: one SQLite file per output folder, one row per (cell, deal).

Rows are written by the parent process as chunk results stream back, one
transaction per chunk. SQLite in WAL mode makes each committed chunk survive a
crash or ``kill -9`` of the run, so a rerun only plays what is missing. The
layout is ``schema``'s; ``frames.deals_frame`` reads the rows back as the
per-deal table.

The database also keeps every config the folder has seen (``configs``) with the
cells it had, so a rerun can say what changed and ``simlab report`` can read the
cells back without importing a user's policy module.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator

import pandas as pd

from simlab.experiments.health import check_database
from simlab.experiments.schema import (
    BOUND_COLUMNS,
    CRITICAL_COLUMNS,
    DATABASE_NAME,
    OPTIONAL_COLUMNS,
    ROW_COLUMNS,
    SCHEMA,
)


def now() -> str:
    """The time as the store records it (sessions, configs): UTC, to the second, ISO 8601."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")



class ResultStore:
    """The SQLite database of one output folder.

    Args:
        folder: the output folder (created by the caller).


    Raises:
        ConfigError: the file is not a sound simlab results database (``health.check_database``;
            nothing is written then).
    """

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / DATABASE_NAME
        if self.path.exists():
            check_database(self.path)
        else:
            _create(self.path)
        self._db = sqlite3.connect(self.path, timeout=30.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives a crash of this process (not a power cut).
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)
        self._add_optional_columns()
        self._db.commit()

    def _add_optional_columns(self) -> None:
        """Add the nullable ``OPTIONAL_COLUMNS`` to a database made before they existed
        (its rows read back as not computed)."""
        present = {row[1] for row in self._db.execute("PRAGMA table_info(deals)")}
        for column, kind in OPTIONAL_COLUMNS.items():
            if column not in present:
                self._db.execute(f"ALTER TABLE deals ADD COLUMN {column} {kind}")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add_cell(self, key: str, identity: dict[str, Any]) -> None:
        with self._db:
            self._db.execute("INSERT OR IGNORE INTO cells VALUES (?, ?)",
                             (key, json.dumps(identity, sort_keys=True)))

    def finished_deals(self, key: str) -> set[int]:
        """Deals of the cell that played to a verdict (failed deals are retried)."""
        rows = self._db.execute("SELECT deal FROM deals WHERE cell = ? AND verdict != 'error'", (key,))
        return {deal for (deal,) in rows}

    def add_rows(self, rows: Iterable[dict[str, Any]]) -> None:
        """Write one chunk's rows in one transaction (a rerun replaces failed rows)."""
        values = [tuple(row[c] for c in ROW_COLUMNS) + tuple(_optional(row.get(c)) for c in CRITICAL_COLUMNS)
                  + tuple(_optional(row.get(c), float) for c in BOUND_COLUMNS) for row in rows]
        columns = ROW_COLUMNS + CRITICAL_COLUMNS + BOUND_COLUMNS
        with self._db:
            self._db.executemany(f"INSERT OR REPLACE INTO deals ({', '.join(columns)}) "
                                 f"VALUES ({', '.join('?' * len(columns))})", values)

    def rows(self, keys: list[str]) -> pd.DataFrame:
        """Every stored row of the cells ``keys``."""
        marks = ", ".join("?" * len(keys))
        query = f"SELECT {', '.join(ROW_COLUMNS + tuple(OPTIONAL_COLUMNS))} FROM deals WHERE cell IN ({marks})"
        return pd.read_sql_query(query, self._db, params=keys)

    def cpu_per_cell(self, keys: list[str]) -> dict[str, tuple[int, float]]:
        """Per cell of ``keys`` with deals played to a verdict: (deals, mean CPU seconds),
        counted by SQLite, so no stored row is read into memory."""
        marks = ", ".join("?" * len(keys))
        query = (f"SELECT cell, COUNT(*), AVG(cpu_seconds) FROM deals WHERE cell IN ({marks}) "
                 "AND verdict != 'error' GROUP BY cell")
        return {cell: (int(count), float(mean)) for cell, count, mean in self._db.execute(query, keys)}

    def start_session(self, started: str, planned: int) -> int:
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO sessions (started, status, planned) VALUES (?, 'running', ?)",
                (started, planned))
        return int(cursor.lastrowid)

    def finish_session(self, session: int, finished: str, status: str, played: int) -> None:
        with self._db:
            self._db.execute("UPDATE sessions SET finished = ?, status = ?, played = ? WHERE rowid = ?",
                             (finished, status, played, session))

    def configs(self) -> list[dict[str, Any]]:
        """Every config recorded in this folder, oldest first: recorded, config (a dict), cells."""
        rows = self._db.execute("SELECT recorded, config, cells FROM configs ORDER BY rowid").fetchall()
        return [{"recorded": recorded, "config": json.loads(config), "cells": json.loads(cells)}
                for recorded, config, cells in rows]

    def add_config(self, recorded: str, config: dict[str, Any], cells: list[dict[str, Any]]) -> None:
        with self._db:
            self._db.execute("INSERT INTO configs VALUES (?, ?, ?)",
                             (recorded, json.dumps(config), json.dumps(cells, sort_keys=True)))

    def cell_identities(self) -> dict[str, dict[str, Any]]:
        """Every cell ever stored here: key to identity."""
        return {key: json.loads(identity)
                for key, identity in self._db.execute("SELECT cell, identity FROM cells")}

    def deal_counts(self) -> dict[str, int]:
        """Stored deals (played to a verdict) per cell key."""
        rows = self._db.execute("SELECT cell, COUNT(*) FROM deals WHERE verdict != 'error' GROUP BY cell")
        return dict(rows.fetchall())

    def sessions(self) -> Iterator[dict[str, Any]]:
        """Every run that wrote to this database, oldest first."""
        cursor = self._db.execute("SELECT started, finished, status, planned, played FROM sessions "
                                  "ORDER BY rowid")
        for started, finished, status, planned, played in cursor:
            yield {"started": started, "finished": finished, "status": status,
                   "planned": planned, "played": played}


def _create(path: Path) -> None:
    """Make a new, empty results database at ``path`` in one step: built beside it and
    renamed into place, so a run stopped at any moment leaves no file or a whole one
    (never an empty or half-made ``results.sqlite``, which ``health.check_database`` refuses)."""
    partial = path.with_name(path.name + ".new")
    partial.unlink(missing_ok=True)  # left by a run stopped while making it
    try:
        db = sqlite3.connect(partial)
        try:
            db.executescript(SCHEMA)
        finally:
            db.close()
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def _optional(value: Any, kind: type = int) -> int | float | None:
    """An optional count (or value) as SQLite takes it: None for a missing value (None, NaN, pandas' NA)."""
    return None if value is None or value == "" or pd.isna(value) else kind(value)

