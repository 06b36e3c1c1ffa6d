"""The ``solver`` policy: perfect play with every card known, within a node budget."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from simlab.engine.game import Game, State
from simlab.params import Param
from simlab.policies.base import Policy
from simlab.policies.catalog import register_policy
from simlab.policies.fair_hidden import play_sampled
from simlab.policies.fair_rounds import play_fair
from simlab.policies.record import PlayRecord
from simlab.solver import SolverError, solve
from simlab.solver.critical import critical_decisions
from simlab.solver.limits import BUDGET, TABLE_BITS
from simlab.solver.plan import plan_for
from simlab.solver.replay import replay
from simlab.solver.sampling import Effort, plays_by_sampling


@register_policy
class SolverPolicy(Policy):
    """Searches for a win: ``won``, ``lost`` when the search was exhaustive, or
    ``unknown`` when the budget or the table runs out first.

    With ``probe_budget`` > 0, a won deal's record also carries the critical
    decisions along its winning line (``simlab.solver.critical``; the probes
    see every card, in fair mode too), counted after the deal is decided: the
    verdict, line and ``nodes`` are those of the search alone (the probes' cost
    shows only in the deal's CPU seconds)."""

    name = "solver"
    budgeted = True
    budget_phrase = "solver budget {budget:,} nodes per deal"
    # Each version changes node counts (and possibly verdicts) at a given
    # budget, so results of an earlier version are not resumed:
    # 2: the cheap proofs of loss (simlab.solver.deadlock);
    # 3: best-first restarts with a bucket queue and children in the kernel's order.
    version = 3
    parameters = {
        "mode": Param(str, "thoughtful", "thoughtful: knows the deal's future shuffles (an upper bound); "
                      "fair: never looks at them, plays each round out against shuffles of its own "
                      "(a lower bound; simlab.policies.fair_rounds; hidden cards: simlab.policies.fair_hidden)",
                      choices=("thoughtful", "fair")),
        "samples": Param(int, 16, "fair mode: shuffle sequences of its own each candidate redeal is played "
                         "out against (hidden cards: most completions of the unseen cards solved per decision)",
                         low=1, high=10000),
        "sample_budget": Param(int, 200_000, "fair mode, redeals: most positions per solve of a played-out "
                               "last round", low=1),
        "completion_budget": Param(int, 3_000, "fair mode, hidden cards (a face-down stock, squared reserves): "
                                   "most positions per solve of a sampled completion", low=1),
        "cross_checks": Param(int, 0, "fair mode, hidden cards: when the sampled completions do not agree, "
                              "each leading line is also solved on this many fresh completions "
                              "(simlab.solver.sampling.cross_check)", low=0, high=1000),
        "budget": replace(BUDGET, doc="most distinct positions searched per deal "
                          "(fair mode: for the last round; a stock: once nothing is hidden)"),
        "table_bits": TABLE_BITS,
        "probe_budget": Param(int, 0, "0: off; else, for a won deal, count the critical decisions along its "
                              "winning line (simlab.solver.critical): every other legal move at each position "
                              "is solved within this many positions (the probes see every card)", low=0),
    }

    @property
    def sees_everything(self) -> bool:  # type: ignore[override]
        """Thoughtful mode reads the deal's future shuffles and hidden cards; fair mode does not."""
        return self.params.get("mode", "thoughtful") == "thoughtful"

    def fair_method(self, game: Game) -> str:
        """How this mode plays ``game``: "solve" (thoughtful mode, or fair mode where the
        search plan's solver sees only what a player sees: the same search), "sampled"
        (fair mode, hidden cards: ``simlab.policies.fair_hidden``) or "rounds" (fair
        mode, shuffles to come: ``simlab.policies.fair_rounds``)."""
        if self.params.get("mode", "thoughtful") != "fair" or plan_for(game).information == "open":
            return "solve"
        return "sampled" if game.has_hidden_cards else "rounds"

    def is_stochastic(self, game: Game | None = None) -> bool:
        """Fair mode samples shuffles or stock orders from ``rng`` in a game that hides
        something (any game may, when none is named); the plain solve never reads it."""
        if game is None:
            return self.params.get("mode", "thoughtful") == "fair"
        return self.fair_method(game) != "solve"

    def unused_parameters(self, game: Game) -> dict[str, str]:
        """Fair mode's parameters where it plays no fair game (thoughtful mode, or a game
        that hides nothing: the same search), and those of the other kind of fair play."""
        fair = ("samples", "sample_budget", "completion_budget", "cross_checks")
        if self.params.get("mode", "thoughtful") != "fair":
            return {key: "it is used only in mode 'fair'" for key in fair}
        method = self.fair_method(game)
        if method == "solve":
            return {key: f"game '{game.name}' hides nothing, so mode 'fair' is the thoughtful search"
                    for key in fair}
        if method == "sampled":
            return {"sample_budget": f"it is used where a redeal shuffles, not where cards are hidden "
                                     f"('{game.name}': completion_budget)"}
        return {key: f"it is used where cards are hidden, not where a redeal shuffles ('{game.name}')"
                for key in ("completion_budget", "cross_checks")}

    def proves_losses(self, game: Game) -> bool:
        """Its lost is an exhaustive search's, except in fair mode where cards are hidden or
        shuffled: a fair player then loses games a search could not prove lost."""
        return self.fair_method(game) == "solve"

    def cannot_play(self, game: Game) -> str | None:
        """Fair mode in a game that both hides cards and shuffles at a redeal: it samples
        one or plays out the other, never both (``_play`` would raise on every deal)."""
        if self.fair_method(game) == "sampled" and not plays_by_sampling(game):
            return ("mode 'fair' cannot play a game that both hides cards and shuffles at a redeal (it "
                    "would have to see one of them). Use mode 'thoughtful' (an upper bound) or another "
                    "fair player.")
        return None

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        record = self._play(game, state, rng)
        probe_budget = self.params.get("probe_budget", 0)
        if probe_budget > 0 and record.won:
            found = critical_decisions(game, state, record.moves, probe_budget)
            record.critical, record.critical_positions = found.critical, found.positions
            record.critical_undecided = found.undecided
        return record

    def _play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        """The deal played (or solved) as ``mode`` says."""
        method = self.fair_method(game)
        if method == "sampled":
            if not plays_by_sampling(game):
                raise SolverError(f"{game.name}: the fair solver cannot both sample hidden cards and "
                                  "shuffles to come (it would see one of them)")
            effort = Effort(self.params["samples"], self.params["completion_budget"],
                            cross_checks=self.params["cross_checks"])
            return play_sampled(game, state, rng, effort, self.params["budget"], self.params["max_moves"],
                                self.params["table_bits"])
        if method == "rounds":
            return play_fair(game, state, rng, self.params["samples"], self.params["sample_budget"],
                             self.params["budget"], self.params["max_moves"])
        result = solve(game, state, budget=self.params["budget"], table_bits=self.params["table_bits"])
        final = replay(game, state, result.moves)
        return PlayRecord(result.verdict, result.reason, result.moves, game.cards_home(final), result.nodes)
