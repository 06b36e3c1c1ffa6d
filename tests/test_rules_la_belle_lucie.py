"""La Belle Lucie (PySolFC id 901; docs/rules.md sections 0 and 9), written from the rules and
PySolFC's source only (not from simlab's implementation).

How the deals and the redeal shuffles were checked
--------------------------------------------------
``tests/pysolfc_fans.py`` re-implements, from shlomif/PySolFC 7a3d146a (``pysollib/games/fan.py``
``Fan.startGame``, ``LaBelleLucie``, ``LaBelleLucie_Talon.dealCards``/``redealCards1-3``;
``pysollib/game/__init__.py`` ``Game.shuffle``, ``createRandom``, ``shuffleStackMove``;
``pysollib/move.py`` ``AShuffleStackMove``, ``AMoveMove``; ``pysollib/stack.py``
``dealRow``/``dealToStacks``; ``pysollib/pysolrandom.py`` ``construct_random``), the deal and the
redeals: the redeal gathers rows 0..17 in order, each bottom to top, shuffles with the SAME
generator object that shuffled the deal (its stream continues: 51 draws for the deal, then
len - 1 per redeal, the second redeal after the first), and deals 3 rounds, round i to rows
``[: (n + i) // 3]``. ``test_reference_matches_pysol_cards_*`` runs that code against pysol_cards'
own ``LCRandom31``/``MTRandom``/``ms_rearrange`` objects (the generator PySolFC calls, continued
through two redeal shuffles with its ``shuffle``, which is ``AShuffleStackMove.redo``'s loop) and
against pysol_cards' ``deal_game.Game('fan', g, DEALS_PYSOLFC)`` layout. Deal 1 is pinned literally
in ``DEAL_1`` (it agrees with docs/rules.md's vector: fan0 ``JD KS 4S``, fan17 ``6H``).

What PySolFC's code says about the rules (and where simlab departs, as documented)
-----------------------------------------------------------------------------------
- Rows are ``SS_RowStack(base_rank=NO_RANK, max_move=1, max_accept=1)``: down in suit, one card,
  ``mod=8192`` (no wrap), an empty row accepts nothing (NO_RANK = 999999 matches no card).
- Foundations ``SS_FoundationStack(suit=i)``: foundation i takes suit i (C, S, H, D) from the ace.
  They are ``OpenStack``s with ``max_move=1`` and no ``min_cards``: PySolFC does let a foundation's
  top card (an ace included) go back onto a row that accepts it. simlab makes that the
  ``foundation_return`` flag, off by default (docs/rules.md s.0: it never helps here).
- ``LaBelleLucie_Talon.canDealCards``: ``round != max_rounds and not isGameWon()`` with
  ``max_rounds=3``: 2 redeals, at any time. (PySolFC would also "redeal" a talon whose rows are
  all empty only in a won game, which it refuses; simlab: no redeal with the fans empty.)
- PySolFC's La Belle Lucie has no draw; ``draw=True`` is Hoyle's (docs/rules.md s.9): after the
  last redeal, once, any card under a fan's top, to a foundation or onto a fan. Whether the drawn
  card may go onto its own fan's top is not pinned here (the walks ignore such moves).

Drawn positions: piles bottom -> top (the rightmost card is the top). One deck: every card once.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from pysolfc_fans import (
    after_move,
    expected_moves,
    fan_sizes_after_redeal,
    fisher_yates,
    is_own_fan_draw,
    lucie_deal,
    redeal,
    shuffled_pack,
    walk_against_oracle,
)

from simlab import make_game
from simlab.deals import chance_tape
from simlab.errors import IllegalMoveError, SimlabError
from simlab.testing import check_game

GAME = "la_belle_lucie"
RANKS = "A23456789TJQK"
SUITS = "CSHD"
ROWS = [f"row{i}" for i in range(18)]
FOUNDATIONS = [f"foundation{i}" for i in range(4)]
REDEAL = ("redeal", "rows")

DEAL_NUMBERS = [1, 2, 3, 617, 11982, 31999, 32000, 32001, 123456, 2**32 + 1, 10**16 + 7, 10**19, 10**20 - 1]

# Deal 1 as PySolFC deals it, each pile bottom -> top (printed from pysolfc_fans.lucie_deal(1)).
DEAL_1 = {
    "row0": "JD KS 4S", "row1": "2D 9D TH", "row2": "9H QD 8H", "row3": "JC JS 2C",
    "row4": "5D AS JH", "row5": "7H AH 7D", "row6": "7C 3C 6D", "row7": "5H 4C 8S",
    "row8": "KD 5C 8D", "row9": "KC TS QS", "row10": "9S QH 6C", "row11": "5S 4H 3D",
    "row12": "AD AC 8C", "row13": "QC 4D TC", "row14": "KH 7S 6S", "row15": "3H 3S 9C",
    "row16": "2S TD 2H", "row17": "6H",
}


@pytest.fixture(scope="module")
def game():
    return make_game(GAME)


# ======================================================================================
# Helpers
# ======================================================================================
def text_piles(layout: dict[str, str], names=ROWS + FOUNDATIONS) -> dict[str, list[str]]:
    return {name: layout.get(name, "").split() for name in names}


def draw(game, layout: dict[str, str]):
    """A drawn position; checks first that no card occurs twice (one deck)."""
    counts = Counter(card for cards in layout.values() for card in cards.split())
    assert max(counts.values(), default=1) == 1, counts
    state = game.state_from_piles(layout)
    assert game.piles(state) == text_piles(layout, list(game.pile_names))
    return state


def with_tape(state, deal: int, count: int = 102):
    return dataclasses.replace(state, chance=chance_tape(deal, 1, count))


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


def full_house_except(*away: str) -> dict[str, str]:
    """Every card home except ``away`` (each the top of its suit's foundation, highest first)."""
    piles = {f: [r + SUITS[i] for r in RANKS] for i, f in enumerate(FOUNDATIONS)}
    for card in away:
        pile = piles[FOUNDATIONS[SUITS.index(card[1])]]
        assert pile[-1] == card, card
        pile.pop()
    return {f: " ".join(cards) for f, cards in piles.items()}


def sizes(piles: dict[str, list[str]], rows=ROWS) -> list[int]:
    return [len(piles[r]) for r in rows]


# ======================================================================================
# 1. The deal
# ======================================================================================
def test_pile_names_in_index_order(game):
    assert list(game.pile_names) == ROWS + FOUNDATIONS


def test_deal_1_is_pinned(game):
    assert game.piles(game.initial_state(1)) == text_piles(DEAL_1)


def test_pinned_deal_1_is_the_reference_deal_1_and_the_rules_md_vector():
    assert lucie_deal(1)[0] == text_piles(DEAL_1)
    assert DEAL_1["row0"] == "JD KS 4S" and DEAL_1["row17"] == "6H"  # docs/rules.md s.0


def _pysol_cards_rng(g):
    pysol_random = pytest.importorskip("pysol_cards.random")
    return pysol_random.LCRandom31(g) if g < 32000 else pysol_random.MTRandom(g)


@pytest.mark.parametrize("g", DEAL_NUMBERS)
def test_reference_matches_pysol_cards_generator_through_two_redeals(g):
    """The reference shuffle and its continued stream against the RNG objects PySolFC runs."""
    pysol_random = pytest.importorskip("pysol_cards.random")
    from pysol_cards.cards import ms_rearrange

    rng = _pysol_cards_rng(g)
    cards = list(range(52))
    if isinstance(rng, pysol_random.LCRandom31):
        cards = ms_rearrange(cards)
    rng.reset()
    rng.shuffle(cards)
    mine, my_rng = shuffled_pack(g)
    assert cards == mine
    # two redeal shuffles on the same objects (AShuffleStackMove.redo = RandomBase.shuffle's loop)
    for length in (52, 37):
        theirs, ours = list(range(length)), list(range(length))
        rng.shuffle(theirs)
        fisher_yates(ours, my_rng)
        assert theirs == ours, (g, length)


@pytest.mark.parametrize("g", [1, 617, 31999, 32000, 10**20 - 1])
def test_two_redeals_with_pysol_cards_generator_object(game, g):
    """simlab's redeals against the gather/deal of redealCards1/3 driven by the very pysol_cards
    generator object that shuffled the deal (PySolFC's ``game.random``), continued twice."""
    pysol_random = pytest.importorskip("pysol_cards.random")
    from pysol_cards.cards import ms_rearrange

    rng = _pysol_cards_rng(g)
    cards = list(range(52))
    if isinstance(rng, pysol_random.LCRandom31):
        cards = ms_rearrange(cards)
    rng.reset()
    rng.shuffle(cards)
    state = game.initial_state(g)
    piles = game.piles(state)
    for _ in range(2):
        talon = [card for row in ROWS for card in piles[row]]
        for n in range(len(talon) - 1, 0, -1):  # AShuffleStackMove.redo
            j = rng.randint(0, n)
            talon[n], talon[j] = talon[j], talon[n]
        n = min(len(talon), 3 * len(ROWS))
        piles = {name: ([] if name in ROWS else list(cards)) for name, cards in piles.items()}
        for i in range(3):
            for row in ROWS[: (n, n + 1, n + 2)[i] // 3]:
                piles[row].append(talon.pop())
        state = game.apply(state, REDEAL)
        assert game.piles(state) == piles


@pytest.mark.parametrize("g", [n for n in DEAL_NUMBERS if n != 32000])
def test_reference_matches_pysol_cards_fan_layout(g):
    """pysol_cards deals La Belle Lucie's layout as game 'fan' (not at 32000, where it uses the
    LCG and PySolFC the Mersenne Twister: docs/rules.md s.0)."""
    deal_game = pytest.importorskip("pysol_cards.deal_game")
    from pysol_cards.random_base import RandomBase

    dealer = deal_game.Game("fan", g, RandomBase.DEALS_PYSOLFC)
    dealer.deal()
    dealer.fan()
    columns = [[RANKS[c.rank - 1] + SUITS[c.suit] for c in col] for col in dealer.board.columns.cols]
    reference = lucie_deal(g)[0]
    assert columns == [reference[r] for r in ROWS]


@pytest.mark.parametrize("g", DEAL_NUMBERS)
def test_deal_matches_reference(game, g):
    state = game.initial_state(g)
    assert game.piles(state) == lucie_deal(g)[0]
    assert sizes(game.piles(state)) == [3] * 17 + [1]
    assert game.cards_home(state) == 0
    assert not game.is_won(state)


# ======================================================================================
# 2. Redeals: the shuffles continue the deal's stream
# ======================================================================================
REDEAL_DEALS = [1, 2, 617, 31999, 32000, 40000, 10**19 + 3]


@pytest.mark.parametrize("g", REDEAL_DEALS)
def test_two_redeals_from_the_deal_match_pysolfc(game, g):
    state = game.initial_state(g)
    expected, rng = lucie_deal(g)
    for _ in range(2):
        assert REDEAL in moves(game, state)
        state = game.apply(state, REDEAL)
        expected = redeal(expected, rng, 18)
        assert game.piles(state) == expected
        assert sizes(expected) == [3] * 17 + [1]
    assert REDEAL not in moves(game, state)
    assert_illegal(game, state, *REDEAL)


def _greedy_reference_line(piles, steps):
    """Moves chosen on the reference piles alone: a foundation move first, else the first row move."""
    line = []
    for _ in range(steps):
        legal = sorted(expected_moves(piles, n_rows=18, kings_on_empty=False, foundation_return=False,
                                      foundation_keeps=0, redeal_ok=False, draw_ok=False))
        if not legal:
            break
        home = [m for m in legal if m[1].startswith("foundation")]
        move = (home or legal)[0]
        line.append(move)
        piles = after_move(piles, *move)
    return line, piles


@pytest.mark.parametrize("g", [1, 3, 11982, 32000, 99999, 10**18 + 1])
def test_redeals_after_play_match_pysolfc(game, g):
    """Play, redeal, play, redeal: gathering of fans of 0..n cards, the stream continued."""
    state = game.initial_state(g)
    expected, rng = lucie_deal(g)
    for round_ in range(2):
        line, expected_after = _greedy_reference_line(expected, 8)
        for move in line:
            assert move in moves(game, state), (g, round_, move)
            state = game.apply(state, move)
        expected = expected_after
        assert game.piles(state) == expected
        state = game.apply(state, REDEAL)
        in_fans = sum(sizes(expected))
        expected = redeal(expected, rng, 18)
        assert game.piles(state) == expected, (g, round_)
        assert sizes(game.piles(state)) == fan_sizes_after_redeal(in_fans, 18)
    assert REDEAL not in moves(game, state)


def test_played_lines_really_change_the_table():
    """The lines above do move cards home and build fans (else the test would prove little)."""
    homes = 0
    for g in [1, 3, 11982, 32000, 99999, 10**18 + 1]:
        piles, _ = lucie_deal(g)
        line, after = _greedy_reference_line(piles, 8)
        homes += sum(len(after[f]) for f in FOUNDATIONS)
        assert line
    assert homes >= 4


@pytest.mark.parametrize("g", [5, 31999, 32000, 77777777])
def test_redeal_of_a_drawn_position_gathers_fans_in_order(game, g):
    """Fans of 0, 1, 2, 5 cards, gaps between them: gathered fan 0 first, each bottom to top."""
    layout = {
        "row0": "3C", "row2": "9S 8S 7S 6S 5S", "row3": "KD 2H", "row7": "QH",
        "row8": "4D 6C 7C 8C", "row16": "TD JC", "row17": "9H 5D QS",
        "foundation0": "AC 2C", "foundation2": "AH", "foundation3": "AD 2D 3D",
    }
    state = with_tape(draw(game, layout), g)
    after = game.apply(state, REDEAL)
    _, rng = shuffled_pack(g)
    expected = redeal(text_piles(layout), rng, 18)
    assert game.piles(after) == expected
    assert sizes(expected) == fan_sizes_after_redeal(18, 18) == [3] * 6 + [0] * 12
    # the second redeal continues the stream
    expected2 = redeal(expected, rng, 18)
    assert game.piles(game.apply(after, REDEAL)) == expected2


@pytest.mark.parametrize(("n_cards", "shape"), [(1, [1]), (2, [2]), (4, [3, 1]), (20, [3] * 6 + [2])])
def test_fan_sizes_after_a_redeal(game, n_cards, shape):
    # the cards away from home: KS QS JS ... 2S, then KH QH ...; one per fan from fan 17 down,
    # then around again (foundation1 keeps AS, foundation2 AH..)
    away = [f"{r}{s}" for s in "SH" for r in "KQJT98765432"][:n_cards]
    layout = full_house_except(*away)
    for i, card in enumerate(away):
        row = f"row{17 - i % 18}"
        layout[row] = (layout.get(row, "") + " " + card).strip()
    state = with_tape(draw(game, layout), 11)
    after = game.piles(game.apply(state, REDEAL))
    assert sizes(after) == shape + [0] * (18 - len(shape))
    assert sorted(c for r in ROWS for c in after[r]) == sorted(away)


@pytest.mark.parametrize("redeals", [0, 1, 2, 3])
def test_redeals_parameter_is_respected(redeals):
    game = make_game(GAME, redeals=redeals)
    for g in (7, 50000):
        state = game.initial_state(g)
        expected, rng = lucie_deal(g)
        taken = 0
        while REDEAL in moves(game, state):
            state = game.apply(state, REDEAL)
            expected = redeal(expected, rng, 18)
            assert game.piles(state) == expected, (redeals, g, taken)
            taken += 1
            assert taken <= redeals
        assert taken == redeals
        assert_illegal(game, state, *REDEAL)


def test_redeal_is_replayable_and_apply_leaves_its_input_alone(game):
    state = game.initial_state(4)
    before = game.piles(state)
    one = game.apply(state, REDEAL)
    two = game.apply(state, REDEAL)
    assert game.piles(state) == before
    assert game.piles(one) == game.piles(two)
    assert game.piles(game.apply(one, REDEAL)) == game.piles(game.apply(two, REDEAL))


def test_no_redeal_with_the_fans_empty(game):
    state = with_tape(draw(game, {"foundation0": "AC 2C", "foundation3": "AD"}), 1)
    assert moves(game, state) == set()
    assert_illegal(game, state, *REDEAL)
    assert not game.is_won(state)


# ======================================================================================
# 3. Rules on drawn positions
# ======================================================================================
@pytest.mark.parametrize(
    ("card", "target", "legal"),
    [
        ("5H", "6H", True),  # down by one, same suit
        ("QS", "KS", True),
        ("AC", "2C", True),  # an ace goes on its two
        ("5C", "6H", False),  # other suit, other colour
        ("5D", "6H", False),  # other suit, same colour
        ("7H", "6H", False),  # up by one
        ("4H", "6H", False),  # down by two
        ("KS", "AS", False),  # no wrap: K not on A
        ("AS", "KS", False),  # no wrap: A not on K
        ("2C", "AC", False),  # nothing builds up
    ],
)
def test_fans_build_down_in_suit(game, card, target, legal):
    # row0: 9D <card>     row1: TD <target>     foundations empty
    layout = {"row0": f"9D {card}", "row1": f"TD {target}"}
    state = draw(game, layout)
    assert ((("row0", "row1") in moves(game, state)) == legal)
    if legal:
        after = game.piles(game.apply(state, ("row0", "row1")))
        assert after["row0"] == ["9D"] and after["row1"] == ["TD", target, card]
    else:
        assert_illegal(game, state, "row0", "row1")


def test_only_the_top_card_moves_one_at_a_time(game):
    # row0: KC 7H 6H (7H 6H a run in suit)   row1: 8H   row2: 5C   row3: 9H
    state = draw(game, {"row0": "KC 7H 6H", "row1": "8H", "row2": "5C", "row3": "9H"})
    assert moves(game, state) == {("row1", "row3"), REDEAL}  # 8H on 9H only
    assert_illegal(game, state, "row0", "row1")  # neither the run 7H 6H nor 6H alone on 8H
    after = game.apply(state, ("row1", "row3"))
    assert game.piles(after)["row3"] == ["9H", "8H"]
    assert game.piles(after)["row1"] == []
    # 7H 6H on 8H as a unit is still not a move; nothing goes into the emptied row1
    assert moves(game, after) == {REDEAL}


def test_an_empty_fan_is_never_filled(game):
    # row0 empty; tops KD, QS, JH, 9C: none builds on another, none goes home
    layout = {"row1": "5C KD", "row2": "4S QS", "row3": "JH", "row4": "3D 9C"}
    state = draw(game, layout)
    assert moves(game, state) == {REDEAL}
    for source in ("row1", "row2", "row3", "row4"):
        for empty in ("row0", "row5", "row17"):
            assert_illegal(game, state, source, empty)


def test_a_fan_emptied_by_play_stays_empty(game):
    # row5: 2C -> foundation0 (AC); then row5 is empty and the KD on row1 cannot go there
    state = draw(game, {"row1": "5C KD", "row5": "2C", "foundation0": "AC"})
    assert moves(game, state) == {("row5", "foundation0"), REDEAL}
    after = game.apply(state, ("row5", "foundation0"))
    assert game.piles(after)["row5"] == [] and game.piles(after)["foundation0"] == ["AC", "2C"]
    assert moves(game, after) == {REDEAL}
    assert_illegal(game, after, "row1", "row5")


def test_foundations_take_their_own_suit_up_from_the_ace(game):
    # foundation0: AC (takes 2C)   others empty
    # row0: AS  row1: 3C  row2: 2H  row3: KD  row5: 7D AD
    layout = {"foundation0": "AC", "row0": "AS", "row1": "3C", "row2": "2H", "row3": "KD", "row5": "7D AD"}
    state = draw(game, layout)
    assert moves(game, state) == {("row0", "foundation1"), ("row5", "foundation3"), REDEAL}
    for wrong in ("foundation0", "foundation2", "foundation3"):
        assert_illegal(game, state, "row0", wrong)  # AS starts foundation1 only
    assert_illegal(game, state, "row1", "foundation0")  # 3C skips the 2C
    assert_illegal(game, state, "row2", "foundation2")  # a 2 cannot start a foundation
    assert_illegal(game, state, "row3", "foundation3")
    state = game.apply(state, ("row5", "foundation3"))
    assert game.piles(state)["foundation3"] == ["AD"] and game.piles(state)["row5"] == ["7D"]
    assert game.cards_home(state) == 2
    # with 2C home, 3C goes up (to foundation0 only)
    state = draw(game, dict(layout, foundation0="AC 2C"))
    assert ("row1", "foundation0") in moves(game, state)
    after = game.apply(state, ("row1", "foundation0"))
    assert game.piles(after)["foundation0"] == ["AC", "2C", "3C"] and game.piles(after)["row1"] == []


RETURN_LAYOUT = {
    # foundation0: AC (an ace can go back onto 2C)   foundation2: AH..5H (5H can go onto 6H)
    # (a card that can go back onto a fan top is always one below it, so that top can go up: 2C, 6H)
    "foundation0": "AC", "foundation2": "AH 2H 3H 4H 5H", "foundation3": "AD 2D 3D",
    "row0": "6H", "row1": "KC 2C", "row2": "6D", "row3": "9S 4S",
}


def test_foundation_cards_stay_home_by_default(game):
    state = draw(game, RETURN_LAYOUT)
    assert moves(game, state) == {("row1", "foundation0"), ("row0", "foundation2"), REDEAL}  # 2C, 6H go up
    for foundation in FOUNDATIONS:
        for row in ROWS:
            assert_illegal(game, state, foundation, row)


def test_foundation_return_flag():
    """PySolFC lets a foundation's top card go back onto a row that accepts it (ace included)."""
    game = make_game(GAME, foundation_return=True)
    state = draw(game, RETURN_LAYOUT)
    assert moves(game, state) == {("row1", "foundation0"), ("row0", "foundation2"),
                                  ("foundation0", "row1"), ("foundation2", "row0"), REDEAL}
    # 3D: no 4D top; 5H not onto 6D; nothing into an empty fan
    assert_illegal(game, state, "foundation2", "row2")
    assert_illegal(game, state, "foundation3", "row4")
    after = game.apply(state, ("foundation2", "row0"))
    assert game.piles(after)["row0"] == ["6H", "5H"]
    assert game.piles(after)["foundation2"] == ["AH", "2H", "3H", "4H"]
    assert game.cards_home(after) == 8
    after = game.apply(state, ("foundation0", "row1"))
    assert game.piles(after)["row1"] == ["KC", "2C", "AC"] and game.piles(after)["foundation0"] == []


def test_game_won_with_all_52_cards_home(game):
    state = draw(game, dict(full_house_except("KD", "QD"), row5="KD", row9="QD"))
    assert game.cards_home(state) == 50 and not game.is_won(state)
    assert moves(game, state) == {("row9", "foundation3"), ("row9", "row5"), REDEAL}
    state = game.apply(state, ("row9", "foundation3"))
    assert moves(game, state) == {("row5", "foundation3"), REDEAL}
    assert not game.is_won(state)
    won = game.apply(state, ("row5", "foundation3"))
    assert game.is_won(won) and game.cards_home(won) == 52
    assert moves(game, won) == set()


# ---- the draw (Hoyle) -----------------------------------------------------------------
DRAW_LAYOUT = {
    # buried: 5H (row0[0]) -> foundation2;  9C (row0[1]) -> onto TC (row1);
    #         QD, 2S, 8D, KH: nowhere (a king never fills an empty fan here)
    # tops:   KS, TC, 7D, JS, 6C: no move
    "foundation2": "AH 2H 3H 4H",
    "row0": "5H 9C KS", "row1": "TC", "row2": "QD 2S 7D", "row3": "8D JS", "row4": "KH 6C",
}
DRAWS = {("row0[0]", "foundation2"), ("row0[1]", "row1")}


def test_draw_after_the_last_redeal_any_buried_card():
    game = make_game(GAME, redeals=0, draw=True)
    state = draw(game, DRAW_LAYOUT)
    assert moves(game, state) == DRAWS
    assert_illegal(game, state, "row0[2]", "row1")  # the top is no draw (and KS fits nowhere)
    assert_illegal(game, state, "row4[0]", "row5")  # no draw into an empty fan
    assert_illegal(game, state, "row2[1]", "foundation1")  # 2S: foundation1 is empty
    after = game.apply(state, ("row0[1]", "row1"))
    assert game.piles(after)["row0"] == ["5H", "KS"] and game.piles(after)["row1"] == ["TC", "9C"]
    # only one draw: 5H (now row0[0]) fits foundation2 but is no longer offered
    assert moves(game, after) == set()
    assert_illegal(game, after, "row0[0]", "foundation2")
    other = game.apply(state, ("row0[0]", "foundation2"))
    assert game.piles(other)["row0"] == ["9C", "KS"]
    assert game.piles(other)["foundation2"] == ["AH", "2H", "3H", "4H", "5H"]
    assert moves(game, other) == set()
    assert_illegal(game, other, "row0[0]", "row1")


def test_no_draw_without_the_flag():
    game = make_game(GAME, redeals=0)
    state = draw(game, DRAW_LAYOUT)
    assert moves(game, state) == set()
    for source, destination in DRAWS:
        assert_illegal(game, state, source, destination)


def test_no_draw_while_a_redeal_remains():
    game = make_game(GAME, redeals=1, draw=True)
    state = draw(game, DRAW_LAYOUT)
    assert moves(game, state) == {REDEAL}
    for source, destination in DRAWS:
        assert_illegal(game, state, source, destination)


@pytest.mark.parametrize("g", [2, 31998, 32000, 10**17 + 5])
def test_draw_offered_only_after_the_second_redeal(g):
    game = make_game(GAME, draw=True)
    state = game.initial_state(g)
    expected, rng = lucie_deal(g)
    for _ in range(2):
        assert not any("[" in source for source, _ in moves(game, state))
        state = game.apply(state, REDEAL)
        expected = redeal(expected, rng, 18)
    assert game.piles(state) == expected
    offered = moves(game, state)
    draws = {m for m in offered if "[" in m[0] and not is_own_fan_draw(m)}
    oracle = expected_moves(expected, n_rows=18, kings_on_empty=False, foundation_return=False,
                            foundation_keeps=0, redeal_ok=False, draw_ok=True)
    assert {m for m in offered if not is_own_fan_draw(m)} == oracle
    assert draws, "pick a deal with a draw after the last redeal"
    move = sorted(draws)[0]
    after = game.apply(state, move)
    assert game.piles(after) == after_move(expected, *move)
    assert not any("[" in source for source, _ in moves(game, after))


def test_a_players_view_shows_every_card_and_no_future_shuffle(game):
    """An open game: the observation is the whole table, and it does not carry the chance tape
    (the future shuffles), so a policy deciding on it cannot peek at them."""
    state = game.initial_state(9)
    view = game.observe(state)
    assert game.visible_piles(view) == game.piles(state)
    other = dataclasses.replace(state, chance=chance_tape(10, 1, 102))
    assert game.observe(other) == view
    assert game.piles(game.apply(other, REDEAL)) != game.piles(game.apply(state, REDEAL))


# ======================================================================================
# 4. Random walks against the rules oracle (every legal move set, every result)
# ======================================================================================
LUCIE_VARIANTS = [
    dict(redeals=2, draw=False, foundation_return=False),
    dict(redeals=2, draw=True, foundation_return=False),
    dict(redeals=0, draw=True, foundation_return=True),
    dict(redeals=1, draw=True, foundation_return=False),
]


@pytest.mark.parametrize("params", LUCIE_VARIANTS, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_random_walks_follow_the_rules(params):
    game = make_game(GAME, **params)
    total_redeals = total_draws = 0
    for g in (1, 2, 31999, 32000, 10**12 + 9):
        for seed in (0, 1):
            used, drawn = walk_against_oracle(
                game, lucie_deal, g, n_rows=18, kings_on_empty=False,
                foundation_return=params["foundation_return"], foundation_keeps=0,
                redeals=params["redeals"], draw_flag=params["draw"], steps=150, seed=seed)
            total_redeals += used
            total_draws += drawn
    if params["redeals"]:
        assert total_redeals > 0
    if params["draw"]:
        assert total_draws > 0


# ======================================================================================
# 5. The conformance suite, every parameter combination
# ======================================================================================
@pytest.mark.parametrize("redeals", [0, 1, 2])
@pytest.mark.parametrize("draw_flag", [False, True])
@pytest.mark.parametrize("foundation_return", [False, True])
def test_check_game(redeals, draw_flag, foundation_return):
    game = make_game(GAME, redeals=redeals, draw=draw_flag, foundation_return=foundation_return)
    check_game(game, deals=(1, 40000), walk=40, seed=redeals)


# ======================================================================================
# 6. Parameters
# ======================================================================================
def test_defaults():
    game = make_game(GAME)
    state = game.initial_state(1)
    assert REDEAL in moves(game, state)  # redeals default to 2 (tested above), draw off
    assert not any("[" in s for s, _ in moves(game, state))


@pytest.mark.parametrize(
    ("params", "words"),
    [
        (dict(redeals=-1), ["redeals", "-1"]),
        (dict(redeals="two"), ["redeals", "two"]),
        (dict(redeals=1.5), ["redeals", "1.5"]),
        (dict(draw="maybe"), ["draw", "maybe"]),
        (dict(draw=3), ["draw", "3"]),
        (dict(foundation_return="sometimes"), ["foundation_return", "sometimes"]),
        (dict(redeal=2), ["redeal"]),
        (dict(deal="round_robin"), ["deal"]),
    ],
)
def test_bad_parameters_raise_a_clear_error(params, words):
    with pytest.raises(SimlabError) as caught:
        make_game(GAME, **params)
    message = str(caught.value)
    for word in words:
        assert word in message, message
