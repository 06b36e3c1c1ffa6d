"""Compiled position features shared by the solver and the policies.

What the foundations need next: the base rank they build from (or, before a
Chessboard player has chosen it, the one they would choose), and how far a card
is from going home. The solver orders and scores its moves with these, the
greedy and heuristic policies (``simlab.policies.features``) score theirs; they
live here, below both, so that the solver imports nothing from the policies.
Every function is ``allocation_free``: the solver calls them in its inner loop.
"""

from __future__ import annotations

import numpy as np

from simlab.engine import kernel
from simlab.engine.compiled import allocation_free
from simlab.engine.layout import (
    FIRST_FOUNDATION,
    FOUNDATION_ANY_SUIT,
    FOUNDATION_CHOSEN_BASE,
    FOUNDATION_MODE,
    OFFSET_BASE,
)

# How urgent a card is, by how many cards its foundation needs before it
# (``cards_until_home``): the card needed next, the one after, then the third.
URGENCY_WEIGHTS = (4.0, 2.0, 1.0)


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
