"""Castle of Indolence (PySolFC id 393; docs/rules.md sections 0 and 8), written from the rules only.

How deal 1 was checked (the pinned ``DEAL_1`` below)
----------------------------------------------------
Read in shlomif/PySolFC master (commit 7a3d146a1ec1b36f18801fd8460340c3cc4853b9):

- ``pysollib/games/beleagueredcastle.py``: ``class CastleOfIndolence`` and
  ``registerGame(GameInfo(393, CastleOfIndolence, ..., GI.GT_BELEAGUERED_CASTLE, 2, 0, ...))``:
  two decks, no ``_shuffleHook`` override (so no hook). ``createGame`` appends 4 reserves
  (``OpenStack(max_accept=0)``: the top card moves, nothing is accepted), 8 foundations
  (``RK_FoundationStack(max_move=0)``: up by rank in any suit from an ace, 13 cards, nothing leaves)
  and 8 rows, the left column first (``RK_RowStack(max_move=1, max_accept=1, base_rank=ANY_RANK)``:
  down by rank in any suit, single cards, any card on an empty row). ``startGame`` deals
  13 x ``dealRow(rows=self.s.reserves)``, then ``_startDealNumRows(4)`` (4 x ``dealRow()``),
  ``dealRow()``, ``dealRow()`` and ``dealRowAvail()`` (the last 4 cards to rows 0-3).
- ``pysollib/stack.py``: ``dealRow``/``dealRowAvail``/``dealToStacks`` (one card from the top of the
  talon, i.e. ``cards[-1]``, to each stack in order; ``dealRowAvail`` truncates the rows to the
  cards left), ``OpenStack``, ``AbstractFoundationStack``, ``SS_/RK_FoundationStack``,
  ``RK_RowStack``.
- ``pysollib/game/__init__.py``: ``createCards`` (per deck, suits C,S,H,D, ranks A..K, so PySolFC's
  card ids are simlab's ids), ``shuffle`` (``ms_rearrange`` only if the RNG is ``LCRandom31``, then
  ``random.reset()``, ``random.shuffle(cards)``, ``_shuffleHook``, cards added to the talon in list
  order, so the last one is the top) and ``newGame`` (``autoPlay`` after the deal only drops cards
  when the ``autodrop`` option is on; ``pysollib/options.py`` has ``autodrop = False``, so the ace
  on row3 stays there).
- ``pysollib/pysolrandom.py``: ``construct_random``: game numbers ``0 <= g < 32000`` give
  ``pysol_cards.random.LCRandom31(g)``, everything else ``MTRandom(g)`` (so g = 32000 is MT).
- pysol_cards 0.24 (the package PySolFC imports): ``cards.ms_rearrange`` returns the list unchanged
  unless it holds exactly 52 cards, so a 104-card game is NOT reordered rank-major;
  ``random_base.RandomBase.shuffle`` is Fisher-Yates from the end with ``randint(0, n)``;
  ``LCRandom31.randint`` = ``random() % (n + 1)`` with the MS LCG (masked to 33 bits, which leaves
  bits 16-30 equal to the 32-bit LCG's); ``MTRandom.randint`` = ``int(random() * (n + 1))``.

``pysol_talon``/``pysol_deal`` below re-implement exactly that (nothing copied; they use no simlab code);
``test_reference_talon_matches_pysol_cards_rng`` additionally runs it against pysol_cards' own
``LCRandom31``/``MTRandom``/``ms_rearrange`` objects, i.e. the RNG code PySolFC runs. Deal 1 printed
from it is pinned literally in ``DEAL_1``. PySolFC itself (Tk GUI) was not run.

docs/rules.md s.0 (test vectors, deal 1) says the reserve tops of deal 1 are ``4H 7H QS QC``
(never compared with a running PySolFC): CONFIRMED from PySolFC's code as read above, reserve0..3
end in 4H, 7H, QS, QC.

Drawn positions: rows are written bottom -> top (the rightmost card is the top). Foundations are
not tied to a suit in this game. Two decks: a card text may occur twice.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from simlab import make_game
from simlab.errors import IllegalMoveError

GAME = "castle_of_indolence"
RANKS = "A23456789TJQK"
SUITS = "CSHD"
ROWS = [f"row{i}" for i in range(8)]
RESERVES = [f"reserve{i}" for i in range(4)]
FOUNDATIONS = [f"foundation{i}" for i in range(8)]


@pytest.fixture(scope="module")
def game():
    return make_game(GAME)


# ======================================================================================
# Independent re-implementation of PySolFC's deal for id 393 (see module docstring)
# ======================================================================================
def card_name(card_id: int) -> str:
    return RANKS[card_id % 13] + SUITS[(card_id // 13) % 4]


def pysol_talon(g: int) -> list[int]:
    """PySolFC's shuffled 104-card talon for game number g (card ids; the LAST one is the top)."""
    cards = list(range(104))  # createCards: deck 0 then deck 1, suits C,S,H,D, ranks A..K
    if g < 32000:
        # LCRandom31; ms_rearrange leaves a 104-card list alone (it only reorders 52 cards)
        x = g

        def randint(n: int) -> int:
            nonlocal x
            x = (x * 214013 + 2531011) % 2**32
            return ((x >> 16) & 0x7FFF) % (n + 1)
    else:
        mt = random.Random(g)  # MTRandom is a random.Random seeded with g

        def randint(n: int) -> int:
            return int(mt.random() * (n + 1))

    for n in range(len(cards) - 1, 0, -1):
        j = randint(n)
        cards[n], cards[j] = cards[j], cards[n]
    return cards  # no _shuffleHook in CastleOfIndolence


def pysol_deal(g: int) -> dict[str, list[int]]:
    """CastleOfIndolence.startGame: 13 rounds to the reserves, then rows until the talon is empty."""
    talon = pysol_talon(g)
    piles: dict[str, list[int]] = {name: [] for name in ROWS + RESERVES + FOUNDATIONS}
    for _ in range(13):  # dealRow(rows=self.s.reserves) x 13
        for name in RESERVES:
            piles[name].append(talon.pop())
    for _ in range(6):  # _startDealNumRows(4) + dealRow() + dealRow()
        for name in ROWS:
            piles[name].append(talon.pop())
    for name in ROWS[: len(talon)]:  # dealRowAvail(): the 4 cards left go to rows 0-3
        piles[name].append(talon.pop())
    assert not talon
    return piles


def pysol_deal_text(g: int) -> dict[str, list[str]]:
    return {name: [card_name(c) for c in cards] for name, cards in pysol_deal(g).items()}


# Deal 1 as PySolFC lays it out, each pile bottom -> top (printed from pysol_deal(1)).
DEAL_1 = {
    "row0": "7C 4S 5C AH KS QD 4C",
    "row1": "3S KS 6C QS 5D 7H 5S",
    "row2": "QH 6D AD 2C TS 3D 6S",
    "row3": "9S TD JH 9H QD 2C AC",
    "row4": "2S 9C 6S 3H 7S KH",
    "row5": "QH 9D 3C 7S 6D 5D",
    "row6": "3C JS JD 5C TS 3H",
    "row7": "AS 4D TC 9D KD 2D",
    "reserve0": "3D 5S 8D 6C 4C KD AC 9H 8H 6H 3S 8H 4H",
    "reserve1": "5H 5H JD 6H JS 2H 7C 8S JH TH 9C TH 7H",
    "reserve2": "JC KC AS TC QC TD 2H 7D 4D 8C 7D AH QS",
    "reserve3": "KH KC 8C 8D 4H 8S AD 9S 2D 2S 4S JC QC",
}

DEAL_NUMBERS = [1, 2, 3, 4, 617, 11982, 31999, 32000, 32001, 40000, 123456,
                2**32 + 1, 10**16 + 7, 10**19, 10**20 - 1]


# ======================================================================================
# Helpers
# ======================================================================================
def draw(game, layout: dict[str, str]):
    """A drawn position; checks first that no card text occurs more than twice (two decks)."""
    counts = Counter(card for cards in layout.values() for card in cards.split())
    assert max(counts.values(), default=0) <= 2, counts
    return game.state_from_piles(layout)


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


def to_all_foundations(source: str, foundations=FOUNDATIONS) -> set[tuple[str, str]]:
    return {(source, f) for f in foundations}


def full_house_except(*away: str) -> dict[str, str]:
    """All 104 cards home except ``away``; foundation i holds suit i % 4 (deck i // 4's copy first).

    ``away`` must be top cards: each is removed from the top of the first foundation of its suit
    that still ends with it.
    """
    piles = {f: [r + SUITS[i % 4] for r in RANKS] for i, f in enumerate(FOUNDATIONS)}
    for card in away:
        for f in FOUNDATIONS:
            if piles[f] and piles[f][-1] == card:
                piles[f].pop()
                break
        else:  # pragma: no cover
            raise AssertionError(f"{card} is not a top card")
    assert sum(len(p) for p in piles.values()) == 104 - len(away)
    return {f: " ".join(cards) for f, cards in piles.items()}


# Eight single-card rows with ranks 3,3,7,7,9,9,J,K: no top builds on another, no 2 (so no ace
# builds on them), no 4, 5 or 6 (so none takes a reserve 4 or 5 tested below), no ace.
QUIET_ROWS = {"row0": "3D", "row1": "3H", "row2": "7D", "row3": "7H",
              "row4": "9C", "row5": "9D", "row6": "JS", "row7": "KD"}


# ======================================================================================
# 1. The deal
# ======================================================================================
def test_pile_names_in_index_order(game):
    assert list(game.pile_names) == ROWS + RESERVES + FOUNDATIONS


def test_deal_1_is_pinned(game):
    """Every pile of deal 1, bottom to top, as PySolFC deals it (see the module docstring)."""
    piles = game.piles(game.initial_state(1))
    expected = {name: DEAL_1.get(name, "").split() for name in ROWS + RESERVES + FOUNDATIONS}
    assert piles == expected


def test_pinned_deal_1_is_the_reference_deal_1():
    assert pysol_deal_text(1) == {name: DEAL_1.get(name, "").split()
                                  for name in ROWS + RESERVES + FOUNDATIONS}


def test_deal_1_reserve_tops_match_rules_md():
    """docs/rules.md s.0 test vector, deal 1: 'Castle of Indolence: reserve tops 4H 7H QS QC'."""
    assert [DEAL_1[r].split()[-1] for r in RESERVES] == ["4H", "7H", "QS", "QC"]


def test_reference_talon_matches_pysol_cards_rng():
    """pysol_talon against the RNG objects PySolFC's Game.shuffle actually calls."""
    pysol_random = pytest.importorskip("pysol_cards.random")
    pysol_cards_cards = pytest.importorskip("pysol_cards.cards")
    for g in DEAL_NUMBERS:
        rng = pysol_random.LCRandom31(g) if g < 32000 else pysol_random.MTRandom(g)
        cards = list(range(104))
        if isinstance(rng, pysol_random.LCRandom31):
            cards = pysol_cards_cards.ms_rearrange(cards)
        assert cards == list(range(104))  # the rank-major reorder is for 52-card packs only
        rng.reset()
        rng.shuffle(cards)
        assert cards == pysol_talon(g), g


@pytest.mark.parametrize("g", DEAL_NUMBERS)
def test_deal_matches_reference(game, g):
    state = game.initial_state(g)
    assert game.piles(state) == pysol_deal_text(g)
    # the exact copies too (card id = 52 * deck + 13 * suit + rank index, as PySolFC numbers them)
    reference = pysol_deal(g)
    for name in ROWS + RESERVES + FOUNDATIONS:
        assert list(game.pile_cards(state, name)) == reference[name], (g, name)


@pytest.mark.parametrize("g", [1, 5, 31999, 32000, 99999, 10**18])
def test_deal_shape(game, g):
    state = game.initial_state(g)
    sizes = {name: len(game.pile_cards(state, name)) for name in game.pile_names}
    assert sizes == {**{r: 7 for r in ROWS[:4]}, **{r: 6 for r in ROWS[4:]},
                     **{r: 13 for r in RESERVES}, **{f: 0 for f in FOUNDATIONS}}
    every_card = sorted(c for name in game.pile_names for c in game.pile_cards(state, name))
    assert every_card == list(range(104))
    assert game.cards_home(state) == 0
    assert not game.is_won(state)


def test_deal_1_exact_moves(game):
    """Legal moves of deal 1, by hand from DEAL_1 (all foundations empty).

    Row tops: 4C 5S 6S AC KH 5D 3H 2D; reserve tops 4H 7H QS QC.
    """
    expected = (
        to_all_foundations("row3")  # AC starts any of the 8 empty foundations
        | {("row3", "row7")}  # AC on 2D
        | {("row0", "row1"), ("row0", "row5")}  # 4C on 5S, on 5D
        | {("row1", "row2"), ("row5", "row2")}  # 5S, 5D on 6S
        | {("row6", "row0")}  # 3H on 4C
        | {("row7", "row6")}  # 2D on 3H
        | {("reserve0", "row1"), ("reserve0", "row5")}  # 4H on 5S, on 5D
        | {("reserve2", "row4"), ("reserve3", "row4")}  # QS, QC on KH
    )  # 6S: no 7 on a row top (7H is a reserve top); KH: nothing; 7H: no 8 top
    assert moves(game, game.initial_state(1)) == expected


# ======================================================================================
# 2. Rules on drawn positions
# ======================================================================================
# ---- rows ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("card", "target", "legal"),
    [
        ("5H", "6C", True),  # down by one, other colour
        ("5C", "6S", True),  # down by one, same colour
        ("5C", "6C", True),  # down by one, same suit
        ("QD", "KS", True),
        ("AS", "2D", True),  # an ace goes on a two
        ("7H", "6C", False),  # up by one
        ("4H", "6C", False),  # down by two
        ("6H", "6C", False),  # same rank
        ("6C", "6C", False),  # the other copy of the same card
        ("KH", "AC", False),  # no wrap: K not on A
        ("2H", "AC", False),  # nothing goes on an ace
        ("AH", "KC", False),  # no wrap: A not on K
    ],
)
def test_row_builds_down_by_one_rank_any_suit(game, card, target, legal):
    # row0: 9D <card>     row1: TD <target>     rows 2-7: fillers (none empty)
    layout = {"row0": f"9D {card}", "row1": f"TD {target}", "row2": "8S", "row3": "8H",
              "row4": "9S", "row5": "9H", "row6": "TS", "row7": "TH"}
    state = draw(game, layout)
    assert (("row0", "row1") in moves(game, state)) == legal
    if legal:
        after = game.apply(state, ("row0", "row1"))
        assert game.piles(after)["row0"] == ["9D"]
        assert game.piles(after)["row1"] == ["TD", target, card]
    else:
        assert_illegal(game, state, "row0", "row1")


def test_only_the_top_card_of_a_row_moves(game):
    # row0: 7C 6H 5S   <- a run; 7C would fit on 8D and 6H on 7D, but only 5S moves
    # row1: 8D         row2: 7D         rows 3-7: fillers
    layout = {"row0": "7C 6H 5S", "row1": "8D", "row2": "7D", "row3": "2D", "row4": "2H",
              "row5": "TC", "row6": "QD", "row7": "QH"}
    state = draw(game, layout)
    assert moves(game, state) == {("row2", "row1")}  # 7D on 8D; 5S has no 6 to go on
    assert_illegal(game, state, "row0", "row1")
    assert_illegal(game, state, "row0", "row2")


@pytest.mark.parametrize("card", ["KS", "AH", "7D", "2C", "QC"])
def test_any_card_fills_an_empty_row(game, card):
    # row0: 9D <card>      row1: (empty)     rows 2-7: fillers
    layout = {"row0": f"9D {card}", "row2": "3D", "row3": "3H", "row4": "5C",
              "row5": "5S", "row6": "JH", "row7": "JS"}
    state = draw(game, layout)
    assert ("row0", "row1") in moves(game, state)
    after = game.apply(state, ("row0", "row1"))
    assert game.piles(after)["row1"] == [card]
    assert game.piles(after)["row0"] == ["9D"]


def test_exact_moves_rows_with_empty_row_and_no_wrap(game):
    # foundations: all 8 empty          reserves: reserve0 = AD, reserve1 = QD KS, 2-3 empty
    # row0: 2H AS    AS -> any of 8 foundations, -> 2D (row1), -> row2
    # row1: 3C 2D    2D -> 3S (row4), -> row2   (a 2 never starts a foundation)
    # row2: (empty)
    # row3: 5S KH    KH -> row2 only (not on AS / AD: no wrap)
    # row4: QC 3S    3S -> row2 (no 4 on top anywhere)
    # row5: 6D       a lone card may move to the empty row too (no 7 top to go on)
    # row6: 9D 8C    8C -> row2 (the 9D under it does not count)
    # row7: JH TC    TC -> row2
    # reserve0 AD -> any of 8 foundations, -> 2D (row1), -> row2
    # reserve1 KS -> row2 only
    layout = {"row0": "2H AS", "row1": "3C 2D", "row2": "", "row3": "5S KH", "row4": "QC 3S",
              "row5": "6D", "row6": "9D 8C", "row7": "JH TC",
              "reserve0": "AD", "reserve1": "QD KS", "reserve2": "", "reserve3": ""}
    state = draw(game, layout)
    expected = (
        to_all_foundations("row0") | {("row0", "row1"), ("row0", "row2")}
        | {("row1", "row4"), ("row1", "row2")}
        | {(row, "row2") for row in ("row3", "row4", "row5", "row6", "row7")}
        | to_all_foundations("reserve0") | {("reserve0", "row1"), ("reserve0", "row2")}
        | {("reserve1", "row2")}
    )
    assert moves(game, state) == expected
    for move in expected:
        game.apply(state, move)
    assert_illegal(game, state, "row3", "row0")  # K on A
    assert_illegal(game, state, "reserve1", "row0")  # K on A, from a reserve


def test_nothing_moves_from_an_empty_row(game):
    layout = dict(QUIET_ROWS, row0="")
    state = draw(game, layout)
    assert not any(source == "row0" for source, _ in moves(game, state))
    assert_illegal(game, state, "row0", "row1")


# ---- reserves -----------------------------------------------------------------------
def test_exact_moves_with_reserves(game):
    # foundations: foundation0 = AC 2D 3S (suits mixed), foundation1 = AH, foundations 2-7 empty
    # reserve0: KC 4H   4H -> foundation0 (top 3), -> 5C (row0)
    # reserve1: 2S 9D   9D -> TC (row3); the 2S under it would go on AH, but is not the top
    # reserve2: (empty)  nothing ever goes here
    # reserve3: AD      AD -> foundations 2-7 (the empty ones), -> 2H (row2)
    # row0: 9S 5C      5C -> 6H (row1)
    # row1: JD 6H      6H -> 7C (row6)
    # row2: QS 2H      2H -> foundation1 (top AH), -> 3H (row7)
    # row3: 8H TC      (no J top)
    # row4: KD         (no A top, no empty row)
    # row5: 4C 8S      8S would fit the reserve top 9D, but nothing goes on a reserve
    # row6: 3D 7C      7C -> 8S (row5)
    # row7: 5D 3H      3H would fit the reserve top 4H: not allowed either (no 4 top)
    layout = {"foundation0": "AC 2D 3S", "foundation1": "AH",
              "reserve0": "KC 4H", "reserve1": "2S 9D", "reserve2": "", "reserve3": "AD",
              "row0": "9S 5C", "row1": "JD 6H", "row2": "QS 2H", "row3": "8H TC", "row4": "KD",
              "row5": "4C 8S", "row6": "3D 7C", "row7": "5D 3H"}
    state = draw(game, layout)
    expected = (
        {("reserve0", "foundation0"), ("reserve0", "row0")}
        | {("reserve1", "row3")}
        | to_all_foundations("reserve3", FOUNDATIONS[2:]) | {("reserve3", "row2")}
        | {("row0", "row1"), ("row1", "row6"), ("row2", "foundation1"), ("row2", "row7"), ("row6", "row5")}
    )
    assert moves(game, state) == expected
    for move in expected:
        game.apply(state, move)
    assert_illegal(game, state, "row5", "reserve1")  # 8S on 9D
    assert_illegal(game, state, "row7", "reserve0")  # 3H on 4H
    assert_illegal(game, state, "reserve0", "foundation1")  # 4H on A


def test_reserve_top_moves_and_uncovers_the_next_card(game):
    # reserve0: 5S 9H 4D     4D -> 5C (row0) or foundation0 (top 3C); then 9H, then 5S
    layout = dict(QUIET_ROWS, row0="5C", foundation0="AC 2C 3C", reserve0="5S 9H 4D")
    state = draw(game, layout)
    reserve_moves = {m for m in moves(game, state) if m[0] == "reserve0"}
    assert reserve_moves == {("reserve0", "row0"), ("reserve0", "foundation0")}
    after = game.apply(state, ("reserve0", "foundation0"))
    assert game.piles(after)["reserve0"] == ["5S", "9H"]
    assert game.piles(after)["foundation0"] == ["AC", "2C", "3C", "4D"]
    # 9H fits nowhere (no T top); the 5S under it would fit foundation0 but is covered
    assert not any(source == "reserve0" for source, _ in moves(game, after))
    assert_illegal(game, after, "reserve0", "foundation0")


@pytest.mark.parametrize("source", ["row0", "reserve1", "foundation0"])
@pytest.mark.parametrize("reserve", ["reserve0", "reserve2"])
def test_nothing_is_ever_placed_on_a_reserve(game, source, reserve):
    # reserve0: 9C 6H  (a 5 would build down on it, a 7 up)   reserve2: (empty)
    # reserve1: 5D     row0: TS 5S    foundation0: AC 2C 3C 4C 5H (its top is a 5 too)
    layout = dict(QUIET_ROWS, row0="TS 5S", reserve0="9C 6H", reserve1="5D", reserve2="",
                  reserve3="", foundation0="AC 2C 3C 4C 5H")
    state = draw(game, layout)
    assert not any(dest.startswith("reserve") for _, dest in moves(game, state))
    if source != reserve:
        assert_illegal(game, state, source, reserve)


def test_emptied_reserve_stays_empty(game):
    layout = dict(QUIET_ROWS, row0="", reserve0="KD", reserve1="QS")
    state = draw(game, layout)
    state = game.apply(state, ("reserve0", "row0"))
    assert game.piles(state)["reserve0"] == []
    assert not any(dest == "reserve0" or source == "reserve0" for source, dest in moves(game, state))
    assert_illegal(game, state, "reserve1", "reserve0")
    assert_illegal(game, state, "row1", "reserve0")


# ---- foundations --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("card", "legal"),
    [
        ("5C", True), ("5S", True), ("5H", True), ("5D", True),  # rank + 1, any suit
        ("6D", False), ("4D", False), ("3S", False), ("AH", False), ("KC", False),
    ],
)
def test_foundation_builds_up_by_rank_any_suit(game, card, legal):
    # foundation0: AC 2H 3S 4D (mixed suits)   foundations 1-7: empty
    # row0: 9D <card>     rows 1-7: fillers
    layout = dict(QUIET_ROWS, foundation0="AC 2H 3S 4D", row0=f"9D {card}")
    state = draw(game, layout)
    assert (("row0", "foundation0") in moves(game, state)) == legal
    if legal:
        after = game.apply(state, ("row0", "foundation0"))
        assert game.piles(after)["foundation0"] == ["AC", "2H", "3S", "4D", card]
        assert game.cards_home(after) == game.cards_home(state) + 1 == 5
    else:
        assert_illegal(game, state, "row0", "foundation0")


@pytest.mark.parametrize("ace", ["AC", "AS", "AH", "AD"])
def test_any_ace_starts_any_empty_foundation(game, ace):
    # foundations 0, 3, 6 hold cards; 1, 2, 4, 5, 7 are empty    row0: 9D <ace>
    layout = dict(QUIET_ROWS, row0=f"9D {ace}", foundation0="AS 2S", foundation3="AH",
                  foundation6="AD 2C 3D")
    state = draw(game, layout)
    empty = ["foundation1", "foundation2", "foundation4", "foundation5", "foundation7"]
    row0_moves = {m for m in moves(game, state) if m[0] == "row0"}
    assert row0_moves == to_all_foundations("row0", empty)
    for f in empty:
        assert game.piles(game.apply(state, ("row0", f)))[f] == [ace]
    for f in ("foundation0", "foundation3", "foundation6"):
        assert_illegal(game, state, "row0", f)


@pytest.mark.parametrize("card", ["2H", "KS", "7C"])
def test_only_an_ace_starts_a_foundation(game, card):
    layout = dict(QUIET_ROWS, row7=f"TC {card}")
    state = draw(game, layout)
    for f in FOUNDATIONS:
        assert_illegal(game, state, "row7", f)


def test_full_foundation_takes_nothing_no_wrap(game):
    # foundation0: A..K (13 cards, mixed suits)   foundations 1-7 empty
    # row0: 9D AS    AS -> foundations 1-7 only (not onto the K of foundation0)
    layout = dict(QUIET_ROWS, row0="9D AS", foundation0="AC 2S 3H 4D 5C 6S 7H 8D 9C TS JH QD KC")
    state = draw(game, layout)
    assert {m for m in moves(game, state) if m[0] == "row0"} == to_all_foundations("row0", FOUNDATIONS[1:])
    assert_illegal(game, state, "row0", "foundation0")
    after = game.apply(state, ("row0", "foundation1"))
    assert len(game.piles(after)["foundation0"]) == 13


def test_cards_never_leave_a_foundation(game):
    # foundation0: AC 2C 3C  (3C would build on 4H of row0)   foundation1: AS (AS would fit 2D)
    # foundation2: AH..QH   (QH would fit the KS of row2)    row3 empty: any card would fill it
    # reserve0 empty.
    layout = {"foundation0": "AC 2C 3C", "foundation1": "AS", "foundation2": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
              "row0": "4H", "row1": "2D", "row2": "KS", "row3": "", "row4": "TC", "row5": "TD",
              "row6": "8C", "row7": "6C", "reserve0": "", "reserve1": "9S"}
    state = draw(game, layout)
    assert not any(source.startswith("foundation") for source, _ in moves(game, state))
    for f in FOUNDATIONS:
        for destination in game.pile_names:
            if destination != f:
                assert_illegal(game, state, f, destination)


# ---- two decks ----------------------------------------------------------------------
def test_both_copies_of_a_card_behave_the_same(game):
    # reserve0: 5H (one copy)      row0: KC 5H (the other copy)
    # row1: 9S 6C                  foundation0: AS 2S 3S 4D  (takes a 5)
    # rows 2-7: 2C 2S QD 8C TC 8S (no 6 or 4 among them, no ace to go on the 2s, no builds)
    layout = {"reserve0": "5H", "row0": "KC 5H", "row1": "9S 6C", "row2": "2C", "row3": "2S",
              "row4": "QD", "row5": "8C", "row6": "TC", "row7": "8S", "foundation0": "AS 2S 3S 4D"}
    state = draw(game, layout)
    ids = {game.pile_cards(state, "reserve0")[-1], game.pile_cards(state, "row0")[-1]}
    five_h = 13 * SUITS.index("H") + RANKS.index("5")
    assert ids == {five_h, five_h + 52}
    expected = {("reserve0", "row1"), ("reserve0", "foundation0"),
                ("row0", "row1"), ("row0", "foundation0")}
    assert moves(game, state) == expected
    for first, second in (("reserve0", "row0"), ("row0", "reserve0")):
        # either copy to the foundation: the other one no longer fits there (a 5 on a 5)
        after = game.apply(state, (first, "foundation0"))
        assert game.piles(after)["foundation0"] == ["AS", "2S", "3S", "4D", "5H"]
        assert_illegal(game, after, second, "foundation0")
        assert (second, "row1") in moves(game, after)
        # either copy onto 6C: the other one no longer fits there
        after = game.apply(state, (first, "row1"))
        assert game.piles(after)["row1"] == ["9S", "6C", "5H"]
        assert_illegal(game, after, second, "row1")
        assert (second, "foundation0") in moves(game, after)


def test_two_foundations_with_the_same_top_both_take_a_card(game):
    # foundation0: AC 2C 3C    foundation5: AD 2S 3H    row0: 9D 4S    row1: 9H 4S
    layout = dict(QUIET_ROWS, foundation0="AC 2C 3C", foundation5="AD 2S 3H",
                  row0="9D 4S", row1="9H 4S")
    state = draw(game, layout)
    for row in ("row0", "row1"):
        assert {m for m in moves(game, state) if m[0] == row} == {(row, "foundation0"), (row, "foundation5")}
    state = game.apply(state, ("row0", "foundation0"))
    state = game.apply(state, ("row1", "foundation5"))
    assert game.piles(state)["foundation0"][-1] == "4S"
    assert game.piles(state)["foundation5"][-1] == "4S"


# ---- winning ------------------------------------------------------------------------
def test_win_when_all_104_cards_are_home(game):
    layout = dict(full_house_except("KD"), row0="KD")
    state = draw(game, layout)
    assert not game.is_won(state)
    assert game.cards_home(state) == 103
    # KD: to foundation3 (the only Q top) or to any of the 7 empty rows
    assert moves(game, state) == {("row0", "foundation3")} | {("row0", row) for row in ROWS[1:]}
    won = game.apply(state, ("row0", "foundation3"))
    assert game.is_won(won)
    assert game.cards_home(won) == 104
    assert moves(game, won) == set()


def test_not_won_with_a_card_in_a_reserve(game):
    # every card home except QH and KH of foundation2 (deck 0's hearts) and KH of foundation6
    layout = dict(full_house_except("KH", "QH", "KH"), reserve3="KH", reserve0="QH", row5="KH")
    state = draw(game, layout)
    assert game.cards_home(state) == 101
    assert not game.is_won(state)
    assert ("reserve3", "foundation2") not in moves(game, state)  # K waits for the Q
    state = game.apply(state, ("reserve0", "foundation2"))
    state = game.apply(state, ("reserve3", "foundation2"))
    assert not game.is_won(state)
    state = game.apply(state, ("row5", "foundation6"))
    assert game.is_won(state)
    assert game.cards_home(state) == 104


def test_no_moves_at_all(game):
    # foundation0: AC 2C 3C 4C (takes a 5)   foundation1: AS 2S 3S 4H 5S 6S (takes a 7)
    # foundations 2-7: empty (take an ace; no ace is a top)
    # row and reserve tops are all of even rank (2,2,4,4,6,6,8,8 | T,T,Q,Q): none builds on
    # another, none fits a foundation, no row is empty. The covered cards (5C, 7S, AH, 3C, 5D,
    # AD, JH, KC) would move if they were on top.
    layout = {
        "foundation0": "AC 2C 3C 4C", "foundation1": "AS 2S 3S 4H 5S 6S",
        "row0": "5C 2H", "row1": "7S 2D", "row2": "AH 4H", "row3": "3C 4D",
        "row4": "KH 6H", "row5": "9C 6D", "row6": "8C", "row7": "JC 8S",
        "reserve0": "5D TC", "reserve1": "AD TS", "reserve2": "JH QH", "reserve3": "KC QD",
    }
    state = draw(game, layout)
    assert moves(game, state) == set()
    assert not game.is_won(state)
    assert_illegal(game, state, "row0", "foundation0")  # the 5C under 2H
    assert_illegal(game, state, "row1", "foundation1")  # the 7S under 2D
    assert_illegal(game, state, "reserve1", "foundation2")  # the AD under TS
    assert_illegal(game, state, "reserve2", "reserve3")  # QH on ... a reserve, never


# ---- the API contract -----------------------------------------------------------------
def test_apply_moves_one_card_and_does_not_mutate(game):
    state = game.initial_state(1)
    before = game.piles(state)
    for source, destination in game.legal_moves(state):
        after = game.piles(game.apply(state, (source, destination)))
        assert game.piles(state) == before
        assert after[source] == before[source][:-1]
        assert after[destination] == before[destination] + [before[source][-1]]
        for name in game.pile_names:
            if name not in (source, destination):
                assert after[name] == before[name]


def test_illegal_moves_raise_on_deal_1(game):
    state = game.initial_state(1)
    legal = moves(game, state)
    for source in game.pile_names:
        for destination in game.pile_names:
            if (source, destination) not in legal:
                with pytest.raises(IllegalMoveError):
                    game.apply(state, (source, destination))


# ======================================================================================
# 3. Observation: only the reserve tops are seen
# ======================================================================================
def test_has_hidden_cards_flags():
    assert make_game(GAME).has_hidden_cards is True
    assert make_game("beleaguered_castle").has_hidden_cards is False


def test_observation_of_deal_1(game):
    state = game.initial_state(1)
    seen = game.visible_piles(game.observe(state))
    expected = {name: DEAL_1.get(name, "").split() for name in ROWS + RESERVES + FOUNDATIONS}
    for reserve in RESERVES:
        expected[reserve] = ["??"] * 12 + [expected[reserve][-1]]
    assert seen == expected


def test_observation_of_a_drawn_position(game):
    # reserve0: 3 cards, reserve1: 1 card, reserve2: 2 cards, reserve3: empty
    layout = {"row0": "KC QD JS", "row1": "", "row2": "5H", "row3": "9C 8D", "row4": "2S",
              "row5": "3C", "row6": "7D 6S", "row7": "TH",
              "foundation0": "AC 2C", "foundation4": "AD 2H 3S", "foundation7": "AH",
              "reserve0": "4C 8H 9S", "reserve1": "QH", "reserve2": "KS 7C", "reserve3": ""}
    state = draw(game, layout)
    seen = game.visible_piles(game.observe(state))
    expected = game.piles(state)
    expected.update(reserve0=["??", "??", "9S"], reserve1=["QH"], reserve2=["??", "7C"], reserve3=[])
    assert seen == expected
    # moving a reserve top shows the card under it
    after = game.apply(state, ("reserve0", "row1"))
    assert game.visible_piles(game.observe(after))["reserve0"] == ["??", "8H"]
    assert game.visible_piles(game.observe(after))["row1"] == ["9S"]


def test_observation_hides_which_cards_lie_under_the_reserve_tops(game):
    # same tops (9S, JC) and sizes (3, 2); different cards under them
    one = draw(game, dict(QUIET_ROWS, foundation0="AC", reserve0="KD 3H 9S", reserve1="5D JC"))
    two = draw(game, dict(QUIET_ROWS, foundation0="AC", reserve0="5D JC 9S", reserve1="KS JC"))
    assert game.piles(one) != game.piles(two)
    assert game.visible_piles(game.observe(one)) == game.visible_piles(game.observe(two))
    assert game.visible_piles(game.observe(one))["reserve0"] == ["??", "??", "9S"]


def test_beleaguered_castle_observation_shows_everything():
    bc = make_game("beleaguered_castle")
    state = bc.initial_state(1)
    assert bc.visible_piles(bc.observe(state)) == bc.piles(state)
