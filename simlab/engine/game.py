"""The readable Python API of a game, around the compiled kernels.

``Game.apply`` never mutates its input: it returns a new ``State``. (The
compiled kernels apply and undo in place; the solver and policies use those.)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, NamedTuple

import numpy as np

from simlab.cards import card_text, parse_card
from simlab.engine import kernel
from simlab.engine.layout import MOVE_BASE, OFFSET_BASE, OFFSET_HEIGHTS, STATE_SIZE, Layout
from simlab.errors import IllegalMoveError
from simlab.params import Param

MAX_LEGAL_MOVES = 1024


class Move(NamedTuple):
    """A single-card move, named by piles as in ``simlab deal --format json``."""

    source: str
    destination: str

    def __str__(self) -> str:
        return f"{self.source}->{self.destination}"


@dataclass(frozen=True, eq=False)
class State:
    """A position: the flat int8 array of ``simlab.engine.layout``. Treat as immutable."""

    array: np.ndarray

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and np.array_equal(self.array, other.array)

    def __hash__(self) -> int:
        return hash(self.array.tobytes())


class Game:
    """Base class of every game. Subclasses set the class attributes and ``deal_piles``.

    Constructors only store parameters; ``simlab.make_game`` validates them first.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    pysol_id: ClassVar[int | None] = None
    version: ClassVar[int] = 1
    parameters: ClassVar[dict[str, Param]] = {}

    def __init__(self, **params: Any) -> None:
        self.params = params

    # ----- what a subclass provides -------------------------------------------------
    def layout(self) -> Layout:
        """The piles and rules of this game with these parameters."""
        raise NotImplementedError

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        """Cards of each non-empty pile at the start of deal ``deal_number``."""
        raise NotImplementedError

    # ----- derived ------------------------------------------------------------------
    @cached_property
    def table(self) -> Layout:
        return self.layout()

    @cached_property
    def rules(self) -> np.ndarray:
        """The packed rules array that the kernels take."""
        return self.table.rules_array()

    @cached_property
    def pile_names(self) -> list[str]:
        return self.table.pile_names()

    @cached_property
    def pile_index(self) -> dict[str, int]:
        return {name: index for index, name in enumerate(self.pile_names)}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"

    # ----- states -------------------------------------------------------------------
    def initial_state(self, deal_number: int) -> State:
        """The position of deal ``deal_number`` (PySolFC's game number)."""
        return self.state_from_cards(self.deal_piles(deal_number))

    def state_from_cards(self, piles: dict[str, list[int]], base: int | None = None) -> State:
        """Build a state from card ids per pile name (missing piles are empty)."""
        rules = self.rules
        capacity = self.table.capacity
        array = np.full(rules[STATE_SIZE], -1, dtype=np.int8)
        array[rules[OFFSET_HEIGHTS]: rules[OFFSET_BASE]] = 0
        array[rules[OFFSET_BASE]] = self._initial_base() if base is None else base
        for name, cards in piles.items():
            pile = self._pile(name)
            if len(cards) > capacity:
                raise ValueError(f"pile {name} holds {len(cards)} cards; at most {capacity} fit")
            array[pile * capacity: pile * capacity + len(cards)] = cards
            array[rules[OFFSET_HEIGHTS] + pile] = len(cards)
        foundation_bottoms = [c[0] for n, c in piles.items() if n.startswith("foundation") and c]
        if base is None and foundation_bottoms and array[rules[OFFSET_BASE]] == -1:
            array[rules[OFFSET_BASE]] = foundation_bottoms[0] % 13
        return State(array)

    def state_from_piles(self, piles: dict[str, list[str] | str]) -> State:
        """Build a drawn position from card text, e.g. ``{"row0": "KD QS", "foundation0": "AC"}``."""
        parsed = {}
        for name, cards in piles.items():
            words = cards.split() if isinstance(cards, str) else list(cards)
            parsed[name] = [parse_card(word) for word in words]
        return self.state_from_cards(parsed)

    def _initial_base(self) -> int:
        """Ace (0) unless the game lets the player choose the base rank."""
        from simlab.engine.layout import FOUNDATION_CHOSEN_BASE

        return -1 if self.table.foundation_mode == FOUNDATION_CHOSEN_BASE else 0

    def _pile(self, name: str) -> int:
        try:
            return self.pile_index[name]
        except KeyError:
            raise IllegalMoveError(
                f"Game '{self.name}' has no pile '{name}'. Its piles are: {', '.join(self.pile_names)}."
            ) from None

    # ----- the rules ----------------------------------------------------------------
    def legal_move_codes(self, state: State) -> np.ndarray:
        """Legal moves as kernel codes (``source * 256 + destination``)."""
        out = np.empty(MAX_LEGAL_MOVES, dtype=np.int32)
        count = kernel.legal_moves(self.rules, state.array, out)
        return out[:count].copy()

    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move, as (source pile, destination pile) names."""
        return [self.move_from_code(int(code)) for code in self.legal_move_codes(state)]

    def move_from_code(self, code: int) -> Move:
        return Move(self.pile_names[code // MOVE_BASE], self.pile_names[code % MOVE_BASE])

    def move_code(self, move: Move | tuple[str, str]) -> int:
        source, destination = move
        return self._pile(source) * MOVE_BASE + self._pile(destination)

    def apply(self, state: State, move: Move | tuple[str, str]) -> State:
        """The position after ``move``; ``state`` is left untouched.

        Raises:
            IllegalMoveError: if the move is not legal in ``state``.
        """
        code = self.move_code(move)
        if code not in self.legal_move_codes(state):
            raise IllegalMoveError(f"Move {move[0]}->{move[1]} is not legal here.")
        array = state.array.copy()
        kernel.apply_move(self.rules, array, code)
        return State(array)

    def is_won(self, state: State) -> bool:
        return bool(kernel.is_won(self.rules, state.array))

    def cards_home(self, state: State) -> int:
        """Cards on the foundations (counting any the deal put there)."""
        return int(kernel.foundation_cards(self.rules, state.array))

    def position_hash(self, state: State) -> int:
        return int(kernel.position_hash(self.rules, state.array, kernel.ZOBRIST))

    # ----- reading a state ----------------------------------------------------------
    def piles(self, state: State) -> dict[str, list[str]]:
        """Every pile by name, cards bottom to top, as text."""
        return {name: [card_text(c) for c in self.pile_cards(state, name)] for name in self.pile_names}

    def pile_cards(self, state: State, name: str) -> list[int]:
        pile = self._pile(name)
        capacity = self.table.capacity
        count = int(state.array[self.rules[OFFSET_HEIGHTS] + pile])
        return [int(c) for c in state.array[pile * capacity: pile * capacity + count]]

    def render(self, state: State) -> str:
        """The layout as text a player can read: foundations, cells, then rows."""
        piles = self.piles(state)
        lines = []
        tops = [f"{n}:{(c[-1] if c else '--')}" for n, c in piles.items() if n.startswith("foundation")]
        lines.append("Foundations  " + "  ".join(tops))
        for prefix in ("cell", "reserve"):
            named = [f"{n}:{' '.join(c) or '--'}" for n, c in piles.items() if n.startswith(prefix)]
            if named:
                lines.append(("Cells        " if prefix == "cell" else "Reserves     ") + "  ".join(named))
        width = max(len(n) for n in piles)
        for name, cards in piles.items():
            if name.startswith("row"):
                lines.append(f"{name:<{width}}  {' '.join(cards)}")
        return "\n".join(lines)
