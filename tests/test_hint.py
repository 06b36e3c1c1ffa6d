"""``simlab hint``: the solver's verdict and best move from any position, and the verdicts
``simlab show --verdicts`` writes into the page, one per position of the line."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from simlab import cli, make_game, solve
from simlab.solver.hint import hint
from simlab.solver.limits import TABLE_LOAD, table_bits_for

README = Path(__file__).resolve().parent.parent / "README.md"
DEAL = ("beleaguered_castle", 2)  # the solver wins it in a few hundred positions
LOSING = "row1->row4"  # after the solver's first three moves of DEAL: every line from there is lost
DATA = re.compile(r'<script id="simlab-data" type="application/json">(.*?)</script>', re.S)
JSON_KEYS = {"game", "params", "deal", "after_moves", "verdict", "reason", "best_move", "best_move_named",
             "moves_to_win", "information", "budget", "table_bits", "nodes", "seconds"}


@pytest.fixture(scope="module")
def line() -> list[str]:
    return [str(move) for move in solve(*DEAL).moves]


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def moves_file(tmp_path: Path, moves: list[str]) -> Path:
    path = tmp_path / "moves.txt"
    path.write_text(" ".join(moves) + "\n", encoding="utf-8")
    return path


def test_the_readme_lists_the_keys_hint_json_prints() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    listed = re.search(r"`--json` gives (`verdict`.*?`deal`)\.", text)
    assert listed is not None  # each key in backticks; what a value is, in brackets, left out
    assert set(re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", listed.group(1)))) == JSON_KEYS


def test_a_hint_from_the_deal_is_the_solvers_first_move(capsys: Any, line: list[str]) -> None:
    status, out, _ = run(capsys, "hint", *map(str, DEAL), "--json")
    record = json.loads(out)
    assert status == 0 and set(record) == JSON_KEYS
    assert (record["verdict"], record["reason"], record["after_moves"]) == ("won", "won", 0)
    assert "->".join(record["best_move"]) == line[0] and record["moves_to_win"] == len(line)
    assert record["information"] == "open" and record["best_move_named"].endswith("row6 -> row7")
    status, text, _ = run(capsys, "hint", *map(str, DEAL))
    assert text.splitlines() == [text.splitlines()[0], f"best move: {record['best_move_named']}"]
    assert text.startswith(f"beleaguered_castle deal 2 as dealt: won: a win is still possible, in {len(line)} moves")


def test_each_best_move_keeps_the_game_winnable(tmp_path: Path, capsys: Any, line: list[str]) -> None:
    game = make_game(DEAL[0])
    made: list[str] = []
    for _ in range(4):
        status, out, _ = run(capsys, "hint", *map(str, DEAL), "--moves", str(moves_file(tmp_path, made)), "--json")
        record = json.loads(out)
        assert status == 0 and record["verdict"] == "won" and record["after_moves"] == len(made)
        made.append("->".join(record["best_move"]))
    state = game.initial_state(DEAL[1])
    for move in made:
        state = game.apply(state, tuple(move.split("->")))
    assert solve(game, state).won


def test_a_hint_after_a_losing_move_says_lost_and_gives_no_move(tmp_path: Path, capsys: Any,
                                                                 line: list[str]) -> None:
    path = moves_file(tmp_path, line[:3] + [LOSING])
    status, out, _ = run(capsys, "hint", *map(str, DEAL), "--moves", str(path), "--budget", "10000", "--json")
    record = json.loads(out)
    assert status == 0 and (record["verdict"], record["reason"]) == ("lost", "exhausted")
    assert record["best_move"] is None and record["moves_to_win"] is None and record["after_moves"] == 4
    status, text, _ = run(capsys, "hint", *map(str, DEAL), "--moves", str(path), "--budget", "10000")
    assert text.startswith("beleaguered_castle deal 2 after 4 moves: lost: no win exists")
    assert text.splitlines()[-1] == "best move: none: no move leads to a win"
    before = moves_file(tmp_path, line[:3])  # the position before it was still winnable
    assert json.loads(run(capsys, "hint", *map(str, DEAL), "--moves", str(before), "--json")[1])["verdict"] == "won"


def test_a_budget_that_runs_out_says_unknown_never_lost(capsys: Any) -> None:
    status, out, _ = run(capsys, "hint", "beleaguered_castle", "1", "--budget", "5", "--json")
    record = json.loads(out)
    assert status == 0 and (record["verdict"], record["reason"], record["best_move"]) == ("unknown", "budget", None)
    text = run(capsys, "hint", "beleaguered_castle", "1", "--budget", "5")[1]
    assert "unknown: undecided: the budget of 5 positions ran out" in text and "raise --budget" in text
    assert json.loads(run(capsys, "hint", "beleaguered_castle", "1", "--json")[1])["verdict"] == "lost"


def test_a_hint_at_the_end_of_a_won_line_says_so(tmp_path: Path, capsys: Any, line: list[str]) -> None:
    status, out, _ = run(capsys, "hint", *map(str, DEAL), "--moves", str(moves_file(tmp_path, line)))
    assert status == 0 and out.splitlines() == [f"beleaguered_castle deal 2 after {len(line)} moves: won: the game "
                                                "is won", "best move: none: the game is won"]
    for printed in (["solve", *map(str, DEAL), "--json"], ["play", *map(str, DEAL), "--policy", "greedy"]):
        path = tmp_path / "printed.txt"  # what solve and play print is a moves file too
        path.write_text(run(capsys, *printed)[1], encoding="utf-8")
        record = json.loads(run(capsys, "hint", *map(str, DEAL), "--moves", str(path), "--json")[1])
        assert record["after_moves"] > 0 and record["verdict"] in ("won", "lost")
        assert (record["moves_to_win"] == 0) == (printed[0] == "solve")


@pytest.mark.parametrize("game,deal,sees", [("la_belle_lucie", "3", "shuffles to come"),
                                            ("castle_of_indolence", "1", "hidden cards")])
def test_where_cards_are_hidden_the_hint_is_labelled_thoughtful(capsys: Any, game: str, deal: str, sees: str) -> None:
    record = json.loads(run(capsys, "hint", game, deal, "--json")[1])
    assert record["information"] == "thoughtful" and record["verdict"] == "won"
    text = run(capsys, "hint", game, deal)[1]
    assert text.splitlines()[1].startswith(f"thoughtful: the solver sees {sees}, which a player cannot")


def test_an_illegal_move_in_the_file_is_named(tmp_path: Path, capsys: Any, line: list[str]) -> None:
    path = moves_file(tmp_path, line[:2] + ["row0->foundation9"])
    status, out, err = run(capsys, "hint", *map(str, DEAL), "--moves", str(path))
    assert status == 2 and out == ""
    assert f"moves file '{path}', move 3: row0->foundation9 is not legal after move 2" in err


def test_a_small_budget_gets_a_small_table_that_holds_it() -> None:
    assert table_bits_for(32_000_000) == 25 and table_bits_for(3) == 10
    for budget in (1_000, 20_000, 100_000, 1_000_000):  # below its full load: the budget, not the table, ends it
        bits = table_bits_for(budget)
        assert TABLE_LOAD * 2 ** bits > budget >= TABLE_LOAD * 2 ** (bits - 1)
    game = make_game("citadel")
    found = hint(game, game.initial_state(5), budget=100_000)
    assert found.verdict == "won" and found.best_move == solve(game, 5).moves[0]


def test_a_table_that_fills_says_unknown_and_which_option_to_raise(capsys: Any) -> None:
    """Deal 26 is lost, proved in about 50,000 positions; a table of 2**10 fills first."""
    argv = ["hint", "beleaguered_castle", "26", "--budget", "60000"]
    record = json.loads(run(capsys, *argv, "--json")[1])
    assert (record["verdict"], record["table_bits"]) == ("lost", table_bits_for(60_000))
    status, out, _ = run(capsys, *argv, "--table-bits", "10", "--json")
    record = json.loads(out)
    assert status == 0 and (record["verdict"], record["reason"], record["best_move"]) == ("unknown", "memory", None)
    assert (record["budget"], record["table_bits"]) == (60_000, 10)
    text = run(capsys, *argv, "--table-bits", "10")[1]
    assert "unknown: undecided: the transposition table filled (raise --table-bits)" in text
    assert text.splitlines()[-1] == "best move: none found before the table filled (raise --table-bits)"


# ----- simlab show --verdicts -------------------------------------------------------------
def page_data(tmp_path: Path, *argv: str) -> dict:
    page = tmp_path / "page.html"
    assert cli.main(["show", *argv, "--html", str(page)]) == 0
    return json.loads(DATA.search(page.read_text(encoding="utf-8")).group(1))


def test_the_page_shows_a_verdict_at_every_position_of_the_line(tmp_path: Path, capsys: Any,
                                                                 line: list[str]) -> None:
    path = moves_file(tmp_path, line[:3] + [LOSING])
    data = page_data(tmp_path, *map(str, DEAL), "--moves", str(path), "--verdicts", "--verdict-budget", "20000")
    verdicts = data["verdicts"]
    assert len(verdicts) == len(data["steps"]) == 5
    assert [v["verdict"] for v in verdicts] == ["won", "won", "won", "won", "lost"]
    game = make_game(DEAL[0])
    state = game.initial_state(DEAL[1])
    for number, verdict in enumerate(verdicts[:4]):
        found = hint(game, state, budget=20_000)
        assert verdict["moves_to_win"] == found.moves_to_win and verdict["best"].endswith(
            f"{found.best_move.source} -> {found.best_move.destination}")
        if number < 3:
            state = game.apply(state, tuple(line[number].split("->")))
    assert verdicts[4] == {"verdict": "lost", "moves_to_win": None, "best": None}
    note = "the solver's verdict at each position, at most 20,000 positions searched each"
    assert ["verdicts", note] in data["notes"]


def test_verdicts_where_cards_are_hidden_say_thoughtful_and_are_off_by_default(tmp_path: Path) -> None:
    data = page_data(tmp_path, "la_belle_lucie", "3", "--verdicts", "--verdict-budget", "10000")
    assert len(data["verdicts"]) == len(data["steps"]) and data["verdicts"][-1]["verdict"] == "won"
    assert all(v["verdict"] == "won" for v in data["verdicts"])  # along the solver's own won line
    note = dict(data["notes"])["verdicts"]
    assert "thoughtful: the solver sees shuffles to come" in note
    assert "verdicts" not in page_data(tmp_path, *map(str, DEAL))


@pytest.mark.parametrize("budget", ["10", "100000"])  # the default's value too: given, it is meant
def test_a_verdict_budget_without_verdicts_is_refused(tmp_path: Path, capsys: Any, budget: str) -> None:
    page = tmp_path / "p.html"
    status, _, err = run(capsys, "show", *map(str, DEAL), "--verdict-budget", budget, "--html", str(page))
    assert status == 2 and "--verdict-budget goes with --verdicts" in err and not page.exists()


def test_verdicts_without_a_budget_search_at_most_the_default(tmp_path: Path) -> None:
    data = page_data(tmp_path, "citadel", "5", "--verdicts")
    note = "the solver's verdict at each position, at most 100,000 positions searched each"
    assert ["verdicts", note] in data["notes"]
    assert data["verdicts"][0]["verdict"] == "won" and data["verdicts"][-1] == {"verdict": "won", "moves_to_win": 0,
                                                                                 "best": None}
