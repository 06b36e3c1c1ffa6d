"""The readable Python API of a game, around the compiled kernels.

``Game.apply`` never mutates its input: it returns a new ``State``. (The
compiled kernels apply and undo in place; the solver and policies use those.)
A ``State`` is everything (the solver's view); an ``Observation`` is what a
real player sees of it (``Game.observe``), and the only thing policies get.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Mapping, NamedTuple

import numpy as np

from simlab.cards import CARDS_PER_DECK, card_text, parse_card
from simlab.deals import chance_tape
from simlab.engine import kernel, moves
from simlab.engine.layout import (
    DETAIL_SHIFT,
    FOUNDATION_CHOSEN_BASE,
    HAS_HIDDEN,
    KIND_SHIFT,
    MOVE_BASE,
    MOVE_CARD,
    MOVE_DRAW,
    MOVE_RECYCLE,
    MOVE_REDEAL,
    MOVE_TURN,
    OFFSET_BASE,
    OFFSET_COUNTERS,
    OFFSET_HEIGHTS,
    STATE_SIZE,
    Layout,
)
from simlab.engine.packing import pack_rules
from simlab.errors import IllegalMoveError
from simlab.params import Param

MAX_LEGAL_MOVES = 1024
N_CARD_IDS = 2 * CARDS_PER_DECK
RANK_COUNT = 13


REDEAL = ("redeal", "rows")  # the Move of a redeal


class Move(NamedTuple):
    """A move named by piles as in ``simlab deal --format json``: the top card of
    ``source`` onto ``destination``; ``stock->waste`` turns the stock,
    ``waste->stock`` turns the waste back over, ``redeal->rows`` redeals, and a
    draw names the card's index in its row: ``row3[1]->foundation2``."""

    source: str
    destination: str

    def __str__(self) -> str:
        return f"{self.source}->{self.destination}"


def parse_move(text: str) -> Move:
    """The move ``str(move)`` printed: ``SOURCE->DESTINATION`` (``row3->foundation0``,
    ``stock->waste``, ``row3[1]->foundation2``). It checks the form only; whether the
    piles exist and the move is legal is for ``Game.apply``.

    Raises:
        IllegalMoveError: if ``text`` is not of that form.
    """
    source, arrow, destination = text.strip().partition("->")
    if not arrow or not source or not destination or any(c.isspace() for c in source + destination):
        raise IllegalMoveError(f"{text!r} is not a move: expected SOURCE->DESTINATION, e.g. row3->foundation0.")
    return Move(source, destination)


NO_CHANCE = np.zeros(1, dtype=np.float64)  # the chance tape of a game without shuffles in play


@dataclass(frozen=True, eq=False)
class State:
    """A position: the flat int8 array of ``simlab.engine.layout``, and the
    deal's chance tape (the random numbers its redeals will shuffle with,
    fixed by the deal number). Treat as immutable."""

    array: np.ndarray
    chance: np.ndarray = field(default_factory=lambda: NO_CHANCE)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, State) and np.array_equal(self.array, other.array)
                and np.array_equal(self.chance, other.chance))

    def __hash__(self) -> int:
        return hash(self.array.tobytes())


@dataclass(frozen=True, eq=False)
class Observation:
    """What a player sees of a position: the state's array with every card they
    cannot see replaced by ``simlab.engine.moves.HIDDEN`` (heights, counters and
    the other cards as they are). It holds no chance tape."""

    array: np.ndarray

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Observation) and np.array_equal(self.array, other.array)

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

    @classmethod
    def settle_params(cls, given: Mapping[str, Any], resolved: dict[str, Any]) -> dict[str, Any]:
        """The parameters in force, from those checked (``resolved``, defaults
        filled in) and those the user gave: a game whose defaults depend on
        another parameter (Windmill's under ``welford``) fills them in here."""
        return resolved

    # ----- what a subclass provides -------------------------------------------------
    def layout(self) -> Layout:
        """The piles and rules of this game with these parameters."""
        raise NotImplementedError

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        """Cards of each non-empty pile at the start of deal ``deal_number``, as the
        kernels hold them (before ``rank_label``)."""
        raise NotImplementedError

    def rank_label(self, rank: int) -> int:
        """The rank (0 = ace .. 12 = king) a person reads for the kernels' ``rank``.

        The same rank, unless the game is another one with its ranks relabelled
        (reversed Windmill is Windmill with every rank r read as 14 - r): then
        the kernels play the other game and only the names of cards differ.
        A permutation of the 13 ranks."""
        return rank

    # ----- derived ------------------------------------------------------------------
    @cached_property
    def table(self) -> Layout:
        return self.layout()

    @cached_property
    def rules(self) -> np.ndarray:
        """The packed rules array that the kernels take.

        Raises:
            ValueError: the game's layout is refused (``simlab.engine.packing``)."""
        try:
            return pack_rules(self.table)
        except ValueError as error:
            raise ValueError(f"the layout of {self!r} is refused: {error}") from error

    @cached_property
    def pile_names(self) -> list[str]:
        return self.table.pile_names()

    @cached_property
    def pile_index(self) -> dict[str, int]:
        return {name: index for index, name in enumerate(self.pile_names)}

    @cached_property
    def card_labels(self) -> tuple[int, ...]:
        """For every card the kernels hold, the card a person reads: same deck and
        suit, rank by ``rank_label``."""
        ranks = [self.rank_label(rank) for rank in range(RANK_COUNT)]
        if sorted(ranks) != list(range(RANK_COUNT)):
            raise ValueError(f"game {self.name!r}: rank_label is not a permutation of the 13 ranks: {ranks}")
        return tuple(card - card % RANK_COUNT + ranks[card % RANK_COUNT] for card in range(N_CARD_IDS))

    @cached_property
    def card_ids(self) -> tuple[int, ...]:
        """``card_labels`` inverted: for every card a person names, the card the kernels hold."""
        ids = [0] * N_CARD_IDS
        for card, label in enumerate(self.card_labels):
            ids[label] = card
        return tuple(ids)

    @cached_property
    def card_texts(self) -> tuple[str, ...]:
        """For every card the kernels hold, its name as a person reads it (``"TD"``)."""
        return tuple(card_text(label) for label in self.card_labels)

    def card_label(self, card: int) -> int:
        """The card a person reads for the kernels' ``card`` (``rank_label``)."""
        return self.card_labels[card]

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"

    # ----- states -------------------------------------------------------------------
    @cached_property
    def has_hidden_cards(self) -> bool:
        """Whether a player sees less than the whole position (the solver's
        verdicts are then ``thoughtful``: an upper bound on any real player)."""
        return bool(self.rules[HAS_HIDDEN])

    @cached_property
    def has_chance(self) -> bool:
        """Whether play holds shuffles a player cannot foresee (redeals): the
        solver, which knows them, then gives ``thoughtful`` verdicts."""
        return self.table.redeals > 0

    def initial_state(self, deal_number: int) -> State:
        """The position of deal ``deal_number`` (PySolFC's game number),
        with the chance tape its redeals will use."""
        state = self._state_from_kernel_cards(self.deal_piles(deal_number))
        if self.table.redeals:
            draws = self.table.redeals * (self.table.n_cards - 1)
            return State(state.array, chance_tape(deal_number, self.table.decks, draws))
        return state

    def state_from_cards(self, piles: dict[str, list[int]], base: int | None = None) -> State:
        """Build a state from card ids per pile name (missing piles are empty), each
        card as a person names it (``card_label``; ``base`` a rank so named)."""
        ids = self.card_ids
        kernel_piles = {name: [ids[card] for card in cards] for name, cards in piles.items()}
        # a rank r names the same rank as card r, its club of deck 0
        return self._state_from_kernel_cards(kernel_piles, base if base is None or base < 0 else ids[base])

    def _state_from_kernel_cards(self, piles: dict[str, list[int]], base: int | None = None) -> State:
        """``state_from_cards`` for cards as the kernels hold them."""
        rules = self.rules
        capacity = self.table.capacity
        array = np.full(rules[STATE_SIZE], -1, dtype=np.int8)
        array[rules[OFFSET_HEIGHTS]: rules[OFFSET_BASE]] = 0
        array[rules[OFFSET_BASE]] = self._initial_base() if base is None else base
        counters = self.table.initial_counters()
        array[rules[OFFSET_COUNTERS]: rules[OFFSET_COUNTERS] + len(counters)] = counters
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
        """Build a drawn position from card text, e.g. ``{"row0": "KD QS", "foundation0": "AC"}``.

        With two decks the first time a card's text appears it is deck 0's copy,
        the second time deck 1's (later repeats, allowed in drawn positions, stay deck 1's)."""
        parsed = {}
        seen: dict[int, int] = {}
        for name, cards in piles.items():
            words = cards.split() if isinstance(cards, str) else list(cards)
            parsed[name] = []
            for word in words:
                card = parse_card(word)
                deck = min(seen.get(card, 0), self.table.decks - 1)  # drawn positions may repeat a card
                seen[card] = deck + 1
                parsed[name].append(card + CARDS_PER_DECK * deck)
        return self.state_from_cards(parsed)

    def _initial_base(self) -> int:
        """Ace (0) unless the game lets the player choose the base rank."""
        return -1 if self.table.foundation_mode == FOUNDATION_CHOSEN_BASE else 0

    def _pile(self, name: str) -> int:
        try:
            return self.pile_index[name]
        except KeyError:
            raise IllegalMoveError(
                f"Game '{self.name}' has no pile '{name}'. Its piles are: {', '.join(self.pile_names)}."
            ) from None

    # ----- the rules ----------------------------------------------------------------
    def legal_move_codes(self, state: State | Observation) -> np.ndarray:
        """Legal moves as kernel codes (``simlab.engine.layout``: a card move is
        ``source * 256 + destination``). A player's observation has the same moves."""
        out = np.empty(MAX_LEGAL_MOVES, dtype=np.int32)
        count = kernel.legal_moves(self.rules, state.array, out)
        return out[:count].copy()

    def legal_moves(self, state: State | Observation) -> list[Move]:
        """Every legal move, as (source pile, destination pile) names."""
        return [self.move_from_code(int(code)) for code in self.legal_move_codes(state)]

    def move_from_code(self, code: int) -> Move:
        kind = code >> KIND_SHIFT
        source = self.pile_names[(code // MOVE_BASE) % MOVE_BASE]
        destination = self.pile_names[code % MOVE_BASE]
        if kind == MOVE_REDEAL:
            return Move(*REDEAL)
        if kind == MOVE_DRAW:
            return Move(f"{source}[{kernel.move_detail(code)}]", destination)
        return Move(source, destination)

    def move_code(self, move: Move | tuple[str, str]) -> int:
        source, destination = move
        if (source, destination) == REDEAL:
            return MOVE_REDEAL << KIND_SHIFT
        if source.endswith("]") and "[" in source:
            name, index = source[:-1].split("[", 1)
            if not index.isdigit():
                raise IllegalMoveError(f"Move {source}->{destination}: {index!r} is not a card index.")
            pile = self._pile(name) * MOVE_BASE + self._pile(destination)
            return (MOVE_DRAW << KIND_SHIFT) + (int(index) << DETAIL_SHIFT) + pile
        code = self._pile(source) * MOVE_BASE + self._pile(destination)
        if self.table.stock and (source, destination) == ("stock", "waste"):
            return (MOVE_TURN << KIND_SHIFT) + code
        if self.table.stock and (source, destination) == ("waste", "stock"):
            return (MOVE_RECYCLE << KIND_SHIFT) + code
        return (MOVE_CARD << KIND_SHIFT) + code

    def apply(self, state: State, move: Move | tuple[str, str]) -> State:
        """The position after ``move``; ``state`` is left untouched.

        Raises:
            IllegalMoveError: if the move is not legal in ``state``.
        """
        code = self.move_code(move)
        if code not in self.legal_move_codes(state):
            raise IllegalMoveError(f"Move {move[0]}->{move[1]} is not legal here.")
        array = state.array.copy()
        moves.play(self.rules, array, code, state.chance, np.empty_like(array))
        return State(array, state.chance)

    def is_won(self, state: State | Observation) -> bool:
        return bool(kernel.is_won(self.rules, state.array))

    def cards_home(self, state: State | Observation) -> int:
        """Cards on the foundations (counting any the deal put there)."""
        return int(kernel.foundation_cards(self.rules, state.array))

    def position_hash(self, state: State | Observation) -> int:
        return int(kernel.position_hash(self.rules, state.array, kernel.ZOBRIST))

    def observe(self, state: State) -> Observation:
        """What a real player sees of ``state`` (every card of it, in an open game)."""
        out = np.empty_like(state.array)
        moves.observe(self.rules, state.array, out)
        return Observation(out)

    def visible_piles(self, view: Observation | State) -> dict[str, list[str]]:
        """Every pile by name, bottom to top, with ``??`` for a card the player cannot see."""
        array, capacity, texts = view.array, self.table.capacity, self.card_texts
        offset = int(self.rules[OFFSET_HEIGHTS])
        heights = array[offset: offset + len(self.pile_names)].tolist()
        return {
            name: [texts[card] if card >= 0 else "??"
                   for card in array[pile * capacity: pile * capacity + count].tolist()]
            for pile, (name, count) in enumerate(zip(self.pile_names, heights))
        }

    # ----- reading a state ----------------------------------------------------------
    def piles(self, state: State | Observation) -> dict[str, list[str]]:
        """Every pile by name, cards bottom to top, as text (``??``: a card hidden from a player)."""
        return self.visible_piles(state)

    def pile_cards(self, state: State | Observation, name: str) -> list[int]:
        """The cards of pile ``name``, bottom to top, each as a person names it
        (``card_label``; a card hidden from a player stays ``moves.HIDDEN``)."""
        pile = self._pile(name)
        capacity, labels = self.table.capacity, self.card_labels
        count = int(state.array[self.rules[OFFSET_HEIGHTS] + pile])
        cards = state.array[pile * capacity: pile * capacity + count].tolist()
        return [labels[card] if card >= 0 else card for card in cards]
