"""Trefoil (PySolFC id 88; docs/rules.md section 9).

La Belle Lucie with the four aces on the foundations from the start: PySolFC
moves them under the talon, deals three rounds to 16 fans (16 fans of three),
then the aces to their foundations. The same two redeals, dealt into at most
16 fans. ``foundation_return`` (off by default) lets a foundation's top card
go back onto a fan, but never an ace (PySolFC lets all but the ace; it never
helps when fans build down in suit, docs/rules.md section 9).
"""

from __future__ import annotations

from simlab.deals import aces_to_bottom, deal_rounds, shuffled_talon
from simlab.engine.game import Game
from simlab.engine.layout import Layout
from simlab.games.catalog import register_game
from simlab.games.fan_family import FAN_SIZE, fans_of, redeal_layout, redeal_parameters

TREFOIL_FANS = 16


@register_game
class Trefoil(Game):
    name = "trefoil"
    title = "Trefoil"
    pysol_id = 88
    parameters = redeal_parameters()

    def layout(self) -> Layout:
        return redeal_layout(TREFOIL_FANS, self.params, aces_stay=True)

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        talon = aces_to_bottom(shuffled_talon(deal_number))
        piles = fans_of(deal_rounds(talon, TREFOIL_FANS, FAN_SIZE))
        for suit in range(4):
            piles[f"foundation{suit}"] = [talon.pop()]
        return piles
