"""The playout loop shared by the built-in policies, and its compiled pieces.

``playout_loop`` plays a deal to its end; a policy keeps only its choice rule
(a compiled function) and a one-line compiled loop that calls ``playout_loop``
with it. ``playout_loop`` is inlined into that loop, so the rule is a constant
there: numba caches no function that is handed a compiled function as a value
(its address changes from process to process), nor a closure over one.

A loop is handed a *board*: the tuple ``(state, view, chance, record)``. The
referee's ``state`` (every card, the chance tape) is only ever changed by
``make_move``, which then writes into ``view`` what a player sees
(``simlab.engine.moves.observe``); the policy decides on ``view`` alone, so in
a game with hidden cards no hidden card reaches it. In an open game ``view`` is
``state`` itself (nothing is hidden, so there is nothing to copy).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel, moves, position_set
from simlab.engine.game import MAX_LEGAL_MOVES, Game, State
from simlab.engine.layout import (
    FIRST_FOUNDATION,
    HAS_HIDDEN,
    HAS_SPECIAL,
    MOVE_BASE,
    MOVE_CARD,
    MOVE_DRAW,
    MOVE_REDEAL,
    SOURCE_LIMIT,
)
from simlab.policies.record import LOST, WON, PlayRecord, stop_reason

END_WON = 0
END_STUCK = 1
END_REPEAT = 2
END_MOVE_CAP = 3
END_REASONS = ("won", "stopped", "repeat", "move_cap")  # "stopped": record.stop_reason says which


@njit(cache=True)
def seen_table(max_moves):
    """An empty set of position hashes for a game of at most ``max_moves`` moves."""
    return position_set.new_position_set(max_moves + 2, 30)


@njit(cache=True)
def start_playout(rules, board, zobrist, max_moves):
    """Show the player the start position; return the set of positions seen, holding it."""
    state, view = board[0], board[1]
    if rules[HAS_HIDDEN] == 1:
        moves.observe(rules, state, view)
    table = seen_table(max_moves)
    position_set.add(table, kernel.position_hash(rules, view, zobrist))
    return table


@njit(cache=True)
def make_move(rules, board, move, moves_out, made, zobrist, table):
    """Play ``move`` as move number ``made``, show the player the result and
    remember it; return False if the player had seen that position before."""
    state, view, chance, record = board
    moves.play(rules, state, move, chance, record)
    if rules[HAS_HIDDEN] == 1:
        moves.observe(rules, state, view)
    moves_out[made] = move
    return position_set.add(table, kernel.position_hash(rules, view, zobrist))


@njit(cache=True)
def end_at_cap(rules, view, max_moves):
    """The ending of a playout that used all its moves."""
    return (END_WON if kernel.is_won(rules, view) else END_MOVE_CAP), max_moves


@njit(cache=True)
def foreseeable(rules, move):
    """Whether a player can work out the position after ``move`` from what they
    see: a card move in a game without refills, redeals or a stock (a refill or
    a shuffle would show them cards they have not seen)."""
    return rules[HAS_SPECIAL] == 0 and kernel.move_kind(move) == MOVE_CARD


@njit(cache=True)
def leads_to_seen(rules, view, move, zobrist, table):
    """Whether ``move`` would bring back a position the player has seen in this
    game (``view`` restored); False when they cannot foresee the position."""
    if not foreseeable(rules, move):
        return False
    kernel.apply_move(rules, view, move)
    repeated = position_set.contains(table, kernel.position_hash(rules, view, zobrist))
    kernel.undo_move(rules, view, move)
    return repeated


@njit(cache=True)
def card_moves_first(legal, count):
    """Reorder ``legal[:count]`` so that the card moves come first (in their
    order); return how many there are. The built-in policies choose among card
    moves and turn to the others only when stuck (``when_stuck``)."""
    cards = 0
    for i in range(count):
        if kernel.move_kind(legal[i]) == MOVE_CARD:
            move = legal[i]
            for k in range(i, cards, -1):
                legal[k] = legal[k - 1]
            legal[cards] = move
            cards += 1
    return cards


@njit(cache=True)
def is_transfer(rules, move):
    """A card move from one foundation to another (Windmill's transfers)."""
    first = rules[FIRST_FOUNDATION]
    return kernel.move_kind(move) == MOVE_CARD and move // MOVE_BASE >= first and move % MOVE_BASE >= first


@njit(cache=True)
def lets_a_card_home(rules, view, move, scratch):
    """Whether the transfer ``move`` lets a card from a pile that is not a
    foundation go home where it could not before: onto the transfer's source
    or destination (the only foundations whose tops it changes), by a move
    that was not legal before it (``view`` restored). A transfer touches only
    two foundations, so the player foresees its result; the kernel makes and
    undoes it exactly as far as such moves are concerned."""
    first = rules[FIRST_FOUNDATION]
    ends = (move // MOVE_BASE, move % MOVE_BASE)
    before = kernel.legal_moves(rules, view, scratch)
    kernel.apply_move(rules, view, move)
    after = kernel.legal_moves(rules, view, scratch[before:])
    kernel.undo_move(rules, view, move)
    for i in range(before, before + after):
        other = scratch[i]
        if kernel.move_kind(other) != MOVE_CARD or other // MOVE_BASE >= first:
            continue
        if other % MOVE_BASE != ends[0] and other % MOVE_BASE != ends[1]:
            continue
        new = True
        for k in range(before):
            if scratch[k] == other:
                new = False
                break
        if new:
            return True
    return False


@njit(cache=True)
def drop_idle_transfers(rules, view, legal, cards, count):
    """Remove from ``legal[:count]`` (card moves first, ``cards`` of them) the
    transfers between foundations that let no new card go home (and those
    between alike foundations, which only swap them): the built-in policies
    borrow a foundation card only to play a card home with it (free transfers
    could otherwise go back and forth for ever). Returns the new (cards, count)."""
    if rules[SOURCE_LIMIT] <= rules[FIRST_FOUNDATION]:
        return cards, count  # no foundation gives a card (every game but Windmill and the fans)
    kept = 0
    kept_cards = 0
    scratch = np.empty(0, dtype=np.int32)
    for i in range(count):
        move = legal[i]
        if is_transfer(rules, move):
            if scratch.shape[0] == 0:
                scratch = np.empty(2 * legal.shape[0], dtype=np.int32)
            swaps = moves.swaps_alike(rules, move // MOVE_BASE, move % MOVE_BASE)
            if swaps or not lets_a_card_home(rules, view, move, scratch):
                continue
        legal[kept] = move
        kept += 1
        if i < cards:
            kept_cards += 1
    return kept_cards, kept


@njit(cache=True)
def when_stuck(rules, legal, cards, count):
    """What a built-in policy does when it makes no card move: redeal while it
    may (a player redeals only when stuck: it cannot see what a redeal
    brings), then Hoyle's draw, a card that goes home first, then turn the
    stock or the waste; -1 if nothing is left. ``legal[cards:count]`` are the
    moves other than card moves (``card_moves_first``)."""
    best = -1
    best_rank = 9
    for i in range(cards, count):
        move = legal[i]
        kind = kernel.move_kind(move)
        if kind == MOVE_REDEAL:
            rank = 0
        elif kind == MOVE_DRAW:
            rank = 1 if move % MOVE_BASE >= rules[FIRST_FOUNDATION] else 2
        else:
            rank = 3
        if rank < best_rank:
            best, best_rank = move, rank
    return best


@njit(inline="always")
def playout_loop(rules, board, zobrist, moves_out, max_moves, choose, levels, repeat_ends, extra):
    """Play from the board's position until won, stuck or ``max_moves`` moves;
    returns (an ``END_`` code, the moves made, written to ``moves_out``).

    Each turn the legal moves go to ``legal[0]``, card moves first (``cards``
    of them) and idle transfers dropped; ``choose(rules, view, legal, cards,
    made, zobrist, table, extra)`` picks one of the card moves, or -1 for none,
    and then ``when_stuck`` picks among the others. ``legal`` has ``levels``
    rows: the rows after the first are room for a rule that looks ahead.
    ``extra`` is the rule's own arguments (a tuple). With ``repeat_ends`` a
    position the player has seen before ends the game."""
    table = start_playout(rules, board, zobrist, max_moves)
    view = board[1]
    legal = np.empty((levels, MAX_LEGAL_MOVES), dtype=np.int32)
    for made in range(max_moves):
        if kernel.is_won(rules, view):
            return END_WON, made
        count = kernel.legal_moves(rules, view, legal[0])
        cards, count = drop_idle_transfers(rules, view, legal[0], card_moves_first(legal[0], count), count)
        move = choose(rules, view, legal, cards, made, zobrist, table, extra)
        if move < 0:
            move = when_stuck(rules, legal[0], cards, count)
        if move < 0:
            return END_STUCK, made
        if not make_move(rules, board, move, moves_out, made, zobrist, table) and repeat_ends:
            return (END_WON if kernel.is_won(rules, view) else END_REPEAT), made + 1
    return end_at_cap(rules, view, max_moves)


def run_compiled(game: Game, state: State, playout, max_moves: int, *extra) -> PlayRecord:
    """Call a compiled ``playout(rules, board, zobrist, moves_out, max_moves, *extra)`` and wrap its result."""
    array = state.array.copy()
    # in an open game the player sees the state itself: no copy to keep up to date
    view = np.empty_like(array) if game.has_hidden_cards else array
    board = (array, view, state.chance, np.empty_like(array))
    moves_out = np.empty(max_moves, dtype=np.int32)
    reason, count = playout(game.rules, board, kernel.ZOBRIST, moves_out, max_moves, *extra)
    moves = [game.move_from_code(int(code)) for code in moves_out[:count]]
    verdict = WON if reason == END_WON else LOST
    cards_home = int(kernel.foundation_cards(game.rules, array))
    ending = END_REASONS[reason] if reason != END_STUCK else stop_reason(game, State(array, state.chance))
    return PlayRecord(verdict, ending, moves, cards_home)
