"""Fan (PySolFC id 56; docs/rules.md sections 0 and 9; issue 14), written from the rules and
PySolFC's source only (not from simlab's implementation).

What PySolFC's code says (shlomif/PySolFC 7a3d146a)
--------------------------------------------------
- ``pysollib/games/fan.py``: ``registerGame(GameInfo(56, FanGame, "Fan", ..., 1, 0, ...))``: one
  deck, no redeal (``Talon_Class = InitialDealTalonStack``). ``Fan.createGame`` makes 18 rows
  (5, 5, 5, 3) of ``KingSS_RowStack(max_move=1, max_accept=1)`` and four
  ``SS_FoundationStack(suit=i)``. ``Fan.startGame``: 2 x ``dealRow(rows=self.s.rows[:17])`` then
  ``_startAndDealRow()``: 17 fans of 3 and one of 1, as La Belle Lucie (``deal='pysolfc'``).
- ``pysollib/stack.py``: ``KingSS_RowStack`` is ``SS_RowStack`` with ``base_rank=KING``: down in
  suit (``isSameSuitSequence``, ``mod=8192``: no wrap), one card at a time, an empty row takes a
  king only (``basicAcceptsCards`` checks ``base_rank`` on an empty stack).
- Foundation return, as asked in the issue: FOUND in PySolFC. ``SS_FoundationStack`` ->
  ``AbstractFoundationStack`` -> ``OpenStack`` with ``max_move=1``; neither overrides
  ``canMoveCards`` (``basicCanMoveCards``: one face-up card; ``min_cards`` is 0 for Fan), and
  ``KingSS_RowStack.acceptsCards`` never asks where a card comes from. So a foundation's top card
  can be dragged back onto a row that accepts it (the same suit one rank up, or a king onto an
  empty row); ``Stack.playMoveMove`` even says "let the player put cards back from the
  foundations" (it skips autoplay after such a move). simlab's ``foundation_return`` defaults to
  True accordingly. Blake and Gent's Fan allows it too.
- ``deal='round_robin'`` (Blake and Gent): the same shuffled pack (``pysolfc_fans.shuffled_pack``:
  PySolFC's shuffle for the deal number), card k from the talon's top to fan k % 18: fans 0-15 of
  three, 16-17 of two.

Deals are compared with ``tests/pysolfc_fans.py`` (checked there against pysol_cards' RNGs and here
against pysol_cards' ``deal_game.Game('fan', g, DEALS_PYSOLFC)``); deal 1 is pinned literally.
"""

from __future__ import annotations

from collections import Counter

import pytest
from pysolfc_fans import REDEAL, lucie_deal, round_robin_deal, shuffled_pack, walk_against_oracle

from simlab import make_game
from simlab.errors import IllegalMoveError, SimlabError
from simlab.testing import check_game

GAME = "fan"
RANKS = "A23456789TJQK"
SUITS = "CSHD"
ROWS = [f"row{i}" for i in range(18)]
FOUNDATIONS = [f"foundation{i}" for i in range(4)]

DEAL_NUMBERS = [1, 2, 3, 617, 11982, 31999, 32000, 32001, 123456, 2**32 + 1, 10**16 + 7, 10**19, 10**20 - 1]

# Deal 1, bottom -> top (printed from pysolfc_fans; the PySolFC one is docs/rules.md's LBL vector).
DEAL_1_PYSOLFC = {
    "row0": "JD KS 4S", "row1": "2D 9D TH", "row2": "9H QD 8H", "row3": "JC JS 2C",
    "row4": "5D AS JH", "row5": "7H AH 7D", "row6": "7C 3C 6D", "row7": "5H 4C 8S",
    "row8": "KD 5C 8D", "row9": "KC TS QS", "row10": "9S QH 6C", "row11": "5S 4H 3D",
    "row12": "AD AC 8C", "row13": "QC 4D TC", "row14": "KH 7S 6S", "row15": "3H 3S 9C",
    "row16": "2S TD 2H", "row17": "6H",
}
DEAL_1_ROUND_ROBIN = {
    "row0": "JD 9D 8H", "row1": "2D QD 2C", "row2": "9H JS JH", "row3": "JC AS 7D",
    "row4": "5D AH 6D", "row5": "7H 3C 8S", "row6": "7C 4C 8D", "row7": "5H 5C QS",
    "row8": "KD TS 6C", "row9": "KC QH 3D", "row10": "9S 4H 8C", "row11": "5S AC TC",
    "row12": "AD 4D 6S", "row13": "QC 7S 9C", "row14": "KH 3S 2H", "row15": "3H TD 6H",
    "row16": "2S 4S", "row17": "KS TH",
}


@pytest.fixture(scope="module")
def game():
    return make_game(GAME)


def text_piles(layout: dict[str, str]) -> dict[str, list[str]]:
    return {name: layout.get(name, "").split() for name in ROWS + FOUNDATIONS}


def draw(game, layout: dict[str, str]):
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


def empty_rows(layout) -> list[str]:
    return [r for r in ROWS if not layout.get(r)]


# ======================================================================================
# 1. Deals
# ======================================================================================
def test_pile_names_in_index_order(game):
    assert list(game.pile_names) == ROWS + FOUNDATIONS


def test_deal_1_is_pinned():
    assert make_game(GAME).piles(make_game(GAME).initial_state(1)) == text_piles(DEAL_1_PYSOLFC)
    rr = make_game(GAME, deal="round_robin")
    assert rr.piles(rr.initial_state(1)) == text_piles(DEAL_1_ROUND_ROBIN)
    assert lucie_deal(1)[0] == text_piles(DEAL_1_PYSOLFC)
    assert round_robin_deal(1) == text_piles(DEAL_1_ROUND_ROBIN)
    assert DEAL_1_PYSOLFC["row0"] == "JD KS 4S" and DEAL_1_PYSOLFC["row17"] == "6H"  # docs/rules.md s.0


@pytest.mark.parametrize("g", [n for n in DEAL_NUMBERS if n != 32000])
def test_reference_matches_pysol_cards_fan(g):
    """pysol_cards' own dealer for game 'fan' (it uses the LCG at 32000, PySolFC the MT)."""
    deal_game = pytest.importorskip("pysol_cards.deal_game")
    from pysol_cards.random_base import RandomBase

    dealer = deal_game.Game("fan", g, RandomBase.DEALS_PYSOLFC)
    dealer.deal()
    dealer.fan()
    columns = [[RANKS[c.rank - 1] + SUITS[c.suit] for c in col] for col in dealer.board.columns.cols]
    assert columns == [lucie_deal(g)[0][r] for r in ROWS]


@pytest.mark.parametrize("g", DEAL_NUMBERS)
def test_pysolfc_deal_matches_reference(game, g):
    state = game.initial_state(g)
    assert game.piles(state) == lucie_deal(g)[0]
    assert [len(game.piles(state)[r]) for r in ROWS] == [3] * 17 + [1]
    assert game.cards_home(state) == 0 and not game.is_won(state)


@pytest.mark.parametrize("g", DEAL_NUMBERS)
def test_round_robin_deal_matches_reference(g):
    game = make_game(GAME, deal="round_robin")
    piles = game.piles(game.initial_state(g))
    assert piles == round_robin_deal(g)
    assert [len(piles[r]) for r in ROWS] == [3] * 16 + [2, 2]
    # the same talon as the PySolFC deal: talon card k (from the top) is, in the pysolfc deal,
    # card k // 17 of fan k % 17 (k < 51) or fan 17's card (k = 51)
    pysolfc = lucie_deal(g)[0]
    top_first = [pysolfc[f"row{k % 17}"][k // 17] for k in range(51)] + pysolfc["row17"]
    assert [piles[f"row{k % 18}"][k // 18] for k in range(52)] == top_first
    talon, _ = shuffled_pack(g)
    assert len(talon) == 52


# ======================================================================================
# 2. Rules on drawn positions
# ======================================================================================
@pytest.mark.parametrize(
    ("card", "target", "legal"),
    [
        ("5H", "6H", True), ("QS", "KS", True), ("AC", "2C", True),
        ("5C", "6H", False), ("5D", "6H", False), ("7H", "6H", False), ("4H", "6H", False),
        ("KS", "AS", False), ("AS", "KS", False), ("2C", "AC", False),
    ],
)
def test_fans_build_down_in_suit(game, card, target, legal):
    state = draw(game, {"row0": f"9D {card}", "row1": f"TD {target}"})
    assert (("row0", "row1") in moves(game, state)) == legal
    if legal:
        after = game.piles(game.apply(state, ("row0", "row1")))
        assert after["row0"] == ["9D"] and after["row1"] == ["TD", target, card]
    else:
        assert_illegal(game, state, "row0", "row1")


def test_only_kings_fill_an_empty_fan(game):
    # row1: 5C KD   row2: 4S QS   row3: JH   row4: 3D 9C   row5: KS (alone)   the other fans empty
    layout = {"row1": "5C KD", "row2": "4S QS", "row3": "JH", "row4": "3D 9C", "row5": "KS"}
    state = draw(game, layout)
    empties = empty_rows(layout)
    assert len(empties) == 13
    expected = ({("row1", r) for r in empties} | {("row5", r) for r in empties}  # PySolFC: any king
                | {("row2", "row5")})  # QS on KS
    assert moves(game, state) == expected
    for source in ("row2", "row3", "row4"):
        for empty in empties:
            assert_illegal(game, state, source, empty)
    after = game.apply(state, ("row1", "row0"))
    assert game.piles(after)["row0"] == ["KD"] and game.piles(after)["row1"] == ["5C"]
    # QS cannot go onto KD (other suit); the kings alone in fans 0 and 5 may still change fans
    still_empty = [r for r in empties if r != "row0"]
    assert moves(game, after) == ({("row0", r) for r in still_empty} | {("row5", r) for r in still_empty}
                                  | {("row2", "row5")})
    assert_illegal(game, after, "row2", "row0")


def test_only_the_top_card_moves_one_at_a_time(game):
    # row0: KC 7H 6H   row1: 8H   row2: 5C   row3: 9H   (no empty fan: all 18 hold a card)
    layout = {"row0": "KC 7H 6H", "row1": "8H", "row2": "5C", "row3": "9H"}
    fillers = ["2D", "4D", "6D", "8D", "TD", "QD", "3S", "5S", "7S", "9S", "JS", "3C", "9C", "JC"]
    for i, card in enumerate(fillers, start=4):
        layout[f"row{i}"] = card
    state = draw(game, layout)
    assert moves(game, state) == {("row1", "row3")}
    assert_illegal(game, state, "row0", "row1")
    after = game.apply(state, ("row1", "row3"))
    # row1 is now empty: KC is buried, so nothing can fill it
    assert moves(game, after) == set()


def test_foundations_take_their_own_suit_up_from_the_ace():
    game = make_game(GAME, foundation_return=False)
    layout = {"foundation0": "AC", "row0": "AS", "row1": "3C", "row2": "2H", "row3": "JD", "row5": "7D AD"}
    state = draw(game, layout)
    assert moves(game, state) == {("row0", "foundation1"), ("row5", "foundation3")}
    for wrong in ("foundation0", "foundation2", "foundation3"):
        assert_illegal(game, state, "row0", wrong)
    assert_illegal(game, state, "row1", "foundation0")
    assert_illegal(game, state, "row2", "foundation2")


RETURN_LAYOUT = {
    # foundation2: AH..5H (5H back onto 6H)   foundation3: AD..KD (KD back into an empty fan)
    # foundation0: AC..QC (QC: no empty fan takes a queen, no KC top)   foundation1: empty
    "foundation0": "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "foundation2": "AH 2H 3H 4H 5H",
    "foundation3": "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "row0": "6H", "row1": "9S 8H", "row2": "KC 3S",
}


def test_foundation_return_is_on_by_default(game):
    state = draw(game, RETURN_LAYOUT)
    empties = empty_rows(RETURN_LAYOUT)
    expected = ({("row0", "foundation2"), ("foundation2", "row0")}
                | {("foundation3", r) for r in empties})
    assert moves(game, state) == expected
    assert_illegal(game, state, "foundation0", "row3")  # a queen never fills an empty fan
    assert_illegal(game, state, "foundation2", "row3")
    after = game.apply(state, ("foundation3", "row7"))
    assert game.piles(after)["row7"] == ["KD"] and game.piles(after)["foundation3"][-1] == "QD"
    assert game.cards_home(after) == 29
    # now foundation3's top QD can go back onto that KD
    assert ("foundation3", "row7") in moves(game, after)
    after = game.apply(state, ("foundation2", "row0"))
    assert game.piles(after)["row0"] == ["6H", "5H"]


def test_foundation_return_off():
    game = make_game(GAME, foundation_return=False)
    state = draw(game, RETURN_LAYOUT)
    assert moves(game, state) == {("row0", "foundation2")}
    for foundation in FOUNDATIONS:
        for row in ROWS:
            assert_illegal(game, state, foundation, row)


@pytest.mark.parametrize("deal", ["pysolfc", "round_robin"])
def test_no_redeal_and_no_draw(deal):
    game = make_game(GAME, deal=deal)
    for g in (1, 32000):
        state = game.initial_state(g)
        offered = moves(game, state)
        assert REDEAL not in offered
        assert not any("[" in source for source, _ in offered)
        assert_illegal(game, state, *REDEAL)
    # a buried card (9C) that would fit a top (TC): no draw in Fan
    state = draw(game, {"row0": "5H 9C KS", "row1": "TC", "row2": "8D JS", "row3": "2S 7D"})
    assert ("row0[1]", "row1") not in moves(game, state)
    with pytest.raises(IllegalMoveError):
        game.apply(state, ("row0[1]", "row1"))


def test_game_won_with_all_52_cards_home(game):
    layout = {f: " ".join(r + SUITS[i] for r in RANKS) for i, f in enumerate(FOUNDATIONS)}
    layout["foundation1"] = " ".join(r + "S" for r in RANKS[:-2])
    layout.update(row4="KS QS")
    state = draw(game, layout)
    assert not game.is_won(state) and game.cards_home(state) == 50
    won = game.apply(game.apply(state, ("row4", "foundation1")), ("row4", "foundation1"))
    assert game.is_won(won) and game.cards_home(won) == 52


# ======================================================================================
# 3. Random walks against the oracle; the conformance suite
# ======================================================================================
DEALERS = {"pysolfc": lucie_deal, "round_robin": lambda g: (round_robin_deal(g), None)}


@pytest.mark.parametrize("deal", ["pysolfc", "round_robin"])
@pytest.mark.parametrize("foundation_return", [True, False])
def test_random_walks_follow_the_rules(deal, foundation_return):
    game = make_game(GAME, deal=deal, foundation_return=foundation_return)
    for g in (1, 2, 31999, 32000, 10**13 + 3):
        for seed in (0, 1):
            walk_against_oracle(game, DEALERS[deal], g, n_rows=18, kings_on_empty=True,
                                foundation_return=foundation_return, foundation_keeps=0, redeals=0,
                                draw_flag=False, steps=150, seed=seed)


@pytest.mark.parametrize("deal", ["pysolfc", "round_robin"])
@pytest.mark.parametrize("foundation_return", [True, False])
def test_check_game(deal, foundation_return):
    check_game(make_game(GAME, deal=deal, foundation_return=foundation_return), deals=(1, 40000), walk=50)


# ======================================================================================
# 4. Parameters
# ======================================================================================
def test_defaults():
    game = make_game(GAME)
    assert game.piles(game.initial_state(7)) == lucie_deal(7)[0]  # deal='pysolfc'
    state = draw(game, {"foundation3": "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", "row0": "5C"})
    assert ("foundation3", "row1") in moves(game, state)  # foundation_return=True


@pytest.mark.parametrize(
    ("params", "words"),
    [
        (dict(deal="blake"), ["deal", "blake", "pysolfc", "round_robin"]),
        (dict(deal=1), ["deal"]),
        (dict(foundation_return="often"), ["foundation_return", "often"]),
        (dict(redeals=1), ["redeals"]),
        (dict(draw=True), ["draw"]),
    ],
)
def test_bad_parameters_raise_a_clear_error(params, words):
    with pytest.raises(SimlabError) as caught:
        make_game(GAME, **params)
    for word in words:
        assert word in str(caught.value), str(caught.value)
