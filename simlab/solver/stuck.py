"""Stuck foundations: a proof that the foundations cannot take enough cards again, searched by rank.

Why: measured on Streets and Alleys deal 77 (unknown at 150M positions), 2,922
of 3,000 positions sampled from the first 3M of the long depth-first search
had the same 9 cards home and could never send another: the search walked
through rearrangements of the rows, 445,824 positions from one entry alone,
none with a card a foundation takes on top. ``simlab.solver.deadlock``'s
relaxation cannot see it: one empty row lets every card leave there.

The check (games whose rows build down regardless of suit, one deck by suit,
no reserve, nothing leaves a foundation, card moves only: ``SearchPlan.stuck``).
A position is *stuck for k plays* when no line of moves from it wins or makes
k foundation plays. A stuck position is lost (it is not won, and a win needs
more plays or is one). ``stuck`` decides it by a depth-first search over
(position, plays still asked for), foundation plays tried first, that stops at
the first win or k-th play: not stuck. If it runs out of positions, stuck.

The search knows a position by rank, except for the next k cards of each
suit's foundation (the ones k plays can send home), and by the plays still
asked for. Moves between rows and cells read ranks only (a card goes on a card
one rank higher, or into a space), so two positions alike in ranks and in
where those cards lie reach positions alike in the same way; a foundation play
sends the same card home from both, and leaves them alike in the next k-1
cards of each suit, all the next search asks about. So the positions a key
merges are stuck together or not at all. On deal 77's stuck 9 cards home that
is 792 positions instead of 445,824.

The depth-first searches ask at the start and wherever the foundations have
just changed (a position reached without a foundation play is a rearrangement
of one checked before: were that one stuck, it was pruned; asking again at
every rearrangement would cost a check a position). A check asks for 1
play, then 2, up to ``SearchPlan.stuck`` (``STUCK_LEVELS``), and stops at the
first level that is stuck (the position is lost) or gives up. Every position
a stuck search saw is stuck too, and so is every position it saw below a
foundation play once it backs up over that play (none of them asks for as
many plays as any position above, so none reaches back): their keys are kept
(``known``), also when the check later gives up, and a later search that meets
one is done with it at once. A check gives up (proving nothing) after
``stuck_budget`` positions: ``STUCK_BUDGET``, a sixteenth of the asking
search's budget if less (a check that cannot finish must not eat a small
search), or what is left of it; its positions count towards the search's
(``search.positions_searched``). A check that gives up at a level halves the
cap of the checks after it at that level, down to ``STUCK_FLOOR``
(``lowered_cap``): a family too large for one check tends to be met again
from the positions around it (Streets and Alleys 1,000,528 saw 54,067
positions of its own and 31.9M in checks, 29 of which gave up, 27 of them
asking for 4 plays). Per level, because a search's large stuck families are
often at another level than its checks that give up (Beleaguered Castle
1,000,910: two give up asking for 5 and 6 plays, six families of 0.5-1M
positions are stuck for 4; halving every level's cap left it unknown).

A check that reaches its plays also keeps the positions on its line as live
(each reaches them along it), salted apart in the same table: a later check
that meets one is done at once. Measured on deals the checks first made
slower (Citadel 484 from 9.7M positions to 2.0M; Streets and Alleys 949 from
5.2M to 0.5M), as the same live families were searched again at every entry.

A check follows its position's key move by move, as the depth-first search
follows its hash: it keeps each pile's hash and each card's place
(``rank_values``), so a move between rows changes two piles' shares
(``moved_rank_hash``) and a foundation play the card played and one card per
suit (``toggle_home``); the levels of a check start from one hash of the
position (``raise_level``). Recomputing the key for every move tried had
cost most of a check's time. A move is looked up in the check's own table
before ``known`` (the small table is the cheaper to ask; the large one misses
the cache), and where rows are alike and unordered the moves that can only
reach a position already reached, a card into an empty row after the first or
a row's only card into an empty row, are not tried (``empties_alike``; the
depth-first search leaves them out too).

What the proof rests on: the keys. The cards kept apart are keyed apart from
ranks (rows 52 and up of the search's keys, unused by a one-deck game's
cards), and each level's keys are salted apart; a collision between two keys
could hide the line that reaches the plays, and the loss is then confirmed,
like every loss, by a search with independent keys
(``simlab.solver.portfolio.confirmed``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simlab.engine import kernel, moves
from simlab.engine.compiled import allocation_free, allocation_free_inlined
from simlab.engine.layout import (
    CAPACITY,
    FIRST_CELL,
    FIRST_FOUNDATION,
    MOVE_BASE,
    N_CARDS,
    N_PILES,
    ROWS_ALIKE,
    ROWS_ORDERED,
    SOURCE_LIMIT,
)
from simlab.engine.position_set import add, capacity, contains, forget_added, slots_for

# Positions a check searches at most, every level's added up: ``STUCK_BUDGET``, and
# at most a ``STUCK_SHARE``-th of the budget of the search that asks.
STUCK_BUDGET = 1 << 20
STUCK_SHARE = 16
# Each check that gives up at a level halves the cap of the checks after it at that
# level, down to this (``lowered_cap``).
STUCK_FLOOR = 1 << 14
# How many more foundation plays a check asks for (``levels``).
STUCK_LEVELS = 6
MAX_LEVELS = 16  # levels that get a cap of their own (``CheckSpace.caps``); any above share the search's
FIRST_SLOTS = 4096  # a check starts in this many slots of its table and doubles them as it needs
TARGET_ROW = 52  # a card kept apart is keyed by ``zobrist[TARGET_ROW + card]``; others by ``zobrist[rank]``
LEVEL_SALT = np.uint64(0xC2B2AE3D27D4EB4F)  # tells the levels' keys apart
LIVE_SALT = np.uint64(0x27BB2EE687B0B0FD)  # a position found live is kept as its key plus this

# What ``stuck`` found.
STUCK_NO = 0  # a win, or ``levels`` foundation plays, are within reach
STUCK_YES = 1  # neither is: the position is lost
STUCK_UNKNOWN = 2  # the check gave up


@allocation_free_inlined
def row_of(card, ahead, level):
    """The row of the keys that stands for ``card``, ``ahead`` ranks above its
    suit's foundation, in a check asking for ``level`` plays: its own
    (``TARGET_ROW + card``) if it is among the next ``level`` cards that
    foundation takes, else its rank's."""
    return TARGET_ROW + card if 0 <= ahead < level else card % 13


@allocation_free_inlined
def rank_row(rules, state, card, level):
    """``row_of`` ``card`` in ``state``."""
    return row_of(card, card % 13 - kernel.height(rules, state, rules[FIRST_FOUNDATION] + card // 13), level)


@allocation_free
def rank_hash(rules, state, zobrist, level):
    """``kernel.position_hash`` with every card keyed by its rank but the next
    ``level`` cards of each suit's foundation, and salted by ``level``."""
    total = kernel.base_term(rules, state) + LEVEL_SALT * np.uint64(level)
    for pile in range(rules[N_PILES]):
        value = np.uint64(0x9E3779B97F4A7C15)
        for index in range(kernel.height(rules, state, pile)):
            value ^= zobrist[rank_row(rules, state, kernel.card_at(rules, state, pile, index), level), index]
        total += kernel.pile_term(rules, pile, value)
    return total


@allocation_free
def rank_values(rules, state, zobrist, level, values, places):
    """``rank_hash``, filling ``values`` and ``places`` for the moves that follow."""
    for pile in range(rules[N_PILES]):
        value = np.uint64(0x9E3779B97F4A7C15)
        for index in range(kernel.height(rules, state, pile)):
            card = kernel.card_at(rules, state, pile, index)
            places[card] = pile * rules[CAPACITY] + index
            value ^= zobrist[rank_row(rules, state, card, level), index]
        values[pile] = value
    return values_hash(rules, state, level, values)


@allocation_free_inlined
def values_hash(rules, state, level, values):
    """``rank_hash`` of ``state`` from its piles' hashes ``values``."""
    total = kernel.base_term(rules, state) + LEVEL_SALT * np.uint64(level)
    for pile in range(rules[N_PILES]):
        total += kernel.pile_term(rules, pile, values[pile])
    return total


@allocation_free_inlined
def moved_keys(rules, state, move, zobrist, level):
    """The keys a card move that sends nothing home takes out of its source's
    hash and puts into its destination's (``state`` is the position before the
    move, or after its undo: the same keys)."""
    source = (move // MOVE_BASE) % MOVE_BASE
    destination = move % MOVE_BASE
    source_height = kernel.height(rules, state, source)
    row = rank_row(rules, state, kernel.card_at(rules, state, source, source_height - 1), level)
    return source, destination, zobrist[row, source_height - 1], zobrist[row, kernel.height(rules, state, destination)]


@allocation_free_inlined
def moved_rank_hash(rules, state, move, zobrist, level, values, key):
    """``rank_hash`` of the position after a card move that sends nothing home,
    from the position's hash ``key`` and its piles' ``values``, without making
    the move: it leaves the foundations, so every other card's key, alone."""
    source, destination, leaves, arrives = moved_keys(rules, state, move, zobrist, level)
    old_source, old_destination = values[source], values[destination]
    key -= kernel.pile_term(rules, source, old_source) + kernel.pile_term(rules, destination, old_destination)
    return key + kernel.pile_term(rules, source, old_source ^ leaves) + kernel.pile_term(
        rules, destination, old_destination ^ arrives
    )


@allocation_free_inlined
def toggle_moved(rules, state, move, zobrist, level, values):
    """Update ``values`` for a card move that sends nothing home, made next
    (``state`` is the position before it) or just undone (after the undo)."""
    source, destination, leaves, arrives = moved_keys(rules, state, move, zobrist, level)
    values[source] ^= leaves
    values[destination] ^= arrives


@allocation_free
def toggle_home(rules, state, move, zobrist, level, values, places):
    """Update ``values`` for a foundation play made next at ``level`` (``state``
    is the position before it) or just undone (after the undo). The play raises
    its suit's foundation and asks for one play less, so besides the card
    played one card per suit changes rows (``row_of``): in the suit played, the
    one level with the foundation before (it stops being ahead); in each other
    suit, the one ``level - 1`` ahead (it falls out of the fewer cards asked for)."""
    first_foundation = rules[FIRST_FOUNDATION]
    source = (move // MOVE_BASE) % MOVE_BASE
    destination = move % MOVE_BASE
    source_height = kernel.height(rules, state, source)
    played = kernel.card_at(rules, state, source, source_height - 1)
    values[source] ^= zobrist[rank_row(rules, state, played, level), source_height - 1]
    own = first_foundation + played // 13
    ahead = played % 13 - kernel.height(rules, state, own) - (own == destination)
    values[destination] ^= zobrist[row_of(played, ahead, level - 1), kernel.height(rules, state, destination)]
    for suit in range(rules[N_PILES] - first_foundation):
        foundation = kernel.height(rules, state, first_foundation + suit)
        rank = foundation if first_foundation + suit == destination else foundation + level - 1
        if rank > 12:
            continue
        if suit * 13 + rank != played:
            switch_rows(rules, zobrist, suit * 13 + rank, values, places)


@allocation_free_inlined
def switch_rows(rules, zobrist, card, values, places):
    """Update ``values`` for ``card`` (where ``places`` says it lies) keyed by
    the other of its two rows: its own, or its rank's (``row_of``)."""
    pile, index = places[card] // rules[CAPACITY], places[card] % rules[CAPACITY]
    values[pile] ^= zobrist[TARGET_ROW + card, index] ^ zobrist[card % 13, index]


@allocation_free_inlined
def place_top(rules, state, pile, places):
    """Record where ``pile``'s top card now lies in ``places``."""
    top = kernel.height(rules, state, pile) - 1
    places[kernel.card_at(rules, state, pile, top)] = pile * rules[CAPACITY] + top


@allocation_free_inlined
def empties_alike(rules, state, move):
    """Whether ``move`` (sending nothing home) fills an empty row while a row
    before it is empty too, or moves a row's only card into an empty row: where rows are
    alike and unordered, the first reaches the position the move into the
    first empty row reached just before it (rows are listed in order), the
    second this very position; both would be looked up and found seen."""
    destination = move % MOVE_BASE
    if rules[ROWS_ALIKE] == 0 or rules[ROWS_ORDERED] == 1 or destination >= rules[FIRST_CELL]:
        return False
    if kernel.height(rules, state, destination) > 0:
        return False
    source = (move // MOVE_BASE) % MOVE_BASE
    if source < rules[FIRST_CELL] and kernel.height(rules, state, source) == 1:
        return True
    for row in range(destination):
        if kernel.height(rules, state, row) == 0:
            return True
    return False


@allocation_free
def stuck_budget(search_budget):
    """The most positions a check may search for a search of ``search_budget``."""
    return min(STUCK_BUDGET, search_budget // STUCK_SHARE)


@allocation_free
def lowered_cap(cap):
    """The cap of the checks after one that gave up at ``cap`` at the same level:
    half of it, but not below ``STUCK_FLOOR`` (nor above ``cap``)."""
    return max(min(STUCK_FLOOR, cap), cap // 2)


@allocation_free
def level_cap_of(caps, levels, cap):
    """The most positions a check asking for ``levels`` plays may search:
    ``caps[levels]`` once lowered, else the search's ``cap``."""
    if levels < caps.shape[0] and caps[levels] >= 0:
        return caps[levels]
    return cap


@allocation_free
def remember(known, known_entries, key):
    """Add ``key`` to ``known``, which holds ``known_entries``, if it has room
    (past that a check keeps less, and proves the same); return how many it
    holds then."""
    if known_entries < capacity(known) and add(known, key):
        known_entries += 1
    return known_entries


@allocation_free
def keep_live(keys, stack, depth, known, known_entries):
    """Keep the positions on a check's line down to ``depth`` as live (each
    reaches what the check asked for along it), salted apart in ``known``."""
    known_entries = remember(known, known_entries, keys[0] + LIVE_SALT)
    for at in range(depth):
        known_entries = remember(known, known_entries, keys[stack[at, FIRST_KEY]] + LIVE_SALT)
    return known_entries


@allocation_free
def keep_dead(keys, known, known_entries):
    """Keep ``keys`` (positions found stuck) in ``known``; return how many keys it holds then."""
    for key in keys:
        known_entries = remember(known, known_entries, key)
    return known_entries


# Columns of a check's stack (``stuck_search``), one row per depth. A depth's moves
# are listed one source at a time (foundation plays of every source first, then
# the other moves), so coming back to a depth lists one source's moves again, not all.
SOURCE = 0  # the source whose moves are being tried there, plus ``SOURCE_LIMIT`` once past the plays home
TRIED = 1  # how many of that source's moves were tried
LEVEL = 2  # foundation plays still asked for there
FIRST_KEY = 3  # where the keys of positions searched below start
CHOSEN = 4  # the move made to go deeper
STACK_COLUMNS = 5
STACK_DTYPE = np.int32  # a check's line can run as deep as its budget: 20 bytes a depth


class CheckSpace(NamedTuple):
    """What a search's stuck checks work in, made once per search (``new_check_space``).
    ``places`` holds a slot for every card, so a checked position holds the whole deck
    (every dealt position does)."""

    seen: np.ndarray  # a position set: the check's positions (``stuck_search``)
    keys: np.ndarray  # their keys, in the order added
    stack: np.ndarray  # one row per depth (``STACK_COLUMNS``)
    state: np.ndarray  # the check's copy of the position, changed in place
    values: np.ndarray  # the check's position: each pile's hash (``rank_values``)
    places: np.ndarray  # and each card's slot
    start_values: np.ndarray  # the same for the position checked, kept while the levels take turns
    start_places: np.ndarray
    caps: np.ndarray  # per level asked for, the most positions a check there may search (-1: the search's cap)


@njit(cache=True)
def new_check_space(rules, state, entries, table_bits):
    """A ``CheckSpace`` for checks of at most ``entries`` positions in a table
    of at most ``2**table_bits`` slots. Only the table's first slots are zeroed
    now, the rest as a check grows into them (``grow_within``), so a search that
    makes small checks never writes the whole of it (zeroing 16 MiB at every
    solve cost a millisecond-long solve ten times over)."""
    seen = np.empty(slots_for(entries, table_bits), dtype=np.uint64)
    seen[: min(FIRST_SLOTS, seen.shape[0])] = 0
    return CheckSpace(
        seen=seen,
        keys=np.empty(entries, dtype=np.uint64),
        stack=np.empty((entries, STACK_COLUMNS), dtype=STACK_DTYPE),
        state=np.empty_like(state),
        values=np.empty(rules[N_PILES], dtype=np.uint64),
        places=np.empty(rules[N_CARDS], dtype=np.int64),
        start_values=np.empty(rules[N_PILES], dtype=np.uint64),
        start_places=np.empty(rules[N_CARDS], dtype=np.int64),
        caps=np.full(MAX_LEVELS, -1, dtype=np.int64),
    )


@allocation_free
def stuck(rules, state, zobrist, levels, budget, known, known_entries, space, legal):
    """Whether ``state`` is stuck for ``levels`` plays (``stuck_search`` on a copy
    in ``space``, a ``CheckSpace``). Returns (``STUCK_*``, positions searched,
    the keys ``known`` holds)."""
    moves.copy_state(rules, state, space.state)
    key = rank_values(rules, space.state, zobrist, levels, space.values, space.places)
    return search_from(rules, zobrist, levels, key, budget, known, known_entries, space, legal)


@allocation_free
def stuck_levels(rules, state, zobrist, most, cap, left, known, known_entries, space, legal):
    """Whether ``state`` is stuck, asking for 1, 2, ... ``most`` plays in turn
    (module docstring) and stopping at the first level that is stuck or gives
    up; each level searches at most ``cap`` positions (fewer once a check
    there gave up: ``lowered_cap``), and all of them at most ``left``. The
    levels start from one hash of ``state`` (``raise_level``).
    Returns (``STUCK_*``, positions searched, the keys ``known`` holds)."""
    if most == 0:  # a plan without checks (and a game whose keys have no rows for cards kept apart)
        return STUCK_NO, 0, known_entries
    start = rank_values(rules, state, zobrist, 1, space.start_values, space.start_places)
    nodes = 0
    for levels in range(1, most + 1):
        if levels > 1:
            start = raise_level(rules, state, zobrist, levels - 1, space.start_values, space.start_places)
        moves.copy_state(rules, state, space.state)
        for pile in range(rules[N_PILES]):
            space.values[pile] = space.start_values[pile]
        for card in range(rules[N_CARDS]):
            space.places[card] = space.start_places[card]
        level_cap = level_cap_of(space.caps, levels, cap)
        status, found, known_entries = search_from(
            rules, zobrist, levels, start, min(level_cap, left - nodes), known, known_entries, space, legal
        )
        if status == STUCK_UNKNOWN and level_cap <= left - nodes and levels < space.caps.shape[0]:
            space.caps[levels] = lowered_cap(level_cap)
        nodes += found
        if status != STUCK_NO:
            return status, nodes, known_entries
    return STUCK_NO, nodes, known_entries


@allocation_free
def raise_level(rules, state, zobrist, level, values, places):
    """Turn ``values`` (``state``'s pile hashes at ``level``) into those at
    ``level + 1``: in each suit the card ``level`` ranks above the foundation
    is now among the cards kept apart. Returns the new ``rank_hash``."""
    first_foundation = rules[FIRST_FOUNDATION]
    for suit in range(rules[N_PILES] - first_foundation):
        rank = kernel.height(rules, state, first_foundation + suit) + level
        if rank <= 12:
            switch_rows(rules, zobrist, suit * 13 + rank, values, places)
    return values_hash(rules, state, level + 1, values)


@allocation_free
def search_from(rules, zobrist, levels, key, budget, known, known_entries, space, legal):
    """``stuck_search`` from ``space.state``, whose hash is ``key`` (with
    ``space.values`` and ``space.places`` filled), leaving ``space.seen`` empty
    again where it searched. Returns (``STUCK_*``, positions searched, the keys
    ``known`` holds)."""
    status, nodes, known_entries, size = stuck_search(
        rules, space.state, zobrist, levels, key, budget, known, known_entries, space.seen, space.keys,
        space.stack, legal, space.values, space.places,
    )
    forget_added(space.seen[:size], space.keys, nodes)
    return status, nodes, known_entries


@allocation_free
def grow_within(seen, size, keys, nodes):
    """Move ``keys[:nodes]``, held by the first ``size`` slots of ``seen``, into
    its first ``2 * size`` (zeroing the new half first), and return that size:
    the table grows in place, so a small check touches a small part of it."""
    for slot in range(size, 2 * size):
        seen[slot] = 0
    forget_added(seen[:size], keys, nodes)
    view = seen[: 2 * size]
    for index in range(nodes):
        add(view, keys[index])
    return 2 * size


@allocation_free
def stuck_search(rules, state, zobrist, levels, key, budget, known, known_entries, seen, keys, stack, legal, values,
                 places):
    """Whether a win or ``levels`` more foundation plays are within reach of
    ``state`` (module docstring), searched depth-first in place: ``state`` is a
    copy it may change. It gives up after ``budget`` positions (at most
    ``STUCK_BUDGET``).

    ``known`` holds ``known_entries`` keys of positions found stuck or live
    before (they are not searched again), and gets those this check finds;
    ``seen`` is a position set of at least ``budget`` entries, empty in its
    first ``FIRST_SLOTS`` (the rest may hold anything: the search zeroes them
    as it grows into them), whose keys also go to ``keys`` in the order added;
    ``stack`` has room for ``budget + 1`` depths, ``legal`` for every move,
    ``key`` is ``state``'s ``rank_hash``, with ``values`` and ``places`` filled (``rank_values``).
    Returns (``STUCK_*``, the keys written to ``keys``, the keys ``known`` holds,
    the slots of ``seen`` used).
    """
    if contains(known, key):
        return STUCK_YES, 0, known_entries, 0
    if contains(known, key + LIVE_SALT):
        return STUCK_NO, 0, known_entries, 0
    if budget < 1:
        return STUCK_UNKNOWN, 0, known_entries, 0
    view = seen[: min(FIRST_SLOTS, seen.shape[0])]
    keys[0] = key
    add(view, key)
    nodes = 1
    depth = 0
    stack[0, SOURCE] = 0
    stack[0, TRIED] = 0
    stack[0, LEVEL] = levels
    first_foundation = rules[FIRST_FOUNDATION]
    sources = rules[SOURCE_LIMIT]
    while depth >= 0:
        level = stack[depth, LEVEL]
        deeper = False
        count = 0
        while not deeper and stack[depth, SOURCE] < 2 * sources:  # foundation plays first, then the rest
            if count == 0:  # the source's moves, the same list each time back at a depth
                source = stack[depth, SOURCE]
                count = kernel.moves_from(rules, state, source % sources, legal, 0, source < sources)
            if stack[depth, TRIED] >= count:
                stack[depth, SOURCE] += 1
                stack[depth, TRIED] = 0
                count = 0
                continue
            move = legal[stack[depth, TRIED]]
            stack[depth, TRIED] += 1
            home = move % MOVE_BASE >= first_foundation
            if home != (stack[depth, SOURCE] < sources) or (not home and empties_alike(rules, state, move)):
                continue
            # the position a move reaches is looked up before the move is made: most were seen
            if home:
                next_level = level - 1
                if next_level == 0 or kernel.foundation_cards(rules, state) + 1 == rules[N_CARDS]:
                    return STUCK_NO, nodes, keep_live(keys, stack, depth, known, known_entries), view.shape[0]
                toggle_home(rules, state, move, zobrist, level, values, places)
                kernel.apply_move(rules, state, move)
                child = values_hash(rules, state, next_level, values)
            else:
                next_level = level
                child = moved_rank_hash(rules, state, move, zobrist, level, values, key)
            # this check's own small table first, the cheaper to ask; a key it holds is never
            # one ``known`` holds as live (none is added during a check)
            if contains(view, child) or contains(known, child):
                if home:
                    kernel.undo_move(rules, state, move)
                    toggle_home(rules, state, move, zobrist, level, values, places)
                continue
            if contains(known, child + LIVE_SALT):
                return STUCK_NO, nodes, keep_live(keys, stack, depth, known, known_entries), view.shape[0]
            if nodes >= budget:
                return STUCK_UNKNOWN, nodes, known_entries, view.shape[0]
            if nodes >= capacity(view) and view.shape[0] < seen.shape[0]:
                view = seen[: grow_within(seen, view.shape[0], keys, nodes)]
            if not home:
                toggle_moved(rules, state, move, zobrist, level, values)
                kernel.apply_move(rules, state, move)
            place_top(rules, state, move % MOVE_BASE, places)
            key = child
            add(view, key)
            keys[nodes] = key
            stack[depth, FIRST_KEY] = nodes
            stack[depth, CHOSEN] = move
            nodes += 1
            depth += 1
            stack[depth, SOURCE] = 0
            stack[depth, TRIED] = 0
            stack[depth, LEVEL] = next_level
            deeper = True
        if not deeper:
            depth -= 1
            if depth >= 0:
                key = keys[stack[depth - 1, FIRST_KEY]] if depth > 0 else keys[0]
                move = stack[depth, CHOSEN]
                kernel.undo_move(rules, state, move)
                place_top(rules, state, (move // MOVE_BASE) % MOVE_BASE, places)
                if move % MOVE_BASE >= first_foundation:
                    toggle_home(rules, state, move, zobrist, stack[depth, LEVEL], values, places)
                    # Every position searched below a foundation play asks for fewer plays than any
                    # position above it, so none reaches back up: each was searched to the end and is
                    # stuck, whatever this check ends with.
                    known_entries = keep_dead(keys[stack[depth, FIRST_KEY]:nodes], known, known_entries)
                else:
                    toggle_moved(rules, state, move, zobrist, stack[depth, LEVEL], values)
    return STUCK_YES, nodes, keep_dead(keys[:nodes], known, known_entries), view.shape[0]
