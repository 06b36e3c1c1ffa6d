"""``simlab.env``: one deal played step by step by an outside agent, checked against
``Game.apply`` on the state directly, in every game, and fair where cards are hidden."""

from __future__ import annotations

import numpy as np
import pytest

import simlab
from simlab import GAMES
from simlab.engine.environment import Environment, GameOverError
from simlab.engine.game import Observation, State
from simlab.engine.moves import HIDDEN
from simlab.errors import IllegalMoveError, ParameterError

STEPS = 120
HIDING = ("castle_of_indolence", "windmill")  # cards face down: the observation must not show them


def random_walk(name: str, observe: bool, seed: int = 7) -> None:
    """Seeded random moves through the environment and, beside it, through ``Game.apply``."""
    env = simlab.env(name, 2, observe=observe)
    game, rng = env.game, np.random.default_rng(seed)
    observation, info = env.reset()
    state, made = game.initial_state(2), []
    for step in range(STEPS):
        seen = game.observe(state) if observe else state
        assert observation == seen and type(observation) is (Observation if observe else State)
        assert env.legal_moves() == game.legal_moves(state) == info["legal_moves"]
        assert (info["won"], info["cards_home"], info["moves"]) == (game.is_won(state), game.cards_home(state), step)
        moves = game.legal_moves(state)
        if not moves or game.is_won(state):
            break
        move = moves[int(rng.integers(len(moves)))]
        observation, reward, terminated, truncated, info = env.step(move)
        state = game.apply(state, move)
        made.append(move)
        assert reward == (1.0 if game.is_won(state) else 0.0)
        assert terminated == (game.is_won(state) or not game.legal_moves(state))
        assert not truncated
    assert env.moves == made and len(made) >= min(STEPS, 5)


@pytest.mark.parametrize("name", GAMES.names())
def test_every_game_played_through_the_environment_matches_game_apply(name: str) -> None:
    random_walk(name, observe=True)


@pytest.mark.parametrize("name", ["castle_of_indolence", "windmill", "la_belle_lucie"])
def test_the_full_view_matches_game_apply_too(name: str) -> None:
    random_walk(name, observe=False)


def test_a_won_line_earns_the_reward_and_ends_the_game() -> None:
    env = simlab.env("citadel", 5)
    line = simlab.solve("citadel", 5, budget=100_000).moves
    for number, move in enumerate(line, start=1):
        _, reward, terminated, truncated, info = env.step(str(move) if number % 2 else move)
        assert (reward, terminated) == ((1.0, True) if number == len(line) else (0.0, False))
    assert info["won"] and env.legal_moves() == [] and not truncated
    with pytest.raises(GameOverError, match="reset"):
        env.step(line[0])
    observation, _ = env.reset()
    assert observation == env.game.observe(env.game.initial_state(5)) and env.moves == []


def test_an_illegal_move_is_refused_naming_the_legal_ones_and_changes_nothing() -> None:
    env = simlab.env("beleaguered_castle", 1)
    before = env.observation()
    with pytest.raises(IllegalMoveError, match="legal moves are: .*row"):
        env.step("row0->foundation0")
    assert env.observation() == before and env.moves == []


def test_max_moves_truncates() -> None:
    env = simlab.env("windmill", 1, max_moves=3)
    for _ in range(3):
        _, _, terminated, truncated, _ = env.step(env.legal_moves()[0])
    assert truncated and not terminated and env.legal_moves() == []


def test_a_clone_is_independent_of_its_original() -> None:
    env = simlab.env("streets_and_alleys", 3)
    for _ in range(4):
        env.step(env.legal_moves()[0])
    twin = env.clone()
    assert twin.observation() == env.observation() and twin.moves == env.moves
    before, moves_before = env.observation(), list(env.moves)
    for _ in range(5):
        twin.step(twin.legal_moves()[-1])
    assert env.observation() == before and env.moves == moves_before and twin.observation() != before
    env.step(env.legal_moves()[0])
    assert len(twin.moves) == 9 and len(env.moves) == 5
    full = simlab.env("la_belle_lucie", 1, observe=False)  # a state with a chance tape
    handed = full.observation()
    handed.array[:] = 0  # an agent that scribbles on what it was handed
    handed.chance[:] = 0
    assert full.observation() == full.game.initial_state(1) == full.clone().observation()


@pytest.mark.parametrize("name", HIDING)
def test_the_observation_leaks_no_hidden_card(name: str) -> None:
    """Every card the agent is handed is one a player sees, and what it is handed (the
    observation, the legal moves, the info) is the same when the hidden cards are
    shuffled among themselves."""
    env = simlab.env(name, 4)
    rng = np.random.default_rng(1)
    for _ in range(30):
        state, observation = env._state, env.observation()
        assert isinstance(observation, Observation) and not hasattr(observation, "chance")
        hidden = np.flatnonzero(observation.array != state.array)
        assert len(hidden) > 0 and (observation.array[hidden] == HIDDEN).all()
        assert "??" in sum(env.piles().values(), [])
        shuffled = state.array.copy()
        shuffled[hidden] = rng.permutation(state.array[hidden])
        assert not np.array_equal(shuffled, state.array)
        other = env.clone()
        other._state = State(shuffled, state.chance)
        assert_same_view(other, env)
        env.step(env.legal_moves()[int(rng.integers(len(env.legal_moves())))])
        if not env.legal_moves():
            break


def assert_same_view(other: Environment, env: Environment) -> None:
    """Everything ``other`` hands an agent is what ``env`` hands it."""
    assert other.observation() == env.observation() and other.legal_moves() == env.legal_moves()
    assert other.info() == env.info() and other.piles() == env.piles() and other.render() == env.render()
    assert other.clone().observation() == env.observation()


@pytest.mark.parametrize("name", ["la_belle_lucie", "trefoil"])
def test_the_observation_leaks_no_shuffle_to_come(name: str) -> None:
    """Where redeals shuffle, what the agent is handed is the same under another chance tape."""
    env = simlab.env(name, 4)
    rng = np.random.default_rng(2)
    for _ in range(30):
        state = env._state
        assert len(state.chance) > 1 and not hasattr(env.observation(), "chance")
        other = env.clone()
        other._state = State(state.array, rng.permutation(state.chance))
        assert not np.array_equal(other._state.chance, state.chance)
        assert_same_view(other, env)
        env.step(env.legal_moves()[int(rng.integers(len(env.legal_moves())))])
        if not env.legal_moves():
            break


@pytest.mark.parametrize("move", [5, ("row0",), ("row0", "row1", "row2"), None])
def test_what_is_not_a_move_is_refused_with_what_a_move_is(move: object) -> None:
    env = simlab.env("citadel", 5)
    with pytest.raises(IllegalMoveError, match="a move is a Move, a .source, destination. pair"):
        env.step(move)
    assert env.moves == []


@pytest.mark.parametrize("keywords", [{"max_moves": 0}, {"max_moves": -3}, {"max_moves": 2.5}, {"observe": "no"}])
def test_a_bad_max_moves_or_observe_is_refused(keywords: dict) -> None:
    with pytest.raises(ParameterError, match=next(iter(keywords))):
        simlab.env("citadel", 5, **keywords)


def test_the_information_label_says_what_the_agent_sees() -> None:
    assert simlab.env("citadel", 1).information == "open"
    assert simlab.env("windmill", 1).information == "fair"
    assert simlab.env("la_belle_lucie", 1).information == "fair"
    assert simlab.env("windmill", 1, observe=False).information == "thoughtful"
    assert isinstance(simlab.env(simlab.make_game("fan", deal="round_robin"), 1), Environment)
