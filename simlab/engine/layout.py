"""How a game's table is laid out and which rules apply, as data the kernels read.

A ``Layout`` is the readable description: one ``PileSpec`` per pile (what the
pile is, what it accepts and from where, how it builds, what fills it when
empty, what a player can see of it), plus the game-wide counters (redeals,
passes through the stock, draws). ``Layout.rules_array()`` packs it into the
small int64 array that the compiled kernels (``simlab.engine.kernel``) take: a
header, then a table of ``PILE_FIELDS`` integers per pile. A new game is new
data in this array, never a new branch in the kernels.

State representation (why: numba compiles loops over small integer arrays about
20x faster than Python objects, and a flat array copies, hashes and pickles for
free). A state is ONE flat ``int8`` array:

- ``cards[pile * capacity + i]``: card ``i`` (0 = bottom) of every pile, in pile
  order rows, cells, reserves, stock, waste, foundations; unused slots hold -1;
- ``heights[pile]`` at ``offset_heights``: how many cards each pile holds;
- ``base`` at ``offset_base``: the base rank of foundations whose base the
  player chooses (Chessboard), -1 until chosen; 0 in other games;
- ``counters`` at ``offset_counters`` (only in games that have them): redeals
  left, passes through the stock left, draws left, and the position in the
  deal's chance tape (two bytes; ``simlab.engine.moves``).

A card is ``52 * deck + 13 * suit + rank`` (two decks: 0..103). A move is an int
(``simlab.engine.moves``): for a card move ``source_pile * MOVE_BASE +
destination_pile``, which moves the top card of the source pile; other kinds
(turning the stock, a redeal, a draw) add ``kind * MOVE_BASE**2``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

MOVE_BASE = 256

# Move kinds (``simlab.engine.moves``): a move code is
# ``(kind << KIND_SHIFT) + (detail << DETAIL_SHIFT) + source * MOVE_BASE + destination``.
MOVE_CARD = 0  # the top card of source onto destination
MOVE_TURN = 1  # the stock's top card face up onto the waste
MOVE_RECYCLE = 2  # the waste turned over to become the stock again
MOVE_REDEAL = 3  # gather the rows, shuffle (from the deal's chance tape), deal again
MOVE_DRAW = 4  # the card at index ``detail`` of row ``source``, from under its top, to destination
KIND_SHIFT = 23
DETAIL_SHIFT = 16
DETAIL_MASK = 127

# Pile kinds, in the order piles are numbered.
KIND_ROW = 0  # tableau row or fan
KIND_CELL = 1  # free cell: one card, filled from rows
KIND_RESERVE = 2  # dealt pile: its top card plays, nothing goes on it
KIND_STOCK = 3  # face-down pile turned onto the waste
KIND_WASTE = 4  # its top card plays
KIND_FOUNDATION = 5
KIND_NAMES = ("row", "cell", "reserve", "stock", "waste", "foundation")

# Building: a direction and a suit rule, combined as bits.
DIR_NONE = 0  # nothing is ever built on the pile by a player
DIR_DOWN = 1
DIR_UP = 2
DIR_EITHER = 3
SUIT_ANY = 0
SUIT_SAME = 4
SUIT_ALTERNATE = 8  # alternate colours (black: clubs, spades; red: hearts, diamonds)
SUIT_BITS = SUIT_SAME | SUIT_ALTERNATE
BUILD_NONE = DIR_NONE
BUILD_DOWN_ANY_SUIT = DIR_DOWN | SUIT_ANY
BUILD_DOWN_SAME_SUIT = DIR_DOWN | SUIT_SAME
BUILD_UP_OR_DOWN_SAME_SUIT = DIR_EITHER | SUIT_SAME
BUILD_DOWN_ALTERNATE = DIR_DOWN | SUIT_ALTERNATE

# What an empty pile accepts.
FILL_ANY = 0
FILL_NONE = 1
FILL_KINGS = 2
FILL_REFILL = 3  # refilled at once from ``PileSpec.refill_from``; a player never fills it
FILL_ON_TURN = 4  # filled up to its ``limit`` from ``refill_from`` (the stock) each time the stock is turned

# Which transfers from one foundation to the game's centre foundation (``Layout.centre``) are allowed,
# beyond what the piles' specs say (Windmill's rule sets; docs/rules.md section 10).
TRANSFER_ANY = 0  # whenever the centre accepts the card
TRANSFER_NOT_TWICE = 1  # not when the last card onto the centre also came from a foundation
TRANSFER_ROWS_FIRST = 2  # only while no row's top card could go onto the centre

# How the game's foundations are built (the summary the solver's heuristics read;
# each foundation's own rule is in its PileSpec).
FOUNDATION_BY_SUIT = 0  # foundation i takes suit i % 4 from the base rank up
FOUNDATION_CHOSEN_BASE = 1  # as by suit, but the first card played fixes the base rank
FOUNDATION_ANY_SUIT = 2  # any suit, from the base rank up

BASE_CHOSEN = -1  # PileSpec.base: the rank stored in the state (the player's choice)

# What a player sees of a pile.
VISIBLE_ALL = 0
VISIBLE_TOP = 1  # squared: only the top card (Castle of Indolence's reserves)
VISIBLE_NONE = 2  # face down (a stock)

# Counters in the state, by index from ``offset_counters``.
COUNTER_REDEALS = 0  # gather-shuffle-deal redeals left
COUNTER_RECYCLES = 1  # passes of the waste back to the stock left
COUNTER_DRAWS = 2  # draws (a card pulled from under a row's top) left
COUNTER_TAPE = 3  # two bytes: how many numbers of the chance tape are used
COUNTER_BORROWED = 5  # 1 when the last card onto the centre came from a foundation (``TRANSFER_NOT_TWICE``)
N_COUNTERS = 6

# Indices into the rules array's header.
N_PILES = 0
N_ROWS = 1
N_CELLS = 2
N_RESERVES = 3
N_FOUNDATIONS = 4
CAPACITY = 5
BUILD = 6  # the rows' building rule (uniform in every game so far), for the solver's heuristics
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
STOCK_PILE = 18  # -1 when the game has no stock
WASTE_PILE = 19  # -1 when the game has no waste
OFFSET_COUNTERS = 20
COUNTER_SLOTS = 21  # counters in the state: 0, COUNTER_BORROWED or N_COUNTERS (``Layout.counter_slots``)
HAS_HIDDEN = 22  # some pile shows a player less than all its cards
HAS_SPECIAL = 23  # moves other than one top card, or automatic refills: undo needs a record
REDEAL_GROUP = 24  # a redeal deals rows of this many cards (La Belle Lucie: 3)
FIRST_STOCK = 25  # first pile after the reserves: the stock and waste, if any, then foundations
ROWS_ALIKE = 26  # every row has the same spec: the kernels read row 0's once
SOURCE_LIMIT = 27  # piles below this index may give cards (all but foundations, unless one gives)
ROWS_ORDERED = 28  # 1 when a redeal gathers the rows in order: then their order is part of a position
TRANSFER_RULE = 29  # ``TRANSFER_*``
CENTRE_PILE = 30  # the pile ``TRANSFER_RULE`` protects, or -1
RECYCLES_AT_START = 31  # passes of the waste a deal starts with (``P_EARLY_LIMIT`` holds until one is taken)
SUITS_MATTER = 32  # 0 when no rule reads a card's suit or deck (Windmill): the solver then hashes ranks only
RANKS_MIRRORED = 33  # 1 in a game that is another with every rank r read as 14 - r (reversed Windmill)
PILE_TABLE = 34
HEADER_LENGTH = PILE_TABLE

# Fields of one pile's row in the pile table.
P_KIND = 0
P_BUILD = 1  # DIR_* | SUIT_* for what a player may put on it
P_WRAP = 2  # building wraps K-A
P_FILL = 3
P_REFILL_FROM = 4  # with FILL_REFILL: the pile whose top card refills it
P_ACCEPTS_FROM = 5  # bit (1 << kind) for every kind whose top card may move here
P_GIVES = 6  # 0: no card ever leaves; else the top card may leave while the pile holds at least this many
P_VISIBLE = 7
P_BASE = 8  # foundation: first card's rank index (0 = ace, 12 = king) or BASE_CHOSEN
P_SUIT = 9  # foundation: the one suit it takes, or -1 for any
P_LIMIT = 10  # foundation: cards it holds when complete (13; Windmill's centre 52)
P_REFUSES = 11  # bit (1 << pile) for every pile whose top card it refuses although its kind is accepted
P_DEAD_WHEN_FULL = 12  # 1: once complete, no card leaves it
P_EARLY_LIMIT = 13  # foundation: while the stock holds more than P_EARLY_STOCK cards in the first pass, it
P_EARLY_STOCK = 14  # holds at most P_EARLY_LIMIT cards (0: no such limit; Welford's first queen)
P_IDENTITY = 15  # the pile number a position hash gives it: its own, or that of the first pile it is alike to
PILE_FIELDS = 16

SOURCE_KINDS = (1 << KIND_ROW) | (1 << KIND_CELL) | (1 << KIND_RESERVE) | (1 << KIND_WASTE)


@dataclass(frozen=True)
class PileSpec:
    """One pile's rules, as data.

    Args:
        kind: ``KIND_*``.
        build: what a player may put on it (``DIR_* | SUIT_*``); ``BUILD_NONE`` for nothing.
        wrap: building wraps K-A (a foundation's too).
        fill: what an empty pile accepts (``FILL_*``).
        refill_from: with ``FILL_REFILL``, the index of the pile that refills it.
        accepts_from: kinds (``KIND_*``) whose top card may be moved here.
        gives: whether a player may move its top card away.
        keeps: with ``gives``, how many bottom cards never leave (Trefoil's aces: 1).
        visible: what a player sees of it (``VISIBLE_*``).
        base: a foundation's first rank (0 = ace) or ``BASE_CHOSEN``.
        suit: the one suit a foundation takes, or -1 for any.
        limit: cards a complete foundation holds; with ``FILL_ON_TURN``, the cards a pile is filled up to.
        slots: the most cards the pile can ever hold (sizes the state).
        refuses: names of piles whose top card it refuses although it accepts their kind.
        dead_when_full: once it holds ``limit`` cards, no card leaves it.
        early_limit: with ``early_stock``: while the stock holds more than
            ``early_stock`` cards and no pass of the waste has been taken, it holds at
            most ``early_limit`` cards (0: no such limit).
        early_stock: see ``early_limit``.
        alike: the name of an earlier pile with the same spec whose identity it shares
            in position hashes (Windmill's king piles: their order does not matter),
            or "" for its own.
    """

    kind: int
    build: int = BUILD_NONE
    wrap: bool = False
    fill: int = FILL_NONE
    refill_from: int = -1
    accepts_from: tuple[int, ...] = ()
    gives: bool = True
    keeps: int = 0
    visible: int = VISIBLE_ALL
    base: int = 0
    suit: int = -1
    limit: int = 13
    slots: int = 13
    refuses: tuple[str, ...] = ()
    dead_when_full: bool = False
    early_limit: int = 0
    early_stock: int = 0
    alike: str = ""

    def row(self, pile_index: dict[str, int], pile: int) -> list[int]:
        """Row ``pile`` of the pile table (``pile_index``: the layout's pile numbers by name)."""
        mask = sum(1 << kind for kind in set(self.accepts_from))
        gives = 1 + self.keeps if self.gives else 0
        refuses = sum(1 << pile_index[name] for name in set(self.refuses))
        return [self.kind, self.build, int(self.wrap), self.fill, self.refill_from, mask, gives,
                self.visible, self.base, self.suit, self.limit, refuses, int(self.dead_when_full),
                self.early_limit, self.early_stock, pile_index[self.alike] if self.alike else pile]


@dataclass(frozen=True)
class Layout:
    """The piles of a game and the rules that connect them.

    The fields describe the common case (every row alike, every foundation
    alike) in a few words; ``pile_specs()`` turns them into one ``PileSpec``
    per pile, and ``overrides`` replaces the spec of any named pile for games
    whose piles differ (e.g. Windmill's centre and king piles).

    Args:
        rows: tableau rows or fans (``row0..``), built on by ``build``.
        cells: free cells (``cell0..``), each holding one card, filled from rows.
        reserves: reserves (``reserve0..``): only the top card plays, nothing goes on.
        foundations: foundations (``foundation0..``); with ``FOUNDATION_BY_SUIT``
            foundation ``i`` holds suit ``i % 4`` (C, S, H, D).
        decks: 52-card decks in play (1 or 2).
        build: tableau building rule (``BUILD_*``).
        wrap: whether tableau building wraps K-A.
        empty_fill: what an empty row accepts (``FILL_*``).
        foundation_mode: ``FOUNDATION_*``.
        foundation_wrap: whether foundations wrap K-A (Chessboard).
        max_dealt: the tallest row at the deal, which sizes the state.
        reserve_size: the most cards a reserve is dealt.
        reserve_visible: what a player sees of a reserve (``VISIBLE_*``).
        stock: whether there is a face-down stock, turned one card at a time onto a waste.
        redeals: gather-shuffle-deal redeals of the rows the player may take.
        redeal_group: cards per row after a redeal.
        recycles: passes of the waste back to the stock.
        draws: cards a player may pull from under a row's top once no redeal is left.
        transfer_rule: ``TRANSFER_*``: when a foundation's card may go onto ``centre``.
        centre: the name of the pile ``transfer_rule`` protects ("" for none).
        suits_matter: False when every rule reads ranks only (every pile builds
            regardless of suit): positions that differ only in which suit or deck
            a rank comes from then have the same future.
        ranks_mirrored: the game is another one with every rank r read as 14 - r
            (reversed Windmill): the solver hashes its positions as that game's, so
            it searches both alike, move for move.
        overrides: ``(pile name, PileSpec)`` pairs that replace a pile's spec.
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
    reserve_size: int = 13
    reserve_visible: int = VISIBLE_ALL
    stock: bool = False
    redeals: int = 0
    redeal_group: int = 3
    recycles: int = 0
    draws: int = 0
    transfer_rule: int = TRANSFER_ANY
    centre: str = ""
    suits_matter: bool = True
    ranks_mirrored: bool = False
    overrides: tuple[tuple[str, PileSpec], ...] = field(default=())

    @property
    def n_cards(self) -> int:
        return 52 * self.decks

    @property
    def pile_count(self) -> int:
        return self.rows + self.cells + self.reserves + 2 * int(self.stock) + self.foundations

    @property
    def has_counters(self) -> bool:
        return bool(self.stock or self.redeals or self.recycles or self.draws or self.transfer_rule)

    def pile_names(self) -> list[str]:
        """Names in pile-index order: ``row0.., cell0.., reserve0.., stock, waste, foundation0..``."""
        names = [f"row{i}" for i in range(self.rows)]
        names += [f"cell{i}" for i in range(self.cells)]
        names += [f"reserve{i}" for i in range(self.reserves)]
        names += ["stock", "waste"] if self.stock else []
        names += [f"foundation{i}" for i in range(self.foundations)]
        return names

    @cached_property
    def specs(self) -> tuple[PileSpec, ...]:
        """``pile_specs()``, made once."""
        return tuple(self.pile_specs())

    def pile_specs(self) -> list[PileSpec]:
        """One ``PileSpec`` per pile, in pile-index order."""
        everything = self.n_cards
        row = PileSpec(KIND_ROW, build=self.build, wrap=self.wrap, fill=self.empty_fill,
                       accepts_from=(KIND_ROW, KIND_CELL, KIND_RESERVE, KIND_WASTE),
                       slots=self.max_dealt + 13)
        cell = PileSpec(KIND_CELL, fill=FILL_ANY, accepts_from=(KIND_ROW,), slots=1)
        reserve = PileSpec(KIND_RESERVE, visible=self.reserve_visible, slots=self.reserve_size)
        names = self.pile_names()
        stock = PileSpec(KIND_STOCK, gives=False, visible=VISIBLE_NONE, slots=everything)
        waste = PileSpec(KIND_WASTE, slots=everything)
        specs = [row] * self.rows + [cell] * self.cells + [reserve] * self.reserves
        specs += [stock, waste] if self.stock else []
        for index in range(self.foundations):
            specs.append(PileSpec(
                KIND_FOUNDATION, build=DIR_UP, wrap=self.foundation_wrap, gives=False,
                accepts_from=(KIND_ROW, KIND_CELL, KIND_RESERVE, KIND_WASTE),
                base=BASE_CHOSEN if self.foundation_mode == FOUNDATION_CHOSEN_BASE else 0,
                suit=-1 if self.foundation_mode == FOUNDATION_ANY_SUIT else index % 4))
        by_name = dict(self.overrides)
        unknown = set(by_name) - set(names)
        if unknown:
            raise ValueError(f"overrides name piles this layout does not have: {sorted(unknown)}")
        return [by_name.get(name, spec) for name, spec in zip(names, specs)]

    @cached_property
    def capacity(self) -> int:
        """Slots per pile: the most cards any pile can hold (a built run adds at
        most 12 cards on top of a dealt row, since its ranks are distinct)."""
        return max(max(spec.slots for spec in self.specs), 13)

    def with_overrides(self, **specs: PileSpec) -> Layout:
        """A copy with the named piles' specs replaced."""
        return replace(self, overrides=tuple(dict(self.overrides, **specs).items()))

    def rules_array(self) -> np.ndarray:
        """The layout packed for the compiled kernels."""
        specs = self.specs
        piles = len(specs)
        if piles >= MOVE_BASE:
            raise ValueError("too many piles for the move encoding")
        if self.decks not in (1, 2):
            raise ValueError(f"decks must be 1 or 2, not {self.decks}")
        capacity = self.capacity
        if capacity > 127:
            raise ValueError(f"a pile of {capacity} cards does not fit the int8 state")
        rules = np.zeros(PILE_TABLE + PILE_FIELDS * piles, dtype=np.int64)
        first_stock = self.rows + self.cells + self.reserves
        counters = self.counter_slots
        rules[N_PILES] = piles
        rules[N_ROWS] = self.rows
        rules[N_CELLS] = self.cells
        rules[N_RESERVES] = self.reserves
        rules[N_FOUNDATIONS] = self.foundations
        rules[CAPACITY] = capacity
        rules[BUILD] = self.build
        rules[WRAP] = int(self.wrap)
        rules[EMPTY_FILL] = self.empty_fill
        rules[FOUNDATION_MODE] = self.foundation_mode
        rules[FOUNDATION_WRAP] = int(self.foundation_wrap)
        rules[N_CARDS] = self.n_cards
        rules[OFFSET_HEIGHTS] = piles * capacity
        rules[OFFSET_BASE] = piles * capacity + piles
        rules[OFFSET_COUNTERS] = piles * capacity + piles + 1
        rules[COUNTER_SLOTS] = counters
        rules[STATE_SIZE] = piles * capacity + piles + 1 + counters
        rules[FIRST_CELL] = self.rows
        rules[FIRST_RESERVE] = self.rows + self.cells
        rules[FIRST_STOCK] = first_stock
        rules[FIRST_FOUNDATION] = piles - self.foundations
        rules[STOCK_PILE] = first_stock if self.stock else -1
        rules[WASTE_PILE] = first_stock + 1 if self.stock else -1
        rules[HAS_HIDDEN] = int(any(spec.visible != VISIBLE_ALL for spec in specs))
        rules[HAS_SPECIAL] = int(self.has_counters or any(spec.fill in (FILL_REFILL, FILL_ON_TURN) for spec in specs))
        rules[REDEAL_GROUP] = self.redeal_group
        rules[ROWS_ALIKE] = int(len(set(specs[: self.rows])) <= 1)
        givers = [pile for pile, spec in enumerate(specs) if spec.gives]
        rules[SOURCE_LIMIT] = givers[-1] + 1 if givers else 0
        # rows keep their identity where their order changes the future: a redeal gathers
        # them row 0 first, and Welford's gaps are filled at a turn row 0 first
        rules[ROWS_ORDERED] = int(self.redeals > 0 or any(spec.fill == FILL_ON_TURN for spec in specs[: self.rows]))
        pile_index = {name: pile for pile, name in enumerate(self.pile_names())}
        if any(pile_index[name] >= 63 for spec in specs for name in spec.refuses):
            raise ValueError("PileSpec.refuses names a pile numbered 63 or more (the mask is 63 bits)")
        rules[TRANSFER_RULE] = self.transfer_rule
        rules[CENTRE_PILE] = pile_index[self.centre] if self.centre else -1
        rules[RECYCLES_AT_START] = self.recycles
        rules[SUITS_MATTER] = int(self.suits_matter)
        rules[RANKS_MIRRORED] = int(self.ranks_mirrored)
        for pile, spec in enumerate(specs):
            if spec.alike and replace(specs[pile_index[spec.alike]], alike="") != replace(spec, alike=""):
                raise ValueError(f"pile {pile} is alike to {spec.alike!r} but its spec differs")
            rules[PILE_TABLE + PILE_FIELDS * pile: PILE_TABLE + PILE_FIELDS * (pile + 1)] = spec.row(pile_index, pile)
        return rules

    @property
    def counter_slots(self) -> int:
        """Counters in the state: none, or all but the borrowed flag, which only a
        game with ``TRANSFER_NOT_TWICE`` keeps (so the states and hashes of the
        other games stay as they were)."""
        if not self.has_counters:
            return 0
        return N_COUNTERS if self.transfer_rule == TRANSFER_NOT_TWICE else COUNTER_BORROWED

    def initial_counters(self) -> list[int]:
        """The counters of a new deal (empty when the game has none)."""
        return [self.redeals, self.recycles, self.draws, 0, 0, 0][: self.counter_slots]
