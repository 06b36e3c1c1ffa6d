"""Fortress and Chessboard (docs/rules.md sections 6 and 7), one drawn position per rule.

A position is drawn as text, one pile per line, bottom card first; ``--`` is an
empty pile. Every row is drawn, so the legal moves listed are all of them.
"""

from __future__ import annotations

import numpy as np
import pytest

from simlab import make_game
from simlab.cards import card_text, parse_card
from simlab.deals import shuffled_talon
from simlab.engine import kernel
from simlab.engine.layout import OFFSET_BASE
from simlab.errors import IllegalMoveError

ROWS = [f"row{i}" for i in range(10)]
RANKS = "A23456789TJQK"
SUITS = "CSHD"


def draw(game, diagram: str):
    """The position drawn in ``diagram``: lines ``pile  cards...`` (``--`` = empty)."""
    piles = {}
    for line in diagram.strip().splitlines():
        name, *cards = line.split()
        piles[name] = [] if cards == ["--"] else cards
    assert set(ROWS) <= set(piles), "draw every row"
    return game.state_from_piles(piles)


def moves(game, state) -> set[str]:
    """Every legal move as ``source->destination``."""
    return {str(move) for move in game.legal_moves(state)}


def home_moves(game, state) -> set[str]:
    return {m for m in moves(game, state) if "->foundation" in m}


def base(state) -> int:
    """The foundations' base rank index (0 = ace), or -1 while unchosen."""
    return int(state.array[make_game("chessboard").rules[OFFSET_BASE]])


@pytest.fixture(scope="module")
def fortress():
    return make_game("fortress")


@pytest.fixture(scope="module")
def chessboard():
    return make_game("chessboard")


# ----------------------------------------------------------------------------------------
# The deal (docs/rules.md section 6): 5 rounds to rows 0-9, then 2 cards to rows 0-1.
# ----------------------------------------------------------------------------------------
DEAL_1 = {  # rows 0 is the docs/rules.md section 0 vector; the rest are pinned from this implementation
    "row0": "JD 9S JS 4D 6D 2H",
    "row1": "2D 5S AS 7S 8S 6H",
    "row2": "9H AD AH 3S 8D",
    "row5": "7H 3H 5C TH 3D",
    "row9": "KC QD AC 7D 9C",
}


@pytest.mark.parametrize("name", ["fortress", "chessboard"])
def test_deal_1(name):
    game = make_game(name)
    piles = game.piles(game.initial_state(1))
    for row, cards in DEAL_1.items():
        assert piles[row] == cards.split()
    assert [len(piles[row]) for row in ROWS] == [6, 6] + [5] * 8
    assert all(piles[f"foundation{i}"] == [] for i in range(4))


def reference_rows(g: int) -> list[list[str]]:
    """docs/rules.md section 6 re-derived: the talon's last card is dealt first, round-robin."""
    talon = [card_text(c) for c in shuffled_talon(g)]
    order = talon[::-1]  # order[k] is the k-th card dealt
    rows = [[order[r * 10 + i] for r in range(5)] for i in range(10)]
    rows[0].append(order[50])
    rows[1].append(order[51])
    return rows


@pytest.mark.parametrize("name", ["fortress", "chessboard"])
@pytest.mark.parametrize("g", [1, 2, 3, 617, 11982, 31999, 32001, 123456, 10**16 + 7])
def test_deal_matches_reference(name, g):
    game = make_game(name)
    piles = game.piles(game.initial_state(g))
    assert [piles[row] for row in ROWS] == reference_rows(g)
    every_card = sorted(r + s for r in RANKS for s in SUITS)
    assert sorted(c for row in ROWS for c in piles[row]) == every_card


def test_reference_matches_rules_vector():
    assert reference_rows(1)[0] == "JD 9S JS 4D 6D 2H".split()


def test_pysol_ids(fortress, chessboard):
    assert (fortress.pysol_id, chessboard.pysol_id) == (147, 148)


# ----------------------------------------------------------------------------------------
# Tableau: up or down by one in the same suit (both games).
# ----------------------------------------------------------------------------------------
SAME_SUIT = """
row0  9C 5H
row1  6H
row2  4H
row3  6S
row4  JC
row5  2C
row6  8S
row7  QD
row8  TS
row9  3D
"""


@pytest.mark.parametrize("name", ["fortress", "chessboard"])
def test_builds_up_or_down_in_suit(name):
    game = make_game(name)
    tableau = {m for m in moves(game, draw(game, SAME_SUIT)) if "->row" in m}
    assert tableau == {
        "row0->row1",  # 5H down on 6H
        "row0->row2",  # 5H up on 4H
        "row1->row0",  # 6H up on 5H
        "row2->row0",  # 4H down on 5H
    }  # never 5H on 6S: another suit


def test_fortress_legal_moves_complete(fortress):
    """No ace on top and nothing on the foundations: no home move at all."""
    assert home_moves(fortress, draw(fortress, SAME_SUIT)) == set()


# ----------------------------------------------------------------------------------------
# Wrap: Fortress has none, Chessboard wraps K-A both ways in the same suit.
# ----------------------------------------------------------------------------------------
KING_AND_ACE = """
row0  KS
row1  5D AS
row2  KH
row3  9C
row4  JC
row5  2C
row6  7D
row7  QD
row8  5C
row9  3D
"""


def test_fortress_no_wrap(fortress):
    assert moves(fortress, draw(fortress, KING_AND_ACE)) == {"row1->foundation1"}  # AS home only


def test_chessboard_wraps_k_and_a(chessboard):
    tableau = {m for m in moves(chessboard, draw(chessboard, KING_AND_ACE)) if "->row" in m}
    assert tableau == {
        "row0->row1",  # KS on AS
        "row1->row0",  # AS on KS
    }  # not AS on KH, not KH on AS: another suit


# ----------------------------------------------------------------------------------------
# Spaces: any card fills an empty row.
# ----------------------------------------------------------------------------------------
SPACE = """
row0  --
row1  7C
row2  9D QS
row3  KH
row4  JC
row5  2C
row6  5S
row7  TD
row8  3H
row9  5D
"""


def test_any_card_fills_a_space(fortress):
    assert moves(fortress, draw(fortress, SPACE)) == {f"row{i}->row0" for i in range(1, 10)}


# ----------------------------------------------------------------------------------------
# Fortress foundations: up in suit from the ace, no wrap; cards never come back.
# ----------------------------------------------------------------------------------------
FORTRESS_HOME = """
foundation1  AS
row0  AH
row1  2S
row2  2H
row3  3D
row4  JC
row5  9C
row6  5S
row7  TD
row8  KC
row9  7H
"""


def test_fortress_foundation_from_ace(fortress):
    assert home_moves(fortress, draw(fortress, FORTRESS_HOME)) == {
        "row0->foundation2",  # AH starts hearts
        "row1->foundation1",  # 2S on AS
    }  # not 2H (hearts empty), not 3D, not KC


def test_fortress_full_foundation_takes_nothing(fortress):
    """13 clubs home: even an ace (a second deck's, drawn here) may not wrap onto the K."""
    state = draw(fortress, "foundation0 " + " ".join(r + "C" for r in RANKS) + "\n"
                 + "\n".join(f"row{i} --" for i in range(10)))
    pile = fortress.pile_index["foundation0"]
    assert not kernel.foundation_accepts(fortress.rules, state.array, pile, parse_card("AC"))


NOTHING_COMES_BACK = """
foundation0  AC 2C 3C
foundation2  AH
row0  --
row1  5C
row2  9D
row3  KH
row4  JC
row5  7C
row6  5S
row7  TD
row8  3H
row9  QS
"""


@pytest.mark.parametrize("name", ["fortress", "chessboard"])
def test_no_move_off_a_foundation(name):
    game = make_game(name)
    state = draw(game, NOTHING_COMES_BACK)
    assert not any(m.startswith("foundation") for m in moves(game, state))
    with pytest.raises(IllegalMoveError):
        game.apply(state, ("foundation0", "row0"))


# ----------------------------------------------------------------------------------------
# Chessboard foundations: the first card home chooses the base rank for all four.
# ----------------------------------------------------------------------------------------
BASE_CHOICE = """
row0  2D 7H
row1  KS 7C
row2  4H 7S
row3  JC 7D
row4  8H
row5  6H
row6  AC
row7  QD
row8  3S
row9  TC
"""


def every_top_to_its_suit(game, state) -> set[str]:
    """``rowN->foundationS`` for every non-empty row, S the suit of its top card."""
    tops = {row: cards[-1] for row, cards in game.piles(state).items() if row in ROWS and cards}
    return {f"{row}->foundation{SUITS.index(card[1])}" for row, card in tops.items()}


def test_chessboard_any_card_may_go_home_first(chessboard):
    state = draw(chessboard, BASE_CHOICE)
    assert base(state) == -1
    assert len(every_top_to_its_suit(chessboard, state)) == 10
    assert home_moves(chessboard, state) == every_top_to_its_suit(chessboard, state)


def test_chessboard_base_may_be_chosen_after_tableau_moves(chessboard):
    state = chessboard.apply(draw(chessboard, BASE_CHOICE), ("row4", "row0"))  # 8H on 7H
    assert base(state) == -1
    assert home_moves(chessboard, state) == every_top_to_its_suit(chessboard, state)


def test_chessboard_first_card_fixes_the_base(chessboard):
    state = chessboard.apply(draw(chessboard, BASE_CHOICE), ("row0", "foundation2"))  # 7H home
    assert base(state) == 6
    assert home_moves(chessboard, state) == {
        "row1->foundation0",  # 7C starts clubs
        "row2->foundation1",  # 7S starts spades
        "row3->foundation3",  # 7D starts diamonds
        "row4->foundation2",  # 8H follows 7H
    }  # not 6H, AC, QD, 3S, TC and not 2D (uncovered under 7H)


def test_chessboard_foundation_wraps_k_to_a(chessboard):
    state = draw(chessboard, """
        foundation0  JC QC KC
        row0  AC
        row1  2C
        row2  QS
        row3  JS
        row4  8H
        row5  6H
        row6  4D
        row7  QD
        row8  3S
        row9  9D
    """)
    assert base(state) == 10
    assert home_moves(chessboard, state) == {"row0->foundation0", "row3->foundation1"}  # AC; JS


def test_chessboard_full_foundation_takes_nothing(chessboard):
    """5H..4H (13 cards, wrapping K->A) is full: even a second 5H may not follow the 4H."""
    hearts = [RANKS[(4 + k) % 13] + "H" for k in range(13)]
    state = draw(chessboard, "foundation2 " + " ".join(hearts) + "\n"
                 + "\n".join(f"row{i} --" for i in range(10)))
    pile = chessboard.pile_index["foundation2"]
    assert not kernel.foundation_accepts(chessboard.rules, state.array, pile, parse_card("5H"))


def test_chessboard_won_with_four_full_foundations(chessboard):
    piles = {f"foundation{s}": [RANKS[(4 + k) % 13] + SUITS[s] for k in range(13)] for s in range(4)}
    piles.update({row: [] for row in ROWS})
    state = chessboard.state_from_piles(piles)
    assert chessboard.is_won(state)
    assert moves(chessboard, state) == set()


# ----------------------------------------------------------------------------------------
# Undo (what the solver relies on) restores the base to unchosen.
# ----------------------------------------------------------------------------------------
def test_undo_restores_unchosen_base(chessboard):
    rules = chessboard.rules
    start = draw(chessboard, BASE_CHOICE).array
    line = [
        ("row4", "row0"),  # 8H on 7H: base still unchosen
        ("row2", "foundation1"),  # 7S home: base 7 for all four
        ("row3", "foundation3"),  # 7D starts diamonds
    ]
    array = start.copy()
    before = []
    for move in line:
        before.append(array.copy())
        kernel.apply_move(rules, array, chessboard.move_code(move))
    assert array[rules[OFFSET_BASE]] == 6
    for move, expected in zip(reversed(line), reversed(before)):
        kernel.undo_move(rules, array, chessboard.move_code(move))
        assert np.array_equal(array, expected)
    assert array[rules[OFFSET_BASE]] == -1


def test_undo_of_a_later_home_card_keeps_the_base(chessboard):
    rules = chessboard.rules
    array = draw(chessboard, BASE_CHOICE).array.copy()
    kernel.apply_move(rules, array, chessboard.move_code(("row0", "foundation2")))  # 7H
    chosen = array.copy()
    code = chessboard.move_code(("row4", "foundation2"))  # 8H
    kernel.apply_move(rules, array, code)
    kernel.undo_move(rules, array, code)
    assert np.array_equal(array, chosen)
    assert array[rules[OFFSET_BASE]] == 6


# ----------------------------------------------------------------------------------------
# The heuristic policy plans Chessboard's base: the least buried rank.
# ----------------------------------------------------------------------------------------
def least_buried(game, state) -> int:
    """The rank whose four cards have the fewest cards on top of them (lowest on ties)."""
    buried = [0] * 13
    for row in ROWS:
        for depth, card in enumerate(reversed(game.piles(state)[row])):
            buried[RANKS.index(card[0])] += depth
    return buried.index(min(buried))


@pytest.mark.parametrize("g", [1, 2, 3, 4, 5])
def test_heuristic_first_card_home_has_least_buried_rank(chessboard, g):
    from simlab import make_policy, play_deal
    from simlab.policies.features import least_buried_rank

    state = chessboard.initial_state(g)
    assert least_buried_rank(chessboard.rules, state.array) == least_buried(chessboard, state)
    for move in play_deal(chessboard, make_policy("heuristic"), g).moves:
        if move.destination.startswith("foundation"):
            first_home = chessboard.piles(state)[move.source][-1]
            break
        state = chessboard.apply(state, move)
    else:
        pytest.fail("no card went home")
    assert RANKS.index(first_home[0]) == least_buried(chessboard, state)


def test_chessboard_tableau_wrap_is_a_parameter() -> None:
    """Hoyle's reading (no wrap in the rows): K no longer goes on A of its suit."""
    # row0: AH      row1: KH      (foundations empty)
    piles = {"row0": "AH", "row1": "2C KH"}
    wrapping = make_game("chessboard")
    plain = make_game("chessboard", tableau_wrap=False)
    assert ("row1", "row0") in wrapping.legal_moves(wrapping.state_from_piles(piles))
    assert ("row1", "row0") not in plain.legal_moves(plain.state_from_piles(piles))
