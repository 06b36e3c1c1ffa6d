"""Deal helpers shared by the Castle family (docs/rules.md sections 1-5)."""

from __future__ import annotations

from simlab.deals import deal_partial_round, deal_rounds, shuffled_talon


def is_ace(card: int) -> bool:
    return card % 13 == 0


def aces_to_bottom(talon: list[int]) -> list[int]:
    """PySolFC's hook for Beleaguered Castle: aces last, others keep their order."""
    aces = sorted((c for c in talon if is_ace(c)), key=lambda c: -(c // 13))
    return aces + [c for c in talon if not is_ace(c)]


def aces_to_top(talon: list[int]) -> list[int]:
    """PySolFC's hook for Citadel: aces first (dealt to their foundations)."""
    aces = sorted((c for c in talon if is_ace(c)), key=lambda c: -(c // 13))
    return [c for c in talon if not is_ace(c)] + aces


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
