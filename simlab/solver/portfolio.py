"""Restarts over a portfolio of searches: how the solver tames the heavy tail.

Measured on Beleaguered Castle: how soon a search finds a given win varies
wildly with the order it tries moves in (deal 186: depth-first search in the
guided order, unseeded, found nothing in 50,000 positions, with 7 of 11 other
orders it won within 7,600), while proving a loss needs one search that runs
long enough to see every position. So the solver runs two things side by side,
in equal slices: short complete searches restarted on Luby, Sinclair and
Zuckerman's universal sequence 1, 1, 2, 1, 1, 2, 4, ... units, alternating
best-first and depth-first and changing their move order each run (a seed); and
one long depth-first search in the guided order (``ORDER_GUIDED``, unseeded),
paused and resumed between them. Every strategy is complete, so any run that
exhausts its positions proves the deal lost, and whichever decides first ends
the solve.

Before them, in the Castle family (``SearchPlan.streamlined``), a streamlined
search looks for a win (``streamlined_search``): Blake and Gent's two
streamliners, as Solvitaire's smart-solvability runs them first. Every card a
foundation accepts goes home at once, safe or not (``AUTOPLAY_EVERY``), and
positions alike but for the suits of their cards count as one (rank-only keys).
Both cut away positions, maybe every winning one, so the streamlined search
proves nothing when it exhausts; but its win is a line of legal moves, checked
by replay like any other. Measured (depth-first, guided order, at most 1M
positions a deal, deals 1-1000, against the complete searches alone at the
default budget): it won 650 of the 656 Beleaguered Castle deals they won, 518
of Streets and Alleys' 525 and 858 of Citadel's 860, in 2.2, 3.6 and 0.6
CPU-s in all, and exhausted every other deal within 1M positions. It also won
Beleaguered Castle deals 363 and 398 and Streets and Alleys 296 and 958, which
they left undecided at 32M positions, and their late wins (Beleaguered Castle
48 at 23M positions, Streets and Alleys 122 at 27M) in 14,096 and 9,384. It
gets at most ``STREAMLINED_SHARE`` of the budget, and the complete searches
the rest; a deal it misses (Beleaguered Castle 891, won by them in 588
positions) costs them what it did.

What a ``lost`` rests on. The searches know a position by its 64-bit hash
(``kernel.position_hash``) and skip a position whose hash they have seen. If
two different positions share a hash (a collision), the second is never
searched; were it on the only winning line, the search would exhaust and call a
won deal lost. Until its first collision a search hashes only positions it
searches, so with keys drawn at random a search that sees N positions collides
with probability at most N(N-1)/2 * 2**-63 (``kernel.ZOBRIST``'s keys are drawn
below 2**63: 63 random bits): about 1.5e-5 for the long search's 2**24
positions. So a loss is confirmed (``confirmed``): the search that proved it
runs again, with the same budget and strategy, hashing with
``plan.check_zobrist``, keys drawn independently over all 64 bits. A won deal is
then called lost only if the second search also collides among its own N'
positions, with probability at most N'(N'-1)/2 * 2**-64, independent of the
first. A committed ``lost`` thus rests on a chance of at most
(N**2 / 2**64) * (N'**2 / 2**65): 1.2e-10 when both see 2**24 positions (no
search of the default 32M budget sees more), 1.5e-19 for a loss proved in
100,000. Without a collision the second search sees the same positions as the
first (every pruning keeps every reachable position, whatever the move order),
so it costs the proof again; ``SolveResult.check_nodes`` counts them, apart
from ``nodes`` (measured: +0.023 CPU-s a deal on Beleaguered Castle deals
1-1000 at the default budget, ``docs/design.md``). (Weighed against it: a second hash stored beside the first, a
uint32 per slot, would bound a loss by N**2/2**97 but make the 2**25-slot table
384 MiB instead of 256; storing a second hash's bits in the slot the first
hash picks leaves too few bits for the table to double, so at 64 bits a slot
it gains a factor of a few thousand, not the square.)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simlab.engine.game import Game
from simlab.interrupts import signals_deferred, stop_point
from simlab.solver.best_first import (
    NOTHING_SEEN,
    RUN_NODES,
    STATUS_PAUSED,
    begin_best_first,
    begin_stock_best_first,
    best_first_outcome,
    best_first_root,
    resume_best_first,
    resume_stock_best_first,
    stock_best_first_outcome,
    stock_best_first_root,
)
from simlab.solver.plan import SearchPlan
from simlab.solver.search import (
    ORDER_GUIDED,
    ORDER_JITTERED,
    ORDER_SHUFFLED,
    STATUS_BUDGET,
    STATUS_LOST,
    STATUS_MEMORY,
    STATUS_WON,
    DepthFirstSearch,
    begin_depth_first,
    positions_searched,
    resume_depth_first,
)

# Best-first weights (``simlab.solver.evaluation.promise``). Tried and kept as
# is: doubling the burial weight, more weight on empty rows or cards home, and a
# penalty for cards above lower cards all left more deals unresolved.
PROMISE_PER_CARD_HOME = 20.0  # per card on a foundation
PROMISE_PER_EMPTY_ROW = 10.0  # per empty row
PROMISE_PER_PLACED_CARD = 2.0  # per card at the bottom of a row or on a card it builds on
PROMISE_PER_BURYING_CARD = 3.0  # less per card on top of a card that its foundation needs next
# the four in the order ``promise`` takes them (``simlab.solver.evaluation.WEIGHT_*``)
PROMISE_WEIGHTS = np.array(
    [PROMISE_PER_CARD_HOME, PROMISE_PER_EMPTY_ROW, PROMISE_PER_PLACED_CARD, PROMISE_PER_BURYING_CARD]
)
# ``simlab.solver.evaluation.stock_promise``'s weights (cards home, cards buried
# in the waste), for ``stock_best_first`` (Windmill)
STOCK_PROMISE_WEIGHTS = np.array([20.0, 12.0])
RESTART_UNIT = 2048  # positions in the shortest run
# Share of the budget for the long depth-first search; the restarts get the rest.
LONG_SHARE = 0.5
# Positions a search runs before Python looks for Ctrl-C or SIGTERM
# (``simlab.interrupts``): under a second at Windmill's 10-20 microseconds a
# position. The pauses cost nothing measurable (3.99 against 4.01 microseconds a
# position without them on Beleaguered Castle deal 954 at 2M positions, 15.19
# against 15.18 on Windmill deal 2 at 300,000). Slices never change a result: a
# paused search resumes exactly where it stopped.
SLICE = 50_000
# Share of the budget for the streamlined search (Solvitaire gives its own a
# tenth of the time); on deals 1-1000 it never needed more than a 200th.
STREAMLINED_SHARE = 0.1
LONG_RUN = 0  # ``Decision.run`` of the long depth-first search (restarts are numbered from 1)
NO_MOVES = np.empty(0, np.int32)


def luby(index: int) -> int:
    """The ``index``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, ..."""
    k = 1
    while (1 << k) - 1 < index:
        k += 1
    if index == (1 << k) - 1:
        return 1 << (k - 1)
    return luby(index - (1 << (k - 1)) + 1)


DEPTH_FIRST_ORDERS = {"shuffled_depth_first": ORDER_SHUFFLED, "jittered_depth_first": ORDER_JITTERED}


def restart(
    game: Game, plan: SearchPlan, start: np.ndarray, chance: np.ndarray, run: int, budget: int, table_bits: int,
    zobrist: np.ndarray | None = None,
) -> tuple:
    """Restart number ``run`` (from 1), seeded by its number, with the strategy of
    the plan's ``restart_strategies`` whose turn it is: ``best_first`` (run 1
    without jitter), or depth-first search in a ``shuffled`` move order or in
    the guided order with a ``jittered`` tie-break. It hashes positions with
    ``zobrist`` (default ``plan.zobrist``)."""
    keys = plan.zobrist if zobrist is None else zobrist
    strategies = plan.restart_strategies
    strategy = strategies[(run - 1) % len(strategies)]
    if strategy == "best_first":
        return best_first_in_slices(game, plan, start, budget, table_bits, 0 if run == 1 else run, keys)
    if strategy == "stock_best_first":
        return stock_best_first_in_slices(game, plan, start, chance, budget, table_bits, 0 if run == 1 else run,
                                          keys)
    order = DEPTH_FIRST_ORDERS[strategy]
    search = begin_depth_first(game.rules, plan.array, start.copy(), chance, keys, budget, table_bits, order, run)
    status, moves, search = resume_in_slices(game, plan, order, run, search, budget, keys)
    return status, positions_searched(search), moves


def long_search(
    game: Game, plan: SearchPlan, start: np.ndarray, chance: np.ndarray, budget: int, table_bits: int,
    zobrist: np.ndarray,
) -> DepthFirstSearch:
    """The long depth-first search (guided order, unseeded), begun, for ``resume_in_slices``."""
    return begin_depth_first(game.rules, plan.array, start.copy(), chance, zobrist, budget, table_bits, ORDER_GUIDED, 0)


def resume_in_slices(game: Game, plan: SearchPlan, order: int, seed: int, search: DepthFirstSearch,
                     limit: int, zobrist: np.ndarray | None = None) -> tuple:
    """``resume_depth_first(..., search, limit)``, run ``SLICE`` positions at a time with
    a ``stop_point()`` between slices (the same result: a paused search resumes where it
    stopped), hashing with ``zobrist`` (default ``plan.zobrist``, as the search was begun).
    Returns (status, moves, search) as ``resume_depth_first``."""
    keys = plan.zobrist if zobrist is None else zobrist
    while True:
        step = min(limit, positions_searched(search) + SLICE)
        status, moves, search = resume_depth_first(game.rules, keys, order, seed, search, step)
        if status != STATUS_BUDGET or step >= limit:
            return status, moves, search
        stop_point()


def best_first_in_slices(
    game: Game, plan: SearchPlan, start: np.ndarray, budget: int, table_bits: int, seed: int, zobrist: np.ndarray
) -> tuple:
    """``best_first_search(..., start, zobrist, budget, table_bits, PROMISE_WEIGHTS, seed)``, its
    compiled steps run ``SLICE`` positions at a time with a ``stop_point()`` between them
    (the same result). Returns (status, nodes, moves)."""
    rules, array = game.rules, plan.array
    status, nodes, moves, root, auto_log = best_first_root(rules, array, start, PROMISE_WEIGHTS)
    if status != STATUS_PAUSED:
        return status, nodes, moves
    run = begin_best_first(rules, root, zobrist, budget, table_bits, PROMISE_WEIGHTS, NOTHING_SEEN)
    while True:
        pause_at = min(budget, int(run.counters[RUN_NODES]) + SLICE)
        status, run = resume_best_first(
            rules, root, zobrist, budget, pause_at, table_bits, PROMISE_WEIGHTS, seed, auto_log, array, 0, run,
        )
        if status != STATUS_PAUSED:
            return best_first_outcome(rules, array, start, status, run)
        stop_point()


def stock_best_first_in_slices(
    game: Game, plan: SearchPlan, start: np.ndarray, chance: np.ndarray, budget: int, table_bits: int, seed: int,
    zobrist: np.ndarray,
) -> tuple:
    """``stock_best_first_search`` with ``STOCK_PROMISE_WEIGHTS``, as ``best_first_in_slices``."""
    rules, array = game.rules, plan.array
    status, nodes, moves = stock_best_first_root(rules, array, start)
    if status != STATUS_PAUSED:
        return status, nodes, moves
    run = begin_stock_best_first(rules, start, zobrist, budget, table_bits, STOCK_PROMISE_WEIGHTS)
    while True:
        pause_at = min(budget, int(run.counters[RUN_NODES]) + SLICE)
        status, run = resume_stock_best_first(
            rules, array, start, chance, zobrist, budget, pause_at, table_bits, STOCK_PROMISE_WEIGHTS, seed, run
        )
        if status != STATUS_PAUSED:
            return stock_best_first_outcome(status, run)
        stop_point()


def long_slice_end(long_done: int, long_budget: int, share: int) -> int:
    """Where the long search pauses next: after as many positions as the restart
    that just ran got (``share``), in the ratio ``LONG_SHARE`` sets, or at the
    end of its budget once restarts get no more (``share`` 0)."""
    if share == 0:
        return long_budget
    return int(min(long_budget, long_done + share * LONG_SHARE / (1 - LONG_SHARE)))


class Decision(NamedTuple):
    """What the portfolio's searches decided, and which search decided it."""

    status: int  # ``STATUS_*``
    nodes: int  # positions searched, every run added up
    moves: np.ndarray  # on a win, every move from the start
    run: int = LONG_RUN  # the search that decided: a restart's number, or ``LONG_RUN``
    run_budget: int = 0  # that search's budget


class Verdict(NamedTuple):
    """``portfolio_verdict``: a ``Decision`` whose loss, if any, was confirmed."""

    status: int
    nodes: int  # positions searched to decide (the confirming search not included, unless it won)
    moves: np.ndarray
    check_nodes: int  # positions the confirming search saw (0 when none ran)


def portfolio_search(
    game: Game, plan: SearchPlan, start: np.ndarray, chance: np.ndarray, budget: int, table_bits: int
) -> tuple[int, int, np.ndarray]:
    """``portfolio_verdict``'s (status, nodes, moves), as ``depth_first_search``."""
    verdict = portfolio_verdict(game, plan, start, chance, budget, table_bits)
    return verdict.status, verdict.nodes, verdict.moves


def portfolio_verdict(
    game: Game, plan: SearchPlan, start: np.ndarray, chance: np.ndarray, budget: int, table_bits: int
) -> Verdict:
    """The streamlined search first where the plan has one, then restarts
    alternating with slices of one long depth-first search until one
    decides or ``budget`` positions are spent in all, as the game's search plan
    ``plan`` says (``chance``: the deal's chance tape, which fixes every
    redeal's shuffle); a loss is then confirmed (``confirmed``).

    Ctrl-C and SIGTERM stop it between slices (``simlab.interrupts``): the
    earlier handler raises there (``KeyboardInterrupt``, ``Terminated``).
    """
    with signals_deferred():
        spent = 0
        if plan.streamlined:
            status, spent, moves = streamlined_search(
                game, plan, start, chance, max(1, int(budget * STREAMLINED_SHARE)), table_bits
            )
            if status == STATUS_WON:
                return Verdict(status, spent, moves, 0)
        complete = long_and_restarts if plan.long_search else restarts_alone
        decision = complete(game, plan, start, chance, budget - spent, table_bits)
        decision = decision._replace(nodes=decision.nodes + spent)
        if decision.status != STATUS_LOST:
            return Verdict(decision.status, decision.nodes, decision.moves, 0)
        return confirmed(game, plan, start, chance, table_bits, decision)


def streamlined_search(
    game: Game, plan: SearchPlan, start: np.ndarray, chance: np.ndarray, budget: int, table_bits: int
) -> tuple[int, int, np.ndarray]:
    """The streamlined search (module docstring): depth-first in the guided
    order, every card a foundation accepts played home at once
    (``plan.streamlined_array``), positions hashed by rank only. Returns
    (status, positions, moves) as ``depth_first_search``; only a win means
    anything."""
    keys = plan.streamlined_zobrist
    search = begin_depth_first(
        game.rules, plan.streamlined_array, start.copy(), chance, keys, budget, table_bits, ORDER_GUIDED, 0
    )
    status, moves, search = resume_in_slices(game, plan, ORDER_GUIDED, 0, search, budget, keys)
    return status, positions_searched(search), moves


def confirmed(
    game: Game, plan: SearchPlan, start: np.ndarray, chance: np.ndarray, table_bits: int, decision: Decision
) -> Verdict:
    """The loss ``decision`` checked by running the search that proved it again,
    with the same budget, hashing with ``plan.check_zobrist`` (module docstring):
    lost if it exhausts too; won if it finds a win (the first search's hash
    collided and hid it); unknown if it runs out of budget or memory. (Even a
    loss in one position is checked: its moves may all have led to positions
    whose hash was the start's.)"""
    keys = plan.check_zobrist
    if decision.run == LONG_RUN:
        search = long_search(game, plan, start, chance, decision.run_budget, table_bits, keys)
        status, moves, search = resume_in_slices(game, plan, ORDER_GUIDED, 0, search, decision.run_budget, keys)
        nodes = positions_searched(search)
    else:
        status, nodes, moves = restart(game, plan, start, chance, decision.run, decision.run_budget, table_bits, keys)
    nodes = int(nodes)
    if status == STATUS_WON:
        return Verdict(STATUS_WON, decision.nodes + nodes, moves, nodes)
    return Verdict(status, decision.nodes, moves, nodes)


def long_and_restarts(
    game: Game, plan: SearchPlan, start: np.ndarray, chance: np.ndarray, budget: int, table_bits: int
) -> Decision:
    """``portfolio_verdict``'s search for a plan with a long search."""
    long_budget = max(1, int(budget * LONG_SHARE))
    long_run = long_search(game, plan, start, chance, long_budget, table_bits, plan.zobrist)
    long_done = 0  # positions the long search has seen
    restarts_spent = 0
    run = 0
    out_of_memory = False
    while restarts_spent + long_done < budget:
        stop_point()
        run += 1
        share = min(RESTART_UNIT * luby(run), max(0, budget - long_budget - restarts_spent))
        if share > 0:
            status, nodes, moves = restart(game, plan, start, chance, run, share, table_bits)
            restarts_spent += int(nodes)
            if status in (STATUS_WON, STATUS_LOST):
                return Decision(status, restarts_spent + long_done, moves, run, share)
            out_of_memory = out_of_memory or status == STATUS_MEMORY
        stop_point()
        limit = long_slice_end(long_done, long_budget, share)
        status, moves, long_run = resume_in_slices(game, plan, ORDER_GUIDED, 0, long_run, limit)
        long_done = positions_searched(long_run)
        if status in (STATUS_WON, STATUS_LOST):
            return Decision(status, restarts_spent + long_done, moves, LONG_RUN, long_budget)
        if status == STATUS_MEMORY:
            out_of_memory = True
            long_budget = long_done  # the long search cannot go on: give the rest to restarts
        if share == 0 and long_done >= long_budget:
            break
    return Decision(STATUS_MEMORY if out_of_memory else STATUS_BUDGET, restarts_spent + long_done, NO_MOVES)


def restarts_alone(
    game: Game, plan: SearchPlan, start: np.ndarray, chance: np.ndarray, budget: int, table_bits: int
) -> Decision:
    """``portfolio_verdict``'s search for a plan without a long search: restarts on the
    Luby sequence until one decides (each is complete, so one that runs out of
    positions proves the loss) or ``budget`` positions are spent."""
    spent = 0
    run = 0
    out_of_memory = False
    while spent < budget:
        run += 1
        share = min(RESTART_UNIT * luby(run), budget - spent)
        stop_point()
        status, nodes, moves = restart(game, plan, start, chance, run, share, table_bits)
        spent += int(nodes)
        if status in (STATUS_WON, STATUS_LOST):
            return Decision(status, spent, moves, run, share)
        out_of_memory = out_of_memory or status == STATUS_MEMORY
    return Decision(STATUS_MEMORY if out_of_memory else STATUS_BUDGET, spent, NO_MOVES)
