"""A position packed into ``packed_size`` bytes, for searches that keep millions.

The state array (``simlab.engine.layout``) gives every pile a fixed number of
slots: 241 bytes for Beleaguered Castle, of which 52 hold cards. Best-first
search keeps every position it has generated, so it stores them packed: the
pile heights, the foundations' base rank, the counters (redeals, passes,
draws, the chance tape's position; none in most games), then each pile's
cards bottom to top, one pile after another (65 bytes for Beleaguered Castle).
"""

from __future__ import annotations

from numba import njit

from simlab.engine.compiled import allocation_free
from simlab.engine.layout import (
    CAPACITY,
    COUNTER_SLOTS,
    N_CARDS,
    N_PILES,
    OFFSET_BASE,
    OFFSET_COUNTERS,
    OFFSET_HEIGHTS,
)


@allocation_free
def packed_size(rules):
    """Bytes of a packed position: one per pile height, the base, the counters, one per card."""
    return rules[N_PILES] + 1 + rules[COUNTER_SLOTS] + rules[N_CARDS]


@njit(cache=True)  # (slices of arrays need numba's runtime)
def pack(rules, state, out):
    """Write ``state`` packed into ``out`` (``packed_size`` bytes)."""
    piles = rules[N_PILES]
    heights = rules[OFFSET_HEIGHTS]
    out[:piles] = state[heights: heights + piles]
    out[piles] = state[rules[OFFSET_BASE]]
    counters = rules[COUNTER_SLOTS]
    out[piles + 1: piles + 1 + counters] = state[rules[OFFSET_COUNTERS]: rules[OFFSET_COUNTERS] + counters]
    written = piles + 1 + counters
    capacity = rules[CAPACITY]
    for pile in range(piles):
        height = state[heights + pile]
        out[written: written + height] = state[pile * capacity: pile * capacity + height]
        written += height


@njit(cache=True)
def unpack(rules, packed, state):
    """Rebuild in ``state`` exactly the array ``pack`` was given (empty slots -1)."""
    piles = rules[N_PILES]
    heights = rules[OFFSET_HEIGHTS]
    capacity = rules[CAPACITY]
    state[:heights] = -1
    state[heights: heights + piles] = packed[:piles]
    state[rules[OFFSET_BASE]] = packed[piles]
    counters = rules[COUNTER_SLOTS]
    state[rules[OFFSET_COUNTERS]: rules[OFFSET_COUNTERS] + counters] = packed[piles + 1: piles + 1 + counters]
    read = piles + 1 + counters
    for pile in range(piles):
        height = packed[pile]
        state[pile * capacity: pile * capacity + height] = packed[read: read + height]
        read += height
