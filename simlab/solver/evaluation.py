"""How promising a position looks: the guide of best-first search."""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.layout import BUILD, FIRST_CELL, FIRST_FOUNDATION, FOUNDATION_ANY_SUIT, FOUNDATION_MODE, WRAP
from simlab.policies.features import planned_base


@njit(cache=True)
def next_ranks(rules, state, out):
    """For each suit, the rank index its foundation takes next (as
    ``simlab.policies.features.cards_until_home`` counts), or -1 where
    foundations are built regardless of suit."""
    if rules[FOUNDATION_MODE] == FOUNDATION_ANY_SUIT:
        out[:] = -1
        return
    base = planned_base(rules, state)
    for suit in range(4):
        out[suit] = base + kernel.height(rules, state, rules[FIRST_FOUNDATION] + suit)


@njit(cache=True)
def promise(rules, state, weights):
    """Higher is better. ``weights`` in order: cards home, empty rows, cards
    sitting where they belong (bottom of a row or on a card they build on), and
    (a penalty) how deeply the next card each foundation needs is buried."""
    score = weights[0] * kernel.foundation_cards(rules, state)
    next_rank = np.empty(4, dtype=np.int64)
    next_ranks(rules, state, next_rank)
    build, wrap = rules[BUILD], rules[WRAP] == 1
    for pile in range(rules[FIRST_CELL]):
        height = kernel.height(rules, state, pile)
        if height == 0:
            score += weights[1]
            continue
        below = -1
        for index in range(height):
            card = kernel.card_at(rules, state, pile, index)
            if index == 0 or kernel.builds_on(build, wrap, card, below):
                score += weights[2]
            suit = (card // 13) % 4
            if next_rank[suit] >= 0 and (card % 13 - next_rank[suit]) % 13 == 0:
                score -= weights[3] * (height - 1 - index)
            below = card
    return score
