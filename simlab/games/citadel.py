"""Citadel (PySolFC id 145, alias Under Siege; docs/rules.md section 3).

Played as Beleaguered Castle; only the deal differs. Sources disagree on it, so
the ``deal`` parameter names the rule:

- ``pysolfc`` (default): the aces go to the foundations first; then passes over
  rows 0-7 turn one card per row, and a card that fits a foundation goes there
  at once (compulsory) and that row gets no card on this pass.
- ``hoyle``: the aces are dealt in with the rest (no hook); an ace turned during
  the deal goes to its foundation and that row is skipped; other cards stay in
  the rows (Hoyle's "may" play is left to the player).
"""

from __future__ import annotations

from simlab.deals import aces_to_top, is_ace, shuffled_talon
from simlab.engine.game import Game
from simlab.engine.layout import Layout
from simlab.games.catalog import register_game
from simlab.params import Param


@register_game
class Citadel(Game):
    name = "citadel"
    title = "Citadel"
    pysol_id = 145
    parameters = {
        "deal": Param(
            str,
            "pysolfc",
            "pysolfc: aces first, cards that fit play home during the deal; "
            "hoyle: aces dealt in, only aces go home during the deal",
            choices=("pysolfc", "hoyle"),
        )
    }

    def layout(self) -> Layout:
        return Layout(rows=8, max_dealt=7)

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        talon = shuffled_talon(deal_number)
        foundations: list[list[int]] = [[] for _ in range(4)]
        if self.params["deal"] == "pysolfc":
            talon = aces_to_top(talon)
            for _ in range(4):
                ace = talon.pop()
                foundations[ace // 13].append(ace)
        rows: list[list[int]] = [[] for _ in range(8)]
        while talon:
            for row in rows:
                if not talon:
                    break
                card = talon.pop()
                if self._goes_home(card, foundations):
                    foundations[card // 13].append(card)
                else:
                    row.append(card)
        piles = {f"row{i}": row for i, row in enumerate(rows)}
        piles.update({f"foundation{i}": cards for i, cards in enumerate(foundations) if cards})
        return piles

    def _goes_home(self, card: int, foundations: list[list[int]]) -> bool:
        """Whether the card just turned goes to its foundation during the deal."""
        if self.params["deal"] == "hoyle":
            return is_ace(card)
        return len(foundations[card // 13]) == card % 13
