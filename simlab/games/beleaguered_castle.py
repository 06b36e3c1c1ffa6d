"""Beleaguered Castle (PySolFC id 34; docs/rules.md section 1).

Aces start on the foundations; 48 cards in 8 rows of 6. Build down by one rank
in any suit, one card at a time; any card fills an empty row.
"""

from __future__ import annotations

from simlab.engine.game import Game
from simlab.engine.layout import Layout
from simlab.games.castle_dealing import beleaguered_castle_deal
from simlab.games.catalog import register_game


@register_game
class BeleagueredCastle(Game):
    name = "beleaguered_castle"
    title = "Beleaguered Castle"
    pysol_id = 34

    def layout(self) -> Layout:
        return Layout(rows=8, max_dealt=6)

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        return beleaguered_castle_deal(deal_number)
