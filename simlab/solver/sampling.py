"""Determinized sampling of hidden cards: the decisions of the fair player of
a game whose hidden cards are dealt once and never shuffled (Windmill's
face-down stock, Castle of Indolence's squared reserves; the player:
``simlab.policies.fair_hidden``). One code path serves both: a hidden card may
lie in any pile, and the rules engine says when a move shows one.

What the player knows (``advance``): what it has seen, remembered (after a pass
of the waste back to the stock it still knows the stock's order, as a real
player would). The cards it has not seen are, from its point of view, in a
uniformly random order in the hidden slots; their number per pile is known.

How it decides (``choose``): it draws completions of what it knows (the unseen
cards in a uniformly random order, from its own generator) one at a time and
solves each full position with the thoughtful search, at most ``per_sample``
positions each. A winning line is cut before its first move that reveals a
hidden card (a turn of the stock, a move whose refill chain shows a stock card,
a reserve's top card moved off a squared card): until then the line needs
nothing the player does not know (stretches that come back to a position are
dropped). Lines are grouped by the position hash their cut reaches; the player
takes the most frequent group (ties: most cards home, then the group found
first), plays its first line's moves and the revealing move that line made
next, sees the new card, and decides again.

When it stops drawing (``settled``): after ``samples`` completions; once the
leading group cannot be caught; once ``agree`` winning completions agree and
none disagrees; or once ``give_up`` completions are drawn and none won (the
position is then all but lost whatever is played, and such hopeless decisions
are the costly ones: every failed search spends its whole budget). If no
completion wins, it plays every card that goes home from a pile that is not a
foundation and then a move that reveals a card (a turn of the stock first;
``fallback_line``).
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
    VISIBLE_ALL,
)
from simlab.engine.moves import HIDDEN
from simlab.solver import SolverError
from simlab.solver.plan import plan_for
from simlab.solver.portfolio import portfolio_search
from simlab.solver.search import STATUS_WON


def plays_by_sampling(game: Game) -> bool:
    """Whether the game hides cards that are dealt once and never shuffled (a face-down
    stock, squared reserves): what ``choose`` samples. A game with shuffles to come is
    played by ``simlab.solver.fair`` instead."""
    hidden = [pile for pile in range(len(game.pile_names)) if kernel.spec(game.rules, pile, P_VISIBLE) != VISIBLE_ALL]
    return bool(hidden) and not game.has_chance


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
    return int(kernel.position_hash(game.rules, known, plan_for(game).zobrist))


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


@dataclass(frozen=True)
class Effort:
    """How hard a decision samples (module docstring): at most ``samples``
    completions of ``per_sample`` positions each; stop once ``agree`` winning
    completions agree with none against, or ``give_up`` are drawn and none won.
    With ``cross_checks`` > 0 and no such agreement, each of the three leading
    groups is also solved on that many fresh completions (``cross_check``)."""

    samples: int
    per_sample: int
    agree: int = 2
    give_up: int = 3
    cross_checks: int = 0


def settled(groups: dict[int, Group], drawn: int, effort: Effort) -> bool:
    """Whether to stop drawing: the leading group stays ahead whatever the
    completions still to draw find, or ``effort.agree`` of them agree and none
    disagrees, or ``effort.give_up`` are drawn and none won."""
    counts = sorted((group.count for group in groups.values()), reverse=True) + [0, 0]
    return (drawn >= effort.samples or counts[0] > counts[1] + effort.samples - drawn
            or (counts[0] >= effort.agree and counts[1] == 0) or (not groups and drawn >= effort.give_up))


def choose(game: Game, known: np.ndarray, rng: np.random.Generator, effort: Effort,
           table_bits: int) -> tuple[list[int] | None, int]:
    """The moves to play up to and including the next reveal (module docstring),
    None when no completion wins; and the positions searched."""
    unseen = unseen_cards(game, known)
    groups: dict[int, Group] = {}
    nodes = drawn = 0
    while not settled(groups, drawn, effort):
        drawn += 1
        sample = complete(game, known, rng.permutation(unseen))
        status, spent, codes = search(game, sample, effort.per_sample, table_bits)
        nodes += spent
        if status == STATUS_WON:
            line = cut_line(game, known, sample, codes)
            groups.setdefault(line.key, Group(line)).count += 1
    if not groups:
        return None, nodes
    ranked = sorted(groups.values(), key=lambda group: (group.count, group.first.cards_home), reverse=True)
    if effort.cross_checks and ranked[0].count < effort.agree:  # (sorted is stable: first found on ties)
        ranked, spent = cross_check(game, known, rng, ranked[:3], effort, table_bits)
        nodes += spent
    return ranked[0].moves(), nodes


def cross_check(game: Game, known: np.ndarray, rng: np.random.Generator, candidates: list[Group],
                effort: Effort, table_bits: int) -> tuple[list[Group], int]:
    """``candidates`` ranked by their count plus the fresh completions they win: each
    candidate's prefix (which reads no hidden card) is played and the position it
    reaches, before the reveal, is solved with ``effort.cross_checks`` fresh completions
    (the same ones for every candidate). A group found by one completion may win only
    for that completion's hidden cards; this keeps the player from following it blindly."""
    unseen = unseen_cards(game, known)
    orders = [rng.permutation(unseen) for _ in range(effort.cross_checks)]
    nodes, scores = 0, []
    for group in candidates:
        reached = known.copy()
        for code in group.first.prefix:
            moves.play(game.rules, reached, code, NO_CHANCE, np.empty_like(reached))
        wins = 0
        for order in orders:
            status, spent, _ = search(game, complete(game, reached, order), effort.per_sample, table_bits)
            nodes += spent
            wins += status == STATUS_WON
        scores.append(group.count + wins)
    order_of = sorted(range(len(candidates)), key=lambda index: -scores[index])
    return [candidates[index] for index in order_of], nodes


def fallback_line(game: Game, known: np.ndarray) -> list[int]:
    """When no completion wins: every card that goes home from a pile that is not
    a foundation (first in move order), then a move that reveals a card (a turn of
    the stock or a pass of the waste first), up to that reveal; empty when no such
    move is left. Fair: it reads only ``known``."""
    sample = complete(game, known, unseen_cards(game, known))  # any filling shows where a reveal happens
    line: list[int] = []
    while True:
        code = fallback_move(game, known, sample)
        if code is None:  # (not in Windmill, where the stock can be turned while it hides a card)
            return line
        line.append(code)
        moves.play(game.rules, sample, code, NO_CHANCE, np.empty_like(sample))
        known, revealed = advance(game, known, code, observe(game, sample))
        if revealed:
            return line


def natural_reveal(game: Game, code: int) -> bool:
    """Whether ``code`` is a turn of the stock, a pass of the waste or a card going home
    from a pile that is not a foundation (the fallback's moves that need no search)."""
    source, destination = (code // MOVE_BASE) % MOVE_BASE, code % MOVE_BASE
    first_foundation = int(game.rules[FIRST_FOUNDATION])
    kind = kernel.move_kind(code)
    return kind in (MOVE_TURN, MOVE_RECYCLE) or (kind == MOVE_CARD and source < first_foundation <= destination)


def fallback_move(game: Game, known: np.ndarray, sample: np.ndarray) -> int | None:
    """A card from a non-foundation pile onto a foundation, else a turn or a pass,
    else the first move that reveals a card of ``sample`` (a completion of ``known``); None if none."""
    codes = legal_codes(game, known)
    first_foundation = int(game.rules[FIRST_FOUNDATION])
    for code in codes:
        source, destination = (code // MOVE_BASE) % MOVE_BASE, code % MOVE_BASE
        if kernel.move_kind(code) == MOVE_CARD and source < first_foundation <= destination:
            return code
    for code in codes:
        if kernel.move_kind(code) in (MOVE_TURN, MOVE_RECYCLE):
            return code
    for code in codes:
        after = sample.copy()
        moves.play(game.rules, after, code, NO_CHANCE, np.empty_like(after))
        if advance(game, known, code, observe(game, after))[1]:
            return code
    return None


def legal_codes(game: Game, array: np.ndarray) -> list[int]:
    out = np.empty(MAX_LEGAL_MOVES, dtype=np.int32)
    return out[: kernel.legal_moves(game.rules, array, out)].tolist()

