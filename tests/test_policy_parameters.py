"""What every registered policy says of itself for the config's checks (issue 44):
``Policy.unused_parameters`` (a parameter that changes nothing is warned of) and
``Policy.proves_losses`` (only a player whose lost is a proved loss may stand for perfect
play in a ladder, since ``difficulty.csv`` calls its losses ``unwinnable``)."""

from __future__ import annotations

from typing import Any

import pytest

from simlab.games import GAMES, make_game
from simlab.params import Param
from simlab.play import play_deal
from simlab.policies import POLICIES, make_policy

# Small budgets, so that every policy plays a deal of every game in a moment; a
# parameter said to change nothing must change nothing at these budgets too.
BASES: dict[str, list[dict[str, Any]]] = {
    "solver": [{"budget": 300}, {"mode": "fair", "budget": 300, "samples": 2, "sample_budget": 200,
                                  "completion_budget": 100}],
    "lookahead": [{"budget": 50}],
    "round_max": [{"round_budget": 200}],
    "relaxation_bound": [{"samples": 1, "final_samples": 1, "round_budget": 50, "final_budget": 50}],
}
PAIRS = [(policy, game) for policy in POLICIES.names() for game in GAMES.names()]


def another_value(param: Param) -> Any:
    """A value of ``param`` other than its default, far enough from it to change play where
    it is used (a weight set to 0, or from 0 to 10: a weight nudged by a little may not)."""
    if param.choices:
        return next(choice for choice in param.choices if choice != param.default)
    if param.kind is bool:
        return not param.default
    low, high = param.bounds()
    if param.kind is float:
        return 0.0 if param.default and (low is None or low <= 0) else param.default + 10.0
    return param.default + 1 if high is None or param.default + 1 <= high else param.default - 1


@pytest.mark.parametrize(("policy_name", "game_name"), PAIRS)
def test_what_a_policy_says_of_itself_is_well_formed(policy_name: str, game_name: str) -> None:
    """For every policy and game: the unused parameters are parameters of the policy, each
    with a reason; proves_losses is a bool, True only for the solver's exhaustive search
    (thoughtful, or fair where nothing is hidden or shuffled: the same search)."""
    game = make_game(game_name)
    for params in BASES.get(policy_name, [{}]):
        policy = make_policy(policy_name, **params)
        unused = policy.unused_parameters(game)
        assert isinstance(unused, dict) and set(unused) <= set(type(policy).all_parameters()), unused
        assert all(isinstance(why, str) and why for why in unused.values()), unused
        proves = policy.proves_losses(game)
        assert isinstance(proves, bool)
        exhaustive = policy_name == "solver" and (policy.params["mode"] == "thoughtful"
                                                  or not (game.has_hidden_cards or game.has_chance))
        assert proves == exhaustive, (policy_name, params, game_name)


@pytest.mark.parametrize(("policy_name", "game_name"), PAIRS)
def test_a_parameter_said_to_change_nothing_changes_nothing(policy_name: str, game_name: str) -> None:
    """Each parameter a policy calls unused on a game, set to another value, plays deal 1
    exactly as before: the warning it gives is true (a parameter that mattered would be
    warned of wrongly, and the user would remove it)."""
    game = make_game(game_name)
    for params in BASES.get(policy_name, [{}]):
        policy = make_policy(policy_name, **params)
        if policy.cannot_play(game) is not None:
            continue
        declared = type(policy).all_parameters()
        for key in policy.unused_parameters(game):
            changed = make_policy(policy_name, **{**params, key: another_value(declared[key])})
            before, after = (play_deal(game, p, 1, root_seed=0) for p in (policy, changed))
            assert (after.verdict, after.moves, after.cards_home, after.value) == \
                (before.verdict, before.moves, before.cards_home, before.value), (key, params)
