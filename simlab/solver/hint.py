"""A hint from any position, as PySolFC's: the solver's verdict there and its best move.

The best move is the first move of the winning line ``solve`` found from the position
(a line the rules engine replayed to a win); a position proved lost, or left unknown
within the budget, has none. Where cards are hidden or shuffled the solver sees them,
so the verdict is ``thoughtful`` (an upper bound on a player), as ``simlab solve`` says.
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.engine.game import Game, Move, State
from simlab.solver import DEFAULT_BUDGET, solve
from simlab.solver.limits import table_bits_for
from simlab.solver.result import SolveResult


@dataclass(frozen=True)
class Hint:
    """The solver's word on one position.

    Attributes:
        verdict: ``won`` (a win is still possible: ``best_move`` starts it), ``lost`` (proved:
            no win from here) or ``unknown`` (the budget or table ran out).
        best_move: the first move of the winning line; None when the position is already
            won, lost or unknown.
        moves_to_win: the winning line's length from here (0 when already won); None otherwise.
        result: the solver's ``SolveResult`` (reason, nodes, CPU, information).
    """

    verdict: str
    best_move: Move | None
    moves_to_win: int | None
    result: SolveResult


def hint(game: Game, state: State, budget: int = DEFAULT_BUDGET, table_bits: int | None = None) -> Hint:
    """The solver's verdict from ``state`` and its best move (``Hint``), searching at most
    ``budget`` positions in a table of ``2**table_bits`` (default: ``table_bits_for(budget)``)."""
    bits = table_bits_for(budget) if table_bits is None else table_bits
    result = solve(game, state, budget=budget, table_bits=bits)
    if not result.won:
        return Hint(result.verdict, None, None, result)
    return Hint("won", result.moves[0] if result.moves else None, len(result.moves), result)


def hints_along(game: Game, states: list[State], budget: int) -> list[Hint]:
    """A hint at each position of ``states`` (e.g. every position of a line), each within ``budget``."""
    return [hint(game, state, budget) for state in states]
