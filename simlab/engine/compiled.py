"""How the hot path is compiled: ``allocation_free``, numba without its runtime.

Why: numba counts references to every array a compiled function receives, with
an atomic increment and decrement around each call that is not inlined. The
solver's helpers (move generation, hashing, the relaxation) take the rules and
the position as arrays and are called millions of times a second: measured
with ``perf`` on Beleaguered Castle deal 954, 27-30% of the depth-first search's
time went to those two atomic instructions. A function that never creates an
array does not need the counts, so it is compiled without numba's runtime
(NRT), which drops them; it reads and writes the arrays it is given as before.

Numba refuses to compile a function decorated this way that creates an array,
so the rule "no allocation here" is checked by the compiler, not by review.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from numba import njit

Function = TypeVar("Function", bound=Callable)


def allocation_free(function: Function) -> Function:
    """``njit(cache=True)`` without numba's runtime, for functions that create no array.

    ``_nrt`` is numba's own switch for its runtime (``numba.core.options``); it
    is the one place simlab relies on it.
    """
    return njit(cache=True, _nrt=False)(function)


def allocation_free_inlined(function: Function) -> Function:
    """``allocation_free``, and inlined into its callers by numba itself: for a
    helper of the hot loop that takes many arguments, each array of which is
    passed as seven machine words in numba's calling convention (measured:
    ``legal_moves`` split into per-source helpers ran 1.5x slower until they
    were inlined)."""
    return njit(cache=True, _nrt=False, inline="always")(function)
