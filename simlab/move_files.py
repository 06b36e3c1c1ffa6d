"""Reading a file of moves, as ``simlab play`` and ``simlab solve`` print them.

Two forms are read:

- text: moves separated by spaces or newlines (``row0->row5 row1->foundation2``);
  a leading ``moves:`` is skipped and ``#`` starts a comment;
- the text ``simlab play`` and ``simlab solve`` print: numbered moves with their cards
  (``1. 8H row3 -> row5   2. redeal``), whatever header lines come before them;
- JSON (the file starts with ``{`` or ``[``): the record of ``simlab play --json``
  or ``simlab solve --json``, whose ``"moves"`` holds ``"row0->row5"`` strings or
  ``["row0", "row5"]`` pairs, or a bare list of either.

The form of each move is checked here; whether it is legal is checked when it is replayed
(``replay_moves``, which names the file and the move that is not).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from simlab.engine.game import REDEAL, Game, Move, State, parse_move
from simlab.errors import IllegalMoveError, SimlabError
from simlab.input_limits import MAX_INPUT_BYTES, MAX_NESTING, read_capped

MOVES_LABEL = "moves:"
# One numbered move as ``simlab.engine.notation.numbered`` prints it: ``12. 8H row3 -> row5``,
# ``3. turn 7S stock -> waste``, ``4. recycle waste -> stock``, ``5. draw QS row3[1] -> foundation2``,
# ``6. redeal`` (the card, when named, is one word: ``8H``, ``??``).
NUMBERED_MOVE = re.compile(r"(?<!\S)(\d+)\. (?:(redeal)|(?:(?:turn|draw) \S+ |recycle |\S+ )(\S+) -> (\S+))")


def read_moves(path: str | Path) -> list[Move]:
    """The moves in the file at ``path``, in order.

    Raises:
        SimlabError: the file cannot be read, or a move (named by its number,
            1 for the first) is not ``SOURCE->DESTINATION``.
    """
    try:
        data = read_capped(path, MAX_INPUT_BYTES)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SimlabError(f"cannot read the moves file {str(path)!r}: {error}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise SimlabError(f"moves file {str(path)!r} must be at most {MAX_INPUT_BYTES:,} bytes (as a config "
                          "file). Got a larger file.")
    if text.lstrip().startswith(("{", "[")):
        return _json_moves(text, path)
    return _text_moves(text, path)


def _text_moves(text: str, path: str | Path) -> list[Move]:
    named = NUMBERED_MOVE.findall(text)
    if named:
        return _numbered_moves(named, path)
    words = [word for line in text.splitlines() for word in line.split("#", 1)[0].split()]
    if words and words[0] == MOVES_LABEL:
        words = words[1:]
    if words == ["none"]:  # `simlab play` prints "moves: none" for a game without a move
        return []
    return [_parse(word, number, path) for number, word in enumerate(words, start=1)]


def _numbered_moves(found: list[tuple[str, str, str, str]], path: str | Path) -> list[Move]:
    """The moves of ``simlab play`` / ``simlab solve`` text, checked to be numbered 1, 2, 3, ..."""
    moves = []
    for expected, (number, redeal, source, destination) in enumerate(found, start=1):
        if int(number) != expected:
            raise SimlabError(f"moves file {str(path)!r}: numbered moves must run 1, 2, 3, ...; "
                              f"move {number} comes where move {expected} should.")
        moves.append(Move(*REDEAL) if redeal else _parse(f"{source}->{destination}", expected, path))
    return moves


def _json_moves(text: str, path: str | Path) -> list[Move]:
    if json_depth(text) > MAX_NESTING:
        raise SimlabError(f"moves file {str(path)!r} must nest JSON lists and objects at most {MAX_NESTING} "
                          "deep (a moves file needs 3). Got a deeper document.")
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise SimlabError(f"moves file {str(path)!r} is not valid JSON: {error}") from None
    items = data.get("moves") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise SimlabError(f"moves file {str(path)!r}: expected a JSON list of moves or an object "
                          "with a \"moves\" list (as 'simlab solve --json' prints).")
    return [_json_move(item, number, path) for number, item in enumerate(items, start=1)]


def json_depth(text: str) -> int:
    """How deep the JSON ``text`` nests lists and objects, counted without parsing it
    (``json.loads`` recurses once per level: 100,000 levels raised ``RecursionError``).
    Brackets inside strings do not count; the text need not be valid JSON."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _json_move(item: Any, number: int, path: str | Path) -> Move:
    if isinstance(item, str):
        return _parse(item, number, path)
    if isinstance(item, list) and len(item) == 2 and all(isinstance(part, str) for part in item):
        return _parse(f"{item[0]}->{item[1]}", number, path)
    raise SimlabError(f"moves file {str(path)!r}, move {number}: expected \"SOURCE->DESTINATION\" "
                      f"or [\"SOURCE\", \"DESTINATION\"], found {json.dumps(item)}.")


def _parse(word: str, number: int, path: str | Path) -> Move:
    try:
        return parse_move(word)
    except IllegalMoveError as error:
        raise SimlabError(f"moves file {str(path)!r}, move {number}: {error}") from None


def replay_moves(game: Game, start: State, moves: list[Move], source: str) -> list[State]:
    """Every position from ``start`` through each move of ``moves`` (``len(moves) + 1`` of them).

    Raises:
        SimlabError: a move is not legal where it is played; the message names
            ``source`` (e.g. the moves file), the move's number and the legal moves there.
    """
    states = [start]
    for number, move in enumerate(moves, start=1):
        try:
            states.append(game.apply(states[-1], move))
        except IllegalMoveError:
            where = "the deal" if number == 1 else f"move {number - 1}"
            legal = " ".join(str(m) for m in game.legal_moves(states[-1])) or "none"
            raise SimlabError(f"{source}, move {number}: {move[0]}->{move[1]} is not legal after {where}; "
                              f"the legal moves there are: {legal}.") from None
    return states
