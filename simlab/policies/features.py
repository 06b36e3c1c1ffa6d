"""Compiled position features the greedy and heuristic policies read.

Those the solver reads too (``planned_base``, ``cards_until_home``, ...) are
defined in ``simlab.engine.features`` and imported from there.
"""

from __future__ import annotations

from numba import njit

from simlab.engine import kernel
from simlab.engine.features import URGENCY_WEIGHTS, cards_until_home, least_buried_rank, planned_base
from simlab.engine.layout import FIRST_CELL, FIRST_FOUNDATION, FIRST_RESERVE, MOVE_BASE, N_PILES

__all__ = [
    "URGENCY_WEIGHTS", "cards_until_home", "destination_pile", "foundation_move", "is_cell", "is_foundation_pile",
    "is_row", "least_buried_rank", "planned_base", "source_pile", "top_is_placed", "urgency",
]


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


@njit(cache=True)
def urgency(rules, state, pile, depth_from_top):
    """Weighted count of soon-needed cards in ``pile`` below its top ``depth_from_top`` cards:
    a card needed next counts 4, the one after 2, then 1."""
    total = 0.0
    h = kernel.height(rules, state, pile)
    for index in range(h - depth_from_top):
        card = kernel.card_at(rules, state, pile, index)
        if card < 0:
            continue  # a card the player cannot see
        steps = cards_until_home(rules, state, card)
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
