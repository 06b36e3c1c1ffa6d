"""Greedy best-first search: the solver's main strategy.

Measured first with depth-first search alone: on Beleaguered Castle the deals
left unresolved were almost all wins that depth-first search wandered away
from (losses are usually proved in a few hundred positions). Best-first search
expands the most promising position found so far, wherever it is in the tree,
so it reaches wins far sooner. It keeps every position (the closed set is the
transposition table, the open set a bucket queue), so it is still exhaustive:
when no position is left to expand, the deal is lost.

It uses the same rules kernel, safe automatic plays and pruned move lists as
the depth-first search (``simlab.solver.search``); the "card moved last" rule
needs each position's first parent, which this search keeps.

Speed (Beleaguered Castle deals 954 and 981, 2M positions each): the open set
was a binary heap; a bucket queue (a linked list per priority step, newest
first) expands the same positions in the same order when there is no jitter
and cut the CPU per position by about 10%. A position's moves are now pushed
in the kernel's order (``ORDER_PLAIN``) instead of being scored and sorted
first, which only decided the order among children of equal promise: another
5-10%. Positions are kept packed (``simlab.engine.packed``: 65 bytes instead
of 241 for Beleaguered Castle), so a run's memory is mostly its table.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.compiled import allocation_free
from simlab.engine.incremental import apply_move_tracked, hash_after, start_tracking, undo_move_tracked
from simlab.engine.layout import CAPACITY, FIRST_CELL, MOVE_CARD, N_CARDS, N_PILES
from simlab.engine.moves import copy_state, play_any
from simlab.engine.packed import pack, packed_size, unpack
from simlab.engine.position_set import add, can_grow, capacity, grown, new_position_set
from simlab.solver.autoplay import AUTOPLAY_NONE
from simlab.solver.deadlock import only_rearranges, provably_lost, provably_lost_using
from simlab.solver.evaluation import (
    STOCK_WEIGHT_HOME,
    STOCK_WEIGHT_WASTE,
    WEIGHT_BURIAL,
    WEIGHT_EMPTY_ROW,
    WEIGHT_HOME,
    WEIGHT_PLACED,
    promise,
    stock_promise,
)
from simlab.solver.plan import PLAN_AUTOPLAY, PLAN_RELAXATION, PLAN_RETURNS, PLAN_SNAPSHOTS
from simlab.solver.search import (
    FIRST_TABLE_ENTRIES,
    FRACTION_SCALE,
    MAX_BRANCHING,
    MOVE_SEEN,
    MOVE_WINS,
    ORDER_PLAIN,
    STATUS_BUDGET,
    STATUS_LOST,
    STATUS_MEMORY,
    STATUS_WON,
    grow,
    moved_to,
    new_workspace,
    ordered_moves,
    play_safe_moves,
    quiet,
    try_move_and_plays,
    undo_moves_tracked,
)

PROMISE_NOISE = 15.0  # a few "cards where they belong" worth of jitter


@allocation_free
def promise_noise(seed, key):
    """Reproducible jitter in [0, PROMISE_NOISE) from a position's hash; 0 for seed 0."""
    if seed == 0:
        return 0.0
    value = key ^ (np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15))
    value = (value ^ (value >> np.uint64(31))) * np.uint64(0x94D049BB133111EB)
    value ^= value >> np.uint64(29)
    return PROMISE_NOISE * np.float64(value >> np.uint64(11)) / FRACTION_SCALE


# Priorities are kept in buckets of 1/BUCKETS_PER_UNIT of a promise unit. The
# promise weights are whole numbers, so without jitter this is exact; the
# jitter of restarts is rounded down to a quarter unit.
BUCKETS_PER_UNIT = 4


@allocation_free
def priority_range(rules, weights):
    """(lowest bucket, bucket count) covering every priority ``promise`` plus
    jitter can take: at most every card home, every row empty and every card
    where it belongs; at least every card buried under a full pile."""
    highest = (
        weights[WEIGHT_HOME] * rules[N_CARDS] + weights[WEIGHT_EMPTY_ROW] * rules[FIRST_CELL]
        + weights[WEIGHT_PLACED] * rules[N_CARDS]
    )
    highest += PROMISE_NOISE
    lowest = -weights[WEIGHT_BURIAL] * rules[N_CARDS] * rules[CAPACITY]
    low_bucket = np.int64(np.floor(lowest * BUCKETS_PER_UNIT)) - 1
    return low_bucket, np.int64(np.ceil(highest * BUCKETS_PER_UNIT)) - low_bucket + 2


@allocation_free
def bucket_of(priority, low_bucket):
    """The bucket of a priority (``priority_range`` gives ``low_bucket``)."""
    return np.int64(np.floor(priority * BUCKETS_PER_UNIT)) - low_bucket


@allocation_free
def queue_push(heads, next_in_bucket, top, bucket, node):
    """Put ``node`` first in ``bucket`` (so among equals the newest comes out
    first); return the highest bucket that may be non-empty."""
    next_in_bucket[node] = heads[bucket]
    heads[bucket] = node
    return max(top, bucket)


@allocation_free
def queue_pop(heads, next_in_bucket, top):
    """Take the first node of the highest non-empty bucket at or below ``top``;
    return (node, new top), or (-1, -1) when the queue is empty."""
    while top >= 0 and heads[top] < 0:
        top -= 1
    if top < 0:
        return -1, -1
    node = heads[top]
    heads[top] = next_in_bucket[node]
    return node, top


FIRST_NODES = 1024  # a search starts with room for this many positions and doubles it when full


class SearchTree(NamedTuple):
    """Every position a best-first search has generated, by number in the
    order generated (the start is 0), and its open set."""

    pool: np.ndarray  # per position: the position, packed (``simlab.engine.packed``; dead ends are not)
    parent: np.ndarray  # per position: the one it was first reached from; -1 for the start
    via: np.ndarray  # per position: the move from its parent; -1 for the start
    last_moved_to: np.ndarray  # per position: where that move put its card (``search.moved_to``)
    next_in_bucket: np.ndarray  # per position: the next one in its bucket of the queue (``queue_push``)


@njit(cache=True)
def new_tree(rules, size):
    """An empty ``SearchTree`` with room for ``size`` positions."""
    return SearchTree(
        pool=np.empty((size, packed_size(rules)), dtype=np.int8),
        parent=np.empty(size, dtype=np.int32),
        via=np.empty(size, dtype=np.int32),
        last_moved_to=np.empty(size, dtype=np.int32),
        next_in_bucket=np.empty(size, dtype=np.int32),
    )


@njit(cache=True)
def grown_tree(tree, nodes):
    """``tree``, full with ``nodes`` positions, with twice the room."""
    pool = np.empty((2 * tree.pool.shape[0], tree.pool.shape[1]), dtype=tree.pool.dtype)
    pool[: tree.pool.shape[0]] = tree.pool
    return SearchTree(
        pool, grow(tree.parent, nodes), grow(tree.via, nodes), grow(tree.last_moved_to, nodes),
        grow(tree.next_in_bucket, nodes),
    )


NOTHING_SEEN = np.empty(0, dtype=np.uint64)  # ``expand_best_first``'s ``seen`` for a search of its own


@njit(cache=True)
def best_first_search(rules, plan, state, zobrist, budget, table_bits, weights, noise_seed):
    """Search from ``state`` (left unchanged) following the search plan ``plan``
    (``SearchPlan.array``). Returns (status, nodes, moves) like
    ``simlab.solver.search.depth_first_search``. A non-zero ``noise_seed`` adds
    a reproducible jitter to each position's promise (for restarts).

    It is ``best_first_root``, ``begin_best_first``, ``resume_best_first`` to the
    budget and ``best_first_outcome``: the solver's portfolio runs the same steps
    with pauses (``simlab.solver.portfolio``), with the same result."""
    status, nodes, moves, root, auto_log = best_first_root(rules, plan, state, weights)
    if status != STATUS_PAUSED:
        return status, nodes, moves
    run = begin_best_first(rules, root, zobrist, budget, table_bits, weights, NOTHING_SEEN)
    status, run = resume_best_first(
        rules, root, zobrist, budget, budget, table_bits, weights, noise_seed, auto_log, plan, 0, run,
    )
    return best_first_outcome(rules, plan, state, status, run)


@njit(cache=True)
def best_first_root(rules, plan, state, weights):
    """The start of ``best_first_search`` from ``state``: (status, nodes, moves, root,
    auto_log), where ``root`` is ``state`` after its automatic plays (logged in
    ``auto_log``) and ``status`` is ``STATUS_PAUSED`` when a search must follow, else
    the verdict at the root (``moves``: its line)."""
    autoplay = plan[PLAN_AUTOPLAY]
    root = state.copy()
    auto_log = np.empty(rules[N_CARDS] + 1, dtype=np.int32)
    play_safe_moves(rules, root, auto_log, 0, autoplay)
    if kernel.is_won(rules, root):
        return STATUS_WON, np.int64(1), line_to(rules, state, np.empty(0, dtype=np.int32), 0, autoplay), root, auto_log
    if provably_lost(rules, root, plan[PLAN_RELAXATION]):
        return STATUS_LOST, np.int64(1), np.empty(0, dtype=np.int32), root, auto_log
    for weight in weights:
        if weight < 0:
            raise ValueError("promise weights must not be negative")
    return STATUS_PAUSED, np.int64(0), np.empty(0, dtype=np.int32), root, auto_log


@njit(cache=True)
def best_first_outcome(rules, plan, state, status, run):
    """(status, nodes, moves) of ``best_first_search`` once ``run`` (a
    ``BestFirstRun`` from ``state``) has decided or spent its budget."""
    counters = run.counters
    if status != STATUS_WON:
        return status, counters[RUN_NODES], np.empty(0, dtype=np.int32)
    path = path_to(run.tree.parent, run.tree.via, counters[RUN_NODE], counters[RUN_MOVE])
    return status, counters[RUN_NODES], line_to(rules, state, path, len(path), plan[PLAN_AUTOPLAY])


@njit(cache=True)
def start_tree(rules, root, zobrist, budget, table_bits, weights, seen):
    """The transposition table, ``SearchTree`` and queue of a search holding
    only ``root``: (table, tree, heads, low bucket, top bucket), where
    ``heads`` holds per bucket of priority its newest position, -1 if none
    (``queue_push``). The hashes ``seen`` start in the table too, so the
    search never reaches those positions."""
    table = new_position_set(min(budget, FIRST_TABLE_ENTRIES) + len(seen), table_bits)
    for key in seen:
        add(table, key)
    tree = new_tree(rules, FIRST_NODES)
    low_bucket, bucket_count = priority_range(rules, weights)
    heads = np.full(bucket_count, -1, dtype=np.int32)
    pack(rules, root, tree.pool[0])
    tree.parent[0] = -1
    tree.via[0] = -1
    tree.last_moved_to[0] = -1
    add(table, kernel.position_hash(rules, root, zobrist))
    top = queue_push(heads, tree.next_in_bucket, -1, bucket_of(promise(rules, root, weights), low_bucket), 0)
    return table, tree, heads, low_bucket, top


@njit(cache=True)
def expand_best_first(
    rules, root, zobrist, budget, table_bits, weights, noise_seed, auto_log, plan, seen
):
    """The search of ``best_first_search`` from ``root`` (after its automatic
    plays, neither won nor proved lost; ``plan``: the search plan's array,
    ``SearchPlan.array`` or ``streamlined_array``): expand the most promising position
    until one move wins, none is left, or the budget or the table runs out.
    It never reaches a position whose hash is in ``seen`` (the lookahead
    player's positions so far; ``NOTHING_SEEN`` for the solver).

    Returns:
        (status, nodes, tree, node, move, best): ``STATUS_*``, the positions
        searched, the ``SearchTree``, on a win the position ``node`` of the
        tree and the ``move`` from it that won (else -1, -1), and the position
        of the tree other than the root with the highest priority that is not
        a dead end, the first found among equals (-1 if none).
    """
    run = begin_best_first(rules, root, zobrist, budget, table_bits, weights, seen)
    status, run = resume_best_first(
        rules, root, zobrist, budget, budget, table_bits, weights, noise_seed, auto_log, plan, len(seen), run,
    )
    counters = run.counters
    return status, counters[RUN_NODES], run.tree, counters[RUN_NODE], counters[RUN_MOVE], counters[RUN_BEST]


class BestFirstRun(NamedTuple):
    """A best-first search between two calls of ``resume_best_first`` (numba keeps
    no objects between calls, so it is a tuple of arrays)."""

    table: np.ndarray  # the transposition table
    tree: SearchTree  # every position generated
    heads: np.ndarray  # the queue: per bucket of priority its newest position (``queue_push``)
    counters: np.ndarray  # int64, ``RUN_*``
    best_priority: np.ndarray  # float64[1]: the priority of ``counters[RUN_BEST]``


# ``BestFirstRun.counters``: positions searched; the queue's top bucket; the position
# of highest priority so far (-1 if none); positions the table takes before it must
# grow; the queue's lowest bucket; on a win the position and the move from it that won.
RUN_NODES, RUN_TOP, RUN_BEST, RUN_MAX_ENTRIES, RUN_LOW_BUCKET, RUN_NODE, RUN_MOVE = range(7)
N_RUN_COUNTERS = 7
# ``resume_best_first`` stopped at its pause, undecided, before its budget
STATUS_PAUSED = -2


@njit(cache=True)
def begin_best_first(rules, root, zobrist, budget, table_bits, weights, seen):
    """A ``BestFirstRun`` holding only ``root`` (``start_tree``), for ``resume_best_first``."""
    table, tree, heads, low_bucket, top = start_tree(rules, root, zobrist, budget, table_bits, weights, seen)
    counters = np.empty(N_RUN_COUNTERS, dtype=np.int64)
    counters[RUN_NODES] = 1
    counters[RUN_TOP] = top
    counters[RUN_BEST] = -1
    counters[RUN_MAX_ENTRIES] = capacity(table) - len(seen)
    counters[RUN_LOW_BUCKET] = low_bucket
    counters[RUN_NODE] = -1
    counters[RUN_MOVE] = -1
    return BestFirstRun(table, tree, heads, counters, np.full(1, -np.inf))


@njit(cache=True)
def resume_best_first(
    rules, root, zobrist, budget, pause_at, table_bits, weights, noise_seed, auto_log, plan, n_seen, run,
):
    """Go on with ``run`` (``begin_best_first``): expand the most promising position
    until one move wins, none is left, the budget or the table runs out, or, when
    ``pause_at`` is below ``budget``, ``pause_at`` positions are searched (checked
    before each expansion; the run resumes exactly where it paused). ``n_seen``:
    how many hashes ``begin_best_first`` was given.

    Returns:
        (status, run): ``STATUS_*`` (``STATUS_PAUSED`` at the pause), the run (its
        arrays may have grown).
    """
    counters = run.counters
    table, tree, heads = run.table, run.tree, run.heads
    nodes = counters[RUN_NODES]
    top = counters[RUN_TOP]
    best = counters[RUN_BEST]
    max_entries = counters[RUN_MAX_ENTRIES]
    low_bucket = counters[RUN_LOW_BUCKET]
    best_priority = run.best_priority[0]
    autoplay = plan[PLAN_AUTOPLAY]
    relaxation = plan[PLAN_RELAXATION]
    moves = np.empty(MAX_BRANCHING, dtype=np.int32)
    work = root.copy()
    workspace = new_workspace(rules, plan[PLAN_RETURNS])
    pile_hashes = np.empty(rules[N_PILES], dtype=np.uint64)
    card_piles = np.empty(rules[N_CARDS], dtype=np.int64)
    status = STATUS_PAUSED
    decided = False
    while not decided:
        if nodes >= pause_at and pause_at < budget:
            break
        node, top = queue_pop(heads, tree.next_in_bucket, top)
        if node < 0:
            status = STATUS_LOST
            break
        unpack(rules, tree.pool[node], work)
        node_key = start_tracking(rules, work, zobrist, pile_hashes, card_piles)
        count = ordered_moves(
            rules, work, tree.last_moved_to[node], workspace, moves, 0, ORDER_PLAIN, 0, node_key, card_piles
        )
        for i in range(count):
            if nodes >= budget:  # checked before a move, so a search never exceeds its budget
                status, decided = STATUS_BUDGET, True
                break
            move = moves[i]
            rearranges = False  # set for a quiet move that only rearranges: the relaxation is skipped after it
            if quiet(rules, work, move, autoplay):  # look the hash up before making the move
                key = hash_after(rules, work, move, zobrist, pile_hashes, node_key)
                if not add(table, key):
                    continue
                rearranges = only_rearranges(rules, work, move)
                apply_move_tracked(rules, work, move, zobrist, pile_hashes, card_piles, node_key)
                autos = 0
            else:
                outcome, key, autos = try_move_and_plays(
                    rules, work, move, zobrist, pile_hashes, card_piles, node_key, table, auto_log, 0, autoplay
                )
                if outcome == MOVE_SEEN:
                    continue
                if outcome == MOVE_WINS:
                    counters[RUN_NODE] = node
                    counters[RUN_MOVE] = move
                    nodes += 1
                    status, decided = STATUS_WON, True
                    break
            if nodes >= max_entries:
                if not can_grow(table, table_bits):
                    status, decided = STATUS_MEMORY, True
                    break
                table = grown(table)
                max_entries = capacity(table) - n_seen
            if nodes >= tree.parent.shape[0]:  # (reassigning arrays costs atomic counts: only when full)
                tree = grown_tree(tree, nodes)
            tree.parent[nodes] = node
            tree.via[nodes] = move
            tree.last_moved_to[nodes] = moved_to(move, autos, False)
            # a dead end is counted but never expanded, so neither stored nor queued
            if rearranges or not provably_lost_using(rules, work, workspace.relaxation, relaxation):
                pack(rules, work, tree.pool[nodes])
                priority = promise(rules, work, weights) + promise_noise(noise_seed, key)
                top = queue_push(heads, tree.next_in_bucket, top, bucket_of(priority, low_bucket), nodes)
                if priority > best_priority:
                    best, best_priority = nodes, priority
            nodes += 1
            undo_moves_tracked(rules, work, auto_log, 0, autos, zobrist, pile_hashes, card_piles)
            undo_move_tracked(rules, work, move, zobrist, pile_hashes, card_piles, np.uint64(0))
    counters[RUN_NODES] = nodes
    counters[RUN_TOP] = top
    counters[RUN_BEST] = best
    counters[RUN_MAX_ENTRIES] = max_entries
    run.best_priority[0] = best_priority
    return status, BestFirstRun(table, tree, heads, counters, run.best_priority)


@njit(cache=True)
def path_to(parent, via, node, last_move):
    """The chosen moves from the root to ``node``, then ``last_move``."""
    length = 1
    walker = node
    while parent[walker] >= 0:
        length += 1
        walker = parent[walker]
    path = np.empty(length, dtype=np.int32)
    path[length - 1] = last_move
    walker = node
    position = length - 2
    while parent[walker] >= 0:
        path[position] = via[walker]
        position -= 1
        walker = parent[walker]
    return path


@njit(cache=True)
def line_to(rules, start, path, length, autoplay):
    """The full line from ``start``: the safe plays (rule ``autoplay``), then each
    move of ``path`` followed by the safe plays it triggers (recomputed, as the
    search made them)."""
    state = start.copy()
    log = np.empty(rules[N_CARDS] + 1, dtype=np.int32)
    line = np.empty(length + rules[N_CARDS] + 1, dtype=np.int32)
    written = play_safe_moves(rules, state, log, 0, autoplay)
    line[:written] = log[:written]
    for k in range(length):
        kernel.apply_move(rules, state, path[k])
        line[written] = path[k]
        written += 1
        autos = play_safe_moves(rules, state, log, 0, autoplay)
        line[written: written + autos] = log[:autos]
        written += autos
    return line[:written]


@allocation_free
def stock_priority_range(rules, weights):
    """``priority_range`` for ``stock_promise``: every card home at most, every
    card buried in the waste at least."""
    highest = weights[STOCK_WEIGHT_HOME] * rules[N_CARDS] + PROMISE_NOISE
    lowest = -weights[STOCK_WEIGHT_WASTE] * rules[N_CARDS]
    low_bucket = np.int64(np.floor(lowest * BUCKETS_PER_UNIT)) - 1
    return low_bucket, np.int64(np.ceil(highest * BUCKETS_PER_UNIT)) - low_bucket + 2


@njit(cache=True)
def stock_best_first_search(rules, plan, state, chance, zobrist, budget, table_bits, weights, noise_seed):
    """Best-first search over every move of a game with a stock (Windmill):
    card moves and the stock's turn (and recycle, where a pass is left), each
    made on a copy of the expanded position by ``simlab.engine.moves.play_any``
    (refills included), guided by ``stock_promise``. Returns (status, nodes,
    moves) like ``best_first_search``; ``chance`` is the deal's chance tape.

    ``best_first_search`` plays card moves only and undoes them in place; this
    one exists because in Windmill most moves refill piles and every win needs
    the stock's turns, which the other searched only depth-first. The moves are
    ``ordered_moves``' (the same pruning as the depth-first search, each argued
    there), so it is as complete: when no position is left to expand the
    position is lost. The plan must make no automatic plays (``SearchPlan``
    chooses it only then), so a line is its moves."""
    status, nodes, moves = stock_best_first_root(rules, plan, state)
    if status != STATUS_PAUSED:
        return status, nodes, moves
    run = begin_stock_best_first(rules, state, zobrist, budget, table_bits, weights)
    status, run = resume_stock_best_first(rules, plan, state, chance, zobrist, budget, budget, table_bits, weights,
                                          noise_seed, run)
    return stock_best_first_outcome(status, run)


@njit(cache=True)
def stock_best_first_root(rules, plan, state):
    """The verdict of ``stock_best_first_search`` at ``state`` itself: (status, nodes,
    moves), ``STATUS_PAUSED`` when a search must follow."""
    if plan[PLAN_AUTOPLAY] != AUTOPLAY_NONE:
        raise ValueError("stock_best_first_search makes no automatic plays")
    if kernel.is_won(rules, state):
        return STATUS_WON, np.int64(1), np.empty(0, dtype=np.int32)
    if provably_lost(rules, state, plan[PLAN_RELAXATION]):
        return STATUS_LOST, np.int64(1), np.empty(0, dtype=np.int32)
    return STATUS_PAUSED, np.int64(0), np.empty(0, dtype=np.int32)


@njit(cache=True)
def begin_stock_best_first(rules, state, zobrist, budget, table_bits, weights):
    """A ``BestFirstRun`` of ``stock_best_first_search`` holding only ``state``."""
    table = new_position_set(min(budget, FIRST_TABLE_ENTRIES), table_bits)
    tree = new_tree(rules, FIRST_NODES)
    low_bucket, bucket_count = stock_priority_range(rules, weights)
    heads = np.full(bucket_count, -1, dtype=np.int32)
    pack(rules, state, tree.pool[0])
    tree.parent[0] = -1
    tree.via[0] = -1
    tree.last_moved_to[0] = -1
    add(table, kernel.position_hash(rules, state, zobrist))
    top = queue_push(heads, tree.next_in_bucket, -1, bucket_of(stock_promise(rules, state, weights), low_bucket), 0)
    counters = np.empty(N_RUN_COUNTERS, dtype=np.int64)
    counters[RUN_NODES] = 1
    counters[RUN_TOP] = top
    counters[RUN_BEST] = -1
    counters[RUN_MAX_ENTRIES] = capacity(table)
    counters[RUN_LOW_BUCKET] = low_bucket
    counters[RUN_NODE] = -1
    counters[RUN_MOVE] = -1
    return BestFirstRun(table, tree, heads, counters, np.full(1, -np.inf))


@njit(cache=True)
def resume_stock_best_first(rules, plan, state, chance, zobrist, budget, pause_at, table_bits, weights, noise_seed,
                            run):
    """``resume_best_first`` for ``stock_best_first_search`` from ``state``."""
    relaxation = plan[PLAN_RELAXATION]
    counters = run.counters
    table, tree, heads = run.table, run.tree, run.heads
    nodes = counters[RUN_NODES]
    top = counters[RUN_TOP]
    max_entries = counters[RUN_MAX_ENTRIES]
    low_bucket = counters[RUN_LOW_BUCKET]
    legal = np.empty(MAX_BRANCHING, dtype=np.int32)
    expanded = state.copy()
    work = state.copy()
    scratch = np.empty(rules[N_CARDS], dtype=np.int64)
    workspace = new_workspace(rules, plan[PLAN_RETURNS])
    pile_hashes = np.empty(rules[N_PILES], dtype=np.uint64)
    card_piles = np.empty(rules[N_CARDS], dtype=np.int64)
    in_place = plan[PLAN_SNAPSHOTS] == 0
    status = STATUS_PAUSED
    decided = False
    while not decided:
        if nodes >= pause_at and pause_at < budget:
            break
        node, top = queue_pop(heads, tree.next_in_bucket, top)
        if node < 0:
            status = STATUS_LOST
            break
        unpack(rules, tree.pool[node], expanded)
        node_key = start_tracking(rules, expanded, zobrist, pile_hashes, card_piles)
        count = ordered_moves(
            rules, expanded, tree.last_moved_to[node], workspace, legal, 0, ORDER_PLAIN, 0, node_key, card_piles
        )
        for i in range(count):
            if nodes >= budget:  # checked before a move, so a search never exceeds its budget
                status, decided = STATUS_BUDGET, True
                break
            move = legal[i]
            copy_state(rules, expanded, work)
            play_any(rules, work, move, chance, scratch)
            if kernel.is_won(rules, work):
                counters[RUN_NODE] = node
                counters[RUN_MOVE] = move
                nodes += 1
                status, decided = STATUS_WON, True
                break
            key = kernel.position_hash(rules, work, zobrist)
            if not add(table, key):
                continue
            if nodes >= max_entries:
                if not can_grow(table, table_bits):
                    status, decided = STATUS_MEMORY, True
                    break
                table = grown(table)
                max_entries = capacity(table)
            if nodes >= tree.parent.shape[0]:
                tree = grown_tree(tree, nodes)
            tree.parent[nodes] = node
            tree.via[nodes] = move
            plain = in_place and kernel.move_kind(move) == MOVE_CARD
            tree.last_moved_to[nodes] = moved_to(move, 0, not plain)
            if not provably_lost_using(rules, work, workspace.relaxation, relaxation):
                pack(rules, work, tree.pool[nodes])
                priority = stock_promise(rules, work, weights) + promise_noise(noise_seed, key)
                top = queue_push(heads, tree.next_in_bucket, top, bucket_of(priority, low_bucket), nodes)
            nodes += 1
    counters[RUN_NODES] = nodes
    counters[RUN_TOP] = top
    counters[RUN_MAX_ENTRIES] = max_entries
    return status, BestFirstRun(table, tree, heads, counters, run.best_priority)


@njit(cache=True)
def stock_best_first_outcome(status, run):
    """(status, nodes, moves) of ``stock_best_first_search`` once ``run`` has decided
    or spent its budget: on a win the moves from the start (no automatic plays)."""
    counters = run.counters
    if status != STATUS_WON:
        return status, counters[RUN_NODES], np.empty(0, dtype=np.int32)
    return status, counters[RUN_NODES], path_to(run.tree.parent, run.tree.via, counters[RUN_NODE], counters[RUN_MOVE])
