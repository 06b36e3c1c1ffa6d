"""How promising a position looks: the guide of best-first search."""

from __future__ import annotations

from numba import njit

from simlab.engine import kernel
from simlab.engine.layout import FIRST_CELL
from simlab.policies.features import cards_until_home


@njit(cache=True)
def promise(rules, state, weights):
    """Higher is better. ``weights`` in order: cards home, empty rows, cards
    sitting where they belong (bottom of a row or on a card they build on), and
    (a penalty) how deeply the next card each foundation needs is buried."""
    score = weights[0] * kernel.foundation_cards(rules, state)
    for pile in range(rules[FIRST_CELL]):
        height = kernel.height(rules, state, pile)
        if height == 0:
            score += weights[1]
            continue
        for index in range(height):
            card = kernel.card_at(rules, state, pile, index)
            if index == 0 or kernel.can_build(rules, card, kernel.card_at(rules, state, pile, index - 1)):
                score += weights[2]
            if cards_until_home(rules, state, card) == 0:
                score -= weights[3] * (height - 1 - index)
    return score
