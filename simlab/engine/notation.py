"""Moves as a person reads them: the card and the piles, ``8H row3 -> row5``.

A ``Move`` names piles only (``row3->row5``: what programs read). Which card it
moves depends on the position, so naming a line replays it from its start.
Every move of simlab's games carries one card (docs/rules.md section 0.1: a
run is moved card by card), so a name is one card, never a run:

- ``8H row3 -> row5``: the top card of row3 onto row5;
- ``draw QS row3[1] -> foundation2``: a card pulled from under row3's top
  (La Belle Lucie's draw; ``[1]`` is its index, 0 the bottom card);
- ``turn 7S stock -> waste``: the stock's top card turned onto the waste; the
  card is named because it is face up once turned;
- ``recycle waste -> stock``: the waste turned over to become the stock;
- ``redeal``: the rows gathered, shuffled (from the deal's chance tape) and dealt again.

Only what a player sees is named: a card is read from the player's
observation (``Game.observe``), so a hidden card would read ``??`` (no move of
these games plays one). Pure functions: no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from simlab.engine.layout import (
    CAPACITY,
    DETAIL_MASK,
    DETAIL_SHIFT,
    KIND_SHIFT,
    MOVE_BASE,
    MOVE_DRAW,
    MOVE_RECYCLE,
    MOVE_REDEAL,
    MOVE_TURN,
    OFFSET_HEIGHTS,
)

if TYPE_CHECKING:
    from simlab.engine.game import Game, Move, State

LIST_WIDTH = 100  # characters of a line of ``numbered``


def describe_move(game: Game, state: State, move: Move | tuple[str, str]) -> str:
    """``move`` (legal in ``state``) as a person reads it: ``8H row3 -> row5``.

    Raises:
        IllegalMoveError: ``move`` is not legal in ``state``."""
    return _describe(game, state, game.apply(state, move), move)


def describe_line(game: Game, start: State, moves: Iterable[Move | tuple[str, str]]) -> list[str]:
    """Every move of a line from ``start`` as ``describe_move`` names it,
    replaying the line through ``Game.apply`` (an illegal move raises)."""
    names, state = [], start
    for move in moves:
        after = game.apply(state, move)
        names.append(_describe(game, state, after, move))
        state = after
    return names


def _describe(game: Game, before: State, after: State, move: Move | tuple[str, str]) -> str:
    source, destination = move
    code = game.move_code(move)
    kind = code >> KIND_SHIFT
    if kind == MOVE_REDEAL:
        return "redeal"
    if kind == MOVE_RECYCLE:
        return f"recycle {source} -> {destination}"
    if kind == MOVE_TURN:
        return f"turn {_top_seen(game, after, destination)} {source} -> {destination}"
    if kind == MOVE_DRAW:
        pile, index = (code // MOVE_BASE) % MOVE_BASE, (code >> DETAIL_SHIFT) & DETAIL_MASK
        return f"draw {_card_seen(game, before, pile, index)} {source} -> {destination}"
    return f"{_top_seen(game, before, source)} {source} -> {destination}"


def _top_seen(game: Game, state: State, pile_name: str) -> str:
    pile = game.pile_index[pile_name]
    height = int(state.array[game.rules[OFFSET_HEIGHTS] + pile])
    return _card_seen(game, state, pile, height - 1) if height else "--"


def _card_seen(game: Game, state: State, pile: int, index: int) -> str:
    """Card ``index`` of ``pile`` as the player sees it (``??`` when hidden)."""
    card = int(game.observe(state).array[pile * int(game.rules[CAPACITY]) + index])
    return game.card_texts[card] if card >= 0 else "??"


def numbered(names: list[str], width: int = LIST_WIDTH) -> list[str]:
    """``names`` as numbered columns, read across (``1. 8H row3 -> row5``), lines of at most ``width``."""
    digits = len(str(len(names)))
    items = [f"{number:>{digits}}. {name}" for number, name in enumerate(names, start=1)]
    if not items:
        return []
    cell = max(len(item) for item in items) + 3
    per_line = max(1, (width + 3) // cell)
    return [
        "".join(item.ljust(cell) for item in items[start: start + per_line]).rstrip()
        for start in range(0, len(items), per_line)
    ]
