"""Stronghold (PySolFC id 300; docs/rules.md section 5): Streets and Alleys plus one free cell."""

from __future__ import annotations

from simlab.engine.game import Game
from simlab.engine.layout import Layout
from simlab.games.castle_dealing import streets_and_alleys_deal
from simlab.games.catalog import register_game


@register_game
class Stronghold(Game):
    name = "stronghold"
    title = "Stronghold"
    pysol_id = 300

    def layout(self) -> Layout:
        return Layout(rows=8, cells=1, max_dealt=7)

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        return streets_and_alleys_deal(deal_number)
