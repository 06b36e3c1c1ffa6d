"""Fan (PySolFC id 56; docs/rules.md section 9).

Eighteen fans build down in suit, one card at a time; only a king fills an
empty fan; no redeal. Two deals, named by the ``deal`` parameter: PySolFC's
(as La Belle Lucie: 17 fans of three and one of one) and Blake and Gent's (the
pack round-robin over the 18 fans: 16 of three and two of two), under which
their solver settled a million deals (48.776% +/- 0.099% winnable).
"""

from __future__ import annotations

from simlab.engine.game import Game
from simlab.engine.layout import FILL_KINGS, Layout
from simlab.games.catalog import register_game
from simlab.games.fan_family import FANS, fan_layout, fans_of, foundation_return_param, pysolfc_fans, round_robin_fans
from simlab.params import Param

DEALS = {"pysolfc": pysolfc_fans, "round_robin": round_robin_fans}


@register_game
class Fan(Game):
    name = "fan"
    title = "Fan"
    pysol_id = 56
    parameters = {
        "deal": Param(str, "pysolfc", "pysolfc: two rounds to fans 0-16, one to all 18 (17 of three, one of one); "
                      "round_robin: Blake and Gent's, the pack round-robin (16 of three, two of two)",
                      choices=tuple(DEALS)),
        "foundation_return": foundation_return_param(True),
    }

    def layout(self) -> Layout:
        return fan_layout(FANS, FILL_KINGS, foundation_return=self.params["foundation_return"])

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        return fans_of(DEALS[self.params["deal"]](deal_number))
