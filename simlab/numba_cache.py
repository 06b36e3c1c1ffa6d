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
``.numba_cache/``; in an installed package, under the user's cache folder.

It imports nothing but the standard library: the Makefile runs it as a script
(``python3 simlab/numba_cache.py`` prints the folder).
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
VARIABLE = "NUMBA_CACHE_DIR"
STAMP = "compiled.txt"  # in the cache folder, once ``simlab.compiling.warm_up`` has filled it


def source_checksum(package: Path = PACKAGE) -> str:
    """A checksum of every ``.py`` file of the package, names and contents, in a fixed order."""
    checksum = 0
    for path in sorted(package.rglob("*.py"), key=lambda p: p.relative_to(package).as_posix()):
        checksum = zlib.crc32(path.relative_to(package).as_posix().encode(), checksum)
        checksum = zlib.crc32(path.read_bytes(), checksum)
    return f"{checksum:08x}"


def cache_folder(package: Path = PACKAGE) -> Path:
    """``<checkout>/.numba_cache/<checksum>``, or ``<user cache>/simlab/numba/<checksum>``
    for an installed package (no ``pyproject.toml`` beside it)."""
    root = package.parent
    if (root / "pyproject.toml").is_file():
        return root / ".numba_cache" / source_checksum(package)
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return user / "simlab" / "numba" / source_checksum(package)


def stamp() -> Path:
    """The file that says this version's kernels were all compiled into the cache."""
    return Path(os.environ.get(VARIABLE) or cache_folder()) / STAMP


def compiled() -> bool:
    """Whether ``simlab.compiling.warm_up`` compiled this version's kernels into the cache."""
    return stamp().is_file()


def configure() -> None:
    """Set ``NUMBA_CACHE_DIR`` for this process and its children, unless it is set."""
    if not os.environ.get(VARIABLE):
        os.environ[VARIABLE] = str(cache_folder())


configure()

if __name__ == "__main__":
    print(os.environ[VARIABLE])
