"""Deals of the Castle family, checked against docs/rules.md section 0-5 and pysol_cards.

Three independent sources are compared with the engine:

1. the literal test vectors of docs/rules.md section 0 (g = 1);
2. pysol_cards 0.24 in PySolFC mode (``DEALS_PYSOLFC``), see docs/rules.md section 0;
3. a small re-implementation, written here from the text of docs/rules.md section 0
   ("Deal generation") and the deal paragraphs of sections 1-5.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from simlab import make_game

RANKS = "A23456789TJQK"
SUITS = "CSHD"
FULL_PACK = sorted(r + s for s in SUITS for r in RANKS)
ROWS = [f"row{i}" for i in range(8)]
FOUNDATIONS = [f"foundation{i}" for i in range(4)]

PYSOL_GAMES = ["beleaguered_castle", "streets_and_alleys", "citadel"]

# At least 100 deal numbers per game: the LCG branch, the Mersenne Twister branch
# (avoiding 32000, where pysol_cards and PySolFC differ), and very large numbers.
DEAL_NUMBERS = (
    list(range(1, 71))
    + [100, 617, 1000, 11982, 24999, 31999]
    + [32001, 32002, 32500, 40000, 65535, 99999, 123456, 1_000_000]
    + [10**10, 10**10 + 1, 2**31 - 1, 2**31, 2**32, 2**32 + 1, 2**63 - 1]
    + [10**16, 10**16 + 7, 31_415_926_535_897_932, 10**19, 10**20 - 1]
    + [random.Random(2024).randrange(10**16, 10**20) for _ in range(10)]
)
assert len(DEAL_NUMBERS) >= 100
assert 32000 not in DEAL_NUMBERS


# --------------------------------------------------------------------------------------
# Reference deal generator written from docs/rules.md section 0 (not from simlab).
# --------------------------------------------------------------------------------------
def card_name(card_id: int) -> str:
    return RANKS[card_id % 13] + SUITS[(card_id // 13) % 4]


def reference_talon(g: int) -> list[str]:
    """Shuffled 52-card talon for game number g; the LAST element is the top."""
    cards = list(range(52))  # id = 13*suit + rank-1, suits C,S,H,D
    if g < 32000:
        # Microsoft LCG, and the rank-major C,D,H,S reorder for 52-card games.
        cards = [cards[i + (0, 39, 26, 13)[k]] for i in range(13) for k in range(4)]
        state = g

        def randint(n: int) -> int:
            nonlocal state
            state = (214013 * state + 2531011) % 2**32
            return ((state >> 16) & 0x7FFF) % (n + 1)

    else:
        rng = random.Random(g)

        def randint(n: int) -> int:
            return int(rng.random() * (n + 1))

    for n in range(len(cards) - 1, 0, -1):
        j = randint(n)
        cards[n], cards[j] = cards[j], cards[n]
    return [card_name(c) for c in cards]


def _empty_layout() -> dict[str, list[str]]:
    return {name: [] for name in ROWS + FOUNDATIONS}


def _suit_index(card: str) -> int:
    return SUITS.index(card[1])


def _fits_foundation(layout: dict[str, list[str]], card: str) -> bool:
    pile = layout[FOUNDATIONS[_suit_index(card)]]
    return RANKS.index(card[0]) == len(pile)  # empty takes A, else rank + 1


def reference_deal(game: str, g: int) -> dict[str, list[str]]:
    """The start layout of docs/rules.md sections 1-3 (foundation i = suit i, bottom to top)."""
    talon = reference_talon(g)
    layout = _empty_layout()
    if game in ("beleaguered_castle", "siegecraft"):
        # Hook: aces to the bottom of the talon (others keep their order).
        talon = [c for c in talon if c[0] == "A"] + [c for c in talon if c[0] != "A"]
        for _ in range(6):
            for row in ROWS:
                layout[row].append(talon.pop())
        assert sorted(talon) == ["AC", "AD", "AH", "AS"]
        for ace in talon:
            layout[FOUNDATIONS[_suit_index(ace)]].append(ace)
    elif game in ("streets_and_alleys", "stronghold"):
        for _ in range(6):
            for row in ROWS:
                layout[row].append(talon.pop())
        for row in ROWS[:4]:
            layout[row].append(talon.pop())
        assert not talon
    elif game in ("citadel", "citadel_hoyle"):
        if game == "citadel":
            # Hook: aces to the TOP of the talon; they are dealt first to their foundations.
            talon = [c for c in talon if c[0] != "A"] + [c for c in talon if c[0] == "A"]
            for _ in range(4):
                ace = talon.pop()
                layout[FOUNDATIONS[_suit_index(ace)]].append(ace)
        passes = 0
        while talon:
            passes += 1
            for row in ROWS:
                if not talon:
                    break
                card = talon.pop()
                if game == "citadel":
                    goes_home = _fits_foundation(layout, card)  # compulsory play
                else:
                    goes_home = card[0] == "A"  # Hoyle flag: only aces go up during the deal
                if goes_home:
                    layout[FOUNDATIONS[_suit_index(card)]].append(card)
                else:
                    layout[row].append(card)
        assert passes == (6 if game == "citadel" else 7)
    else:  # pragma: no cover
        raise AssertionError(game)
    return layout


# --------------------------------------------------------------------------------------
# pysol_cards
# --------------------------------------------------------------------------------------
def pysol_board(game: str, g: int) -> str:
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random import RandomBase

    return Game(game, g, RandomBase.DEALS_PYSOLFC, 13).calc_deal_string(g, CardRenderer(True))


def parse_pysol_board(text: str) -> dict[str, list[str]]:
    """Parse pysol_cards' board: optional 'Foundations:' line, then one row per line, bottom first."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    layout = _empty_layout()
    if lines and lines[0].startswith("Foundations:"):
        for item in lines.pop(0)[len("Foundations:"):].split():
            suit, top = item.split("-")
            top_rank = RANKS.index(top.replace("10", "T"))
            layout[FOUNDATIONS[SUITS.index(suit)]] = [RANKS[r] + suit for r in range(top_rank + 1)]
    assert len(lines) == 8, text
    for row, line in zip(ROWS, lines):
        line = line.strip()
        if line.startswith(":"):
            line = line[1:]
        layout[row] = [word.replace("10", "T") for word in line.split()]
    return layout


def engine_piles(game_name: str, g: int, **params) -> dict[str, list[str]]:
    game = make_game(game_name, **params)
    return game.piles(game.initial_state(g))


def castle_piles(piles: dict[str, list[str]]) -> dict[str, list[str]]:
    """Only rows and foundations (drops cells, which must be empty at the start)."""
    return {name: piles[name] for name in ROWS + FOUNDATIONS}


def all_cards(piles: dict[str, list[str]]) -> list[str]:
    return sorted(card for cards in piles.values() for card in cards)


# --------------------------------------------------------------------------------------
# Test vectors of docs/rules.md section 0 (g = 1)
# --------------------------------------------------------------------------------------
def test_vector_beleaguered_castle_deal_1():
    piles = engine_piles("beleaguered_castle", 1)
    assert piles["row0"] == "JD KD KS QH 8H 6C".split()
    assert piles["row7"] == "5H 2S TS TH QS 6H".split()
    assert [piles[f] for f in FOUNDATIONS] == [["AC"], ["AS"], ["AH"], ["AD"]]
    assert [len(piles[r]) for r in ROWS] == [6] * 8


def test_vector_streets_and_alleys_deal_1():
    piles = engine_piles("streets_and_alleys", 1)
    assert piles["row0"] == "JD KD 2S 4C 3S 6D 6S".split()
    assert [len(piles[r]) for r in ROWS] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert all(piles[f] == [] for f in FOUNDATIONS)


def test_vector_citadel_deal_1():
    piles = engine_piles("citadel", 1)
    assert [len(piles[r]) for r in ROWS] == [6, 3, 6, 6, 5, 6, 4, 5]
    assert [piles[f][-1] for f in FOUNDATIONS] == ["2C", "4S", "2H", "3D"]
    # foundation piles list the whole suit run from the ace
    assert piles["foundation1"] == ["AS", "2S", "3S", "4S"]


def test_reference_generator_matches_rules_vectors():
    """Sanity check of the re-implementation in this file against the docs/rules.md section 0 vectors."""
    bc = reference_deal("beleaguered_castle", 1)
    assert bc["row0"] == "JD KD KS QH 8H 6C".split()
    assert bc["row7"] == "5H 2S TS TH QS 6H".split()
    assert reference_deal("streets_and_alleys", 1)["row0"] == "JD KD 2S 4C 3S 6D 6S".split()
    cit = reference_deal("citadel", 1)
    assert [len(cit[r]) for r in ROWS] == [6, 3, 6, 6, 5, 6, 4, 5]
    assert [cit[f][-1] for f in FOUNDATIONS] == ["2C", "4S", "2H", "3D"]


# --------------------------------------------------------------------------------------
# Cross-checks on many deal numbers
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_name", PYSOL_GAMES)
def test_deals_match_pysol_cards(game_name):
    game = make_game(game_name)
    mismatches = []
    for g in DEAL_NUMBERS:
        expected = parse_pysol_board(pysol_board(game_name, g))
        got = castle_piles(game.piles(game.initial_state(g)))
        if got != expected:
            mismatches.append(g)
    assert not mismatches, f"{game_name}: engine differs from pysol_cards on deals {mismatches}"


@pytest.mark.parametrize("game_name", PYSOL_GAMES)
def test_deals_match_rules_text_reimplementation(game_name):
    game = make_game(game_name)
    mismatches = [
        g
        for g in DEAL_NUMBERS + [32000]  # 32000: PySolFC (and docs/rules.md section 0) use MT there
        if castle_piles(game.piles(game.initial_state(g))) != reference_deal(game_name, g)
    ]
    assert not mismatches, f"{game_name}: engine differs from docs/rules.md section 0 on deals {mismatches}"


def test_deal_32000_uses_mersenne_twister():
    """docs/rules.md section 0: g >= 32000 uses MT (pysol_cards alone uses the LCG at exactly 32000)."""
    game = make_game("beleaguered_castle")
    got = castle_piles(game.piles(game.initial_state(32000)))
    assert got == reference_deal("beleaguered_castle", 32000)


@pytest.mark.parametrize(
    ("with_cell", "without_cell"),
    [("siegecraft", "beleaguered_castle"), ("stronghold", "streets_and_alleys")],
)
def test_cell_variants_deal_like_their_base_game(with_cell, without_cell):
    cell_game = make_game(with_cell)
    base_game = make_game(without_cell)
    assert [n for n in cell_game.pile_names if n.startswith("cell")] == ["cell0"]
    for g in DEAL_NUMBERS[::3] + [32000]:
        cell_piles = cell_game.piles(cell_game.initial_state(g))
        assert cell_piles["cell0"] == [], (with_cell, g)
        assert castle_piles(cell_piles) == base_game.piles(base_game.initial_state(g)), (with_cell, g)


# --------------------------------------------------------------------------------------
# Shapes of the deals (docs/rules.md sections 1-5)
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_name", ["beleaguered_castle", "siegecraft"])
def test_beleaguered_castle_shape(game_name):
    game = make_game(game_name)
    for g in (1, 2, 31999, 32001, 10**10):
        piles = game.piles(game.initial_state(g))
        assert [len(piles[r]) for r in ROWS] == [6] * 8
        assert [piles[f] for f in FOUNDATIONS] == [["AC"], ["AS"], ["AH"], ["AD"]]
        assert all_cards(piles) == FULL_PACK
        assert game.cards_home(game.initial_state(g)) == 4


@pytest.mark.parametrize("game_name", ["streets_and_alleys", "stronghold"])
def test_streets_and_alleys_shape(game_name):
    game = make_game(game_name)
    for g in (1, 2, 31999, 32001, 10**10):
        piles = game.piles(game.initial_state(g))
        assert [len(piles[r]) for r in ROWS] == [7, 7, 7, 7, 6, 6, 6, 6]
        assert all(piles[f] == [] for f in FOUNDATIONS)
        assert all_cards(piles) == FULL_PACK
        assert game.cards_home(game.initial_state(g)) == 0


def test_citadel_shape():
    game = make_game("citadel")
    for g in DEAL_NUMBERS[::4]:
        piles = game.piles(game.initial_state(g))
        assert all_cards(piles) == FULL_PACK, g
        assert all(0 <= len(piles[r]) <= 6 for r in ROWS), g
        for suit, foundation in zip(SUITS, FOUNDATIONS):
            cards = piles[foundation]
            assert cards[0] == "A" + suit
            assert cards == [RANKS[i] + suit for i in range(len(cards))], (g, foundation)
        # rows hold 48 cards minus those played up during the deal
        assert sum(len(piles[r]) for r in ROWS) + sum(len(piles[f]) for f in FOUNDATIONS) == 52


# --------------------------------------------------------------------------------------
# Citadel, Hoyle's deal
# --------------------------------------------------------------------------------------
def test_citadel_hoyle_deal():
    game = make_game("citadel", deal="hoyle")
    for g in DEAL_NUMBERS[::2]:
        piles = game.piles(game.initial_state(g))
        # all 52 cards dealt, each exactly once
        assert all_cards(piles) == FULL_PACK, g
        # only the aces reach the foundations during a Hoyle deal
        assert [piles[f] for f in FOUNDATIONS] == [["AC"], ["AS"], ["AH"], ["AD"]], g
        assert sum(len(piles[r]) for r in ROWS) == 48, g
        assert not any(card[0] == "A" for r in ROWS for card in piles[r]), g


def test_citadel_hoyle_deal_follows_rules_text():
    """No ace hook; passes over rows 0-7; an ace turned goes home and its row is skipped."""
    game = make_game("citadel", deal="hoyle")
    mismatches = [
        g
        for g in DEAL_NUMBERS[::2]
        if castle_piles(game.piles(game.initial_state(g))) != reference_deal("citadel_hoyle", g)
    ]
    assert not mismatches, f"citadel deal=hoyle differs from the rules text on deals {mismatches}"


def test_citadel_deal_parameter_default_is_pysolfc():
    assert engine_piles("citadel", 7) == engine_piles("citadel", 7, deal="pysolfc")
    assert engine_piles("citadel", 7) != engine_piles("citadel", 7, deal="hoyle")


# --------------------------------------------------------------------------------------
# Purity and errors
# --------------------------------------------------------------------------------------
ALL_CASTLE_GAMES = ["beleaguered_castle", "streets_and_alleys", "citadel", "siegecraft", "stronghold"]


@pytest.mark.parametrize("game_name", ALL_CASTLE_GAMES)
def test_same_number_gives_equal_states(game_name):
    game = make_game(game_name)
    for g in (1, 5, 31999, 32001, 10**10, 10**19 + 3):
        first, second = game.initial_state(g), game.initial_state(g)
        assert first == second
        assert game.piles(first) == game.piles(second)
        assert game.position_hash(first) == game.position_hash(second)
        # a fresh game object deals the same
        assert make_game(game_name).initial_state(g) == first
    assert game.initial_state(1) != game.initial_state(2)


@pytest.mark.parametrize("game_name", ALL_CASTLE_GAMES)
def test_deal_does_not_touch_global_random_state(game_name):
    game = make_game(game_name)
    # the NPY002 exceptions below: this test seeds and reads numpy's legacy global state on purpose
    for g in (3, 31999, 32001, 10**10):
        random.seed(12345)
        np.random.seed(12345)  # noqa: NPY002
        py_state = random.getstate()
        np_state = np.random.get_state()  # noqa: NPY002
        game.initial_state(g)
        assert random.getstate() == py_state, g
        after_np = np.random.get_state()  # noqa: NPY002
        assert np.array_equal(after_np[1], np_state[1]) and after_np[2:] == np_state[2:], g
        got = (random.random(), random.randint(0, 10**9), float(np.random.random()))  # noqa: NPY002
        random.seed(12345)
        np.random.seed(12345)  # noqa: NPY002
        expected = (random.random(), random.randint(0, 10**9), float(np.random.random()))  # noqa: NPY002
        assert got == expected, g


@pytest.mark.parametrize("game_name", ALL_CASTLE_GAMES)
@pytest.mark.parametrize("bad", [0, -1, -32001])
def test_non_positive_deal_number_is_an_error(game_name, bad):
    game = make_game(game_name)
    with pytest.raises(ValueError):
        game.initial_state(bad)


def test_deal_counts_every_card_once_over_many_deals():
    for game_name in ALL_CASTLE_GAMES:
        game = make_game(game_name)
        for g in DEAL_NUMBERS[::5]:
            counts = Counter(card for cards in game.piles(game.initial_state(g)).values() for card in cards)
            assert sorted(counts) == FULL_PACK and set(counts.values()) == {1}, (game_name, g)
