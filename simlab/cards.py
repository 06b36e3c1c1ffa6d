"""Cards as small integers, and the notation of PySolFC and Freecell Solver.

A card is ``52 * deck + 13 * suit + (rank - 1)`` with suits in PySolFC's order
C=0, S=1, H=2, D=3 and ranks A=1 .. K=13. So ``card % 13`` is the rank index
(0 for an ace) and ``(card // 13) % 4`` the suit. Text is rank then suit: ``TD``, ``AS``.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "CSHD"
CARDS_PER_DECK = 52


def suit_of(card: int) -> int:
    """Suit index in PySolFC's order C, S, H, D."""
    return (card // 13) % 4


def card_text(card: int) -> str:
    """``"TD"`` for the ten of diamonds."""
    return RANKS[card % 13] + SUITS[suit_of(card)]


def parse_card(text: str, deck: int = 0) -> int:
    """The card for ``"TD"`` (``"10D"`` is accepted too) in the given deck."""
    cleaned = text.strip().upper().replace("10", "T")
    if len(cleaned) != 2 or cleaned[0] not in RANKS or cleaned[1] not in SUITS:
        raise ValueError(f"Not a card: {text!r}; expected rank {RANKS} then suit {SUITS}, like 'TD'.")
    return CARDS_PER_DECK * deck + 13 * SUITS.index(cleaned[1]) + RANKS.index(cleaned[0])
