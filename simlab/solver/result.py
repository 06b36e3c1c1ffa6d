"""What the solver returns."""

from __future__ import annotations

from dataclasses import dataclass, field

from simlab.engine.game import Move


@dataclass
class SolveResult:
    """A three-valued verdict.

    Attributes:
        verdict: ``won`` (``moves`` replays to a win, checked before returning),
            ``lost`` (the search was exhaustive, and confirmed by a second search
            with independent hash keys: ``simlab.solver.portfolio``) or
            ``unknown`` (budget or memory ran out).
        reason: ``won``, ``exhausted``, ``budget`` or ``memory``.
        nodes: distinct positions searched to decide (the confirming search of a
            loss not included).
        seconds: CPU seconds the search took, compiling kernels not included
            (informative only; never a budget).
        moves: the winning line from the deal, automatic plays included.
        information: ``open`` when the game hides nothing; ``thoughtful`` when
            it hides cards from a player, which the solver sees: the verdict is
            then an upper bound on any real player.
        compile_seconds: CPU seconds spent compiling kernels during the call
            (``simlab.compiling``: only the first calls of a fresh checkout).
        check_nodes: positions the search that confirmed a loss saw (0 for a
            win, an unknown, or a loss proved at the start, before any hash
            was looked up); its CPU is in ``seconds``.
    """

    verdict: str
    reason: str
    nodes: int
    seconds: float
    moves: list[Move] = field(default_factory=list)
    information: str = "open"
    compile_seconds: float = 0.0
    check_nodes: int = 0

    @property
    def won(self) -> bool:
        return self.verdict == "won"

    def to_json(self) -> dict:
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "moves": [[m.source, m.destination] for m in self.moves],
            "information": self.information,
            "compile_seconds": round(self.compile_seconds, 3),
            "check_nodes": self.check_nodes,
        }
