"""A position as a card table a person reads, and a line walked through move by move.

One line per pile, the pile's name first (as moves name it) and its cards
after column 13:

- foundations, labelled by what they take: a suit (``clubs``), else by role
  (``any suit, A..K``; Windmill's ``centre`` and ``king pile``), with the top card;
- cells, then reserves one per line, bottom to top, the cards a player cannot
  see (Castle of Indolence's squared reserves) as ``[12 face down]``;
- the stock as a count (``87 cards face down``), the waste as its top card;
- the rows, bottom to top: the last card is the top, the one that moves.

``reveal`` shows the hidden cards too, still in brackets (``[3D 5S ..] 4H``):
the solver's view. Pure functions returning text: no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator

from simlab.cards import RANKS
from simlab.engine.layout import (
    BASE_CHOSEN,
    COUNTER_DRAWS,
    COUNTER_RECYCLES,
    COUNTER_REDEALS,
    DIR_DOWN,
    DIR_UP,
    KIND_CELL,
    KIND_FOUNDATION,
    KIND_RESERVE,
    KIND_ROW,
    KIND_STOCK,
    KIND_WASTE,
    OFFSET_BASE,
    OFFSET_COUNTERS,
    PileSpec,
)
from simlab.engine.notation import describe_move

if TYPE_CHECKING:
    from simlab.engine.game import Game, Move, State

NAME_WIDTH = 11  # "foundation0": cards start at column 13, as they always have
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
RANK_WORDS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
HIDDEN_TEXT = "??"
BASE_LINE = "base rank"
COUNTERS_LINE = "left"
HEADERS = {
    KIND_FOUNDATION: "Foundations  what each takes, then its top card",
    KIND_RESERVE: "Reserves     bottom .. top; [..] face down under the top card",
    KIND_ROW: "Rows         bottom .. top: the last card is the top, the one that moves",
}


def render_table(game: Game, state: State, reveal: bool = False) -> str:
    """The whole position as a card table (module docstring); ``reveal``: hidden cards too."""
    lines, kinds = [], _kinds(game)
    for key, line in pile_lines(game, state, reveal).items():
        kind = kinds.get(key, KIND_FOUNDATION)  # the base rank goes with the foundations
        header = HEADERS.get(kind)
        if header and header not in lines:
            lines.append(header)
        lines.append(line)
    return "\n".join(lines)


def changed_lines(game: Game, before: State, after: State, reveal: bool = False) -> list[str]:
    """The lines of ``render_table`` that differ from ``before`` to ``after``: the piles a move changed."""
    old = pile_lines(game, before, reveal)
    return [line for key, line in pile_lines(game, after, reveal).items() if old.get(key) != line]


def walkthrough(game: Game, start: State, moves: Iterable[Move | tuple[str, str]],
                reveal: bool = False, full: bool = False) -> Iterator[str]:
    """The lines of a line followed move by move: the table at ``start``, then per
    move its number and name (``12. 8H row3 -> row5``) and, indented, the piles
    it changed (``full``: the whole table instead). Replays through ``Game.apply``."""
    yield from render_table(game, start, reveal).splitlines()
    yield ""
    state = start
    for number, move in enumerate(moves, start=1):
        after = game.apply(state, move)
        yield f"{number}. {describe_move(game, state, move)}"
        if full:
            yield from render_table(game, after, reveal).splitlines()
            yield ""
        else:
            yield from ("    " + line for line in changed_lines(game, state, after, reveal))
        state = after


def pile_lines(game: Game, state: State, reveal: bool = False) -> dict[str, str]:
    """Every pile's line by pile name in table order (foundations, cells,
    reserves, stock, waste, rows), with the base rank and the counters left
    where the game has them."""
    seen = game.visible_piles(game.observe(state))
    true = game.piles(state) if reveal else seen
    labels = foundation_labels(game)
    label_width = max((len(label) for label in labels.values()), default=0)
    texts: dict[str, str] = {}
    base = _base_text(game, state)
    if base:
        texts[BASE_LINE] = _line(BASE_LINE, base)
    kinds = _kinds(game)
    for kind in (KIND_FOUNDATION, KIND_CELL, KIND_RESERVE, KIND_STOCK, KIND_WASTE, KIND_ROW):
        for name in (name for name, pile_kind in kinds.items() if pile_kind == kind):
            spec = game.table.specs[game.pile_index[name]]
            if kind == KIND_FOUNDATION:
                text = f"{labels[name]:<{label_width}}  {_foundation_text(spec, seen[name])}"
            else:
                text = _cards_text(kind, seen[name], true[name], reveal)
            texts[name] = _line(name, text)
    counters = _counters_text(game, state)
    if counters:
        texts[COUNTERS_LINE] = _line(COUNTERS_LINE, counters)
    return texts


def foundation_labels(game: Game) -> dict[str, str]:
    """What each foundation takes, by pile name: its suit (``clubs``) when it is
    tied to one, else ``any suit, A..K`` (first and last rank as read); where a
    game's foundations differ, its role first (``centre``, ``king pile``)."""
    specs = {name: game.table.specs[game.pile_index[name]] for name in game.pile_names
             if name.startswith("foundation")}
    mixed = len(set(specs.values())) > 1
    return {name: _foundation_label(game, spec, mixed) for name, spec in specs.items()}


def _foundation_label(game: Game, spec: PileSpec, mixed: bool) -> str:
    if spec.suit >= 0:
        return SUIT_NAMES[spec.suit]
    if spec.base == BASE_CHOSEN:
        return "any suit"
    step = -1 if spec.build & (DIR_UP | DIR_DOWN) == DIR_DOWN else 1
    first, last = game.rank_label(spec.base), game.rank_label((spec.base + 12 * step) % 13)
    label = f"any suit, {RANKS[first]}..{RANKS[last]}"
    rounds = spec.limit // 13
    if rounds > 1:
        label += f" x{rounds}"
    if mixed:
        role = "centre" if rounds > 1 else f"{RANK_WORDS[first]} pile"
        label = f"{role}, {label}"
    return label


def _foundation_text(spec: PileSpec, cards: list[str]) -> str:
    top = cards[-1] if cards else "--"
    return f"{top}  ({len(cards)} of {spec.limit} cards)" if spec.limit > 13 else top


def _cards_text(kind: int, seen: list[str], true: list[str], reveal: bool) -> str:
    """A pile's cards, bottom to top, hidden ones in brackets: counted, or named when revealed."""
    if not seen:
        return "--" if kind != KIND_STOCK else "empty"
    hidden = sum(card == HIDDEN_TEXT for card in seen)
    if kind == KIND_WASTE:
        return f"{seen[-1]}  ({len(seen)} card{'s' if len(seen) != 1 else ''}; the top plays)"
    if kind == KIND_STOCK and hidden == len(seen):
        face_down = f"{hidden} card{'s' if hidden != 1 else ''} face down"
        return f"{face_down} [{' '.join(true)}]" if reveal else face_down
    if not hidden:
        return " ".join(seen)
    under = " ".join(true[:hidden]) if reveal else f"{hidden} face down"
    return " ".join([f"[{under}]", *seen[hidden:]])


def _base_text(game: Game, state: State) -> str:
    """The base rank of foundations whose base the first card home chooses (Chessboard), else ''."""
    if not any(spec.base == BASE_CHOSEN for spec in game.table.specs):
        return ""
    base = int(state.array[game.rules[OFFSET_BASE]])
    if base < 0:
        return "not chosen yet (the first card home sets it for every foundation)"
    return f"{RANKS[game.rank_label(base)]} (every foundation starts from it)"


def _counters_text(game: Game, state: State) -> str:
    """What is left of the redeals, passes of the waste and draws, in a game that has them."""
    table, offset = game.table, int(game.rules[OFFSET_COUNTERS])
    parts = []
    for present, index, word in ((table.redeals, COUNTER_REDEALS, "redeal"),
                                 (table.recycles, COUNTER_RECYCLES, "pass of the waste"),
                                 (table.draws, COUNTER_DRAWS, "draw")):
        if present:
            count = int(state.array[offset + index])
            parts.append(f"{count} {word if count == 1 else _plural(word)}")
    return ", ".join(parts)


def _plural(word: str) -> str:
    return word.replace("pass", "passes") if word.startswith("pass") else word + "s"


def _line(name: str, text: str) -> str:
    return f"{name:<{NAME_WIDTH}}  {text}"


def _kinds(game: Game) -> dict[str, int]:
    return {name: spec.kind for name, spec in zip(game.pile_names, game.table.specs)}
