"""The compiled depth-first search behind ``simlab.solver.solve``.

Depth-first search with an explicit stack and an undo log (the kernels apply
and undo moves in place), a transposition table of 64-bit position hashes that
treats rows (and cells) as interchangeable and grows as the search needs, safe
automatic foundation plays, and one of three move orders (``ORDER_*``): guided
toward the cards the foundations need next, the same with a seeded jitter, or
shuffled (best-first search uses a fourth, the kernel's plain order). A search
can be paused and resumed (``begin_depth_first``, ``resume_depth_first``). The
budget counts distinct positions (nodes), never seconds, so a verdict is
reproducible. The choices made per game (which automatic plays, which loss
proof, whether every move is undone from a snapshot, pruning rule 5) come from
the game's search plan (``simlab.solver.plan``), held in the search's counters.

Pruning (each keeps the search complete; arguments in ``ordered_moves``):
1. a lone card never moves into an empty row (the result equals the position);
2. of several empty rows (or cells, or alike foundations: Windmill's king
   piles) only the first is a destination (symmetry);
3. the card moved last is not moved again straight away, unless automatic
   plays followed its move (it could have gone to its new place directly);
4. a position that ``simlab.solver.deadlock`` proves lost is counted but not
   expanded, and so is one from which ``simlab.solver.stuck`` proves that
   neither a win nor a few more foundation plays are within reach (asked
   where the foundations have just changed);
5. where rows build down in suit (the plan's ``returns_pruned``), a
   foundation's card is not tried back on a row unless a redeal is ahead
   (``foundation_card_may_return``).

Moves other than one card between two piles (a redeal, a draw, turning a
stock) and every move of a game with automatic refills are not their own
inverse: the search saves the position before such a move (a *snapshot*, a
few hundred bytes) and restores it when it backs up, and recomputes the
tracked facts. It tries them after the card moves of a position. A redeal
shuffles with the deal's chance tape (``chance``), so the search knows every
shuffle to come: its verdict is ``thoughtful``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simlab.engine import kernel, moves
from simlab.engine.compiled import allocation_free, allocation_free_inlined
from simlab.engine.features import URGENCY_WEIGHTS, cards_until_home, planned_base
from simlab.engine.incremental import apply_move_tracked, hash_after, start_tracking, undo_move_tracked
from simlab.engine.layout import (
    FIRST_CELL,
    FIRST_FOUNDATION,
    FIRST_RESERVE,
    MOVE_BASE,
    MOVE_CARD,
    N_CARDS,
    N_PILES,
    P_IDENTITY,
    STATE_SIZE,
)
from simlab.engine.position_set import MAX_LOAD, add, can_grow, capacity, grown, new_position_set
from simlab.solver.autoplay import next_safe_play, safe_foundation, shuffles_ahead
from simlab.solver.deadlock import only_rearranges, provably_lost, provably_lost_using, relaxation_scratch
from simlab.solver.evaluation import next_rank
from simlab.solver.plan import PLAN_AUTOPLAY, PLAN_RELAXATION, PLAN_RETURNS, PLAN_SNAPSHOTS, PLAN_STUCK
from simlab.solver.stuck import STUCK_YES, CheckSpace, new_check_space, stuck_budget, stuck_levels

STATUS_WON = 0
STATUS_LOST = 1
STATUS_BUDGET = 2
STATUS_MEMORY = 3
MAX_BRANCHING = 1024  # the most moves a position lists (room for every move of the kernel)


@njit(cache=True)
def grow(array, needed):
    """``array`` if it holds ``needed`` items, else a copy twice as large."""
    if needed < array.shape[0]:
        return array
    bigger = np.empty(max(2 * array.shape[0], needed + 1), dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


@allocation_free
def play_safe_moves(rules, state, log, log_length, autoplay):
    """Make every safe automatic play (rule ``autoplay``, ``simlab.solver.autoplay``);
    append them to ``log``; return the new length."""
    move = next_safe_play(rules, state, autoplay)
    while move >= 0:
        kernel.apply_move(rules, state, move)
        log[log_length] = move
        log_length += 1
        move = next_safe_play(rules, state, autoplay)
    return log_length


@allocation_free
def play_safe_moves_tracked(rules, state, log, log_length, zobrist, pile_hashes, card_piles, key, autoplay):
    """``play_safe_moves`` keeping the tracked facts and the position hash ``key``
    up to date (``simlab.engine.incremental``); return (new log length, new key)."""
    move = next_safe_play(rules, state, autoplay)
    while move >= 0:
        key = apply_move_tracked(rules, state, move, zobrist, pile_hashes, card_piles, key)
        log[log_length] = move
        log_length += 1
        move = next_safe_play(rules, state, autoplay)
    return log_length, key


@allocation_free
def undo_moves_tracked(rules, state, log, start, end, zobrist, pile_hashes, card_piles):
    """Undo ``log[start:end]``, last first, keeping the tracked facts."""
    for k in range(end - 1, start - 1, -1):
        undo_move_tracked(rules, state, log[k], zobrist, pile_hashes, card_piles, np.uint64(0))


@allocation_free_inlined
def quiet(rules, state, move, autoplay):
    """Whether ``move`` goes to a row or cell and uncovers no card that would be
    played home automatically (rule ``autoplay``): then no automatic play follows it (the position
    before it had none left, the foundations do not change, and the uncovered
    card is the only new top that could go home), and it cannot win."""
    source = move // MOVE_BASE
    if move % MOVE_BASE >= rules[FIRST_FOUNDATION] or source >= rules[FIRST_FOUNDATION]:
        return False  # a card back from a foundation would go home again at once
    height = kernel.height(rules, state, source)
    return height < 2 or safe_foundation(rules, state, kernel.card_at(rules, state, source, height - 2), autoplay) < 0


# What ``try_move_and_plays`` led to.
MOVE_SEEN = 0  # a position already in the table: the move and its plays are undone
MOVE_NEW = 1  # a new position, added to the table; the move and its plays stay made
MOVE_WINS = 2  # the move and its plays won (they stay made; the position is not added)


@allocation_free_inlined
def try_move_and_plays(rules, state, move, zobrist, pile_hashes, card_piles, key, table, log, log_length, autoplay):
    """Make ``move``, one that is not ``quiet``, from ``state`` (whose hash is
    ``key``), then the automatic plays (rule ``autoplay``) after it (appended to ``log`` from
    ``log_length``), and add the position reached to ``table``.

    (A quiet move is looked up by the hash it will give before it is made; the
    searches do that in their own loop, where the compiler keeps it inline.)
    Inlined, as are ``worth_searching`` and ``back_up``: as calls the three cost
    about 5% of a depth-first search (measured with ``perf``).

    Returns:
        (outcome, key, log length): a ``MOVE_*`` outcome, the new position's
        hash and ``log``'s length after its automatic plays.
    """
    new_key = apply_move_tracked(rules, state, move, zobrist, pile_hashes, card_piles, key)
    new_length, new_key = play_safe_moves_tracked(
        rules, state, log, log_length, zobrist, pile_hashes, card_piles, new_key, autoplay
    )
    if kernel.is_won(rules, state):
        return MOVE_WINS, new_key, new_length
    if not add(table, new_key):
        undo_moves_tracked(rules, state, log, log_length, new_length, zobrist, pile_hashes, card_piles)
        undo_move_tracked(rules, state, move, zobrist, pile_hashes, card_piles, np.uint64(0))
        return MOVE_SEEN, new_key, log_length
    return MOVE_NEW, new_key, new_length


@allocation_free
def moved_to(move, automatic_plays, snapshot):
    """Where ``move`` put its card, when it was a plain card move (no
    ``snapshot``) and no automatic play followed it (the "card moved last"
    rule of ``ordered_moves``), else -1."""
    return move % MOVE_BASE if automatic_plays == 0 and not snapshot else -1


# How a depth-first search orders its moves (each prunes the same moves, so each is complete).
ORDER_GUIDED = 0  # best first by ``move_score``
ORDER_JITTERED = 1  # ``move_score`` plus a seeded jitter that reorders near-equal moves
ORDER_SHUFFLED = 2  # a seeded pseudo-random order, different in every position
ORDER_PLAIN = 3  # the kernel's order, unscored (for best-first search, which orders positions, not moves)

# ``move_score``: what a move is worth, by where its card goes (a category), ...
SCORE_HOME = 1000.0  # onto a foundation: always tried first
SCORE_BUILD = 500.0  # onto a card in a row
SCORE_EMPTY_ROW = 100.0  # into an empty row
SCORE_CELL = 50.0  # into a cell
# ... then adjusted within its category, by what it does to the two piles:
SCORE_PER_CARD_LEFT = 10.0  # less per card left in the source pile under the moved one (short piles first)
SCORE_UNCOVERS_HOME = 50.0  # it uncovers a card that can go home at once
SCORE_EMPTIES_ROW = 30.0  # it takes the last card of a row, emptying it
SCORE_PER_URGENCY = 10.0  # per unit of urgency uncovered at the source less that covered at the destination
# ``ORDER_JITTERED``'s jitter: up to this many ``move_score`` points, enough to
# reorder moves a few adjustments apart, far from the steps between most categories
NOISE_SCALE = 60.0
FRACTION_SCALE = 9007199254740992.0  # 2**53: the top 53 bits of a 64-bit value divided by it lie in [0, 1)
URGENT_STEPS = len(URGENCY_WEIGHTS)  # a card is urgent while fewer cards than this must go home before it


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
    return np.float64(value >> np.uint64(11)) / FRACTION_SCALE


@allocation_free
def pile_urgencies(rules, state, card_piles, whole, below_top):
    """Per pile: the urgency of its cards (``whole``) and of all but its top
    (``below_top``), weighted by ``URGENCY_WEIGHTS`` as the policies'
    ``urgency`` counts it, computed once per position instead of once per move
    (the search's hottest loop). Only the three next cards of each suit's
    foundation count, so they are looked up where ``card_piles`` says they
    are. A foundation's cards are home: 0 for both."""
    base = planned_base(rules, state)
    first_foundation = rules[FIRST_FOUNDATION]
    for pile in range(first_foundation):
        whole[pile] = 0.0
    # written although no card goes onto a foundation's entry: ``move_score`` reads the source's
    # ``below_top`` for a card back from a foundation (``foundation_card_may_return``), and an
    # unwritten entry holds whatever the memory held (the order would change from run to run)
    for pile in range(first_foundation, rules[N_PILES]):
        whole[pile] = 0.0
        below_top[pile] = 0.0
    for suit in range(4):
        needed = next_rank(rules, state, base, suit)
        if needed < 0:
            continue
        for steps in range(URGENT_STEPS):
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
            if steps < URGENT_STEPS:
                below_top[pile] -= URGENCY_WEIGHTS[steps]


@allocation_free_inlined
def move_score(rules, state, move, whole, below_top):
    """Ordering score: higher is tried first. Home, then builds, then spaces;
    prefer uncovering soon-needed cards and not covering them (``SCORE_*``)."""
    source = move // MOVE_BASE
    destination = move % MOVE_BASE
    height = kernel.height(rules, state, source)
    if destination >= rules[FIRST_FOUNDATION]:
        return SCORE_HOME
    score = 0.0
    target_height = kernel.height(rules, state, destination)
    if destination < rules[FIRST_CELL]:
        score += SCORE_BUILD if target_height > 0 else SCORE_EMPTY_ROW
    else:
        score += SCORE_CELL
    score -= SCORE_PER_CARD_LEFT * (height - 1)
    if height >= 2:
        uncovered = kernel.card_at(rules, state, source, height - 2)
        if cards_until_home(rules, state, uncovered) == 0:
            score += SCORE_UNCOVERS_HOME
    elif source < rules[FIRST_CELL]:
        score += SCORE_EMPTIES_ROW
    score += SCORE_PER_URGENCY * (below_top[source] - whole[destination])
    return score


class Workspace(NamedTuple):
    """Working space of a search, made once (``new_workspace``) so that its
    inner loop creates no array."""

    legal: np.ndarray  # the kernel's legal moves in a position (``MAX_BRANCHING``)
    scores: np.ndarray  # their ``order_score`` while ``ordered_moves`` sorts them
    whole: np.ndarray  # per pile: the urgency of its cards (``pile_urgencies``)
    below_top: np.ndarray  # per pile: the urgency of all but its top card
    relaxation: np.ndarray  # for ``deadlock.provably_lost_using``
    returns_pruned: int  # the search plan's ``PLAN_RETURNS``: 1 where pruning rule 5 applies


@njit(cache=True)
def new_workspace(rules, returns_pruned):
    """A ``Workspace`` for ``rules``, pruning rule 5 applying as ``returns_pruned``
    (the search plan's ``PLAN_RETURNS``) says."""
    return Workspace(
        np.empty(MAX_BRANCHING, dtype=np.int32),
        np.empty(MAX_BRANCHING, dtype=np.float64),
        np.empty(rules[N_PILES], dtype=np.float64),
        np.empty(rules[N_PILES], dtype=np.float64),
        relaxation_scratch(rules),
        np.int64(returns_pruned),
    )


@allocation_free
def first_empty(rules, state, start, stop):
    """The first empty pile among ``start`` .. ``stop - 1``, or -1."""
    for pile in range(start, stop):
        if kernel.height(rules, state, pile) == 0:
            return pile
    return -1


@allocation_free_inlined
def worth_searching(rules, state, move, last_moved_to, first_empty_row, first_empty_cell, returns_pruned):
    """Whether ``ordered_moves`` keeps ``move``; its docstring argues what it leaves out."""
    source = move // MOVE_BASE
    destination = move % MOVE_BASE
    if source == last_moved_to:
        return False
    if destination >= rules[FIRST_FOUNDATION]:
        if not first_of_alike_empties(rules, state, destination) or moves.swaps_alike(rules, source, destination):
            return False
    elif source >= rules[FIRST_FOUNDATION]:
        return foundation_card_may_return(rules, state, returns_pruned)
    if destination < rules[FIRST_FOUNDATION] and kernel.height(rules, state, destination) == 0:
        # rows are alike in every game, and none whose rows are ordered takes a card into a
        # space (``tests/test_move_orders.py`` pins both), so rows need no test of either here
        if destination < rules[FIRST_CELL]:
            if destination != first_empty_row:
                return False
            if source < rules[FIRST_CELL] and kernel.height(rules, state, source) == 1:
                return False
        elif destination != first_empty_cell:
            return False
    return True


@allocation_free
def first_of_alike_empties(rules, state, foundation):
    """False for an empty foundation when an earlier foundation alike to it
    (``P_IDENTITY``: Windmill's king piles) is empty too: the move there gives
    a position equal to this one up to the order of alike piles, which the
    position hash ignores."""
    identity = kernel.spec(rules, foundation, P_IDENTITY)
    if identity == foundation or kernel.height(rules, state, foundation) > 0:
        return True
    for pile in range(identity, foundation):
        if kernel.spec(rules, pile, P_IDENTITY) == identity and kernel.height(rules, state, pile) == 0:
            return False
    return True


@allocation_free
def foundation_card_may_return(rules, state, returns_pruned):
    """Whether the search tries a foundation's top card back on a row (in a game
    that allows it): not when the plan prunes returns (``returns_pruned`` 1:
    rows build down in suit) and no redeal is ahead.
    Argument: a card c returned there can only hold the card one below it of
    its suit, which is home as long as c was; so the cards ever returned form
    runs of one suit that hold nothing else and only cover tops or fill spaces.
    Drop from a line every return and every later move of a returned card:
    the other moves stay legal (their targets are uncovered, the foundations
    hold at least as much) and the line still wins. With a redeal ahead the
    returned cards would change what it gathers, so there they are searched."""
    return returns_pruned == 0 or shuffles_ahead(rules, state)


@allocation_free
def order_score(rules, state, move, order, seed, position_key, work):
    """What ``ordered_moves`` sorts by in the seeded and guided orders: higher first."""
    if order == ORDER_SHUFFLED:
        return seeded_fraction(seed, move, position_key)
    score = move_score(rules, state, move, work.whole, work.below_top)
    if order == ORDER_JITTERED:
        score += NOISE_SCALE * seeded_fraction(seed, move, position_key)
    return score


@allocation_free
def insert_by_score(out, out_start, scores, kept, move, score):
    """Insert ``move`` into the ``kept`` moves at ``out[out_start:]``, sorted by
    descending ``scores``; stable: among equal scores the earlier stays first."""
    position = kept
    while position > 0 and scores[position - 1] < score:
        scores[position] = scores[position - 1]
        out[out_start + position] = out[out_start + position - 1]
        position -= 1
    scores[position] = score
    out[out_start + position] = move


@allocation_free
def ordered_moves(rules, state, last_moved_to, work, out, out_start, order, seed, position_key, card_piles):
    """Write the moves worth searching to ``out[out_start:]`` in the order
    ``order`` (``ORDER_*``, with ``seed`` and the position's hash
    ``position_key`` for the seeded ones); return the count. ``work`` is the
    search's ``Workspace``, ``card_piles`` its tracked pile of each card.

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
    count = kernel.legal_moves(rules, state, work.legal)
    if order == ORDER_GUIDED or order == ORDER_JITTERED:
        pile_urgencies(rules, state, card_piles, work.whole, work.below_top)
    first_empty_row = first_empty(rules, state, 0, rules[FIRST_CELL])
    first_empty_cell = first_empty(rules, state, rules[FIRST_CELL], rules[FIRST_RESERVE])
    kept = 0
    others = False
    for i in range(count):
        move = work.legal[i]
        if kernel.move_kind(move) != MOVE_CARD:
            others = True
            continue
        if not worth_searching(rules, state, move, last_moved_to, first_empty_row, first_empty_cell,
                               work.returns_pruned):
            continue
        if order == ORDER_PLAIN:
            out[out_start + kept] = move
        else:
            score = order_score(rules, state, move, order, seed, position_key, work)
            insert_by_score(out, out_start, work.scores, kept, move, score)
        kept += 1
    if others:  # redeals, draws, turning the stock: after every card move, in the kernel's order
        for i in range(count):
            if kernel.move_kind(work.legal[i]) != MOVE_CARD:
                out[out_start + kept] = work.legal[i]
                kept += 1
    return kept


# Slots of a depth-first search's ``counters`` array (``DepthFirstSearch``).
NODES = 0  # distinct positions searched so far
DEPTH = 1  # depth of the position being expanded (-1 once the search is exhausted)
LOG_LENGTH = 2  # automatic plays logged along the current line
ROOT_AUTOS = 3  # automatic plays made at the start
MAX_ENTRIES = 4  # positions the table takes before it must grow
TABLE_BITS = 5  # the table may grow to 2**TABLE_BITS slots
SNAPSHOTS = 6  # snapshots in use along the current line
SNAPSHOT_EVERY_MOVE = 7  # the search plan's ``PLAN_SNAPSHOTS``: every move is undone from a snapshot
AUTOPLAY_RULE = 8  # the search plan's ``PLAN_AUTOPLAY``
RELAXATION = 9  # the search plan's ``PLAN_RELAXATION``
STUCK_LEVELS = 10  # the search plan's ``PLAN_STUCK``: how many foundation plays a stuck check asks for
STUCK_NODES = 11  # positions the stuck checks searched (``simlab.solver.stuck``)
KNOWN_ENTRIES = 12  # keys in ``known``
BUDGET = 13  # the most positions the search may see, the stuck checks' included
STUCK_CAP = 14  # the most positions one stuck check may search (``stuck_budget``, within ``TABLE_BITS``)
START_UNCHECKED = 15  # 1 until the stuck check of the start has been made (at the first step)
RETURNS_PRUNED = 16  # the search plan's ``PLAN_RETURNS``: pruning rule 5 applies
N_COUNTERS = 17
# A search starts with a table for this many positions (2**17 slots of 8 bytes,
# 1 MiB, fewer for a smaller budget or table_bits) and grows it as it needs.
FIRST_TABLE_ENTRIES = 1 << 16
FIRST_DEPTHS = 1024  # the per-depth arrays start this long and grow
FIRST_ARENA = 4096  # the arena starts with room for this many moves and grows
FIRST_SNAPSHOTS = 8  # room for this many snapshots at first (La Belle Lucie's lines need at most 3)
KNOWN_BITS = 22  # what the stuck checks found grows to at most 2**22 slots (32 MiB)


class DepthFirstSearch(NamedTuple):
    """A depth-first search that can be paused and resumed (numba keeps no
    objects between calls, so it is a tuple of arrays): the solver's portfolio
    runs one long search in slices between its restarts.

    The line being searched goes from depth 0 (the start, after its automatic
    plays) to ``counters[DEPTH]``: depth ``d`` has the moves
    ``arena[first[d]:first[d] + count[d]]``, of which ``tried[d]`` were tried,
    and went deeper with the last move tried (``chosen``), whose automatic
    plays end at ``auto_log[autos_end[d]]``.

    A line can run millions of positions deep (Streets and Alleys deal 186
    reached 2.7 million at 14 million positions), so a depth costs as few bytes
    as it can: ``first`` int32 (the arena never nears 2**31 moves: its table
    would not fit in memory first), ``count``, ``tried`` and ``autos_end``
    int16 (at most ``MAX_BRANCHING`` moves and ``N_CARDS + 1`` automatic plays),
    and no array of moves chosen.
    """

    state: np.ndarray  # the position at the current depth (the search's own, changed in place)
    table: np.ndarray  # the transposition table (``simlab.engine.position_set``)
    auto_log: np.ndarray  # the automatic plays along the line, in order
    counters: np.ndarray  # ``N_COUNTERS`` int64: ``NODES``, ``DEPTH``, ...
    arena: np.ndarray  # every depth's moves, one depth after the other
    first: np.ndarray  # per depth: where its moves start in the arena
    count: np.ndarray  # per depth: how many moves
    tried: np.ndarray  # per depth: how many already tried (the last of them led deeper)
    autos_end: np.ndarray  # per depth: auto_log length after its chosen move
    keys: np.ndarray  # per depth: the hash of the position there
    pile_hashes: np.ndarray  # tracked facts of ``state`` (``simlab.engine.incremental``)
    card_piles: np.ndarray
    chance: np.ndarray  # the chance tape redeals shuffle with (``simlab.engine.moves``)
    snapshots: np.ndarray  # a position saved before each move of the line that is not its own inverse
    scratch: np.ndarray  # ``N_CARDS`` int64 for a redeal
    known: np.ndarray  # keys of positions the stuck checks found stuck, or live (``simlab.solver.stuck``)
    checks: CheckSpace  # what the stuck checks work in (``simlab.solver.stuck``)


@njit(cache=True)
def new_depth_first(rules, plan, state, chance, budget, table_bits):
    """An empty ``DepthFirstSearch`` on ``state`` (``begin_depth_first`` starts it)
    following the search plan ``plan`` (``SearchPlan.array``)."""
    table = new_position_set(min(budget, FIRST_TABLE_ENTRIES), table_bits)
    counters = np.zeros(N_COUNTERS, dtype=np.int64)
    counters[TABLE_BITS] = table_bits
    counters[MAX_ENTRIES] = capacity(table)
    counters[SNAPSHOT_EVERY_MOVE] = plan[PLAN_SNAPSHOTS]
    counters[AUTOPLAY_RULE] = plan[PLAN_AUTOPLAY]
    counters[RELAXATION] = plan[PLAN_RELAXATION]
    counters[STUCK_LEVELS] = plan[PLAN_STUCK]
    counters[RETURNS_PRUNED] = plan[PLAN_RETURNS]
    counters[BUDGET] = budget
    # a check's table stays within the table size asked for, as the search's own does
    cap = min(stuck_budget(budget), np.int64(MAX_LOAD * (np.int64(1) << table_bits)) - 1)
    counters[STUCK_CAP] = cap if plan[PLAN_STUCK] > 0 else 0
    room = counters[STUCK_CAP] + 1  # no room for a check the plan never makes
    return DepthFirstSearch(
        state=state,
        table=table,
        auto_log=np.empty(rules[N_CARDS] + 1, dtype=np.int32),  # at most every card goes home once
        counters=counters,
        arena=np.empty(FIRST_ARENA, dtype=np.int32),
        first=np.zeros(FIRST_DEPTHS, dtype=np.int32),
        count=np.zeros(FIRST_DEPTHS, dtype=np.int16),
        tried=np.zeros(FIRST_DEPTHS, dtype=np.int16),
        autos_end=np.empty(FIRST_DEPTHS, dtype=np.int16),
        keys=np.empty(FIRST_DEPTHS, dtype=np.uint64),
        pile_hashes=np.empty(rules[N_PILES], dtype=np.uint64),
        card_piles=np.empty(rules[N_CARDS], dtype=np.int64),
        chance=chance,
        snapshots=np.empty((FIRST_SNAPSHOTS, rules[STATE_SIZE]), dtype=state.dtype),
        scratch=np.empty(rules[N_CARDS], dtype=np.int64),
        known=new_position_set(0, min(KNOWN_BITS, table_bits)),
        checks=new_check_space(rules, state, room, table_bits),
    )


@njit(cache=True)
def begin_depth_first(rules, plan, state, chance, zobrist, budget, table_bits, order, seed):
    """A depth-first search from ``state``, ready for ``resume_depth_first``.

    ``plan`` is the game's search plan (``SearchPlan.array``); ``state`` becomes
    the search's own; ``chance`` is the deal's chance tape.
    The transposition table starts small and grows to at most
    ``2**table_bits`` slots, or as many as ``budget`` positions need.
    """
    search = new_depth_first(rules, plan, state, chance, budget, table_bits)
    counters = search.counters
    counters[ROOT_AUTOS] = play_safe_moves(rules, state, search.auto_log, 0, plan[PLAN_AUTOPLAY])
    counters[LOG_LENGTH] = counters[ROOT_AUTOS]
    search.keys[0] = start_tracking(rules, state, zobrist, search.pile_hashes, search.card_piles)
    add(search.table, search.keys[0])
    counters[NODES] = 1
    if not kernel.is_won(rules, state) and not provably_lost(rules, state, plan[PLAN_RELAXATION]):
        search.count[0] = ordered_moves(
            rules, state, -1, new_workspace(rules, plan[PLAN_RETURNS]), search.arena, 0, order, seed, search.keys[0],
            search.card_piles,
        )
        # the start's stuck check waits for the first step: a search begun but never run (another
        # search of the portfolio decided first) then costs nothing
        counters[START_UNCHECKED] = 1
    return search


@njit(cache=True)
def resume_depth_first(rules, zobrist, order, seed, search, node_limit):
    """Run ``search`` (from ``begin_depth_first``) until it decides or has
    searched ``node_limit`` positions in all.

    Returns:
        (status, moves, search): ``STATUS_*`` (``STATUS_BUDGET`` when paused at
        the limit); on a win every move from the start, automatic plays
        included, else empty; the search to resume (its arrays may have grown).
    """
    counters = search.counters
    if kernel.is_won(rules, search.state) and counters[DEPTH] == 0 and counters[NODES] == 1:
        counters[DEPTH] = -1
        return STATUS_WON, search.auto_log[: counters[ROOT_AUTOS]].copy(), search
    work = new_workspace(rules, search.counters[RETURNS_PRUNED])
    line = np.empty(0, dtype=np.int32)
    while True:
        status = depth_first_steps(rules, zobrist, order, seed, node_limit, search, work)
        if status != STATUS_NEEDS_ROOM:
            break
        room, search = with_room(search)
        if not room:
            status = STATUS_MEMORY
            break
    if status == STATUS_WON:
        line = winning_line(search)
    return status, line, search


@njit(cache=True)
def with_room(search):
    """``search`` with room for one more move (``has_room``): its table, its
    per-depth arrays and its arena grown where full. Returns (True, the
    search), or (False, ``search``) when the table is full and may not grow."""
    counters = search.counters
    table = search.table
    known = search.known
    if not known_has_room(search):
        known = grown(known)
    if counters[NODES] >= counters[MAX_ENTRIES]:
        if not can_grow(table, counters[TABLE_BITS]):
            return False, search
        table = grown(table)
        counters[MAX_ENTRIES] = capacity(table)
    depth = counters[DEPTH]
    first, count, tried = search.first, search.count, search.tried
    autos_end, keys = search.autos_end, search.keys
    if depth + 2 >= first.shape[0]:
        first = grow(first, depth + 2)
        count = grow(count, depth + 2)
        tried = grow(tried, depth + 2)
        autos_end = grow(autos_end, depth + 2)
        keys = grow(keys, depth + 2)
    arena = grow(search.arena, first[depth] + count[depth] + MAX_BRANCHING)
    snapshots = search.snapshots
    if counters[SNAPSHOTS] >= snapshots.shape[0]:
        snapshots = np.empty((2 * snapshots.shape[0], snapshots.shape[1]), dtype=snapshots.dtype)
        snapshots[: search.snapshots.shape[0]] = search.snapshots
    return True, DepthFirstSearch(
        search.state, table, search.auto_log, counters, arena, first, count, tried, autos_end, keys,
        search.pile_hashes, search.card_piles, search.chance, snapshots, search.scratch, known, search.checks,
    )


STATUS_NEEDS_ROOM = -1  # between ``depth_first_steps`` and ``resume_depth_first`` only


@allocation_free
def has_room(search, nodes, depth):
    """Whether the next move at ``depth`` can be made without overrunning an
    array: the table takes another position, the per-depth arrays another
    depth, and the arena the moves of a new position."""
    start = search.first[depth] + search.count[depth]  # where the moves of a new position would go
    return (
        nodes < search.counters[MAX_ENTRIES] and depth + 2 < search.first.shape[0]
        and start + MAX_BRANCHING <= search.arena.shape[0]
        and search.counters[SNAPSHOTS] < search.snapshots.shape[0]
        and known_has_room(search)
    )


@allocation_free
def known_has_room(search):
    """Whether ``known`` is at most half full (or may not grow): past that it is
    grown between moves (a check that fills it keeps what fits)."""
    known = search.known
    return (2 * search.counters[KNOWN_ENTRIES] <= capacity(known)
            or not can_grow(known, min(KNOWN_BITS, search.counters[TABLE_BITS])))


@allocation_free
def depth_first_steps(rules, zobrist, order, seed, node_limit, search, work):
    """The depth-first search itself, on the ``DepthFirstSearch`` ``search``
    with the ``Workspace`` ``work``.

    It creates no array (``simlab.engine.compiled``), so it returns
    ``STATUS_NEEDS_ROOM`` before a move that could overrun the table, the
    per-depth arrays or the arena, and the caller grows them and calls again.
    Otherwise returns a ``STATUS_*``; on a win ``chosen`` and ``autos_end`` give
    the line down to ``counters[DEPTH]``. The position, the depth and the
    counts are kept in the search's arrays between calls.
    """
    counters, state = search.counters, search.state
    if counters[START_UNCHECKED] == 1:
        counters[START_UNCHECKED] = 0
        if proved_stuck(rules, zobrist, search, work, counters[NODES]):
            search.count[0] = 0
    autoplay = counters[AUTOPLAY_RULE]
    nodes = counters[NODES]
    depth = counters[DEPTH]
    log_length = counters[LOG_LENGTH]
    status = STATUS_LOST
    while depth >= 0:
        if search.tried[depth] == search.count[depth]:
            depth, log_length = back_up(rules, zobrist, search, depth, log_length)
            continue
        if nodes + counters[STUCK_NODES] >= node_limit:  # checked before a move: a search never exceeds its limit
            status = STATUS_BUDGET
            break
        if not has_room(search, nodes, depth):
            status = STATUS_NEEDS_ROOM
            break
        move = search.arena[search.first[depth] + search.tried[depth]]
        search.tried[depth] += 1
        rearranges = False  # set for a quiet move that only rearranges: the relaxation is skipped after it
        snapshot = takes_snapshot(search, move)
        if snapshot:
            outcome, key, new_length = try_snapshot_move(rules, zobrist, search, move, log_length)
            if outcome == MOVE_SEEN:
                continue
        elif quiet(rules, state, move, autoplay):
            # most moves tried lead to positions seen before: look the hash up
            # first and make the move only for a new position
            key = hash_after(rules, state, move, zobrist, search.pile_hashes, search.keys[depth])
            if not add(search.table, key):
                continue
            rearranges = only_rearranges(rules, state, move)
            apply_move_tracked(rules, state, move, zobrist, search.pile_hashes, search.card_piles, search.keys[depth])
            outcome, new_length = MOVE_NEW, log_length
        else:
            outcome, key, new_length = try_move_and_plays(
                rules, state, move, zobrist, search.pile_hashes, search.card_piles, search.keys[depth],
                search.table, search.auto_log, log_length, autoplay,
            )
            if outcome == MOVE_SEEN:
                continue
        nodes += 1
        search.autos_end[depth] = new_length
        if outcome == MOVE_WINS:
            status = STATUS_WON
            break
        last_moved_to = moved_to(move, new_length - log_length, snapshot)
        home_changed = new_length > log_length or move % MOVE_BASE >= rules[FIRST_FOUNDATION]
        log_length = new_length
        depth += 1
        go_deeper(rules, zobrist, order, seed, search, work, depth, key, last_moved_to, rearranges, home_changed, nodes)
    counters[NODES] = nodes
    counters[DEPTH] = depth
    counters[LOG_LENGTH] = log_length
    return status


@allocation_free_inlined
def back_up(rules, zobrist, search, depth, log_length):
    """Leave ``depth``, whose moves have all been tried: undo the move that led
    there and its automatic plays. Returns (the depth above, ``auto_log``'s
    length there); (-1, ``log_length``) when ``depth`` was the start."""
    depth -= 1
    if depth < 0:
        return depth, log_length
    log_length = search.autos_end[depth - 1] if depth > 0 else search.counters[ROOT_AUTOS]
    move = chosen(search, depth)
    if takes_snapshot(search, move):
        restore_snapshot(rules, zobrist, search)  # the move and its automatic plays at once
        return depth, log_length
    undo_moves_tracked(
        rules, search.state, search.auto_log, log_length, search.autos_end[depth], zobrist, search.pile_hashes,
        search.card_piles,
    )
    undo_move_tracked(rules, search.state, move, zobrist, search.pile_hashes, search.card_piles, np.uint64(0))
    return depth, log_length


@allocation_free
def chosen(search, depth):
    """The move the line took from ``depth`` to go deeper: the last one tried there."""
    return search.arena[search.first[depth] + search.tried[depth] - 1]


@allocation_free
def takes_snapshot(search, move):
    """Whether ``move`` is made by saving the position first (not its own inverse)."""
    return kernel.move_kind(move) != MOVE_CARD or search.counters[SNAPSHOT_EVERY_MOVE] == 1


@allocation_free
def restore_snapshot(rules, zobrist, search):
    """Put back the position saved last, with its tracked facts."""
    slot = search.counters[SNAPSHOTS] - 1
    search.counters[SNAPSHOTS] = slot
    moves.copy_state(rules, search.snapshots[slot], search.state)
    start_tracking(rules, search.state, zobrist, search.pile_hashes, search.card_piles)


@allocation_free
def try_snapshot_move(rules, zobrist, search, move, log_length):
    """``try_move_and_plays`` for a move that ``takes_snapshot``: save the
    position, make the move (``simlab.engine.moves.play_any``) and its
    automatic plays, and add the position reached to the table (or restore the
    saved one if it was seen before). Returns (outcome, key, log length)."""
    state = search.state
    slot = search.counters[SNAPSHOTS]
    moves.copy_state(rules, state, search.snapshots[slot])
    search.counters[SNAPSHOTS] = slot + 1
    moves.play_any(rules, state, move, search.chance, search.scratch)
    key = start_tracking(rules, state, zobrist, search.pile_hashes, search.card_piles)
    new_length, key = play_safe_moves_tracked(
        rules, state, search.auto_log, log_length, zobrist, search.pile_hashes, search.card_piles, key,
        search.counters[AUTOPLAY_RULE],
    )
    if kernel.is_won(rules, state):
        return MOVE_WINS, key, new_length
    if not add(search.table, key):
        restore_snapshot(rules, zobrist, search)
        return MOVE_SEEN, key, log_length
    return MOVE_NEW, key, new_length


@allocation_free
def go_deeper(rules, zobrist, order, seed, search, work, depth, key, last_moved_to, rearranges, home_changed, nodes):
    """Set up ``depth`` for the new position just reached (hash ``key``): its
    moves go into the arena after those of the depth above; none for a
    position ``simlab.solver.deadlock`` proves lost, or (where the move
    changed the foundations: ``home_changed``) ``proved_stuck`` (counted,
    never expanded)."""
    start = search.first[depth - 1] + search.count[depth - 1]
    search.keys[depth] = key
    search.first[depth] = start
    search.tried[depth] = 0
    if not rearranges and provably_lost_using(rules, search.state, work.relaxation, search.counters[RELAXATION]):
        search.count[depth] = 0
    elif home_changed and proved_stuck(rules, zobrist, search, work, nodes):
        search.count[depth] = 0
    else:
        search.count[depth] = ordered_moves(
            rules, search.state, last_moved_to, work, search.arena, start, order, seed, key, search.card_piles
        )


@allocation_free
def proved_stuck(rules, zobrist, search, work, nodes_so_far):
    """Whether the plan checks for stuck foundations and ``simlab.solver.stuck``
    proves the search's position's stuck: among the families kept, or by a
    new check (its positions counted in ``STUCK_NODES``, a stuck family's keys
    kept)."""
    counters = search.counters
    # bounded by what is left of the whole search's budget, never by a slice's limit: a result
    # must not depend on where the search was paused
    status, nodes, counters[KNOWN_ENTRIES] = stuck_levels(
        rules, search.state, zobrist, counters[STUCK_LEVELS], counters[STUCK_CAP],
        counters[BUDGET] - nodes_so_far - counters[STUCK_NODES], search.known, counters[KNOWN_ENTRIES],
        search.checks, work.legal,
    )
    counters[STUCK_NODES] += nodes
    return status == STUCK_YES


@allocation_free
def searched(counters):
    """Distinct positions a search has seen, from its counters: its own and
    its stuck checks'."""
    return counters[NODES] + counters[STUCK_NODES]


def positions_searched(search: DepthFirstSearch) -> int:
    """How many distinct positions a search from ``begin_depth_first`` has seen (``searched``)."""
    return int(searched(search.counters))


@njit(cache=True)
def depth_first_search(rules, plan, state, chance, zobrist, budget, table_bits, order, seed):
    """Search from ``state`` (modified in place and restored only on failure)
    until it decides or has searched ``budget`` distinct positions.

    ``plan`` is the game's search plan (``SearchPlan.array``); ``chance`` the
    deal's chance tape; ``order`` (``ORDER_*``) and ``seed`` choose the move order.

    Returns:
        (status, nodes, moves): ``STATUS_*``; distinct positions searched; on a
        win every move from the start, automatic plays included, else empty.
    """
    search = begin_depth_first(rules, plan, state, chance, zobrist, budget, table_bits, order, seed)
    status, line, search = resume_depth_first(rules, zobrist, order, seed, search, budget)
    return status, searched(search.counters), line


@njit(cache=True)
def winning_line(search):
    """The moves from the start to the win that ``search`` found: the automatic
    plays at the start, then each chosen move and its automatic plays."""
    depth = search.counters[DEPTH]
    root_autos = search.counters[ROOT_AUTOS]
    autos_end, auto_log = search.autos_end, search.auto_log
    total = autos_end[depth] + depth + 1
    line = np.empty(total, dtype=np.int32)
    written = 0
    for k in range(root_autos):
        line[written] = auto_log[k]
        written += 1
    previous_end = root_autos
    for d in range(depth + 1):
        line[written] = chosen(search, d)
        written += 1
        for k in range(previous_end, autos_end[d]):
            line[written] = auto_log[k]
            written += 1
        previous_end = autos_end[d]
    return line
