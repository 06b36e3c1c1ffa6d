"""The policy interface.

A policy plays one deal from start to end. Subclass ``Policy`` and implement
``choose`` to write your own (name it ``your_module:YourClass`` in a config or on
the command line); the built-in policies override ``play`` with compiled loops.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from simlab.engine.game import Game, Move, Observation, State
from simlab.params import Param
from simlab.policies.record import LOST, WON, PlayRecord, stop_reason

COMMON_PARAMETERS: dict[str, Param] = {
    # Bounded: the compiled playouts allocate per move (10**9 moves would be 3.7 GiB a deal).
    "max_moves": Param(int, 2000, "moves after which an unfinished game counts as lost", low=1,
                       high=1_000_000),
}


# A scoring player's weights: (name, default, what it rewards or penalises) per feature,
# in the order its compiled score reads them (``heuristic``, ``tap``).
WeightTable = tuple[tuple[str, float, str], ...]


def weight_parameters(table: WeightTable) -> dict[str, Param]:
    """One non-negative float parameter per weight of ``table``."""
    return {name: Param(float, default, doc, low=0.0) for name, default, doc in table}


def weight_vector(params: dict[str, Any], table: WeightTable) -> np.ndarray:
    """The weights of ``table`` as ``params`` set them, in the table's order (for the compiled score)."""
    return np.array([params[name] for name, _, _ in table], dtype=np.float64)


class Policy:
    """Base class of every policy. Constructors only store parameters."""

    name: ClassVar[str] = "policy"
    version: ClassVar[int] = 1
    parameters: ClassVar[dict[str, Param]] = {}
    # Whether the policy reads the full state (hidden cards, future shuffles)
    # instead of the player's observation: only the solver, whose verdicts on a
    # game with hidden cards are then ``thoughtful`` (an upper bound).
    sees_everything: ClassVar[bool] = False
    # Whether the policy computes an upper bound on perfect fair play per deal
    # (``PlayRecord.value``, e.g. an information relaxation) instead of playing:
    # its cells are labelled ``relaxation`` and read as a bound, not a win rate.
    bound: ClassVar[bool] = False
    # Whether a node budget of its own bounds every deal it plays (the solver,
    # round_max): the experiments' ``deal_timeout`` does not apply to it.
    budgeted: ClassVar[bool] = False
    # How a report says what searched and its budget, formatted with the parameters
    # (``str.format``): the solver's "solver budget {budget:,} nodes per deal". Empty: a
    # report names the policy and its ``budget`` parameter, if it has one.
    budget_phrase: ClassVar[str] = ""
    # Whether the policy's results depend on the ``rng`` it is given (so a ladder
    # may play it several seeds per deal). Where it depends on the parameters,
    # the policy overrides ``is_stochastic``, which callers should ask.
    stochastic: ClassVar[bool] = False

    def __init__(self, **params: Any) -> None:
        self.params = params
        self.registered_name = self.name

    def is_stochastic(self, game: Game | None = None) -> bool:
        """Whether this policy, with these parameters, may play a deal of ``game``
        (of any game when None) differently for another ``rng`` (``stochastic``
        unless a policy says otherwise)."""
        return self.stochastic

    def unused_parameters(self, game: Game) -> dict[str, str]:
        """The parameters that change nothing when this policy, with these parameters,
        plays ``game``, each with why (a phrase completing "... has no effect: "). A
        config or command that sets one to another value than its default is warned
        (``catalog.warn_unused``)."""
        return {}

    def proves_losses(self, game: Game) -> bool:
        """Whether every ``lost`` of this policy on ``game`` is a loss proved by exhaustive
        search (no line wins), as a ladder's perfect player must be for ``unwinnable`` to
        mean what it says. A player's lost is only a game it did not win: False."""
        return False

    def cannot_play(self, game: Game) -> str | None:
        """Why this policy, with these parameters, cannot play ``game``, or None when it can.

        The reason completes "policy 'x' cannot play game 'y': ..." and says what to do
        instead. Configs and the command line ask it before anything runs, so a
        combination that would fail, or play nonsense, on every deal is refused at once.
        It reads only the game's rules (no deal, no search): it must be cheap."""
        return None

    @classmethod
    def all_parameters(cls) -> dict[str, Param]:
        """This policy's parameters plus the ones every policy has."""
        return {**COMMON_PARAMETERS, **cls.parameters}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"

    def choose(self, game: Game, observation: Observation, moves: list[Move],
               rng: np.random.Generator) -> Move | None:
        """Pick one of ``moves`` (never empty), or None to stop. Override this.

        ``observation`` is what a real player sees (``Game.observe``): in a game
        with hidden cards those cards read as ``??`` (``game.visible_piles``)."""
        raise NotImplementedError

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        """Play from ``state`` until won, no move made (``no_moves`` or ``gave_up``), a repeated
        position, or the move cap."""
        seen = {game.position_hash(state)}
        made: list[Move] = []
        max_moves = self.params.get("max_moves", COMMON_PARAMETERS["max_moves"].default)
        reason = "move_cap"
        while len(made) < max_moves:
            if game.is_won(state):
                reason = WON
                break
            view = game.observe(state)
            moves = game.legal_moves(view)
            move = self.choose(game, view, moves, rng) if moves else None
            if move is None:
                reason = stop_reason(game, state)
                break
            state = game.apply(state, move)
            made.append(Move(*move))
            position = game.position_hash(state)
            if position in seen and not game.is_won(state):
                reason = "repeat"
                break
            seen.add(position)
        else:
            reason = WON if game.is_won(state) else reason
        verdict = WON if reason == WON else LOST
        return PlayRecord(verdict, reason, made, game.cards_home(state))
