"""Health checks of a file taken for a results database: sound, damaged or foreign.

Only reads: a check never changes the file (``database_problem``), so a run or
``simlab recover`` can refuse it, saying what to do, before anything is written.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from simlab.errors import ConfigError
from simlab.experiments.schema import REQUIRED_TABLES

DAMAGED, FOREIGN = "damaged", "foreign"  # the kinds of ``DatabaseProblem``


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

