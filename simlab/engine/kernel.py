"""The rules, compiled: legal moves, applying and undoing a move, win test, hashing.

This module is the ONE implementation of the rules. The Python ``Game`` API, the
policies, the solver and the replay of solutions all call these functions. They
work in place on the flat ``int8`` state described in ``simlab.engine.layout``;
``undo_move`` restores a state exactly, which is what depth-first search needs.
"""

from __future__ import annotations

import numpy as np

from simlab.engine.compiled import allocation_free
from simlab.engine.layout import (
    BUILD,
    BUILD_DOWN_ANY_SUIT,
    BUILD_DOWN_SAME_SUIT,
    CAPACITY,
    EMPTY_FILL,
    FILL_ANY,
    FILL_KINGS,
    FIRST_CELL,
    FIRST_FOUNDATION,
    FIRST_RESERVE,
    FOUNDATION_ANY_SUIT,
    FOUNDATION_CHOSEN_BASE,
    FOUNDATION_MODE,
    FOUNDATION_WRAP,
    MOVE_BASE,
    N_CARDS,
    N_PILES,
    OFFSET_BASE,
    OFFSET_HEIGHTS,
    WRAP,
)

MAX_CARDS = 104
MAX_POSITIONS = 128


def _zobrist_table() -> np.ndarray:
    """Fixed pseudo-random keys per (card, height); a fixed seed keeps hashes reproducible."""
    generator = np.random.Generator(np.random.PCG64(20261129))
    return generator.integers(1, 2**63, size=(MAX_CARDS, MAX_POSITIONS), dtype=np.int64).astype(
        np.uint64
    )


ZOBRIST = _zobrist_table()


@allocation_free
def height(rules, state, pile):
    """Number of cards in ``pile``."""
    return np.int64(state[rules[OFFSET_HEIGHTS] + pile])


@allocation_free
def card_at(rules, state, pile, index):
    """Card ``index`` (0 = bottom) of ``pile``."""
    return np.int64(state[pile * rules[CAPACITY] + index])


@allocation_free
def top_card(rules, state, pile):
    """Top card of ``pile``, or -1 when it is empty."""
    h = height(rules, state, pile)
    if h == 0:
        return np.int64(-1)
    return card_at(rules, state, pile, h - 1)


@allocation_free
def can_build(rules, card, target):
    """Whether ``card`` may go on ``target`` in the tableau."""
    return builds_on(rules[BUILD], rules[WRAP] == 1, card, target)


@allocation_free
def builds_on(build, wrap, card, target):
    """``can_build`` with the game's ``BUILD`` rule and ``WRAP`` flag already read,
    so that the hot loops over many cards (legal moves, the solver's
    evaluation) read them once."""
    rank = card % 13
    target_rank = target % 13
    down = target_rank == rank + 1 or (wrap and rank == 12 and target_rank == 0)
    if build == BUILD_DOWN_ANY_SUIT:
        return down
    same_suit = (card // 13) % 4 == (target // 13) % 4
    if build == BUILD_DOWN_SAME_SUIT:
        return down and same_suit
    up = rank == target_rank + 1 or (wrap and target_rank == 12 and rank == 0)
    return same_suit and (up or down)


@allocation_free
def foundation_accepts(rules, state, foundation_pile, card):
    """Whether ``card`` may be played onto the foundation at ``foundation_pile``."""
    h = height(rules, state, foundation_pile)
    if h >= 13:
        return False
    mode = rules[FOUNDATION_MODE]
    index = foundation_pile - rules[FIRST_FOUNDATION]
    if mode != FOUNDATION_ANY_SUIT and (card // 13) % 4 != index % 4:
        return False
    rank = card % 13
    base = state[rules[OFFSET_BASE]]
    if h == 0:
        return rank == base or (mode == FOUNDATION_CHOSEN_BASE and base == -1)
    below = top_card(rules, state, foundation_pile) % 13
    if rules[FOUNDATION_WRAP] == 1:
        return rank == (below + 1) % 13
    return rank == below + 1


@allocation_free
def is_foundation(rules, pile):
    return pile >= rules[FIRST_FOUNDATION]


@allocation_free
def legal_moves(rules, state, out):
    """Write every legal move into ``out``; return how many there are.

    Sources are the tops of rows, cells and reserves. A card may go to a
    foundation that accepts it, onto a row whose top it builds on, into an empty
    row if the game fills spaces with it, and from a row into an empty cell.
    """
    count = 0
    first_cell = rules[FIRST_CELL]
    first_reserve = rules[FIRST_RESERVE]
    first_foundation = rules[FIRST_FOUNDATION]
    fill = rules[EMPTY_FILL]
    # by suit, foundation i takes suit i % 4 only: start at the card's suit, step 4
    foundation_step = 1 if rules[FOUNDATION_MODE] == FOUNDATION_ANY_SUIT else 4
    build, wrap = rules[BUILD], rules[WRAP] == 1
    for source in range(first_foundation):
        card = top_card(rules, state, source)
        if card < 0:
            continue
        first = first_foundation if foundation_step == 1 else first_foundation + (card // 13) % 4
        for foundation in range(first, rules[N_PILES], foundation_step):
            if foundation_accepts(rules, state, foundation, card):
                out[count] = source * MOVE_BASE + foundation
                count += 1
        fills_space = fill == FILL_ANY or (fill == FILL_KINGS and card % 13 == 12)
        for row in range(first_cell):
            if row == source:
                continue
            target = top_card(rules, state, row)
            allowed = fills_space if target < 0 else builds_on(build, wrap, card, target)
            if allowed:
                out[count] = source * MOVE_BASE + row
                count += 1
        if source < first_cell:
            for cell in range(first_cell, first_reserve):
                if height(rules, state, cell) == 0:
                    out[count] = source * MOVE_BASE + cell
                    count += 1
    return count


@allocation_free
def apply_move(rules, state, move):
    """Move the top card of the move's source onto its destination, in place."""
    source = move // MOVE_BASE
    destination = move % MOVE_BASE
    capacity = rules[CAPACITY]
    heights = rules[OFFSET_HEIGHTS]
    source_height = state[heights + source] - 1
    card = state[source * capacity + source_height]
    state[source * capacity + source_height] = -1
    state[heights + source] = source_height
    destination_height = state[heights + destination]
    state[destination * capacity + destination_height] = card
    state[heights + destination] = destination_height + 1
    if is_foundation(rules, destination) and state[rules[OFFSET_BASE]] == -1:
        state[rules[OFFSET_BASE]] = card % 13


@allocation_free
def undo_move(rules, state, move):
    """Exactly reverse ``apply_move(rules, state, move)``."""
    apply_move(rules, state, (move % MOVE_BASE) * MOVE_BASE + move // MOVE_BASE)
    if rules[FOUNDATION_MODE] == FOUNDATION_CHOSEN_BASE and foundation_cards(rules, state) == 0:
        state[rules[OFFSET_BASE]] = -1


@allocation_free
def foundation_cards(rules, state):
    """How many cards are on the foundations."""
    total = 0
    for pile in range(rules[FIRST_FOUNDATION], rules[N_PILES]):
        total += state[rules[OFFSET_HEIGHTS] + pile]
    return total


@allocation_free
def is_won(rules, state):
    """Every card is on a foundation."""
    return foundation_cards(rules, state) == rules[N_CARDS]


@allocation_free
def _mix(value):
    """splitmix64 finaliser: spreads a pile hash before the order-free sum."""
    value = (value ^ (value >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    value = (value ^ (value >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return value ^ (value >> np.uint64(31))


@allocation_free
def pile_hash(rules, state, pile, zobrist):
    """Order-sensitive hash of one pile's cards."""
    result = np.uint64(0x9E3779B97F4A7C15)
    for index in range(height(rules, state, pile)):
        result ^= zobrist[card_at(rules, state, pile, index), index]
    return result


CELL_SALT = np.uint64(0xD6E8FEB86659FD93)
BASE_MULTIPLIER = np.uint64(0xA0761D6478BD642F)


@allocation_free
def pile_term(rules, pile, pile_hash_value):
    """One pile's share of ``position_hash``. Rows (and cells) are summed without
    their identity, so positions that differ only in the order of rows (cells)
    hash alike; reserves and foundations keep their identity."""
    if pile < rules[FIRST_CELL]:
        return _mix(pile_hash_value)
    if pile < rules[FIRST_RESERVE]:
        return _mix(pile_hash_value ^ CELL_SALT)
    return _mix(pile_hash_value + np.uint64(pile + 1))


@allocation_free
def base_term(rules, state):
    """The foundations' base rank's share of ``position_hash``."""
    return _mix(np.uint64(state[rules[OFFSET_BASE]] + 2) * BASE_MULTIPLIER)


@allocation_free
def position_hash(rules, state, zobrist):
    """64-bit hash of a position, equal for positions that differ only in the
    order of rows or of cells (they are interchangeable, so such positions have
    the same future). Reserves and foundations keep their identity.
    ``simlab.engine.incremental`` keeps the same value up to date move by move."""
    total = base_term(rules, state)
    for pile in range(rules[N_PILES]):
        total += pile_term(rules, pile, pile_hash(rules, state, pile, zobrist))
    return total
