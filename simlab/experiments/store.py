"""The results database: one SQLite file per output folder, one row per (cell, deal).

Rows are written by the parent process as chunk results stream back, one
transaction per chunk. SQLite in WAL mode makes each committed chunk survive a
crash or ``kill -9`` of the run, so a rerun only plays what is missing.
``deals_frame`` reads them back as the per-deal table (``DEAL_COLUMNS``) that
the runner returns and every report table is computed from.

A *cell* is one game with its resolved parameters, version and code, one
policy with its resolved parameters, version and code (``Component.code``: the
source of a user policy's module, the simlab version for a built-in), and the
root seed. Its key is a hash of exactly these, so results of different
parameters or code never mix; labels and execution settings are not part of it.

A ladder's extra tries of a stochastic rung (``ExperimentConfig.ladder``) are cells
of their own (``try_cells``): try ``t`` of a cell is keyed by the cell's key and
``t``, so the per-deal table keeps one row per policy and deal (its first try, the
ordinary play) and a folder without a ladder reads as before.

The database also keeps every config the folder has seen (``configs``) with the
cells it had, so a rerun can say what changed and ``simlab report`` can read the
cells back without importing a user's policy module.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator

import pandas as pd

from simlab.errors import ConfigError
from simlab.experiments.config import Component, ExperimentConfig
from simlab.games import make_game
from simlab.policies.catalog import make_policy

DATABASE_NAME = "results.sqlite"
DEALS_CSV = "deals.csv"  # the per-deal table a report writes beside it
ROW_COLUMNS = ("cell", "deal", "verdict", "end_reason", "moves", "cards_home", "nodes",
               "cpu_seconds", "error", "traceback")
# The per-deal table (``deals_frame``): one row per (game, policy, deal).
DEAL_COLUMNS = ("game", "policy", "information", "deal", "verdict", "end_reason", "moves", "cards_home", "nodes",
                "cpu_seconds", "error")
# Optional per-deal counts, NULL where a policy did not compute them: the critical
# decisions along a won line (``PlayRecord.critical*``, the solver's ``probe_budget``).
# Columns added to the database after its first release (``_add_optional_columns``).
CRITICAL_COLUMNS = ("critical_decisions", "decision_positions", "critical_undecided")
# Their columns in the per-deal table, present only when some deal of it has them
# (``critical_share`` is derived): tables of other experiments keep their columns.
DEAL_CRITICAL_COLUMNS = ("critical_decisions", "decision_positions", "critical_share", "critical_undecided")
# The per-deal value of a policy that bounds perfect play (``PlayRecord.value``,
# ``Policy.bound``), NULL for a player; in the per-deal table only when some deal has one.
BOUND_COLUMNS = ("bound_value",)
# Every optional column and its SQLite type (``_add_optional_columns``).
OPTIONAL_COLUMNS = {**{c: "INTEGER" for c in CRITICAL_COLUMNS}, **{c: "REAL" for c in BOUND_COLUMNS}}
# What the policy of a cell knew (``information_label``): every table says which it shows.
# ``relaxation``: not a player but an upper bound on every fair player (``Policy.bound``).
OPEN, THOUGHTFUL, FAIR, RELAXATION = "open", "thoughtful", "fair", "relaxation"
# The last column of ``deals.csv`` (not of the per-deal table): each row's cell key, so
# ``simlab recover`` files a row under the key it was played with, whatever the code is now.
KEY_COLUMN = "cell"
TIMING_COLUMNS = ("cpu_seconds",)  # differ from run to run; leave out of equality checks

_SCHEMA = """
CREATE TABLE IF NOT EXISTS cells (
    cell TEXT PRIMARY KEY, identity TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deals (
    cell TEXT NOT NULL, deal INTEGER NOT NULL, verdict TEXT NOT NULL, end_reason TEXT NOT NULL,
    moves INTEGER NOT NULL, cards_home INTEGER NOT NULL, nodes INTEGER NOT NULL,
    cpu_seconds REAL NOT NULL, error TEXT NOT NULL, traceback TEXT NOT NULL,
    PRIMARY KEY (cell, deal)
);
CREATE TABLE IF NOT EXISTS sessions (
    started TEXT NOT NULL, finished TEXT, status TEXT NOT NULL, planned INTEGER NOT NULL,
    played INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS configs (
    recorded TEXT NOT NULL, config TEXT NOT NULL, cells TEXT NOT NULL
);
"""


def now() -> str:
    """The time as the store records it (sessions, configs): UTC, to the second, ISO 8601."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def cell_identity(game: Component, policy: Component, root_seed: int) -> dict[str, Any]:
    """Everything a cell's results depend on, and nothing else."""
    return {
        "game": {"name": game.name, "version": game.version, "params": game.params, "code": game.code},
        "policy": {"name": policy.name, "version": policy.version, "params": policy.params,
                   "code": policy.code},
        "root_seed": root_seed,
    }


def cell_key(game: Component, policy: Component, root_seed: int) -> str:
    """A stable hash of the cell's identity (the same in every process and run)."""
    return _hash(cell_identity(game, policy, root_seed))


def legacy_cell_key(game: Component, policy: Component, root_seed: int) -> str:
    """The key simlab 0.1 gave the cell (its identity had no ``code``), for reading old folders."""
    identity = cell_identity(game, policy, root_seed)
    for part in ("game", "policy"):
        del identity[part]["code"]
    return _hash(identity)


def _hash(identity: dict[str, Any]) -> str:
    text = json.dumps(identity, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


@dataclass(frozen=True)
class Cell:
    """One game x policy pair of the experiment and its database key.

    ``information`` is the stored ``information_label`` of a cell read back from
    the database (empty: compute it). ``attempt`` is 0 for an ordinary cell and
    ``t`` >= 1 for a ladder's extra try ``t`` of a stochastic rung (``try_cells``).
    """

    key: str
    game: Component
    policy: Component
    information: str = ""
    attempt: int = 0

    def identity(self, root_seed: int) -> dict[str, Any]:
        """What the database records for the cell (``cells`` table)."""
        identity = cell_identity(self.game, self.policy, root_seed)
        return {**identity, "try": self.attempt} if self.attempt else identity


def cells_of(config: ExperimentConfig) -> list[Cell]:
    """Every (game, policy) cell, games first then policies, in config order."""
    return [Cell(cell_key(g, p, config.root_seed), g, p) for g in config.games for p in config.policies]


def try_key(key: str, attempt: int) -> str:
    """The key of extra try ``attempt`` (>= 1) of the cell ``key``."""
    return _hash({"cell": key, "try": attempt})


def try_cells(config: ExperimentConfig, cells: list[Cell], stochastic_only: bool = True) -> list[Cell]:
    """The extra tries (2nd to ``ladder.tries``-th) of each stochastic rung's cell.

    ``stochastic_only=False`` takes every rung (for reading back what is stored
    without building a user's policy: a deterministic rung simply has no rows).
    """
    ladder = config.ladder
    if ladder is None or ladder.tries == 1:
        return []
    extra = []
    for cell in cells:
        if cell.policy.label not in ladder.rungs:
            continue
        game = make_game(cell.game.name, **cell.game.params)
        if stochastic_only and not make_policy(cell.policy.name, **cell.policy.params).is_stochastic(game):
            continue
        for attempt in range(1, ladder.tries):
            label = f"{cell.policy.label} (try {attempt + 1})"
            extra.append(Cell(try_key(cell.key, attempt), cell.game, replace(cell.policy, label=label),
                              cell.information, attempt))
    return extra


TRY_COLUMNS = ("game", "policy", "deal", "attempt", "verdict")


def tries_frame(config: ExperimentConfig, store: ResultStore, extra: list[Cell]) -> pd.DataFrame:
    """The stored extra tries ``extra`` (``try_cells``) of this config's deals:
    game, the rung's own policy label, deal, attempt (>= 1) and verdict."""
    rows = store.rows([c.key for c in extra]) if extra else pd.DataFrame(columns=list(ROW_COLUMNS))
    rows = rows[rows["deal"].isin(set(config.deals))]
    by_key = {c.key: c for c in extra}
    return pd.DataFrame({
        "game": rows["cell"].map(lambda k: by_key[k].game.label),
        "policy": rows["cell"].map(lambda k: by_key[k].policy.label.rsplit(" (try ", 1)[0]),
        "deal": rows["deal"].astype("int64"),
        "attempt": rows["cell"].map(lambda k: by_key[k].attempt).astype("int64"),
        "verdict": rows["verdict"].astype(str),
    }, columns=list(TRY_COLUMNS)).reset_index(drop=True)


def readable_cells(config: ExperimentConfig, known: Iterable[str]) -> list[Cell]:
    """``config``'s cells, each under the key its rows are stored with: the current key, or
    the legacy one of a folder written by simlab 0.1 (so ``simlab report`` still reads it)."""
    known = set(known)
    cells = []
    for cell in cells_of(config):
        legacy = legacy_cell_key(cell.game, cell.policy, config.root_seed)
        cells.append(Cell(legacy, cell.game, cell.policy) if cell.key not in known and legacy in known
                     else cell)
    return cells


def cell_records(config: ExperimentConfig, cells: list[Cell]) -> list[dict[str, Any]]:
    """The cells as the ``configs`` table keeps them: key, labels, what the policy saw, identity."""
    return [{"key": c.key, "game": c.game.label, "policy": c.policy.label,
             "information": c.information or information_label(c),
             "identity": cell_identity(c.game, c.policy, config.root_seed)} for c in cells]


def stored_cells(config: ExperimentConfig, records: list[dict[str, Any]]) -> list[Cell]:
    """``config``'s cells with the keys and information the database recorded for them."""
    by_labels = {(r["game"], r["policy"]): r for r in records}
    cells = []
    for game in config.games:
        for policy in config.policies:
            record = by_labels[(game.label, policy.label)]
            cells.append(Cell(record["key"], game, policy, record["information"]))
    return cells


class ResultStore:
    """The SQLite database of one output folder.

    Args:
        folder: the output folder (created by the caller).


    Raises:
        ConfigError: the file is not a sound simlab results database (``check_database``;
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
        self._db.executescript(_SCHEMA)
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
    (never an empty or half-made ``results.sqlite``, which ``check_database`` refuses)."""
    partial = path.with_name(path.name + ".new")
    partial.unlink(missing_ok=True)  # left by a run stopped while making it
    try:
        db = sqlite3.connect(partial)
        try:
            db.executescript(_SCHEMA)
        finally:
            db.close()
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


DAMAGED, FOREIGN = "damaged", "foreign"  # the kinds of ``DatabaseProblem``
# Tables a results database must have and the columns each must have (``_SCHEMA``).
REQUIRED_TABLES = {"cells": ("cell", "identity"), "deals": ROW_COLUMNS}


@dataclass(frozen=True)
class DatabaseProblem:
    """What is wrong with a file taken for a results database.

    ``kind`` is ``DAMAGED`` (unreadable or empty: ``simlab recover`` rebuilds it) or
    ``FOREIGN`` (a sound SQLite database, but not simlab's: nothing to recover);
    ``found`` says what is wrong, for a message.
    """

    kind: str
    found: str


def database_problem(path: Path) -> DatabaseProblem | None:
    """What is wrong with ``path`` as a results database, or None when it is sound.

    Reads only: a database with a ``-wal`` file (a run that ended without closing it:
    a crash, ``kill -9``, a full disk) is read with it, as a run opens it, since
    committed deals may be in the ``-wal`` file alone; otherwise it is opened
    immutable (no lock, no ``-shm`` file made). A ``-shm`` file this check makes is
    removed again.
    """
    path = Path(path)
    if path.stat().st_size == 0:
        return DatabaseProblem(DAMAGED, "an empty file, 0 bytes, where a SQLite database was expected")
    wal, shm = (path.with_name(path.name + suffix) for suffix in ("-wal", "-shm"))
    with_wal = wal.is_file() and wal.stat().st_size > 0
    had_shm = shm.exists()
    mode = "mode=ro" if with_wal else "mode=ro&immutable=1"
    try:
        db = sqlite3.connect(f"file:{path}?{mode}", uri=True, timeout=30.0)
        try:
            problems = [row[0] for row in db.execute("PRAGMA quick_check")]
            columns = {table: {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                       for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        problems, columns = [str(error)], {}
    finally:
        if with_wal and not had_shm:
            shm.unlink(missing_ok=True)
    if problems != ["ok"]:
        return DatabaseProblem(DAMAGED, "; ".join(problems[:3]))
    return _foreign(columns)


def _foreign(columns: dict[str, set[str]]) -> DatabaseProblem | None:
    """A problem when a sound SQLite database with these tables and columns is not simlab's."""
    if not columns:
        return DatabaseProblem(FOREIGN, "a SQLite database without tables")
    for table, needed in REQUIRED_TABLES.items():
        if table not in columns:
            return DatabaseProblem(FOREIGN, f"a SQLite database without a '{table}' table "
                                            f"(its tables: {', '.join(sorted(columns))})")
        missing = [c for c in needed if c not in columns[table]]
        if missing:
            has = ", ".join(sorted(columns[table]))
            return DatabaseProblem(FOREIGN, f"a SQLite database whose '{table}' table lacks the "
                                            f"columns {', '.join(missing)} (it has {has})")
    return None


def check_database(path: Path) -> None:
    """Fail, changing nothing, with a message saying what to do if ``path`` is not a sound
    simlab results database (``database_problem``)."""
    problem = database_problem(path)
    if problem is None:
        return
    folder = path.parent
    if problem.kind == FOREIGN:
        raise ConfigError(
            f"{path}: expected a simlab results database (tables 'cells' and 'deals'), found "
            f"{problem.found}. Nothing was changed. It is not simlab's: run into another folder "
            f"(--output), or move {path} away and run again.")
    raise ConfigError(
        f"{path}: the results database is damaged ({problem.found}). Nothing was changed. To recover, "
        f"rebuild it from the per-deal table of the last report: simlab recover {folder} (it keeps "
        f"the damaged file, renamed {path.name}.damaged), or start afresh: move {path} away and run again.")


def deals_frame(config: ExperimentConfig, store: ResultStore, tracebacks: bool = False,
                cells: list[Cell] | None = None) -> pd.DataFrame:
    """The per-deal table of this config's cells (default ``cells_of(config)``) and deals,
    in config order.

    Rows of other parameters or deals that share the database are left out.
    """
    cells = cells if cells is not None else cells_of(config)
    rows = store.rows([c.key for c in cells])
    position = {deal: i for i, deal in enumerate(config.deals)}
    rows = rows[rows["deal"].isin(position)]
    order = {c.key: i for i, c in enumerate(cells)}
    rows = rows.assign(_cell=rows["cell"].map(order), _deal=rows["deal"].map(position))
    rows = rows.sort_values(["_cell", "_deal"], kind="stable")
    rows["game"] = rows["cell"].map({c.key: c.game.label for c in cells})
    rows["policy"] = rows["cell"].map({c.key: c.policy.label for c in cells})
    rows["information"] = rows["cell"].map({c.key: c.information or information_label(c) for c in cells})
    rows = with_critical_share(rows)
    columns = (list(DEAL_COLUMNS) + critical_columns(rows) + bound_columns(rows)
               + (["traceback"] if tracebacks else []))
    return typed_deals(rows[columns].reset_index(drop=True))


def _optional(value: Any, kind: type = int) -> int | float | None:
    """An optional count (or value) as SQLite takes it: None for a missing value (None, NaN, pandas' NA)."""
    return None if value is None or value == "" or pd.isna(value) else kind(value)


def with_critical_share(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with ``critical_share``: critical decisions per position with a choice
    (0 without one; empty where not computed)."""
    critical = pd.to_numeric(rows["critical_decisions"], errors="coerce")
    positions = pd.to_numeric(rows["decision_positions"], errors="coerce")
    share = (critical / positions.where(positions > 0)).where(positions > 0, 0.0).where(critical.notna())
    return rows.assign(critical_share=share)


def critical_columns(frame: pd.DataFrame) -> list[str]:
    """``DEAL_CRITICAL_COLUMNS`` when some deal of ``frame`` has a count, else none."""
    return list(DEAL_CRITICAL_COLUMNS) if _any_number(frame, "critical_decisions") else []


def bound_columns(frame: pd.DataFrame) -> list[str]:
    """``BOUND_COLUMNS`` when some deal of ``frame`` has a bound's value, else none."""
    return list(BOUND_COLUMNS) if _any_number(frame, "bound_value") else []


def _numbers(values: pd.Series) -> pd.Series:
    """An optional column as numbers: NaN where empty (a re-read ``deals.csv`` holds "")."""
    return pd.to_numeric(values.replace("", None), errors="coerce")


def _any_number(frame: pd.DataFrame, column: str) -> bool:
    """Whether ``frame`` has ``column`` and some row of it holds a number."""
    return column in frame and bool(_numbers(frame[column]).notna().any())


def information_label(cell: Cell) -> str:
    """``open`` when the game hides nothing (every player sees every card and
    no shuffle is to come); otherwise ``thoughtful`` for a policy that sees the
    hidden cards and future shuffles (the solver: an upper bound on any real
    player) and ``fair`` for one that sees only what a player sees; ``relaxation``
    for a policy that bounds every fair player instead of playing (``Policy.bound``)."""
    policy = make_policy(cell.policy.name, **cell.policy.params)
    if policy.bound:  # even where it does not apply (nothing hidden): never read as a player
        return RELAXATION
    game = make_game(cell.game.name, **cell.game.params)
    if not (game.has_hidden_cards or game.has_chance):
        return OPEN
    return THOUGHTFUL if policy.sees_everything else FAIR


def typed_deals(frame: pd.DataFrame) -> pd.DataFrame:
    """The per-deal table with its documented dtypes (also for a re-read ``deals.csv``,
    whose ``KEY_COLUMN`` it leaves out)."""
    frame = frame.drop(columns=[KEY_COLUMN], errors="ignore")
    if "information" not in frame:  # a deals.csv written before the column existed
        frame.insert(2, "information", "")
    for column in ("deal", "moves", "cards_home", "nodes"):
        frame[column] = frame[column].astype("int64")
    frame["cpu_seconds"] = frame["cpu_seconds"].astype("float64")
    for column in ("game", "policy", "information", "verdict", "end_reason", "error"):
        frame[column] = frame[column].fillna("").astype(str)
    for column in DEAL_CRITICAL_COLUMNS:
        if column in frame:  # empty where not computed (a re-read deals.csv holds "")
            values = _numbers(frame[column])
            frame[column] = values.astype("float64" if column == "critical_share" else "Int64")
    if "bound_value" in frame:
        frame["bound_value"] = _numbers(frame["bound_value"]).astype("float64")
    return frame


def read_deals(folder: Path) -> pd.DataFrame:
    """The per-deal table of an output folder as its last run or report wrote it
    (``deals.csv``), with its documented dtypes; the folder is only read.

    Raises:
        ConfigError: the folder has no ``deals.csv`` or it is not the table simlab writes.
    """
    path = Path(folder) / DEALS_CSV
    if not path.is_file():
        raise ConfigError(f"{path}: expected the per-deal table of an experiment's output folder, found "
                          f"{'no such file' if not path.exists() else 'something that is not a file'}. "
                          "Run the experiment first (simlab run FILE), or name its output folder.")
    try:
        return typed_deals(pd.read_csv(path, keep_default_na=False, dtype={KEY_COLUMN: str}))
    except (OSError, ValueError, KeyError, TypeError, pd.errors.ParserError) as error:
        raise ConfigError(f"{path}: expected the per-deal table simlab writes, found a column missing or a "
                          f"value of another type ({type(error).__name__}: {error}).") from None
