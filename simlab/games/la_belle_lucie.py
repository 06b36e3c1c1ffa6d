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
from simlab.engine.layout import FILL_NONE, Layout
from simlab.games.catalog import register_game
from simlab.games.fan_family import FANS, fan_layout, fans_of, foundation_return_param, pysolfc_fans
from simlab.params import Param

REDEALS_DOC = "redeals (gather, shuffle from the deal's random stream, deal in threes) the player may take"
DRAW_DOC = "Hoyle's draw: once no redeal is left, one card may be pulled from under a fan's top and played"


@register_game
class LaBelleLucie(Game):
    name = "la_belle_lucie"
    title = "La Belle Lucie"
    pysol_id = 901
    parameters = {
        "redeals": Param(int, 2, REDEALS_DOC, low=0, high=10),
        "draw": Param(bool, False, DRAW_DOC),
        "foundation_return": foundation_return_param(False),
    }

    def layout(self) -> Layout:
        return fan_layout(FANS, FILL_NONE, redeals=self.params["redeals"], draws=int(self.params["draw"]),
                          foundation_return=self.params["foundation_return"])

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        return fans_of(pysolfc_fans(deal_number))
