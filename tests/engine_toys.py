"""Two small games built only for the engine's tests, from pile specs alone.

They exercise what no registered game uses yet: a stock turned onto a waste,
automatic refills, passes back through the stock, foundations that build down,
wrap through 52 cards and give cards back, fans that are gathered, shuffled
from the deal's chance tape and dealt again, and a draw from under a fan's top.
They are fixtures, not games simlab reports on: they are never registered.
"""

from __future__ import annotations

from simlab.deals import shuffled_talon
from simlab.engine.game import Game
from simlab.engine.layout import (
    BUILD_DOWN_SAME_SUIT,
    BUILD_NONE,
    DIR_DOWN,
    DIR_UP,
    FILL_NONE,
    FILL_REFILL,
    FOUNDATION_ANY_SUIT,
    KIND_FOUNDATION,
    KIND_ROW,
    KIND_WASTE,
    Layout,
    PileSpec,
)

SAILS = 8
WASTE = SAILS + 1  # pile index: sails 0-7, stock 8, waste 9, foundations 10-14
STOCK = SAILS


class MillToy(Game):
    """Windmill-like: 8 sails refilled from the waste, the waste from the stock;
    a centre from an ace up regardless of suit through 52 cards with K-A wrap,
    four king piles down that give cards to the centre and to each other."""

    name = "mill_toy"
    title = "Mill (engine test fixture)"

    def layout(self) -> Layout:
        takes = (KIND_ROW, KIND_WASTE, KIND_FOUNDATION)
        sail = PileSpec(KIND_ROW, build=BUILD_NONE, fill=FILL_REFILL, refill_from=WASTE, slots=1)
        overrides = {f"row{i}": sail for i in range(SAILS)}
        overrides["waste"] = PileSpec(KIND_WASTE, fill=FILL_REFILL, refill_from=STOCK, slots=104)
        overrides["foundation0"] = PileSpec(KIND_FOUNDATION, build=DIR_UP, wrap=True, gives=False,
                                            accepts_from=takes, base=0, limit=52, slots=52)
        king = PileSpec(KIND_FOUNDATION, build=DIR_DOWN, gives=True, accepts_from=takes, base=12, limit=13)
        overrides.update({f"foundation{i}": king for i in range(1, 5)})
        layout = Layout(rows=SAILS, foundations=5, decks=2, stock=True, recycles=1, max_dealt=1,
                        build=BUILD_NONE, empty_fill=FILL_NONE, foundation_mode=FOUNDATION_ANY_SUIT)
        return layout.with_overrides(**overrides)

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        talon = shuffled_talon(deal_number, decks=2)
        talon.remove(0)
        piles = {"foundation0": [0]}
        piles.update({f"row{i}": [talon.pop()] for i in range(SAILS)})
        piles["waste"] = [talon.pop()]
        piles["stock"] = talon
        return piles


class FanToy(Game):
    """La Belle Lucie-like: 18 fans building down in suit, never refilled, two
    redeals in threes from the chance tape, then one draw."""

    name = "fan_toy"
    title = "Fans (engine test fixture)"

    def layout(self) -> Layout:
        return Layout(rows=18, build=BUILD_DOWN_SAME_SUIT, empty_fill=FILL_NONE, max_dealt=3, redeals=2,
                      draws=1, redeal_group=3)

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        talon = shuffled_talon(deal_number)
        fans: list[list[int]] = [[] for _ in range(18)]
        for count in (17, 17, 18):
            for fan in fans[:count]:
                fan.append(talon.pop())
        return {f"row{i}": cards for i, cards in enumerate(fans)}
