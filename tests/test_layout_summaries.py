"""The rules header's summaries (``BUILD``, ``WRAP``, ``EMPTY_FILL``, ``FOUNDATION_MODE``,
``FOUNDATION_WRAP``) say what the pile specs say, for every game and rule set; a layout whose
specs they would misdescribe is refused with an error naming the game, the field and what was
expected; the conditions of the rules vocabulary are refused where the kernels do not read them.

The agreement is checked here from the packed pile table itself, one pile at a time.
"""

from __future__ import annotations

import pytest

from benchmarks.compare_commits import cases
from simlab import make_game
from simlab.engine import layout as L
from simlab.engine.game import Game
from simlab.engine.layout import Layout, PileSpec
from simlab.engine.packing import pack_rules
from simlab.games import GAMES

RULE_SETS = {f"{name}:{case['game']}": (case["game"], case["params"]) for name, case in cases().items()}
RULE_SETS.update({f"{name}:default": (name, {}) for name in GAMES.names()})


def pile_field(rules, pile: int, field: int) -> int:
    return int(rules[L.PILE_TABLE + pile * L.PILE_FIELDS + field])


@pytest.mark.parametrize(("game_name", "params"), list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_summaries_agree_with_the_specs(game_name, params):
    rules = make_game(game_name, **params).rules
    piles = range(int(rules[L.N_PILES]))
    rows = [p for p in piles if pile_field(rules, p, L.P_KIND) == L.KIND_ROW]
    foundations = [p for p in piles if pile_field(rules, p, L.P_KIND) == L.KIND_FOUNDATION]
    assert rows and foundations
    for row in rows:
        assert pile_field(rules, row, L.P_BUILD) == rules[L.BUILD]
        assert pile_field(rules, row, L.P_WRAP) == rules[L.WRAP]
        fill = pile_field(rules, row, L.P_FILL)
        player_fill = L.FILL_NONE if fill in (L.FILL_REFILL, L.FILL_ON_TURN) else fill
        assert player_fill == rules[L.EMPTY_FILL]
    suits = [pile_field(rules, f, L.P_SUIT) for f in foundations]
    bases = {pile_field(rules, f, L.P_BASE) for f in foundations}
    mode = rules[L.FOUNDATION_MODE]
    if mode == L.FOUNDATION_ANY_SUIT:
        assert set(suits) == {-1} and L.BASE_CHOSEN not in bases
    else:
        assert suits == [i % 4 for i in range(len(foundations))]
        assert bases == ({L.BASE_CHOSEN} if mode == L.FOUNDATION_CHOSEN_BASE else {0})
        assert {pile_field(rules, f, L.P_BUILD) for f in foundations} == {L.DIR_UP}
        assert len({pile_field(rules, f, L.P_WRAP) for f in foundations}) == 1
    assert rules[L.FOUNDATION_WRAP] == int(all(pile_field(rules, f, L.P_WRAP) for f in foundations))
    if not rules[L.SUITS_MATTER]:
        assert all(pile_field(rules, p, L.P_BUILD) & L.SUIT_BITS == 0 for p in piles)
        assert set(suits) == {-1}


class Misdescribed(Game):
    """A game whose layout the test sets."""

    name = "misdescribed"
    title = "Misdescribed"

    def __init__(self, table: Layout) -> None:
        super().__init__()
        self.__dict__["table"] = table


CASTLE = Layout(rows=8, max_dealt=6)
SUIT_ROW = PileSpec(L.KIND_ROW, build=L.BUILD_DOWN_SAME_SUIT, accepts_from=(L.KIND_ROW,), slots=19)
NO_WRAP_ROW = PileSpec(L.KIND_ROW, build=L.BUILD_DOWN_ANY_SUIT, wrap=True, accepts_from=(L.KIND_ROW,), slots=19)
ANY_SUIT_FOUNDATION = PileSpec(L.KIND_FOUNDATION, build=L.DIR_UP, gives=False, accepts_from=(L.KIND_ROW,))
HEARTS = PileSpec(L.KIND_FOUNDATION, build=L.DIR_UP, gives=False, accepts_from=(L.KIND_ROW,), suit=2)
KING_BASE = PileSpec(L.KIND_FOUNDATION, build=L.DIR_UP, gives=False, accepts_from=(L.KIND_ROW,), suit=1, base=12)
GUARDED_ROW = PileSpec(L.KIND_ROW, accepts_from=(L.KIND_ROW,), guarded_kinds=(L.KIND_ROW,), guard=L.NO_ROW_FITS)
CAPPED = PileSpec(L.KIND_FOUNDATION, build=L.DIR_UP, gives=False, suit=0, cap=3, cap_while=L.NO_ROW_FITS)

MISDESCRIBED = [
    ("rows differ", CASTLE.with_overrides(row3=SUIT_ROW), ["BUILD", "one rule for every row", "[1, 5]"]),
    ("rows wrap apart", CASTLE.with_overrides(row0=NO_WRAP_ROW), ["WRAP", "one rule for every row"]),
    ("every row differs from the field", Layout(rows=2, max_dealt=6).with_overrides(row0=SUIT_ROW, row1=SUIT_ROW),
     ["BUILD", "Layout.build is 1", "say 5"]),
    ("suits match no mode", CASTLE.with_overrides(foundation1=HEARTS), ["FOUNDATION_MODE", "suits [0, 1, 2, 3]",
                                                                       "the specs give suits [0, 2, 2, 3]"]),
    ("a base that is no mode's", CASTLE.with_overrides(foundation1=KING_BASE),
     ["FOUNDATION_MODE", "bases [0, 12, 0, 0]"]),
    ("any suit declared by suit", CASTLE.with_overrides(**{f"foundation{i}": ANY_SUIT_FOUNDATION for i in range(4)}),
     ["FOUNDATION_MODE", "Layout.foundation_mode is FOUNDATION_BY_SUIT", "say FOUNDATION_ANY_SUIT"]),
    ("a chosen base declared by suit", Layout(rows=8, max_dealt=6, foundation_mode=L.FOUNDATION_CHOSEN_BASE,
                                              foundation_wrap=True).with_overrides(
        **{f"foundation{i}": PileSpec(L.KIND_FOUNDATION, build=L.DIR_UP, gives=False, suit=i, wrap=True)
           for i in range(4)}), ["FOUNDATION_MODE", "is FOUNDATION_CHOSEN_BASE", "say FOUNDATION_BY_SUIT"]),
    ("suits read while hashing ranks only", Layout(rows=8, max_dealt=6, suits_matter=False),
     ["SUITS_MATTER", "foundation0"]),
    ("a guard on a row", CASTLE.with_overrides(row0=GUARDED_ROW), ["row0", "foundations only"]),
    ("a cap waiting for the rows", CASTLE.with_overrides(foundation0=CAPPED), ["foundation0", "cap"]),
    ("stock_deeper without a stock", CASTLE.with_overrides(foundation0=PileSpec(
        L.KIND_FOUNDATION, build=L.DIR_UP, gives=False, suit=0, cap=3, cap_while=L.stock_deeper(10))),
     ["foundation0", "needs a stock"]),
]


@pytest.mark.parametrize(("table", "words"), [(t, w) for _, t, w in MISDESCRIBED], ids=[m[0] for m in MISDESCRIBED])
def test_a_misdescribing_layout_is_refused(table, words):
    with pytest.raises(ValueError) as caught:
        pack_rules(table)
    for word in words:
        assert word in str(caught.value), str(caught.value)
    with pytest.raises(ValueError, match="the layout of Misdescribed.* is refused"):
        Misdescribed(table).rules


def test_two_piles_reading_their_last_card_are_refused():
    watching = PileSpec(L.KIND_FOUNDATION, build=L.DIR_UP, gives=False, accepts_from=(L.KIND_ROW, L.KIND_FOUNDATION),
                        guarded_kinds=(L.KIND_FOUNDATION,), guard=L.last_not_from(L.KIND_FOUNDATION))
    table = Layout(rows=8, max_dealt=6, foundation_mode=L.FOUNDATION_ANY_SUIT).with_overrides(
        **{f"foundation{i}": watching for i in range(4)})
    with pytest.raises(ValueError, match="foundation0.*foundation1.*one pile"):
        pack_rules(table)
    one = table.with_overrides(**{f"foundation{i}": ANY_SUIT_FOUNDATION for i in range(1, 4)})
    rules = pack_rules(one)
    assert rules[L.LAST_SOURCE_PILE] == 8 and rules[L.LAST_SOURCE_KINDS] == 1 << L.KIND_FOUNDATION
    assert rules[L.COUNTER_SLOTS] == L.N_COUNTERS
