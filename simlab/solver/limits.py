"""The solver's budget and table size as declared parameters, so that the ``solver`` policy
(in a config or ``simlab play``) and ``simlab solve`` check them alike, with one message."""

from __future__ import annotations

from simlab.params import Param
from simlab.solver import DEFAULT_BUDGET, DEFAULT_TABLE_BITS

BUDGET = Param(int, DEFAULT_BUDGET, "most distinct positions searched per deal", low=1)
# Below 10 bits the search would silently use 2**10 slots anyway; 30 bits is 8 GiB (8 bytes a
# position), more than most machines running simlab have to spare.
TABLE_BITS = Param(int, DEFAULT_TABLE_BITS, "transposition table of 2**bits positions (8 bytes each)",
                   low=10, high=30)
