"""What a newcomer meets on the command line: listings in whole plain sentences, a solve
that says what its verdict means and what it cost without compiling, play that tells a
dead end from a player giving up, and tables that name the parameters of a variant."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simlab import POLICIES, cli, make_game, make_policy
from simlab.cli import solve as solve_commands
from simlab.cli.listings import summary
from simlab.compiling import compile_clock
from simlab.experiments.config import config_from_dict
from simlab.play import play_deal

USER_POLICY = "user_policy_example:FoundationFirst"  # tests/ is on sys.path under pytest


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# ----- listings and help ---------------------------------------------------------------


def test_policies_lists_whole_plain_sentences(capsys) -> None:
    status, out, _ = run(capsys, "policies")
    assert status == 0 and "``" not in out
    heads = [line for line in out.splitlines() if not line.startswith(" ")]
    assert [head.split(":")[0] for head in heads] == POLICIES.names()
    for name in POLICIES.names():
        text = summary(POLICIES.get(name).__doc__)
        assert text.endswith(".") and "module doc" not in text, (name, text)
        # the whole first paragraph, wrapped: every word of it is printed, in order
        block = out.split(f"{name}: ", 1)[1].split("\n    max_moves=", 1)[0]
        assert " ".join(block.split()) == text


def test_summary_drops_literals_and_module_pointers() -> None:
    doc = """Searches ``budget`` positions (see the module doc).

    More detail that stays in the docstring."""
    assert summary(doc) == "Searches budget positions."


def test_solve_help_explains_every_argument(capsys) -> None:
    assert cli.main(["solve", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps to the terminal's width
    assert "a game from 'simlab games'" in out and "PySolFC's game number" in out
    assert "--table-bits" in out and "transposition table" in out


# ----- solve: what the verdict means and what it cost ------------------------------------


def test_solve_says_won_once_with_its_moves(capsys) -> None:
    status, out, _ = run(capsys, "solve", "citadel", "5")
    first = out.splitlines()[0]
    assert status == 0 and first.startswith("citadel deal 5: won in ")
    assert "(won)" not in first and "positions" in first and "CPU s" in first
    assert "thoughtful" not in out  # Citadel hides nothing


def test_solve_says_lost_is_exhaustive_and_unknown_is_the_budget(capsys) -> None:
    _, lost, _ = run(capsys, "solve", "beleaguered_castle", "1")
    assert lost.startswith("beleaguered_castle deal 1: lost: no win exists")
    _, unknown, _ = run(capsys, "solve", "beleaguered_castle", "2", "--budget", "50")
    assert unknown.startswith("beleaguered_castle deal 2: unknown: undecided: the budget of 50 positions ran out")


def test_solve_says_it_knew_the_future_shuffles(capsys) -> None:
    _, out, _ = run(capsys, "solve", "la_belle_lucie", "3", "--budget", "20000")
    lines = out.splitlines()
    assert lines[1].startswith("thoughtful: the solver sees shuffles to come")
    assert "upper bound" in lines[1]


def test_compile_clock_counts_only_real_compilations() -> None:
    said = []

    @njit
    def fresh(x):  # a new function: numba compiles it on its first call
        return x * 2 + 1

    with compile_clock(announce=lambda module: said.append(1)) as clock:
        assert fresh(3) == 7
        assert fresh(4) == 9  # compiled already: no second compilation
        assert fresh(np.float64(1.5)) == 4.0  # new argument types: compiled again
    assert clock.compilations == 2 and clock.seconds > 0 and said == [1]


def test_a_command_says_once_that_it_is_compiling(capsys, monkeypatch) -> None:
    def compiles(args) -> int:
        @njit
        def first(x):
            return x + 1

        @njit
        def second(x):
            return x - 1

        print(first(1), second(1))
        return 0

    monkeypatch.setattr(solve_commands, "run_solve", compiles)
    status, out, err = run(capsys, "solve", "citadel", "5")
    assert status == 0 and out == "2 0\n"
    assert err.count("compiling its kernels") == 1 and "once" in err


def test_solve_result_keeps_compiling_apart(monkeypatch) -> None:
    """A search that spends 3 CPU s searching, 2 compiling (numba's compile event) and 1 more
    searching reports 4 s of search and 2 of compiling, in the result and its JSON."""
    import time

    from numba.core import event

    import simlab.solver
    from simlab.compiling import COMPILE_EVENT
    from simlab.solver.search import STATUS_LOST

    cpu = [100.0]

    def search(*args):
        cpu[0] += 3.0
        with event.trigger_event(COMPILE_EVENT):
            cpu[0] += 2.0
        cpu[0] += 1.0
        return STATUS_LOST, 7, [], 0

    monkeypatch.setattr(time, "process_time", lambda: cpu[0])
    monkeypatch.setattr(simlab.solver, "portfolio_verdict", search)
    result = simlab.solver.solve(make_game("citadel"), 5)
    assert (result.verdict, result.nodes) == ("lost", 7)
    assert (result.seconds, result.compile_seconds) == (4.0, 2.0)
    assert (result.to_json()["seconds"], result.to_json()["compile_seconds"]) == (4.0, 2.0)


# ----- play: a dead end or a player giving up --------------------------------------------


def end_of(game, deal, record):
    state = game.initial_state(deal)
    for move in record.moves:
        state = game.apply(state, move)
    return state


def test_no_moves_means_the_rules_allow_none() -> None:
    game = make_game("citadel")
    record = play_deal(game, make_policy("greedy"), 5)
    assert record.end_reason == "no_moves"
    assert game.legal_moves(end_of(game, 5, record)) == []


def test_gave_up_means_legal_moves_were_left() -> None:
    game = make_game("citadel")
    record = play_deal(game, make_policy(USER_POLICY, give_up=True), 5)
    assert not record.won and record.end_reason == "gave_up"
    assert game.legal_moves(end_of(game, 5, record))


def test_play_prints_why_it_ended_in_words(capsys) -> None:
    _, out, _ = run(capsys, "play", "citadel", "5", "--policy", "greedy")
    assert out.splitlines()[1].startswith("lost (no_moves: no legal move left) after 7 moves")


# ----- tables name a variant's parameters ------------------------------------------------


def labels(games, policies=("greedy",)):
    config = config_from_dict({"name": "t", "root_seed": 1, "deals": [1], "games": list(games),
                               "policies": list(policies)})
    return [g.label for g in config.games], [p.label for p in config.policies]


def test_default_labels_name_the_parameters_that_differ() -> None:
    games, policies = labels(["citadel", {"name": "citadel", "params": {"deal": "hoyle"}}],
                             ["greedy", {"name": "heuristic", "params": {"dig": 0.0, "bury": 160.0}}])
    assert games == ["citadel", "citadel (deal=hoyle)"]
    assert policies == ["greedy", "heuristic (dig=0.0)"]  # bury=160.0 is the default: not named


def test_a_given_label_wins_and_defaults_read_bare() -> None:
    games, _ = labels([{"name": "citadel", "params": {"deal": "pysolfc"}},
                       {"name": "citadel", "params": {"deal": "hoyle"}, "label": "hoyle"}])
    assert games == ["citadel", "hoyle"]


def test_a_claim_may_name_the_only_component_of_that_name() -> None:
    config = config_from_dict({"name": "t", "root_seed": 1, "deals": [1], "games": ["citadel"],
                               "policies": [{"name": "solver", "params": {"budget": 1000}}],
                               "claims": [{"game": "citadel", "policy": "solver", "win_rate": 0.5,
                                           "source": "s"}]})
    assert config.claims[0].policy == "solver (budget=1000)"


def test_a_name_two_components_share_must_be_a_label() -> None:
    from simlab.errors import ConfigError

    with pytest.raises(ConfigError, match="claims\\[0\\].policy must name a policy"):
        config_from_dict({"name": "t", "root_seed": 1, "deals": [1], "games": ["citadel"],
                          "policies": [{"name": "solver", "params": {"budget": 2000}},
                                       {"name": "solver", "params": {"budget": 1000}}],
                          "claims": [{"game": "citadel", "policy": "solver", "win_rate": 0.5,
                                      "source": "s"}]})


def test_the_same_component_twice_under_two_labels_is_refused() -> None:
    from simlab.errors import ConfigError

    with pytest.raises(ConfigError, match=r"policies\[1\]: 'b' is the same policy with the same parameters as "
                                          r"policies\[0\] \('a'\)"):
        config_from_dict({"name": "t", "root_seed": 1, "deals": [1], "games": ["citadel"],
                          "policies": [{"name": "solver", "label": "a", "params": {"budget": 1000}},
                                       {"name": "solver", "label": "b", "params": {"budget": 1000}}]})


def test_shorten_says_when_there_is_no_line_to_shorten(capsys) -> None:
    _, out, _ = run(capsys, "solve", "beleaguered_castle", "1", "--shorten")
    assert out.splitlines()[1] == "--shorten: no winning line to shorten"
