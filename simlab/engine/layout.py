"""How a game's table is laid out and which rules apply, as data the kernels read.

A ``Layout`` is the readable description: one ``PileSpec`` per pile (what the
pile is, what it accepts and from where, how it builds, what fills it when
empty, what a player can see of it, and the ``Condition`` under which it
accepts a card or is capped), plus the game-wide counters (redeals, passes
through the stock, draws). ``simlab.engine.packing.pack_rules`` packs it into
the small int64 array that the compiled kernels (``simlab.engine.kernel``) take:
a header, then a table of ``PILE_FIELDS`` integers per pile. A new game is new
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

# Conditions on a position that a pile's rules may depend on (``Condition``; docs/rules.md
# section 10 has the games that use them). Each takes one integer argument.
COND_ALWAYS = 0
COND_STOCK_DEEPER = 1  # the stock holds more than ``arg`` cards and no pass of the waste has been taken
COND_LAST_NOT_FROM = 2  # the last card the pile received came from no pile of a kind in mask ``arg``
COND_NO_ROW_FITS = 3  # no row's top card could go onto the pile
CONDITION_NAMES = ("always", "stock_deeper", "last_not_from", "no_row_fits")

# How the game's foundations are built (the summary the solver's heuristics read, derived from
# the foundations' specs by ``simlab.engine.packing``; each foundation's own rule is in its PileSpec).
FOUNDATION_BY_SUIT = 0  # foundation i takes suit i % 4 from the ace up
FOUNDATION_CHOSEN_BASE = 1  # as by suit, but the first card played fixes the base rank
FOUNDATION_ANY_SUIT = 2  # any suit, each from the base and in the direction of its spec

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
COUNTER_LAST_SOURCE = 5  # 1 when the last card onto ``LAST_SOURCE_PILE`` came from a pile of ``LAST_SOURCE_KINDS``
N_COUNTERS = 6

# Indices into the rules array's header.
N_PILES = 0
N_ROWS = 1
N_CELLS = 2
N_RESERVES = 3
N_FOUNDATIONS = 4
CAPACITY = 5
# BUILD .. FOUNDATION_WRAP: summaries of the pile specs for the solver's heuristics and the
# move generator, derived from the specs and checked (``simlab.engine.packing``)
BUILD = 6  # the rows' building rule (every row shares one)
WRAP = 7  # the rows' building wraps K-A
EMPTY_FILL = 8  # what a player may put into an empty row (``FILL_NONE`` where the rules refill it)
FOUNDATION_MODE = 9  # ``FOUNDATION_*``
FOUNDATION_WRAP = 10  # 1 when every foundation wraps K-A
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
COUNTER_SLOTS = 21  # counters in the state: 0, COUNTER_LAST_SOURCE or N_COUNTERS (``Layout.counter_slots``)
HAS_HIDDEN = 22  # some pile shows a player less than all its cards
HAS_SPECIAL = 23  # moves other than one top card, or automatic refills: undo needs a record
REDEAL_GROUP = 24  # a redeal deals rows of this many cards (La Belle Lucie: 3)
FIRST_STOCK = 25  # first pile after the reserves: the stock and waste, if any, then foundations
ROWS_ALIKE = 26  # every row has the same spec: the kernels read row 0's once
SOURCE_LIMIT = 27  # piles below this index may give cards (all but foundations, unless one gives)
ROWS_ORDERED = 28  # 1 when a redeal gathers the rows in order: then their order is part of a position
LAST_SOURCE_PILE = 29  # the pile whose last card's source the state keeps (``COUNTER_LAST_SOURCE``), or -1
LAST_SOURCE_KINDS = 30  # bit (1 << kind) for the kinds of source ``COUNTER_LAST_SOURCE`` records
RECYCLES_AT_START = 31  # passes of the waste a deal starts with (``COND_STOCK_DEEPER``: none taken yet)
SUITS_MATTER = 32  # 0: the solver hashes ranks only (allowed when no spec reads a card's suit or deck: Windmill)
PILE_TABLE = 33
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
P_REFUSES = 11  # foundation: bit (1 << pile) for every pile whose top card it refuses although its kind is accepted
P_DEAD_WHEN_FULL = 12  # 1: once complete, no card leaves it
P_CAP = 13  # foundation: it holds at most this many cards while condition P_CAP_WHILE holds (0: no cap)
P_CAP_WHILE = 14  # ``COND_*``
P_CAP_ARG = 15  # the condition's argument
P_GUARD_KINDS = 16  # foundation: bit (1 << kind) for the kinds it accepts a card from only while P_GUARD holds
P_GUARD = 17  # ``COND_*``
P_GUARD_ARG = 18  # the condition's argument
P_IDENTITY = 19  # the pile number a position hash gives it: its own, or that of the first pile it is alike to
PILE_FIELDS = 20

SOURCE_KINDS = (1 << KIND_ROW) | (1 << KIND_CELL) | (1 << KIND_RESERVE) | (1 << KIND_WASTE)


def kind_mask(kinds: tuple[int, ...]) -> int:
    """Bit ``1 << kind`` for every kind in ``kinds``."""
    return sum(1 << kind for kind in set(kinds))


@dataclass(frozen=True)
class Condition:
    """A condition on a position (``COND_*``) and its argument; build one with
    ``ALWAYS``, ``stock_deeper``, ``last_not_from`` or ``NO_ROW_FITS``."""

    test: int = COND_ALWAYS
    arg: int = 0

    def __str__(self) -> str:
        return f"{CONDITION_NAMES[self.test]}({self.arg})"


ALWAYS = Condition()
NO_ROW_FITS = Condition(COND_NO_ROW_FITS)


def stock_deeper(cards: int) -> Condition:
    """The stock holds more than ``cards`` cards and no pass of the waste has been taken."""
    return Condition(COND_STOCK_DEEPER, cards)


def last_not_from(*kinds: int) -> Condition:
    """The last card the pile received came from no pile of these kinds (``KIND_*``)."""
    return Condition(COND_LAST_NOT_FROM, kind_mask(kinds))


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
        refuses: a foundation: names of piles whose top card it refuses although it accepts their kind.
        dead_when_full: once it holds ``limit`` cards, no card leaves it.
        cap: a foundation holds at most ``cap`` cards while ``cap_while`` holds
            (0: no cap; Welford's centre: 12 while ``stock_deeper(52)``).
        cap_while: see ``cap``.
        guarded_kinds: a foundation accepts a card from a pile of these kinds
            (``KIND_*``) only while ``guard`` holds (Windmill's centre takes a
            foundation's card only while ``last_not_from(KIND_FOUNDATION)`` or
            ``NO_ROW_FITS``, by the rule set).
        guard: see ``guarded_kinds``.
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
    cap: int = 0
    cap_while: Condition = ALWAYS
    guarded_kinds: tuple[int, ...] = ()
    guard: Condition = ALWAYS
    alike: str = ""

    def row(self, pile_index: dict[str, int], pile: int) -> list[int]:
        """Row ``pile`` of the pile table (``pile_index``: the layout's pile numbers by name)."""
        gives = 1 + self.keeps if self.gives else 0
        refuses = sum(1 << pile_index[name] for name in set(self.refuses))
        return [self.kind, self.build, int(self.wrap), self.fill, self.refill_from, kind_mask(self.accepts_from),
                gives, self.visible, self.base, self.suit, self.limit, refuses, int(self.dead_when_full),
                self.cap, self.cap_while.test, self.cap_while.arg, kind_mask(self.guarded_kinds), self.guard.test,
                self.guard.arg, pile_index[self.alike] if self.alike else pile]

    @property
    def conditions(self) -> tuple[Condition, ...]:
        """The conditions its rules read."""
        return (self.cap_while, self.guard)


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
        suits_matter: False to let the solver hash ranks only, which is sound when
            no pile's spec reads a suit (``packing`` refuses it otherwise):
            positions that differ only in which suit or deck a rank comes from
            then have the same future.
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
    suits_matter: bool = True
    overrides: tuple[tuple[str, PileSpec], ...] = field(default=())

    @property
    def n_cards(self) -> int:
        return 52 * self.decks

    @property
    def pile_count(self) -> int:
        return self.rows + self.cells + self.reserves + 2 * int(self.stock) + self.foundations

    @property
    def has_counters(self) -> bool:
        return bool(self.stock or self.redeals or self.recycles or self.draws or self.last_source_pile >= 0)

    @cached_property
    def last_source_pile(self) -> int:
        """The pile whose rules read the source of the last card it received
        (``COND_LAST_NOT_FROM``), or -1; the state keeps one such record."""
        watching = [pile for pile, spec in enumerate(self.specs)
                    if any(condition.test == COND_LAST_NOT_FROM for condition in spec.conditions)]
        if len(watching) > 1:
            names = [self.pile_names()[pile] for pile in watching]
            raise ValueError(f"piles {names} read the source of their last card; the state keeps it for one pile")
        return watching[0] if watching else -1

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

    @property
    def counter_slots(self) -> int:
        """Counters in the state: none, or all but the last card's source, which only a
        game with a ``last_source_pile`` keeps (so the states and hashes of the
        other games stay as they were)."""
        if not self.has_counters:
            return 0
        return N_COUNTERS if self.last_source_pile >= 0 else COUNTER_LAST_SOURCE

    def initial_counters(self) -> list[int]:
        """The counters of a new deal (empty when the game has none)."""
        return [self.redeals, self.recycles, self.draws, 0, 0, 0][: self.counter_slots]
