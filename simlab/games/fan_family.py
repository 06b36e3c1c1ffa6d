"""What La Belle Lucie, Trefoil and Fan share: fans built down in suit, their
layout as pile specs, and PySolFC's deals of them (docs/rules.md section 9).

A fan is a row (``row0..``) whose cards are all face up and of which only the
top card moves. Foundations are by suit from the ace (foundation ``i`` holds
suit ``i``: C, S, H, D).
"""

from __future__ import annotations

from typing import Any, Mapping

from simlab.deals import shuffled_talon
from simlab.engine.layout import (
    BUILD_DOWN_SAME_SUIT,
    DIR_UP,
    FILL_NONE,
    KIND_CELL,
    KIND_FOUNDATION,
    KIND_RESERVE,
    KIND_ROW,
    KIND_WASTE,
    Layout,
    PileSpec,
)
from simlab.params import Param

FANS = 18
FAN_SIZE = 3  # cards per fan at the deal and after a redeal (the last fan holds fewer)

REDEALS_DOC = "redeals (gather, shuffle from the deal's random stream, deal in threes) the player may take"
DRAW_DOC = "Hoyle's draw: once no redeal is left, one card may be pulled from under a fan's top and played"
FOUNDATION_RETURN_DOC = (
    "a foundation's top card may go back onto a fan that takes it (PySolFC allows it; once no redeal is ahead "
    "it never helps, fans building down in suit: docs/rules.md section 9)"
)


def foundation_return_param(default: bool) -> Param:
    return Param(bool, default, FOUNDATION_RETURN_DOC)


def redeal_parameters() -> dict[str, Param]:
    """The parameters of La Belle Lucie and Trefoil: redeals, Hoyle's draw, foundation_return."""
    return {
        "redeals": Param(int, 2, REDEALS_DOC, low=0, high=10),
        "draw": Param(bool, False, DRAW_DOC),
        "foundation_return": foundation_return_param(False),
    }


def redeal_layout(fans: int, params: Mapping[str, Any], aces_stay: bool = False) -> Layout:
    """La Belle Lucie's and Trefoil's fans (never filled) under ``redeal_parameters``."""
    return fan_layout(fans, FILL_NONE, redeals=params["redeals"], draws=int(params["draw"]),
                      foundation_return=params["foundation_return"], aces_stay=aces_stay)


def fan_layout(fans: int, empty_fill: int, redeals: int = 0, draws: int = 0,
               foundation_return: bool = False, aces_stay: bool = False) -> Layout:
    """Fans building down in suit, one card at a time, and four foundations by
    suit from the ace; with ``foundation_return`` a foundation's top card may
    go back onto a fan (the fans then accept cards from foundations), except
    the ace when ``aces_stay`` (Trefoil's aces, dealt to the foundations)."""
    layout = Layout(rows=fans, build=BUILD_DOWN_SAME_SUIT, empty_fill=empty_fill, max_dealt=FAN_SIZE,
                    redeals=redeals, draws=draws, redeal_group=FAN_SIZE)
    if not foundation_return:
        return layout
    sources = (KIND_ROW, KIND_CELL, KIND_RESERVE, KIND_WASTE)
    fan = PileSpec(KIND_ROW, build=BUILD_DOWN_SAME_SUIT, fill=empty_fill, accepts_from=(*sources, KIND_FOUNDATION),
                   slots=FAN_SIZE + 13)
    overrides = {f"row{i}": fan for i in range(fans)}
    for suit in range(4):
        overrides[f"foundation{suit}"] = PileSpec(KIND_FOUNDATION, build=DIR_UP, gives=True, keeps=int(aces_stay),
                                                  accepts_from=sources, base=0, suit=suit)
    return layout.with_overrides(**overrides)


def fans_of(fans: list[list[int]]) -> dict[str, list[int]]:
    return {f"row{i}": cards for i, cards in enumerate(fans)}


def pysolfc_fans(deal_number: int) -> list[list[int]]:
    """PySolFC's Fan and La Belle Lucie deal: two rounds to fans 0-16, then one
    round to all 18 (17 fans of three and a last fan of one)."""
    talon = shuffled_talon(deal_number)
    fans: list[list[int]] = [[] for _ in range(FANS)]
    for count in (FANS - 1, FANS - 1, FANS):
        for fan in fans[:count]:
            fan.append(talon.pop())
    return fans


def round_robin_fans(deal_number: int) -> list[list[int]]:
    """Blake and Gent's Fan deal: the shuffled pack dealt one card at a time
    round-robin over 18 fans from the top of the talon (fans 0-15 get three
    cards, fans 16 and 17 two)."""
    talon = shuffled_talon(deal_number)
    fans: list[list[int]] = [[] for _ in range(FANS)]
    index = 0
    while talon:
        fans[index % FANS].append(talon.pop())
        index += 1
    return fans
