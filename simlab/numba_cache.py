"""Where numba caches simlab's compiled kernels: one folder per version of the sources.

``import simlab`` imports this module first, before anything imports numba (which reads
``NUMBA_CACHE_DIR`` once, on import), and sets ``NUMBA_CACHE_DIR`` unless it is set
already: so every command, worker process, test and ``make`` target, in or out of
``make``, shares one cache, and ``make setup`` can fill it once for all of them
(``python -m simlab.precompile``).

One folder per version of the sources (a checksum of every ``simlab/**/*.py``):
numba checks only the timestamp of the file that holds a function, not of the files
of the functions it calls, so after an edit to one module a cached caller in another
would go on running the old code. In a checkout the folders are under
``.numba_cache/``; in an installed package, under the user's cache folder; where that
cannot be written, under the system's temporary folder (numba, given a folder it cannot
write, silently caches beside the sources instead, which is not per version). A
``NUMBA_CACHE_DIR`` set beforehand is used as it is: one folder for every version, so it
is the setter's to change after an edit to the sources.

It imports nothing but the standard library: the Makefile runs it as a script
(``python3 simlab/numba_cache.py`` prints the folder).
"""

from __future__ import annotations

import os
import sys
import tempfile
import zlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
VARIABLE = "NUMBA_CACHE_DIR"


def source_checksum(package: Path = PACKAGE) -> str:
    """A checksum of every ``.py`` file of the package, names and contents, in a fixed order."""
    checksum = 0
    for path in sorted(package.rglob("*.py"), key=lambda p: p.relative_to(package).as_posix()):
        checksum = zlib.crc32(path.relative_to(package).as_posix().encode(), checksum)
        checksum = zlib.crc32(path.read_bytes(), checksum)
    return f"{checksum:08x}"


def cache_folders(package: Path = PACKAGE) -> list[Path]:
    """Where this version's kernels may be cached, best first: ``<checkout>/.numba_cache/<checksum>``
    (a checkout: ``pyproject.toml`` beside the package), ``<user cache>/simlab/numba/<checksum>``,
    ``<temporary folder>/simlab-numba-<user>/<checksum>``."""
    checksum = source_checksum(package)
    folders = []
    if (package.parent / "pyproject.toml").is_file():
        folders.append(package.parent / ".numba_cache" / checksum)
    try:
        user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        folders.append(user / "simlab" / "numba" / checksum)
    except RuntimeError:  # no home folder to be found
        pass
    owner = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    folders.append(Path(tempfile.gettempdir()) / f"simlab-numba-{owner}" / checksum)
    return folders


def writable(folder: Path) -> bool:
    """Whether ``folder`` is (or can be made) a folder this process can write in: numba's own test."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def cache_folder(package: Path = PACKAGE) -> Path:
    """The first of ``cache_folders`` that can be written (the first when none can)."""
    folders = cache_folders(package)
    return next((folder for folder in folders if writable(folder)), folders[0])


def stamp() -> Path:
    """The file that says this version's kernels were all compiled into the cache: named by
    the sources' checksum, Python's and numba's versions, since a folder set in
    ``NUMBA_CACHE_DIR`` (or shared by two environments) holds kernels of several."""
    try:
        from importlib.metadata import PackageNotFoundError, version
        numba = version("numba")
    except (ImportError, PackageNotFoundError):
        numba = "unknown"
    name = f"compiled-{source_checksum()}-{sys.implementation.cache_tag}-numba{numba}.txt"
    return Path(os.environ.get(VARIABLE) or cache_folder()) / name


def compiled() -> bool:
    """Whether ``simlab.compiling.warm_up`` compiled this version's kernels into the cache."""
    return stamp().is_file()


def configure() -> None:
    """Set ``NUMBA_CACHE_DIR`` for this process and its children, unless it is set."""
    if not os.environ.get(VARIABLE):
        os.environ[VARIABLE] = str(cache_folder())
        numba_config = sys.modules.get("numba.core.config")
        if numba_config is not None:  # numba imported before simlab (a notebook): it read the variable then
            numba_config.reload_config()


configure()

if __name__ == "__main__":
    print(os.environ[VARIABLE])
