"""Telling a full disk from a bug: writing an output folder on a full disk is the
user's to fix (exit status 2, a message naming the folder), not a traceback.

SQLite reports a full disk as ``SQLITE_FULL`` ("database or disk is full"), or, when it
cannot write a journal or make its file, as ``SQLITE_IOERR`` ("disk I/O error") or
``SQLITE_CANTOPEN``; a file write as ``OSError`` ``ENOSPC`` (no space), ``EDQUOT`` (over
quota) or ``EFBIG`` (past the file-size limit, ``ulimit -f``), a failing disk as ``EIO``.
Every chunk stored before is committed, so a rerun after space is freed resumes (the
store's check reads the ``-wal`` file the interrupted run left).
"""

from __future__ import annotations

import errno
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from simlab.errors import ConfigError
from simlab.experiments.schema import DATABASE_NAME

NO_SPACE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


# SQLite's primary codes (the low byte of an extended one, ``SQLITE_IOERR_WRITE``) of a disk that
# failed a write or a file it could not make: a full disk reports them too (a journal that could
# not be written is a "disk I/O error"; no inode left to make one, "unable to open database file").
STORAGE_SQLITE_CODES = {sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN}


def out_of_space(error: BaseException) -> bool:
    """Whether ``error`` says a write failed for want of space."""
    if isinstance(error, sqlite3.OperationalError):
        return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    return isinstance(error, OSError) and error.errno in NO_SPACE_ERRNOS


def storage_failed(error: BaseException) -> bool:
    """Whether ``error`` says the disk failed a write (an I/O error), which a full disk may
    also report: the user's to look into, not a bug."""
    if isinstance(error, sqlite3.OperationalError):
        return (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF in STORAGE_SQLITE_CODES
    return isinstance(error, OSError) and error.errno == errno.EIO


@contextmanager
def disk_full_is_bad_input(folder: Path, what: str | None = None, kept: str | None = None) -> Iterator[None]:
    """While the block runs, a write that fails for want of space raises ``ConfigError``
    naming ``folder`` and saying what to do (``what``: the command to run again, ``None`` for
    a run, whose ``--output`` can move it to another disk) and what was kept (``kept``; by
    default what a run keeps: ``saved_deals``).

    Raises:
        ConfigError: the disk holding ``folder`` is full (or over quota or a size limit).
    """
    try:
        yield
    except (sqlite3.OperationalError, OSError) as error:
        if out_of_space(error):
            problem = "the disk is full"
        elif storage_failed(error):
            problem = "the disk failed a write (it may be full, or failing)"
        else:
            raise
        elsewhere = " (or run into a folder on another disk: --output)" if what is None else ""
        raise ConfigError(
            f"{folder}: {problem}: writing the output folder failed ({type(error).__name__}: "
            f"{error}). {kept or saved_deals(folder)} Free some space on that disk{elsewhere} and run "
            f"{what or 'the same command'} again to go on.") from None


def saved_deals(folder: Path) -> str:
    """What a run stopped by a full disk keeps: its database's deals, or none when the
    database could not be made (the first thing a run writes)."""
    database = Path(folder) / DATABASE_NAME
    if database.is_file():
        return f"Every deal finished before is saved in {database}."
    return f"No deal was stored: the database {database} could not be made."
