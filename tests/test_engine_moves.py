"""The engine's move kinds beyond one top card, on the two fixtures of
``tests/engine_toys.py``: turning the stock, refills, passes back through the
stock, foundations down and through 52 cards, redeals from the chance tape,
the draw; each with its exact undo."""

from __future__ import annotations

import numpy as np
import pytest
from engine_toys import FanToy, MillToy

from simlab.deals import chance_tape, shuffled_talon
from simlab.engine import moves
from simlab.engine.layout import COUNTER_DRAWS, COUNTER_RECYCLES, COUNTER_REDEALS, OFFSET_COUNTERS
from simlab.errors import IllegalMoveError
from simlab.testing import check_game

FILLERS = ("9S", "9D", "9H", "9C", "8S", "8D", "8H", "8C")


def mill(**piles):
    """A Windmill-like position with every sail holding a card (as play keeps them) unless given."""
    game = MillToy()
    layout = {f"row{i}": FILLERS[i] for i in range(8)}
    layout.update(piles)
    return game, game.state_from_piles(layout)


def counters(game, state):
    offset = int(game.rules[OFFSET_COUNTERS])
    return [int(v) for v in state.array[offset: offset + 3]]


@pytest.mark.parametrize("toy", [MillToy, FanToy])
def test_fixtures_pass_the_conformance_suite(toy):
    check_game(toy(), deals=(1, 40000), walk=120)


def test_turning_the_stock_moves_its_top_card_face_up_onto_the_waste():
    game, state = mill(stock="2C 3C", waste="4C", foundation0="AC")
    after = game.apply(state, ("stock", "waste"))
    assert game.piles(after)["waste"] == ["4C", "3C"]
    assert game.piles(after)["stock"] == ["2C"]
    assert game.visible_piles(game.observe(after))["stock"] == ["??"]


def test_an_emptied_sail_takes_the_waste_top_and_the_emptied_waste_the_stock_top():
    game, state = mill(row0="2C", waste="TH", stock="5D 7S", foundation0="AC")
    after = game.apply(state, ("row0", "foundation0"))
    piles = game.piles(after)
    assert piles["foundation0"] == ["AC", "2C"]
    assert piles["row0"] == ["TH"]
    assert piles["waste"] == ["7S"]
    assert piles["stock"] == ["5D"]


def test_nothing_is_placed_on_a_sail():
    game, state = mill(row0="5C", row1="4C", foundation0="AC", stock="9D", waste="8D")
    assert all(m.destination != "row0" for m in game.legal_moves(state))


def test_king_piles_build_down_and_give_cards_to_the_centre_and_each_other():
    game, state = mill(foundation0="AC", foundation1="KH QS", row0="JD", waste="TD", stock="9D")
    legal = {str(m) for m in game.legal_moves(state)}
    assert "row0->foundation1" in legal  # JD down on QS
    assert "foundation1->foundation2" not in legal  # QS is not a king
    assert "foundation1->foundation0" not in legal  # the centre needs a 2
    _, two = mill(foundation0="AC", foundation1="KH QS JD TC 9H 8S 7D 6C 5H 4S 3D 2C", waste="TD", stock="9D")
    assert "foundation1->foundation0" in {str(m) for m in game.legal_moves(two)}


def test_the_centre_wraps_from_king_to_ace_and_holds_52_cards():
    run = " ".join(f"{r}{s}" for s in "CSHD" for r in "A23456789TJQK")
    centre = run.split()[:-1]  # 51 cards, AC .. QD
    game, state = mill(foundation0=" ".join(centre), row0="KD", row1="AS", stock="2S", waste="3S")
    assert "row0->foundation0" in {str(m) for m in game.legal_moves(state)}
    full = game.apply(state, ("row0", "foundation0"))
    assert len(game.piles(full)["foundation0"]) == 52
    assert "row1->foundation0" not in {str(m) for m in game.legal_moves(full)}  # complete at 52
    _, wrap = mill(foundation0="AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", row0="AH", stock="2S", waste="3S")
    assert "row0->foundation0" in {str(m) for m in game.legal_moves(wrap)}


def test_the_waste_goes_back_to_the_stock_once_and_undo_restores_everything():
    game, state = mill(foundation0="AC", waste="5D 6D 7D")
    legal = [str(m) for m in game.legal_moves(state)]
    assert "waste->stock" in legal
    after = game.apply(state, ("waste", "stock"))
    assert game.piles(after)["stock"] == ["7D", "6D"]  # turned over: the waste's bottom card is the stock's top
    assert game.piles(after)["waste"] == ["5D"]  # refilled at once from the stock
    assert counters(game, after)[COUNTER_RECYCLES] == 0
    _, empty_stock = mill(foundation0="AC")
    drained = game.apply(after, ("stock", "waste"))
    drained = game.apply(drained, ("stock", "waste"))
    assert "waste->stock" not in [str(m) for m in game.legal_moves(drained)]
    assert "waste->stock" not in [str(m) for m in game.legal_moves(empty_stock)]
    array, record = state.array.copy(), np.empty_like(state.array)
    code = game.move_code(("waste", "stock"))
    moves.play(game.rules, array, code, state.chance, record)
    moves.unplay(game.rules, array, code, record)
    assert np.array_equal(array, state.array)


def redeal_by_hand(fans: list[list[int]], tape: np.ndarray, used: int) -> tuple[list[list[int]], int]:
    """The rules of a redeal written out directly: gather fan 0 first, bottom to
    top; shuffle with the tape (Fisher-Yates from the end); deal in three rounds."""
    cards = [card for fan in fans for card in fan]
    n = len(cards)
    for last in range(n - 1, 0, -1):
        used += 1
        value = tape[used]
        j = int(value) % (last + 1) if tape[0] == 0.0 else int(value * (last + 1))
        cards[last], cards[j] = cards[j], cards[last]
    out: list[list[int]] = [[] for _ in range(len(fans))]
    for round_ in range(3):
        for fan in range((n + round_) // 3):
            out[fan].append(cards.pop())
    return out, used


@pytest.mark.parametrize("deal", [1, 17, 31999, 40000, 10**17 + 3])
def test_redeals_shuffle_from_the_deal_stream_and_deal_fans_of_three(deal):
    game = FanToy()
    state = game.initial_state(deal)
    assert np.array_equal(state.chance, chance_tape(deal, 1, 2 * 51))
    fans = [game.pile_cards(state, f"row{i}") for i in range(18)]
    used = 0
    for redeals_left in (1, 0):
        state = game.apply(state, ("redeal", "rows"))
        fans, used = redeal_by_hand(fans, state.chance, used)
        assert [game.pile_cards(state, f"row{i}") for i in range(18)] == fans
        assert counters(game, state)[COUNTER_REDEALS] == redeals_left
        sizes = [len(f) for f in fans if f]
        assert all(size == 3 for size in sizes[:-1]) and sizes[-1] in (1, 2, 3)
    assert ("redeal", "rows") not in game.legal_moves(state)


def test_the_chance_tape_continues_the_stream_that_dealt_the_cards():
    # the LCG's raw value after the deal's 51 draws gives PySolFC's next randint
    deal = 5
    tape = chance_tape(deal, 1, 3)
    x = deal
    for _ in range(52):
        x = (x * 214013 + 2531011) & 0xFFFFFFFF
    assert tape[0] == 0.0 and tape[1] == (x >> 16) & 0x7FFF
    assert shuffled_talon(deal) == shuffled_talon(deal)  # the tape does not disturb the deal


def test_the_draw_pulls_a_card_from_under_a_fan_top_after_the_last_redeal_only():
    game = FanToy()
    piles = {"row0": "2H 9C 5S", "row1": "3H", "foundation2": "AH"}
    state = game.state_from_piles(piles)
    assert not any("[" in m.source for m in game.legal_moves(state))  # redeals are left
    offset = int(game.rules[OFFSET_COUNTERS])
    array = state.array.copy()
    array[offset + COUNTER_REDEALS] = 0
    from simlab.engine.game import State

    late = State(array)
    legal = {str(m) for m in game.legal_moves(late)}
    assert "row0[0]->foundation2" in legal
    after = game.apply(late, ("row0[0]", "foundation2"))
    assert game.piles(after)["row0"] == ["9C", "5S"]
    assert game.piles(after)["foundation2"] == ["AH", "2H"]
    assert counters(game, after)[COUNTER_DRAWS] == 0
    assert not any("[" in m.source for m in game.legal_moves(after))  # one draw only
    with pytest.raises(IllegalMoveError):
        game.apply(after, ("row0[0]", "row1"))
