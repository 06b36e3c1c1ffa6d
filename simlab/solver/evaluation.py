"""How promising a position looks: the guide of best-first search."""

from __future__ import annotations

import numpy as np

from simlab.engine import kernel
from simlab.engine.compiled import allocation_free
from simlab.engine.features import planned_base
from simlab.engine.layout import BUILD, FIRST_CELL, FIRST_FOUNDATION, FOUNDATION_ANY_SUIT, FOUNDATION_MODE, WRAP


@allocation_free
def next_rank(rules, state, base, suit):
    """The rank index the foundation of ``suit`` takes next (as
    ``simlab.engine.features.cards_until_home`` counts, from ``base``, the
    ``planned_base``), or -1 where foundations are built regardless of suit."""
    if rules[FOUNDATION_MODE] == FOUNDATION_ANY_SUIT:
        return np.int64(-1)
    return base + kernel.height(rules, state, rules[FIRST_FOUNDATION] + suit)


@allocation_free
def promise(rules, state, weights):
    """Higher is better. ``weights`` in order: cards home, empty rows, cards
    sitting where they belong (bottom of a row or on a card they build on), and
    (a penalty) how deeply the next card each foundation needs is buried."""
    score = weights[0] * kernel.foundation_cards(rules, state)
    base = planned_base(rules, state)
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
            needed = next_rank(rules, state, base, (card // 13) % 4)
            if needed >= 0 and (card % 13 - needed) % 13 == 0:
                score -= weights[3] * (height - 1 - index)
            below = card
    return score
