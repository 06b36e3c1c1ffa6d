"""``tap``: a player who only taps, as in a phone app.

**Where a tapped card goes** (``tap_destination``), generalising a Beleaguered
Castle app's wording ("a foundation when that is safe, otherwise a card one
rank higher (of the same suit if there is one), otherwise an empty column") to
every game, from the legal card moves of the tapped pile's top card, first
class that has one:

1. a foundation, when the play is *safe* by the solver's automatic-play rule
   for the game (``simlab.solver.autoplay.is_safe`` under ``plan_for(game)``;
   games without such a rule have no safe play);
2. onto a row whose top card it builds on by the game's rules: a card one rank
   higher first (the app's wording; in games that build up too, one rank lower
   comes after), of the card's own suit first, then the first such row;
3. a free cell (the first empty one): a cell holds one card only, so a player
   spends it before an empty row;
4. an empty row (the first one);
5. a foundation that is not safe: the app's double tap, a last resort, taken
   only when the card has no other place (in Windmill, where every move goes to
   a foundation, every tap is one).

A tap does nothing (None) on an empty pile, a pile whose card cannot move, a
foundation (a tapping player never takes a card back), a lone card of a row
tapped into an empty row, or a cell's card tapped into a cell (both leave the
position as it was, bar pile names).

**Which card the player taps.** Among the piles whose tap changes the position
and does not bring back a position seen in this game, the tap with the best
score, the sum of its weighted features (parameters):

- ``home``: the card goes to a foundation;
- ``space``: the tap empties a row (minus ``space`` when it fills an empty row);
- ``cell``: the tap empties a free cell (minus ``cell`` when it fills one);
- ``dig``: times the urgency it frees (soon-needed cards under the tapped card:
  next one 4, then 2, 1; ``policies.features.urgency``) minus the urgency of
  the cards it covers;
- ``sideways``: a penalty when the card already sat where it belongs (at the
  bottom of a row or on a card it builds on) and its row does not empty.

The defaults were picked on deals 1-100 of every game from a small grid
(``sideways`` 0-20, ``space`` 0-20, ``dig`` 0-12, ``home`` 10 or 30): ``dig``
matters most (0 wins a third as many deals), a large ``space`` or
``sideways`` loses deals, ``home`` hardly matters.

Ties are broken at random (``random_ties``, default) or by pile order. With
probability ``random_tap`` per turn the player taps a uniformly random useful
card instead. The random numbers are drawn from the ``rng`` ``play`` is given.
When no tap changes anything it redeals, draws or turns the stock as the other
policies do (``playout.when_stuck``); with none of those it stops (lost). A
position that comes back anyway (one the player could not foresee) ends the game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.game import MAX_LEGAL_MOVES, Game, State
from simlab.engine.layout import MOVE_BASE, MOVE_CARD, N_PILES
from simlab.params import Param
from simlab.policies.base import Policy, WeightTable, weight_parameters, weight_vector
from simlab.policies.catalog import register_policy
from simlab.policies.features import (
    destination_pile,
    is_cell,
    is_foundation_pile,
    is_row,
    source_pile,
    top_is_placed,
    urgency,
)
from simlab.policies.playout import leads_to_seen, playout_loop, run_compiled
from simlab.policies.record import PlayRecord
from simlab.solver.autoplay import is_safe
from simlab.solver.plan import plan_for

WEIGHTS: WeightTable = (
    ("home", 10.0, "bonus when the tapped card goes to a foundation"),
    ("space", 2.0, "bonus when the tap empties a row (penalty when it fills an empty row)"),
    ("cell", 2.0, "bonus when the tap empties a free cell (penalty when it fills one)"),
    ("dig", 3.0, "times the urgency the tap frees minus the urgency it covers"),
    ("sideways", 1.0, "penalty for tapping a card that already sat where it belongs"),
)

# Classes of destination, best first (module doc).
SAFE_HOME = 0
BUILD_HIGHER_SUIT = 1
BUILD_HIGHER = 2
BUILD_LOWER_SUIT = 3
BUILD_OTHER = 4
FREE_CELL = 5
EMPTY_ROW = 6
UNSAFE_HOME = 7
NO_TAP = 99


@njit(cache=True)
def destination_class(rules, state, move, autoplay):
    """The class (``SAFE_HOME`` .. ``UNSAFE_HOME``) of the legal card move
    ``move`` as a tap's destination, or ``NO_TAP`` when a tap never makes it."""
    source = source_pile(move)
    destination = destination_pile(move)
    if is_foundation_pile(rules, source):
        return NO_TAP
    card = kernel.top_card(rules, state, source)
    if is_foundation_pile(rules, destination):
        return SAFE_HOME if is_safe(rules, state, card, autoplay) else UNSAFE_HOME
    if is_cell(rules, destination):
        return NO_TAP if is_cell(rules, source) else FREE_CELL
    if not is_row(rules, destination):
        return NO_TAP
    target = kernel.top_card(rules, state, destination)
    if target < 0:
        return NO_TAP if is_row(rules, source) and kernel.height(rules, state, source) == 1 else EMPTY_ROW
    same_suit = (card // 13) % 4 == (target // 13) % 4
    higher = target % 13 == (card % 13 + 1) % 13
    if higher:
        return BUILD_HIGHER_SUIT if same_suit else BUILD_HIGHER
    return BUILD_LOWER_SUIT if same_suit else BUILD_OTHER


@njit(cache=True)
def tap_move(rules, state, pile, legal, count, autoplay):
    """The move a tap on ``pile`` makes among the legal moves ``legal[:count]``, or -1."""
    best = -1
    best_class = NO_TAP
    for i in range(count):
        move = legal[i]
        if kernel.move_kind(move) != MOVE_CARD or source_pile(move) != pile:
            continue
        kind = destination_class(rules, state, move, autoplay)
        if kind < best_class:
            best, best_class = move, kind
    return best


@njit(cache=True)
def tap_score(rules, state, move, weights):
    """The weighted features of the tap ``move`` (weights in the order of ``WEIGHTS``)."""
    source = source_pile(move)
    destination = destination_pile(move)
    score = 0.0
    if is_foundation_pile(rules, destination):
        score += weights[0]
    empties_row = is_row(rules, source) and kernel.height(rules, state, source) == 1
    if empties_row:
        score += weights[1]
    if is_row(rules, destination) and kernel.height(rules, state, destination) == 0:
        score -= weights[1]
    if is_cell(rules, source):
        score += weights[2]
    if is_cell(rules, destination):
        score -= weights[2]
    score += weights[3] * urgency(rules, state, source, 1)
    if not is_foundation_pile(rules, destination):
        score -= weights[3] * urgency(rules, state, destination, 0)
    if top_is_placed(rules, state, source) and not empties_row:
        score -= weights[4]
    return score


@njit(cache=True)
def tap_choice(rules, view, legal, cards, made, zobrist, table, extra):
    """The tap to make in ``view`` (``playout.playout_loop``'s rule): the best
    scoring useful tap, or a random one (module doc); -1 when no tap is useful.
    ``legal[1]`` holds the useful taps, ``legal[2]`` the best-scoring ones."""
    weights, uniforms, random_tap, random_ties, autoplay = extra
    useful = 0
    best_count = 0
    best_score = -1e18
    for pile in range(rules[N_PILES]):
        move = tap_move(rules, view, pile, legal[0], cards, autoplay)
        if move < 0 or leads_to_seen(rules, view, move, zobrist, table):
            continue
        legal[1, useful] = move
        useful += 1
        score = tap_score(rules, view, move, weights)
        if score > best_score:
            best_score = score
            best_count = 0
        if score == best_score:
            legal[2, best_count] = move
            best_count += 1
    if useful == 0:
        return -1
    pick, chance = uniforms[made, 0], uniforms[made, 1]
    if chance < random_tap:
        return legal[1, min(int(pick * useful), useful - 1)]
    if not random_ties:
        return legal[2, 0]
    return legal[2, min(int(pick * best_count), best_count - 1)]


@njit(cache=True)
def tap_playout(rules, board, zobrist, moves_out, max_moves, weights, uniforms, random_tap, random_ties, autoplay):
    return playout_loop(rules, board, zobrist, moves_out, max_moves, tap_choice, 3, True,
                        (weights, uniforms, random_tap, random_ties, autoplay))


@njit(cache=True)
def tap_destination_code(rules, state, pile, autoplay):
    """The pile a tap on ``pile`` sends its top card to in ``state``, or -1."""
    legal = np.empty(MAX_LEGAL_MOVES, dtype=np.int32)
    count = kernel.legal_moves(rules, state, legal)
    move = tap_move(rules, state, pile, legal, count, autoplay)
    return -1 if move < 0 else move % MOVE_BASE


def tap_destination(game: Game, state: State, pile: int) -> int | None:
    """The pile (an index into ``game.pile_names``) where tapping the top card of
    pile ``pile`` sends it in ``state``, or None if the tap does nothing (module doc).

    The tap reads only what a player sees (``game.observe(state)``)."""
    if not 0 <= pile < len(game.pile_names):
        raise IndexError(f"pile {pile} out of range for {game!r} ({len(game.pile_names)} piles)")
    view = game.observe(state).array.copy()
    destination = tap_destination_code(game.rules, view, pile, plan_for(game).autoplay)
    return None if destination < 0 else int(destination)


@register_policy
class TapPolicy(Policy):
    """Only taps: the best-scoring tap, its card going to its best place (see the module doc)."""

    name = "tap"
    parameters = {
        **weight_parameters(WEIGHTS),
        "random_tap": Param(float, 0.0, "probability of tapping a random useful card instead of the best",
                            low=0.0, high=1.0),
        "random_ties": Param(bool, True, "break ties between equally scored taps at random (else pile order)"),
    }

    def is_stochastic(self, game: Game | None = None) -> bool:
        return self.params["random_tap"] > 0 or self.params["random_ties"]

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        max_moves = self.params["max_moves"]
        weights = weight_vector(self.params, WEIGHTS)
        uniforms = rng.random((max_moves, 2))
        return run_compiled(game, state, tap_playout, max_moves, weights, uniforms,
                            float(self.params["random_tap"]), bool(self.params["random_ties"]),
                            int(plan_for(game).autoplay))
