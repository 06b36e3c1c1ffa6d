"""``simlab show``: the page is self-contained, embeds every position replayed through the
engine with the cards a player cannot see flagged, and reads moves from the files
``simlab play`` / ``simlab solve`` write. (The page in a real browser: test_show_browser.py.)"""

from __future__ import annotations

import json
import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from simlab import cli, make_game
from simlab.engine.game import Move, parse_move
from simlab.errors import IllegalMoveError, SimlabError
from simlab.experiments.config import MAX_CONFIG_BYTES, MAX_CONFIG_DEPTH
from simlab.html_view import page_html, pile_cards
from simlab.input_limits import MAX_INPUT_BYTES
from simlab.move_files import json_depth, read_moves, replay_moves
from simlab.solver import solve

ROOT = Path(__file__).resolve().parent.parent
DATA = re.compile(r'<script id="simlab-data" type="application/json">(.*?)</script>', re.S)
WON_DEAL = ("beleaguered_castle", 2)  # the solver wins it in a few hundred positions


def show(tmp_path: Path, *argv: str) -> tuple[str, dict]:
    """Run ``simlab show ARGV --html`` and return the page and its embedded data."""
    page = tmp_path / "page.html"
    assert cli.main(["show", *argv, "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    return html, json.loads(DATA.search(html).group(1))


def foundation_cards(data: dict, step: int) -> int:
    return sum(len(pile) for name, pile in zip(data["pile_names"], data["steps"][step])
               if name.startswith("foundation"))


@pytest.fixture(scope="module")
def won_page(tmp_path_factory) -> tuple[str, dict]:
    game, deal = WON_DEAL
    return show(tmp_path_factory.mktemp("won"), game, str(deal))


def test_the_page_needs_no_network_and_no_other_file(won_page):
    html, _ = won_page
    assert not re.search(r"https?://", html)
    assert not re.search(r"<script[^>]*\bsrc=", html, re.I)
    assert not re.search(r"<link\b", html, re.I)
    assert not re.search(r"url\(", html)  # no image or font fetched by the CSS either
    assert "<style>" in html and "JSON.parse" in html


def test_the_page_embeds_every_position_of_the_solvers_won_line(won_page):
    _, data = won_page
    result = solve(make_game(WON_DEAL[0]), WON_DEAL[1])
    assert data["moves"] == [str(move) for move in result.moves]
    # the move list shows each move with its card: the top card of its source at that step
    assert len(data["moves_named"]) == len(result.moves)
    for step, (named, move) in enumerate(zip(data["moves_named"], result.moves)):
        source = data["steps"][step][data["pile_names"].index(move.source)]
        assert named == f"{source[-1][0]} {move.source} -> {move.destination}"
    assert len(data["steps"]) == len(result.moves) + 1
    assert data["verdict"] == "won" and data["source"].startswith("the solver")
    assert foundation_cards(data, 0) == 4  # Beleaguered Castle deals its aces home
    assert foundation_cards(data, -1) == 52 == data["total"]
    assert all(len(pile) == 0 for name, pile in zip(data["pile_names"], data["steps"][-1])
               if not name.startswith("foundation"))
    assert not any(hidden for step in data["steps"] for pile in step for _, hidden in pile)


def test_each_step_is_the_engine_position_after_that_move():
    game = make_game("citadel")
    state = game.initial_state(5)
    moves = solve(game, 5).moves[:6]
    states = replay_moves(game, state, moves, "test")
    steps, end = [pile_cards(game, position) for position in states], states[-1]
    for move, step in zip(moves, steps[1:]):
        state = game.apply(state, move)
        assert step == [[[card, 0] for card in game.piles(state)[name]] for name in game.pile_names]
    assert end == state


def test_hidden_flags_follow_the_players_observation():
    windmill = make_game("windmill")
    piles = dict(zip(windmill.pile_names, pile_cards(windmill, windmill.initial_state(1))))
    assert piles["stock"] and all(hidden for _, hidden in piles["stock"])
    assert not any(hidden for name, pile in piles.items() if name != "stock" for _, hidden in pile)
    castle = make_game("castle_of_indolence")
    state = castle.initial_state(1)
    piles = dict(zip(castle.pile_names, pile_cards(castle, state)))
    for index in range(4):
        reserve = piles[f"reserve{index}"]
        assert [hidden for _, hidden in reserve] == [1] * (len(reserve) - 1) + [0]
        assert [card for card, _ in reserve] == castle.piles(state)[f"reserve{index}"]  # faces still known


def test_a_policys_line_with_hidden_cards(tmp_path):
    _, data = show(tmp_path, "windmill", "3", "--policy", "greedy")
    assert data["source"] == "policy greedy, seed 0" and data["hides"] is True
    assert data["notes"] == [["policy parameters", "max_moves=2000, play_on=False"]]
    assert data["verdict"].split()[0] in ("won", "lost")
    assert len(data["steps"]) == len(data["moves"]) + 1
    stock = data["pile_names"].index("stock")
    assert all(hidden for _, hidden in data["steps"][0][stock])
    assert [group["title"] for group in data["bands"][0]["groups"]] == ["Stock", "Waste", "Foundations"]


@pytest.mark.parametrize("form", ["solve_json", "play_json", "text", "pairs_list"])
def test_a_moves_file_gives_the_same_page_as_the_solver(tmp_path, won_page, form):
    _, expected = won_page
    result = solve(make_game(WON_DEAL[0]), WON_DEAL[1])
    texts = [str(move) for move in result.moves]
    content = {
        "solve_json": json.dumps(result.to_json()),
        "play_json": json.dumps({"game": WON_DEAL[0], "moves": texts}),
        "text": "# a comment\nmoves: " + " ".join(texts[:10]) + "\n" + "\n".join(texts[10:]) + "\n",
        "pairs_list": json.dumps([[move.source, move.destination] for move in result.moves]),
    }[form]
    moves_file = tmp_path / "line.txt"
    moves_file.write_text(content)
    _, data = show(tmp_path, WON_DEAL[0], str(WON_DEAL[1]), "--moves", str(moves_file))
    assert data["steps"] == expected["steps"] and data["moves"] == expected["moves"]
    assert data["verdict"] == "won" and data["source"] == "moves file line.txt"


def test_a_short_moves_file_says_how_far_it_got(tmp_path):
    moves_file = tmp_path / "start.txt"
    moves_file.write_text("moves: none\n")
    _, data = show(tmp_path, "citadel", "5", "--moves", str(moves_file))
    assert data["moves"] == [] and len(data["steps"]) == 1
    home = make_game("citadel").cards_home(make_game("citadel").initial_state(5))
    assert home > 0 and data["verdict"] == f"not finished, {home} of 52 cards home"  # Citadel's deal plays home


@pytest.mark.parametrize("content, message", [
    ("row0->row5 row0-row3", "move 2: 'row0-row3' is not a move: expected SOURCE->DESTINATION"),
    ('{"moves": [["row0", "row5"], 7]}', "move 2: expected \"SOURCE->DESTINATION\" or [\"SOURCE\", \"DESTINATION\"], "
                                          "found 7"),
    ('{"verdict": "won"}', "expected a JSON list of moves or an object with a \"moves\" list"),
    ("{not json", "is not valid JSON"),
])
def test_a_malformed_moves_file_is_named_with_the_move(tmp_path, content, message):
    moves_file = tmp_path / "bad.txt"
    moves_file.write_text(content)
    with pytest.raises(SimlabError) as error:
        read_moves(moves_file)
    assert f"moves file '{moves_file}'" in str(error.value) and message in str(error.value)


def test_an_illegal_move_names_the_file_the_move_and_the_legal_moves(tmp_path, capsys):
    moves_file = tmp_path / "line.txt"
    game = make_game("beleaguered_castle")
    first = game.legal_moves(game.initial_state(2))[0]
    moves_file.write_text(f"{first} row0->foundation9\n")
    assert cli.main(["show", "beleaguered_castle", "2", "--moves", str(moves_file),
                     "--html", str(tmp_path / "page.html")]) == 2
    err = capsys.readouterr().err
    assert f"moves file '{moves_file}', move 2: row0->foundation9 is not legal after move 1" in err
    assert "the legal moves there are: " in err and not (tmp_path / "page.html").exists()


def test_a_moves_file_is_capped_as_a_config_is_and_read_bounded(tmp_path, capsys):
    """Past MAX_CONFIG_BYTES (the config's cap) a moves file is refused with status 2, read
    to one byte past the cap at most: an endless device too (it took 24 GB before)."""
    assert MAX_INPUT_BYTES == MAX_CONFIG_BYTES
    large = tmp_path / "large.txt"
    large.write_text("row0->row1\n" * (MAX_CONFIG_BYTES // 11 + 1))
    for path in (large, Path("/dev/zero")):
        if not path.exists():
            continue
        assert cli.main(["show", "citadel", "5", "--moves", str(path), "--html", str(tmp_path / "p.html")]) == 2
        err = capsys.readouterr().err
        assert f"moves file '{path}' must be at most 1,000,000 bytes (as a config file). Got a larger file." in err
        assert not (tmp_path / "p.html").exists()


def test_a_moves_file_nested_too_deep_is_refused_without_recursing(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert cli.main(["show", "citadel", "5", "--moves", str(deep), "--html", str(tmp_path / "p.html")]) == 2
    err = capsys.readouterr().err
    assert (f"moves file '{deep}' must nest JSON lists and objects at most {MAX_CONFIG_DEPTH} deep (a moves file "
            "needs 3). Got a deeper document.") in err
    assert "RecursionError" not in err
    # Brackets inside strings are not nesting: a move list as deep as allowed reads as before.
    assert json_depth('{"moves": [["row0", "row1"]], "note": "[[[[{{{{"}') == 3
    nested = tmp_path / "nested.json"
    nested.write_text("[" * (MAX_CONFIG_DEPTH - 1) + '["row0", "row1"]' + "]" * (MAX_CONFIG_DEPTH - 1))
    with pytest.raises(SimlabError, match="move 1: expected"):
        read_moves(nested)


def test_options_that_need_a_policy_and_unplayable_policies_are_refused(tmp_path, capsys):
    page = str(tmp_path / "page.html")
    assert cli.main(["show", "windmill", "1", "--seed", "3", "--html", page]) == 2
    assert "--policy-param and --seed go with --policy" in capsys.readouterr().err
    assert cli.main(["show", "windmill", "1", "--policy", "round_max", "--html", page]) == 2
    assert "policy 'round_max' cannot play game 'windmill'" in capsys.readouterr().err
    assert cli.main(["show", "windmill", "1", "--policy", "greedy", "--moves", page, "--html", page]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize("move", [Move("row3", "foundation0"), Move("row3[1]", "foundation2"),
                                  Move("redeal", "rows"), Move("stock", "waste")])
def test_parse_move_reads_what_str_prints(move):
    assert parse_move(str(move)) == move and parse_move(f"  {move}\n") == move


@pytest.mark.parametrize("text", ["row3", "row3->", "->row3", "row 3->row4", ""])
def test_parse_move_refuses_other_text(text):
    with pytest.raises(IllegalMoveError, match="expected SOURCE->DESTINATION"):
        parse_move(text)


def test_no_embedded_text_can_end_the_script():
    html = page_html({"title": "T", "deal": 1, "source": "</script><script>alert(1)</script><!--"})
    payload = DATA.search(html).group(1)
    assert "<" not in payload and json.loads(payload)["source"].startswith("</script>")


def test_the_template_is_package_data():
    """An installed (not editable) simlab must ship the page template too."""
    assert resources.files("simlab").joinpath("show_page.html").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "show_page.html" in config["tool"]["setuptools"]["package-data"]["simlab"]


def test_the_text_simlab_play_prints_is_a_moves_file(tmp_path, capsys):
    """What ``simlab play`` prints (a header, then numbered moves with their cards and
    redeals) reads back as the line it played."""
    assert cli.main(["play", "trefoil", "1", "--policy", "greedy", "--json"]) == 0
    played = [parse_move(text) for text in json.loads(capsys.readouterr().out)["moves"]]
    assert Move("redeal", "rows") in played  # the line has a redeal to read back
    assert cli.main(["play", "trefoil", "1", "--policy", "greedy"]) == 0
    moves_file = tmp_path / "play.txt"
    moves_file.write_text(capsys.readouterr().out)
    assert read_moves(moves_file) == played


def test_numbered_moves_out_of_order_are_refused(tmp_path):
    moves_file = tmp_path / "line.txt"
    moves_file.write_text("1. 8H row3 -> row5   3. 7C row2 -> row3\n")
    with pytest.raises(SimlabError, match="move 3 comes where move 2 should"):
        read_moves(moves_file)


def test_a_solver_out_of_budget_is_said_with_its_budget(tmp_path, monkeypatch):
    from simlab.cli import show as show_module
    from simlab.solver.limits import BUDGET
    from simlab.solver.result import SolveResult
    monkeypatch.setattr(show_module, "solve", lambda game, deal: SolveResult("unknown", "budget", 5, 0.1))
    _, data = show(tmp_path, "beleaguered_castle", "2")
    assert data["verdict"] == f"unknown (undecided: the budget of {BUDGET.default:,} positions ran out)"
