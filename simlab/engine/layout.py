"""How a game's table is laid out and which rules apply, as data the kernels read.

A ``Layout`` is the readable description; ``Layout.rules_array()`` packs it into
the small int64 array that the compiled kernels (``simlab.engine.kernel``) take.

State representation (why: numba compiles loops over small integer arrays about
20x faster than Python objects, and a flat array copies, hashes and pickles for
free). A state is ONE flat ``int8`` array:

- ``cards[pile * capacity + i]``: card ``i`` (0 = bottom) of every pile, in pile
  order rows, cells, reserves, foundations; unused slots hold -1;
- ``heights[pile]`` at ``offset_heights``: how many cards each pile holds;
- ``base`` at ``offset_base``: the foundations' starting rank index (0 = ace), or
  -1 while a game that lets the player choose it (Chessboard) has not chosen yet.

A move is the int ``source_pile * MOVE_BASE + destination_pile``; it moves the
top card of the source pile.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MOVE_BASE = 256

# Tableau building rules.
BUILD_DOWN_ANY_SUIT = 0
BUILD_UP_OR_DOWN_SAME_SUIT = 1
BUILD_DOWN_SAME_SUIT = 2

# What an empty row accepts.
FILL_ANY = 0
FILL_NONE = 1
FILL_KINGS = 2

# How foundations are built.
FOUNDATION_BY_SUIT = 0  # foundation i takes suit i % 4 from the base rank up
FOUNDATION_CHOSEN_BASE = 1  # as by suit, but the first card played fixes the base rank
FOUNDATION_ANY_SUIT = 2  # any suit, from the base rank up

# Which foundation plays the solver may make automatically (see simlab.solver.autoplay).
AUTOPLAY_NONE = 0
AUTOPLAY_DOWN_ANY_SUIT = 1
AUTOPLAY_SAME_SUIT = 2

# Indices into the rules array.
N_PILES = 0
N_ROWS = 1
N_CELLS = 2
N_RESERVES = 3
N_FOUNDATIONS = 4
CAPACITY = 5
BUILD = 6
WRAP = 7
EMPTY_FILL = 8
FOUNDATION_MODE = 9
FOUNDATION_WRAP = 10
N_CARDS = 11
OFFSET_HEIGHTS = 12
OFFSET_BASE = 13
STATE_SIZE = 14
FIRST_CELL = 15
FIRST_RESERVE = 16
FIRST_FOUNDATION = 17
AUTOPLAY = 18
RULES_LENGTH = 19


@dataclass(frozen=True)
class Layout:
    """The piles of a game and the rules that connect them.

    Args:
        rows: tableau rows (``row0..``), built on by ``build``.
        cells: free cells (``cell0..``), each holding one card, filled from rows.
        reserves: reserves (``reserve0..``): only the top card plays, nothing goes on.
        foundations: foundations (``foundation0..``); with ``FOUNDATION_BY_SUIT``
            foundation ``i`` holds suit ``i % 4`` (C, S, H, D).
        decks: 52-card decks in play.
        build: tableau building rule (``BUILD_*``).
        wrap: whether tableau building wraps K-A.
        empty_fill: what an empty row accepts (``FILL_*``).
        foundation_mode: ``FOUNDATION_*``.
        foundation_wrap: whether foundations wrap K-A (Chessboard).
        max_dealt: the tallest pile at the deal, which sizes the state.
        autoplay: which safe foundation plays the solver may make (``AUTOPLAY_*``).
    """

    rows: int
    cells: int = 0
    reserves: int = 0
    foundations: int = 4
    decks: int = 1
    build: int = BUILD_DOWN_ANY_SUIT
    wrap: bool = False
    empty_fill: int = FILL_ANY
    foundation_mode: int = FOUNDATION_BY_SUIT
    foundation_wrap: bool = False
    max_dealt: int = 7
    autoplay: int = AUTOPLAY_NONE

    @property
    def capacity(self) -> int:
        """Slots per pile: a built run adds at most 12 cards on top of a dealt pile,
        since its ranks are distinct; a reserve or foundation holds at most 13 (or its deal)."""
        return max(self.max_dealt + 13, 13)

    @property
    def pile_count(self) -> int:
        return self.rows + self.cells + self.reserves + self.foundations

    def pile_names(self) -> list[str]:
        """Names in pile-index order: ``row0.., cell0.., reserve0.., foundation0..``."""
        names = [f"row{i}" for i in range(self.rows)]
        names += [f"cell{i}" for i in range(self.cells)]
        names += [f"reserve{i}" for i in range(self.reserves)]
        names += [f"foundation{i}" for i in range(self.foundations)]
        return names

    def rules_array(self) -> np.ndarray:
        """The layout packed for the compiled kernels."""
        rules = np.zeros(RULES_LENGTH, dtype=np.int64)
        piles = self.pile_count
        if piles >= MOVE_BASE:
            raise ValueError("too many piles for the move encoding")
        rules[N_PILES] = piles
        rules[N_ROWS] = self.rows
        rules[N_CELLS] = self.cells
        rules[N_RESERVES] = self.reserves
        rules[N_FOUNDATIONS] = self.foundations
        rules[CAPACITY] = self.capacity
        rules[BUILD] = self.build
        rules[WRAP] = int(self.wrap)
        rules[EMPTY_FILL] = self.empty_fill
        rules[FOUNDATION_MODE] = self.foundation_mode
        rules[FOUNDATION_WRAP] = int(self.foundation_wrap)
        rules[N_CARDS] = 52 * self.decks
        rules[OFFSET_HEIGHTS] = piles * self.capacity
        rules[OFFSET_BASE] = piles * self.capacity + piles
        rules[STATE_SIZE] = piles * self.capacity + piles + 1
        rules[FIRST_CELL] = self.rows
        rules[FIRST_RESERVE] = self.rows + self.cells
        rules[FIRST_FOUNDATION] = self.rows + self.cells + self.reserves
        rules[AUTOPLAY] = self.autoplay
        return rules
