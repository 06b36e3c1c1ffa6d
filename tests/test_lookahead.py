"""The ``lookahead`` player and its bounded search (``simlab.solver.lookahead``)."""

from __future__ import annotations

import numpy as np
import pytest

from simlab import GAMES, make_game, make_policy, play_deal
from simlab.engine.game import NO_CHANCE, Game, State
from simlab.engine.layout import OFFSET_HEIGHTS
from simlab.engine.moves import HIDDEN
from simlab.solver.lookahead import STATUS_WON, lookahead, position_key

NOTHING = np.empty(0, dtype=np.uint64)


def replayed_positions(game: Game, state: State, moves) -> list[State]:
    """Every position of a play, from ``state``, each move made by the rules engine."""
    positions = [state]
    for move in moves:
        positions.append(game.apply(positions[-1], move))
    return positions


@pytest.mark.parametrize("name", GAMES.names())
@pytest.mark.parametrize("budget", [10, 100])
def test_plays_every_game_legally_without_repeating(name: str, budget: int) -> None:
    game = make_game(name)
    policy = make_policy("lookahead", budget=budget)
    for deal in (1, 2):
        record = play_deal(game, policy, deal)
        positions = replayed_positions(game, game.initial_state(deal), record.moves)
        assert record.won == game.is_won(positions[-1])
        assert record.cards_home == game.cards_home(positions[-1])
        hashes = [game.position_hash(position) for position in positions]
        assert len(set(hashes)) == len(hashes), f"{name} deal {deal} repeats a position"


def nearly_won() -> tuple[Game, State]:
    """Beleaguered Castle one move from a win: the king of hearts must make way
    (to an empty row) for the queen of clubs; then every card goes home."""
    game = make_game("beleaguered_castle")
    suit = {suit: [rank + suit for rank in "A23456789TJQK"] for suit in "CSHD"}
    return game, game.state_from_piles({
        "foundation0": suit["C"][:11], "foundation1": suit["S"], "foundation2": suit["H"][:10],
        "foundation3": suit["D"], "row0": "JH QC KH", "row1": "KC", "row2": "QH",
    })


def test_a_position_won_in_a_few_moves_is_won_at_a_small_budget() -> None:
    game, state = nearly_won()
    record = make_policy("lookahead", budget=10).play(game, state, np.random.default_rng(0))
    assert record.won
    assert game.is_won(replayed_positions(game, state, record.moves)[-1])


def test_the_search_never_reaches_a_seen_position() -> None:
    game, state = nearly_won()
    status, nodes, line, _ = lookahead(game, state.array, NO_CHANCE, 10, 20, NOTHING)
    assert status == STATUS_WON and nodes <= 10
    first = game.apply(state, game.move_from_code(line[0]))
    seen = np.array([position_key(game, first.array)], dtype=np.uint64)
    status, _, other, _ = lookahead(game, state.array, NO_CHANCE, 10, 20, seen)
    positions = replayed_positions(game, state, [game.move_from_code(code) for code in other])
    assert other and other[0] != line[0]
    assert all(position_key(game, position.array) != seen[0] for position in positions)


def test_stops_when_the_search_proves_the_deal_lost() -> None:
    game = make_game("beleaguered_castle")
    record = make_policy("lookahead", budget=100_000).play(game, game.initial_state(1), np.random.default_rng(0))
    # the solver proves deal 1 lost while legal moves are left: the player gives up
    assert (record.verdict, record.end_reason) == ("lost", "gave_up")
    end = game.initial_state(1)
    for move in record.moves:
        end = game.apply(end, move)
    assert game.legal_moves(end)


def with_hidden_cards_swapped(game: Game, state: State) -> State:
    """``state`` with its two lowest hidden cards swapped: another deal, the same observation."""
    view = game.observe(state).array
    slots = np.flatnonzero(view[: int(game.rules[OFFSET_HEIGHTS])] == HIDDEN)
    array = state.array.copy()
    array[slots[0]], array[slots[1]] = array[slots[1]], array[slots[0]]
    return State(array, state.chance)


@pytest.mark.parametrize("name", ["castle_of_indolence", "windmill"])
def test_decides_on_the_observation_only(name: str) -> None:
    game = make_game(name)
    policy = make_policy("lookahead", budget=200, max_moves=3)
    state = game.initial_state(3)
    other = with_hidden_cards_swapped(game, state)
    assert not np.array_equal(state.array, other.array)
    assert game.observe(state) == game.observe(other)
    first = policy.play(game, state, np.random.default_rng(7)).moves
    second = policy.play(game, other, np.random.default_rng(7)).moves
    assert first[0] == second[0]
    assert policy.is_stochastic(game)


def test_deterministic_in_an_open_game() -> None:
    game = make_game("citadel")
    policy = make_policy("lookahead", budget=100)
    assert not policy.is_stochastic(game)
    runs = [policy.play(game, game.initial_state(5), np.random.default_rng(seed)).moves for seed in (1, 2)]
    assert runs[0] == runs[1]


def test_a_share_of_the_budget_looks_for_a_win_first() -> None:
    game, state = nearly_won()
    status, nodes, line, _ = lookahead(game, state.array, NO_CHANCE, 100, 20, NOTHING, win_share=0.5)
    assert status == STATUS_WON and nodes <= 50
    final = replayed_positions(game, state, [game.move_from_code(code) for code in line])[-1]
    assert game.is_won(final)
    record = make_policy("lookahead", budget=100, win_share=0.5).play(game, state, np.random.default_rng(0))
    assert record.won
