"""Castle of Indolence (PySolFC id 393; docs/rules.md section 8).

Two decks. 13 rounds go to four reserves of 13 cards, then the other 52 cards
round-robin to eight rows (rows 0-3 hold 7, rows 4-7 hold 6). Rows build down
by one rank regardless of suit, one card at a time, and any card fills an
empty row. Only a reserve's top card plays (to a foundation or a row) and
nothing goes onto a reserve. Eight foundations build up regardless of suit,
each from any ace to its king.

The reserves are squared: a player sees only their tops (the observation hides
the rest), so the solver, which sees every card, gives ``thoughtful`` verdicts.
"""

from __future__ import annotations

from simlab.deals import deal_partial_round, deal_rounds, shuffled_talon
from simlab.engine.game import Game
from simlab.engine.layout import FOUNDATION_ANY_SUIT, VISIBLE_TOP, Layout
from simlab.games.castle_dealing import name_rows
from simlab.games.catalog import register_game


@register_game
class CastleOfIndolence(Game):
    name = "castle_of_indolence"
    title = "Castle of Indolence"
    pysol_id = 393

    def layout(self) -> Layout:
        return Layout(
            rows=8,
            reserves=4,
            foundations=8,
            decks=2,
            foundation_mode=FOUNDATION_ANY_SUIT,
            max_dealt=7,
            reserve_size=13,
            reserve_visible=VISIBLE_TOP,
        )

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        talon = shuffled_talon(deal_number, decks=2)
        reserves = deal_rounds(talon, 4, 13)
        rows = deal_rounds(talon, 8, 6)
        deal_partial_round(talon, rows, 4)
        piles = name_rows(rows)
        piles.update({f"reserve{i}": cards for i, cards in enumerate(reserves)})
        return piles
