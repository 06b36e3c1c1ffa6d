"""A ``Layout`` packed into the rules array that the compiled kernels take.

The array is a header (``N_PILES`` .. ``SUITS_MATTER`` in ``simlab.engine.layout``)
then one row of ``PILE_FIELDS`` integers per pile. The header's summaries of the
pile specs (``BUILD``, ``WRAP``, ``EMPTY_FILL``, ``FOUNDATION_MODE``,
``FOUNDATION_WRAP``: one word for a whole game, which the move generator and the
solver's heuristics read instead of every pile's spec) are derived here from the
specs; a layout whose specs no such word describes, or whose own summary fields
say otherwise than its specs, is refused, and so is one whose specs ask for what
the kernels do not read (a condition where the kernels never test it).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np

from simlab.engine.layout import (
    BASE_CHOSEN,
    BUILD,
    CAPACITY,
    COND_ALWAYS,
    COND_LAST_NOT_FROM,
    COND_NO_ROW_FITS,
    COND_STOCK_DEEPER,
    COUNTER_SLOTS,
    DIR_UP,
    EMPTY_FILL,
    FILL_NONE,
    FILL_ON_TURN,
    FILL_REFILL,
    FIRST_CELL,
    FIRST_FOUNDATION,
    FIRST_RESERVE,
    FIRST_STOCK,
    FOUNDATION_ANY_SUIT,
    FOUNDATION_BY_SUIT,
    FOUNDATION_CHOSEN_BASE,
    FOUNDATION_MODE,
    FOUNDATION_WRAP,
    HAS_HIDDEN,
    HAS_SPECIAL,
    KIND_FOUNDATION,
    KIND_ROW,
    LAST_SOURCE_KINDS,
    LAST_SOURCE_PILE,
    MOVE_BASE,
    N_CARDS,
    N_CELLS,
    N_FOUNDATIONS,
    N_PILES,
    N_RESERVES,
    N_ROWS,
    OFFSET_BASE,
    OFFSET_COUNTERS,
    OFFSET_HEIGHTS,
    PILE_FIELDS,
    PILE_TABLE,
    RECYCLES_AT_START,
    REDEAL_GROUP,
    ROWS_ALIKE,
    ROWS_ORDERED,
    SOURCE_LIMIT,
    STATE_SIZE,
    STOCK_PILE,
    SUIT_BITS,
    SUITS_MATTER,
    VISIBLE_ALL,
    WASTE_PILE,
    WRAP,
    Layout,
    PileSpec,
)

MODE_NAMES = {FOUNDATION_BY_SUIT: "FOUNDATION_BY_SUIT", FOUNDATION_CHOSEN_BASE: "FOUNDATION_CHOSEN_BASE",
              FOUNDATION_ANY_SUIT: "FOUNDATION_ANY_SUIT"}


def pack_rules(layout: Layout) -> np.ndarray:
    """The layout packed for the compiled kernels.

    Raises:
        ValueError: the layout does not fit the state or the move encoding, a
            summary misdescribes its specs (``header_summaries``), or a spec asks
            for what the kernels do not read (``check_specs``).
    """
    specs = layout.specs
    piles = len(specs)
    if piles >= MOVE_BASE:
        raise ValueError("too many piles for the move encoding")
    if layout.decks not in (1, 2):
        raise ValueError(f"decks must be 1 or 2, not {layout.decks}")
    capacity = layout.capacity
    if capacity > 127:
        raise ValueError(f"a pile of {capacity} cards does not fit the int8 state")
    check_specs(layout)
    rules = np.zeros(PILE_TABLE + PILE_FIELDS * piles, dtype=np.int64)
    for index, value in {**shape_fields(layout), **header_summaries(layout), **rule_fields(layout)}.items():
        rules[index] = value
    pile_index = {name: pile for pile, name in enumerate(layout.pile_names())}
    for pile, spec in enumerate(specs):
        rules[PILE_TABLE + PILE_FIELDS * pile: PILE_TABLE + PILE_FIELDS * (pile + 1)] = spec.row(pile_index, pile)
    return rules


def shape_fields(layout: Layout) -> dict[int, int]:
    """The header's counts and offsets: where each pile and counter lives in the state."""
    piles, capacity, counters = layout.pile_count, layout.capacity, layout.counter_slots
    first_stock = layout.rows + layout.cells + layout.reserves
    return {
        N_PILES: piles, N_ROWS: layout.rows, N_CELLS: layout.cells, N_RESERVES: layout.reserves,
        N_FOUNDATIONS: layout.foundations, CAPACITY: capacity, N_CARDS: layout.n_cards,
        OFFSET_HEIGHTS: piles * capacity, OFFSET_BASE: piles * capacity + piles,
        OFFSET_COUNTERS: piles * capacity + piles + 1, COUNTER_SLOTS: counters,
        STATE_SIZE: piles * capacity + piles + 1 + counters,
        FIRST_CELL: layout.rows, FIRST_RESERVE: layout.rows + layout.cells, FIRST_STOCK: first_stock,
        FIRST_FOUNDATION: piles - layout.foundations,
        STOCK_PILE: first_stock if layout.stock else -1, WASTE_PILE: first_stock + 1 if layout.stock else -1,
    }


def rule_fields(layout: Layout) -> dict[int, int]:
    """The header's game-wide rules and the facts about the specs the kernels read once."""
    specs = layout.specs
    givers = [pile for pile, spec in enumerate(specs) if spec.gives]
    last_source = layout.last_source_pile
    return {
        HAS_HIDDEN: int(any(spec.visible != VISIBLE_ALL for spec in specs)),
        HAS_SPECIAL: int(layout.has_counters or any(spec.fill in (FILL_REFILL, FILL_ON_TURN) for spec in specs)),
        REDEAL_GROUP: layout.redeal_group,
        ROWS_ALIKE: int(len(set(specs[: layout.rows])) <= 1),
        SOURCE_LIMIT: givers[-1] + 1 if givers else 0,
        # rows keep their identity where their order changes the future: a redeal gathers
        # them row 0 first, and Welford's gaps are filled at a turn row 0 first
        ROWS_ORDERED: int(layout.redeals > 0 or any(spec.fill == FILL_ON_TURN for spec in specs[: layout.rows])),
        LAST_SOURCE_PILE: last_source,
        LAST_SOURCE_KINDS: last_source_kinds(specs[last_source]) if last_source >= 0 else 0,
        RECYCLES_AT_START: layout.recycles,
        SUITS_MATTER: int(layout.suits_matter),
    }


def last_source_kinds(spec: PileSpec) -> int:
    """The kinds mask of the ``last_not_from`` conditions of ``spec`` (one mask: the state keeps one record)."""
    masks = {condition.arg for condition in spec.conditions if condition.test == COND_LAST_NOT_FROM}
    if len(masks) > 1:
        raise ValueError(f"last_not_from: one pile's conditions name different kinds {sorted(masks)}; "
                         "the state keeps one record")
    return masks.pop()


def check_specs(layout: Layout) -> None:
    """Refuse specs that ask for what the kernels do not read or cannot keep."""
    specs, names = layout.specs, layout.pile_names()
    pile_index = {name: pile for pile, name in enumerate(names)}
    for pile, spec in enumerate(specs):
        name = names[pile]
        if spec.alike and replace(specs[pile_index[spec.alike]], alike="") != replace(spec, alike=""):
            raise ValueError(f"pile {pile} is alike to {spec.alike!r} but its spec differs")
        if any(pile_index[refused] >= 63 for refused in spec.refuses):
            raise ValueError("PileSpec.refuses names a pile numbered 63 or more (the mask is 63 bits)")
        guarded = spec.refuses or spec.cap or spec.guarded_kinds or spec.guard.test != COND_ALWAYS
        if guarded and spec.kind != KIND_FOUNDATION:
            raise ValueError(f"{name}: refuses, cap and guard are read on foundations only")
        if spec.cap_while.test == COND_NO_ROW_FITS:
            raise ValueError(f"{name}: a cap cannot wait for no row fitting the pile (whether one fits reads the cap)")
        if spec.cap_while.test == COND_STOCK_DEEPER or spec.guard.test == COND_STOCK_DEEPER:
            if not layout.stock:
                raise ValueError(f"{name}: stock_deeper needs a stock")
    if not layout.suits_matter:
        readers = [names[pile] for pile, spec in enumerate(specs) if spec.build & SUIT_BITS or spec.suit >= 0]
        if readers:
            raise ValueError(f"SUITS_MATTER: suits_matter=False hashes ranks only, but {readers} read a card's suit")


def player_fill(fill: int) -> int:
    """What a player may put into the empty pile: nothing where the rules refill it."""
    return FILL_NONE if fill in (FILL_REFILL, FILL_ON_TURN) else fill


def header_summaries(layout: Layout) -> dict[int, int]:
    """The header's summary fields (index -> value), derived from the specs.

    Raises:
        ValueError: the rows do not share the rule a summary states, the
            foundations match no ``FOUNDATION_*`` mode, or a summary field of
            ``layout`` disagrees with its specs (naming the field and what was expected).
    """
    rows = [spec for spec in layout.specs if spec.kind == KIND_ROW]
    foundations = [spec for spec in layout.specs if spec.kind == KIND_FOUNDATION]
    derived = {
        BUILD: ("build", layout.build, shared(rows, "BUILD", lambda spec: spec.build, layout.build)),
        WRAP: ("wrap", int(layout.wrap), shared(rows, "WRAP", lambda spec: int(spec.wrap), int(layout.wrap))),
        EMPTY_FILL: ("empty_fill", layout.empty_fill,
                     shared(rows, "EMPTY_FILL", lambda spec: player_fill(spec.fill), layout.empty_fill)),
        FOUNDATION_MODE: ("foundation_mode", layout.foundation_mode, foundation_mode(foundations)),
        FOUNDATION_WRAP: ("foundation_wrap", int(layout.foundation_wrap),
                          int(all(spec.wrap for spec in foundations)) if foundations else int(layout.foundation_wrap)),
    }
    for index, (name, declared, value) in derived.items():
        if declared != value:
            raise ValueError(f"{name.upper()}: Layout.{name} is {describe(index, declared)} but the piles' specs "
                             f"say {describe(index, value)}")
    return {index: value for index, (_, _, value) in derived.items()}


def describe(index: int, value: int) -> str:
    return MODE_NAMES.get(value, str(value)) if index == FOUNDATION_MODE else str(value)


def shared(rows: list[PileSpec], field: str, read: Callable[[PileSpec], int], default: int) -> int:
    """The one value ``read`` gives for every row (``default`` when there is no row)."""
    values = sorted({read(spec) for spec in rows})
    if len(values) > 1:
        raise ValueError(f"{field} states one rule for every row, but the rows' specs give {values}")
    return values[0] if values else default


def foundation_mode(foundations: list[PileSpec]) -> int:
    """``FOUNDATION_ANY_SUIT`` when every foundation takes any suit (from a base
    of its own, not chosen); ``FOUNDATION_BY_SUIT`` (``FOUNDATION_CHOSEN_BASE``)
    when foundation i takes suit i % 4, all up from the ace (from the base the
    player chooses) and alike in wrapping."""
    suits = [spec.suit for spec in foundations]
    if all(spec.suit == -1 and spec.base != BASE_CHOSEN for spec in foundations):
        return FOUNDATION_ANY_SUIT
    by_suit = [index % 4 for index in range(len(foundations))]
    shapes = {(spec.base, spec.build, spec.wrap) for spec in foundations}
    if suits == by_suit and len(shapes) == 1:
        base, build, _ = shapes.pop()
        if build == DIR_UP and base in (0, BASE_CHOSEN):
            return FOUNDATION_CHOSEN_BASE if base == BASE_CHOSEN else FOUNDATION_BY_SUIT
    bases = [spec.base for spec in foundations]
    raise ValueError(
        "FOUNDATION_MODE: the foundations match no mode: expected every suit -1 and no chosen base "
        f"(FOUNDATION_ANY_SUIT), or suits {by_suit}, each building up from base 0 (FOUNDATION_BY_SUIT) or from "
        f"BASE_CHOSEN={BASE_CHOSEN} (FOUNDATION_CHOSEN_BASE) and wrapping alike; the specs give suits {suits}, "
        f"bases {bases}")
