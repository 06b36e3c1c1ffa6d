"""Trefoil (PySolFC id 88; docs/rules.md sections 0 and 9), written from the rules and PySolFC's
source only (not from simlab's implementation).

PySolFC (shlomif/PySolFC 7a3d146a, ``pysollib/games/fan.py``, ``class Trefoil(LaBelleLucie)``):

- ``createGame``: ``Fan.createGame(rows=(5, 5, 5, 1))``: 16 rows, the La Belle Lucie rows
  (``SS_RowStack(base_rank=NO_RANK)``: down in suit, one card, an empty row takes nothing) and
  talon (``LaBelleLucie_Talon``, ``max_rounds=3``: 2 redeals into the 16 rows, at most 48 cards).
- ``Foundation_Classes = [StackWrapper(SS_FoundationStack, min_cards=1)]``: foundation i takes
  suit i from the ace; ``Stack.basicCanMoveCards`` refuses a move that would leave fewer than
  ``min_cards`` cards, so an ace never leaves its foundation. (A 2 or higher could go back onto a
  row in PySolFC, as in La Belle Lucie; simlab's ``foundation_return``, docs/rules.md s.0.)
- ``_shuffleHook`` = ``_shuffleHookMoveToBottom(cards, lambda c: (c.rank == 0, c.suit))``
  (``pysollib/game/__init__.py``): the four aces go to the talon's bottom (list front) as
  AD AH AS AC; ``startGame``: ``_startDealNumRows(2)`` + ``dealRow()``: 3 rounds of 16 (48 cards),
  then ``dealRow(rows=self.s.foundations)``: AC, AS, AH, AD to foundations 0-3.

``tests/pysolfc_fans.py`` re-implements this (``trefoil_deal``, ``redeal``); it is checked here
against pysol_cards' RNG objects and pysol_cards' own ``deal_game.Game._shuffleHookMoveToBottom``
(the same sorter PySolFC has). Deal 1 is pinned literally in ``DEAL_1``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from pysolfc_fans import (
    REDEAL,
    aces_to_bottom,
    after_move,
    expected_moves,
    fan_sizes_after_redeal,
    is_own_fan_draw,
    redeal,
    shuffled_pack,
    trefoil_deal,
    walk_against_oracle,
)

from simlab import make_game
from simlab.deals import chance_tape
from simlab.errors import IllegalMoveError, SimlabError
from simlab.testing import check_game

GAME = "trefoil"
RANKS = "A23456789TJQK"
SUITS = "CSHD"
ROWS = [f"row{i}" for i in range(16)]
FOUNDATIONS = [f"foundation{i}" for i in range(4)]
ACES = {"foundation0": "AC", "foundation1": "AS", "foundation2": "AH", "foundation3": "AD"}

DEAL_NUMBERS = [1, 2, 3, 617, 11982, 31999, 32000, 32001, 123456, 2**32 + 1, 10**16 + 7, 10**19, 10**20 - 1]

# Deal 1 as PySolFC deals it (printed from pysolfc_fans.trefoil_deal(1)), bottom -> top.
DEAL_1 = {
    "row0": "JD KS 8H", "row1": "2D 9D 2C", "row2": "9H QD JH", "row3": "JC JS 7D",
    "row4": "5D 3C 6D", "row5": "7H 4C 8S", "row6": "7C 5C 8D", "row7": "5H TS QS",
    "row8": "KD QH 6C", "row9": "KC 4H 3D", "row10": "9S 4D 8C", "row11": "5S 7S TC",
    "row12": "QC 3S 6S", "row13": "KH TD 9C", "row14": "3H 4S 2H", "row15": "2S TH 6H",
    **ACES,
}


@pytest.fixture(scope="module")
def game():
    return make_game(GAME)


def text_piles(layout: dict[str, str]) -> dict[str, list[str]]:
    return {name: layout.get(name, "").split() for name in ROWS + FOUNDATIONS}


def draw(game, layout: dict[str, str]):
    layout = {**ACES, **layout} if not any(f in layout for f in FOUNDATIONS) else layout
    counts = Counter(card for cards in layout.values() for card in cards.split())
    assert max(counts.values(), default=1) == 1, counts
    state = game.state_from_piles(layout)
    assert game.piles(state) == text_piles(layout)
    return state


def moves(game, state) -> set[tuple[str, str]]:
    found = [tuple(m) for m in game.legal_moves(state)]
    assert len(found) == len(set(found)), f"duplicate legal moves: {found}"
    return set(found)


def assert_illegal(game, state, source, destination):
    assert (source, destination) not in moves(game, state), (source, destination)
    before = game.piles(state)
    with pytest.raises(IllegalMoveError):
        game.apply(state, (source, destination))
    assert game.piles(state) == before


def sizes(piles) -> list[int]:
    return [len(piles[r]) for r in ROWS]


# ======================================================================================
# 1. The deal
# ======================================================================================
def test_pile_names_in_index_order(game):
    assert list(game.pile_names) == ROWS + FOUNDATIONS


def test_deal_1_is_pinned(game):
    assert game.piles(game.initial_state(1)) == text_piles(DEAL_1)
    assert trefoil_deal(1)[0] == text_piles(DEAL_1)


@pytest.mark.parametrize("g", DEAL_NUMBERS)
def test_reference_hook_matches_pysol_cards(g):
    """The shuffle with pysol_cards' RNG objects, then pysol_cards' own _shuffleHookMoveToBottom."""
    pysol_random = pytest.importorskip("pysol_cards.random")
    from pysol_cards.cards import createCards, ms_rearrange
    from pysol_cards.deal_game import Game as PysolCardsGame
    from pysol_cards.random_base import RandomBase

    rng = pysol_random.LCRandom31(g) if g < 32000 else pysol_random.MTRandom(g)
    cards = createCards(1)
    if isinstance(rng, pysol_random.LCRandom31):
        cards = ms_rearrange(cards)
    rng.reset()
    rng.shuffle(cards)
    hooked = PysolCardsGame("fan", g, RandomBase.DEALS_PYSOLFC)._shuffleHookMoveToBottom(
        cards, lambda c: (c.is_ace(), c.suit))
    mine = aces_to_bottom(shuffled_pack(g)[0])
    assert [c.id for c in hooked] == mine
    assert [RANKS[c.rank - 1] + SUITS[c.suit] for c in hooked[:4]] == ["AD", "AH", "AS", "AC"]


@pytest.mark.parametrize("g", DEAL_NUMBERS)
def test_deal_matches_reference(game, g):
    state = game.initial_state(g)
    piles = game.piles(state)
    assert piles == trefoil_deal(g)[0]
    assert sizes(piles) == [3] * 16
    assert {f: piles[f] for f in FOUNDATIONS} == {f: [a] for f, a in ACES.items()}
    assert game.cards_home(state) == 4
    assert not game.is_won(state)


# ======================================================================================
# 2. Redeals
# ======================================================================================
@pytest.mark.parametrize("g", [1, 2, 617, 31999, 32000, 40000, 10**19 + 3])
def test_two_redeals_from_the_deal_match_pysolfc(game, g):
    state = game.initial_state(g)
    expected, rng = trefoil_deal(g)
    for _ in range(2):
        state = game.apply(state, REDEAL)
        expected = redeal(expected, rng, 16)
        assert game.piles(state) == expected
        assert sizes(expected) == [3] * 16
        assert {f: expected[f] for f in FOUNDATIONS} == {f: [a] for f, a in ACES.items()}
    assert REDEAL not in moves(game, state)
    assert_illegal(game, state, *REDEAL)


@pytest.mark.parametrize("g", [5, 32000, 77777777])
def test_redeal_of_a_drawn_position(game, g):
    # 19 cards in fans 1, 4, 5, 9, 15 (2, 5, 1, 4, 7 cards, gaps between): redealt as 6 fans of 3 and one of 1
    layout = {
        **ACES, "foundation0": "AC 2C 3C",
        "row1": "KD QD", "row4": "9S 8S 7S 6S 5S", "row5": "4D", "row15": "JH 5C 6C 7C 8C TD 2D",
        "row9": "3H 2H 2S 3S",
    }
    state = dataclasses.replace(draw(game, layout), chance=chance_tape(g, 1, 102))
    _, rng = shuffled_pack(g)
    expected = redeal(text_piles(layout), rng, 16)
    after = game.apply(state, REDEAL)
    assert game.piles(after) == expected
    assert sizes(expected) == fan_sizes_after_redeal(19, 16) == [3] * 6 + [1] + [0] * 9
    assert game.piles(game.apply(after, REDEAL)) == redeal(expected, rng, 16)


@pytest.mark.parametrize("redeals", [0, 1, 2, 3])
def test_redeals_parameter_is_respected(redeals):
    game = make_game(GAME, redeals=redeals)
    state = game.initial_state(3)
    expected, rng = trefoil_deal(3)
    taken = 0
    while REDEAL in moves(game, state):
        state = game.apply(state, REDEAL)
        expected = redeal(expected, rng, 16)
        assert game.piles(state) == expected
        taken += 1
        assert taken <= redeals
    assert taken == redeals


# ======================================================================================
# 3. Rules on drawn positions
# ======================================================================================
@pytest.mark.parametrize(
    ("card", "target", "legal"),
    [("5H", "6H", True), ("QS", "KS", True), ("2C", "3C", True), ("5C", "6H", False), ("5D", "6H", False),
     ("7H", "6H", False), ("4H", "6H", False), ("KS", "2S", False)],
)
def test_fans_build_down_in_suit(game, card, target, legal):
    state = draw(game, {"row0": f"9D {card}", "row1": f"TD {target}"})
    assert (("row0", "row1") in moves(game, state)) == legal
    if legal:
        after = game.piles(game.apply(state, ("row0", "row1")))
        assert after["row0"] == ["9D"] and after["row1"] == ["TD", target, card]
    else:
        assert_illegal(game, state, "row0", "row1")


def test_empty_fans_are_never_filled_and_single_cards_move(game):
    # row0 empty; row1: KC 7H 6H   row2: 8H   row3: 9H   row4: 5C KD
    state = draw(game, {"row1": "KC 7H 6H", "row2": "8H", "row3": "9H", "row4": "5C KD"})
    assert moves(game, state) == {("row2", "row3"), REDEAL}
    assert_illegal(game, state, "row1", "row2")
    for source in ("row1", "row2", "row3", "row4"):
        assert_illegal(game, state, source, "row0")


def test_aces_never_leave_and_foundations_build_by_suit(game):
    # foundations: the four aces   rows: 2H, 2S KD, 3D, 4C 3H
    state = draw(game, {"row0": "2H", "row1": "2S KD", "row2": "3D", "row3": "4C 3H"})
    assert moves(game, state) == {("row0", "foundation2"), ("row0", "row3"), REDEAL}
    assert_illegal(game, state, "row2", "foundation3")  # 3D skips 2D
    assert_illegal(game, state, "row0", "foundation0")  # 2H on the clubs
    for foundation in FOUNDATIONS:
        for row in ROWS:
            assert_illegal(game, state, foundation, row)
    after = game.apply(state, ("row0", "foundation2"))
    assert game.piles(after)["foundation2"] == ["AH", "2H"]
    assert moves(game, after) == {("row3", "foundation2"), REDEAL}  # 3H up; 2H stays home
    assert game.cards_home(after) == 5


def test_foundation_return_flag_keeps_the_aces():
    """As in La Belle Lucie, ``foundation_return=True`` lets a foundation's top go back onto a fan;
    Trefoil's foundations (``min_cards=1``) never give up their ace."""
    game = make_game(GAME, foundation_return=True)
    # foundation0: AC 2C 3C (3C can go back onto 4C)   foundation1: AS (2S on row1 could take it)
    state = draw(game, {**ACES, "foundation0": "AC 2C 3C", "row0": "KH 4C", "row1": "7D 2S"})
    assert moves(game, state) == {("foundation0", "row0"), ("row0", "foundation0"), ("row1", "foundation1"), REDEAL}
    assert_illegal(game, state, "foundation1", "row1")  # the ace stays
    after = game.apply(state, ("foundation0", "row0"))
    assert game.piles(after)["row0"] == ["KH", "4C", "3C"]
    assert game.piles(after)["foundation0"] == ["AC", "2C"]
    # 2C now onto 3C; then the ace alone stays
    after = game.apply(after, ("foundation0", "row0"))
    assert game.piles(after)["foundation0"] == ["AC"]
    assert ("foundation0", "row0") not in moves(game, after)


def test_the_draw_after_the_last_redeal():
    game = make_game(GAME, redeals=0, draw=True)
    # buried 2C (row0[0]) -> foundation0; 9S (row1[0]) -> onto TS (row2); 5D (row1[1]) nowhere
    state = draw(game, {"row0": "2C KH", "row1": "9S 5D QC", "row2": "TS"})
    assert moves(game, state) == {("row0[0]", "foundation0"), ("row1[0]", "row2")}
    after = game.apply(state, ("row1[0]", "row2"))
    assert game.piles(after)["row1"] == ["5D", "QC"] and game.piles(after)["row2"] == ["TS", "9S"]
    assert moves(game, after) == set()
    no_draw = make_game(GAME, redeals=0)
    assert moves(no_draw, draw(no_draw, {"row0": "2C KH", "row1": "9S 5D QC", "row2": "TS"})) == set()


def test_game_won(game):
    layout = {f: " ".join(r + SUITS[i] for r in RANKS) for i, f in enumerate(FOUNDATIONS)}
    layout["foundation3"] = " ".join(r + "D" for r in RANKS[:-1])
    layout["row7"] = "KD"
    state = draw(game, layout)
    assert moves(game, state) == {("row7", "foundation3"), REDEAL}
    won = game.apply(state, ("row7", "foundation3"))
    assert game.is_won(won) and game.cards_home(won) == 52 and moves(game, won) == set()


@pytest.mark.parametrize("g", [2, 32000])
def test_draw_only_after_the_second_redeal(g):
    game = make_game(GAME, draw=True)
    state = game.initial_state(g)
    expected, rng = trefoil_deal(g)
    for _ in range(2):
        assert not any("[" in s for s, _ in moves(game, state))
        state = game.apply(state, REDEAL)
        expected = redeal(expected, rng, 16)
    offered = {m for m in moves(game, state) if not is_own_fan_draw(m)}
    assert offered == expected_moves(expected, n_rows=16, kings_on_empty=False, foundation_return=False,
                                     foundation_keeps=1, redeal_ok=False, draw_ok=True)
    draws = sorted(m for m in offered if "[" in m[0])
    assert draws
    after = game.apply(state, draws[0])
    assert game.piles(after) == after_move(expected, *draws[0])
    assert not any("[" in s for s, _ in moves(game, after))


# ======================================================================================
# 4. Random walks against the oracle; the conformance suite
# ======================================================================================
TREFOIL_VARIANTS = [dict(redeals=2, draw=False), dict(redeals=2, draw=True), dict(redeals=1, draw=True)]


@pytest.mark.parametrize("params", TREFOIL_VARIANTS, ids=str)
def test_random_walks_follow_the_rules(params):
    game = make_game(GAME, **params)
    redeals_taken = draws_taken = 0
    for g in (1, 31999, 32000, 10**15 + 1):
        for seed in (0, 1):
            used, drawn = walk_against_oracle(game, trefoil_deal, g, n_rows=16, kings_on_empty=False,
                                              foundation_return=False, foundation_keeps=1,
                                              redeals=params["redeals"], draw_flag=params["draw"], steps=150,
                                              seed=seed)
            redeals_taken += used
            draws_taken += drawn
    assert redeals_taken > 0
    assert draws_taken > 0 or not params["draw"]


def test_random_walks_with_foundation_return():
    game = make_game(GAME, foundation_return=True, draw=True)
    for g in (4, 50000):
        walk_against_oracle(game, trefoil_deal, g, n_rows=16, kings_on_empty=False, foundation_return=True,
                            foundation_keeps=1, redeals=2, draw_flag=True, steps=150, seed=2)


@pytest.mark.parametrize("redeals", [0, 1, 2])
@pytest.mark.parametrize("draw_flag", [False, True])
def test_check_game(redeals, draw_flag):
    check_game(make_game(GAME, redeals=redeals, draw=draw_flag), deals=(1, 40000), walk=40, seed=redeals)


def test_check_game_with_foundation_return():
    check_game(make_game(GAME, foundation_return=True), deals=(2,), walk=40)


# ======================================================================================
# 5. Parameters
# ======================================================================================
@pytest.mark.parametrize(
    ("params", "words"),
    [(dict(redeals=-2), ["redeals", "-2"]), (dict(redeals="x"), ["redeals", "x"]),
     (dict(draw="perhaps"), ["draw", "perhaps"]), (dict(deal="round_robin"), ["deal"]),
     (dict(fans=16), ["fans"])],
)
def test_bad_parameters_raise_a_clear_error(params, words):
    with pytest.raises(SimlabError) as caught:
        make_game(GAME, **params)
    for word in words:
        assert word in str(caught.value), str(caught.value)
