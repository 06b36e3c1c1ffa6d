"""PySolFC's deal generator: deal number N gives the layout PySolFC shows for game N.

Pure functions of the game number, no global random state. See docs/rules.md section 0:
game numbers below 32000 use Microsoft's linear congruential generator (and a
rank-major reordering of 52-card packs); larger numbers use Python's Mersenne
Twister seeded with the number. The shuffle is Fisher-Yates from the end. The
LAST card of the returned talon is its top, the first one dealt.
"""

from __future__ import annotations

import random
from typing import Callable

import numpy as np

from simlab.cards import CARDS_PER_DECK

MS_LIMIT = 32000  # PySolFC switches generator at game numbers >= 32000
_MS_SUIT_OFFSETS = (0, 39, 26, 13)  # rank-major order with suits C, D, H, S


def ordered_pack(decks: int = 1) -> list[int]:
    """Card ids in PySolFC's creation order: per deck, suits C,S,H,D, ranks A..K."""
    return list(range(CARDS_PER_DECK * decks))


def _ms_reorder(cards: list[int]) -> list[int]:
    """Microsoft FreeCell's rank-major order, applied by PySolFC to 52-card packs."""
    if len(cards) != CARDS_PER_DECK:
        return cards
    return [cards[i + _MS_SUIT_OFFSETS[k]] for i in range(13) for k in range(4)]


def _ms_randint_source(game_number: int) -> Callable[[int], int]:
    """randint(0, n) of PySolFC's LCRandom31 for game numbers below 32000."""
    state = game_number

    def randint(n: int) -> int:
        nonlocal state
        state = (state * 214013 + 2531011) & 0xFFFFFFFF
        return ((state >> 16) & 0x7FFF) % (n + 1)

    return randint


def _mt_randint_source(game_number: int) -> Callable[[int], int]:
    """randint(0, n) of PySolFC's MTRandom (a private random.Random, never the global one)."""
    generator = random.Random(game_number)
    return lambda n: int(generator.random() * (n + 1))


def _check_game_number(game_number: int) -> None:
    if not isinstance(game_number, int) or isinstance(game_number, bool) or game_number < 1:
        raise ValueError(f"A deal number must be an int of at least 1. Got {game_number!r}.")


def chance_tape(game_number: int, decks: int, count: int) -> np.ndarray:
    """The ``count`` numbers PySolFC's random stream for ``game_number`` yields
    after the deal's shuffle, for the shuffles of redeals during play
    (``simlab.engine.moves.redeal_using``): ``tape[0]`` names the generator (0.0:
    Microsoft's LCG, whose raw 15-bit values follow; 1.0: the Mersenne Twister,
    whose ``random()`` values follow)."""
    _check_game_number(game_number)
    shuffle_draws = CARDS_PER_DECK * decks - 1
    tape = np.empty(count + 1, dtype=np.float64)
    if game_number < MS_LIMIT:
        tape[0] = 0.0
        state = game_number
        for index in range(shuffle_draws + count):
            state = (state * 214013 + 2531011) & 0xFFFFFFFF
            if index >= shuffle_draws:
                tape[index - shuffle_draws + 1] = (state >> 16) & 0x7FFF
        return tape
    generator = random.Random(game_number)
    for _ in range(shuffle_draws):
        generator.random()
    tape[0] = 1.0
    tape[1:] = [generator.random() for _ in range(count)]
    return tape


def shuffled_talon(game_number: int, decks: int = 1) -> list[int]:
    """The talon PySolFC builds for ``game_number`` before any game hook.

    Args:
        game_number: PySolFC's game number, at least 1.
        decks: number of 52-card decks.

    Returns:
        Card ids; the last one is the top of the talon (dealt first).
    """
    _check_game_number(game_number)
    cards = ordered_pack(decks)
    if game_number < MS_LIMIT:
        cards = _ms_reorder(cards)
        randint = _ms_randint_source(game_number)
    else:
        randint = _mt_randint_source(game_number)
    for n in range(len(cards) - 1, 0, -1):
        j = randint(n)
        cards[n], cards[j] = cards[j], cards[n]
    return cards


def is_ace(card: int) -> bool:
    return card % 13 == 0


def aces_to_bottom(talon: list[int]) -> list[int]:
    """PySolFC's ``_shuffleHookMoveToBottom`` for the aces (Beleaguered Castle,
    Trefoil): the other cards keep their order, the aces go under them, so that
    they are dealt last, the ace of clubs first (suit order C, S, H, D)."""
    aces = sorted((card for card in talon if is_ace(card)), key=lambda card: -(card // 13))
    return aces + [card for card in talon if not is_ace(card)]


def aces_to_top(talon: list[int]) -> list[int]:
    """PySolFC's hook for Citadel: the aces on top (dealt first, to their
    foundations), the ace of clubs first; the other cards keep their order."""
    aces = sorted((card for card in talon if is_ace(card)), key=lambda card: -(card // 13))
    return [card for card in talon if not is_ace(card)] + aces


def deal_rounds(talon: list[int], pile_count: int, rounds: int) -> list[list[int]]:
    """Deal ``rounds`` full rounds from the top of ``talon`` (mutated) to piles 0..k-1."""
    piles: list[list[int]] = [[] for _ in range(pile_count)]
    for _ in range(rounds):
        for pile in piles:
            pile.append(talon.pop())
    return piles


def deal_partial_round(talon: list[int], piles: list[list[int]], count: int) -> None:
    """Deal one card from the top of ``talon`` to each of piles 0..count-1."""
    for pile in piles[:count]:
        pile.append(talon.pop())
