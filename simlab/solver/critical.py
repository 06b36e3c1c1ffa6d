"""Critical decisions of a won deal: how unforgiving its winning line is.

Along a line that wins from ``start``, a position where the player has a
choice (more than one legal move) is *critical* when at least one legal move
other than the line's loses: the solver, searching at most ``probe_budget``
positions from the position that move leads to, proves it lost. A move whose
probe runs out of budget is *unknown*, never counted as losing: a position
with no lost alternative but an unknown one is counted apart (``undecided``).

What counts and how:

- Every position of the line with more than one legal move is a position with
  a choice, automatic plays included: the solver's line holds its safe plays
  home (``simlab.solver.autoplay``), and a player may still make another move
  there, so their alternatives are probed like any other.
- Alternatives are compared by the moves the rules engine lists: two moves
  that lead to the same position (a card to either of two empty rows) are two
  moves, but one probe (below).
- The probes see everything, like the solver: in a game with hidden cards or
  shuffles to come a "lost" alternative is lost for a player who knows them
  (``information`` is then ``thoughtful``, ``plan_for(game).information``).

How it keeps the probes few (each is a solver search, the whole cost):

- Every position is known by its hash (``Game.position_hash``, which treats
  rows and cells as interchangeable, as the solver's table does). Positions of
  the line are won; so is every position along a probe's winning line; every
  probed position keeps its verdict. An alternative that reaches a known
  position reuses its verdict (alternatives transpose a lot).
- An alternative one legal move away from a known won position is won without
  a probe (it can move there). The line is walked from its end to its start,
  so the alternative ``a`` before move ``i`` often finds ``a`` played after move
  ``i`` (one move on, along the line) already decided as won.
- At each position the alternatives settled without a probe are looked at
  first; probing stops at the first alternative proved lost (one suffices to
  call the position critical). Stopping never changes the counts: a position
  is ``undecided`` only if no alternative is lost, and then every alternative
  was probed. It only makes ``probes`` smaller.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from simlab.engine import moves as engine_moves
from simlab.engine.game import Game, Move, State
from simlab.errors import IllegalMoveError
from simlab.solver import solve
from simlab.solver.limits import table_bits_for
from simlab.solver.plan import plan_for

WON, LOST, UNKNOWN = "won", "lost", "unknown"


@dataclass(frozen=True)
class CriticalDecisions:
    """The critical decisions along one winning line.

    Attributes:
        positions: positions along the line where the player had a choice
            (more than one legal move).
        critical: of those, positions where at least one alternative move was
            proved lost.
        undecided: positions not critical where at least one alternative stayed
            unknown within the probe budget.
        critical_at: the indices ``i`` (0-based, ascending) into the line whose
            position before move ``i`` is critical.
        probes: solver searches run.
        nodes: positions searched by all the probes.
        information: ``open``, or ``thoughtful`` when the probes saw cards or
            shuffles a player does not (``plan_for(game).information``).
    """

    positions: int
    critical: int
    undecided: int
    critical_at: tuple[int, ...]
    probes: int
    nodes: int
    information: str = "open"

    @property
    def share(self) -> float:
        """Critical positions per position with a choice (0.0 without one)."""
        return self.critical / self.positions if self.positions else 0.0


def probe_table_bits(probe_budget: int) -> int:
    """Bits of a transposition table that holds ``probe_budget`` positions below its
    full load (the table starts small and grows only as a probe needs; this caps it)."""
    return table_bits_for(probe_budget)


class _Verdicts:
    """What is known of positions by hash, and the probes run to learn it."""

    def __init__(self, game: Game, probe_budget: int) -> None:
        self.game = game
        self.budget = probe_budget
        self.table_bits = probe_table_bits(probe_budget)
        self.known: dict[int, str] = {}
        self.probes = 0
        self.nodes = 0

    def cheap(self, state: State, key: int) -> str | None:
        """The verdict of ``state`` (hash ``key``) without a search, or None."""
        verdict = self.known.get(key)
        if verdict is not None:
            return verdict
        if self.game.is_won(state):
            self.known[key] = WON
            return WON
        for child in _children(self.game, state):
            if self.known.get(self.game.position_hash(child)) == WON:
                self.known[key] = WON
                return WON
        return None

    def probe(self, state: State, key: int) -> str:
        """Solve ``state`` within the budget; a win marks every position of its line won."""
        result = solve(self.game, state, budget=self.budget, table_bits=self.table_bits)
        self.probes += 1
        self.nodes += result.nodes
        self.known[key] = result.verdict
        if result.won:
            for later in _positions(self.game, state, [self.game.move_code(m) for m in result.moves]):
                self.known[self.game.position_hash(later)] = WON
        return result.verdict


def critical_decisions(game: Game, start: State, line: Sequence[Move], probe_budget: int) -> CriticalDecisions:
    """Count the critical decisions along ``line``, a win from ``start`` (see the module docstring).

    Args:
        game: the game.
        start: the position the line starts from.
        line: moves that replay to a win from ``start`` (e.g. the solver's line,
            automatic plays included).
        probe_budget: the most positions each probe (a ``simlab.solver.solve``) searches.

    Raises:
        ValueError: ``probe_budget`` is below 1, a move of the line is not legal
            (the message names its 0-based index), or the line does not end in a win.
    """
    if probe_budget < 1:
        raise ValueError(f"probe_budget must be at least 1; got {probe_budget}")
    codes = _line_codes(game, start, line)
    positions = _positions(game, start, codes)
    if not game.is_won(positions[-1]):
        raise ValueError(f"the line of {len(line)} moves does not end in a win")
    verdicts = _Verdicts(game, probe_budget)
    for position in positions:
        verdicts.known[game.position_hash(position)] = WON
    with_choice, undecided, critical_at = 0, 0, []
    for index in range(len(codes) - 1, -1, -1):  # from the end: later alternatives help earlier ones
        others = [code for code in game.legal_move_codes(positions[index]) if code != codes[index]]
        if not others:
            continue
        with_choice += 1
        verdict = _worst_alternative(game, positions[index], others, verdicts)
        if verdict == LOST:
            critical_at.append(index)
        elif verdict == UNKNOWN:
            undecided += 1
    return CriticalDecisions(with_choice, len(critical_at), undecided, tuple(sorted(critical_at)),
                             verdicts.probes, verdicts.nodes, plan_for(game).information)


def _worst_alternative(game: Game, state: State, others: list[int], verdicts: _Verdicts) -> str:
    """``lost`` if some move of ``others`` loses, else ``unknown`` if some stays
    unknown, else ``won``; probes only what the known verdicts leave open and
    stops at the first loss."""
    open_ones, seen_unknown = [], False
    for code in others:
        after = _after(game, state, code)
        key = game.position_hash(after)
        verdict = verdicts.cheap(after, key)
        if verdict == LOST:
            return LOST
        seen_unknown |= verdict == UNKNOWN
        if verdict is None:
            open_ones.append((after, key))
    for after, key in open_ones:
        verdict = verdicts.known.get(key) or verdicts.probe(after, key)  # a symmetric twin may be known now
        if verdict == LOST:
            return LOST
        seen_unknown |= verdict == UNKNOWN
    return UNKNOWN if seen_unknown else WON


def _line_codes(game: Game, start: State, line: Sequence[Move]) -> list[int]:
    """The kernel codes of ``line``, each checked legal in turn."""
    codes, state = [], start
    for index, move in enumerate(line):
        try:
            code = game.move_code(move)
        except IllegalMoveError as error:
            raise ValueError(f"move {index} of the line ({move[0]}->{move[1]}) is not a move: {error}") from None
        if code not in game.legal_move_codes(state):
            raise ValueError(f"move {index} of the line ({move[0]}->{move[1]}) is not legal")
        codes.append(code)
        state = _after(game, state, code)
    return codes


def _positions(game: Game, start: State, codes: Sequence[int]) -> list[State]:
    """``start`` and the position after each move of ``codes`` (legal, checked before)."""
    positions = [start]
    for code in codes:
        positions.append(_after(game, positions[-1], code))
    return positions


def _after(game: Game, state: State, code: int) -> State:
    """The position after the legal move ``code`` (``Game.apply`` without its checks)."""
    array = state.array.copy()
    engine_moves.play(game.rules, array, int(code), state.chance, np.empty_like(array))
    return State(array, state.chance)


def _children(game: Game, state: State) -> list[State]:
    """The position after each legal move of ``state``."""
    return [_after(game, state, code) for code in game.legal_move_codes(state)]
