"""An upper bound on fair play in games that shuffle at a redeal: an information
relaxation with penalties (Brown, Smith and Sun, "Information relaxations and
duality in stochastic dynamic programs", Operations Research 58(4), 2010).

The problem. In La Belle Lucie and Trefoil every card is face up; a fair player
does not know how a redeal will shuffle. Its only choice that the shuffle does
not undo is *where* to redeal: the position it gathers from. The thoughtful
solver, which knows every shuffle, wins every deal, so it bounds nothing.

The theorem (weak duality). Let ``omega`` be the shuffles to come, drawn
independently of everything a player sees. For any function ``V`` and any
position ``x`` before a redeal, define the penalty of that redeal as
``z = V(layout after the real shuffle) - E[V(layout after a shuffle) | x]``.
For a *non-anticipating* player (one whose choices depend only on what it has
seen) each ``z`` has conditional mean zero given everything before the redeal,
so the sum of its penalties has mean zero, and

    win rate of any fair player = E[ 1[win] - sum z ]
                                <= E_omega[ max over every play knowing omega of (1[win] - sum z) ].

The right side is computed deal by deal: the inner problem is a
perfect-information search (the shuffles are known), and its per-deal values
average into the bound. With ``V`` the exact fair value the penalties cancel
every lucky shuffle and the bound equals the fair optimum for every ``omega``;
the better ``V``, the tighter the bound. Any ``V`` gives a valid bound.

Which shuffles. The deal's own chance tape would not do: the game gathers the
fans in order, so the real shuffle's result depends on how the cards left lie,
not only on which are home, and the inner maximum would have to range over
every pre-redeal arrangement. The bound instead represents the chance by its
own uniform tapes (from ``rng``) applied to the cards left *in a canonical
order* (by card id, ``redealt``). Every redeal of the real game, from the
player's point of view, deals a uniformly random arrangement of the cards left,
independent of the past (a Fisher-Yates shuffle with uniform numbers); so does
this representation, so it is the same decision problem and the fair optimum
is the same. What it bounds is the fair optimum under uniform shuffles, the
model every fair player here assumes; the deal's tape is one pseudo-random
realisation of it. In this representation a redeal's result depends only on
the cards left (and the counters), so a redeal choice is a set of cards home.

Which choices. The inner maximum ranges over every set of cards home that the
round can reach *with every available play home made* (``rounds.most_home``
with the game's automatic plays), searched exhaustively; where the round's
search runs out of budget the branch counts the trivial bound 1. A player that
redeals while a card could still go home is NOT covered: such sets are not
enumerated (without automatic plays a round of La Belle Lucie reaches 10 to 30
times as many sets, beyond 1,000,000 positions on some deals). So the bound
holds for every fair player that makes every play home before it redeals, as
``round_max`` and the fair solver do, and NOT for every fair player:
withholding a card does pay. With JC QC KC QH KH left and one redeal, playing
QH and KH home leaves one fan of three, won 1 time in 6; keeping QH (and KH) in
the fans spreads the clubs over two fans, won 13 times in 24
(``tests/test_relaxation_bound.py`` pins such positions). Covering such players
needs every set of cards home reachable without automatic plays (a subset of
the suit-wise lower sets of the listed ones), far more last-round solves.

The estimates and why they keep the bound valid.

- The last round (no redeal left) is solved outright: ``V`` there is 1 if the
  round's exhaustive search sends every card home, 0 if it proves it cannot,
  and 1 when its budget runs out (an upper bound, counted in ``BoundResult``).
  With ``V`` exact at the last stage its realised value cancels the inner
  problem's own last round, so a branch ending in the last redeal is worth
  just the expectation term.
- ``E[V | x]`` is estimated by the mean of ``V`` over ``samples`` shuffles of
  the bound's own (common to every choice at every node of the deal: common
  random numbers). The estimate is unbiased for each fixed position, and the
  shuffles are independent of the real ones and of any player, so a fair
  player's penalties still have mean zero (linearity of expectation; the
  player's path does not depend on the sampled shuffles). The maximum over
  choices of noisy estimates is biased *upward*, which only loosens the bound.
- The default ``V`` at a layout with redeals left is the best, over the sets
  of cards home its round can reach, of the estimated chance of winning after
  the redeal (sampled shuffles, the next stage's ``V``): a fixed function once
  the sample shuffles are drawn, so any ``V`` argument above applies. With the
  same shuffles in ``V`` and in the inner problem the realised terms cancel and
  the bound is the sample tree's value: the best choice per round against the
  sampled shuffles, whose expectation is at least the fair optimum.
- ``value`` and ``expectation`` are pluggable (a better ``V``, or an exact
  expectation in tests); the argument above holds for any ``V`` fixed before
  the real shuffles are drawn, and for any expectation that is unbiased.
- The max over choices is exact: a set is skipped only when even winning every
  remaining sample could not lift it past the best so far (each final is 0 or 1).

Cost per deal with two redeals: one round search per layout reached, and about
``|H0| * samples * |H1| * final_samples`` last-round solves, ``|H|`` the sets
of cards home a round reaches (1 to about 50 in La Belle Lucie), less the
skipped ones. Budgets are in positions; randomness only from ``rng``.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from simlab.engine.game import REDEAL, Game
from simlab.engine.layout import CAPACITY, COUNTER_REDEALS, FIRST_CELL, N_CARDS, OFFSET_COUNTERS, OFFSET_HEIGHTS
from simlab.engine.moves import TAPE_MT, play, set_tape_position
from simlab.solver.plan import plan_for
from simlab.solver.rounds import most_home

# The defaults are the settings measured (docs/design.md, "Upper bound on fair play"):
# about 14 CPU-s a La Belle Lucie deal; doubling either sample count about doubles it.
DEFAULT_SAMPLES = 4  # sampled shuffles per expectation with redeals still ahead
DEFAULT_FINAL_SAMPLES = 8  # sampled shuffles per expectation of the last round
DEFAULT_ROUND_BUDGET = 200_000  # positions per round search (listing the sets of cards home)
DEFAULT_FINAL_BUDGET = 20_000  # positions per last-round solve (beyond it the solve counts a win)

# A value function: (array of a layout just dealt, redeals left) -> estimated
# chance that a fair player wins from there; called with redeals left >= 1.
ValueFunction = Callable[[np.ndarray, int], float]
# An expectation: (array of a position about to redeal, redeals left after
# that redeal) -> E[V(layout after a uniform shuffle)]; must be unbiased.
Expectation = Callable[[np.ndarray, int], float]


class BoundResult(NamedTuple):
    """The penalised perfect-information value of one position.

    Attributes:
        value: the per-deal value (may exceed 1 or fall below 0; only its mean bounds).
        nodes: positions searched, round searches and last-round solves together.
        finals: last-round solves made.
        cut: searches that ran out of budget and counted the trivial bound 1.
    """

    value: float
    nodes: int
    finals: int
    cut: int


def redeals_left(game: Game, array: np.ndarray) -> int:
    """How many redeals the position ``array`` has left."""
    return int(array[int(game.rules[OFFSET_COUNTERS]) + COUNTER_REDEALS])


def shuffle_tape(game: Game, rng: np.random.Generator) -> np.ndarray:
    """Uniform numbers for one redeal, in the Mersenne Twister tape format."""
    return np.concatenate(([TAPE_MT], rng.random(game.table.n_cards)))


def redealt(game: Game, array: np.ndarray, tape: np.ndarray) -> np.ndarray:
    """The layout after redealing from ``array`` with ``tape``, the cards left
    first put in a canonical order (by card id), so the result depends only on
    which cards are left, the counters and ``tape``; a uniform ``tape`` gives a
    uniformly random arrangement of the cards left, as the real redeal does."""
    rules = game.rules
    out = array.copy()
    capacity, heights = int(rules[CAPACITY]), int(rules[OFFSET_HEIGHTS])
    slots = [row * capacity + i for row in range(int(rules[FIRST_CELL])) for i in range(int(out[heights + row]))]
    out[slots] = np.sort(out[slots])
    set_tape_position(rules, out, 0)
    play(rules, out, game.move_code(REDEAL), tape, np.empty_like(out))
    return out


class Relaxation:
    """The bound's search for one game (module docstring). Stores its
    parameters and the sampled shuffles; ``bound`` evaluates a position."""

    def __init__(self, game: Game, rng: np.random.Generator, samples: int = DEFAULT_SAMPLES,
                 final_samples: int = DEFAULT_FINAL_SAMPLES, round_budget: int = DEFAULT_ROUND_BUDGET,
                 final_budget: int = DEFAULT_FINAL_BUDGET, value: ValueFunction | None = None,
                 expectation: Expectation | None = None) -> None:
        self.game = game
        self.rules = game.rules
        self.autoplay = plan_for(game).autoplay
        self.zobrist = plan_for(game).rounds_zobrist
        self.round_budget, self.final_budget = round_budget, final_budget
        stages = max(1, game.table.redeals)
        # per stage s (redeals left after a redeal): the real shuffle and the sampled ones
        self.real = [shuffle_tape(game, rng) for _ in range(stages)]
        self.tapes = [[shuffle_tape(game, rng) for _ in range(final_samples if s == 0 else samples)]
                      for s in range(stages)]
        self.value = value if value is not None else self.estimate
        self.own_value = value is None
        self.expectation = expectation
        self.nodes = self.finals = self.cut = 0
        self._finals: dict[bytes, float] = {}
        self._estimates: dict[tuple[bytes, int], float] = {}
        self._options: dict[bytes, tuple[list[np.ndarray], bool]] = {}

    # ----- searches ---------------------------------------------------------
    def final(self, array: np.ndarray) -> float:
        """1.0 if the last round from ``array`` wins (or its search runs out), 0.0 if proved lost."""
        key = array.tobytes()
        if key not in self._finals:
            _, home, exhausted, nodes, _, _, _ = most_home(
                self.rules, array, np.zeros(1), self.zobrist, self.final_budget, self.autoplay)
            self.nodes += int(nodes)
            self.finals += 1
            won = int(home) == int(self.rules[N_CARDS])
            self.cut += not (won or exhausted)
            self._finals[key] = 1.0 if won or not exhausted else 0.0
        return self._finals[key]

    def options(self, array: np.ndarray) -> tuple[list[np.ndarray], bool]:
        """The positions the round from ``array`` can redeal from, one per set of
        cards home (every play home made), and whether the round can be won
        outright or its search ran out (then the caller counts 1)."""
        key = array.tobytes()
        if key not in self._options:
            _, home, exhausted, nodes, homes, starts, lines = most_home(
                self.rules, array, np.zeros(1), self.zobrist, self.round_budget, self.autoplay)
            self.nodes += int(nodes)
            self.cut += not exhausted and int(home) < int(self.rules[N_CARDS])
            settled = int(home) == int(self.rules[N_CARDS]) or not exhausted
            ends = [] if settled else [self._end(array, lines[starts[i]: starts[i + 1]]) for i in range(len(homes))]
            self._options[key] = (ends, settled)
        return self._options[key]

    def _end(self, array: np.ndarray, line: np.ndarray) -> np.ndarray:
        out, record = array.copy(), np.empty_like(array)
        for code in line.tolist():
            play(self.rules, out, code, np.zeros(1), record)
        return out

    # ----- the default value function and the expectation ------------------
    def estimate(self, array: np.ndarray, left: int) -> float:
        """The default ``V``: exact at the last round; with ``left`` redeals left,
        the best over the round's redeal positions of the sampled mean of the
        next stage's ``V`` (module docstring)."""
        if left == 0:
            return self.final(array)
        key = (array.tobytes(), left)
        if key not in self._estimates:
            ends, settled = self.options(array)
            self._estimates[key] = 1.0 if settled else self.best_expectation(ends, left - 1)
        return self._estimates[key]

    def expect(self, pre: np.ndarray, left: int) -> float:
        """E[V(layout after a shuffle from ``pre``)], ``left`` redeals left after it."""
        if self.expectation is not None:
            return float(self.expectation(pre, left))
        values = [self._value(redealt(self.game, pre, tape), left) for tape in self.tapes[left]]
        return float(np.mean(values))

    def best_expectation(self, ends: list[np.ndarray], left: int) -> float:
        """max over ``ends`` of ``expect``; at the last stage (values 0 or 1) a
        position is dropped once winning every remaining sample could not beat
        the best so far, which leaves the maximum unchanged."""
        if self.expectation is not None or left > 0:
            return max(self.expect(pre, left) for pre in ends)
        tapes = self.tapes[0]
        best = -1.0
        for pre in ends:
            wins = 0.0
            for done, tape in enumerate(tapes):
                if (wins + len(tapes) - done) / len(tapes) <= best:
                    break
                wins += self.final(redealt(self.game, pre, tape))
            else:
                best = max(best, wins / len(tapes))
            if best >= 1.0:
                break
        return best

    def _value(self, array: np.ndarray, left: int) -> float:
        """``V``: exact at the last round; a given value function clamped to [0, 1]
        (still a fixed function, so still valid; it keeps ``ceiling`` an upper bound)."""
        if left == 0:
            return self.final(array)
        return min(1.0, max(0.0, float(self.value(array, left))))

    def ceiling(self, left: int) -> float:
        """An upper bound on every term of the inner maximum with ``left`` redeals
        left, for a round that is won outright (its search stops at the win, so
        its other sets are not listed) or cut short. With the default ``V`` every
        term is an expectation of ``V`` (the realised parts cancel): at most 1.
        With a given ``V`` in [0, 1] a term is at most the next stage's ceiling
        plus 1 (realised inner value, less ``V`` >= 0, plus an expectation <= 1)."""
        return 1.0 if self.own_value or left <= 1 else float(left)

    # ----- the penalised inner problem --------------------------------------
    def inner(self, array: np.ndarray, left: int) -> float:
        """max over every play knowing the shuffles (``self.real``) of the
        win less the penalties, from the layout ``array`` with ``left`` redeals left."""
        if left == 0:
            return self.final(array)
        ends, settled = self.options(array)
        if settled:
            return self.ceiling(left)
        if left == 1:  # V exact at the last round: the realised terms cancel
            return self.best_expectation(ends, 0)
        best = -np.inf
        for pre in ends:
            after = redealt(self.game, pre, self.real[left - 1])
            realised = self.inner(after, left - 1) - self._value(after, left - 1)
            best = max(best, realised + self.expect(pre, left - 1))
        return float(best)

    def bound(self, array: np.ndarray) -> BoundResult:
        """The penalised perfect-information value of the position ``array``."""
        before = (self.nodes, self.finals, self.cut)
        value = self.inner(array, redeals_left(self.game, array))
        return BoundResult(value, self.nodes - before[0], self.finals - before[1], self.cut - before[2])


def relaxation_bound(game: Game, array: np.ndarray, rng: np.random.Generator, **options) -> BoundResult:
    """The per-deal value of the bound from the position ``array`` of ``game``
    (``Relaxation``'s keyword options); its mean over deals bounds every fair player's win rate."""
    return Relaxation(game, rng, **options).bound(array)
