"""Streets and Alleys (PySolFC id 146; docs/rules.md section 2).

Beleaguered Castle with the aces dealt in: 52 cards to rows of 7,7,7,7,6,6,6,6
and empty foundations.
"""

from __future__ import annotations

from simlab.engine.game import Game
from simlab.engine.layout import Layout
from simlab.games.castle_dealing import streets_and_alleys_deal
from simlab.games.catalog import register_game


@register_game
class StreetsAndAlleys(Game):
    name = "streets_and_alleys"
    title = "Streets and Alleys"
    pysol_id = 146

    def layout(self) -> Layout:
        return Layout(rows=8, max_dealt=7)

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        return streets_and_alleys_deal(deal_number)
