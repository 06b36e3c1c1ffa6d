"""The play rules of the Castle family (docs/rules.md sections 0-5), on small drawn positions.

Every position is written as a dict literal with a diagram in the comment above it.
Rows are drawn bottom -> top, left to right; the rightmost card is the top card.
Foundation i holds suit i in PySolFC's order C, S, H, D.
"""

from __future__ import annotations

import pytest

from simlab import make_game
from simlab.errors import IllegalMoveError

RANKS = "A23456789TJQK"
SUITS = "CSHD"
ROWS = [f"row{i}" for i in range(8)]
FOUNDATIONS = [f"foundation{i}" for i in range(4)]

NO_CELL_GAMES = ["beleaguered_castle", "streets_and_alleys", "citadel"]
CELL_GAMES = ["siegecraft", "stronghold"]
ALL_GAMES = NO_CELL_GAMES + CELL_GAMES

all_games = pytest.mark.parametrize("game_name", ALL_GAMES)
cell_games = pytest.mark.parametrize("game_name", CELL_GAMES)

ACES_HOME = {"foundation0": "AC", "foundation1": "AS", "foundation2": "AH", "foundation3": "AD"}

# Eight single-card rows whose ranks (3,3,7,7,9,9,J,K) are never one apart, with no
# 2 or 4 or 5: no row top builds on another, goes home on ACES_HOME, or takes a 4.
NO_BUILD_TOPS = {"row0": "3D", "row1": "3S", "row2": "7D", "row3": "7S",
                 "row4": "9C", "row5": "9D", "row6": "JS", "row7": "KD"}


def moves(game, state) -> set[tuple[str, str]]:
    found = [tuple(m) for m in game.legal_moves(state)]
    assert len(found) == len(set(found)), f"duplicate legal moves: {found}"
    return set(found)


def is_legal(game, state, source, destination) -> bool:
    return (source, destination) in moves(game, state)


def assert_illegal(game, state, source, destination):
    assert (source, destination) not in moves(game, state)
    before = game.piles(state)
    with pytest.raises(IllegalMoveError):
        game.apply(state, (source, destination))
    assert game.piles(state) == before


def full_house_except(*away: str) -> dict[str, str]:
    """Foundations holding every card except ``away`` (which must be each suit's top cards)."""
    piles = {}
    for suit, foundation in zip(SUITS, FOUNDATIONS):
        cards = [r + suit for r in RANKS]
        while cards and cards[-1] in away:
            cards.pop()
        piles[foundation] = " ".join(cards)
    assert sum(len(p.split()) for p in piles.values()) == 52 - len(away)
    return piles


# ======================================================================================
# Tableau building (sections 1-5: down by one rank, any suit, no wrap, one card)
# ======================================================================================
@all_games
@pytest.mark.parametrize(
    ("card", "target", "legal"),
    [
        ("5H", "6C", True),  # down by one, other colour
        ("5C", "6S", True),  # down by one, same colour
        ("5C", "6C", True),  # down by one, same suit
        ("QD", "KS", True),  # Q on K
        ("AS", "2D", True),  # an ace may go on a two
        ("7H", "6C", False),  # up by one
        ("4H", "6C", False),  # down by two
        ("6H", "6C", False),  # same rank
        ("KH", "AC", False),  # no wrap: K never goes on A
        ("2H", "AC", False),  # nothing is built on an ace
        ("AH", "KC", False),  # no wrap the other way either
    ],
)
def test_build_down_by_one_rank_any_suit(game_name, card, target, legal):
    game = make_game(game_name)
    # row0: 9D <card>       row1: TD <target>       rows 2-7 hold one filler each
    # (every row is non-empty so that only the tested build can be made by <card>)
    layout = {
        "row0": f"9D {card}",
        "row1": f"TD {target}",
        "row2": "8S",
        "row3": "8H",
        "row4": "9S",
        "row5": "9H",
        "row6": "TS",
        "row7": "TH",
    }
    state = game.state_from_piles(layout)
    assert is_legal(game, state, "row0", "row1") == legal
    if legal:
        after = game.apply(state, ("row0", "row1"))
        assert game.piles(after)["row0"] == ["9D"]
        assert game.piles(after)["row1"] == ["TD", target, card]
    else:
        assert_illegal(game, state, "row0", "row1")


@all_games
def test_only_the_top_card_moves(game_name):
    game = make_game(game_name)
    # row0: 5H 9C     <- 5H would fit on 6S, but it is covered by 9C
    # row1: 6S
    # rows 2-7: one filler card each (no builds among them)
    layout = {"row0": "5H 9C", "row1": "6S", "row2": "2D", "row3": "4D",
              "row4": "8D", "row5": "QD", "row6": "QH", "row7": "QS"}
    state = game.state_from_piles(layout)
    assert_illegal(game, state, "row0", "row1")


@all_games
def test_a_run_does_not_move_as_a_unit(game_name):
    game = make_game(game_name)
    # row0: 7C 6H 5S   <- a run; its base 7C would fit on 8D, but only 5S may move
    # row1: 8D
    # rows 2-7: fillers with no builds
    layout = {"row0": "7C 6H 5S", "row1": "8D", "row2": "2D", "row3": "2H",
              "row4": "TC", "row5": "QD", "row6": "QH", "row7": "QS"}
    state = game.state_from_piles(layout)
    assert_illegal(game, state, "row0", "row1")


@all_games
def test_moving_to_an_empty_row_moves_one_card(game_name):
    game = make_game(game_name)
    # row0: 7C 6H 5S      row1: (empty)     rows 2-7: fillers
    layout = {"row0": "7C 6H 5S", "row2": "2D", "row3": "2H",
              "row4": "TC", "row5": "QD", "row6": "QH", "row7": "QS"}
    state = game.state_from_piles(layout)
    after = game.apply(state, ("row0", "row1"))
    assert game.piles(after)["row0"] == ["7C", "6H"]
    assert game.piles(after)["row1"] == ["5S"]


@all_games
@pytest.mark.parametrize("card", ["KS", "AH", "7D", "2C", "QC"])
def test_any_card_fills_an_empty_row(game_name, card):
    game = make_game(game_name)
    # row0: 9D <card>      row1: (empty)     rows 2-7: fillers
    layout = {"row0": f"9D {card}", "row2": "3D", "row3": "3H",
              "row4": "5C", "row5": "5S", "row6": "JH", "row7": "JS"}
    state = game.state_from_piles(layout)
    assert is_legal(game, state, "row0", "row1")
    after = game.apply(state, ("row0", "row1"))
    assert game.piles(after)["row1"] == [card]


@all_games
def test_every_empty_row_accepts_a_card(game_name):
    """Any card may fill ANY empty row (docs/rules.md section 1), not only the first one."""
    game = make_game(game_name)
    # row0: 9D 5C     rows 1-3: (empty)     rows 4-7: fillers
    layout = {"row0": "9D 5C", "row4": "3D", "row5": "3H", "row6": "JH", "row7": "JS"}
    state = game.state_from_piles(layout)
    for empty in ("row1", "row2", "row3"):
        assert is_legal(game, state, "row0", empty), empty
        assert game.piles(game.apply(state, ("row0", empty)))[empty] == ["5C"]


@all_games
def test_lone_card_may_move_to_another_empty_row(game_name):
    """docs/rules.md section 1: 'Any card may fill an empty row' -- including a row's only card (a null move)."""
    game = make_game(game_name)
    # row0: 5C     row1: (empty)     rows 2-7: fillers
    layout = {"row0": "5C", "row2": "3D", "row3": "3H", "row4": "9C",
              "row5": "9S", "row6": "JH", "row7": "JS"}
    state = game.state_from_piles(layout)
    assert is_legal(game, state, "row0", "row1")


@all_games
def test_nothing_moves_from_an_empty_row(game_name):
    game = make_game(game_name)
    # row0: (empty)     row1: 6C     rows 2-7: fillers
    layout = {"row1": "6C", "row2": "3D", "row3": "3H", "row4": "9C",
              "row5": "9S", "row6": "JH", "row7": "JS"}
    state = game.state_from_piles(layout)
    assert not any(source == "row0" for source, _ in moves(game, state))
    assert_illegal(game, state, "row0", "row1")


# ======================================================================================
# Foundations (section 0 "up in suit", sections 1-5)
# ======================================================================================
@all_games
@pytest.mark.parametrize(
    ("card", "foundation", "legal"),
    [
        ("3C", "foundation0", True),  # same suit, rank + 1
        ("4C", "foundation0", False),  # same suit, rank + 2
        ("2C", "foundation0", False),  # same rank as the top (there is no second 2C anyway)
        ("3S", "foundation0", False),  # wrong suit
        ("3S", "foundation1", False),  # right suit, but foundation1 holds only AS: needs 2S
        ("2S", "foundation1", True),
        ("2H", "foundation1", False),  # 2H belongs on foundation2
        ("2H", "foundation2", True),
        ("QD", "foundation3", False),
    ],
)
def test_foundation_takes_same_suit_rank_plus_one(game_name, card, foundation, legal):
    game = make_game(game_name)
    # foundations: AC 2C | AS | AH | AD
    # row0: 9D <card>     rows 1-7: fillers with no builds for <card>
    layout = {"foundation0": "AC 2C", "foundation1": "AS", "foundation2": "AH", "foundation3": "AD",
              "row0": f"9D {card}", "row1": "TH", "row2": "TS", "row3": "JC",
              "row4": "JH", "row5": "KC", "row6": "KH", "row7": "KS"}
    state = game.state_from_piles(layout)
    assert is_legal(game, state, "row0", foundation) == legal
    if legal:
        after = game.apply(state, ("row0", foundation))
        assert game.piles(after)[foundation][-1] == card
        assert game.piles(after)["row0"] == ["9D"]
        assert game.cards_home(after) == game.cards_home(state) + 1
    else:
        assert_illegal(game, state, "row0", foundation)


@all_games
def test_aces_go_to_their_empty_foundation(game_name):
    game = make_game(game_name)
    # foundations all empty (Streets and Alleys style)
    # row0: 9D AS     row1: 9H 2S     rows 2-7: fillers
    layout = {"row0": "9D AS", "row1": "9H 2S", "row2": "TH", "row3": "TS",
              "row4": "JC", "row5": "JH", "row6": "KC", "row7": "KH"}
    state = game.state_from_piles(layout)
    assert is_legal(game, state, "row0", "foundation1")
    for other in ("foundation0", "foundation2", "foundation3"):
        assert_illegal(game, state, "row0", other)
    # a two does not start an empty foundation
    for foundation in FOUNDATIONS:
        assert_illegal(game, state, "row1", foundation)
    after = game.apply(state, ("row0", "foundation1"))
    assert game.piles(after)["foundation1"] == ["AS"]
    # now the 2S follows
    assert is_legal(game, after, "row1", "foundation1")
    after2 = game.apply(after, ("row1", "foundation1"))
    assert game.piles(after2)["foundation1"] == ["AS", "2S"]
    assert game.cards_home(after2) == 2


@all_games
def test_no_move_takes_a_card_off_a_foundation(game_name):
    game = make_game(game_name)
    # foundations: AC 2C 3C | AS 2S | AH | AD 2D 3D 4D 5D 6D
    # row0: 4H    <- 3C (foundation0 top) would fit here if it could come back
    # row1: (empty) <- any foundation top would fit here
    # row2: 7S    <- 6D would fit here
    # rows 3-7: fillers
    layout = {"foundation0": "AC 2C 3C", "foundation1": "AS 2S", "foundation2": "AH",
              "foundation3": "AD 2D 3D 4D 5D 6D",
              "row0": "4H", "row2": "7S", "row3": "TH", "row4": "TS", "row5": "QC",
              "row6": "QH", "row7": "KC"}
    if game_name in CELL_GAMES:
        layout["cell0"] = ""
    state = game.state_from_piles(layout)
    assert not any(source.startswith("foundation") for source, _ in moves(game, state))
    for foundation in FOUNDATIONS:
        for destination in game.pile_names:
            if destination != foundation:
                assert_illegal(game, state, foundation, destination)


@all_games
def test_foundation_is_not_a_tableau_target(game_name):
    """A card that builds down on a foundation top (5H on a 6D top) may not go there."""
    game = make_game(game_name)
    # foundations: AC | AS | AH | AD..6D
    # row0: 9C 5H       rows 1-7: fillers
    layout = dict(ACES_HOME, foundation3="AD 2D 3D 4D 5D 6D", row0="9C 5H", row1="TH", row2="TS",
                  row3="JC", row4="JH", row5="KC", row6="KH", row7="KS")
    state = game.state_from_piles(layout)
    assert_illegal(game, state, "row0", "foundation3")
    assert_illegal(game, state, "row0", "foundation2")


# ======================================================================================
# Exact legal move sets, computed by hand from the rules
# ======================================================================================
@all_games
def test_exact_moves_full_tableau(game_name):
    game = make_game(game_name)
    # foundations: AC | AS | AH | AD          cell (if any): empty
    # row0: 9C 2C      2C -> foundation0, 2C -> 3D (row3)
    # row1: KD 5H      5H -> 6S (row2)
    # row2: 4S 6S      6S -> 7C (row6)
    # row3: QH 3D      3D -> 4C (row4)
    # row4: 7D 4C      4C -> 5H (row1)
    # row5: 8H 9S      (no ten on top anywhere)
    # row6: TS 7C      7C -> 8D (row7)
    # row7: JD 8D      8D -> 9S (row5)
    layout = dict(ACES_HOME, row0="9C 2C", row1="KD 5H", row2="4S 6S", row3="QH 3D",
                  row4="7D 4C", row5="8H 9S", row6="TS 7C", row7="JD 8D")
    state = game.state_from_piles(layout)
    expected = {
        ("row0", "foundation0"), ("row0", "row3"),
        ("row1", "row2"),
        ("row2", "row6"),
        ("row3", "row4"),
        ("row4", "row1"),
        ("row6", "row7"),
        ("row7", "row5"),
    }
    if game_name in CELL_GAMES:
        expected |= {(row, "cell0") for row in ROWS}  # every row top may go to the empty cell
    assert moves(game, state) == expected
    # and every one of them applies
    for move in expected:
        game.apply(state, move)


@all_games
def test_exact_moves_with_aces_and_no_wrap(game_name):
    game = make_game(game_name)
    # foundations: all empty
    # row0: 2H AS      AS -> foundation1, AS -> 2D (row1)
    # row1: 3C 2D      2D -> 3S (row4)     (2D may not start foundation3)
    # row2: KS AD      AD -> foundation3, AD -> 2D (row1)
    # row3: 5S 4H      (no five on top)
    # row4: QC 3S      3S -> 4H (row3)
    # row5: 6C KH      KH may NOT go on AS or AD (no wrap)
    # row6: 7S 9D      9D -> TC (row7)
    # row7: 8C TC      (no jack on top)
    layout = {"row0": "2H AS", "row1": "3C 2D", "row2": "KS AD", "row3": "5S 4H",
              "row4": "QC 3S", "row5": "6C KH", "row6": "7S 9D", "row7": "8C TC"}
    state = game.state_from_piles(layout)
    expected = {
        ("row0", "foundation1"), ("row0", "row1"),
        ("row1", "row4"),
        ("row2", "foundation3"), ("row2", "row1"),
        ("row4", "row3"),
        ("row6", "row7"),
    }
    if game_name in CELL_GAMES:
        expected |= {(row, "cell0") for row in ROWS}
    assert moves(game, state) == expected


@all_games
def test_exact_moves_with_an_empty_row(game_name):
    game = make_game(game_name)
    # foundations: AC 2C | AS | AH | AD
    # row0: 5D 4S      4S -> 5C (row6), -> row2
    # row1: 4D KC      KC -> row2
    # row2: (empty)
    # row3: 9H 2S      2S -> foundation1, -> 3H (row7), -> row2
    # row4: 8C QD      QD -> KC (row1), -> row2
    # row5: 7C 6H      6H -> row2
    # row6: TS 5C      5C -> 6H (row5), -> row2
    # row7: 6D 3H      3H -> 4S (row0), -> row2
    layout = {"foundation0": "AC 2C", "foundation1": "AS", "foundation2": "AH", "foundation3": "AD",
              "row0": "5D 4S", "row1": "4D KC", "row2": "", "row3": "9H 2S",
              "row4": "8C QD", "row5": "7C 6H", "row6": "TS 5C", "row7": "6D 3H"}
    state = game.state_from_piles(layout)
    expected = {
        ("row0", "row6"), ("row0", "row2"),
        ("row1", "row2"),
        ("row3", "foundation1"), ("row3", "row7"), ("row3", "row2"),
        ("row4", "row1"), ("row4", "row2"),
        ("row5", "row2"),
        ("row6", "row5"), ("row6", "row2"),
        ("row7", "row0"), ("row7", "row2"),
    }
    if game_name in CELL_GAMES:
        expected |= {(row, "cell0") for row in ROWS if row != "row2"}
    assert moves(game, state) == expected


@cell_games
def test_exact_moves_with_a_full_cell(game_name):
    game = make_game(game_name)
    # foundations: AC 2C | AS | AH | AD
    # cell0: 3C        3C -> foundation0, -> 4S (row0), -> row2
    # row0: 5D 4S      4S -> 5C (row6), -> row2          (cell is full: no row -> cell)
    # row1: 4D KC      KC -> row2
    # row2: (empty)
    # row3: 9H 2S      2S -> foundation1, -> 3H (row7), -> row2
    # row4: 8C QD      QD -> KC (row1), -> row2
    # row5: 7C 6H      6H -> row2
    # row6: TS 5C      5C -> 6H (row5), -> row2
    # row7: 6D 3H      3H -> 4S (row0), -> row2
    layout = {"foundation0": "AC 2C", "foundation1": "AS", "foundation2": "AH", "foundation3": "AD",
              "cell0": "3C",
              "row0": "5D 4S", "row1": "4D KC", "row2": "", "row3": "9H 2S",
              "row4": "8C QD", "row5": "7C 6H", "row6": "TS 5C", "row7": "6D 3H"}
    state = game.state_from_piles(layout)
    expected = {
        ("cell0", "foundation0"), ("cell0", "row0"), ("cell0", "row2"),
        ("row0", "row6"), ("row0", "row2"),
        ("row1", "row2"),
        ("row3", "foundation1"), ("row3", "row7"), ("row3", "row2"),
        ("row4", "row1"), ("row4", "row2"),
        ("row5", "row2"),
        ("row6", "row5"), ("row6", "row2"),
        ("row7", "row0"), ("row7", "row2"),
    }
    assert moves(game, state) == expected


@all_games
def test_no_moves_at_all(game_name):
    game = make_game(game_name)
    # foundations: AC | AS | AH | AD       cell (if any): holds 5C
    # row0: 9H   row1: 9D   row2: JC   row3: JS   row4: KD   row5: KH   row6: 3C   row7: 3S
    # (no top is one rank below another top; nothing is a 2; no empty row)
    layout = dict(ACES_HOME, row0="9H", row1="9D", row2="JC", row3="JS",
                  row4="KD", row5="KH", row6="3C", row7="3S")
    if game_name in CELL_GAMES:
        layout["cell0"] = "5C"
    state = game.state_from_piles(layout)
    assert moves(game, state) == set()
    assert len(game.legal_move_codes(state)) == 0
    assert not game.is_won(state)
    assert_illegal(game, state, "row0", "row1")


# ======================================================================================
# The free cell of Siegecraft (s.4) and Stronghold (s.5)
# ======================================================================================
@cell_games
def test_row_top_goes_to_empty_cell(game_name):
    game = make_game(game_name)
    # cell0: empty        row0: 8D KS        rows 1-7: fillers
    layout = dict(ACES_HOME, row0="8D KS", row1="3D", row2="3H", row3="5C",
                  row4="5S", row5="7H", row6="9S", row7="JD")
    state = game.state_from_piles(layout)
    after = game.apply(state, ("row0", "cell0"))
    assert game.piles(after)["cell0"] == ["KS"]
    assert game.piles(after)["row0"] == ["8D"]
    assert game.piles(state)["cell0"] == []


@cell_games
def test_cell_holds_one_card(game_name):
    game = make_game(game_name)
    # cell0: 4H        row0: 8D KS        rows 1-7: fillers
    layout = dict(ACES_HOME, cell0="4H", row0="8D KS", row1="3D", row2="2H", row3="5C",
                  row4="5S", row5="7H", row6="9S", row7="JD")
    state = game.state_from_piles(layout)
    for row in ROWS:
        assert_illegal(game, state, row, "cell0")


@cell_games
def test_cell_card_goes_to_row_by_building_rule(game_name):
    game = make_game(game_name)
    # cell0: 4H
    # row0: 8D 5S     <- 4H builds on 5S (down by one, any suit)
    # row1: 9C 5H     <- and on 5H
    # row2: 9D 3H     <- not on 3H (up)
    # row3: 9S 6C     <- not on 6C (two ranks)
    # row4: (empty)   <- any card fills it
    # rows 5-7: fillers
    layout = dict(ACES_HOME, cell0="4H", row0="8D 5S", row1="9C 5H", row2="9D 3H", row3="9S 6C",
                  row5="JC", row6="JH", row7="KC")
    state = game.state_from_piles(layout)
    cell_moves = {d for s, d in moves(game, state) if s == "cell0"}
    assert cell_moves == {"row0", "row1", "row4"}
    after = game.apply(state, ("cell0", "row0"))
    assert game.piles(after)["cell0"] == []
    assert game.piles(after)["row0"] == ["8D", "5S", "4H"]
    for row in ("row2", "row3", "row5", "row6", "row7"):
        assert_illegal(game, state, "cell0", row)


@cell_games
def test_cell_card_goes_to_foundation(game_name):
    game = make_game(game_name)
    # foundations: AC | AS | AH 2H 3H | AD       cell0: 4H
    # rows 0-7: 3D 3S 7D 7S 9C 9D JS KD (NO_BUILD_TOPS: nothing builds, nothing takes a 4)
    layout = dict(ACES_HOME, foundation2="AH 2H 3H", cell0="4H", **NO_BUILD_TOPS)
    state = game.state_from_piles(layout)
    assert moves(game, state) == {("cell0", "foundation2")}
    after = game.apply(state, ("cell0", "foundation2"))
    assert game.piles(after)["foundation2"] == ["AH", "2H", "3H", "4H"]
    assert game.piles(after)["cell0"] == []
    for foundation in ("foundation0", "foundation1", "foundation3"):
        assert_illegal(game, state, "cell0", foundation)


@cell_games
def test_foundation_card_never_goes_to_cell(game_name):
    game = make_game(game_name)
    # foundations: AC 2C | AS | AH | AD     cell0: empty
    # rows 0-7: 3D 3S 7D 7S 9C 9D JS KD (NO_BUILD_TOPS: no row top can go anywhere but the cell)
    layout = dict(ACES_HOME, foundation0="AC 2C", **NO_BUILD_TOPS)
    state = game.state_from_piles(layout)
    assert moves(game, state) == {(row, "cell0") for row in ROWS}
    for foundation in FOUNDATIONS:
        assert_illegal(game, state, foundation, "cell0")


@cell_games
def test_cell_card_cannot_go_to_a_cell(game_name):
    game = make_game(game_name)
    # cell0: 4H       rows 0-7: 3D 3S 7D 7S 9C 9D JS KD (NO_BUILD_TOPS)
    layout = dict(ACES_HOME, cell0="4H", **NO_BUILD_TOPS)
    state = game.state_from_piles(layout)
    cells = [name for name in game.pile_names if name.startswith("cell")]
    assert cells == ["cell0"]
    for cell in cells:
        assert_illegal(game, state, "cell0", cell)
    assert not any(s.startswith("cell") and d.startswith("cell") for s, d in moves(game, state))


@pytest.mark.parametrize("game_name", NO_CELL_GAMES)
def test_no_cells_without_a_cell_rule(game_name):
    game = make_game(game_name)
    assert sorted(game.pile_names) == sorted(ROWS + FOUNDATIONS)


@cell_games
def test_cell_games_have_one_cell(game_name):
    game = make_game(game_name)
    assert sorted(game.pile_names) == sorted(ROWS + FOUNDATIONS + ["cell0"])


# ======================================================================================
# Winning (s.0)
# ======================================================================================
@all_games
def test_win_when_all_52_cards_are_home(game_name):
    game = make_game(game_name)
    # foundations: every card but KD       row0: KD
    layout = dict(full_house_except("KD"), row0="KD")
    state = game.state_from_piles(layout)
    assert not game.is_won(state)
    assert game.cards_home(state) == 51
    assert ("row0", "foundation3") in moves(game, state)
    won = game.apply(state, ("row0", "foundation3"))
    assert game.is_won(won)
    assert game.cards_home(won) == 52
    assert game.piles(won)["foundation3"] == [r + "D" for r in RANKS]
    assert moves(game, won) == set()


@all_games
def test_not_won_with_cards_in_rows(game_name):
    game = make_game(game_name)
    # foundations: all but the four kings       rows 0-3: KC, KS, KH, KD
    layout = dict(full_house_except("KC", "KS", "KH", "KD"), row0="KC", row1="KS", row2="KH", row3="KD")
    state = game.state_from_piles(layout)
    assert not game.is_won(state)
    assert game.cards_home(state) == 48
    for i, foundation in enumerate(FOUNDATIONS):
        assert not game.is_won(state)
        state = game.apply(state, (f"row{i}", foundation))
    assert game.is_won(state)


@cell_games
def test_not_won_with_a_card_in_the_cell(game_name):
    game = make_game(game_name)
    # foundations: all but QH, KH        cell0: KH        row0: QH
    layout = dict(full_house_except("QH", "KH"), cell0="KH", row0="QH")
    state = game.state_from_piles(layout)
    assert not game.is_won(state)
    assert ("row0", "foundation2") in moves(game, state)
    assert ("cell0", "foundation2") not in moves(game, state)  # KH waits for QH
    state = game.apply(state, ("row0", "foundation2"))
    assert not game.is_won(state)
    state = game.apply(state, ("cell0", "foundation2"))
    assert game.is_won(state)
    assert game.cards_home(state) == 52


# ======================================================================================
# The API contract: apply is pure, illegal moves raise
# ======================================================================================
@all_games
def test_apply_does_not_mutate_its_input(game_name):
    game = make_game(game_name)
    state = game.initial_state(1)
    before_piles = game.piles(state)
    before_bytes = state.array.tobytes()
    before_hash = game.position_hash(state)
    for move in game.legal_moves(state):
        after = game.apply(state, move)
        assert after is not state
        assert after != state
        assert game.piles(state) == before_piles
        assert state.array.tobytes() == before_bytes
        assert game.position_hash(state) == before_hash


@all_games
def test_apply_moves_exactly_one_card(game_name):
    game = make_game(game_name)
    state = game.initial_state(3)
    before = game.piles(state)
    for source, destination in game.legal_moves(state):
        after = game.piles(game.apply(state, (source, destination)))
        assert after[source] == before[source][:-1]
        assert after[destination] == before[destination] + [before[source][-1]]
        for name in game.pile_names:
            if name not in (source, destination):
                assert after[name] == before[name]


@all_games
def test_illegal_moves_raise(game_name):
    game = make_game(game_name)
    # BC deal 1 (docs/rules.md section 0 vector): row0 top 6C, row7 top 6H -> 6H on 6C is illegal
    state = game.initial_state(1)
    legal = moves(game, state)
    for source in game.pile_names:
        for destination in game.pile_names:
            if (source, destination) not in legal:
                with pytest.raises(IllegalMoveError):
                    game.apply(state, (source, destination))
    with pytest.raises(IllegalMoveError):
        game.apply(state, ("row0", "row0"))
    with pytest.raises(IllegalMoveError):
        game.apply(state, ("row0", "nowhere"))
