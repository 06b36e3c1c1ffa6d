"""Shared by the solver's differential tests: a plain reference search (every
legal move of the rules engine, no pruning, a visited set of canonical
positions built from plain tuples, independent of the solver's Zobrist hash
and of everything in ``simlab.solver``) and the helpers that draw positions."""

from __future__ import annotations

import numpy as np

from simlab.engine import kernel
from simlab.engine.layout import MOVE_BASE, OFFSET_BASE, OFFSET_HEIGHTS


def _canonical(game, array: np.ndarray):
    """The position with rows (and cells) sorted: interchangeable piles, as plain tuples.
    Independent of the solver's Zobrist ``position_hash``."""
    rows, cells, count, starts, heights, base = _shape(game, array.itemsize)
    raw = array.tobytes()  # one copy, then plain bytes slices: the tests' hottest loop
    piles = [raw[start: start + array.itemsize * height]
             for start, height in zip(starts, array[heights: heights + count].tolist())]
    return (tuple(sorted(piles[:rows])), tuple(sorted(piles[rows: rows + cells])), tuple(piles[rows + cells:]),
            int(array[base]))


_SHAPES: dict = {}


def _shape(game, itemsize: int):
    """rows, cells, pile count, each pile's first byte, where the heights and the base sit
    (kept per game: the game object is kept with it, so its id stays its own)."""
    key = (id(game), itemsize)
    if key not in _SHAPES:
        table, rules = game.table, game.rules
        starts = [p * table.capacity * itemsize for p in range(table.pile_count)]
        _SHAPES[key] = game, (table.rows, table.cells, table.pile_count, starts, int(rules[OFFSET_HEIGHTS]),
                              int(rules[OFFSET_BASE]))
    return _SHAPES[key][1]


def _top(game, array, pile):
    h = int(array[int(game.rules[OFFSET_HEIGHTS]) + pile])
    return int(array[pile * game.table.capacity + h - 1])


def foundation_heights(game, array):
    first = game.table.rows + game.table.cells + game.table.reserves
    start = int(game.rules[OFFSET_HEIGHTS]) + first
    return array[start: start + 4].tolist()


def reference_verdict(game, state, autoplay=None, limit=40_000) -> str:
    """Plain exhaustive search over every legal move of the rules engine, no pruning,
    visited set of canonical positions. ``autoplay(game, array, card)``, if given,
    forces every foundation play it accepts after each move (a variant of the solver's
    safe plays, right or wrong). Returns won / lost, or ``limit`` if too large."""
    return reference_search(game, state, autoplay, limit)[0]


def reference_search(game, state, autoplay=None, limit=40_000):
    """``reference_verdict`` and, on a win, every position of the winning line
    from the start (as state arrays), else an empty list."""
    rules = game.rules
    first_foundation = game.table.rows + game.table.cells + game.table.reserves
    out = np.empty(1024, dtype=np.int32)

    def forced(array):
        while autoplay is not None:
            count = kernel.legal_moves(rules, array, out)
            for code in out[:count].tolist():
                if code % MOVE_BASE >= first_foundation and autoplay(
                        game, array, _top(game, array, code // MOVE_BASE)):
                    kernel.apply_move(rules, array, code)
                    break
            else:
                break
        return array

    root = forced(state.array.copy())
    seen = {_canonical(game, root)}
    parent = {_canonical(game, root): None}
    stack = [root]
    while stack:
        array = stack.pop()
        if kernel.is_won(rules, array):
            return "won", _line(game, parent, array)
        count = kernel.legal_moves(rules, array, out)
        for code in out[:count].tolist():
            child = array.copy()
            kernel.apply_move(rules, child, code)
            forced(child)
            key = _canonical(game, child)
            if key not in seen:
                if len(seen) >= limit:
                    return "limit", []
                seen.add(key)
                parent[key] = array
                stack.append(child)
    return "lost", []


def _line(game, parent, array):
    """The positions from the root to ``array``, following ``parent``."""
    line = [array]
    while parent[_canonical(game, line[-1])] is not None:
        line.append(parent[_canonical(game, line[-1])])
    return line[::-1]


def reduced_deal(game, rng, n_cards: int):
    """A real deal of ``game`` with all but ``n_cards`` cards already home: each
    foundation holds base..k of its suit (k random, the cards left summing to
    ``n_cards``) and the rows keep the other cards in their dealt order (a card
    the deal sent home that is in play here goes on a row, so the deck is whole).
    Chessboard gets a random base rank; the other games start from the ace."""
    base = int(rng.integers(13)) if game.name == "chessboard" else 0
    while True:
        left = rng.multinomial(n_cards, [0.25] * 4)
        if left.max() <= 13:
            break
    piles, home = {}, set()
    for suit in range(4):
        cards = [13 * suit + (base + k) % 13 for k in range(13)]
        piles[f"foundation{suit}"] = cards[: 13 - left[suit]]
        home |= set(piles[f"foundation{suit}"])
    dealt_home = []  # cards a deal sends home as it deals (Citadel) that are in play here
    for name, cards in game.deal_piles(int(rng.integers(1, 30000))).items():
        if name.startswith("foundation"):
            dealt_home += [c for c in cards if c not in home]
        else:
            piles[name] = [c for c in cards if c not in home]
    rows = [name for name in piles if name.startswith("row")]
    for k, card in enumerate(dealt_home):  # every card of the deck is somewhere
        piles[rows[k % len(rows)]].append(card)
    return game.state_from_cards(piles, base=base)


def full(suit: str, upto: str = "K") -> str:
    """A foundation holding ace..``upto`` of ``suit``, as ``state_from_piles`` takes it."""
    ranks = "A23456789TJQK"
    return " ".join(rank + suit for rank in ranks[: ranks.index(upto) + 1])
