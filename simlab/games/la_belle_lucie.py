"""La Belle Lucie (PySolFC id 901, old ids 32 and 82; docs/rules.md section 9).

Eighteen fans (17 of three cards, one of one) build down in suit, one card at
a time; an empty fan is never filled. Two redeals, taken whenever the player
chooses: the fans are gathered (fan 0 first, each bottom to top), shuffled
with the deal's own random stream (so deal number N replays PySolFC's game N,
its redeals included) and dealt again in threes. Hoyle's ``draw`` (one card
pulled out from under a fan's top once no redeal is left) is a parameter, off
as in PySolFC.

Every card is face up; what a player cannot know is the order of the future
shuffles, which the solver sees (its ``thoughtful`` verdict is an upper bound).
"""

from __future__ import annotations

from simlab.engine.game import Game
from simlab.engine.layout import Layout
from simlab.games.catalog import register_game
from simlab.games.fan_family import FANS, fans_of, pysolfc_fans, redeal_layout, redeal_parameters


@register_game
class LaBelleLucie(Game):
    name = "la_belle_lucie"
    title = "La Belle Lucie"
    pysol_id = 901
    parameters = redeal_parameters()

    def layout(self) -> Layout:
        return redeal_layout(FANS, self.params)

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        return fans_of(pysolfc_fans(deal_number))
