"""Telling a full disk from a bug: writing an output folder on a full disk is the
user's to fix (exit status 2, a message naming the folder), not a traceback.

SQLite reports a full disk as ``SQLITE_FULL`` ("database or disk is full"); a file
write as ``OSError`` ``ENOSPC`` (no space), ``EDQUOT`` (over quota) or ``EFBIG``
(past the file-size limit, ``ulimit -f``). Every chunk stored before is committed,
so a rerun after space is freed resumes (the store's check reads the ``-wal``
file the interrupted run left).
"""

from __future__ import annotations

import errno
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from simlab.errors import ConfigError

NO_SPACE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def out_of_space(error: BaseException) -> bool:
    """Whether ``error`` says a write failed for want of space."""
    if isinstance(error, sqlite3.OperationalError):
        return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    return isinstance(error, OSError) and error.errno in NO_SPACE_ERRNOS


@contextmanager
def disk_full_is_bad_input(folder: Path, what: str = "the same command") -> Iterator[None]:
    """While the block runs, a write that fails for want of space raises ``ConfigError``
    naming ``folder`` and saying what to do (``what``: the command to run again).

    Raises:
        ConfigError: the disk holding ``folder`` is full (or over quota or a size limit).
    """
    try:
        yield
    except (sqlite3.OperationalError, OSError) as error:
        if not out_of_space(error):
            raise
        raise ConfigError(
            f"{folder}: the disk is full: writing the output folder failed ({type(error).__name__}: "
            f"{error}). Every deal finished before is saved in {Path(folder) / 'results.sqlite'}. "
            f"Free some space on that disk (or run into a folder on another disk: --output) and run "
            f"{what} again to go on.") from None
