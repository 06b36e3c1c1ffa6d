"""Windmill (PySolFC id 30, also called Propeller; docs/rules.md section 10).

Two packs. A centre foundation starts with the ace of clubs and builds up
regardless of suit, wrapping K-A, to 52 cards; four king piles take any king
and build down regardless of suit to the ace. Eight one-card sails are
refilled at once from the waste, the waste from the stock, turned one card at
a time with no redeal. Cards move freely between the foundations.

The rule sets of the sources differ a lot, so each difference is a parameter
(``transfer``, ``centre_to_king``, ``redeals``) and John Welford's rules as a
whole are one more (``welford``: separate packs, four two-card sails filled
only when the stock is turned, the first-queen limit during pack one);
``reversed`` is Wikipedia's alternate variation, the same game with every rank
r read as 14 - r: its layout, deals and rules are Windmill's, and only the
names of its cards differ (``rank_label``). The stock is face down, so the solver, which sees it, gives
``thoughtful`` verdicts.
"""

from __future__ import annotations

from typing import Any, Mapping

from simlab.deals import shuffled_talon
from simlab.engine.game import Game
from simlab.engine.layout import (
    ALWAYS,
    BUILD_NONE,
    DIR_DOWN,
    DIR_UP,
    FILL_NONE,
    FILL_ON_TURN,
    FILL_REFILL,
    FOUNDATION_ANY_SUIT,
    KIND_FOUNDATION,
    KIND_ROW,
    KIND_WASTE,
    NO_ROW_FITS,
    Layout,
    PileSpec,
    last_not_from,
    stock_deeper,
)
from simlab.games.catalog import register_game
from simlab.params import Param

SAILS = 8
WELFORD_SAILS = 4
WELFORD_SAIL_DEPTH = 2
PACK = 52
CENTRE_LIMIT = 52  # four runs of A..K
FIRST_QUEEN = 12  # Welford: cards the centre holds at most while pack one is in the stock
KING_PILES = tuple(f"foundation{i}" for i in range(1, 5))

# When the centre takes a king pile's card, by rule set (``transfer``; none: the king piles never give)
TRANSFERS = {"free": ALWAYS, "strict": last_not_from(KIND_FOUNDATION), "none": ALWAYS, "welford": NO_ROW_FITS}
TRANSFER_DOC = (
    "what a king pile's top card may do: free (PySolFC: to the centre or another king pile, any number in a row), "
    "strict (Wikipedia: to the centre only, never two borrowed cards in a row), none (never moves), welford "
    "(to the centre only, never the pile's king, only while no sail card fits there; a complete pile is dead)"
)
CENTRE_TO_KING_DOC = "the centre's top card (never its base card) may go to a king pile that takes it"
REDEALS_DOC = "passes of the waste back to the stock (turned over, not shuffled) once the stock is empty"
WELFORD_DOC = (
    "John Welford's rules: the packs played one after the other, four sails of two cards filled from the stock "
    "only when it is turned, the centre stops at its first queen during pack one; transfer, centre_to_king and "
    "redeals default to his (welford, false, 1)"
)
REVERSED_DOC = "Wikipedia's alternate variation: every rank r becomes 14-r (a king centre building down, ace piles up)"
WELFORD_DEFAULTS = {"transfer": "welford", "centre_to_king": False, "redeals": 1}


@register_game
class Windmill(Game):
    name = "windmill"
    title = "Windmill"
    pysol_id = 30
    parameters = {
        "transfer": Param(str, "free", TRANSFER_DOC, choices=tuple(TRANSFERS)),
        "centre_to_king": Param(bool, True, CENTRE_TO_KING_DOC),
        "redeals": Param(int, 0, REDEALS_DOC, low=0, high=2),
        "welford": Param(bool, False, WELFORD_DOC),
        "reversed": Param(bool, False, REVERSED_DOC),
    }

    @classmethod
    def settle_params(cls, given: Mapping[str, Any], resolved: dict[str, Any]) -> dict[str, Any]:
        """Under ``welford``, the parameters a user left out take Welford's values
        (so the recorded parameters are the rules in force)."""
        if resolved["welford"]:
            for key, value in WELFORD_DEFAULTS.items():
                if key not in given:
                    resolved[key] = value
        return resolved

    def layout(self) -> Layout:
        welford = self.params["welford"]
        sails = WELFORD_SAILS if welford else SAILS
        stock, waste = sails, sails + 1
        if welford:
            sail = PileSpec(KIND_ROW, build=BUILD_NONE, fill=FILL_ON_TURN, refill_from=stock,
                            limit=WELFORD_SAIL_DEPTH, slots=WELFORD_SAIL_DEPTH)
            waste_spec = PileSpec(KIND_WASTE, slots=2 * PACK)
        else:
            sail = PileSpec(KIND_ROW, build=BUILD_NONE, fill=FILL_REFILL, refill_from=waste, slots=1)
            waste_spec = PileSpec(KIND_WASTE, fill=FILL_REFILL, refill_from=stock, slots=2 * PACK)
        overrides = {f"row{i}": sail for i in range(sails)}
        overrides["waste"] = waste_spec
        overrides["foundation0"] = self.centre()
        overrides.update({name: self.king_pile(name) for name in KING_PILES})
        layout = Layout(rows=sails, foundations=5, decks=2, stock=True, build=BUILD_NONE, empty_fill=FILL_NONE,
                        max_dealt=WELFORD_SAIL_DEPTH if welford else 1, foundation_mode=FOUNDATION_ANY_SUIT,
                        recycles=self.params["redeals"], suits_matter=False)
        return layout.with_overrides(**overrides)

    def rank_label(self, rank: int) -> int:
        """Reversed: rank r (1..13) read as 14 - r; the kernels play Windmill."""
        return 12 - rank if self.params["reversed"] else rank

    def centre(self) -> PileSpec:
        """The centre: from its dealt ace by one rank, any suit, wrapping, to 52 cards."""
        takes_transfers = self.params["transfer"] != "none"
        sources = (KIND_ROW, KIND_WASTE, KIND_FOUNDATION) if takes_transfers else (KIND_ROW, KIND_WASTE)
        welford = self.params["welford"]
        return PileSpec(KIND_FOUNDATION, build=DIR_UP, wrap=True,
                        gives=self.params["centre_to_king"], keeps=1, accepts_from=sources,
                        base=0, limit=CENTRE_LIMIT, slots=CENTRE_LIMIT,
                        cap=FIRST_QUEEN if welford else 0, cap_while=stock_deeper(PACK) if welford else ALWAYS,
                        guarded_kinds=(KIND_FOUNDATION,), guard=TRANSFERS[self.params["transfer"]])

    def king_pile(self, name: str) -> PileSpec:
        """A king pile: any king, then down one rank, any suit, to the ace.
        The four are alike: a position's hash ignores their order."""
        transfer = self.params["transfer"]
        takes_foundations = transfer == "free" or self.params["centre_to_king"]
        sources = (KIND_ROW, KIND_WASTE) + ((KIND_FOUNDATION,) if takes_foundations else ())
        # every king pile refuses every king pile's card (a pile never takes its own), so they stay alike
        refused = () if transfer == "free" else KING_PILES
        return PileSpec(KIND_FOUNDATION, build=DIR_DOWN,
                        gives=transfer != "none", keeps=int(transfer == "welford"), accepts_from=sources,
                        refuses=refused, base=12,
                        dead_when_full=transfer == "welford", alike="" if name == KING_PILES[0] else KING_PILES[0])

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        talon = self.talon(deal_number)
        piles = {"foundation0": [talon.pop()]}
        if self.params["welford"]:
            sails: list[list[int]] = [[] for _ in range(WELFORD_SAILS)]
            for _ in range(WELFORD_SAIL_DEPTH):  # the inner cards first, then the outer ones
                for sail in sails:
                    sail.append(talon.pop())
        else:
            sails = [[talon.pop()] for _ in range(SAILS)]
        piles.update({f"row{i}": cards for i, cards in enumerate(sails)})
        piles["waste"] = [talon.pop()]
        piles["stock"] = talon
        return piles

    def talon(self, deal_number: int) -> list[int]:
        """PySolFC's talon of game ``deal_number`` (its end is the top): the two
        packs shuffled together, then the ace of clubs of pack one moved to the
        top. Welford's: the same shuffle with each pack's cards kept in their
        order and pack one above pack two."""
        talon = shuffled_talon(deal_number, decks=2)
        if self.params["welford"]:
            talon = [card for card in talon if card >= PACK] + [card for card in talon if card < PACK]
        talon.remove(0)
        talon.append(0)
        return talon
