"""Two cells compared honestly about unknown results: each figure of a comparison as
its range over every way the unknowns can resolve (each unknown deal a win or a loss).

A comparison is *paired* when the two cells played the same deal numbers (the same
PySolFC shuffle, so their results go together deal by deal): McNemar's exact test on
the deals only one of them won, with Newcombe's paired interval. It is *independent*
when they share no deal: Fisher's exact test with Newcombe's hybrid interval.

Why the ranges are exact (the p-value's least and largest value over every resolution):

- McNemar: an unknown deal can add to A's discordant count ``b`` (A won, B did not),
  to B's ``c``, or to neither; ``b`` can grow from ``b0`` by up to ``X + U`` and ``c``
  from ``c0`` by up to ``Y + U``, where ``U`` deals (unknown on both sides) feed one
  or the other. The exact p-value ``min(1, 2 P(Bin(b + c, 1/2) <= min(b, c)))`` falls
  as the larger count grows and rises as the smaller one grows (a binomial of one more
  trial is at most one larger), so it is least at one of the two corners (every unknown
  for A, or every one for B). It is 1 when some resolution brings ``|b - c|`` to 1 or
  less (``b - c`` takes every value between the two corners'); else the same side is
  ahead in every resolution, and p is largest at the corner that gives every unknown
  to the side behind.
- Fisher: its two-sided p-value is not monotone in the counts, so every table of the
  grid of A's and B's possible wins is computed (``stats.fisher_exact_p_range``).
- Intervals: the reported interval is the union of the intervals of every resolution.
  Its lower end is that of the resolution most favourable to B, its upper end that of
  the one most favourable to A, because each end rises with a win of A and falls with
  a win of B. Newcombe's hybrid lower end is ``pa - pb - sqrt(wa**2 + vb**2)`` (``wa``
  the distance from A's rate down to its Wilson bound, ``vb`` from B's up to its): one
  more win for A raises ``pa`` by ``1/na`` and, its Wilson bound rising too, changes
  ``wa`` by less than that, and the square root moves by at most as much as ``wa``
  does; likewise for B and for the upper end. For Newcombe's paired interval (whose
  correlation term depends on the whole table) it was checked on every table of up
  to 40 deals; the tests check the tables of up to 12.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from simlab.experiments import stats

WON, LOST, UNKNOWN = "won", "lost", "unknown"


class Comparison(NamedTuple):
    """One comparison, every figure as its range over the resolutions of the unknowns.

    ``difference``, ``rate_*`` with every unknown counted as not won (the low end of
    each win rate); ``difference_min``/``_max`` the difference's range; ``low``/``high``
    the union of the 95% intervals; ``p_min``/``p_max`` the least and largest p-value.
    """

    difference: float
    difference_min: float
    difference_max: float
    low: float
    high: float
    p_min: float
    p_max: float


class PairedVerdicts(NamedTuple):
    """The deals two cells both played, counted by (A's verdict, B's verdict)."""

    both: int              # won, won
    only_a: int            # won, lost
    only_b: int            # lost, won
    neither: int           # lost, lost
    won_unknown: int       # A won, B unknown
    unknown_lost: int      # A unknown, B lost
    unknown_won: int       # A unknown, B won
    lost_unknown: int      # A lost, B unknown
    unknown_unknown: int

    @classmethod
    def count(cls, a: pd.Series, b: pd.Series) -> PairedVerdicts:
        """Count the verdicts ``a`` and ``b`` (won, lost or unknown) of the same deals, in order."""
        n = np.bincount(3 * _codes(a) + _codes(b), minlength=9)  # index 3 * A's verdict + B's
        return cls(*(int(n[3 * x + y]) for x, y in ((0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (2, 1), (2, 0),
                                                      (1, 2), (2, 2))))

    @property
    def deals(self) -> int:
        return sum(self)

    @property
    def unknown_pairs(self) -> int:
        """Deals where either verdict is unknown."""
        return sum(self[4:])

    def unknowns_lost(self) -> tuple[int, int, int, int]:
        """(both, only A, only B, neither) with every unknown counted as not won."""
        return (self.both, self.only_a + self.won_unknown, self.only_b + self.unknown_won,
                self.neither + self.unknown_lost + self.lost_unknown + self.unknown_unknown)

    def favouring_a(self) -> tuple[int, int, int, int]:
        """(both, only A, only B, neither) with every unknown resolved for A: A wins, B loses."""
        return (self.both + self.unknown_won, self.only_a + self.won_unknown + self.unknown_lost
                + self.unknown_unknown, self.only_b, self.neither + self.lost_unknown)

    def favouring_b(self) -> tuple[int, int, int, int]:
        """(both, only A, only B, neither) with every unknown resolved for B."""
        return (self.both + self.won_unknown, self.only_a, self.only_b + self.unknown_won
                + self.lost_unknown + self.unknown_unknown, self.neither + self.unknown_lost)


def _codes(verdicts: pd.Series) -> np.ndarray:
    """0 for won, 1 for lost, 2 for unknown."""
    values = verdicts.to_numpy()
    if not np.isin(values, (WON, LOST, UNKNOWN)).all():
        raise ValueError(f"verdicts must be {WON}, {LOST} or {UNKNOWN}, not {sorted(set(values))}")
    return (values == LOST).astype(np.int64) + 2 * (values == UNKNOWN)


def paired_comparison(verdicts: PairedVerdicts, level: float = stats.LEVEL) -> Comparison:
    """McNemar's exact p-value and Newcombe's paired interval over every resolution."""
    n = verdicts.deals
    lost, for_a, for_b = verdicts.unknowns_lost(), verdicts.favouring_a(), verdicts.favouring_b()
    p_for_a, p_for_b = stats.mcnemar_exact(for_a[1], for_a[2]), stats.mcnemar_exact(for_b[1], for_b[2])
    # b - c runs through every integer from B's corner to A's: p = 1 once |b - c| <= 1 is reachable.
    balanced = for_b[1] - for_b[2] <= 1 and for_a[1] - for_a[2] >= -1
    return Comparison(
        difference=(lost[1] - lost[2]) / n,
        difference_min=(for_b[1] - for_b[2]) / n, difference_max=(for_a[1] - for_a[2]) / n,
        low=stats.paired_difference_interval(*for_b, level)[1],
        high=stats.paired_difference_interval(*for_a, level)[2],
        p_min=min(p_for_a, p_for_b), p_max=1.0 if balanced else max(p_for_a, p_for_b),
    )


def independent_comparison(won_a: int, unknown_a: int, n_a: int, won_b: int, unknown_b: int, n_b: int,
                           level: float = stats.LEVEL) -> Comparison:
    """Fisher's exact p-value and Newcombe's hybrid interval over every resolution."""
    high_a, high_b = won_a + unknown_a, won_b + unknown_b
    p_min, p_max = stats.fisher_exact_p_range((won_a, high_a), n_a, (won_b, high_b), n_b)
    return Comparison(
        difference=won_a / n_a - won_b / n_b,
        difference_min=won_a / n_a - high_b / n_b, difference_max=high_a / n_a - won_b / n_b,
        low=stats.independent_difference_interval(won_a, n_a, high_b, n_b, level)[1],
        high=stats.independent_difference_interval(high_a, n_a, won_b, n_b, level)[2],
        p_min=p_min, p_max=p_max,
    )
