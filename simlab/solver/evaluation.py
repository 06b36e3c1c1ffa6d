"""How promising a position looks: the guide of best-first search."""

from __future__ import annotations

import numpy as np

from simlab.engine import kernel
from simlab.engine.compiled import allocation_free
from simlab.engine.features import planned_base
from simlab.engine.layout import (
    BUILD,
    FIRST_CELL,
    FIRST_FOUNDATION,
    FOUNDATION_ANY_SUIT,
    FOUNDATION_MODE,
    WASTE_PILE,
    WRAP,
)

# The weights of ``promise``, by their index in its ``weights`` array (the
# solver's are ``simlab.solver.portfolio.PROMISE_WEIGHTS``).
WEIGHT_HOME = 0  # per card on a foundation
WEIGHT_EMPTY_ROW = 1  # per empty row
WEIGHT_PLACED = 2  # per card where it belongs: at the bottom of a row or on a card it builds on
WEIGHT_BURIAL = 3  # a penalty per card on top of a card that its foundation needs next


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
    """Higher is better. ``weights`` (indexed by ``WEIGHT_*``): cards home,
    empty rows, cards sitting where they belong (bottom of a row or on a card
    they build on), and (a penalty) how deeply the next card each foundation
    needs is buried."""
    score = weights[WEIGHT_HOME] * kernel.foundation_cards(rules, state)
    base = planned_base(rules, state)
    build, wrap = rules[BUILD], rules[WRAP] == 1
    for pile in range(rules[FIRST_CELL]):
        height = kernel.height(rules, state, pile)
        if height == 0:
            score += weights[WEIGHT_EMPTY_ROW]
            continue
        below = -1
        for index in range(height):
            card = kernel.card_at(rules, state, pile, index)
            if index == 0 or kernel.builds_on(build, wrap, card, below):
                score += weights[WEIGHT_PLACED]
            needed = next_rank(rules, state, base, (card // 13) % 4)
            if needed >= 0 and (card % 13 - needed) % 13 == 0:
                score -= weights[WEIGHT_BURIAL] * (height - 1 - index)
            below = card
    return score


# The weights of ``stock_promise``, by index in its ``weights`` array (the
# solver's are ``simlab.solver.portfolio.STOCK_PROMISE_WEIGHTS``).
STOCK_WEIGHT_HOME = 0  # per card on a foundation
STOCK_WEIGHT_WASTE = 1  # a penalty per card in the waste under its top (each must wait for those above it)


@allocation_free
def stock_promise(rules, state, weights):
    """The promise of a position in a game with a one-card stock and a waste
    (Windmill), for ``simlab.solver.best_first.stock_best_first_search``: higher
    is better. Cards home count up (``STOCK_WEIGHT_HOME``); every card buried in
    the waste under its top counts down (``STOCK_WEIGHT_WASTE``): turning the
    stock buries the waste's top, and a buried card comes back only once every
    card above it has left, so a line that turns less keeps more choices."""
    score = weights[STOCK_WEIGHT_HOME] * kernel.foundation_cards(rules, state)
    buried = kernel.height(rules, state, rules[WASTE_PILE]) - 1
    if buried > 0:
        score -= weights[STOCK_WEIGHT_WASTE] * buried
    return score
