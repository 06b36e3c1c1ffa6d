"""Large blocks go back to the operating system when the solver frees them.

A search allocates its arrays through the C library's ``malloc`` (numba's
runtime does), and frees them when it grows them or ends. glibc serves a large
block from a fresh mapping, but once such a block is freed it raises that
threshold to the block's size (up to 32 MiB), so the next blocks of that size
come from the heap, and a freed block there stays resident until ``malloc``
reuses it. The portfolio's restarts free tables and per-depth arrays of every
size from a few MiB up while the long search holds its own, so the heap fills
with freed blocks: measured on Streets and Alleys deal 186 at the default
budget, a fresh process peaked at 719 MiB, 646 MiB with the threshold fixed at
``LARGE_BLOCK`` (no change in CPU within noise, the same positions). A worker of
a parallel run also keeps less after each deal, so its memory cap
(``execution.worker_memory``) measures what it uses.

Fixing the threshold (``mallopt(M_MMAP_THRESHOLD, ...)``) keeps the small
blocks of the many small searches on the heap, where they are cheap, and maps
each large one afresh (a few page faults per MiB, nothing beside a search that
fills it). Elsewhere than glibc, or when the user set ``MALLOC_MMAP_THRESHOLD_``
in the environment, nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter (malloc.h)
LARGE_BLOCK = 4 << 20  # blocks of 4 MiB and more are mapped afresh and unmapped when freed


def return_large_blocks() -> bool:
    """Fix glibc's mapping threshold at ``LARGE_BLOCK`` (module docstring);
    return whether it was set (False off glibc or when the environment sets it)."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    if "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    mallopt = getattr(ctypes.CDLL(name), "mallopt", None)
    if mallopt is None:
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK) == 1
