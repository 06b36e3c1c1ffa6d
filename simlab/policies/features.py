"""Compiled position features the greedy and heuristic policies read."""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.compiled import allocation_free
from simlab.engine.layout import (
    FIRST_CELL,
    FIRST_FOUNDATION,
    FIRST_RESERVE,
    FOUNDATION_ANY_SUIT,
    FOUNDATION_CHOSEN_BASE,
    FOUNDATION_MODE,
    MOVE_BASE,
    N_PILES,
    OFFSET_BASE,
)

URGENCY_WEIGHTS = (4.0, 2.0, 1.0)  # a card needed next, the one after, then the third

@njit(cache=True)
def is_row(rules, pile):
    return pile < rules[FIRST_CELL]


@njit(cache=True)
def is_cell(rules, pile):
    return rules[FIRST_CELL] <= pile < rules[FIRST_RESERVE]


@njit(cache=True)
def top_is_placed(rules, state, pile):
    """The top card of a row is at its bottom or sits on a card it builds on;
    moving such a card sideways undoes no blockage."""
    if not is_row(rules, pile):
        return False
    h = kernel.height(rules, state, pile)
    if h <= 1:
        return h == 1
    return kernel.can_build(
        rules, kernel.card_at(rules, state, pile, h - 1), kernel.card_at(rules, state, pile, h - 2)
    )


@njit(cache=True)
def foundation_move(rules, state, legal, count):
    """The first legal move to a foundation, or -1."""
    for i in range(count):
        if legal[i] % MOVE_BASE >= rules[FIRST_FOUNDATION]:
            return legal[i]
    return -1


@allocation_free
def least_buried_rank(rules, state):
    """The rank whose four cards have the fewest cards on top of them, summed over
    every pile (lowest rank on ties): the base a player would choose in Chessboard."""
    # one pass per rank (no array: this runs inside the solver's allocation-free code)
    best_rank, best_burial = np.int64(0), np.int64(-1)
    for rank in range(13):
        burial = 0
        for pile in range(rules[FIRST_FOUNDATION]):
            h = kernel.height(rules, state, pile)
            for index in range(h):
                if kernel.card_at(rules, state, pile, index) % 13 == rank:
                    burial += h - 1 - index
        if best_burial < 0 or burial < best_burial:
            best_rank, best_burial = np.int64(rank), np.int64(burial)
    return best_rank


@allocation_free
def planned_base(rules, state):
    """The foundations' base rank, or while a Chessboard player has not chosen one
    yet, the rank they mean to choose (``least_buried_rank``)."""
    base = np.int64(state[rules[OFFSET_BASE]])
    if base < 0 and rules[FOUNDATION_MODE] == FOUNDATION_CHOSEN_BASE:
        return least_buried_rank(rules, state)
    return base


@allocation_free
def cards_until_home(rules, state, card):
    """How many more cards its foundation needs before ``card`` (0 = it can go now).

    Foundations by suit only (for Chessboard before the base is chosen: counted
    from ``planned_base``); for foundations regardless of suit every card counts
    as 6 away, i.e. no urgency."""
    mode = rules[FOUNDATION_MODE]
    if mode == FOUNDATION_ANY_SUIT:
        return 6
    base = planned_base(rules, state)
    foundation = rules[FIRST_FOUNDATION] + (card // 13) % 4
    built = kernel.height(rules, state, foundation)
    return (card % 13 - base - built) % 13


@njit(cache=True)
def urgency(rules, state, pile, depth_from_top):
    """Weighted count of soon-needed cards in ``pile`` below its top ``depth_from_top`` cards:
    a card needed next counts 4, the one after 2, then 1."""
    total = 0.0
    h = kernel.height(rules, state, pile)
    for index in range(h - depth_from_top):
        steps = cards_until_home(rules, state, kernel.card_at(rules, state, pile, index))
        if steps < 3:
            total += URGENCY_WEIGHTS[steps]
    return total


@njit(cache=True)
def source_pile(move):
    return move // MOVE_BASE


@njit(cache=True)
def destination_pile(move):
    return move % MOVE_BASE


@njit(cache=True)
def is_foundation_pile(rules, pile):
    return rules[FIRST_FOUNDATION] <= pile < rules[N_PILES]


