"""Every kind of move, made and undone in place: the general form of ``kernel.apply_move``.

A card move in a game without automatic refills is its own exact inverse
(``kernel.undo_move``), so games made only of those (the Castle family, Fortress,
Chessboard, Castle of Indolence) keep the fast path: ``play`` and ``unplay``
call straight into the kernel. Every other move, and every move of a game with
refills, counters or chance, copies the state into an *undo record* first, and
``unplay`` copies it back: exact by construction whatever the move did
(turning the stock, a refill chain, a redeal's shuffle, a draw). A state is a
few hundred bytes, so the copy costs about as much as generating the moves.

Chance: a redeal shuffles with the deal's own random stream, as PySolFC does.
``simlab.deals.chance_tape`` writes the numbers that stream yields after the
deal's shuffle; the state counts how many a redeal has used (``COUNTER_TAPE``),
so the deal number fixes every shuffle of the game and a move list replays to
the same result.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.compiled import allocation_free
from simlab.engine.layout import (
    CAPACITY,
    COUNTER_DRAWS,
    COUNTER_LAST_SOURCE,
    COUNTER_RECYCLES,
    COUNTER_REDEALS,
    COUNTER_TAPE,
    FILL_ON_TURN,
    FILL_REFILL,
    FIRST_CELL,
    FIRST_FOUNDATION,
    HAS_HIDDEN,
    HAS_SPECIAL,
    LAST_SOURCE_KINDS,
    LAST_SOURCE_PILE,
    MOVE_BASE,
    MOVE_CARD,
    MOVE_DRAW,
    MOVE_RECYCLE,
    MOVE_REDEAL,
    MOVE_TURN,
    N_CARDS,
    N_PILES,
    OFFSET_COUNTERS,
    OFFSET_HEIGHTS,
    P_FILL,
    P_IDENTITY,
    P_KIND,
    P_LIMIT,
    P_REFILL_FROM,
    P_VISIBLE,
    P_WRAP,
    REDEAL_GROUP,
    STATE_SIZE,
    STOCK_PILE,
    SUITS_MATTER,
    VISIBLE_ALL,
    VISIBLE_NONE,
)

HIDDEN = -2  # an observation's value for a card the player cannot see
TAPE_LCG = 0.0  # chance_tape[0]: Microsoft's LCG, randint(0, n) = value % (n + 1)
TAPE_MT = 1.0  # Mersenne Twister, randint(0, n) = floor(value * (n + 1))


@allocation_free
def needs_record(rules):
    """Whether undoing a move of this game needs the undo record."""
    return rules[HAS_SPECIAL] == 1


@allocation_free
def copy_state(rules, source, target):
    for index in range(rules[STATE_SIZE]):
        target[index] = source[index]


@allocation_free
def add_counter(rules, state, index, delta):
    state[rules[OFFSET_COUNTERS] + index] += delta


@allocation_free
def move_top(rules, state, source, destination):
    """The top card of ``source`` onto ``destination`` (no rule checked)."""
    kernel.apply_move(rules, state, source * MOVE_BASE + destination)


@allocation_free
def tape_position(rules, state):
    low = np.int64(state[rules[OFFSET_COUNTERS] + COUNTER_TAPE]) & 0xFF
    high = np.int64(state[rules[OFFSET_COUNTERS] + COUNTER_TAPE + 1]) & 0xFF
    return high * 256 + low


@allocation_free
def set_tape_position(rules, state, position):
    value = position & 0xFF
    state[rules[OFFSET_COUNTERS] + COUNTER_TAPE] = value - 256 if value > 127 else value
    value = (position >> 8) & 0xFF
    state[rules[OFFSET_COUNTERS] + COUNTER_TAPE + 1] = value - 256 if value > 127 else value


@allocation_free
def tape_randint(chance, position, n):
    """randint(0, n) from the tape's number at ``position`` (1-based: chance[0] names the generator)."""
    value = chance[position]
    if chance[0] == TAPE_LCG:
        return np.int64(value) % (n + 1)
    return np.int64(value * (n + 1))


@allocation_free
def redeal_using(rules, state, chance, cards):
    """Gather the rows (row 0 first, each bottom to top) into ``cards`` (scratch
    of ``N_CARDS``), shuffle them with the next numbers of the chance tape
    (Fisher-Yates from the end, as PySolFC), and deal them again from the end
    of the list: round ``r`` gives one card to rows ``0 .. (n + r) // group - 1``,
    so rows of ``group`` cards and a last shorter one."""
    n = 0
    for row in range(rules[FIRST_CELL]):
        for index in range(kernel.height(rules, state, row)):
            cards[n] = kernel.card_at(rules, state, row, index)
            n += 1
        state[rules[OFFSET_HEIGHTS] + row] = 0
        for index in range(rules[CAPACITY]):
            state[row * rules[CAPACITY] + index] = -1
    position = tape_position(rules, state)
    for last in range(n - 1, 0, -1):
        position += 1
        j = tape_randint(chance, position, last)
        cards[last], cards[j] = cards[j], cards[last]
    set_tape_position(rules, state, position)
    group = rules[REDEAL_GROUP]
    next_card = n - 1
    for round_ in range(group):
        for row in range((n + round_) // group):
            height = kernel.height(rules, state, row)
            state[row * rules[CAPACITY] + height] = cards[next_card]
            state[rules[OFFSET_HEIGHTS] + row] = height + 1
            next_card -= 1


@allocation_free
def recycle(rules, state, waste, stock):
    """Turn the waste over: its bottom card becomes the stock's top."""
    while kernel.height(rules, state, waste) > 0:
        move_top(rules, state, waste, stock)


@allocation_free
def draw(rules, state, row, index, destination):
    """Pull card ``index`` of ``row`` out from under its top onto ``destination``."""
    capacity = rules[CAPACITY]
    height = kernel.height(rules, state, row)
    card = state[row * capacity + index]
    for k in range(index, height - 1):
        state[row * capacity + k] = state[row * capacity + k + 1]
    state[row * capacity + height - 1] = card
    move_top(rules, state, row, destination)


@allocation_free
def refill(rules, state):
    """Automatic refills: an empty pile whose spec says ``FILL_REFILL`` takes the
    top card of its refill pile at once, in pile order, until nothing changes
    (an emptied sail takes the waste's top, then the emptied waste the stock's)."""
    changed = True
    while changed:
        changed = False
        for pile in range(rules[N_PILES]):
            if kernel.spec(rules, pile, P_FILL) != FILL_REFILL or kernel.height(rules, state, pile) > 0:
                continue
            source = kernel.spec(rules, pile, P_REFILL_FROM)
            if kernel.height(rules, state, source) > 0:
                move_top(rules, state, source, pile)
                changed = True


@njit(cache=True)
def play(rules, state, move, chance, record):
    """Make ``move`` (legal in ``state``) in place, keeping in ``record`` what
    ``unplay`` needs to restore ``state`` exactly."""
    if not needs_record(rules):
        kernel.apply_move(rules, state, move)
        return
    copy_state(rules, state, record)
    play_any(rules, state, move, chance, np.empty(rules[N_CARDS], dtype=np.int64))


@allocation_free
def play_any(rules, state, move, chance, cards):
    """Make ``move`` of any kind in place, then the automatic refills; keeps no
    record (the caller saves the state first). ``cards``: a redeal's scratch
    (``N_CARDS``)."""
    kind = kernel.move_kind(move)
    source = (move // MOVE_BASE) % MOVE_BASE
    destination = move % MOVE_BASE
    if kind == MOVE_CARD:
        kernel.apply_move(rules, state, move)
        if destination == rules[LAST_SOURCE_PILE]:
            state[rules[OFFSET_COUNTERS] + COUNTER_LAST_SOURCE] = (
                rules[LAST_SOURCE_KINDS] >> kernel.spec(rules, source, P_KIND)
            ) & 1
    elif kind == MOVE_TURN:
        fill_gaps(rules, state)
        if kernel.height(rules, state, source) > 0:
            kernel.apply_move(rules, state, move & 0xFFFF)
    elif kind == MOVE_RECYCLE:
        recycle(rules, state, source, destination)
        add_counter(rules, state, COUNTER_RECYCLES, -1)
    elif kind == MOVE_REDEAL:
        redeal_using(rules, state, chance, cards)
        add_counter(rules, state, COUNTER_REDEALS, -1)
    elif kind == MOVE_DRAW:
        draw(rules, state, source, kernel.move_detail(move), destination)
        add_counter(rules, state, COUNTER_DRAWS, -1)
    refill(rules, state)


@allocation_free
def fill_gaps(rules, state):
    """Before the stock is turned: every pile that ``FILL_ON_TURN`` fills takes
    stock cards up to its size, pile by pile (Welford's sails, inner card first)."""
    stock = rules[STOCK_PILE]
    for pile in range(rules[N_PILES]):
        if kernel.spec(rules, pile, P_FILL) != FILL_ON_TURN:
            continue
        while kernel.height(rules, state, pile) < kernel.spec(rules, pile, P_LIMIT) and kernel.height(
            rules, state, stock
        ) > 0:
            move_top(rules, state, stock, pile)


@allocation_free
def card_moves_irreversible(rules):
    """Whether a card move may do more than move its card (a refill, or the
    record of the last card's source, ``COUNTER_LAST_SOURCE``): then it is not its own inverse."""
    if rules[LAST_SOURCE_PILE] >= 0:
        return True
    for pile in range(rules[N_PILES]):
        if kernel.spec(rules, pile, P_FILL) == FILL_REFILL:
            return True
    return False


@allocation_free
def unplay(rules, state, move, record):
    """Exactly reverse ``play(rules, state, move, chance, record)``."""
    if not needs_record(rules):
        kernel.undo_move(rules, state, move)
        return
    copy_state(rules, record, state)


@allocation_free
def observe(rules, state, out):
    """Write into ``out`` what a player sees of ``state``: every card of a pile
    they cannot see (a face-down stock, the squared cards under a reserve's
    top) becomes ``HIDDEN``; heights, counters and visible cards are kept."""
    copy_state(rules, state, out)
    if rules[HAS_HIDDEN] == 0:
        return
    capacity = rules[CAPACITY]
    for pile in range(rules[N_PILES]):
        visible = kernel.spec(rules, pile, P_VISIBLE)
        if visible == VISIBLE_ALL:
            continue
        hidden = kernel.height(rules, state, pile) - (0 if visible == VISIBLE_NONE else 1)
        for index in range(hidden):
            out[pile * capacity + index] = HIDDEN


@allocation_free
def swaps_alike(rules, source, destination):
    """Whether a card move from ``source`` to ``destination`` goes between two
    alike foundations and only swaps them, in a game whose rules read ranks
    only (``SUITS_MATTER`` 0: Windmill's king piles); the solver's search and
    the built-in policies skip such moves. Argument: alike piles build from
    the same base in the same direction, so their ranks are fixed by their
    heights; without wrap the top of a pile of h cards goes only onto an
    alike pile of h - 1, and the two then hold h - 1 and h cards
    of the same ranks as before: the same position up to the order of alike
    piles, which the position hash ignores."""
    return (
        rules[SUITS_MATTER] == 0 and source >= rules[FIRST_FOUNDATION] and kernel.spec(rules, source, P_WRAP) == 0
        and kernel.spec(rules, source, P_IDENTITY) == kernel.spec(rules, destination, P_IDENTITY)
    )
