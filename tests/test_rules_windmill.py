"""Windmill (PySolFC id 30; issue 15; shared/rules.md sections 0 and 10, notes/windmill-spec.md),
written from the rules and PySolFC's source only (not from simlab's implementation).

How the deals were checked
--------------------------
``tests/pysolfc_windmill.py`` re-implements, from shlomif/PySolFC (``pysollib/games/windmill.py``
``Windmill._shuffleHook``/``startGame``/``fillStack``; ``pysollib/game/__init__.py``
``createCards``/``shuffle``; ``pysollib/pysolrandom.py`` ``construct_random``; ``pysollib/stack.py``
``WasteTalonStack``, ``AbstractFoundationStack``, ``basicCanMoveCards``), the two-deck shuffle
(LCG below 32000, Mersenne Twister from 32000, no ``ms_rearrange`` for 104 cards), the hook (card
id 0 to the talon's top) and the deal (the AC to the centre, a round to the 8 sails, one card to
the waste). ``test_reference_shuffle_matches_pysol_cards`` runs that shuffle against pysol_cards'
own ``LCRandom31``/``MTRandom``/``createCards``/``ms_rearrange`` and against the two-deck deal of
pysol_cards' ``deal_game.Game`` (which shuffles exactly like PySolFC except at 32000). Deal 1 is
pinned literally in ``DEAL_1`` (printed from the re-implementation); its sails and waste are
shared/rules.md's vector for deal 1 (``3D 5H JC KH 5S 5H KC KC``, waste ``8D``), which came from
another re-implementation. Neither was checked against a running PySolFC.

The rules (windmill-spec.md), with the oracle ``pysolfc_windmill.legal_moves``/``play``
-----------------------------------------------------------------------------------------
Drawn positions pin EXACT legal-move sets literally (and check that the oracle agrees); random
walks compare every legal-move set and every position (card ids, decks included) with the oracle,
for every parameter combination. Drawn positions: piles bottom -> top; with two decks a card's
first appearance is deck 0's copy, its second deck 1's (``Game.state_from_piles``).
"""

from __future__ import annotations

import itertools

import pytest
from pysolfc_windmill import (
    PASS,
    TURN,
    Position,
    Rules,
    ace_to_top,
    deal,
    engine_piles,
    legal_moves,
    mirror,
    names,
    play,
    shuffled_talon,
    walk,
    welford_talon,
)

from simlab import make_game
from simlab.errors import IllegalMoveError, SimlabError
from simlab.testing import check_game

GAME = "windmill"
RANKS = "A23456789TJQK"
C, K1, K2, K3, K4 = "foundation0", "foundation1", "foundation2", "foundation3", "foundation4"
KINGS = (K1, K2, K3, K4)
SAILS8 = [f"row{i}" for i in range(8)]
SAILS4 = [f"row{i}" for i in range(4)]
TAIL = ["stock", "waste", C, *KINGS]
PARAM_NAMES = ("transfer", "centre_to_king", "redeals", "welford", "reversed")
DEFAULTS = {"transfer": "free", "centre_to_king": True, "redeals": 0, "welford": False, "reversed": False}

DEAL_NUMBERS = [1, 2, 3, 617, 11982, 31999, 32000, 32001, 123456, 2**32 + 1, 10**16 + 7, 10**19, 10**20 - 1]

# Deal 1 as PySolFC deals it (pysolfc_windmill.deal(1)), bottom -> top; the stock's top is its last card.
DEAL_1 = {
    "row0": "3D", "row1": "5H", "row2": "JC", "row3": "KH", "row4": "5S", "row5": "5H", "row6": "KC", "row7": "KC",
    "stock": "6S 5S 4C 2D 3H 5D KH 2C 3D 7H QD KD TS 6D 7S QD TS 5D KS 9D 5C 7S 3H 9H "
             "2C QS AH TC JD 3C 6S JH AD 6C 5C 4D JS 9D 9C TD 6D KS 4S AS 3C QH 2S 9S "
             "QH 3S 7C QC QS 7H 4H JC AH TH 8H 4S 7D 9C 3S 2S 8C TH 6H 2D 4D JH 8H 9S "
             "7D 8S 9H AD 2H 7C AC 8S TD 2H KD 4H QC JS 4C 8D TC 6H 6C 8C AS JD",
    "waste": "8D", C: "AC",
}
# The sails' and the waste's card ids (deck 1's copies are 52 higher).
DEAL_1_IDS = {"row0": [41], "row1": [30], "row2": [10], "row3": [38], "row4": [69], "row5": [82], "row6": [12],
              "row7": [64], "waste": [98], C: [0]}
# Welford's deal 1: pack one (deck 0) on top, 4 sails of 2 (inner first).
WELFORD_DEAL_1 = {
    "row0": "3D KC", "row1": "5H JD", "row2": "JC 6C", "row3": "KH 8D",
    "stock": "6S 4C 2D 5D KH 3D QD KD TS 7S KS 5C 3H 9H 2C JD JH 6C JS 9D TD 6D 4S 3C "
             "QH 2S QC QS 7H JC AH TH 7D 9C 3S 4D 8H 9S AD 7C AC 8S 2H 4H TC 6H 8C AS "
             "8D KC 5H 5S 5S 3H 2C 7H 6D QD TS 5D 9D 7S QS AH TC 3C 6S AD 5C 4D 9C KS "
             "AS 9S QH 3S 7C 4H 8H 4S 2S 8C TH 6H 2D JH 7D 8S 9H 2H TD KD QC JS",
    "waste": "4C", C: "AC",
}


@pytest.fixture(scope="module")
def game():
    return make_game(GAME)


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------
def rules_of(game) -> Rules:
    return Rules(**{k: game.params[k] for k in PARAM_NAMES})


def layout(sails: str, *, waste: str = "", stock: str = "", centre: str = "AC", kings=("", "", "", "")) -> dict:
    """``sails``: one word per sail, ``-`` for an empty one, ``5H/2C`` for a Welford sail (inner/outer)."""
    piles = {f"row{i}": ("" if word == "-" else word.replace("/", " ")) for i, word in enumerate(sails.split())}
    piles.update({"stock": stock, "waste": waste, C: centre})
    piles.update(dict(zip(KINGS, kings)))
    return piles


def texts(game, state) -> dict[str, str]:
    """The non-empty piles as text."""
    return {name: " ".join(cards) for name, cards in game.piles(state).items() if cards}


def filler(n: int, start: int = 0) -> str:
    """``n`` cards of ranks 3..9 (repeats allowed in a drawn position)."""
    return " ".join(f"{RANKS[2 + (i % 7)]}{'CSHD'[(i // 7) % 4]}" for i in range(start, start + n))


def mirror_text(piles: dict[str, str]) -> dict[str, str]:
    return {name: " ".join(RANKS[12 - RANKS.index(w[0])] + w[1] for w in text.split()) for name, text in piles.items()}


class Table:
    """A simlab position and the oracle's, moved together."""

    def __init__(self, game, piles: dict[str, str]) -> None:
        self.game = game
        self.rules = rules_of(game)
        self.state = game.state_from_piles(piles)
        expected = {name: piles.get(name, "").split() for name in game.pile_names}
        assert game.piles(self.state) == expected
        self.pos = Position(engine_piles(game, self.state))

    def moves(self) -> set[tuple[str, str]]:
        found = [tuple(m) for m in self.game.legal_moves(self.state)]
        assert len(found) == len(set(found)), f"duplicate legal moves: {found}"
        return set(found)

    def check(self, expected: set[tuple[str, str]]) -> None:
        """The engine's legal moves are exactly ``expected``, and so are the oracle's."""
        assert self.moves() == expected, (self.text(), "extra", self.moves() - expected,
                                          "missing", expected - self.moves())
        assert legal_moves(self.rules, self.pos) == expected, "the oracle disagrees with the test"

    def play(self, source: str, destination: str) -> Table:
        self.state = self.game.apply(self.state, (source, destination))
        self.pos = play(self.rules, self.pos, (source, destination))
        assert engine_piles(self.game, self.state) == self.pos.piles, (source, destination, self.text())
        return self

    def illegal(self, source: str, destination: str) -> None:
        before = self.game.piles(self.state)
        with pytest.raises(IllegalMoveError):
            self.game.apply(self.state, (source, destination))
        assert self.game.piles(self.state) == before

    def text(self) -> dict[str, str]:
        return texts(self.game, self.state)


def to(source: str, *destinations: str) -> set[tuple[str, str]]:
    return {(source, d) for d in destinations}


# ======================================================================================
# 1. The game, its parameters, the deal
# ======================================================================================
def test_pile_names_and_id():
    assert list(make_game(GAME).pile_names) == SAILS8 + TAIL
    assert list(make_game(GAME, welford=True).pile_names) == SAILS4 + TAIL
    assert list(make_game(GAME, reversed=True).pile_names) == SAILS8 + TAIL
    assert type(make_game(GAME)).pysol_id == 30


@pytest.mark.parametrize(
    ("given", "in_force"),
    [({}, DEFAULTS),
     (dict(welford=True), dict(DEFAULTS, welford=True, transfer="welford", centre_to_king=False, redeals=1)),
     (dict(welford=True, transfer="free", redeals=0), dict(DEFAULTS, welford=True, centre_to_king=False)),
     (dict(welford=True, centre_to_king=True, redeals=2),
      dict(DEFAULTS, welford=True, transfer="welford", centre_to_king=True, redeals=2)),
     (dict(transfer="welford"), dict(DEFAULTS, transfer="welford")),
     (dict(reversed=True, transfer="strict", centre_to_king=False, redeals=1),
      dict(DEFAULTS, reversed=True, transfer="strict", centre_to_king=False, redeals=1))],
    ids=str,
)
def test_params_hold_the_values_in_force(given, in_force):
    game = make_game(GAME, **given)
    assert {k: game.params[k] for k in PARAM_NAMES} == in_force


@pytest.mark.parametrize(
    ("params", "words"),
    [(dict(transfer="loose"), ["transfer", "loose"]), (dict(transfer=1), ["transfer"]),
     (dict(redeals=3), ["redeals", "3"]), (dict(redeals=-1), ["redeals", "-1"]), (dict(redeals="x"), ["redeals"]),
     (dict(centre_to_king="sometimes"), ["centre_to_king", "sometimes"]),
     (dict(welford="perhaps"), ["welford", "perhaps"]), (dict(reversed="maybe"), ["reversed", "maybe"]),
     (dict(sails=4), ["sails"])],
    ids=str,
)
def test_bad_parameters_raise_a_clear_error(params, words):
    with pytest.raises(SimlabError) as caught:
        make_game(GAME, **params)
    for word in words:
        assert word in str(caught.value), str(caught.value)


def test_deal_1_is_pinned(game):
    state = game.initial_state(1)
    expected = {name: DEAL_1.get(name, "").split() for name in SAILS8 + TAIL}
    assert game.piles(state) == expected
    assert names(deal(1)) == expected
    assert [game.piles(state)[s][0] for s in SAILS8] == "3D 5H JC KH 5S 5H KC KC".split()  # rules.md's vector
    assert game.piles(state)["waste"] == ["8D"]
    assert {name: game.pile_cards(state, name) for name in DEAL_1_IDS} == DEAL_1_IDS
    assert engine_piles(game, state) == deal(1)
    assert game.cards_home(state) == 1 and not game.is_won(state)
    # 3 kings on sails, each to any of 4 empty king piles; no 2 for the centre
    start = to("row3", *KINGS) | to("row6", *KINGS) | to("row7", *KINGS) | {TURN}
    assert {tuple(m) for m in game.legal_moves(state)} == start
    Table(game, DEAL_1).check(start)


def test_welford_deal_1_is_pinned():
    game = make_game(GAME, welford=True)
    state = game.initial_state(1)
    expected = {name: WELFORD_DEAL_1.get(name, "").split() for name in SAILS4 + TAIL}
    assert game.piles(state) == expected
    assert engine_piles(game, state) == deal(1, welford=True)


@pytest.mark.parametrize("g", DEAL_NUMBERS)
def test_reference_shuffle_matches_pysol_cards(g):
    pysol_random = pytest.importorskip("pysol_cards.random")
    from pysol_cards.cards import createCards, ms_rearrange
    from pysol_cards.deal_game import Game as PysolCardsGame
    from pysol_cards.random_base import RandomBase

    rng = pysol_random.LCRandom31(g) if g < 32000 else pysol_random.MTRandom(g)
    cards = createCards(2)
    if isinstance(rng, pysol_random.LCRandom31):
        cards = ms_rearrange(cards)  # a no-op for 104 cards
    rng.reset()
    rng.shuffle(cards)
    assert [c.id for c in cards] == shuffled_talon(g)
    assert all(c.id == 52 * d + 13 * c.suit + c.rank - 1 for d in (0, 1) for c in createCards(2)[52 * d: 52 * d + 52])
    if g != 32000:  # pysol_cards' own deals use the LCG at 32000; PySolFC uses MT there
        two_decks = PysolCardsGame("gypsy", g, RandomBase.DEALS_PYSOLFC)
        two_decks.deal()
        assert [c.id for c in reversed(two_decks.cards)] == shuffled_talon(g)
    hooked = ace_to_top(shuffled_talon(g))
    assert hooked[-1] == 0 and sorted(hooked) == list(range(104))


@pytest.mark.parametrize("g", DEAL_NUMBERS)
@pytest.mark.parametrize("variant", [{}, dict(welford=True), dict(reversed=True), dict(welford=True, reversed=True)],
                         ids=str)
def test_deals_match_the_reference(variant, g):
    game = make_game(GAME, **variant)
    state = game.initial_state(g)
    expected = deal(g, welford=variant.get("welford", False), reversed_=variant.get("reversed", False))
    assert engine_piles(game, state) == expected
    sizes = {name: len(cards) for name, cards in expected.items()}
    if variant.get("welford"):
        assert sizes == {**dict.fromkeys(SAILS4, 2), "stock": 94, "waste": 1, C: 1, **dict.fromkeys(KINGS, 0)}
    else:
        assert sizes == {**dict.fromkeys(SAILS8, 1), "stock": 94, "waste": 1, C: 1, **dict.fromkeys(KINGS, 0)}
    assert game.piles(state)[C] == (["KC"] if variant.get("reversed") else ["AC"])
    assert game.pile_cards(state, C) == ([12] if variant.get("reversed") else [0])


@pytest.mark.parametrize("g", [1, 31999, 32000, 10**19])
def test_welford_keeps_the_packs_apart(g):
    game = make_game(GAME, welford=True)
    piles = engine_piles(game, game.initial_state(g))
    stock = piles["stock"]
    assert all(c < 52 for c in stock[52:]) and all(c >= 52 for c in stock[:52])  # pack one on top: 42 cards
    assert all(c < 52 for name in (*SAILS4, "waste", C) for c in piles[name])
    # each pack keeps the shuffle's order; pack one's AC goes to the top, 9 more are dealt from it
    talon = shuffled_talon(g)
    assert stock[:52] == [c for c in talon if c >= 52]
    assert stock[52:] == [c for c in talon if 0 < c < 52][:42]
    assert welford_talon(g) == [c for c in talon if c >= 52] + [c for c in talon if 0 < c < 52] + [0]


@pytest.mark.parametrize("g", [1, 617, 32000, 10**16 + 7])
@pytest.mark.parametrize("welford", [False, True])
def test_reversed_deal_is_the_mirror(g, welford):
    plain = engine_piles(make_game(GAME, welford=welford), make_game(GAME, welford=welford).initial_state(g))
    rev_game = make_game(GAME, welford=welford, reversed=True)
    rev = engine_piles(rev_game, rev_game.initial_state(g))
    assert rev == {name: [mirror(c) for c in cards] for name, cards in plain.items()}


@pytest.mark.parametrize("params", [{}, dict(welford=True), dict(transfer="strict", redeals=2)], ids=str)
def test_reversed_is_windmill_relabelled(params):
    """Reversed Windmill is a relabelling of the ranks for a person: the kernels get Windmill's layout,
    rules and deal arrays; only the cards' names (every rank r as 14 - r) differ, and drawn cards
    are read through the same relabelling."""
    plain, rev = make_game(GAME, **params), make_game(GAME, reversed=True, **params)
    assert rev.table == plain.table
    assert (rev.rules == plain.rules).all()
    for g in (1, 32000):
        a, b = plain.initial_state(g), rev.initial_state(g)
        assert (a.array == b.array).all()
        shown = {name: " ".join(cards) for name, cards in plain.piles(a).items()}
        assert {name: " ".join(cards) for name, cards in rev.piles(b).items()} == mirror_text(shown)
    assert [rev.card_label(card) for card in range(104)] == [mirror(card) for card in range(104)]
    sails = "5H/2C 6H/JS KD -" if params.get("welford") else "QH AS 2S 5D 9C JD 8H 7S"
    drawn = layout(sails, waste="4H", stock="6C", centre="KC")
    assert (rev.state_from_piles(drawn).array == plain.state_from_piles(mirror_text(drawn)).array).all()


# ======================================================================================
# 2. PySolFC's rules on drawn positions (transfer free, centre_to_king, no redeal)
# ======================================================================================
def test_sails_and_waste_play_and_refill_in_order(game):
    # centre AC; sails 2H KS 5D 7C 9C QH 3S 4S; waste 2C; stock 6D 8H (8H on top)
    t = Table(game, layout("2H KS 5D 7C 9C QH 3S 4S", waste="2C", stock="6D 8H"))
    t.check({("row0", C), ("waste", C), TURN} | to("row1", *KINGS))
    for source, destination in [("waste", "row0"), ("row0", "row2"), ("stock", "row0"), (C, "row0")]:
        t.illegal(source, destination)
    # 2H home: the sail takes the waste's 2C, the waste the stock's 8H
    t.play("row0", C)
    assert t.text() == {k: v for k, v in layout("2C KS 5D 7C 9C QH 3S 4S", waste="8H", stock="6D",
                                                centre="AC 2H").items() if v}
    t.check({("row6", C), TURN} | to("row1", *KINGS))
    # 3S home: row6 takes 8H, the waste the last stock card 6D
    t.play("row6", C)
    assert t.text() == {k: v for k, v in layout("2C KS 5D 7C 9C QH 8H 4S", waste="6D", centre="AC 2H 3S").items() if v}
    t.check({("row7", C)} | to("row1", *KINGS))  # no turn: the stock is empty; no pass: redeals 0
    # 4S home: row7 takes 6D; waste and stock are now empty
    t.play("row7", C)
    assert t.text() == {k: v for k, v in layout("2C KS 5D 7C 9C QH 8H 6D", centre="AC 2H 3S 4S").items() if v}
    t.check({("row2", C)} | to("row1", *KINGS))
    # 5D home: row2 stays empty (nothing left to fill it); nothing can be put on it
    t.play("row2", C)
    assert t.text()[C] == "AC 2H 3S 4S 5D" and "row2" not in t.text()
    t.check({("row7", C)} | to("row1", *KINGS))
    for source in ("row1", "row7", C):
        t.illegal(source, "row2")


def test_waste_below_its_top_and_the_turn(game):
    # waste 9D 3C (3C on top): playing 3C uncovers 9D and takes nothing from the stock
    t = Table(game, layout("7C 7C 9C QH QH 8S 8S JD", waste="9D 3C", stock="6D", centre="AC 2H"))
    t.check({("waste", C), TURN})
    t.play("waste", C)
    assert t.text()["waste"] == "9D" and t.text()["stock"] == "6D"
    t.check({TURN})
    t.play(*TURN)
    assert t.text()["waste"] == "9D 6D" and "stock" not in t.text()
    t.check(set())
    t.illegal(*TURN)
    t.illegal(*PASS)


def test_centre_wraps_and_gives_its_top_to_the_king_piles(game):
    # centre A..K (13 cards, top KC): an ace goes on it; its KC may go to any empty king pile
    t = Table(game, layout("AH 2S 7D 8D 9D TH JS QD", waste="5H", stock="4D",
                           centre="AC 2D 3H 4S 5C 6D 7H 8S 9C TD JH QS KC"))
    t.check({("row0", C), TURN} | to(C, *KINGS))
    t.play(C, K1)
    # now KC heads foundation1: QS (centre) and QD (row7) go on it; under "free" the lone KC may go back
    # to the centre (top QS) or to another empty king pile
    t.check({(C, K1), ("row7", K1), (K1, C), (K1, K2), (K1, K3), (K1, K4), TURN})
    t.play("row7", K1)
    assert t.text()[K1] == "KC QD" and t.text()["row7"] == "5H" and t.text()["waste"] == "4D"


def test_centre_stops_at_52_cards_and_its_top_may_still_leave(game):
    runs = " ".join(r + s for s in "CSHD" for r in RANKS)  # 52 cards, base AC, top KD
    t = Table(game, layout("AH 2S 7D 8D 9D TH JS QD", waste="6C", stock="5C", centre=runs,
                           kings=("KS", "", "", "")))
    t.check({(C, K2), (C, K3), (C, K4), ("row7", K1), (K1, K2), (K1, K3), (K1, K4), TURN})
    t.illegal("row0", C)  # the ace would make 53
    t.play(C, K2)
    assert len(t.game.piles(t.state)[C]) == 51
    t.check({(C, K1), (C, K2), ("row7", K1), ("row7", K2), (K1, C), (K2, C), (K1, K3), (K1, K4), (K2, K3),
             (K2, K4), TURN})


def test_the_centre_base_never_leaves_and_a_king_pile_holds_13(game):
    kings = ("KD QS JH TC 9D 8S 7H 6C 5D 4S 3H 2C", "", "", "")
    t = Table(game, layout("AH 5C 6H 7S 8C 9H TS JC", waste="QC", stock="4C", kings=kings))
    t.check({("row0", K1), (K1, C), TURN})  # no (centre, foundation1): the base AC stays
    t.illegal(C, K1)
    t.play("row0", K1)
    assert t.text()[K1].split()[-1] == "AH" and len(t.text()[K1].split()) == 13
    assert t.text()["row0"] == "QC" and t.text()["waste"] == "4C"
    t.check(set())  # the complete pile's AH: the centre (AC) takes a 2; nothing else moves


def test_won(game):
    centre = " ".join(r + s for s in "CSHD" for r in RANKS)[:-3]  # 51 cards, KD missing, top QD
    kings = tuple(" ".join(r + s for r in reversed(RANKS)) for s in "CSHD")
    t = Table(game, layout("KD - - - - - - -", centre=centre, kings=kings))
    t.check({("row0", C)})
    assert game.cards_home(t.state) == 103 and not game.is_won(t.state)
    t.play("row0", C)
    assert game.is_won(t.state) and game.cards_home(t.state) == 104
    t.check(set())


# ======================================================================================
# 3. Transfers from the king piles, and the centre's top to them
# ======================================================================================
# centre A..5 (top 5C); foundation1 K..6 (top 6C, 8 cards); foundation2 K..7 (top 7D); foundation3 a lone KS;
# foundation4 K..8 (top 8H). Sails and waste fit nowhere; stock 4C 7S (7S on top).
TRANSFER_LAYOUT = layout("9C JS TH 3C 4D 2H 2S 9H", waste="8D", stock="4C 7S", centre="AC 2D 3H 4S 5C",
                         kings=("KD QS JH TC 9D 8S 7H 6C", "KH QC JD TS 9H 8C 7D", "KS", "KC QH JC TD 9S 8H"))
TRANSFER_MOVES = {
    "free": {(K1, C), (K1, K2), (K2, K4)},  # 6C home or onto 7D; 7D onto 8H; KS has no empty pile to go to
    "strict": {(K1, C)},
    "none": set(),
    "welford": {(K1, C)},  # no sail shows a 6; foundation1 is neither a lone K nor complete
}


@pytest.mark.parametrize("centre_to_king", [True, False])
@pytest.mark.parametrize("transfer", list(TRANSFER_MOVES))
def test_transfers(transfer, centre_to_king):
    t = Table(make_game(GAME, transfer=transfer, centre_to_king=centre_to_king), TRANSFER_LAYOUT)
    t.check(TRANSFER_MOVES[transfer] | ({(C, K1)} if centre_to_king else set()) | {TURN})
    if transfer != "free":
        t.illegal(K1, K2)
    if not centre_to_king:
        t.illegal(C, K1)


def test_strict_never_two_borrowed_cards_in_a_row():
    t = Table(make_game(GAME, transfer="strict"), TRANSFER_LAYOUT)
    t.play(K1, C)  # borrowed 6C: centre top 6C, foundation1 top 7H
    t.check({(C, K1), (C, K2), TURN})  # 7H and 7D would fit, but not two borrowed in a row
    t.illegal(K2, C)
    t.play(*TURN)  # 7S onto the waste
    t.check({("waste", C), ("waste", K4), (C, K1), (C, K2), TURN})
    t.play("waste", C)  # a waste card onto the centre clears it: 8H may come now
    t.check({(K4, C), ("waste", C), (C, K4), TURN})
    t.play(K4, C)
    t.check({(C, K4), ("waste", K4), ("row0", C), ("row7", C), TURN})  # 9S would fit: borrowed again
    t.illegal(K4, C)


def test_strict_a_sail_card_clears_it():
    # centre A..5 (top 5C); foundation1 top 6C; foundation2 top 8C; row0 7S, row7 9H; waste JD; stock 4C
    piles = layout("7S JS TH 3C 4D 2H 2S 9H", waste="JD", stock="4C", centre="AC 2D 3H 4S 5C",
                   kings=("KD QS JH TC 9D 8S 7H 6C", "KH QC JD TS 9H 8C", "", ""))
    t = Table(make_game(GAME, transfer="strict"), piles)
    t.check({(K1, C), ("row0", K2), (C, K1), TURN})
    t.play(K1, C)  # borrowed 6C
    t.check({("row0", C), ("row0", K2), (C, K1), TURN})  # 7H (foundation1) would fit: not two in a row
    t.play("row0", C)  # a sail's 7S clears it; row0 takes JD, the waste 4C
    t.check({(K2, C), (C, K2)})
    t.play(K2, C)  # borrowed 8C
    t.check({(C, K2), ("row7", C)})
    # The borrowed 8C goes back onto foundation2: the last card that went ONTO the centre is still the
    # borrowed one (the spec: only a sail or waste card onto the centre clears it), so 8C may not return.
    t.play(C, K2)
    t.check({(C, K2)})
    t.illegal(K2, C)


@pytest.mark.parametrize(("transfer", "expected"), [("free", {(K2, C), (K1, K3), (K3, K2), (K4, K1)}),
                                                    ("strict", {(K2, C)}), ("none", set()), ("welford", set())])
def test_a_lone_king_and_king_pile_to_king_pile(transfer, expected):
    # centre A..Q (top QS); foundation2 a lone KH; foundation1 top JS, foundation3 top QH, foundation4 top TS
    piles = layout("2C 3C 4C 5D 6S 7C 8C 8H", waste="3D", stock="4H",
                   centre="AC 2D 3H 4S 5C 6D 7H 8S 9C TD JH QS", kings=("KD QC JS", "KH", "KS QH", "KC QD JC TS"))
    t = Table(make_game(GAME, transfer=transfer), piles)
    t.check(expected | {(C, K2), TURN})  # the centre's QS onto the lone KH


@pytest.mark.parametrize(("transfer", "expected"), [("free", {(K1, C), (K3, K2)}), ("strict", {(K1, C)}),
                                                    ("none", set()), ("welford", set())])
def test_a_complete_king_pile(transfer, expected):
    # centre A..K (top KC): takes an ace; foundation1 complete (its AS on top)
    piles = layout("2C 3C 4C 5D 6S 7C 9D QC", waste="3D", stock="4H",
                   centre="AC 2D 3H 4S 5C 6D 7H 8S 9C TD JH QS KC",
                   kings=("KD QC JS TH 9S 8D 7C 6H 5S 4D 3C 2H AS", "KH QD", "KS QH JC", "KC QS JD TS 9H"))
    t = Table(make_game(GAME, transfer=transfer), piles)
    t.check(expected | {TURN})


@pytest.mark.parametrize("welford", [False, True])
def test_welford_transfer_only_while_no_sail_fits(welford):
    kings = ("KD QS JH TC 9D 8S 7H 6C", "", "", "")  # foundation1 top 6C
    if welford:  # 4 sails of two; an inner 6 (row1) does not count
        sails, sails_6 = "9C/JS 6H/TH 3C/4D 2H/2S", "9C/JS 6H/TH 3C/4D 2H/6D"
    else:
        sails, sails_6 = "9C JS TH 3C 4D 2H 2S 9H", "9C JS TH 6D 4D 2H 2S 9H"
    game = make_game(GAME, transfer="welford", welford=welford)
    # the waste's 6D fits, but only sails count
    t = Table(game, layout(sails, waste="6D", stock="4C", centre="AC 2D 3H 4S 5C", kings=kings))
    c2k = {(C, K1)} if game.params["centre_to_king"] else set()
    t.check({("waste", C), (K1, C), TURN} | c2k)
    # a sail's 6 must go first
    t = Table(game, layout(sails_6, waste="8D", stock="4C", centre="AC 2D 3H 4S 5C", kings=kings))
    t.check({("row3", C), TURN} | c2k)
    t.illegal(K1, C)
    t.play("row3", C)
    assert t.text()[C].endswith("6D")


# ======================================================================================
# 4. Passes (redeals)
# ======================================================================================
@pytest.mark.parametrize("redeals", [0, 1, 2])
def test_passes_turn_the_waste_over(redeals):
    game = make_game(GAME, redeals=redeals)
    # nothing fits anywhere; the stock is empty; the waste 3D 7D 9S came out in that order
    t = Table(game, layout("9C JS TH 3C 4D 2H 2S 9H", waste="3D 7D 9S", centre="AC 2D 3H 4S 5C"))
    for taken in range(redeals):
        t.check({PASS})
        t.play(*PASS)  # the waste's bottom becomes the stock's top, and the waste takes it at once
        assert t.text()["waste"] == "3D" and t.text()["stock"] == "9S 7D", taken
        t.check({TURN})
        t.illegal(*PASS)
        t.play(*TURN)
        t.play(*TURN)
        assert t.text()["waste"] == "3D 7D 9S" and "stock" not in t.text()
    t.check(set())
    t.illegal(*PASS)


def test_no_pass_while_the_stock_lasts():
    t = Table(make_game(GAME, redeals=2), layout("9C JS TH 3C 4D 2H 2S 9H", waste="3D", stock="4C",
                                                 centre="AC 2D 3H 4S 5C"))
    t.check({TURN})
    t.illegal(*PASS)


# ======================================================================================
# 5. Welford's layout
# ======================================================================================
def test_welford_sails_gaps_and_the_turn():
    game = make_game(GAME, welford=True)
    # row0 5H under 2C, row1 6H under JS, row2 a lone KD, row3 empty; waste 9C 4D
    stock = "7C 8C 9D TD 3S 4S QH 7D"  # 7D on top
    t = Table(game, layout("5H/2C 6H/JS KD -", waste="9C 4D", stock=stock))
    t.check({("row0", C), TURN} | to("row2", *KINGS))
    t.illegal("row0", "row3")
    t.play("row0", C)  # 5H is uncovered; nothing refills
    assert t.text() == {k: v for k, v in layout("5H 6H/JS KD -", waste="9C 4D", stock=stock,
                                                centre="AC 2C").items() if v}
    t.check(to("row2", *KINGS) | {TURN})
    t.play("row2", K1)  # row2 is empty and stays so
    assert "row2" not in t.text() and t.text()["waste"] == "9C 4D"
    t.check({TURN})
    # the turn fills the gaps first (row0 first, each sail bottom up), then turns one card
    t.play(*TURN)
    assert t.text() == {k: v for k, v in layout("5H/7D 6H/JS QH/4S 3S/TD", waste="9C 4D 9D", stock="7C 8C",
                                                centre="AC 2C", kings=("KD", "", "", "")).items() if v}
    t.check({TURN})  # QH is under 4S: only outer cards play
    t.play(*TURN)
    t.play(*TURN)
    assert t.text()["waste"] == "9C 4D 9D 8C 7C" and "stock" not in t.text()
    t.check({PASS})  # redeals: 1 under Welford
    t.play(*PASS)  # the waste turned over; the waste is not refilled
    assert t.text()["stock"] == "7C 8C 9D 4D 9C" and "waste" not in t.text()
    t.check({TURN})
    t.play(*TURN)
    assert t.text()["waste"] == "9C" and t.text()["stock"] == "7C 8C 9D 4D"


def test_welford_turn_with_too_few_cards_for_the_gaps():
    game = make_game(GAME, welford=True)
    t = Table(game, layout("- - 5C 6C/7C", waste="2S", stock="8H 9H 4D"))  # 4D on top
    t.check({("waste", C), TURN})
    t.play(*TURN)
    assert t.text() == {k: v for k, v in layout("4D/9H 8H 5C 6C/7C", waste="2S").items() if v}
    t.check({("waste", C), PASS})


WELFORD_QUEEN = dict(centre="AC 2D 3H 4S 5C 6D 7H 8S 9C TD JH QS", kings=("KD", "KS", "KC", "KH"))


@pytest.mark.parametrize(("stock", "king_plays"), [(53, False), (52, True), (0, True)])
def test_first_queen_limit(stock, king_plays):
    game = make_game(GAME, welford=True)
    t = Table(game, layout("KH 5D/2C - 3S", waste="4C", stock=filler(stock), **WELFORD_QUEEN))
    t.check(({("row0", C)} if king_plays else set()) | ({TURN} if stock else {PASS}))


def test_first_queen_limit_ends_with_a_pass():
    game = make_game(GAME, welford=True)
    t = Table(game, layout("KH 5D/2C - 3S", waste=filler(60), **WELFORD_QUEEN))
    t.check({("row0", C), PASS})
    t.play(*PASS)
    assert len(t.game.piles(t.state)["stock"]) == 60
    t.check({("row0", C), TURN})  # more than 52 in the stock, but a pass was taken
    # the same stock without a pass: limited
    t = Table(game, layout("KH 5D/2C - 3S", stock=" ".join(reversed(filler(60).split())), **WELFORD_QUEEN))
    t.check({TURN})


@pytest.mark.parametrize("transfer", ["none", "welford"])
def test_first_queen_limit_only_under_welford(transfer):
    game = make_game(GAME, transfer=transfer, centre_to_king=False)
    t = Table(game, layout("KH 5D 9C 3S 4S 6H 7H 8H", waste="4C", stock=filler(60), **WELFORD_QUEEN))
    t.check({("row0", C), TURN})


def test_first_queen_limit_holds_for_king_piles_too():
    # Welford layout with transfer free: foundation1's K would fit the centre but for the limit
    game = make_game(GAME, welford=True, transfer="free")
    piles = layout("3C 5D/2C - 3S", waste="4C", stock=filler(53),
                   centre="AC 2D 3H 4S 5C 6D 7H 8S 9C TD JH QS", kings=("KD", "KS QD JC", "KC QC JH", "KH QH JS"))
    t = Table(game, piles)
    t.check({TURN})
    t2 = Table(game, {**piles, "stock": filler(52)})
    t2.check({(K1, C), TURN})


def test_welford_explicit_parameters_compose():
    game = make_game(GAME, welford=True, transfer="free", centre_to_king=True, redeals=0)
    kings = tuple(TRANSFER_LAYOUT[k] for k in KINGS)
    t = Table(game, layout("9C/JS TH/3C 4D/2H 2S/9H", waste="8D", stock="4C 7S", centre="AC 2D 3H 4S 5C",
                           kings=kings))
    t.check({(K1, C), (K1, K2), (K2, K4), (C, K1), TURN})


# ======================================================================================
# 6. Reversed Windmill
# ======================================================================================
def test_reversed_rules_on_a_drawn_position():
    game = make_game(GAME, reversed=True)
    # centre KC (its base) QD ... wraps after A to K; side piles take any ace and build up to K
    t = Table(game, layout("QH AS 2S 5D 9C JD 8H 7S", waste="4H", stock="6C", centre="KC"))
    t.check({("row0", C), TURN} | to("row1", *KINGS))
    t.illegal(C, K1)  # the base KC never leaves
    t.play("row1", K1)  # AS heads foundation1: 2S goes on it
    assert t.text()["row1"] == "4H" and t.text()["waste"] == "6C" and "stock" not in t.text()
    t.check({("row0", C), ("row2", K1), (K1, K2), (K1, K3), (K1, K4)})
    t.play("row0", C)  # QH onto KC; row0 takes the waste's 6C
    t.check({("row5", C), ("row2", K1), (K1, K2), (K1, K3), (K1, K4)})  # JD onto QH


def test_reversed_centre_wraps_and_stops_at_52():
    game = make_game(GAME, reversed=True)
    down = " ".join(reversed(RANKS))  # K..A ranks
    run = " ".join(r + "C" for r in down.split())
    t = Table(game, layout("KH 2S 7D 8D 9D TH JS QD", waste="5H", stock="4D", centre=run))  # 13 cards, top AC
    t.check({("row0", C), TURN} | to(C, *KINGS))  # K after A; the centre's AC to any empty side pile
    full = " ".join(r + s for s in "CSHD" for r in down.split())
    t = Table(game, layout("KH 2S 7D 8D 9D TH JS QD", waste="5H", stock="4D", centre=full))
    t.check({TURN} | to(C, *KINGS))
    t.illegal("row0", C)


# Drawn positions of the tests above (and their games): the reversed game on the mirrored position
# has the same moves, and the same positions after them.
MIRRORED = [
    ({}, layout("2H KS 5D 7C 9C QH 3S 4S", waste="2C", stock="6D 8H")),
    ({}, layout("AH 2S 7D 8D 9D TH JS QD", waste="5H", stock="4D", centre="AC 2D 3H 4S 5C 6D 7H 8S 9C TD JH QS KC")),
    *[(dict(transfer=tr, centre_to_king=c2k), TRANSFER_LAYOUT) for tr in TRANSFER_MOVES for c2k in (True, False)],
    (dict(welford=True), layout("5H/2C 6H/JS KD -", waste="9C 4D", stock="7C 8C 9D TD 3S 4S QH 7D")),
    (dict(welford=True), layout("KH 5D/2C - 3S", waste="4C", stock=filler(53), **WELFORD_QUEEN)),
    (dict(welford=True), layout("KH 5D/2C - 3S", waste="4C", stock=filler(52), **WELFORD_QUEEN)),
    (dict(welford=True), layout("KH 5D/2C - 3S", waste=filler(60), **WELFORD_QUEEN)),
    (dict(redeals=1), layout("9C JS TH 3C 4D 2H 2S 9H", waste="3D 7D 9S", centre="AC 2D 3H 4S 5C")),
]


@pytest.mark.parametrize(("params", "piles"), MIRRORED)
def test_reversed_mirrors_drawn_positions(params, piles):
    plain = Table(make_game(GAME, **params), piles)
    rev = Table(make_game(GAME, reversed=True, **params), mirror_text(piles))
    for _ in range(12):
        moves = plain.moves()
        rev.check(moves)
        assert [tuple(m) for m in rev.game.legal_moves(rev.state)] == [tuple(m) for m in
                                                                      plain.game.legal_moves(plain.state)]
        if not moves:
            break
        move = sorted(moves)[0]
        plain.play(*move)
        rev.play(*move)
        assert rev.text() == mirror_text(plain.text())


# ======================================================================================
# 7. Observations
# ======================================================================================
@pytest.mark.parametrize("params", [{}, dict(welford=True), dict(reversed=True, redeals=2)], ids=str)
def test_observations_hide_exactly_the_stock(params):
    game = make_game(GAME, **params)
    assert game.has_hidden_cards
    state = game.initial_state(617)
    for step in range(60):
        view = game.observe(state)
        seen, full = game.piles(view), game.piles(state)
        assert seen["stock"] == ["??"] * len(full["stock"]), step
        assert {k: v for k, v in seen.items() if k != "stock"} == {k: v for k, v in full.items() if k != "stock"}
        assert sorted(game.legal_move_codes(view)) == sorted(game.legal_move_codes(state))
        moves = [tuple(m) for m in game.legal_moves(state)]
        if not moves:
            break
        plays = [m for m in moves if m not in (TURN, PASS)]
        state = game.apply(state, plays[0] if plays and step % 3 else (TURN if TURN in moves else moves[0]))
    assert len(game.piles(state)["waste"]) > 1  # cards under the waste's top were seen too


# ======================================================================================
# 8. Random walks against the oracle, for every parameter combination; conformance
# ======================================================================================
COMBINATIONS = [
    dict(transfer=tr, centre_to_king=c2k, redeals=r, welford=w, reversed=rev)
    for tr, c2k, r, w, rev in itertools.product(("free", "strict", "none", "welford"), (True, False), (0, 1, 2),
                                                (False, True), (False, True))
]
WALK_DEALS = [1, 32000, 617, 10**15 + 1, 2, 31999]


def combo_id(params: dict) -> str:
    return "-".join(f"{k[:3]}={v}" for k, v in params.items())


@pytest.mark.parametrize("params", COMBINATIONS, ids=combo_id)
def test_random_walks_follow_the_rules(params):
    game = make_game(GAME, **params)
    rules = Rules(**params)
    index = COMBINATIONS.index(params)
    counts = walk(game, rules, WALK_DEALS[index % len(WALK_DEALS)], steps=260, seed=index, turn_weight=0.55)
    if params["redeals"]:
        assert counts["passes"] >= 1, counts
    counts = walk(game, rules, WALK_DEALS[(index + 1) % len(WALK_DEALS)], steps=120, seed=index + 1000,
                  turn_weight=0.1)
    assert counts["moves"] > 0


def test_random_walks_exercise_transfers():
    """The walks above do reach transfers and centre -> king moves (not only turns and sail plays)."""
    total = {"transfers": 0, "centre_to_king": 0}
    for g in (3, 5):
        for transfer in ("free", "strict", "welford"):
            params = dict(DEFAULTS, transfer=transfer)
            counts = walk(make_game(GAME, **params), Rules(**params), g, steps=200, seed=g, turn_weight=0.1)
            for key in total:
                total[key] += counts[key]
    assert total["transfers"] > 0 and total["centre_to_king"] > 0, total


@pytest.mark.parametrize("params", COMBINATIONS, ids=combo_id)
def test_check_game(params):
    check_game(make_game(GAME, **params), deals=(COMBINATIONS.index(params) % 5 + 1,), walk=25, seed=1)
