"""What one play of one deal returns."""

from __future__ import annotations

from dataclasses import dataclass, field

from simlab.engine.game import Game, Move, State

WON = "won"
LOST = "lost"
UNKNOWN = "unknown"
# Why a player stopped short of a win with moves to spare: two different things a
# reader must tell apart (a dead end of the deal, or a weakness of the player).
NO_MOVES = "no_moves"
GAVE_UP = "gave_up"


@dataclass
class PlayRecord:
    """The outcome of a policy playing one deal.

    Attributes:
        verdict: ``won``, ``lost`` or ``unknown`` (only a solver out of budget or memory).
        end_reason: why play stopped: ``won``, ``no_moves`` (the rules left no
            legal move), ``gave_up`` (legal moves were left, but none the policy
            would make), ``repeat`` (a position came back), ``move_cap``,
            ``exhausted`` (solver proved no win), ``budget`` (solver ran out of
            positions) or ``memory`` (solver's table full).
        moves: every move made (for a solver: its winning line, auto-moves included).
        cards_home: cards on the foundations at the end.
        nodes: positions the solver searched (0 for other policies).
        critical: critical decisions along a won line (``simlab.solver.critical``):
            positions where some other legal move was proved lost; None when not
            computed (the ``solver`` policy with ``probe_budget`` > 0 computes it).
        critical_positions: positions along that line with more than one legal move.
        critical_undecided: positions not critical where some other move stayed unknown.
        value: a bound's per-deal value (``relaxation_bound``: the penalised
            perfect-information value, whose mean over deals bounds every fair
            player's win rate from above); None for a player.
    """

    verdict: str
    end_reason: str
    moves: list[Move] = field(default_factory=list)
    cards_home: int = 0
    nodes: int = 0
    critical: int | None = None
    critical_positions: int | None = None
    critical_undecided: int | None = None
    value: float | None = None

    @property
    def won(self) -> bool:
        return self.verdict == WON

    @property
    def move_count(self) -> int:
        return len(self.moves)


def stop_reason(game: Game, state: State) -> str:
    """Why a player that made no further move stopped at ``state``: ``no_moves`` when
    the rules allow none (redeals and stock turns included), else ``gave_up``."""
    return NO_MOVES if len(game.legal_move_codes(state)) == 0 else GAVE_UP
