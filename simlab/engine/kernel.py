"""The rules, compiled: legal moves, applying and undoing a move, win test, hashing.

This module is the ONE implementation of the rules. The Python ``Game`` API, the
policies, the solver and the replay of solutions all call these functions. They
work in place on the flat ``int8`` state described in ``simlab.engine.layout``;
``undo_move`` restores a state exactly, which is what depth-first search needs.
"""

from __future__ import annotations

import numpy as np

from simlab.engine.compiled import allocation_free, allocation_free_inlined
from simlab.engine.layout import (
    BASE_CHOSEN,
    BUILD,
    CAPACITY,
    COND_LAST_NOT_FROM,
    COND_NO_ROW_FITS,
    COND_STOCK_DEEPER,
    COUNTER_DRAWS,
    COUNTER_LAST_SOURCE,
    COUNTER_RECYCLES,
    COUNTER_REDEALS,
    COUNTER_SLOTS,
    DETAIL_MASK,
    DETAIL_SHIFT,
    DIR_DOWN,
    DIR_UP,
    FILL_ANY,
    FILL_KINGS,
    FIRST_CELL,
    FIRST_FOUNDATION,
    FIRST_RESERVE,
    FOUNDATION_ANY_SUIT,
    FOUNDATION_CHOSEN_BASE,
    FOUNDATION_MODE,
    HAS_SPECIAL,
    KIND_SHIFT,
    MOVE_BASE,
    MOVE_DRAW,
    MOVE_RECYCLE,
    MOVE_REDEAL,
    MOVE_TURN,
    N_CARDS,
    N_PILES,
    OFFSET_BASE,
    OFFSET_COUNTERS,
    OFFSET_HEIGHTS,
    P_ACCEPTS_FROM,
    P_BASE,
    P_BUILD,
    P_CAP,
    P_CAP_ARG,
    P_CAP_WHILE,
    P_DEAD_WHEN_FULL,
    P_FILL,
    P_GIVES,
    P_GUARD,
    P_GUARD_ARG,
    P_GUARD_KINDS,
    P_IDENTITY,
    P_KIND,
    P_LIMIT,
    P_REFUSES,
    P_SUIT,
    P_WRAP,
    PILE_FIELDS,
    PILE_TABLE,
    RECYCLES_AT_START,
    ROWS_ALIKE,
    ROWS_ORDERED,
    SOURCE_LIMIT,
    STOCK_PILE,
    SUIT_ALTERNATE,
    SUIT_BITS,
    SUIT_SAME,
    WASTE_PILE,
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
# The same keys by rank only (card c keyed as card c % 13): for games whose
# rules never read a suit (``SUITS_MATTER`` 0), positions alike up to the suits
# and decks of their cards hash alike, and the solver searches one of them
# (``simlab.solver.plan.SearchPlan.zobrist`` chooses).
RANK_ZOBRIST = ZOBRIST[np.arange(MAX_CARDS) % 13].copy()


# A second set of keys, drawn independently of ``ZOBRIST`` (another seed) over
# all 64 bits, for the search that confirms a loss (``simlab.solver.portfolio``):
# whether two positions collide under these keys is independent of whether they
# collide under the first.
CHECK_ZOBRIST = np.random.Generator(np.random.PCG64(20261202)).integers(
    1, 2**64 - 1, size=(MAX_CARDS, MAX_POSITIONS), dtype=np.uint64, endpoint=True
)
RANK_CHECK_ZOBRIST = CHECK_ZOBRIST[np.arange(MAX_CARDS) % 13].copy()


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
def spec(rules, pile, field):
    """Field ``field`` (``P_*``) of ``pile``'s row in the pile table."""
    return rules[PILE_TABLE + pile * PILE_FIELDS + field]


@allocation_free
def can_build(rules, card, target):
    """Whether ``card`` may go on ``target`` in a row (by the rows' rule)."""
    return builds_on(rules[BUILD], rules[WRAP] == 1, card, target)


@allocation_free
def builds_on(build, wrap, card, target):
    """Whether ``card`` may go on ``target`` under the building rule ``build``
    (``DIR_* | SUIT_*``) and ``wrap`` (K-A adjacent). The hot loops over many
    cards (legal moves, the solver's evaluation) read the rule once and call this.
    Ranks first: they rule out most pairs, so the suit is rarely looked at."""
    rank = card % 13
    target_rank = target % 13
    adjacent = False
    if build & DIR_DOWN:
        adjacent = target_rank == rank + 1 or (wrap and rank == 12 and target_rank == 0)
    if not adjacent and build & DIR_UP:
        adjacent = rank == target_rank + 1 or (wrap and target_rank == 12 and rank == 0)
    if not adjacent:
        return False
    suit_rule = build & SUIT_BITS
    if suit_rule == SUIT_SAME:
        return (card // 13) % 4 == (target // 13) % 4
    if suit_rule == SUIT_ALTERNATE:
        return is_red(card) != is_red(target)
    return True


@allocation_free
def is_red(card):
    """Hearts and diamonds (suits 2 and 3 in PySolFC's order C, S, H, D)."""
    return (card // 13) % 4 >= 2


@allocation_free_inlined
def foundation_accepts(rules, state, foundation_pile, card):
    """Whether ``card`` may be played onto the foundation at ``foundation_pile``
    (its base, direction, suit, wrap and limit are in its pile spec). Inlined:
    the move generator, the safe plays and the quiet-move test ask it for most
    cards they look at, and as a call it cost about a tenth of a search."""
    h = height(rules, state, foundation_pile)
    if h >= spec(rules, foundation_pile, P_LIMIT):
        return False
    suit = spec(rules, foundation_pile, P_SUIT)
    if suit >= 0 and (card // 13) % 4 != suit:
        return False
    rank = card % 13
    if h == 0:
        return takes_first(rules, state, foundation_pile, rank)
    below = card_at(rules, state, foundation_pile, h - 1) % 13
    wrap = spec(rules, foundation_pile, P_WRAP) == 1
    if spec(rules, foundation_pile, P_BUILD) & DIR_UP:
        fits = rank == below + 1 or (wrap and below == 12 and rank == 0)
    else:
        fits = rank == below - 1 or (wrap and below == 0 and rank == 12)
    if fits and spec(rules, foundation_pile, P_CAP) > 0:  # read only for a card that fits
        return not capped(rules, state, foundation_pile, h)
    return fits


@allocation_free
def takes_first(rules, state, foundation_pile, rank):
    """Whether the empty foundation at ``foundation_pile`` takes a card of ``rank``:
    its base rank, or any while a chosen base is still to be chosen."""
    base = spec(rules, foundation_pile, P_BASE)
    if base == BASE_CHOSEN:
        base = state[rules[OFFSET_BASE]]
        return base == -1 or rank == base
    return rank == base


@allocation_free
def capped(rules, state, foundation_pile, h):
    """Whether a foundation of ``h`` cards is at its cap (``P_CAP`` while
    ``P_CAP_WHILE``: Welford's centre stops at its first queen while pack one
    is in the stock)."""
    condition, arg = spec(rules, foundation_pile, P_CAP_WHILE), spec(rules, foundation_pile, P_CAP_ARG)
    return h >= spec(rules, foundation_pile, P_CAP) and holds(rules, state, condition, arg)


@allocation_free
def holds(rules, state, condition, arg):
    """Whether ``condition`` (``COND_*`` but ``COND_NO_ROW_FITS``, with ``arg``) holds in ``state``."""
    if condition == COND_STOCK_DEEPER:
        return (
            height(rules, state, rules[STOCK_PILE]) > arg
            and counter(rules, state, COUNTER_RECYCLES) == rules[RECYCLES_AT_START]
        )
    if condition == COND_LAST_NOT_FROM:  # the state's record is of the kinds ``arg`` (``LAST_SOURCE_KINDS``)
        return counter(rules, state, COUNTER_LAST_SOURCE) == 0
    return True


@allocation_free
def guard_holds(rules, state, pile, condition, arg):
    """Whether ``condition`` (``COND_*``, with ``arg``) holds for ``pile`` in ``state``.
    (Only a guard may ask whether a row fits the pile: a cap is read to answer it.)"""
    if condition == COND_NO_ROW_FITS:
        return not a_row_fits(rules, state, pile)
    return holds(rules, state, condition, arg)


@allocation_free
def takes_from(rules, state, source, source_bit, destination):
    """Whether foundation ``destination``, which accepts the top card of
    ``source`` (of kind bit ``source_bit``), takes it from that pile: not from a
    pile it refuses (``P_REFUSES``), and from a guarded kind (``P_GUARD_KINDS``)
    only while its ``P_GUARD`` holds."""
    if (spec(rules, destination, P_REFUSES) >> source) & 1:
        return False
    if spec(rules, destination, P_GUARD_KINDS) & source_bit == 0:
        return True
    guard, arg = spec(rules, destination, P_GUARD), spec(rules, destination, P_GUARD_ARG)
    return guard_holds(rules, state, destination, guard, arg)


@allocation_free
def a_row_fits(rules, state, foundation_pile):
    """Whether some row's top card may go onto ``foundation_pile``."""
    for row in range(rules[FIRST_CELL]):
        card = top_card(rules, state, row)
        if card >= 0 and foundation_accepts(rules, state, foundation_pile, card):
            return True
    return False


@allocation_free
def gives_now(rules, source, h):
    """Whether a pile of ``h`` cards that may give (``P_GIVES``) gives now: not a
    foundation that is complete and dead (``P_DEAD_WHEN_FULL``)."""
    return source < rules[FIRST_FOUNDATION] or not (
        spec(rules, source, P_DEAD_WHEN_FULL) == 1 and h >= spec(rules, source, P_LIMIT)
    )


@allocation_free
def is_foundation(rules, pile):
    return pile >= rules[FIRST_FOUNDATION]


@allocation_free
def fills_with(fill, card):
    """Whether an empty pile with fill rule ``fill`` takes ``card`` from a player."""
    return fill == FILL_ANY or (fill == FILL_KINGS and card % 13 == 12)


@allocation_free_inlined
def card_destinations(rules, state, source, card, move_high, out, count):
    """Write ``move_high + source * MOVE_BASE + destination`` into ``out`` for
    every pile ``card`` (leaving ``source``) may go to; return the new count."""
    source_bit = np.int64(1) << spec(rules, source, P_KIND)
    count = foundation_destinations(rules, state, source, source_bit, card, move_high, out, count)
    first_cell = rules[FIRST_CELL]
    if rules[ROWS_ALIKE] == 1:
        # every row has row 0's spec: read it once (the hot path of the Castle games)
        if first_cell > 0 and spec(rules, 0, P_ACCEPTS_FROM) & source_bit:
            build, wrap = spec(rules, 0, P_BUILD), spec(rules, 0, P_WRAP) == 1
            fills = fills_with(spec(rules, 0, P_FILL), card)
            for row in range(first_cell):
                if row == source:
                    continue
                target = top_card(rules, state, row)
                if fills if target < 0 else builds_on(build, wrap, card, target):
                    out[count] = move_high + source * MOVE_BASE + row
                    count += 1
    else:
        for row in range(first_cell):
            if row == source or spec(rules, row, P_ACCEPTS_FROM) & source_bit == 0:
                continue
            target = top_card(rules, state, row)
            if target < 0:
                allowed = fills_with(spec(rules, row, P_FILL), card)
            else:
                allowed = builds_on(spec(rules, row, P_BUILD), spec(rules, row, P_WRAP) == 1, card, target)
            if allowed:
                out[count] = move_high + source * MOVE_BASE + row
                count += 1
    for cell in range(first_cell, rules[FIRST_RESERVE]):
        if height(rules, state, cell) == 0 and spec(rules, cell, P_ACCEPTS_FROM) & source_bit:
            out[count] = move_high + source * MOVE_BASE + cell
            count += 1
    return count


@allocation_free_inlined
def foundation_destinations(rules, state, source, source_bit, card, move_high, out, count):
    """``card_destinations`` for the foundations."""
    first_foundation = rules[FIRST_FOUNDATION]
    # by suit, foundation i takes suit i % 4 only: start at the card's suit, step 4
    by_suit = rules[FOUNDATION_MODE] != FOUNDATION_ANY_SUIT
    step = 4 if by_suit else 1
    first = first_foundation + (card // 13) % 4 if by_suit else first_foundation
    for foundation in range(first, rules[N_PILES], step):
        if (
            foundation != source and spec(rules, foundation, P_ACCEPTS_FROM) & source_bit
            and foundation_accepts(rules, state, foundation, card)
            and takes_from(rules, state, source, source_bit, foundation)
        ):
            out[count] = move_high + source * MOVE_BASE + foundation
            count += 1
    return count


@allocation_free_inlined
def moves_from(rules, state, source, out, count, home_only):
    """Write the card moves of ``source``'s top card (only those to a foundation
    if ``home_only``) into ``out`` from ``count`` on, in ``legal_moves``' order;
    return the new count."""
    least = spec(rules, source, P_GIVES)  # the top card leaves only from at least this many cards
    if least == 0:
        return count
    h = height(rules, state, source)
    if h >= least and gives_now(rules, source, h):
        card = card_at(rules, state, source, h - 1)
        if card < 0:  # a hidden card (an observation's) goes nowhere
            return count
        if home_only:
            source_bit = np.int64(1) << spec(rules, source, P_KIND)
            return foundation_destinations(rules, state, source, source_bit, card, 0, out, count)
        count = card_destinations(rules, state, source, card, 0, out, count)
    return count


@allocation_free
def legal_moves(rules, state, out):
    """Write every legal move into ``out``; return how many there are.

    Card moves: the top card of every pile a player may take from goes to a
    foundation that accepts it, onto a row whose top it builds on, into an
    empty row that its fill rule lets it into, or into an empty cell, each as
    the destination's pile spec allows from the source's kind. Games with a
    stock, redeals or draws add those moves (``special_moves``).
    """
    count = 0
    for source in range(rules[SOURCE_LIMIT]):
        count = moves_from(rules, state, source, out, count, False)
    if rules[HAS_SPECIAL] == 1:
        count = special_moves(rules, state, out, count)
    return count


@allocation_free
def move_kind(move):
    """``MOVE_*`` kind of a move code."""
    return move >> KIND_SHIFT


@allocation_free
def move_detail(move):
    """The index of the card a draw pulls out (0 for other moves)."""
    return (move >> DETAIL_SHIFT) & DETAIL_MASK


@allocation_free
def counter(rules, state, index):
    return np.int64(state[rules[OFFSET_COUNTERS] + index])


@allocation_free
def special_moves(rules, state, out, count):
    """Append the moves that are not one top card between two piles: turning
    the stock, turning the waste back into the stock, a redeal, a draw."""
    stock = rules[STOCK_PILE]
    if stock >= 0:
        waste = rules[WASTE_PILE]
        if height(rules, state, stock) > 0:
            out[count] = (MOVE_TURN << KIND_SHIFT) + stock * MOVE_BASE + waste
            count += 1
        elif height(rules, state, waste) > 0 and counter(rules, state, COUNTER_RECYCLES) > 0:
            out[count] = (MOVE_RECYCLE << KIND_SHIFT) + waste * MOVE_BASE + stock
            count += 1
    if counter(rules, state, COUNTER_REDEALS) > 0 and rows_hold_cards(rules, state):
        out[count] = MOVE_REDEAL << KIND_SHIFT
        count += 1
    elif counter(rules, state, COUNTER_DRAWS) > 0 and counter(rules, state, COUNTER_REDEALS) == 0:
        for row in range(rules[FIRST_CELL]):
            for index in range(height(rules, state, row) - 1):
                card = card_at(rules, state, row, index)
                high = (MOVE_DRAW << KIND_SHIFT) + (index << DETAIL_SHIFT)
                count = card_destinations(rules, state, row, card, high, out, count)
    return count


@allocation_free
def rows_hold_cards(rules, state):
    for row in range(rules[FIRST_CELL]):
        if height(rules, state, row) > 0:
            return True
    return False


@allocation_free
def apply_move(rules, state, move):
    """Move the top card of the move's source onto its destination, in place
    (a card move, in a game without automatic refills: ``simlab.engine.moves``
    plays every kind of move)."""
    source = (move // MOVE_BASE) % MOVE_BASE
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
    apply_move(rules, state, (move % MOVE_BASE) * MOVE_BASE + (move // MOVE_BASE) % MOVE_BASE)
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
COUNTER_MULTIPLIER = np.uint64(0x100000001B3)


@allocation_free
def pile_term(rules, pile, pile_hash_value):
    """One pile's share of ``position_hash``. Rows (and cells) are summed without
    their identity, so positions that differ only in the order of rows (cells)
    hash alike; reserves and foundations keep their identity (piles declared
    alike share one: ``P_IDENTITY``), and so do rows
    where a redeal gathers them in order (``ROWS_ORDERED``): their order
    changes every later shuffle."""
    if pile < rules[FIRST_CELL]:
        return _mix(pile_hash_value + np.uint64(rules[ROWS_ORDERED] * (pile + 1)))
    if pile < rules[FIRST_RESERVE]:
        return _mix(pile_hash_value ^ CELL_SALT)
    return _mix(pile_hash_value + np.uint64(spec(rules, pile, P_IDENTITY) + 1))


@allocation_free
def base_term(rules, state):
    """The share of ``position_hash`` of what is not a pile: the foundations'
    base rank and, in games that have them, the counters (redeals, passes and
    draws left, the chance tape's position)."""
    value = np.uint64(state[rules[OFFSET_BASE]] + 2) * BASE_MULTIPLIER
    for index in range(rules[COUNTER_SLOTS]):
        value = value * COUNTER_MULTIPLIER + np.uint64(state[rules[OFFSET_COUNTERS] + index] & 0xFF)
    return _mix(value)


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
