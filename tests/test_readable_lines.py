"""What a researcher reads of a line: moves named by card, a position as a card
table, hidden cards kept hidden, and winning lines shortened (``simlab.engine.notation``,
``simlab.engine.table_text``, ``simlab.solver.shorten``)."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from simlab import GAMES, cli, make_game, solve
from simlab.engine.game import Move
from simlab.engine.layout import FOUNDATION_BY_SUIT
from simlab.engine.notation import describe_line, describe_move, numbered
from simlab.engine.table_text import render_table
from simlab.errors import IllegalMoveError
from simlab.solver.replay import replay, replays_to_win
from simlab.solver.shorten import shorten

CARD = re.compile(r"\b[A2-9TJQK][CSHD]\b")
RANKS = "A23456789TJQK"


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def citadel_line():
    game = make_game("citadel")
    result = solve(game, 5)
    assert result.won
    return game, game.initial_state(5), result.moves


# ----- naming moves -------------------------------------------------------------------


def test_a_named_move_is_the_card_that_moves(citadel_line):
    game, state, line = citadel_line
    names = describe_line(game, state, line)
    assert len(names) == len(line)
    for move, name in zip(line, names):
        card = game.piles(state)[move.source][-1]
        after = game.apply(state, move)
        assert name == f"{card} {move.source} -> {move.destination}"
        assert game.piles(after)[move.destination][-1] == card
        state = after


def test_a_turn_of_the_stock_names_the_card_it_shows():
    game = make_game("windmill")
    start = game.initial_state(1)
    after = game.apply(start, ("stock", "waste"))
    turned = game.piles(after)["waste"][-1]
    assert describe_move(game, start, ("stock", "waste")) == f"turn {turned} stock -> waste"
    assert len(game.piles(after)["stock"]) == len(game.piles(start)["stock"]) - 1


def test_a_draw_names_the_card_pulled_from_under_the_top():
    game = make_game("la_belle_lucie", redeals=0, draw=True)
    state = game.state_from_piles({"row0": "AC 5H 2S", "row1": "KD"})
    assert describe_move(game, state, ("row0[0]", "foundation0")) == "draw AC row0[0] -> foundation0"


def test_naming_an_illegal_move_raises():
    game = make_game("beleaguered_castle")
    with pytest.raises(IllegalMoveError):
        describe_move(game, game.initial_state(1), ("row0", "foundation0"))


def test_numbered_reads_across_in_columns():
    lines = numbered([f"8H row{i} -> row5" for i in range(12)], width=60)
    assert lines[0].split("   ")[0] == " 1. 8H row0 -> row5"
    assert all(len(line) <= 60 for line in lines)
    assert sum(line.count("->") for line in lines) == 12


# ----- shortening ---------------------------------------------------------------------


def test_shorten_merges_a_detour_into_one_move():
    game = make_game("beleaguered_castle")
    start = game.state_from_piles({
        "foundation0": " ".join(f"{r}C" for r in RANKS), "foundation1": " ".join(f"{r}S" for r in RANKS[:12]),
        "foundation2": " ".join(f"{r}H" for r in RANKS[:11]), "foundation3": " ".join(f"{r}D" for r in RANKS[:12]),
        "row0": "KH KS QH", "row1": "KD",
    })
    detour = [Move("row0", "row2"), Move("row2", "row1"), Move("row0", "foundation1"),
              Move("row1", "foundation2"), Move("row0", "foundation2"), Move("row1", "foundation3")]
    assert replays_to_win(game, start, detour)
    shorter = shorten(game, start, detour)
    assert len(shorter) == 4 and replays_to_win(game, start, shorter)
    assert describe_line(game, start, shorter)[0] == "QH row0 -> foundation2"


def test_shorten_gives_a_winning_line_no_longer(citadel_line):
    game, start, line = citadel_line
    shorter = shorten(game, start, line)
    assert len(shorter) <= len(line)
    assert replays_to_win(game, start, shorter)


def test_shorten_cuts_an_injected_cycle(citadel_line):
    game, start, line = citadel_line
    state = replay(game, start, line[:10])
    there_and_back = next(
        (Move(a, b), Move(b, a)) for a, b in game.legal_moves(state)
        if a.startswith("row") and b.startswith("row") and (b, a) in game.legal_moves(game.apply(state, (a, b)))
    )
    padded = line[:10] + list(there_and_back) + line[10:]
    assert replays_to_win(game, start, padded)
    shorter = shorten(game, start, padded)
    assert len(shorter) <= len(line)
    assert replays_to_win(game, start, shorter)


def test_shorten_refuses_an_illegal_line():
    game = make_game("beleaguered_castle")
    with pytest.raises(IllegalMoveError, match="Move 1 "):
        shorten(game, game.initial_state(1), [Move("row0", "foundation0")])


# ----- the card table -------------------------------------------------------------------


def cards_seen(game, state) -> Counter:
    return Counter(card for cards in game.visible_piles(game.observe(state)).values() for card in cards)


@pytest.mark.parametrize(("game_name", "hidden_pile"), [("windmill", "stock"), ("castle_of_indolence", "reserve0")])
def test_the_table_shows_no_hidden_card_unless_revealed(game_name, hidden_pile):
    game = make_game(game_name)
    state = game.initial_state(1)
    shown = Counter(CARD.findall(render_table(game, state)))
    assert shown and not shown - cards_seen(game, state), "only cards a player sees"
    revealed = Counter(CARD.findall(render_table(game, state, reveal=True)))
    hidden = Counter(game.piles(state)[hidden_pile][:-1] if hidden_pile != "stock" else game.piles(state)["stock"])
    assert hidden <= revealed - shown


def test_face_down_cards_are_counted(capsys):
    _, out, _ = run(capsys, "deal", "windmill", "1")
    game = make_game("windmill")
    stock = len(game.piles(game.initial_state(1))["stock"])
    assert f"stock        {stock} cards face down\n" in out
    _, out, _ = run(capsys, "deal", "castle_of_indolence", "1")
    top = make_game("castle_of_indolence").piles(make_game("castle_of_indolence").initial_state(1))["reserve0"][-1]
    assert f"reserve0     [12 face down] {top}\n" in out


def test_windmill_foundations_are_labelled_by_role(capsys):
    _, out, _ = run(capsys, "deal", "windmill", "1")
    assert "foundation0  centre, any suit, A..K x4  AC  (1 of 52 cards)" in out
    assert "foundation1  king pile, any suit, K..A  --" in out
    _, out, _ = run(capsys, "deal", "windmill", "1", "--param", "reversed=true")
    assert "foundation1  ace pile, any suit, A..K" in out


@pytest.mark.parametrize("game_name", GAMES.names())
def test_every_game_prints_a_card_table(capsys, game_name):
    status, out, _ = run(capsys, "deal", game_name, "1")
    assert status == 0
    game = make_game(game_name)
    assert "Rows         bottom .. top" in out and "Foundations  " in out
    starts = [line.split()[0] for line in out.splitlines()[1:]]
    assert all(starts.count(name) == 1 for name in game.pile_names), "every pile on one line of its own"
    if game.table.foundation_mode == FOUNDATION_BY_SUIT:
        assert "foundation0  clubs" in out


# ----- the commands ---------------------------------------------------------------------


def test_solve_json_keeps_moves_and_names_them(capsys):
    status, out, _ = run(capsys, "solve", "citadel", "5", "--json")
    record = json.loads(out)
    assert status == 0 and record["verdict"] == "won"
    assert all(len(move) == 2 for move in record["moves"])
    assert [name.split(" ", 1)[1] for name in record["moves_named"]] == [
        f"{a} -> {b}" for a, b in record["moves"]]


def test_solve_shorten_prints_a_replayed_shorter_line(capsys):
    _, out, _ = run(capsys, "solve", "citadel", "5", "--shorten", "--json")
    record = json.loads(out)
    shortening = record["shortened"]
    assert shortening["to"] == len(record["moves"]) <= shortening["from"]
    assert shortening["replayed_to_win"]
    game = make_game("citadel")
    assert replays_to_win(game, game.initial_state(5), [tuple(move) for move in record["moves"]])
    _, text, _ = run(capsys, "solve", "citadel", "5", "--shorten")
    assert f"shortened to {shortening['to']} moves" in text and "replayed to a win" in text


def test_solve_show_prints_only_the_piles_each_move_changed(capsys):
    _, out, _ = run(capsys, "solve", "citadel", "5", "--show")
    names = json.loads(run(capsys, "solve", "citadel", "5", "--json")[1])["moves_named"]
    blocks = out.split("\n\n", 1)[1].splitlines()
    headers = [line for line in blocks if not line.startswith(" ")]
    assert headers == [f"{number}. {name}" for number, name in enumerate(names, start=1)]
    assert len(blocks) == 3 * len(names), "each move changes two piles, one line each"
    first = blocks[:3]
    source, destination = first[0].split()[-3], first[0].split()[-1]
    assert {line.split()[0] for line in first[1:]} == {source, destination}


def test_play_json_names_its_moves(capsys):
    _, out, _ = run(capsys, "play", "windmill", "2", "--policy", "greedy", "--json")
    record = json.loads(out)
    assert len(record["moves_named"]) == len(record["moves"]) > 0
    assert record["moves_named"][0].startswith("turn ") and record["moves"][0] == "stock->waste"
