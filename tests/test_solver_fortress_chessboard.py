"""Solver verdicts for Fortress and Chessboard (issue 5).

Freecell Solver cannot play these games (no building up or down in suit), so
the pinned verdicts were cross-checked differently: each deal was solved by the
best-first search (``simlab.solve``, budget 200,000) and by the depth-first
search (``simlab.solver.search``, budget 2,000,000), which explore the positions
in unrelated orders. They agreed on every deal, and on every lost deal they
searched exactly the same number of positions (both exhaust the same space).
Every won verdict carries a line the rules engine replays to a win.
"""

from __future__ import annotations

import pytest

from simlab import make_game, solve
from simlab.engine import kernel
from simlab.engine.game import NO_CHANCE
from simlab.solver.plan import plan_for
from simlab.solver.replay import replays_to_win
from simlab.solver.search import ORDER_GUIDED, STATUS_LOST, STATUS_WON, depth_first_search

WON_DEALS = {
    "fortress": {2, 3, 5, 13, 16},
    "chessboard": {1, 2, 3, 5, 6, 10, 11, 12, 13, 16, 17, 18, 19, 20, 21, 23, 24, 25, 27, 28, 29},
}
DEALS = range(1, 31)


@pytest.mark.parametrize("name", sorted(WON_DEALS))
def test_pinned_verdicts_and_replays(name: str) -> None:
    game = make_game(name)
    for deal in DEALS:
        result = solve(game, deal, budget=200_000)
        expected = "won" if deal in WON_DEALS[name] else "lost"
        assert result.verdict == expected, (name, deal, result.verdict)
        if result.verdict == "won":
            assert replays_to_win(game, game.initial_state(deal), result.moves)


@pytest.mark.parametrize("name", sorted(WON_DEALS))
def test_depth_first_and_best_first_agree(name: str) -> None:
    game = make_game(name)
    for deal in range(1, 11):
        best_first = solve(game, deal, budget=200_000)
        status, nodes, _ = depth_first_search(
            game.rules, plan_for(game).array, game.initial_state(deal).array.copy(), NO_CHANCE, kernel.ZOBRIST,
            2_000_000, 22, ORDER_GUIDED, 0,
        )
        depth_first = {STATUS_WON: "won", STATUS_LOST: "lost"}.get(status, "unknown")
        assert best_first.verdict == depth_first, (name, deal)
        if depth_first == "lost":
            assert best_first.nodes == nodes, "both searches exhaust the same positions"


def test_chessboard_solutions_choose_one_base_for_all_suits() -> None:
    game = make_game("chessboard")
    result = solve(game, 1, budget=200_000)
    state = game.initial_state(1)
    for move in result.moves:
        state = game.apply(state, move)
    bottoms = {game.pile_cards(state, f"foundation{i}")[0] % 13 for i in range(4)}
    assert len(bottoms) == 1
