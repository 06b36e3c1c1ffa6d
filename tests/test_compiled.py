"""``allocation_free``: the hot path's functions compile without numba's runtime."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core.errors import NumbaError

from simlab.engine.compiled import allocation_free


def test_reads_and_writes_the_arrays_it_is_given():
    @allocation_free
    def add_in_place(values, amount):
        for index in range(values.shape[0]):
            values[index] += amount
        return values[0]

    values = np.arange(4, dtype=np.int64)
    assert add_in_place(values, 10) == 10
    assert values.tolist() == [10, 11, 12, 13]


def test_refuses_to_compile_a_function_that_creates_an_array():
    @allocation_free
    def makes_an_array(count):
        return np.zeros(count).sum()

    with pytest.raises(NumbaError):  # numba says so while typing or lowering, by version
        makes_an_array(3)


def test_the_solver_hot_path_is_allocation_free():
    from simlab.engine import incremental, kernel
    from simlab.solver import deadlock, search

    for function in (
        kernel.legal_moves, kernel.apply_move, incremental.hash_after, incremental.apply_move_tracked,
        deadlock.provably_lost_using, search.ordered_moves, search.quiet, search.play_safe_moves_tracked,
        search.try_move_and_plays, search.depth_first_steps, search.back_up, search.go_deeper, search.has_room,
    ):
        assert function.targetoptions.get("_nrt") is False, function.py_func.__name__
