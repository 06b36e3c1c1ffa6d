"""The public Python API takes a registered name (its parameters as keywords or a
mapping) or the object, alike, and a misspelt name gets the did-you-mean error."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

import simlab
from simlab.errors import ConfigError, ParameterError, UnknownNameError


def test_make_game_and_make_policy_take_keywords_a_mapping_or_the_object() -> None:
    by_keywords = simlab.make_game("citadel", deal="hoyle")
    assert by_keywords.params == simlab.make_game("citadel", {"deal": "hoyle"}).params == {"deal": "hoyle"}
    assert simlab.make_game(by_keywords) is by_keywords
    policy = simlab.make_policy("lookahead", {"budget": 100}, win_share=0.5)
    assert (policy.params["budget"], policy.params["win_share"]) == (100, 0.5)
    assert simlab.make_policy(policy) is policy


class FirstMove(simlab.Policy):
    """A policy defined where it is used (a notebook): the first legal move."""

    def choose(self, game: Any, observation: Any, moves: list, rng: Any) -> Any:
        return moves[0]


def test_a_policy_class_defined_in_place_is_taken_with_its_parameters() -> None:
    policy = simlab.make_policy(FirstMove, max_moves=3)
    assert isinstance(policy, FirstMove) and policy.params == {"max_moves": 3}
    assert policy.registered_name == f"{__name__}:FirstMove"
    record = simlab.play_deal("citadel", FirstMove, 5, policy_params={"max_moves": 3})
    assert record.move_count == 3 and record.end_reason == "move_cap"
    with pytest.raises(UnknownNameError, match="Did you mean 'max_moves'"):
        simlab.make_policy(FirstMove, max_move=3)


@pytest.mark.parametrize("call", [
    lambda: simlab.make_game(simlab.make_game("citadel"), deal="hoyle"),
    lambda: simlab.make_policy(simlab.make_policy("greedy"), {"play_on": True}),
    lambda: simlab.make_game("citadel", {"deal": "hoyle"}, deal="pysolfc"),
    lambda: simlab.make_game(145),
    lambda: simlab.make_policy(None),
    lambda: simlab.make_game("citadel", ["deal", "hoyle"]),
])
def test_what_is_neither_a_name_with_parameters_nor_an_object_is_refused(call: Callable[[], Any]) -> None:
    with pytest.raises(ParameterError):
        call()


def test_play_deal_takes_names_and_objects_with_the_same_record() -> None:
    by_name = simlab.play_deal("citadel", "greedy", 5)
    by_object = simlab.play_deal(simlab.make_game("citadel"), simlab.make_policy("greedy"), 5)
    assert (by_name.verdict, by_name.moves) == (by_object.verdict, by_object.moves)
    assert by_name.verdict == "lost" and by_name.move_count == 7
    hoyle = simlab.play_deal("citadel", "lookahead", 5, game_params={"deal": "hoyle"}, policy_params={"budget": 50})
    same = simlab.play_deal(simlab.make_game("citadel", deal="hoyle"), simlab.make_policy("lookahead", budget=50), 5)
    assert hoyle.moves == same.moves


def test_a_registered_policy_class_is_its_name_and_draws_the_same_numbers() -> None:
    """The random policy made from its class plays deal 5 move for move as made from its name."""
    cls = simlab.POLICIES.get("random")
    assert simlab.make_policy(cls).registered_name == "random"
    assert simlab.play_deal("citadel", cls, 5).moves == simlab.play_deal("citadel", "random", 5).moves


def test_solve_takes_a_name_and_its_parameters() -> None:
    by_name = simlab.solve("citadel", 5, budget=100_000)
    assert by_name.verdict == "won" and len(by_name.moves) == 76
    assert by_name.moves == simlab.solve(simlab.make_game("citadel"), 5, budget=100_000).moves
    hoyle = simlab.solve("citadel", 5, budget=100_000, game_params={"deal": "hoyle"})
    assert hoyle.moves == simlab.solve(simlab.make_game("citadel", deal="hoyle"), 5, budget=100_000).moves


@pytest.mark.parametrize("call,misspelt,meant", [
    (lambda: simlab.make_game("citadl"), "game 'citadl'", "citadel"),
    (lambda: simlab.make_policy("greedyy"), "policy 'greedyy'", "greedy"),
    (lambda: simlab.play_deal("beleguered_castle", "greedy", 1), "game 'beleguered_castle'", "beleaguered_castle"),
    (lambda: simlab.play_deal("citadel", "heuristc", 1), "policy 'heuristc'", "heuristic"),
    (lambda: simlab.play_deal("citadel", "greedy", 1, policy_params={"play_onn": True}), "parameter 'play_onn'",
     "play_on"),
    (lambda: simlab.solve("citadl", 5), "game 'citadl'", "citadel"),
    (lambda: simlab.solve("citadel", 5, game_params={"dael": "hoyle"}), "parameter 'dael'", "deal"),
    (lambda: simlab.env("windmil", 1), "game 'windmil'", "windmill"),
    (lambda: simlab.env("windmill", 1, redeal=1), "parameter 'redeal'", "redeals"),
])
def test_an_unknown_name_gets_did_you_mean(call: Callable[[], Any], misspelt: str, meant: str) -> None:
    with pytest.raises(UnknownNameError) as caught:
        call()
    assert f"Unknown {misspelt}" in str(caught.value) and f"Did you mean '{meant}'?" in str(caught.value)


def test_load_results_reads_a_folder_back_and_summarize_takes_it(tmp_path: Path) -> None:
    config = {"name": "api", "root_seed": 0, "deals": {"start": 1, "count": 6}, "games": ["citadel"],
              "policies": ["greedy", "heuristic"], "execution": {"backend": "sequential"},
              "output": str(tmp_path / "api")}
    deals = simlab.run(config, progress=False)
    loaded = simlab.load_results(tmp_path / "api")
    assert loaded.equals(deals)
    summary = simlab.summarize(str(tmp_path / "api"))
    assert summary.equals(simlab.summarize(deals))
    assert {"win_rate", "wilson_low", "wilson_high"} <= set(summary.columns)
    assert (summary["wilson_low"] <= summary["win_rate"]).all()
    assert (summary["win_rate"] <= summary["wilson_high"]).all()


def test_load_results_of_a_folder_without_results_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="deals.csv"):
        simlab.load_results(tmp_path)
    (tmp_path / "deals.csv").write_text("game,policy\ncitadel\n")
    with pytest.raises(ConfigError, match="expected the per-deal table"):
        simlab.load_results(tmp_path)
