"""Deal helpers shared by the Castle family (docs/rules.md sections 1-5)."""

from __future__ import annotations

from simlab.deals import aces_to_bottom, deal_partial_round, deal_rounds, shuffled_talon


def name_rows(rows: list[list[int]]) -> dict[str, list[int]]:
    return {f"row{i}": cards for i, cards in enumerate(rows)}


def beleaguered_castle_deal(deal_number: int) -> dict[str, list[int]]:
    """Aces to the foundations, 48 cards in 6 rounds to 8 rows."""
    talon = aces_to_bottom(shuffled_talon(deal_number))
    piles = name_rows(deal_rounds(talon, 8, 6))
    for ace in talon:
        piles[f"foundation{ace // 13}"] = [ace]
    return piles


def streets_and_alleys_deal(deal_number: int) -> dict[str, list[int]]:
    """52 cards round-robin: 6 rounds to 8 rows, then 4 more to rows 0-3."""
    talon = shuffled_talon(deal_number)
    rows = deal_rounds(talon, 8, 6)
    deal_partial_round(talon, rows, 4)
    return name_rows(rows)
