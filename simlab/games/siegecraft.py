"""Siegecraft (PySolFC id 831; docs/rules.md section 4): Beleaguered Castle plus one free cell."""

from __future__ import annotations

from simlab.engine.game import Game
from simlab.engine.layout import Layout
from simlab.games.castle_dealing import beleaguered_castle_deal
from simlab.games.catalog import register_game


@register_game
class Siegecraft(Game):
    name = "siegecraft"
    title = "Siegecraft"
    pysol_id = 831

    def layout(self) -> Layout:
        return Layout(rows=8, cells=1, max_dealt=6)

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        return beleaguered_castle_deal(deal_number)
