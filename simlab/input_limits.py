"""Limits on the files a user hands simlab (an experiment config, a moves file).

Each is a page of text: a larger file is a mistake (or an attack), and reading it
whole could take the machine's memory (``/dev/zero`` never ends). So a file is read
to one byte past its limit at most, and a nested document is refused past
``MAX_NESTING`` levels before a recursive parser meets it.
"""

from __future__ import annotations

from pathlib import Path

MAX_INPUT_BYTES = 1_000_000  # a config or a moves file (a 2,000-move line is about 30,000 bytes)
MAX_NESTING = 50  # lists and mappings inside each other (a config needs 5, a moves file 3)


def read_capped(path: str | Path, cap: int = MAX_INPUT_BYTES) -> bytes:
    """The file's first ``cap + 1`` bytes at most: more than ``cap`` says it is too large,
    and an endless file (a device, a pipe that keeps writing) is never read to its end.

    Raises:
        OSError: the file cannot be opened or read.
    """
    with open(path, "rb") as file:
        return file.read(cap + 1)
