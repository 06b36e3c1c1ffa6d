"""A position as text for other programs: JSON piles, Freecell Solver's board format,
and Solvitaire's deal JSON.

Freecell Solver (``fc-solve``) reads one tableau column per line, bottom card
first, plus optional ``Foundations:`` and ``Freecells:`` lines. Its
``beleaguered_castle`` preset (aliases ``streets_and_alleys`` and ``citadel``)
plays any game that builds down by rank regardless of suit, fills a space with
any card and builds one deck up in suit on the foundations; free cells are
added with ``--freecells-num``. ``fcs_board`` refuses every other game.

Solvitaire (Blake and Gent's solver) reads ``{"tableau piles": [[...], ...],
"foundations": [...]}``: each pile bottom card first, a ten written ``10``, and
the foundation cards in any order of suits, each suit from its ace up. Its
``beleaguered-castle`` and ``streets-and-alleys`` presets play the same Castle
games as fc-solve's preset, without free cells; ``solvitaire_deal`` refuses the rest.
"""

from __future__ import annotations

from typing import Any

from simlab.cards import SUITS
from simlab.engine.game import Game, State
from simlab.engine.layout import BUILD_DOWN_ANY_SUIT, FILL_ANY, FOUNDATION_BY_SUIT, Layout
from simlab.errors import SimlabError

FCS_SUIT_ORDER = "HCDS"  # the order fc-solve and pysol_cards print foundations in


def deal_json(game: Game, deal_number: int) -> dict[str, Any]:
    """The deal as ``{"game", "params", "deal", "piles"}``, piles bottom to top as text."""
    state = game.initial_state(deal_number)
    return {
        "game": game.name,
        "params": dict(game.params),
        "deal": deal_number,
        "piles": game.piles(state),
    }


def fcs_supports(layout: Layout) -> bool:
    """Whether fc-solve's Beleaguered Castle preset plays a game with this layout."""
    return (
        layout.build == BUILD_DOWN_ANY_SUIT
        and not layout.wrap
        and layout.empty_fill == FILL_ANY
        and layout.foundation_mode == FOUNDATION_BY_SUIT
        and not layout.foundation_wrap
        and layout.decks == 1
        and layout.foundations == 4
        and layout.reserves == 0
    )


def fcs_board(game: Game, state: State) -> str:
    """``state`` in Freecell Solver's board format.

    Raises:
        SimlabError: if fc-solve has no preset that plays ``game``.
    """
    if not fcs_supports(game.table):
        raise SimlabError(
            f"Freecell Solver has no preset for game '{game.name}': it plays only games "
            "that build down regardless of suit on one deck (the Castle family)."
        )
    piles = game.piles(state)
    lines = []
    tops = {SUITS[i]: cards[-1] for i in range(4) if (cards := piles[f"foundation{i}"])}
    if tops:
        founds = [f"{suit}-{tops[suit][0]}" for suit in FCS_SUIT_ORDER if suit in tops]
        lines.append("Foundations: " + " ".join(founds))
    cells = [piles[f"cell{i}"] for i in range(game.table.cells)]
    if cells:
        lines.append("Freecells: " + " ".join(c[-1] if c else "-" for c in cells))
    # fc-solve reads a blank line as an empty column too, but ":" cannot be lost in transit.
    lines += [" ".join(piles[f"row{i}"]) or ":" for i in range(game.table.rows)]
    return "\n".join(lines)


def solvitaire_card(text: str) -> str:
    """``"TD"`` as Solvitaire writes it, ``"10D"``; every other card is unchanged."""
    return "10" + text[1:] if text[0] == "T" else text


def solvitaire_deal(game: Game, state: State) -> dict[str, Any]:
    """``state`` as Solvitaire's deal JSON (a dict to ``json.dump``): the rows, and
    the cards already on the foundations (Citadel's deal sends some home, Beleaguered
    Castle's the aces), left out when there are none.

    Raises:
        SimlabError: if Solvitaire's Castle presets do not play ``game``.
    """
    if not fcs_supports(game.table) or game.table.cells or game.table.stock or game.table.rows != 8:
        raise SimlabError(
            f"Solvitaire's Castle presets do not play game '{game.name}': they play only games "
            "that build down regardless of suit on one deck in 8 rows, without free cells or stock."
        )
    piles = game.piles(state)
    deal: dict[str, Any] = {
        "tableau piles": [[solvitaire_card(c) for c in piles[f"row{i}"]] for i in range(game.table.rows)],
    }
    home = [solvitaire_card(c) for i in range(game.table.foundations) for c in piles[f"foundation{i}"]]
    if home:
        deal["foundations"] = home
    return deal
