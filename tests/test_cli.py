"""The ``simlab`` command line: listings, deals in three formats, play, and errors."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simlab import GAMES, POLICIES, cli, make_game
from simlab.boards import fcs_board, fcs_supports
from simlab.engine.layout import BUILD_UP_OR_DOWN_SAME_SUIT, Layout
from simlab.errors import SimlabError

TESTS = Path(__file__).parent
BC_DEAL_1 = """\
Foundations: H-A C-A D-A S-A
JD KD KS QH 8H 6C
2D KC 9D 4H 2C 3D
9H 9S QD 4D JH 8C
JC 5S JS 7S 7D TC
5D QC 3C 3S 6D 6S
7H KH 4C TD 8S 9C
7C 3H 5C 4S 8D 2H
5H 2S TS TH QS 6H"""


def run(capsys, *argv):
    """``simlab argv...`` in this process: (exit status, stdout, stderr)."""
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# ----- listings ---------------------------------------------------------------------


def test_games_lists_names_titles_ids_and_parameters(capsys):
    status, out, _ = run(capsys, "games")
    assert status == 0
    for name in GAMES.names():
        cls = GAMES.get(name)
        assert f"{name}: {cls.title} (PySolFC id {cls.pysol_id})" in out
    assert "deal='pysolfc'  (one of 'pysolfc', 'hoyle')" in out


def test_policies_lists_names_and_parameters(capsys):
    status, out, _ = run(capsys, "policies")
    assert status == 0
    for name in POLICIES.names():
        assert f"\n{name}: " in f"\n{out}"
    assert "max_moves=2000  (an int in [1, 1000000])" in out
    assert "foundation=100.0  (a float in [0, inf]) bonus for playing a card home" in out


# ----- deal -------------------------------------------------------------------------


def test_deal_text_shows_the_layout(capsys):
    status, out, _ = run(capsys, "deal", "beleaguered_castle", "1")
    assert status == 0
    assert out.splitlines()[0] == "beleaguered_castle deal 1"
    assert "row0         JD KD KS QH 8H 6C" in out


def test_deal_json_gives_every_pile_bottom_to_top(capsys):
    status, out, _ = run(capsys, "deal", "beleaguered_castle", "1", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert (data["game"], data["params"], data["deal"]) == ("beleaguered_castle", {}, 1)
    piles = data["piles"]
    assert list(piles) == [f"row{i}" for i in range(8)] + [f"foundation{i}" for i in range(4)]
    assert piles["row0"] == ["JD", "KD", "KS", "QH", "8H", "6C"]
    assert piles["row7"] == ["5H", "2S", "TS", "TH", "QS", "6H"]
    assert [piles[f"foundation{i}"] for i in range(4)] == [["AC"], ["AS"], ["AH"], ["AD"]]


def test_deal_json_names_cells_and_game_parameters(capsys):
    _, out, _ = run(capsys, "deal", "stronghold", "1", "--format", "json")
    assert json.loads(out)["piles"]["cell0"] == []
    _, out, _ = run(capsys, "deal", "citadel", "1", "--format", "json", "--param", "deal=hoyle")
    assert json.loads(out)["params"] == {"deal": "hoyle"}


def test_deal_fcs_for_beleaguered_castle(capsys):
    status, out, _ = run(capsys, "deal", "beleaguered_castle", "1", "--format", "fcs")
    assert (status, out) == (0, BC_DEAL_1 + "\n")


def test_deal_fcs_writes_the_free_cell(capsys):
    _, out, _ = run(capsys, "deal", "siegecraft", "1", "--format", "fcs")
    assert out.splitlines()[:2] == ["Foundations: H-A C-A D-A S-A", "Freecells: -"]
    game = make_game("stronghold")
    state = game.state_from_piles({"row0": "KD", "cell0": "5H", "foundation2": "AH"})
    assert fcs_board(game, state).splitlines()[:3] == ["Foundations: H-A", "Freecells: 5H", "KD"]
    assert fcs_board(game, state).splitlines()[3] == ":", "an empty row is written as ':'"


@pytest.mark.parametrize("game_name", ["beleaguered_castle", "streets_and_alleys", "citadel"])
@pytest.mark.parametrize("deal", [1, 2, 617, 31999, 123456])
def test_deal_fcs_matches_pysol_cards(capsys, game_name, deal):
    cards = pytest.importorskip("pysol_cards.cards")
    from pysol_cards.deal_game import Game
    from pysol_cards.random import RandomBase

    expected = Game(game_name, deal, RandomBase.DEALS_PYSOLFC, 13).calc_deal_string(
        deal, cards.CardRenderer(True)
    )
    _, out, _ = run(capsys, "deal", game_name, str(deal), "--format", "fcs")
    assert out == expected


@pytest.mark.parametrize("game_name", GAMES.names())
def test_deal_fcs_only_for_games_fc_solve_plays(capsys, game_name):
    status, out, err = run(capsys, "deal", game_name, "1", "--format", "fcs")
    if fcs_supports(make_game(game_name).table):
        assert status == 0 and out
    else:
        assert status == 2 and "Freecell Solver has no preset" in err


def test_fcs_refuses_a_game_that_builds_in_suit():
    assert not fcs_supports(Layout(rows=10, build=BUILD_UP_OR_DOWN_SAME_SUIT))
    assert fcs_supports(Layout(rows=8, cells=1))


@pytest.mark.skipif(shutil.which("fc-solve") is None, reason="fc-solve is not installed")
def test_fc_solve_reads_the_board(tmp_path):
    board = tmp_path / "bc1.board"
    board.write_text(BC_DEAL_1 + "\n")
    command = ["fc-solve", "-g", "beleaguered_castle", "-sel", "-mi", "100", "-to", "01AB", str(board)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    verdicts = ("This game is solveable.", "I could not solve this game.", "Iterations count exceeded.")
    assert any(v in result.stdout for v in verdicts), result.stdout + result.stderr


# ----- play -------------------------------------------------------------------------


@pytest.mark.parametrize("policy_name", POLICIES.names())
def test_play_each_policy(capsys, policy_name):
    status, out, _ = run(capsys, "play", "citadel", "5", "--policy", policy_name, "--json")
    assert status == 0
    record = json.loads(out)
    assert (record["game"], record["deal"], record["policy"], record["seed"]) == (
        "citadel", 5, policy_name, 0)
    game = make_game("citadel")
    state = game.initial_state(5)
    for move in record["moves"]:
        state = game.apply(state, tuple(move.split("->")))
    assert game.cards_home(state) == record["cards_home"]
    assert game.is_won(state) == (record["verdict"] == "won")


def test_play_prints_the_record(capsys):
    status, out, _ = run(capsys, "play", "citadel", "5", "--policy", "heuristic")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "citadel deal 5, policy heuristic, seed 0"
    assert lines[1].startswith("won after ") and lines[1].endswith("52 of 52 cards home")
    assert lines[2] == "moves:"
    _, record, _ = run(capsys, "play", "citadel", "5", "--policy", "heuristic", "--json")
    named = json.loads(record)["moves_named"]
    assert lines[3].split()[:5] == ["1.", *named[0].split()], "numbered, the card and the piles"
    assert f"{len(named)}. {named[-1]}" in lines[-1]


def test_play_show_prints_the_layout_after_every_move(capsys):
    _, out, _ = run(capsys, "play", "stronghold", "3", "--policy", "random", "--seed", "4", "--show")
    _, record, _ = run(capsys, "play", "stronghold", "3", "--policy", "random", "--seed", "4", "--json")
    moves, named = json.loads(record)["moves"], json.loads(record)["moves_named"]
    assert out.count("Foundations  ") == len(moves) + 1
    assert f"\n{len(moves)}. {named[-1]}\n" in out
    assert named[-1].endswith(" " + moves[-1].replace("->", " -> "))


def test_play_seed_and_policy_params_reach_the_policy(capsys):
    plays = {
        seed: json.loads(run(capsys, "play", "streets_and_alleys", "2", "--policy", "random",
                             "--seed", str(seed), "--json")[1])["moves"]
        for seed in range(4)
    }
    assert len({tuple(m) for m in plays.values()}) > 1
    _, out, _ = run(capsys, "play", "citadel", "5", "--policy", "heuristic",
                    "--policy-param", "max_moves=3", "--json")
    record = json.loads(out)
    assert (record["end_reason"], len(record["moves"])) == ("move_cap", 3)
    assert record["policy_params"]["max_moves"] == 3


def test_play_user_policy_from_the_current_directory():
    """The console script finds ``module:Class`` in the working directory, like ``python -m``."""
    script = Path(sys.executable).with_name("simlab")
    if not script.exists():
        pytest.skip("the simlab console script is not installed next to this Python")
    result = subprocess.run(
        [str(script), "play", "citadel", "5", "--policy", "user_policy_example:FoundationFirst",
         "--policy-param", "give_up=true", "--json"],
        cwd=TESTS, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert all(m.split("->")[1].startswith("foundation") for m in record["moves"])


# ----- errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deal", "beleguered_castle", "1"],
         "Unknown game 'beleguered_castle'. Did you mean 'beleaguered_castle'?"),
        (["play", "citadel", "1", "--policy", "greedie"], "Unknown policy 'greedie'. Did you mean 'greedy'?"),
        (["deal", "citadel", "1", "--param", "dael=hoyle"], "Did you mean 'deal'?"),
        (["play", "citadel", "1", "--policy", "heuristic", "--policy-param", "dgi=1"], "Did you mean 'dig'?"),
    ],
)
def test_unknown_names_exit_2_with_did_you_mean(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert message in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deal", "citadel", "1", "--param", "deal=hoyl"],
         "The 'deal' parameter of game 'citadel' must be one of 'pysolfc', 'hoyle'. Got 'hoyl'."),
        (["play", "citadel", "1", "--policy", "heuristic", "--policy-param", "dig=x"],
         "The 'dig' parameter of policy 'heuristic' must be a float in [0, inf]. Got 'x'."),
        (["play", "citadel", "1", "--policy", "greedy", "--policy-param", "max_moves=0"],
         "The 'max_moves' parameter of policy 'greedy' must be an int in [1, 1000000]. Got '0'."),
        (["deal", "citadel", "1", "--param", "deal"], "A parameter must be written key=value."),
        (["deal", "citadel", "0"], "argument N: must be an int in [1, 9223372036854775807]. Got '0'."),
        (["play", "citadel", "1"], "the following arguments are required: --policy"),
    ],
)
def test_bad_values_exit_2(capsys, argv, message):
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert message in err


def test_help_exits_0(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert all(command in out for command in ("games", "policies", "deal", "play"))


def test_every_subcommand_is_there_in_order():
    """Every family of subcommands is there, in the order ``simlab --help`` lists them."""
    parser = cli.build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(subparsers.choices) == ["games", "policies", "deal", "play", "run", "report", "recover", "deals",
                                        "solve", "hint", "show"]


# ----- command modules ----------------------------------------------------------------


@pytest.mark.parametrize("module", cli.COMMAND_MODULES)
def test_a_missing_command_module_is_an_error_not_a_missing_command(monkeypatch, module):
    """An installation without one of the command modules fails on every command, naming
    the module, instead of running without that module's subcommands."""
    monkeypatch.setitem(sys.modules, module, None)  # import it: ModuleNotFoundError
    with pytest.raises(ModuleNotFoundError, match=module.replace(".", r"\.")):
        cli.main(["games"])


def test_a_command_module_not_there_is_an_error(monkeypatch):
    monkeypatch.setattr(cli, "COMMAND_MODULES", ("simlab.cli.listings", "simlab.cli.no_such_commands"))
    with pytest.raises(ModuleNotFoundError, match="simlab.cli.no_such_commands"):
        cli.main(["games"])


def test_a_command_module_with_a_missing_dependency_still_fails(monkeypatch, tmp_path):
    (tmp_path / "broken_commands.py").write_text("import no_such_dependency_for_simlab\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cli, "COMMAND_MODULES", ("simlab.cli.listings", "broken_commands"))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_for_simlab"):
        cli.main(["games"])


def test_simlab_errors_from_a_handler_exit_2(monkeypatch, capsys):
    def failing(args):
        raise SimlabError("something specific went wrong")

    monkeypatch.setattr("simlab.cli.listings.games_command", failing)
    status, _, err = run(capsys, "games")
    assert status == 2
    assert err == "simlab games: error: something specific went wrong\n"
