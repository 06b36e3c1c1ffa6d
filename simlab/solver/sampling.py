"""Determinized sampling of a face-down stock: the decisions of the fair
player of a game whose only hidden cards are a face-down stock (Windmill;
the player: ``simlab.policies.fair_stock``).

What the player knows (``advance``): what it has seen, remembered (after a pass
of the waste back to the stock it still knows the stock's order, as a real
player would). The cards it has not seen are, from its point of view, in a
uniformly random order in the hidden slots; their number per pile is known.

How it decides (``choose``): it draws ``samples`` completions of what it knows
(the unseen cards in a uniformly random order, from its own generator) and
solves each full position with the thoughtful search; ``sample_budget`` is the
positions a decision may search, shared equally by its samples (the policy's
defaults, 16 and 200,000, give each sample 12,500). A winning line is cut
before its first move that reveals a hidden card (a turn of the stock, or a
move whose refill chain shows a stock card): until then the line needs nothing
the player does not know (stretches that come back to a position are dropped).
Lines are grouped by the position hash their cut reaches; the player takes the
most frequent group (ties: most cards home, then the group found first), plays
its first line's moves and the revealing move that line made next, sees the new
card, and decides again. It stops sampling once the leading group cannot be
caught, or when half its samples are drawn and none won. If no sample wins, it
plays every sail or waste card that goes home and turns the stock
(``fallback_line``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.engine import kernel, moves
from simlab.engine.game import MAX_LEGAL_MOVES, NO_CHANCE, Game
from simlab.engine.layout import (
    FIRST_FOUNDATION,
    MOVE_BASE,
    MOVE_CARD,
    MOVE_RECYCLE,
    MOVE_TURN,
    OFFSET_HEIGHTS,
    P_VISIBLE,
    STOCK_PILE,
    VISIBLE_ALL,
)
from simlab.engine.moves import HIDDEN
from simlab.solver import SolverError
from simlab.solver.plan import plan_for
from simlab.solver.portfolio import portfolio_search
from simlab.solver.search import STATUS_WON


def hides_only_a_stock(game: Game) -> bool:
    """Whether the stock is the only pile a player cannot see all of (and no shuffle is to come)."""
    stock = int(game.rules[STOCK_PILE])
    hidden = [pile for pile in range(len(game.pile_names)) if kernel.spec(game.rules, pile, P_VISIBLE) != VISIBLE_ALL]
    return stock >= 0 and hidden == [stock] and not game.has_chance


# ----- what the player knows ------------------------------------------------------


def card_slots(game: Game) -> slice:
    """The part of a position array that holds the piles' cards."""
    return slice(0, int(game.rules[OFFSET_HEIGHTS]))


def advance(game: Game, known: np.ndarray, code: int, seen: np.ndarray) -> tuple[np.ndarray, bool]:
    """What the player knows after ``code``: ``known`` moved by the rules
    (a hidden card moves as ``HIDDEN``), then every card ``seen`` (the
    observation after the move) shows where it knew none. Returns it and
    whether a card was revealed."""
    after = known.copy()
    moves.play(game.rules, after, code, NO_CHANCE, np.empty_like(after))
    cards, shown = after[card_slots(game)], seen[card_slots(game)]
    if np.any((cards >= 0) & (shown >= 0) & (cards != shown)) or np.any(after[len(cards):] != seen[len(cards):]):
        raise AssertionError(f"{game.name}: what the player knows disagrees with what it sees")
    revealed = (cards == HIDDEN) & (shown != HIDDEN)
    cards[revealed] = shown[revealed]
    return after, bool(revealed.any())


def unseen_cards(game: Game, known: np.ndarray) -> np.ndarray:
    """Every card of the game the player has not seen, in id order."""
    cards = known[card_slots(game)]
    return np.setdiff1d(np.arange(game.table.n_cards), cards[cards >= 0])


def complete(game: Game, known: np.ndarray, order: np.ndarray) -> np.ndarray:
    """A full position: ``known`` with its hidden slots filled by ``order`` (bottom to top)."""
    sample = known.copy()
    cards = sample[card_slots(game)]
    slots = np.flatnonzero(cards == HIDDEN)
    if len(slots) != len(order):
        raise AssertionError(f"{game.name}: {len(slots)} hidden slots for {len(order)} unseen cards")
    cards[slots] = order
    return sample


def knows_everything(game: Game, known: np.ndarray) -> bool:
    return not np.any(known[card_slots(game)] == HIDDEN)


# ----- one sampled line --------------------------------------------------------------


@dataclass
class Line:
    """A winning line of a sample, cut before its first revealing move."""

    prefix: list[int]
    reveal: int | None  # the revealing move it made next (None: it won without one)
    key: int  # the position hash the prefix reaches
    cards_home: int


def cut_line(game: Game, known: np.ndarray, sample: np.ndarray, codes: list[int]) -> Line:
    """``codes`` (a line from ``sample``) up to its first move that reveals a card
    the player has not seen, without the stretches that come back to a position
    (the search's lines shuffle cards between foundations on the way)."""
    record = np.empty_like(sample)
    sample = sample.copy()
    prefix: list[int] = []
    trail = [known.tobytes()]  # trail[i]: the position after prefix[:i]
    for code in codes:
        if code not in legal_codes(game, sample):
            raise SolverError(f"{game.name}: the search's winning line makes an illegal move")
        moves.play(game.rules, sample, code, NO_CHANCE, record)
        after, revealed = advance(game, known, code, observe(game, sample))
        if revealed:
            return Line(prefix, code, position_key(game, known), game_cards_home(game, known))
        known = after
        position = known.tobytes()
        if position in trail:  # a loop: drop it
            start = trail.index(position)
            del prefix[start:], trail[start + 1:]
        else:
            prefix.append(code)
            trail.append(position)
    return Line(prefix, None, position_key(game, known), game_cards_home(game, known))


def observe(game: Game, array: np.ndarray) -> np.ndarray:
    out = np.empty_like(array)
    moves.observe(game.rules, array, out)
    return out


def position_key(game: Game, known: np.ndarray) -> int:
    """The position hash the solver uses (alike up to the order of the sails and
    of the king piles, and in Windmill up to the suits and decks of equal
    ranks) of what the player knows; hidden cards hash alike."""
    return int(kernel.position_hash(game.rules, known, kernel.search_zobrist(game.rules)))


def game_cards_home(game: Game, known: np.ndarray) -> int:
    return int(kernel.foundation_cards(game.rules, known))


# ----- a decision -------------------------------------------------------------------


@dataclass
class Group:
    """The sampled lines whose prefixes reach one position (up to the order of
    interchangeable piles, as the position hash sees it)."""

    first: Line
    count: int = 0

    def moves(self) -> list[int]:
        """The first line's prefix and its revealing move (another line's moves
        may name other piles: the position hash ignores the order of the sails)."""
        return self.first.prefix + ([] if self.first.reveal is None else [self.first.reveal])


def search(game: Game, array: np.ndarray, budget: int, table_bits: int) -> tuple[int, int, list[int]]:
    """The thoughtful search (``simlab.solver.solve``'s) of a full position: (status, positions, line)."""
    status, nodes, codes = portfolio_search(game, plan_for(game), array, NO_CHANCE, budget, table_bits)
    return int(status), int(nodes), [int(code) for code in codes]


def settled(groups: dict[int, Group], drawn: int, samples: int) -> bool:
    """Whether to stop drawing: the leading group stays ahead whatever the
    samples still to draw find, or half of them are drawn and none won (a
    position that bad is lost whatever is played; it saves half the cost of
    the hopeless decisions, the most costly ones)."""
    counts = sorted((group.count for group in groups.values()), reverse=True) + [0, 0]
    return counts[0] > counts[1] + samples - drawn or (not groups and 2 * drawn >= samples)


def choose(game: Game, known: np.ndarray, rng: np.random.Generator, samples: int, per_sample: int,
           table_bits: int) -> tuple[list[int] | None, int]:
    """The moves to play up to and including the next reveal (module docstring),
    None when no sample wins; and the positions searched (at most ``per_sample`` a sample)."""
    unseen = unseen_cards(game, known)
    groups: dict[int, Group] = {}
    nodes = 0
    for drawn in range(1, samples + 1):
        sample = complete(game, known, rng.permutation(unseen))
        status, spent, codes = search(game, sample, per_sample, table_bits)
        nodes += spent
        if status == STATUS_WON:
            line = cut_line(game, known, sample, codes)
            groups.setdefault(line.key, Group(line)).count += 1
        if settled(groups, drawn, samples):
            break
    if not groups:
        return None, nodes
    best = max(groups.values(), key=lambda group: (group.count, group.first.cards_home))  # first found on ties
    return best.moves(), nodes


def fallback_line(game: Game, known: np.ndarray) -> list[int]:
    """When no sample wins: every sail or waste card that goes home (first in
    move order), then a turn of the stock (or a pass of the waste), up to the
    first move that reveals a card. Fair: it reads only ``known``."""
    sample = complete(game, known, unseen_cards(game, known))  # any filling shows where a reveal happens
    line: list[int] = []
    while True:
        code = fallback_move(game, known)
        if code is None:  # (not in Windmill, where the stock can be turned while it hides a card)
            return line or legal_codes(game, known)[:1]
        line.append(code)
        moves.play(game.rules, sample, code, NO_CHANCE, np.empty_like(sample))
        known, revealed = advance(game, known, code, observe(game, sample))
        if revealed:
            return line


def fallback_move(game: Game, known: np.ndarray) -> int | None:
    """A card from a non-foundation pile onto a foundation, else a turn or a pass; None if neither."""
    codes = legal_codes(game, known)
    first_foundation = int(game.rules[FIRST_FOUNDATION])
    for code in codes:
        source, destination = (code // MOVE_BASE) % MOVE_BASE, code % MOVE_BASE
        if kernel.move_kind(code) == MOVE_CARD and source < first_foundation <= destination:
            return code
    for code in codes:
        if kernel.move_kind(code) in (MOVE_TURN, MOVE_RECYCLE):
            return code
    return None


def legal_codes(game: Game, array: np.ndarray) -> list[int]:
    out = np.empty(MAX_LEGAL_MOVES, dtype=np.int32)
    return out[: kernel.legal_moves(game.rules, array, out)].tolist()

