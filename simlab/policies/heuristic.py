"""``heuristic``: how a good human plays the Castle family, as weighted features.

Every legal card move that does not bring back a position seen in this game
gets a score; the best one is played (ties: first in pile order). With none
left it redeals if it may, else uses Hoyle's draw or the stock
(``playout.when_stuck``): a player cannot foresee what a redeal brings. A move's score is
its own features (``move_score``) plus ``next_move`` times the score of the best
move it makes possible: like a human, the player looks ``lookahead`` moves
ahead (default 1; each further level again adds ``next_move`` times its best
reply; the plain reverse of the move before is not counted as a reply). A reply
position that is won scores ``foundation``; one with no move left but that
reverse scores ``-dead_end``. The features follow the strategy tips of the seeds
(sources named in docs/rules.md): play home what you can, create and keep empty rows, dig out the
low cards the foundations need next, prefer same-suit builds, and do not bury
low cards.
Each weight is a parameter:

- ``foundation``: the move plays a card home.
- ``empty_row``: the move empties a row (a space is worth a lot).
- ``use_space``: (a penalty) the move puts a card into an empty row.
- ``use_cell``: (a penalty) the move puts a card into a free cell.
- ``expose``: the card uncovered by the move can go home at once.
- ``dig``: times the urgency freed: soon-needed cards (next one 4, then 2, 1)
  in the source pile get one card nearer the top.
- ``bury``: (a penalty) times the urgency of the cards the move covers.
- ``same_suit``: the card is built onto a card of its own suit.
- ``sideways``: (a penalty) the card already sat where it belongs (0 by
  default: with the lookahead, such moves win more games than they cost).
- ``next_move``: times the score of the best following move (the lookahead).
- ``dead_end``: (a penalty) the move leaves no legal move in a lost position.
- ``take_back``: (a penalty) the move takes a card off a foundation onto a row
  (Fan's ``foundation_return``; once no redeal is ahead it never helps, fans
  building down in suit). Without it the heuristic took cards back over and
  over and won 0 of Fan's deals 1-300, against greedy's 1.
- ``fan_empty_row`` and ``fan_same_suit``: in the fans (La Belle Lucie,
  Trefoil, Fan: an emptied row takes a king or nothing) they replace
  ``empty_row`` and ``same_suit``. There an empty row is worth little (never
  refilled, or only by a king), and every build is in suit, so ``same_suit``
  was a bonus for any build over playing home. Both 0 by default: on deals
  1-300 Fan, La Belle Lucie and Trefoil went from 8, 7, 15 wins to 23, 16, 27
  (``empty_row`` 0 alone: 17, 10, 28).
- ``mobility`` and ``centre``: only in games where every card move goes home
  (no row takes a card from a player: Windmill). There every move scored
  ``foundation`` alike, so the heuristic played greedy's first move. Instead
  each move is played on a copy of what the player sees, its automatic refills
  included (a card that comes from the face-down stock stays unseen); its score
  is ``mobility`` times the card moves the player then sees (idle transfers
  left out) plus ``centre`` when it goes to a foundation of more than 13 cards
  (Windmill's centre, which takes every rank in turn); a move whose result the
  player has seen is skipped. Windmill deals 1-300: 69 won against greedy's 48.
  (``mobility`` 100 and ``centre`` 30 were picked on deals 1-100 among a few
  variants: mobility alone won 22, centre alone 19, both 25, greedy 16; a
  preference for the waste or for king piles did not help; deals 1001-1300,
  not used for it: 57 against 41. ``take_back`` is large enough to forbid.)

The defaults of the first eleven weights were tuned on deals 5001-5600 of Beleaguered Castle, Citadel and
Streets and Alleys. Only the ratios of the weights other than ``next_move``
matter (scaling them all alike plays the same moves). With the lookahead,
``foundation`` must be small next to the other weights: a move that merely
enables a card home would otherwise outscore every constructive move.

For Fortress-like games (same-suit building up or down) the same features apply:
"soon needed" is measured against each suit's foundation, so a build that covers
a card of its own suit that must go home first (5H onto 4H) counts as burying
it. (A separate penalty for such builds was tried and won no more games.)

Where the player chooses the foundation base (Chessboard), the heuristic plans
the base before choosing it: the rank whose four cards are least buried, i.e.
the fewest cards lie on top of them, summed (``features.least_buried_rank``;
lowest rank on ties), recomputed each turn until a card goes home. Until then
"soon needed" counts from that planned base, and a foundation move scores
``foundation`` only if its card has the planned rank. Any other first card home
is a last resort: it is played only when no other move is left (within the
lookahead it scores ``-foundation``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel, moves, position_set
from simlab.engine.game import Game, State
from simlab.engine.layout import (
    BUILD_NONE,
    EMPTY_FILL,
    FILL_ANY,
    FIRST_CELL,
    FIRST_RESERVE,
    MOVE_BASE,
    N_CARDS,
    OFFSET_BASE,
    P_ACCEPTS_FROM,
    P_BUILD,
    P_LIMIT,
)
from simlab.params import Param
from simlab.policies.base import Policy, WeightTable, weight_parameters, weight_vector
from simlab.policies.catalog import register_policy
from simlab.policies.features import (
    cards_until_home,
    destination_pile,
    is_cell,
    is_foundation_pile,
    is_row,
    planned_base,
    source_pile,
    top_is_placed,
    urgency,
)
from simlab.policies.playout import (
    card_moves_first,
    drop_idle_transfers,
    foreseeable,
    leads_to_seen,
    playout_loop,
    run_compiled,
)
from simlab.policies.record import PlayRecord

WEIGHTS: WeightTable = (
    ("foundation", 100.0, "bonus for playing a card home"),
    ("empty_row", 1200.0, "bonus for emptying a row"),
    ("use_space", 500.0, "penalty for putting a card into an empty row"),
    ("use_cell", 300.0, "penalty for putting a card into a free cell"),
    ("expose", 400.0, "bonus when the uncovered card can go home at once"),
    ("dig", 60.0, "bonus per unit of urgency brought one card nearer the top"),
    ("bury", 160.0, "penalty per unit of urgency covered by the move"),
    ("same_suit", 200.0, "bonus for building on a card of the same suit"),
    ("sideways", 0.0, "penalty for moving a card that already sat where it belongs"),
    ("next_move", 1.0, "times the score of the best move the move makes possible (lookahead)"),
    ("dead_end", 2000.0, "penalty when the move leaves no legal move and the game is not won"),
    ("take_back", 5000.0, "penalty for taking a card off a foundation onto a row (Fan's foundation_return)"),
    ("mobility", 100.0, "where every move goes home (Windmill): times the card moves seen after the move"),
    ("centre", 30.0, "where every move goes home (Windmill): bonus for a foundation of more than 13 cards"),
    ("fan_empty_row", 0.0, "fans (an empty row takes a king or nothing): empty_row's bonus there"),
    ("fan_same_suit", 0.0, "fans: same_suit's bonus there"),
)

NEXT_MOVE = 9
DEAD_END = 10
TAKE_BACK = 11
MOBILITY = 12
CENTRE = 13
FAN_EMPTY_ROW = 14
FAN_SAME_SUIT = 15


LAST_RESORT = -1e17  # the score of a move that fixes another base than planned


@njit(cache=True)
def fixes_other_base(rules, state, move):
    """``move`` plays the first card home (Chessboard) with another rank than planned."""
    return (
        state[rules[OFFSET_BASE]] < 0
        and is_foundation_pile(rules, destination_pile(move))
        and kernel.top_card(rules, state, source_pile(move)) % 13 != planned_base(rules, state)
    )


@njit(cache=True)
def move_score(rules, state, move, weights):
    """The weighted features of ``move`` (weights in the order of ``WEIGHTS``)."""
    source = source_pile(move)
    destination = destination_pile(move)
    card = kernel.top_card(rules, state, source)
    source_height = kernel.height(rules, state, source)
    if is_foundation_pile(rules, destination):
        if state[rules[OFFSET_BASE]] < 0 and card % 13 != planned_base(rules, state):
            return -weights[0]  # would fix another base than planned: a last resort
        return weights[0]
    score = 0.0
    fans = rules[EMPTY_FILL] != FILL_ANY  # an emptied row takes a king or nothing
    if is_row(rules, source) and source_height == 1:
        score += weights[FAN_EMPTY_ROW] if fans else weights[1]
    target = kernel.top_card(rules, state, destination)
    if is_row(rules, destination) and target < 0:
        score -= weights[2]
    if is_cell(rules, destination):
        score -= weights[3]
    if source_height >= 2:
        uncovered = kernel.card_at(rules, state, source, source_height - 2)
        if uncovered >= 0 and cards_until_home(rules, state, uncovered) == 0:
            score += weights[4]
    score += weights[5] * urgency(rules, state, source, 1)
    if target >= 0:
        score -= weights[6] * urgency(rules, state, destination, 0)
        if (card // 13) % 4 == (target // 13) % 4:
            score += weights[FAN_SAME_SUIT] if fans else weights[7]
    if top_is_placed(rules, state, source):
        score -= weights[8]
    if is_foundation_pile(rules, source):
        score -= weights[TAKE_BACK]
    return score


@njit(cache=True)
def best_reply(rules, state, previous, weights, legal, depth):
    """The score of the best move after ``previous`` (its plain reverse excluded),
    each counting ``next_move`` times its own best reply while ``depth`` > 1;
    ``-dead_end`` when no move but that reverse is left and the game is not won."""
    if kernel.is_won(rules, state):
        return weights[0]
    count = kernel.legal_moves(rules, state, legal[depth])
    count = card_moves_first(legal[depth], count)  # the replies a player can foresee the worth of
    reverse = destination_pile(previous) * MOVE_BASE + source_pile(previous)
    best = -weights[DEAD_END]
    for i in range(count):
        move = legal[depth, i]
        if move == reverse:
            continue
        score = move_score(rules, state, move, weights)
        if depth > 1 and foreseeable(rules, move):
            kernel.apply_move(rules, state, move)
            score += weights[NEXT_MOVE] * best_reply(rules, state, move, weights, legal, depth - 1)
            kernel.undo_move(rules, state, move)
        if score > best:
            best = score
    return best


@njit(cache=True)
def lookahead_score(rules, state, move, weights, legal, depth):
    """``move_score`` plus ``next_move`` times the best reply within ``depth`` further moves."""
    score = move_score(rules, state, move, weights)
    if depth > 0 and foreseeable(rules, move):
        kernel.apply_move(rules, state, move)
        score += weights[NEXT_MOVE] * best_reply(rules, state, move, weights, legal, depth)
        kernel.undo_move(rules, state, move)
    return score


@njit(cache=True)
def only_home_moves(rules):
    """Whether every card move goes to a foundation: no row takes a card from a
    player (Windmill's sails)."""
    for row in range(rules[FIRST_CELL]):
        if kernel.spec(rules, row, P_BUILD) != BUILD_NONE or kernel.spec(rules, row, P_ACCEPTS_FROM) != 0:
            return False
    return rules[FIRST_CELL] == rules[FIRST_RESERVE]


@njit(cache=True)
def home_choice(rules, view, legal, cards, zobrist, table, weights):
    """``heuristic_choice`` where every move goes home (``only_home_moves``):
    each move is played on a copy of what the player sees, with its automatic
    refills (a card refilled from the face-down stock stays unseen and goes
    nowhere); its score is ``mobility`` times the card moves then seen (idle
    transfers left out) plus ``centre`` for a foundation of more than 13 cards.
    A move whose result the player has seen is skipped."""
    after = view.copy()
    scratch = np.empty(rules[N_CARDS], dtype=np.int64)
    no_chance = np.zeros(1)  # a card move reads no shuffle
    best = -1
    best_score = -1e18
    for i in range(cards):
        move = legal[0, i]
        after[:] = view
        moves.play_any(rules, after, move, no_chance, scratch)
        if position_set.contains(table, kernel.position_hash(rules, after, zobrist)):
            continue
        count = kernel.legal_moves(rules, after, legal[1])
        seen_cards, count = drop_idle_transfers(rules, after, legal[1], card_moves_first(legal[1], count), count)
        score = move_score(rules, view, move, weights) + weights[MOBILITY] * seen_cards
        if kernel.spec(rules, destination_pile(move), P_LIMIT) > 13:
            score += weights[CENTRE]
        if score > best_score:
            best = move
            best_score = score
    return best


@njit(cache=True)
def heuristic_choice(rules, view, legal, cards, made, zobrist, table, extra):
    """The card move of ``legal[0, :cards]`` with the best score that brings back
    no position seen (ties: the first), or -1 (``playout.playout_loop``'s rule);
    ``legal``'s other rows are the lookahead's."""
    weights, depth = extra
    if only_home_moves(rules):
        return home_choice(rules, view, legal, cards, zobrist, table, weights)
    best = -1
    best_score = -1e18
    for i in range(cards):
        move = legal[0, i]
        if leads_to_seen(rules, view, move, zobrist, table):
            continue
        if fixes_other_base(rules, view, move):
            score = LAST_RESORT
        else:
            score = lookahead_score(rules, view, move, weights, legal, depth)
        if score > best_score:
            best = move
            best_score = score
    return best


@njit(cache=True)
def heuristic_playout(rules, board, zobrist, moves_out, max_moves, weights, depth):
    return playout_loop(rules, board, zobrist, moves_out, max_moves, heuristic_choice, max(depth + 1, 2), False,
                        (weights, depth))


@register_policy
class HeuristicPolicy(Policy):
    """A good human's strategy as weighted move features (see the module doc)."""

    name = "heuristic"
    # 2: ``take_back``, ``fan_empty_row``, ``fan_same_suit`` (fans), ``mobility`` and ``centre``
    # (Windmill); moves unchanged where an empty row takes any card (Castle family, Fortress, Chessboard).
    version = 2
    parameters = {
        **weight_parameters(WEIGHTS),
        "lookahead": Param(int, 1, "further moves searched to score each move (0 = none)", low=0, high=3),
    }

    def unused_parameters(self, game: Game) -> dict[str, str]:
        """In the fans ``fan_empty_row`` and ``fan_same_suit`` replace ``empty_row`` and
        ``same_suit``, elsewhere they are unused; ``mobility`` and ``centre`` count only where
        every move goes home (``move_score``, ``home_choice``)."""
        rules = game.rules
        fans = rules[EMPTY_FILL] != FILL_ANY
        unused = ({key: f"in game '{game.name}' an emptied row takes a king or nothing, so fan_{key} "
                        "replaces it" for key in ("empty_row", "same_suit")} if fans else
                  {f"fan_{key}": f"game '{game.name}' has no fans (an emptied row takes any card there), "
                                 f"so {key} counts instead" for key in ("empty_row", "same_suit")})
        if not only_home_moves(rules):
            unused.update({key: f"it counts only where every move goes home (Windmill), not in '{game.name}'"
                           for key in ("mobility", "centre")})
        return unused

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        weights = weight_vector(self.params, WEIGHTS)
        return run_compiled(
            game, state, heuristic_playout, self.params["max_moves"], weights, self.params["lookahead"]
        )
