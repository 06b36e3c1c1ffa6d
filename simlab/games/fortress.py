"""Fortress (PySolFC id 147; docs/rules.md section 6).

52 cards round-robin to 10 rows (5 full rounds, then 2 more cards to rows 0-1,
so rows 0-1 hold 6 and rows 2-9 hold 5); foundations start empty and build up
in suit from the ace. Tableau rows build up OR down by one rank in the same
suit (the direction may change within a row), with no wrap; one card at a time;
any card fills an empty row.
"""

from __future__ import annotations

from simlab.deals import deal_partial_round, deal_rounds, shuffled_talon
from simlab.engine.game import Game
from simlab.engine.layout import BUILD_UP_OR_DOWN_SAME_SUIT, Layout
from simlab.games.castle_dealing import name_rows
from simlab.games.catalog import register_game


def fortress_deal(deal_number: int) -> dict[str, list[int]]:
    """Fortress and Chessboard: 5 rounds to rows 0-9, then 2 cards to rows 0-1."""
    talon = shuffled_talon(deal_number)
    rows = deal_rounds(talon, 10, 5)
    deal_partial_round(talon, rows, 2)
    return name_rows(rows)


@register_game
class Fortress(Game):
    name = "fortress"
    title = "Fortress"
    pysol_id = 147

    def layout(self) -> Layout:
        return Layout(
            rows=10,
            max_dealt=6,
            build=BUILD_UP_OR_DOWN_SAME_SUIT,
        )

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        return fortress_deal(deal_number)
