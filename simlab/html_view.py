"""One deal played, as a self-contained HTML page: every position computed by replaying
the moves through the rules engine (``simlab.move_files.replay_moves``), drawn in the
browser by a small script.

``pile_cards`` gives a position's piles (each bottom to top, each card with a flag saying
whether a player can see it, read from ``Game.observe``); ``page_html`` puts them with a
header and the piles' arrangement into the template ``show_page.html`` (a package data
file: inline CSS and script, no network, no other file).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from simlab.engine.game import Game, Move, State
from simlab.engine.notation import describe_line

TEMPLATE = "show_page.html"
DATA_MARK = "/*SIMLAB_DATA*/null"
TITLE_MARK = "<!--SIMLAB_TITLE-->"
FAN_GRID_ROWS = 12  # from this many rows (the Fan family's 16 or 18 fans) rows are drawn as fans in a grid
HIDDEN_TEXT = "??"


@dataclass
class ShowHeader:
    """What the page's header says: the source of the moves and how the game ended."""

    source: str  # e.g. "policy greedy (seed 0)", "solver (budget 32,000,000)", "moves file line.txt"
    verdict: str  # e.g. "won", "lost (no_moves: no legal move left)"
    notes: list[tuple[str, str]] = field(default_factory=list)  # further (label, text) lines


def pile_cards(game: Game, state: State) -> list[list[list[Any]]]:
    """The piles of ``state`` in ``game.pile_names`` order, each card ``[text, hidden]``:
    hidden (1) when the player's observation does not show it."""
    actual, seen = game.piles(state), game.visible_piles(game.observe(state))
    return [[[card, int(view == HIDDEN_TEXT)] for card, view in zip(actual[name], seen[name])]
            for name in game.pile_names]


def arrangement(game: Game) -> list[dict[str, Any]]:
    """The bands of the board, top to bottom: each a title, a way to draw its piles
    (``stack``: cards squared, ``column``: fanned downwards, ``fan``: fanned to the
    right, in a grid) and the names of its piles."""
    names = game.pile_names

    def named(prefix: str) -> list[str]:
        return [name for name in names if name.rstrip("0123456789") == prefix]

    top = [{"title": title, "piles": named(prefix)} for prefix, title in
           (("stock", "Stock"), ("waste", "Waste"), ("cell", "Cells"), ("foundation", "Foundations"))
           if named(prefix)]
    bands = [{"style": "stack", "groups": top}]
    if named("reserve"):
        bands.append({"style": "column", "groups": [{"title": "Reserves", "piles": named("reserve")}]})
    rows = named("row")
    style = "fan" if len(rows) >= FAN_GRID_ROWS else "column"
    bands.append({"style": style, "groups": [{"title": "Rows", "piles": rows}]})
    return bands


def page_data(game: Game, deal: int, moves: list[Move], steps: list, header: ShowHeader) -> dict[str, Any]:
    """Everything the page's script reads, as JSON-ready values."""
    return {
        "game": game.name,
        "title": game.title,
        "params": {key: _plain(value) for key, value in game.params.items()},
        "deal": deal,
        "source": header.source,
        "verdict": header.verdict,
        "notes": [list(note) for note in header.notes],
        "total": game.table.n_cards,
        "hides": bool(game.has_hidden_cards),
        "pile_names": list(game.pile_names),
        "bands": arrangement(game),
        "moves": [str(move) for move in moves],  # the pile names, read by the script
        "moves_named": describe_line(game, game.initial_state(deal), moves),  # shown: the card too
        "steps": steps,
    }


def page_html(data: dict[str, Any]) -> str:
    """The page: the template with ``data`` embedded as JSON (every ``<`` written
    ``\\u003c``, so no text in it can end or comment out the script)."""
    template = resources.files("simlab").joinpath(TEMPLATE).read_text(encoding="utf-8")
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    title = f"{data['title']} deal {data['deal']} - simlab show"
    return template.replace(DATA_MARK, payload).replace(TITLE_MARK, _escape(title))


def _plain(value: Any) -> Any:
    return value if isinstance(value, (bool, int, float, str)) or value is None else str(value)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
