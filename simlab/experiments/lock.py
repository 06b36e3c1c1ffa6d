"""One run at a time per output folder: a lock file holding the owner's pid.

The lock is an advisory ``flock`` on ``FOLDER/simlab.lock``: the operating system
releases it when its process ends, however it ends (even ``kill -9``), so a
lock is never left stale. The file also says who holds it, for the message a
second run prints when it refuses to start.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from simlab.errors import ConfigError
from simlab.experiments.space import NO_SPACE_ERRNOS

LOCK_NAME = "simlab.lock"

try:
    import fcntl
except ImportError:  # Windows: no advisory locks here; runs are not guarded
    fcntl = None  # type: ignore[assignment]


@contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s lock while the block runs.

    Raises:
        ConfigError: another process holds it (the message names its pid).
    """
    if fcntl is None:
        yield
        return
    path = Path(folder) / LOCK_NAME
    descriptor = _acquire(path)
    try:
        started = datetime.now(timezone.utc).isoformat(timespec="seconds")
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"pid {os.getpid()} started {started}\n".encode())
        yield
    finally:
        path.unlink(missing_ok=True)  # before unlocking, so a waiting run finds no old file
        os.close(descriptor)


def _acquire(path: Path) -> int:
    """An open descriptor of ``path`` locked by this process."""
    while True:
        descriptor = _open(path)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = _read(descriptor)
            os.close(descriptor)
            raise ConfigError(
                f"{path.parent}: another simlab run is writing to this folder ({owner or 'pid unknown'}; "
                f"lock file {path}). Wait for it to finish, or run into another folder (--output)."
            ) from None
        # The holder may have removed the file between our open and our lock: lock the new one.
        try:
            if os.stat(path).st_ino == os.fstat(descriptor).st_ino:
                return descriptor
        except FileNotFoundError:
            pass
        os.close(descriptor)


def _open(path: Path) -> int:
    """``path`` opened (made if missing) for the lock.

    Raises:
        ConfigError: the folder takes no file (read-only, not ours): a run, ``simlab report``
            and ``simlab recover`` all write into it. A full disk is left to the caller
            (``space.disk_full_is_bad_input``).
    """
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        if error.errno in NO_SPACE_ERRNOS:
            raise
        raise ConfigError(
            f"{path.parent}: the folder must be writable: simlab writes its tables, figures, report and "
            f"database there, and first its lock file {path.name}, which could not be made "
            f"({error.strerror or error}). Nothing was changed. Make the folder writable, or copy it to "
            f"a writable place and run there.") from None


def _read(descriptor: int) -> str:
    try:
        return os.pread(descriptor, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""
