"""A set of 64-bit position hashes in a flat array (open addressing, linear probing).

Shared by the policies (to spot a repeated position) and the solver (its
transposition table). Zero marks an empty slot; a hash of zero is never stored
apart (it is one value in 2**64).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.compiled import allocation_free

MAX_LOAD = 0.75  # past this, probing slows down sharply


@njit(cache=True)
def new_position_set(entries, max_bits):
    """An empty set sized for ``entries`` hashes at ``MAX_LOAD``, at most ``2**max_bits`` slots."""
    return np.zeros(slots_for(entries, max_bits), dtype=np.uint64)


@allocation_free
def slots_for(entries, max_bits):
    """The slots ``new_position_set(entries, max_bits)`` has."""
    size = np.int64(1024)
    while size < (np.int64(1) << max_bits) and MAX_LOAD * size < entries + 1:
        size *= 2
    return size


@njit(cache=True)
def grown(table):
    """A set twice as large holding the same hashes (so a search can start with
    a small table, cheap to clear, and grow it only as it needs)."""
    bigger = np.zeros(2 * table.shape[0], dtype=np.uint64)
    for key in table:
        if key != 0:
            bigger[_slot(bigger, key)] = key
    return bigger


@allocation_free
def can_grow(table, max_bits):
    """Whether ``grown(table)`` stays within ``2**max_bits`` slots."""
    return table.shape[0] < (np.int64(1) << max_bits)


@allocation_free
def capacity(table):
    """How many hashes the set takes before it is ``MAX_LOAD`` full."""
    return np.int64(MAX_LOAD * table.shape[0])


@allocation_free
def _slot(table, key):
    """Where ``key`` is, or the empty slot where it would go (linear probing)."""
    mask = table.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    while table[slot] != 0 and table[slot] != key:
        slot = (slot + 1) & mask
    return slot


@allocation_free
def contains(table, key):
    return table[_slot(table, key)] == key


@allocation_free
def add(table, key):
    """Add ``key``; return False if it was already there."""
    slot = _slot(table, key)
    if table[slot] == key:
        return False
    table[slot] = key
    return True


@allocation_free
def forget_added(table, keys, count):
    """Remove ``keys[:count]``, added to ``table`` in that order and all still
    there, last first, so the probe of every key not yet removed stays
    unbroken: cheaper than clearing every slot when few were added."""
    for index in range(count - 1, -1, -1):
        table[_slot(table, keys[index])] = 0
