"""The solver's budget and table size as declared parameters, so that the ``solver`` policy
(in a config or ``simlab play``) and ``simlab solve`` check them alike, with one message; and
the table a smaller budget needs."""

from __future__ import annotations

from simlab.params import Param
from simlab.solver import DEFAULT_BUDGET, DEFAULT_TABLE_BITS

BUDGET = Param(int, DEFAULT_BUDGET, "most distinct positions searched per deal", low=1)
# Below 10 bits the search would silently use 2**10 slots anyway; 30 bits is 8 GiB (8 bytes a
# position), more than most machines running simlab have to spare.
TABLE_BITS = Param(int, DEFAULT_TABLE_BITS, "transposition table of 2**bits positions (8 bytes each)",
                   low=10, high=30)
MIN_TABLE_BITS = TABLE_BITS.low  # the smallest table ``simlab.engine.position_set`` makes
TABLE_LOAD = 0.75  # a table is full at this load (``position_set.MAX_LOAD``)


def table_bits_for(budget: int) -> int:
    """Bits of the smallest transposition table that holds ``budget`` positions below its full
    load, at most the default's: a search of a small budget (a probe, a hint at each position
    of a line) then neither allocates the default's 256 MiB nor fills its table before its
    budget runs out."""
    bits = MIN_TABLE_BITS
    while bits < DEFAULT_TABLE_BITS and TABLE_LOAD * (1 << bits) <= budget:
        bits += 1
    return bits
