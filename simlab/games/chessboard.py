"""Chessboard (PySolFC id 148; docs/rules.md section 7).

Dealt and played as Fortress, except:

- the player picks the foundations' base rank: the first card played to any
  foundation may have any rank (at any time, even after tableau moves), and the
  other three foundations must start with that rank; each builds up in suit,
  wrapping K->A, to 13 cards;
- tableau rows wrap too, so K and A are adjacent both ways (same suit).

Sources differ on that last point: PySolFC's help page says the tableau wraps,
while Hoyle only says "follow Fortress" (which does not wrap). The
``tableau_wrap`` parameter names the choice; the default follows PySolFC.
"""

from __future__ import annotations

from simlab.engine.game import Game
from simlab.engine.layout import (
    BUILD_UP_OR_DOWN_SAME_SUIT,
    FOUNDATION_CHOSEN_BASE,
    Layout,
)
from simlab.games.catalog import register_game
from simlab.games.fortress import fortress_deal
from simlab.params import Param


@register_game
class Chessboard(Game):
    name = "chessboard"
    title = "Chessboard"
    pysol_id = 148
    parameters = {
        "tableau_wrap": Param(
            bool, True, "rows build K on A and A on K (PySolFC); false: no wrap in rows, as in Fortress"
        )
    }

    def layout(self) -> Layout:
        return Layout(
            rows=10,
            max_dealt=6,
            build=BUILD_UP_OR_DOWN_SAME_SUIT,
            wrap=self.params["tableau_wrap"],
            foundation_mode=FOUNDATION_CHOSEN_BASE,
            foundation_wrap=True,
        )

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        return fortress_deal(deal_number)
