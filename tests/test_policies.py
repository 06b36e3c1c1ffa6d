"""Policies: every one plays every game to a valid, reproducible record.

Records are checked by replaying their moves through ``Game.apply`` (the
checked, non-mutating API), so a policy's compiled loop and the public rules
must agree move by move.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from simlab import GAMES, POLICIES, Move, make_game, make_policy, play_deal
from simlab.errors import ParameterError, UnknownNameError
from simlab.play import deal_rng

USER_POLICY = "user_policy_example:FoundationFirst"  # tests/ is on sys.path under pytest
# players only: a bound (``relaxation_bound``) plays no move; tests/test_relaxation_bound.py checks it
ALL_POLICIES = [name for name in POLICIES.names() if not getattr(POLICIES.get(name), "bound", False)] + [USER_POLICY]
DEALS = (1, 2, 3)
# Windmill deal 2 is unresolved at the solver's default budget (32M positions,
# minutes of CPU; make bench, section windmill): the solver plays deals it decides.
SLOW_DEALS_LEFT_OUT = {("windmill", "solver"): (1, 3, 5)}


def replay(game, deal, moves):
    """The positions from the deal's start through every move (each checked legal)."""
    states = [game.initial_state(deal)]
    for move in moves:
        states.append(game.apply(states[-1], move))
    return states


def check_record(game, deal, record):
    """The record is consistent with the rules and with itself."""
    assert record.verdict in ("won", "lost") or (
        record.verdict == "unknown" and record.end_reason == "budget"
    ), record
    assert (record.verdict == "won") == (record.end_reason == "won")
    states = replay(game, deal, record.moves)
    assert game.cards_home(states[-1]) == record.cards_home
    assert game.is_won(states[-1]) == record.won
    if record.end_reason == "repeat":
        hashes = [game.position_hash(s) for s in states]
        assert hashes[-1] in hashes[:-1], "a 'repeat' ending must bring back an earlier position"


@pytest.mark.parametrize("policy_name", ALL_POLICIES)
@pytest.mark.parametrize("game_name", GAMES.names())
def test_every_policy_plays_every_game(game_name, policy_name):
    game = make_game(game_name)
    policy = make_policy(policy_name)
    for deal in SLOW_DEALS_LEFT_OUT.get((game_name, policy_name), DEALS):
        check_record(game, deal, play_deal(game, policy, deal, root_seed=7))


@pytest.mark.parametrize("policy_name", ALL_POLICIES)
def test_same_deal_and_seed_give_the_same_record(policy_name):
    game = make_game("beleaguered_castle")
    for deal in range(1, 6):
        first = play_deal(game, make_policy(policy_name), deal, root_seed=3)
        again = play_deal(game, make_policy(policy_name), deal, root_seed=3)
        assert first == again


@pytest.mark.parametrize("policy_name", ["random", USER_POLICY])
def test_another_seed_changes_the_random_moves(policy_name):
    game = make_game("streets_and_alleys")
    policy = make_policy(policy_name)
    differs = [
        play_deal(game, policy, deal, root_seed=0).moves != play_deal(game, policy, deal, root_seed=1).moves
        for deal in range(1, 11)
    ]
    assert any(differs)


@pytest.mark.parametrize("policy_name", ALL_POLICIES)
def test_play_leaves_global_random_state_alone(policy_name):
    game = make_game("siegecraft")
    policy = make_policy(policy_name)
    python_state, numpy_state = random.getstate(), np.random.get_state()  # noqa: NPY002  (on purpose)
    records = [play_deal(game, policy, deal) for deal in DEALS]
    assert random.getstate() == python_state
    after = np.random.get_state()  # noqa: NPY002  (on purpose)
    assert after[0] == numpy_state[0] and np.array_equal(after[1], numpy_state[1])
    assert after[2:] == numpy_state[2:]
    # And the other way round: poisoning the global generators changes nothing.
    random.seed(12345)
    np.random.seed(54321)  # noqa: NPY002  (deliberately touching the legacy global state)
    assert [play_deal(game, policy, deal) for deal in DEALS] == records


def test_user_policy_loads_by_module_and_class_without_registering():
    policy = make_policy(USER_POLICY, give_up=True)
    assert policy.params == {"max_moves": 2000, "give_up": True}
    assert USER_POLICY not in POLICIES and "foundation_first" not in POLICIES
    game = make_game("citadel")
    record = play_deal(game, policy, 5)
    check_record(game, 5, record)
    assert all(move.destination.startswith("foundation") for move in record.moves)
    assert record.end_reason in ("won", "no_moves", "gave_up")


def test_user_policy_parameters_are_validated():
    with pytest.raises(ParameterError, match="'give_up' parameter"):
        make_policy(USER_POLICY, give_up="perhaps")
    with pytest.raises(UnknownNameError, match="Did you mean 'give_up'"):
        make_policy(USER_POLICY, giveup=True)
    with pytest.raises(UnknownNameError, match="no such class"):
        make_policy("user_policy_example:NoSuchPolicy")


# ----- the greedy rule, as documented in simlab/policies/greedy.py -------------------

ACES_HOME = {"foundation0": "AC", "foundation1": "AS", "foundation2": "AH", "foundation3": "AD"}


def first_move(policy_name, piles):
    game = make_game("beleaguered_castle")
    state = game.state_from_piles({**ACES_HOME, **piles})
    record = make_policy(policy_name).play(game, state, deal_rng(1, 0, "test"))
    return record.moves[0]


def test_greedy_plays_home_before_building():
    # row0 -> row1 (6D on 7C) comes first in pile order; 2C home must still win.
    #   row0: QS 6D      row1: 5H 7C      row5: KD 2C
    piles = {"row0": "QS 6D", "row1": "5H 7C", "row5": "KD 2C"}
    assert first_move("greedy", piles) == Move("row5", "foundation0")


def test_greedy_builds_before_filling_an_empty_row():
    # row1 -> row0 (5C into the space) comes first in pile order; the build wins.
    #   row0: (empty)    row1: KD 5C      row2: KS 6H
    piles = {"row1": "KD 5C", "row2": "KS 6H"}
    assert first_move("greedy", piles) == Move("row1", "row2")


# ----- heuristic weights are parameters -----------------------------------------------


@pytest.mark.parametrize("bad", ["lots", [1.0], None, True, -1.0])
def test_heuristic_rejects_a_bad_weight(bad):
    with pytest.raises(ParameterError, match="The 'dig' parameter of policy 'heuristic' must be a float"):
        make_policy("heuristic", dig=bad)


def test_heuristic_weights_change_its_play():
    game = make_game("beleaguered_castle")
    default, changed = make_policy("heuristic"), make_policy("heuristic", foundation=0, empty_row=0)
    assert changed.params["foundation"] == 0.0
    assert any(
        play_deal(game, default, deal).moves != play_deal(game, changed, deal).moves
        for deal in range(1, 11)
    )


# ----- the move cap ---------------------------------------------------------------


@pytest.mark.parametrize("policy_name", [p for p in ALL_POLICIES if p != "solver"])
def test_move_cap_ends_the_game_as_lost(policy_name):
    game = make_game("citadel")
    uncapped = make_policy(policy_name)
    deal = next(d for d in range(1, 50) if play_deal(game, uncapped, d).move_count >= 2)
    record = play_deal(game, make_policy(policy_name, max_moves=1), deal)
    assert (record.verdict, record.end_reason, record.move_count) == ("lost", "move_cap", 1)
    check_record(game, deal, record)
