"""Cheap proofs of loss (``simlab.solver.deadlock``), checked against the plain
reference search of ``tests/reference_search.py``: every position the relaxation
calls lost is lost, no position on a winning line is called lost, a second
implementation written here from the rules in the module's docstring gives the
same answers, and on pinned positions the variants that drop one of its rules
would prune a won position while it does not.

Positions are small real deals with most cards already home
(``reduced_deal``), kept when they have few legal moves: random small positions
are nearly always won, few moves make the lost ones.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference_search import full, reduced_deal, reference_search

from simlab import make_game
from simlab.engine.game import State
from simlab.engine.layout import FIRST_CELL, FIRST_FOUNDATION, FIRST_RESERVE
from simlab.solver.deadlock import provably_lost
from simlab.solver.plan import plan_for

CASTLE_GAMES = ["beleaguered_castle", "streets_and_alleys", "citadel", "siegecraft", "stronghold"]


# ----- a second implementation, from the rules as the docstring states them -------------------

def piles_of(game, array):
    """Rows and cells (bottom to top) and the foundation heights, as plain lists."""
    state, rules, names = State(array), game.rules, game.pile_names
    in_play = [game.pile_cards(state, names[p]) for p in range(int(rules[FIRST_RESERVE]))]
    first_foundation = int(rules[FIRST_FOUNDATION])
    heights = [len(game.pile_cards(state, names[p])) for p in range(first_foundation, first_foundation + 4)]
    return in_play, heights, int(rules[FIRST_CELL])


def relaxation_says_lost(game, array, targets_that_leave=True, empty_piles=True) -> bool:
    """The relaxation of ``simlab.solver.deadlock`` written again from its rules;
    the flags switch one rule off (the wrong variants)."""
    piles, heights, rows = piles_of(game, array)
    where = {card: (p, i) for p, pile in enumerate(piles) for i, card in enumerate(pile)}
    leaves: set[int] = set()

    def all_above_leave(p, i):
        return all(card in leaves for card in piles[p][i + 1:])

    def destination(card, p):
        if empty_piles and any(q != p and all(c in leaves for c in piles[q]) for q in range(len(piles))):
            return True
        suit, rank = divmod(card, 13)
        if all(suit * 13 + lower in leaves for lower in range(heights[suit], rank)):
            return True
        for target in (s * 13 + rank + 1 for s in range(4) if rank < 12):
            if target not in where:
                continue
            q, j = where[target]
            if targets_that_leave and target in leaves:
                return True
            if q != p and q < rows and all_above_leave(q, j):
                return True
        return False

    changed = True
    while changed:
        changed = False
        for p, pile in enumerate(piles):
            for i in range(len(pile) - 1, -1, -1):
                card = pile[i]
                if card in leaves:
                    continue
                if not all_above_leave(p, i) or not destination(card, p):
                    break
                leaves.add(card)
                changed = True
    return any(card not in leaves for pile in piles for card in pile)


# ----- drawn positions -----------------------------------------------------------------------

def drawn_positions(game_name: str, seed: int, count: int, pool: int = 10):
    """``count`` positions of the game, the ones with the fewest legal moves of
    ``pool * count`` drawn, with 26 to 36 cards left in play (fewer leave rows
    empty, and the relaxation rarely has anything to say)."""
    game = make_game(game_name)
    rng = np.random.Generator(np.random.PCG64(seed))
    drawn = []
    for i in range(pool * count):
        state = fill_the_cells(game, reduced_deal(game, rng, int(rng.integers(26, 37))), rng)
        drawn.append((len(game.legal_move_codes(state)), i, state))
    drawn.sort(key=lambda item: item[:2])
    return game, [state for _, _, state in drawn[:count]]


def fill_the_cells(game, state, rng):
    """``state`` with a random row top moved into each empty cell (with a cell
    free, every card has somewhere to go and the relaxation never fires)."""
    for cell in [name for name in game.pile_names if name.startswith("cell")]:
        into = [move for move in game.legal_moves(state) if move.destination == cell]
        if into:
            state = game.apply(state, into[int(rng.integers(len(into)))])
    return state


@pytest.mark.parametrize("game_name", CASTLE_GAMES)
def test_called_lost_only_when_lost_and_never_on_a_winning_line(game_name):
    game, positions = drawn_positions(game_name, seed=20261129, count=40)
    called_lost = winning_lines = 0
    for state in positions:
        verdict, line = reference_search(game, state, limit=20_000)
        if provably_lost(game.rules, state.array, plan_for(game).relaxation):
            called_lost += 1
            assert verdict in ("lost", "limit"), game.piles(state)
        if verdict == "won":
            winning_lines += 1
            for array in line:
                assert not provably_lost(game.rules, array, plan_for(game).relaxation), game.piles(State(array))
    assert called_lost >= 1 and winning_lines >= 10, (called_lost, winning_lines)


@pytest.mark.parametrize("game_name", CASTLE_GAMES)
def test_same_answers_as_the_second_implementation(game_name):
    game, positions = drawn_positions(game_name, seed=5, count=100)
    answers = [provably_lost(game.rules, state.array, plan_for(game).relaxation) for state in positions]
    assert answers == [relaxation_says_lost(game, state.array) for state in positions]
    assert 0 < sum(answers) < len(answers)


@pytest.mark.parametrize("game_name", ["fortress", "chessboard"])
def test_games_it_is_not_argued_for_are_never_called_lost(game_name):
    game = make_game(game_name)
    relaxation = plan_for(game).relaxation
    assert not any(provably_lost(game.rules, game.initial_state(deal).array, relaxation) for deal in range(1, 200))


# Deals 1-100 that fc-solve proves lost ("I could not solve this game" from
# ``fc-solve -g <preset> -to 01AB -sel -mi 1000000``, docs/rules.md section 0; the run
# behind results/bench/solver-20261129-143301.csv, made before this module existed).
FC_SOLVE_LOST = {
    "beleaguered_castle": [1, 3, 18, 21, 23, 25, 26, 35, 46, 54, 56, 57, 59, 63, 64, 65, 66, 68, 70, 71, 72, 76,
                           78, 80, 86, 92, 93, 98],
    "streets_and_alleys": [1, 2, 3, 5, 6, 14, 18, 20, 21, 22, 23, 25, 31, 33, 34, 35, 42, 43, 46, 49, 51, 52, 53,
                           56, 57, 60, 62, 63, 67, 71, 72, 74, 76, 78, 80, 82, 86, 89, 91, 92, 96, 98, 99, 100],
    "citadel": [21, 23, 25, 26, 46, 56, 63, 64, 65, 68, 72, 78, 80],
}


@pytest.mark.parametrize("game_name", sorted(FC_SOLVE_LOST))
def test_real_deals_called_lost_at_the_start_are_lost_for_fc_solve(game_name):
    """Of deals 1-100, those called lost before any move are all among fc-solve's
    proven losses, and they are a fair share of them (13 of 28, 22 of 44 and 7 of
    13 when this was written)."""
    game = make_game(game_name)
    relaxation = plan_for(game).relaxation
    called = [deal for deal in range(1, 101) if provably_lost(game.rules, game.initial_state(deal).array, relaxation)]
    assert set(called) <= set(FC_SOLVE_LOST[game_name])
    assert len(called) >= len(FC_SOLVE_LOST[game_name]) // 3


# ----- positions where a variant without one of the rules prunes a win -------------------------

# Without "into a pile that can be emptied": KD sits on QD, has no card above its
# rank and cannot go home before QD, but row1 can be emptied (QC and KC go home) and
# KD moved there. Found on a winning line of the reference search.
NEEDS_EMPTY_PILES = {"row0": "QD KD", "row1": "KC QC", "foundation0": full("C", "J"),
                     "foundation1": full("S", "K"), "foundation2": full("H", "K"), "foundation3": full("D", "J")}
# Without "onto a card one rank higher that can leave": found the same way, on a
# winning line of the reference search from a reduced Beleaguered Castle deal.
NEEDS_TARGETS_THAT_LEAVE = {
    "row0": "6C JC TS", "row1": "QC QH 6S 7S TD", "row2": "QS KH", "row3": "JD TH TC",
    "row4": "JH 4S 8C 9D 7C 8S", "row5": "5S 9H KS", "row6": "9C QD KC JS 8D", "row7": "9S KD",
    "foundation0": full("C", "5"), "foundation1": full("S", "3"), "foundation2": full("H", "8"),
    "foundation3": full("D", "7"),
}


@pytest.mark.parametrize("piles, wrong_variant", [
    (NEEDS_EMPTY_PILES, {"empty_piles": False}),
    (NEEDS_TARGETS_THAT_LEAVE, {"targets_that_leave": False}),
])
def test_a_variant_without_a_rule_would_prune_a_win(piles, wrong_variant):
    game = make_game("beleaguered_castle")
    state = game.state_from_piles(piles)
    assert reference_search(game, state, limit=40_000)[0] == "won"
    assert relaxation_says_lost(game, state.array, **wrong_variant)
    assert not relaxation_says_lost(game, state.array)
    assert not provably_lost(game.rules, state.array, plan_for(game).relaxation)
