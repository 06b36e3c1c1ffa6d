"""The compiled depth-first search behind ``simlab.solver.solve``.

Depth-first search with an explicit stack and an undo log (the kernels apply
and undo moves in place), a transposition table of 64-bit position hashes that
treats rows (and cells) as interchangeable and grows as the search needs, safe
automatic foundation plays, and one of three move orders (``ORDER_*``): guided
toward the cards the foundations need next, the same with a seeded jitter, or
shuffled (best-first search uses a fourth, the kernel's plain order). A search
can be paused and resumed (``begin_depth_first``, ``resume_depth_first``). The
budget counts distinct positions (nodes), never seconds, so a verdict is
reproducible.

Pruning (each keeps the search complete; arguments in ``ordered_moves``):
1. a lone card never moves into an empty row (the result equals the position);
2. of several empty rows (or cells) only the first is a destination (symmetry);
3. the card moved last is not moved again straight away, unless automatic
   plays followed its move (it could have gone to its new place directly);
4. a position that ``simlab.solver.deadlock`` proves lost is counted but not
   expanded.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.compiled import allocation_free
from simlab.engine.features import URGENCY_WEIGHTS, cards_until_home, planned_base
from simlab.engine.incremental import apply_move_tracked, hash_after, start_tracking, undo_move_tracked
from simlab.engine.layout import FIRST_CELL, FIRST_FOUNDATION, FIRST_RESERVE, MOVE_BASE, N_CARDS, N_PILES
from simlab.engine.position_set import add, can_grow, capacity, grown, new_position_set
from simlab.solver.autoplay import next_safe_play, safe_foundation
from simlab.solver.deadlock import only_rearranges, provably_lost, provably_lost_using, relaxation_scratch
from simlab.solver.evaluation import next_rank

STATUS_WON = 0
STATUS_LOST = 1
STATUS_BUDGET = 2
STATUS_MEMORY = 3
MAX_BRANCHING = 1024


@njit(cache=True)
def grow(array, needed):
    """``array`` if it holds ``needed`` items, else a copy twice as large."""
    if needed < array.shape[0]:
        return array
    bigger = np.empty(max(2 * array.shape[0], needed + 1), dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


@allocation_free
def play_safe_moves(rules, state, log, log_length):
    """Make every safe automatic play; append them to ``log``; return the new length."""
    move = next_safe_play(rules, state)
    while move >= 0:
        kernel.apply_move(rules, state, move)
        log[log_length] = move
        log_length += 1
        move = next_safe_play(rules, state)
    return log_length


@allocation_free
def play_safe_moves_tracked(rules, state, log, log_length, zobrist, pile_hashes, card_piles, key):
    """``play_safe_moves`` keeping the tracked facts and the position hash ``key``
    up to date (``simlab.engine.incremental``); return (new log length, new key)."""
    move = next_safe_play(rules, state)
    while move >= 0:
        key = apply_move_tracked(rules, state, move, zobrist, pile_hashes, card_piles, key)
        log[log_length] = move
        log_length += 1
        move = next_safe_play(rules, state)
    return log_length, key


@allocation_free
def undo_moves_tracked(rules, state, log, start, end, zobrist, pile_hashes, card_piles):
    """Undo ``log[start:end]``, last first, keeping the tracked facts."""
    for k in range(end - 1, start - 1, -1):
        undo_move_tracked(rules, state, log[k], zobrist, pile_hashes, card_piles, np.uint64(0))


@allocation_free
def quiet(rules, state, move):
    """Whether ``move`` goes to a row or cell and uncovers no card that would be
    played home automatically: then no automatic play follows it (the position
    before it had none left, the foundations do not change, and the uncovered
    card is the only new top that could go home), and it cannot win."""
    if move % MOVE_BASE >= rules[FIRST_FOUNDATION]:
        return False
    source = move // MOVE_BASE
    height = kernel.height(rules, state, source)
    return height < 2 or safe_foundation(rules, state, kernel.card_at(rules, state, source, height - 2)) < 0


# How a depth-first search orders its moves (each prunes the same moves, so each is complete).
ORDER_GUIDED = 0  # best first by ``move_score``
ORDER_JITTERED = 1  # ``move_score`` plus a seeded jitter that reorders near-equal moves
ORDER_SHUFFLED = 2  # a seeded pseudo-random order, different in every position
ORDER_PLAIN = 3  # the kernel's order, unscored (for best-first search, which orders positions, not moves)
NOISE_SCALE = 60.0  # the jitter: about one category step of ``move_score``


@allocation_free
def seeded_fraction(seed, move, position_key):
    """A reproducible pseudo-random number in [0, 1) for a move in a position
    (splitmix64 of the seed, the move and the position's hash)."""
    value = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15)
    value ^= np.uint64(move) * np.uint64(0xBF58476D1CE4E5B9)
    value ^= position_key
    value = (value ^ (value >> np.uint64(31))) * np.uint64(0x94D049BB133111EB)
    value ^= value >> np.uint64(29)
    value = (value ^ (value >> np.uint64(32))) * np.uint64(0xD6E8FEB86659FD93)
    value ^= value >> np.uint64(32)
    return np.float64(value >> np.uint64(11)) / 9007199254740992.0


@allocation_free
def pile_urgencies(rules, state, card_piles, whole, below_top):
    """Per row, cell or reserve: the urgency of its cards (``whole``) and of all
    but its top (``below_top``), weighted by ``URGENCY_WEIGHTS`` as the
    policies' ``urgency`` counts it, computed once per position instead of once
    per move (the search's hottest loop). Only the three next cards of each
    suit's foundation count, so they are looked up where ``card_piles`` says
    they are."""
    base = planned_base(rules, state)
    first_foundation = rules[FIRST_FOUNDATION]
    for pile in range(first_foundation):
        whole[pile] = 0.0
    for suit in range(4):
        needed = next_rank(rules, state, base, suit)
        if needed < 0:
            continue
        for steps in range(3):
            rank = (needed + steps) % 13
            for deck in range(rules[N_CARDS] // 52):
                pile = card_piles[deck * 52 + suit * 13 + rank]
                if pile < first_foundation:
                    whole[pile] += URGENCY_WEIGHTS[steps]
    for pile in range(first_foundation):
        below_top[pile] = whole[pile]
        card = kernel.top_card(rules, state, pile)
        needed = next_rank(rules, state, base, (card // 13) % 4) if card >= 0 else -1
        if needed >= 0:
            steps = (card % 13 - needed) % 13
            if steps < 3:
                below_top[pile] -= URGENCY_WEIGHTS[steps]


@allocation_free
def move_score(rules, state, move, whole, below_top):
    """Ordering score: higher is tried first. Home, then builds, then spaces;
    prefer uncovering soon-needed cards and not covering them."""
    source = move // MOVE_BASE
    destination = move % MOVE_BASE
    height = kernel.height(rules, state, source)
    if destination >= rules[FIRST_FOUNDATION]:
        return 1000.0
    score = 0.0
    target_height = kernel.height(rules, state, destination)
    if destination < rules[FIRST_CELL]:
        score += 500.0 if target_height > 0 else 100.0
    else:
        score += 50.0
    score -= 10.0 * (height - 1)
    if height >= 2:
        uncovered = kernel.card_at(rules, state, source, height - 2)
        if cards_until_home(rules, state, uncovered) == 0:
            score += 50.0
    elif source < rules[FIRST_CELL]:
        score += 30.0
    score += 10.0 * (below_top[source] - whole[destination])
    return score


@allocation_free
def ordered_moves(
    rules, state, last_moved_to, scratch, scores, out, out_start, order, seed, position_key, card_piles, whole,
    below_top,
):
    """Write the moves worth searching to ``out[out_start:]`` in the order
    ``order`` (``ORDER_*``, with ``seed`` and the position's hash
    ``position_key`` for the seeded ones); return the count.

    Completeness arguments for what is left out:
    - A lone card into an empty row gives the same position (rows are interchangeable).
    - Moves into the second and later empty rows (cells) give positions equal to
      the move into the first one.
    - ``last_moved_to`` (or -1) is where the previous move put its card, when no
      automatic play followed it. Moving that card again from there to X gives
      the position its previous move to X would have given: X's top is unchanged
      (the previous move only touched its own two piles) and the pile it came
      from looks as before. That move is searched from the parent, so every
      position stays reachable (back to its old pile gives the parent itself).
    """
    count = kernel.legal_moves(rules, state, scratch)
    if order == ORDER_GUIDED or order == ORDER_JITTERED:
        pile_urgencies(rules, state, card_piles, whole, below_top)
    first_empty_row = -1
    first_empty_cell = -1
    for pile in range(rules[FIRST_CELL]):
        if kernel.height(rules, state, pile) == 0:
            first_empty_row = pile
            break
    for pile in range(rules[FIRST_CELL], rules[FIRST_RESERVE]):
        if kernel.height(rules, state, pile) == 0:
            first_empty_cell = pile
            break
    kept = 0
    for i in range(count):
        move = scratch[i]
        source = move // MOVE_BASE
        destination = move % MOVE_BASE
        if source == last_moved_to:
            continue
        if destination < rules[FIRST_FOUNDATION] and kernel.height(rules, state, destination) == 0:
            if destination < rules[FIRST_CELL]:
                if destination != first_empty_row:
                    continue
                if source < rules[FIRST_CELL] and kernel.height(rules, state, source) == 1:
                    continue
            elif destination != first_empty_cell:
                continue
        if order == ORDER_PLAIN:
            out[out_start + kept] = move
            kept += 1
            continue
        if order == ORDER_SHUFFLED:
            score = seeded_fraction(seed, move, position_key)
        else:
            score = move_score(rules, state, move, whole, below_top)
            if order == ORDER_JITTERED:
                score += NOISE_SCALE * seeded_fraction(seed, move, position_key)
        # insertion sort, stable: equal scores keep the kernel's order
        position = kept
        while position > 0 and scores[position - 1] < score:
            scores[position] = scores[position - 1]
            out[out_start + position] = out[out_start + position - 1]
            position -= 1
        scores[position] = score
        out[out_start + position] = move
        kept += 1
    return kept


# Slots of a depth-first search's ``counters`` array (see ``begin_depth_first``).
NODES = 0  # distinct positions searched so far
DEPTH = 1  # depth of the position being expanded (-1 once the search is exhausted)
LOG_LENGTH = 2  # automatic plays logged along the current line
ROOT_AUTOS = 3  # automatic plays made at the start
MAX_ENTRIES = 4  # positions the table takes before it must grow
TABLE_BITS = 5  # the table may grow to 2**TABLE_BITS slots
FIRST_TABLE_ENTRIES = 1 << 16  # a search starts with a table this size (0.5 MiB) and grows it


@njit(cache=True)
def begin_depth_first(rules, state, zobrist, budget, table_bits, order, seed):
    """A depth-first search from ``state``, ready for ``resume_depth_first``.

    The search is a tuple of arrays (numba keeps no objects between calls) so
    that it can be paused and resumed: the solver's portfolio runs one long
    search in slices between its restarts. ``state`` becomes the search's own.
    The transposition table starts small and grows to at most
    ``2**table_bits`` slots, or as many as ``budget`` positions need.
    """
    table = new_position_set(min(budget, FIRST_TABLE_ENTRIES), table_bits)
    auto_log = np.empty(rules[N_CARDS] + 1, dtype=np.int32)  # at most every card goes home once
    counters = np.zeros(6, dtype=np.int64)
    counters[TABLE_BITS] = table_bits
    counters[ROOT_AUTOS] = play_safe_moves(rules, state, auto_log, 0)
    counters[LOG_LENGTH] = counters[ROOT_AUTOS]
    counters[MAX_ENTRIES] = capacity(table)
    arena = np.empty(4096, dtype=np.int32)
    first = np.zeros(1024, dtype=np.int64)  # per depth: where its moves start in the arena
    count = np.zeros(1024, dtype=np.int64)  # per depth: how many moves
    tried = np.zeros(1024, dtype=np.int64)  # per depth: how many already tried
    autos_end = np.empty(1024, dtype=np.int64)  # per depth: auto_log length after its move
    chosen = np.empty(1024, dtype=np.int32)  # per depth: the move taken to go deeper
    keys = np.empty(1024, dtype=np.uint64)  # per depth: the hash of the position there
    pile_hashes = np.empty(rules[N_PILES], dtype=np.uint64)
    card_piles = np.empty(rules[N_CARDS], dtype=np.int64)
    keys[0] = start_tracking(rules, state, zobrist, pile_hashes, card_piles)
    add(table, keys[0])
    counters[NODES] = 1
    if not kernel.is_won(rules, state) and not provably_lost(rules, state):
        whole = np.empty(rules[N_PILES], dtype=np.float64)
        below_top = np.empty(rules[N_PILES], dtype=np.float64)
        scratch = np.empty(MAX_BRANCHING, dtype=np.int32)
        scores = np.empty(MAX_BRANCHING, dtype=np.float64)
        count[0] = ordered_moves(
            rules, state, -1, scratch, scores, arena, 0, order, seed, keys[0], card_piles, whole, below_top
        )
    return (state, table, auto_log, counters, arena, first, count, tried, autos_end, chosen, keys,
            pile_hashes, card_piles)


@njit(cache=True)
def resume_depth_first(rules, zobrist, order, seed, search, node_limit):
    """Run ``search`` (from ``begin_depth_first``) until it decides or has
    searched ``node_limit`` positions in all.

    Returns:
        (status, moves, search): ``STATUS_*`` (``STATUS_BUDGET`` when paused at
        the limit); on a win every move from the start, automatic plays
        included, else empty; the search to resume (its arrays may have grown).
    """
    (state, table, auto_log, counters, arena, first, count, tried, autos_end, chosen, keys,
     pile_hashes, card_piles) = search
    if kernel.is_won(rules, state) and counters[DEPTH] == 0 and counters[NODES] == 1:
        counters[DEPTH] = -1
        return STATUS_WON, auto_log[: counters[ROOT_AUTOS]].copy(), search
    scratch = np.empty(MAX_BRANCHING, dtype=np.int32)
    scores = np.empty(MAX_BRANCHING, dtype=np.float64)
    whole = np.empty(rules[N_PILES], dtype=np.float64)
    below_top = np.empty(rules[N_PILES], dtype=np.float64)
    relaxation = relaxation_scratch(rules)
    moves = np.empty(0, dtype=np.int32)
    while True:
        status = depth_first_steps(
            rules, zobrist, order, seed, node_limit, state, table, auto_log, counters, arena, first, count, tried,
            autos_end, chosen, keys, pile_hashes, card_piles, scratch, scores, whole, below_top, relaxation,
        )
        if status != STATUS_NEEDS_ROOM:
            break
        # the steps stop before a move that could overrun an array: grow what is full
        if counters[NODES] >= counters[MAX_ENTRIES]:
            if not can_grow(table, counters[TABLE_BITS]):
                status = STATUS_MEMORY
                break
            table = grown(table)
            counters[MAX_ENTRIES] = capacity(table)
        depth = counters[DEPTH]
        if depth + 2 >= first.shape[0]:
            first = grow(first, depth + 2)
            count = grow(count, depth + 2)
            tried = grow(tried, depth + 2)
            autos_end = grow(autos_end, depth + 2)
            chosen = grow(chosen, depth + 2)
            keys = grow(keys, depth + 2)
        arena = grow(arena, first[depth] + count[depth] + MAX_BRANCHING)
    if status == STATUS_WON:
        moves = winning_line(chosen, autos_end, auto_log, counters[ROOT_AUTOS], counters[DEPTH])
    return status, moves, (state, table, auto_log, counters, arena, first, count, tried, autos_end, chosen,
                           keys, pile_hashes, card_piles)


STATUS_NEEDS_ROOM = -1  # between ``depth_first_steps`` and ``resume_depth_first`` only


@allocation_free
def depth_first_steps(
    rules, zobrist, order, seed, node_limit, state, table, auto_log, counters, arena, first, count, tried,
    autos_end, chosen, keys, pile_hashes, card_piles, scratch, scores, whole, below_top, relaxation,
):
    """The depth-first search itself, on the arrays of ``resume_depth_first``.

    It creates no array (``simlab.engine.compiled``), so it returns
    ``STATUS_NEEDS_ROOM`` before a move that could overrun the table, the
    per-depth arrays or the arena, and the caller grows them and calls again.
    Otherwise returns a ``STATUS_*``; on a win ``chosen`` and ``autos_end`` hold
    the line down to ``counters[DEPTH]``. The position, the depth and the
    counts are kept in the arrays and ``counters`` between calls.
    """
    nodes = counters[NODES]
    depth = counters[DEPTH]
    log_length = counters[LOG_LENGTH]
    root_autos = counters[ROOT_AUTOS]
    status = STATUS_LOST
    while depth >= 0:
        if tried[depth] == count[depth]:
            depth -= 1
            if depth >= 0:
                log_length = autos_end[depth - 1] if depth > 0 else root_autos
                undo_moves_tracked(
                    rules, state, auto_log, log_length, autos_end[depth], zobrist, pile_hashes, card_piles
                )
                undo_move_tracked(rules, state, chosen[depth], zobrist, pile_hashes, card_piles, np.uint64(0))
            continue
        if nodes >= node_limit:  # checked before a move, so a search never exceeds its limit
            status = STATUS_BUDGET
            break
        start = first[depth] + count[depth]  # where the moves of a new position would go
        if nodes >= counters[MAX_ENTRIES] or depth + 2 >= first.shape[0] or start + MAX_BRANCHING > arena.shape[0]:
            status = STATUS_NEEDS_ROOM
            break
        move = arena[first[depth] + tried[depth]]
        tried[depth] += 1
        rearranges = False  # set for a quiet move that only rearranges: the relaxation is skipped after it
        if quiet(rules, state, move):
            # most moves tried lead to positions seen before: look the hash up
            # first and make the move only for a new position
            key = hash_after(rules, state, move, zobrist, pile_hashes, keys[depth])
            if not add(table, key):
                continue
            rearranges = only_rearranges(rules, state, move)
            apply_move_tracked(rules, state, move, zobrist, pile_hashes, card_piles, keys[depth])
            new_length = log_length
        else:
            key = apply_move_tracked(rules, state, move, zobrist, pile_hashes, card_piles, keys[depth])
            new_length, key = play_safe_moves_tracked(
                rules, state, auto_log, log_length, zobrist, pile_hashes, card_piles, key
            )
            if kernel.is_won(rules, state):
                chosen[depth] = move
                autos_end[depth] = new_length
                status = STATUS_WON
                nodes += 1
                break
            if not add(table, key):
                undo_moves_tracked(rules, state, auto_log, log_length, new_length, zobrist, pile_hashes, card_piles)
                undo_move_tracked(rules, state, move, zobrist, pile_hashes, card_piles, np.uint64(0))
                continue
        nodes += 1
        chosen[depth] = move
        autos_end[depth] = new_length
        last_moved_to = move % MOVE_BASE if new_length == log_length else -1
        log_length = new_length
        depth += 1
        keys[depth] = key
        first[depth] = start
        tried[depth] = 0
        if not rearranges and provably_lost_using(rules, state, relaxation):
            count[depth] = 0  # a dead end: counted, never expanded
            continue
        count[depth] = ordered_moves(
            rules, state, last_moved_to, scratch, scores, arena, start, order, seed, key, card_piles, whole,
            below_top,
        )
    counters[NODES] = nodes
    counters[DEPTH] = depth
    counters[LOG_LENGTH] = log_length
    return status


def positions_searched(search) -> int:
    """How many distinct positions a search from ``begin_depth_first`` has seen."""
    return int(search[3][NODES])


@njit(cache=True)
def depth_first_search(rules, state, zobrist, budget, table_bits, order, seed):
    """Search from ``state`` (modified in place and restored only on failure)
    until it decides or has searched ``budget`` distinct positions.

    ``order`` (``ORDER_*``) and ``seed`` choose the move order.

    Returns:
        (status, nodes, moves): ``STATUS_*``; distinct positions searched; on a
        win every move from the start, automatic plays included, else empty.
    """
    search = begin_depth_first(rules, state, zobrist, budget, table_bits, order, seed)
    status, moves, search = resume_depth_first(rules, zobrist, order, seed, search, budget)
    return status, search[3][NODES], moves


@njit(cache=True)
def winning_line(chosen, autos_end, auto_log, root_autos, depth):
    """The moves from the start: root auto-plays, then each chosen move and its auto-plays."""
    total = autos_end[depth] + depth + 1
    line = np.empty(total, dtype=np.int32)
    written = 0
    for k in range(root_autos):
        line[written] = auto_log[k]
        written += 1
    previous_end = root_autos
    for d in range(depth + 1):
        line[written] = chosen[d]
        written += 1
        for k in range(previous_end, autos_end[d]):
            line[written] = auto_log[k]
            written += 1
        previous_end = autos_end[d]
    return line
