"""The solver on Windmill (docs/rules.md section 10, notes/windmill-spec.md), written from the rules
and the solver's public API (``simlab.solve``) only, without reading ``simlab/solver``.

What is checked
---------------
The solver claims three reductions for Windmill, each meant to keep verdicts exact: positions hashed
by rank only (no rule reads a suit or a deck), the four king piles interchangeable (their order is
not hashed; of several empty king piles only the first is a destination), and no move between two
king piles (it only swaps their heights). It makes no automatic plays in Windmill.

- ``search`` below is a second, independent search: plain depth-first reachability in Python over
  EVERY legal move of the rules oracle ``tests/pysolfc_windmill.py`` (written from the rules by
  another tester; its moves and refills agree with the engine on random walks of every parameter
  combination, ``tests/test_rules_windmill.py``), no pruning, no automatic play, no symmetry:
  positions are keyed by the exact piles (card ids: rank, suit AND deck, pile by pile, king piles in
  their order) with the pass count and strict's "borrowed" flag. With every position reached
  remembered, its "lost" is exhaustive. ``engine_search`` is the same search through
  ``game.legal_moves``/``game.apply`` (the engine's own refills), keyed by the state's bytes; the two
  must agree wherever both are run.
- Many seeded random small positions (6-14 cards in play, the other cards of the two packs already
  home, consistently: the centre a run from its base ace, each king pile K down, the cards in play
  exactly those missing) for every combination of transfer free/strict/none/welford,
  centre_to_king on/off, redeals 0/1, reversed on/off and Welford's layout on/off: the solver's
  verdict equals the search's, and every won line replays through ``game.apply`` (and the oracle,
  pile by pile) to a won position. With free transfers they offer moves between king piles.
- Two empty king piles need 26 cards in play, too many for an exhaustive search: on such positions
  the search (stopped at a few thousand positions) finds wins, and the solver must find them too.
- Pinned positions, found by random search with ``search`` and pinned literally, where a tempting
  shortcut loses a won position: (a) playing a sail card to the centre whenever one fits (an
  automatic play), (b) never borrowing a king pile's card for the centre, (c) playing a card to a
  king pile rather than the centre, (d) the reverse, (e) playing every card that fits before
  turning the stock, (f) never taking the centre's top back to a king pile. (a), (b), (e) and (f)
  under the default rules; (c) and (d) cannot lose there (with free transfers and centre_to_king a
  card moves between the centre and a king pile at once, either way), so under stricter rules.
  Each: ``search`` and ``solve`` both say won; ``search`` shows that a player who follows the
  shortcut throughout loses and, where pinned, that the shortcut's move at the start already loses.
- Deals 1, 3, 5, 7 under the default rules: won, and the lines replay to a win.
"""

from __future__ import annotations

import itertools
import random

import pytest
from pysolfc_windmill import (
    CENTRE,
    FOUNDATIONS,
    KING_PILES,
    N_CARDS,
    PASS,
    TURN,
    Position,
    Rules,
    cards_home,
    deal,
    empty_piles,
    engine_piles,
    legal_moves,
    mirror,
    names,
    play,
)

from simlab import make_game, solve

GAME = "windmill"
DEFAULTS = {"transfer": "free", "centre_to_king": True, "redeals": 0, "welford": False, "reversed": False}
COMBINATIONS = [
    dict(transfer=tr, centre_to_king=c2k, redeals=r, welford=w, reversed=rev)
    for tr, c2k, r, w, rev in itertools.product(("free", "strict", "none", "welford"), (True, False), (0, 1),
                                                (False, True), (False, True))
]
BUDGET = 200_000


# --------------------------------------------------------------------------------------
# The independent search
# --------------------------------------------------------------------------------------
def key_of(pos: Position):
    """The exact position: every pile's card ids in pile order, the passes taken, strict's flag."""
    return tuple(tuple(cards) for cards in pos.piles.values()), pos.passes, pos.borrowed


def _order(move):
    """Cards from the sails and the waste first, foundation transfers next, turns and passes last: an
    ORDER only (nothing is pruned), so that wins are found early."""
    return move in (TURN, PASS), move[0] in FOUNDATIONS, move


def search(rules: Rules, pos: Position, keep=None, limit: int = 20_000):
    """(verdict, line): "won" with a winning line, "lost" (exhaustive) or "limit" when more than
    ``limit`` positions would be needed. Every legal move of the oracle, no pruning. ``keep(rules,
    pos, moves)``, if given, filters the moves (a player following a shortcut)."""
    if cards_home(pos) == N_CARDS:
        return "won", []

    def moves_of(current):
        moves = sorted(legal_moves(rules, current), key=_order)
        return iter(keep(rules, current, moves) if keep else moves)

    seen = {key_of(pos)}
    stack, line = [(pos, moves_of(pos))], []
    while stack:
        current, pending = stack[-1]
        for move in pending:
            after = play(rules, current, move)
            key = key_of(after)
            if key in seen:
                continue
            seen.add(key)
            if len(seen) > limit:
                return "limit", None
            line.append(move)
            if cards_home(after) == N_CARDS:
                return "won", line
            stack.append((after, moves_of(after)))
            break
        else:
            stack.pop()
            if line:
                line.pop()
    return "lost", None


def engine_search(game, state, limit: int = 20_000) -> str:
    """The same search through the engine's ``legal_moves``/``apply``, keyed by the state's bytes."""
    if game.is_won(state):
        return "won"
    seen = {state.array.tobytes()}
    stack = [state]
    while stack:
        current = stack.pop()
        for move in game.legal_moves(current):
            after = game.apply(current, move)
            key = after.array.tobytes()
            if key in seen:
                continue
            if game.is_won(after):
                return "won"
            seen.add(key)
            if len(seen) > limit:
                return "limit"
            stack.append(after)
    return "lost"


# Shortcuts a solver might take (as move filters for ``search``)
def sail_to_centre_at_once(rules, pos, moves):
    """(a) A sail card that fits the centre is played there at once (any such sail, nothing else)."""
    return [m for m in moves if m[0] in rules.sails and m[1] == CENTRE] or moves


def never_borrow(rules, pos, moves):
    """(b) A king pile's card never goes to the centre."""
    return [m for m in moves if not (m[0] in KING_PILES and m[1] == CENTRE)]


def king_pile_first(rules, pos, moves):
    """(c) A sail or waste card that fits a king pile never goes to the centre."""
    fits = {m[0] for m in moves if m[0] in (*rules.sails, "waste") and m[1] in KING_PILES}
    return [m for m in moves if not (m[0] in fits and m[1] == CENTRE)]


def centre_first(rules, pos, moves):
    """(d) A sail or waste card that fits the centre never goes to a king pile."""
    fits = {m[0] for m in moves if m[0] in (*rules.sails, "waste") and m[1] == CENTRE}
    return [m for m in moves if not (m[0] in fits and m[1] in KING_PILES)]


def never_from_centre(rules, pos, moves):
    """(f) The centre's top card never goes back to a king pile."""
    return [m for m in moves if m[0] != CENTRE]


def play_before_turning(rules, pos, moves):
    """(e) The stock is turned (or the waste passed) only when no sail or waste card fits anywhere."""
    if any(m[0] in (*rules.sails, "waste") and m[1] != "stock" for m in moves):
        return [m for m in moves if m not in (TURN, PASS)]
    return moves


# --------------------------------------------------------------------------------------
# Positions
# --------------------------------------------------------------------------------------
def random_piles(rnd: random.Random, rules: Rules, n: int) -> dict[str, list[int]]:
    """A position with ``n`` cards in play and the other 104 - ``n`` home (``drawn_piles``); from 13
    cards in play, half of them with an empty king pile."""
    while True:
        heights = [rnd.choice([0, 13, 13, *range(14)]) for _ in range(4)]
        if n >= 13 and rnd.random() < 0.5:
            heights = rnd.sample([0, 13, 13, 13], 4)
        centre = N_CARDS - n - sum(heights)
        if 1 <= centre <= 52:
            return drawn_piles(rnd, rules, centre, heights)


def drawn_piles(rnd: random.Random, rules: Rules, centre: int, heights: list[int]) -> dict[str, list[int]]:
    """A position as card ids (each of the 104 exactly once): the centre holds its base AC (deck 0)
    and a run up from it (wrapping) of ``centre`` cards, king pile i K down to ``heights[i]`` cards;
    the cards missing from them are in play. PySolFC's layout: sails of one card, and a waste (then
    a stock) only when every sail is full, as the refills keep it; Welford's: sails of 0-2 cards
    (gaps are common: a turn fills them, row 0 first), a waste of 0-3 cards, the rest in the stock.
    Reversed: every rank mirrored."""
    ids = {r: [r + 13 * s + 52 * d for s in range(4) for d in range(2)] for r in range(13)}
    for cards in ids.values():
        rnd.shuffle(cards)
    ids[0].remove(0)
    piles = empty_piles(len(rules.sails))
    piles[CENTRE] = [0] + [ids[i % 13].pop() for i in range(1, centre)]
    for pile, height in zip(KING_PILES, heights):
        piles[pile] = [ids[12 - i].pop() for i in range(height)]
    out = [card for cards in ids.values() for card in cards]
    rnd.shuffle(out)
    n = len(out)
    if rules.welford:
        for sail in rules.sails:
            piles[sail] = [out.pop() for _ in range(min(rnd.choice([0, 1, 1, 2]), len(out)))]
        piles["waste"] = [out.pop() for _ in range(rnd.randint(0, min(len(out), 3)))]
        piles["stock"] = out
    elif n < 8 or (n == 8 and rnd.random() < 0.5):
        for sail in rnd.sample(rules.sails, n):
            piles[sail] = [out.pop()]
    else:
        for sail in rules.sails:
            piles[sail] = [out.pop()]
        if out:
            many = rules.redeals or rnd.random() < 0.3
            piles["waste"] = [out.pop() for _ in range(rnd.randint(1, min(len(out), 8) if many else min(2, len(out))))]
            piles["stock"] = out
    if rules.reversed:
        piles = {name: [mirror(card) for card in cards] for name, cards in piles.items()}
    return piles


def assert_won_line(game, rules: Rules, state, moves) -> None:
    """``moves`` replays through ``game.apply`` to a won position, every move legal, and through
    the oracle, with the same piles after every move."""
    pos = Position(engine_piles(game, state))
    for i, move in enumerate(moves):
        move = tuple(move)
        assert move in {tuple(m) for m in game.legal_moves(state)}, (i, move)
        assert move in legal_moves(rules, pos), (i, move)
        state = game.apply(state, move)
        pos = play(rules, pos, move)
        assert engine_piles(game, state) == pos.piles, (i, move)
    assert game.is_won(state) and game.cards_home(state) == N_CARDS
    assert cards_home(pos) == N_CARDS


def combo_id(params: dict) -> str:
    return "-".join(f"{k[:3]}={v}" for k, v in params.items())


def text(piles: dict[str, list[int]]) -> dict[str, str]:
    return {name: " ".join(cards) for name, cards in names(piles).items() if cards}


# --------------------------------------------------------------------------------------
# Many small random positions, every rule combination
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("params", COMBINATIONS, ids=combo_id)
def test_random_small_positions_agree_with_the_search(params):
    game, rules = make_game(GAME, **params), Rules(**params)
    index = COMBINATIONS.index(params)
    rnd = random.Random(1500 + index)
    counts = {"won": 0, "lost": 0, "limit": 0}
    for attempt in range(6):
        piles = random_piles(rnd, rules, rnd.randint(6, 14))
        state = game.state_from_cards(piles)
        assert engine_piles(game, state) == piles
        pos = Position(piles)
        assert {tuple(m) for m in game.legal_moves(state)} == legal_moves(rules, pos), text(piles)
        found, _ = search(rules, pos)
        counts[found] += 1
        if found == "limit":
            continue
        if attempt < 2:  # the engine's own moves and refills give the same verdict
            assert engine_search(game, state, limit=40_000) in {found, "limit"}, (params, text(piles))
        result = solve(game, state, budget=BUDGET)
        assert result.verdict == found, (params, text(piles), found, result)
        assert result.information == "thoughtful"
        if found == "won":
            assert result.reason == "won"
            assert_won_line(game, rules, state, result.moves)
        else:
            assert result.reason == "exhausted" and result.moves == []
    assert counts["won"] + counts["lost"] >= 4, counts


def test_random_positions_are_not_vacuous():
    """The drawn positions above offer moves between king piles (free transfers) and kings to an
    empty king pile, and both verdicts occur under each transfer rule in Welford's layout. (Two or
    more empty king piles need 26 cards in play: ``test_positions_with_two_empty_king_piles``.)"""
    seen = {"king_to_king": 0, "king_to_empty": 0}
    verdicts: dict[str, set] = {}
    for index, params in enumerate(COMBINATIONS):
        rules = Rules(**params)
        rnd = random.Random(1500 + index)
        for _ in range(6):
            piles = random_piles(rnd, rules, rnd.randint(6, 14))
            moves = legal_moves(rules, Position(piles))
            seen["king_to_king"] += any(m[0] in KING_PILES and m[1] in KING_PILES for m in moves)
            seen["king_to_empty"] += any(m[1] in KING_PILES and not piles[m[1]] for m in moves)
            if params["welford"]:
                verdicts.setdefault(params["transfer"], set()).add(search(rules, Position(piles), limit=2_000)[0])
    assert seen["king_to_king"] >= 10 and seen["king_to_empty"] >= 2, seen
    # Welford's layout (sails of two, no refills) loses often; PySolFC's rarely (see ``HARD``)
    assert all({"won", "lost"} <= found for found in verdicts.values()), verdicts


# --------------------------------------------------------------------------------------
# Several empty king piles (only the first is a destination for the solver)
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("transfer", ["free", "strict", "none", "welford"])
def test_positions_with_two_empty_king_piles(transfer):
    """Two empty king piles need at least 26 cards in play (two piles of 13, a centre of at most 52),
    too many for an exhaustive search: the search here stops at 2,000 positions, which is enough to
    find most wins. Wherever it finds one, the solver must win too (a reduction that is not exact
    would lose some), and where it proves a loss the solver must not win."""
    verdicts = []
    rnd = random.Random(["free", "strict", "none", "welford"].index(transfer))
    for c2k, redeals, welford, reversed_ in itertools.product((True, False), (0, 1), (False, True), (False, True)):
        params = dict(transfer=transfer, centre_to_king=c2k, redeals=redeals, welford=welford, reversed=reversed_)
        game, rules = make_game(GAME, **params), Rules(**params)
        heights = [0, 0, rnd.choice([11, 12, 13]), rnd.choice([12, 13])]
        rnd.shuffle(heights)
        piles = drawn_piles(rnd, rules, rnd.choice([49, 50, 51, 52]), heights)
        state = game.state_from_cards(piles)
        found, _ = search(rules, Position(piles), limit=2_000)
        verdicts.append(found)
        if found == "limit":
            continue
        result = solve(game, state, budget=BUDGET)
        assert result.verdict == found, (params, text(piles), found, result)
        if found == "won":
            assert_won_line(game, rules, state, result.moves)
    assert verdicts.count("won") >= 8, verdicts


# --------------------------------------------------------------------------------------
# Pinned positions: a tempting shortcut loses a won position
# --------------------------------------------------------------------------------------
# (id, rules other than the defaults, shortcut, piles bottom -> top (a card's first appearance is
# deck 0's copy, its second deck 1's: every card of the two packs exactly once), moves at the start
# that the shortcut takes and that lose, moves that win instead). Found by random search with
# ``search`` (a won position that the shortcut loses), then pinned.
PINS = [
    # (a) Default rules: a sail card played to the centre whenever one fits loses (the centre needs
    # J Q K, the empty king pile all 13 ranks: the queens must wait for the king pile).
    ("a-sail-to-centre", {}, sail_to_centre_at_once,
     {"row0": "4S", "row1": "QC", "row2": "9H", "row3": "6S", "row4": "KC", "row5": "AS", "row6": "QH", "row7": "KH",
      "stock": "JH 5C TH", "waste": "8S JS 2D 3D 7C",
      "foundation0": "AC 2C 3D 4S 5S 6H 7D 8C 9H TD JD QS KC AS 2S 3S 4H 5H 6H 7S 8S 9C TC JC QS KS "
                     "AD 2C 3H 4H 5D 6C 7C 8D 9S TH JH QD KS AD 2S 3C 4D 5S 6D 7H 8H 9D TD",
      "foundation2": "KH QC JD TC 9S 8H 7D 6D 5C 4C 3H 2H AH",
      "foundation3": "KD QD JS TS 9D 8C 7H 6S 5H 4C 3S 2D AH",
      "foundation4": "KD QH JC TS 9C 8D 7S 6C 5D 4D 3C 2H AC"},
     [], []),
    ("a-sail-to-centre-welford-transfer", {"transfer": "welford", "centre_to_king": False}, sail_to_centre_at_once,
     {"row0": "JC", "row1": "4D", "row2": "KH", "row3": "8S", "row4": "7C", "row5": "6S", "row6": "QH", "row7": "QD",
      "stock": "KD AD", "waste": "TD 2H 5C 3S 9D JS",
      "foundation0": "AC 2H 3C 4S 5H 6H 7S 8C 9H TS JD QD KS AH 2C 3D 4H 5D 6C 7S 8D 9D TS JC QS KS "
                     "AC 2D 3D 4H 5S 6H 7C 8D 9C TC JH QS KH AS 2S 3C 4C 5C 6D 7D 8H 9H TH",
      "foundation1": "KD QC JH TH 9S 8S 7H 6S 5S 4C 3H 2D AH",
      "foundation2": "KC QH JD TC 9S 8C 7D 6C 5D 4S 3H 2S AS",
      "foundation4": "KC QC JS TD 9C 8H 7H 6D 5H 4D 3S 2C AD"},
     [], []),
    # (b) Default rules: a player who never borrows a king pile's card for the centre loses.
    ("b-never-borrow", {}, never_borrow,
     {"row0": "KH", "row1": "5D", "row2": "JD", "row3": "QS", "row4": "7C", "row5": "4S", "row6": "2C", "row7": "9D",
      "stock": "8S AS", "waste": "3H TD AD QD KD 6S",
      "foundation0": "AC 2D 3S 4C 5S 6D 7H 8H 9C TS JH QC KS AD 2S 3H 4D 5H 6S 7S 8D 9C TD JS QS KH "
                     "AS 2H 3C 4S 5C 6H 7S 8S 9H TS JC",
      "foundation1": "KC QH JD TH 9D 8D 7D 6C 5S 4D 3D 2S AH",
      "foundation2": "KD QD JH TC 9H 8C 7H 6H 5D 4H 3D 2C AH",
      "foundation3": "KC QH JS TH 9S 8C 7C 6D 5H 4H 3C 2D AC",
      "foundation4": "KS QC JC TC 9S 8H 7D 6C 5C 4C 3S 2H"},
     [], []),
    # Welford's layout, strict transfers: borrowing foundation2's 3S at once is the only winning move.
    ("b-borrow-now-strict", {"transfer": "strict", "centre_to_king": False, "redeals": 1, "welford": True},
     never_borrow,
     {"row0": "AD 4D", "row2": "2H", "row3": "JD",
      "stock": "QC 8S", "waste": "3D 9C 5H 7D TH 6D KD",
      "foundation0": "AC 2S 3C 4D 5C 6H 7C 8H 9D TD JS QC KD AC 2H 3C 4S 5S 6D 7C 8D 9C TH JH QS KH "
                     "AH 2D 3S 4C 5S 6S 7D 8C 9H TS JS QS KS AS 2S",
      "foundation1": "KS QD JC TD 9S 8D 7H 6C 5H 4S 3H 2C AD",
      "foundation2": "KC QH JH TS 9H 8C 7H 6H 5D 4C 3S",
      "foundation3": "KH QD JD TC 9S 8H 7S 6S 5D 4H 3H 2C AH",
      "foundation4": "KC QH JC TC 9D 8S 7S 6C 5C 4H 3D 2D AS"},
     [("row2", "foundation2"), ("stock", "waste")], [("foundation2", "foundation0")]),
    # Welford's rules with centre_to_king: borrowing foundation1's 3S at once is the only winning move.
    ("b-borrow-now-welford", {"transfer": "welford", "redeals": 1, "welford": True}, never_borrow,
     {"row0": "KC", "row1": "AC 8D", "row2": "7C QD", "row3": "2S",
      "stock": "JS 9S 6H 5S 3C 4S TC",
      "foundation0": "AC 2D 3H 4H 5D 6S 7C 8H 9D TD JD QH KC AS 2S 3D 4D 5S 6D 7D 8S 9C TD JS QC KD "
                     "AS 2C 3C 4D 5C 6C 7S 8H 9H TH JH QC KD AD 2H",
      "foundation1": "KH QD JC TS 9H 8S 7H 6S 5H 4C 3S",
      "foundation2": "KS QS JH TH 9S 8C 7D 6C 5C 4C 3D 2C AD",
      "foundation3": "KH QH JD TC 9C 8D 7S 6D 5H 4H 3H 2D AH",
      "foundation4": "KS QS JC TS 9D 8C 7H 6H 5D 4S 3S 2H AH"},
     [("foundation0", "foundation1"), ("row3", "foundation1"), ("stock", "waste")], [("foundation1", "foundation0")]),
    # (c) No transfers: a card that fits a king pile must sometimes go to the centre instead.
    ("c-king-pile-first", {"transfer": "none"}, king_pile_first,
     {"row0": "AH", "row1": "8S", "row2": "5S", "row3": "TD", "row4": "KD", "row5": "3S", "row6": "KC", "row7": "2C",
      "waste": "4S 2D 9H AC 3H 7D QD JS 6D 4H",
      "foundation0": "AC 2S 3H 4C 5C 6S 7S 8C 9D TS JH QD KD AS 2C 3D 4S 5C 6H 7H 8D 9C TS JC QC KS "
                     "AS 2D 3C 4D 5D 6C 7C 8D 9C TC JD QH",
      "foundation1": "KH QH JH TC 9S 8S 7C 6S 5H 4D 3C 2H AH",
      "foundation2": "KS QS JD TH 9H 8C 7H 6C 5D 4H 3D 2S AD",
      "foundation3": "KC QS JC TD 9D 8H 7S 6D 5H 4C 3S 2H AD",
      "foundation4": "KH QC JS TH 9S 8H 7D 6H 5S"},
     [], []),
    # Welford's layout, no transfers: the waste's 7H onto foundation2 (8H) loses, onto the centre (6S) wins.
    ("c-king-pile-first-now", {"transfer": "none", "redeals": 1, "welford": True}, king_pile_first,
     {"row0": "2H AH", "row1": "KD JH", "row3": "7C TH",
      "stock": "8H 5S 2D 4S", "waste": "6C QS 9D AD 3S 7H",
      "foundation0": "AC 2D 3S 4D 5C 6S 7D 8D 9D TH JS QH KD AD 2H 3D 4C 5H 6D 7S 8S 9C TS JD QD KH "
                     "AS 2C 3C 4H 5D 6D 7C 8C 9H TD JD QD KC AH 2S 3H 4S 5C 6S",
      "foundation1": "KS QC JS TS 9C 8S 7H 6C 5S 4C 3C",
      "foundation2": "KS QH JC TD 9S 8H",
      "foundation3": "KH QS JH TC 9S 8D 7S 6H 5D 4D 3D 2S AC",
      "foundation4": "KC QC JC TC 9H 8C 7D 6H 5H 4H 3H 2C AS"},
     [("waste", "foundation2")], [("waste", "foundation0")]),
    # (d) The reverse: a card that fits the centre must sometimes go to a king pile.
    ("d-centre-first", {"transfer": "none", "centre_to_king": False}, centre_first,
     {"row0": "QH", "row1": "8D", "row2": "JD", "row3": "TC", "row4": "5D", "row5": "2H", "row6": "AD", "row7": "KC",
      "stock": "KC", "waste": "QC 9S 6D 4C 7C 3D",
      "foundation0": "AC 2D 3S 4H 5D 6S 7S 8H 9H TH JS QS KD AC 2S 3D 4S 5S 6H 7D 8C 9H TD JS QD KD "
                     "AD 2C 3C 4D 5C 6D 7D 8S 9D TS JH QC KH AH 2S 3S 4H 5H 6C 7C 8C 9S TS JC",
      "foundation1": "KS QH JC TC 9C 8H 7S 6C 5H 4S 3H 2D AS",
      "foundation3": "KH QD JD TD 9C 8D 7H 6H 5C 4D 3C 2H AS",
      "foundation4": "KS QS JH TH 9D 8S 7H 6S 5S 4C 3H 2C AH"},
     [], []),
    # Welford's transfers: row0's KD onto the centre (QH) loses, onto the empty foundation3 wins.
    ("d-centre-first-now", {"transfer": "welford", "centre_to_king": False}, centre_first,
     {"row0": "KD", "row1": "9D", "row2": "3C", "row3": "8H", "row4": "7H", "row5": "JS", "row6": "5C", "row7": "4C",
      "stock": "AS QC", "waste": "KS 2C 6C TC",
      "foundation0": "AC 2D 3H 4H 5S 6H 7S 8C 9D TD JC QS KH AC 2C 3C 4C 5C 6S 7D 8C 9S TS JD QD KC "
                     "AS 2S 3S 4S 5S 6D 7C 8S 9S TH JC QD KD AH 2H 3S 4S 5H 6S 7S 8D 9C TH JH QH",
      "foundation1": "KS QH JS TS 9C 8H 7C 6C 5D 4D 3D 2D AD",
      "foundation2": "KH QC JH TD 9H 8S 7D 6H 5D 4D 3H 2H AH",
      "foundation4": "KC QS JD TC 9H 8D 7H 6D 5H 4H 3D 2S AD"},
     [("row0", "foundation0")], [("row0", "foundation3")]),
    # (e) Default rules: playing every card that fits before turning the stock loses.
    ("e-play-before-turning", {}, play_before_turning,
     {"row0": "2C", "row1": "8H", "row2": "5C", "row3": "6S", "row4": "9S", "row5": "3C", "row6": "AS", "row7": "4D",
      "stock": "QS 4H 5S JH 2D 3S 7H TS", "waste": "AS",
      "foundation0": "AC 2H 3H 4H 5H 6H 7C 8C 9H TC JC QH KD AH 2S 3D 4S 5H 6S 7S 8S 9D TD JD QD KH "
                     "AD 2C 3S 4C 5S 6D 7C 8D 9D TS JD QC KC AH 2H 3C 4C 5D 6H 7H 8H 9H TH JS QH KS",
      "foundation1": "KD QS JH TD 9S 8D 7D 6D 5D 4S 3H 2S AC",
      "foundation2": "KC QC JS TH 9C 8S 7S 6C 5C 4D 3D 2D AD",
      "foundation3": "KS QD JC TC 9C 8C 7D 6C",
      "foundation4": "KH"},
     [], []),
    # Strict transfers: an ace from a sail onto foundation1 (2H) loses; turning the stock first wins.
    ("e-turn-first-now", {"transfer": "strict"}, play_before_turning,
     {"row0": "4S", "row1": "AS", "row2": "JS", "row3": "3H", "row4": "9S", "row5": "AD", "row6": "QS", "row7": "5S",
      "stock": "TC KD KD 8S 7S 2D", "waste": "6D",
      "foundation0": "AC 2S 3C 4D 5D 6H 7H 8H 9D TC JD QC KS AD 2C 3D 4S 5C 6S 7S 8H 9S TD JC QC KH "
                     "AH 2C 3C 4H 5H 6H 7D 8C 9C TD JC QD",
      "foundation1": "KC QD JD TS 9D 8C 7C 6C 5C 4D 3D 2H",
      "foundation2": "KC QH JH TH 9H 8D 7C 6D 5D 4H 3S 2S AH",
      "foundation3": "KS QS JS TH 9C 8D 7H 6C 5H 4C 3H 2D AC",
      "foundation4": "KH QH JH TS 9H 8S 7D 6S 5S 4C 3S 2H AS"},
     [("row1", "foundation1"), ("row5", "foundation1")], [("stock", "waste")]),
    # (f) Default rules, the position of (a): never taking the centre's top card back to a king pile loses.
    ("f-never-from-centre", {}, never_from_centre,
     {"row0": "4S", "row1": "QC", "row2": "9H", "row3": "6S", "row4": "KC", "row5": "AS", "row6": "QH", "row7": "KH",
      "stock": "JH 5C TH", "waste": "8S JS 2D 3D 7C",
      "foundation0": "AC 2C 3D 4S 5S 6H 7D 8C 9H TD JD QS KC AS 2S 3S 4H 5H 6H 7S 8S 9C TC JC QS KS "
                     "AD 2C 3H 4H 5D 6C 7C 8D 9S TH JH QD KS AD 2S 3C 4D 5S 6D 7H 8H 9D TD",
      "foundation2": "KH QC JD TC 9S 8H 7D 6D 5C 4C 3H 2H AH",
      "foundation3": "KD QD JS TS 9D 8C 7H 6S 5H 4C 3S 2D AH",
      "foundation4": "KD QH JC TS 9C 8D 7S 6C 5D 4D 3C 2H AC"},
     [], []),
]


@pytest.mark.parametrize("pin", PINS, ids=[p[0] for p in PINS])
def test_pinned_shortcuts_lose_won_positions(pin):
    pid, changed, shortcut, piles, losing, winning = pin
    params = {**DEFAULTS, **changed}
    game, rules = make_game(GAME, **params), Rules(**params)
    state = game.state_from_piles(piles)
    ids = [card for cards in engine_piles(game, state).values() for card in cards]
    assert sorted(ids) == list(range(N_CARDS)), pid  # every card of the two packs, once
    pos = Position(engine_piles(game, state))
    # won: by the search (its line replays through the engine) and through the engine's own moves
    found, line = search(rules, pos)
    assert found == "won", (pid, found)
    assert_won_line(game, rules, state, line)
    assert engine_search(game, state) == "won", pid
    # the shortcut, followed throughout, loses
    assert search(rules, pos, keep=shortcut)[0] == "lost", pid
    # and where it is pinned, the shortcut's move at the start already loses
    moves = legal_moves(rules, pos)
    for move in losing:
        assert move in moves and move in shortcut(rules, pos, sorted(moves)), (pid, move)
        assert search(rules, play(rules, pos, move))[0] == "lost", (pid, move)
    for move in winning:
        assert move not in shortcut(rules, pos, sorted(moves)), (pid, move)
        assert search(rules, play(rules, pos, move))[0] == "won", (pid, move)
    # the solver: won, with a line that replays; never a wrong verdict at a small budget
    result = solve(game, state, budget=BUDGET)
    assert (result.verdict, result.reason, result.information) == ("won", "won", "thoughtful"), (pid, result)
    assert_won_line(game, rules, state, result.moves)
    for budget in (1, 3, 10, 30):
        assert solve(game, state, budget=budget).verdict in {"won", "unknown"}, (pid, budget)


# --------------------------------------------------------------------------------------
# Larger drawn positions (14-21 cards in play) whose search is not trivial
# --------------------------------------------------------------------------------------
# Random positions in PySolFC's layout are almost always won at once (eight sails in view): these
# were drawn among thousands (``random_piles``) for a search of several hundred positions or more
# (redeals 0 or 1), then pinned: (rules other than the defaults, verdict, piles bottom -> top).
# Every parameter is passed explicitly (``DEFAULTS`` updated), so Welford's defaults never apply.
HARD = [
    # Welford's layout with gaps (drawn the same way): a turn fills the gaps row 0 first, so the
    # order of the sails is part of a position. A solver that hashed Welford's sails as
    # interchangeable (before commit 07813cc) called these three won positions lost.
    ({"transfer": "strict", "welford": True, "redeals": 0}, "won",
     {"row0": "AH", "row2": "3C", "row3": "AH", "stock": "5H KH 4D 6C QD", "waste": "2C JH",
      "foundation0": "AC 2H 3C 4S 5C 6H 7S 8D 9H TH JS QC KS AD 2D 3D 4C 5D 6C 7S 8S 9C TH JS QD KS "
                     "AS 2S 3H 4H 5S 6D 7D 8C 9H TD JH QC KC AS 2S 3S 4C 5D 6S 7D 8D 9C TC",
      "foundation1": "KH QS JD TS 9D 8H 7H 6D 5S 4H 3D 2D",
      "foundation2": "KD QH JD TD 9S 8H 7C 6H 5H 4D 3H 2C AC",
      "foundation3": "KD QH JC TC 9D 8C 7C 6S 5C 4S 3S 2H AD",
      "foundation4": "KC QS JC TS 9S 8S 7H"}),
    ({"transfer": "none", "centre_to_king": False, "welford": True, "redeals": 0}, "won",
     {"row0": "AC 7C", "row1": "3D", "row2": "3S", "row3": "6D", "stock": "JS AS 8S 4H 2S 9S KS TH 2S",
      "waste": "QS 5H",
      "foundation0": "AC 2D 3H 4H 5D 6H 7H 8D 9S TD JC QD KD AH 2C 3D 4C 5H 6C 7H 8H 9D TS JD QC KC "
                     "AS 2H 3C 4C 5C 6D 7S 8S 9C TH JD QH KC AD 2D 3S 4D 5D 6H 7S 8C 9D TC",
      "foundation1": "KH QD JS",
      "foundation2": "KS QC JH TC 9H 8D 7C 6S 5S 4D 3C 2C AH",
      "foundation3": "KD QS JH TD 9H 8H 7D 6C 5S 4S 3H 2H AD",
      "foundation4": "KH QH JC TS 9C 8C 7D 6S 5C 4S"}),
    ({"transfer": "none", "welford": True, "redeals": 0}, "won",
     {"row0": "6C", "row1": "6S", "row3": "KS 8H", "stock": "JD 4H QD 5C 2D 2D 3S TH AD 7H 9S",
      "waste": "3S AS",
      "foundation0": "AC 2C 3H 4S 5D 6S 7S 8D 9H TC JS QS KS AC 2S 3D 4D 5D 6C 7D 8C 9D TS JH QC KH "
                     "AS 2H 3C 4C 5S 6D 7D 8D 9C TD JC QH KH AD 2C 3H 4H 5C",
      "foundation1": "KD QC JC TS 9C 8C 7C",
      "foundation2": "KD QH JS TH 9H 8S 7C 6D 5H 4D",
      "foundation3": "KC QS JD TD 9S 8H 7S 6H 5H 4S 3C 2H AH",
      "foundation4": "KC QD JH TC 9D 8S 7H 6H 5S 4C 3D 2S AH"}),
    ({}, "lost",
     {"row0": "5H", "row1": "3S", "row2": "4H", "row3": "TH", "row4": "3H", "row5": "6D", "row6": "AH", "row7": "5S",
      "stock": "2C 2D 8H", "waste": "9D QD AS 4D JD 7S",
      "foundation0": "AC 2S 3S 4S 5D 6S 7D 8H 9H TD JS QH KH AH 2H 3D 4D 5C 6C 7H 8S 9D TC JS QC KS "
                     "AD 2H 3H 4C 5C 6D 7C 8C 9H TD JD QD KH AS 2D 3D 4H 5D 6S 7C 8S 9C TC JC QS KC",
      "foundation1": "KC QS JH TH 9C 8C 7D 6H 5S 4S 3C 2C AD",
      "foundation2": "KD QC JH TS 9S 8D 7H 6C",
      "foundation3": "KS",
      "foundation4": "KD QH JC TS 9S 8D 7S 6H 5H 4C 3C 2S AC"}),
    ({}, "lost",
     {"row0": "2S", "row1": "KH", "row2": "JH", "row3": "7S", "row4": "TH", "row5": "AS", "row6": "4H", "row7": "8H",
      "stock": "9H TH JC", "waste": "QS 3S QD KS 9C AD 6C 5C",
      "foundation0": "AC 2H 3C 4S 5H 6D 7H 8D 9S TS JS QS KC AH 2D 3S 4C 5H 6H 7H 8S 9C TC JD QH KD "
                     "AS 2S 3D 4H 5S 6S 7D 8C",
      "foundation1": "KC QD JD TD 9D 8C 7C 6D 5S 4D 3D 2D AH",
      "foundation2": "KD QH JS TC 9D 8H 7C 6H 5D 4S 3H 2H",
      "foundation3": "KS QC JH TS 9H 8S 7S 6C 5D 4C 3C 2C AD",
      "foundation4": "KH QC JC TD 9S 8D 7D 6S 5C 4D 3H 2C AC"}),
    ({}, "lost",
     {"row0": "9S", "row1": "8S", "row2": "6S", "row3": "AS", "row4": "9D", "row5": "2C", "row6": "TC", "row7": "3S",
      "stock": "QS 5H 7S", "waste": "JH JD 8C KC TS 4H QC",
      "foundation0": "AC 2D 3C 4H 5S 6D 7C 8C 9C TD JS QD KD AD 2C 3H 4D 5H 6H 7D 8H 9S TS JD QC KH "
                     "AC 2H 3C 4C 5D 6H 7H 8S 9C TH JH QD KC AH 2D 3D 4C 5C 6C 7H",
      "foundation1": "KD QH JS TH 9H 8D 7C 6D 5D 4D 3H 2S AD",
      "foundation2": "KS QS JC TC 9D 8D 7D 6C 5S 4S 3S 2H AH",
      "foundation3": "KH",
      "foundation4": "KS QH JC TD 9H 8H 7S 6S 5C 4S 3D 2S AS"}),
    ({'transfer': 'strict'}, "lost",
     {"row0": "9C", "row1": "2S", "row2": "3C", "row3": "4D", "row4": "5H", "row5": "8C", "row6": "7C", "row7": "4C",
      "stock": "6C 3S TS 9D 2H 7C AC 5S 8C 6D", "waste": "TD AH",
      "foundation0": "AC 2D 3H 4H 5C 6H 7S 8S 9C TC JS QH KH AD 2S 3D 4D 5D 6S 7H 8H 9S TS JC QD KD "
                     "AS 2C 3S 4H 5S 6H 7D 8D 9H TC JD QS KS AD 2H 3C 4S 5C 6D 7S 8H 9H TH JD QC KD",
      "foundation1": "KH QS JS",
      "foundation2": "KS QC JH TD 9S 8S 7D 6C 5H 4S 3D 2C AH",
      "foundation3": "KC QD JH",
      "foundation4": "KC QH JC TH 9D 8D 7H 6S 5D 4C 3H 2D AS"}),
    ({'transfer': 'strict'}, "lost",
     {"row0": "6S", "row1": "AH", "row2": "4H", "row3": "AD", "row4": "QC", "row5": "QD", "row6": "TH", "row7": "2S",
      "stock": "7H 3C", "waste": "AS KS KD 5S 9H 2H 8D JC",
      "foundation0": "AC 2C 3S 4C 5C 6D 7H 8S 9D TS JD QH KH AS 2D 3S 4H 5D 6C 7C 8H 9H TD JC QS KC "
                     "AH 2H 3C 4D 5H 6H 7S 8S 9C TC JS",
      "foundation1": "KH QS JH TH 9S 8D 7D 6S 5H 4S 3D 2S AC",
      "foundation2": "KC QC JD TS 9C 8C 7S 6D 5C 4C 3D 2C AD",
      "foundation3": "KS QH JS TC 9S 8H 7C 6C 5S 4S 3H",
      "foundation4": "KD QD JH TD 9D 8C 7D 6H 5D 4D 3H 2D"}),
    ({'transfer': 'strict'}, "lost",
     {"row0": "8S", "row1": "AH", "row2": "AD", "row3": "KC", "row4": "QH", "row5": "7S", "row6": "9H", "row7": "5S",
      "stock": "2S", "waste": "6H 3H 4D JS TS",
      "foundation0": "AC 2D 3S 4D 5D 6D 7S 8D 9C TC JC QC KH AC 2C 3D 4C 5H 6S 7C 8C 9C TH JH QS KH "
                     "AD 2H 3S 4H 5H 6S 7C 8C 9H TD JC QS KD",
      "foundation1": "KD QD JD TD 9D 8D 7H 6H 5C 4S 3C 2H AH",
      "foundation2": "KC QD JH TS 9S 8H 7D 6D 5C 4S 3D 2D AS",
      "foundation3": "KS QC JD TC 9S 8H 7D 6C 5D 4H 3H 2S",
      "foundation4": "KS QH JS TH 9D 8S 7H 6C 5S 4C 3C 2C AS"}),
    ({}, "won",
     {"row0": "2H", "row1": "AD", "row2": "5C", "row3": "8S", "row4": "4S", "row5": "AS", "row6": "2D", "row7": "TD",
      "stock": "3S KS QH 6H 9S", "waste": "4C 3C 3H 7D AS 2S JD 5D",
      "foundation0": "AC 2D 3H 4S 5S 6S 7D 8D 9C TC JD QD KD AH 2S 3D 4H 5S 6H 7C 8D 9D TC JH QC KH "
                     "AC 2C 3D 4D 5D 6S 7S 8H 9D TS JS QS KD AH 2H",
      "foundation1": "KS QC JC TH 9H 8H 7H 6C",
      "foundation2": "KH QS JS TS 9C 8S 7S 6D 5H 4C 3C",
      "foundation3": "KC QD JC TD 9H 8C 7H 6D 5H 4H",
      "foundation4": "KC QH JH TH 9S 8C 7C 6C 5C 4D 3S 2C AD"}),
    ({}, "won",
     {"row0": "2C", "row1": "QC", "row2": "9C", "row3": "8C", "row4": "AD", "row5": "KS", "row6": "7H", "row7": "5C",
      "stock": "3H 2D", "waste": "6H 3H TH JC 4S",
      "foundation0": "AC 2H 3S 4H 5C 6C 7C 8C 9D TD JC QD KH AH 2C 3C 4D 5S 6H 7S 8S 9S TC JS QH KC "
                     "AH 2D 3D 4D 5D 6S 7H 8H 9H TH JS QD KS AD",
      "foundation1": "KD QH JH TS 9C 8H 7D 6D 5H 4C 3C 2S AS",
      "foundation2": "KC QC JH TC 9D 8D 7S 6S 5D 4H",
      "foundation3": "KH QS JD TS 9H 8S 7C 6C 5H 4C 3S 2S AC",
      "foundation4": "KD QS JD TD 9S 8D 7D 6D 5S 4S 3D 2H AS"}),
    ({}, "won",
     {"row0": "6D", "row1": "TS", "row2": "2C", "row3": "5D", "row4": "KS", "row5": "9H", "row6": "AD", "row7": "QH",
      "stock": "8D 3D 8D 9D AH 4C TS 7S JS JH QH", "waste": "KH",
      "foundation0": "AC 2S 3H 4H 5S 6D 7D 8C 9C TC JH QC KC AS 2S 3C 4D 5D 6C 7D 8H 9D TH JS QD KC "
                     "AH 2H 3H 4S 5H 6H 7C",
      "foundation1": "KS QC JC TC 9S 8H 7S 6S 5H 4C 3C 2H AC",
      "foundation2": "KD QS JC TH 9C 8S 7H 6H 5C 4S 3S 2D",
      "foundation3": "KD QS JD TD 9S 8S 7C 6C 5C 4D 3S 2D AD",
      "foundation4": "KH QD JD TD 9H 8C 7H 6S 5S 4H 3D 2C AS"}),
    ({'transfer': 'strict'}, "won",
     {"row0": "7S", "row1": "KH", "row2": "8C", "row3": "AD", "row4": "5D", "row5": "QD", "row6": "TC", "row7": "9S",
      "stock": "AH JH JD 4C 3S QC", "waste": "KD 2S 6D",
      "foundation0": "AC 2D 3H 4S 5H 6S 7D 8H 9S TH JS QC KH AS 2S 3H 4D 5S 6H 7S 8H 9C TS JC QD KD "
                     "AS 2C 3D 4C 5H 6D 7D 8S 9D TS",
      "foundation1": "KS QH JD TD 9C 8D 7H 6S 5S 4D 3C 2H AD",
      "foundation2": "KS QS JH TC 9H 8D 7C 6C 5D 4S 3C 2C",
      "foundation3": "KC QH JS TD 9H 8S 7C 6H 5C 4H 3S 2H AH",
      "foundation4": "KC QS JC TH 9D 8C 7H 6C 5C 4H 3D 2D AC"}),
    ({'transfer': 'strict'}, "won",
     {"row0": "KC", "row1": "AS", "row2": "2D", "row3": "7C", "row4": "4H", "row5": "6D", "row6": "9S", "row7": "KH",
      "stock": "2C QC JD AH 3D 4D QH 3H 5H TC JH", "waste": "8H",
      "foundation0": "AC 2S 3S 4C 5S 6D 7S 8S 9H TC JC QS KC AH 2H 3D 4S 5H 6C 7H 8C 9C TD JD QC KD "
                     "AD 2C 3C 4D 5C 6H 7C 8S 9S TS",
      "foundation1": "KD QH JH TD 9H 8D 7H 6S 5S 4H 3S 2H AD",
      "foundation2": "KS QD JS TH 9C 8D 7D 6S 5D 4C 3C 2S AS",
      "foundation3": "KS QD JC TS 9D 8C 7S 6C 5C",
      "foundation4": "KH QS JS TH 9D 8H 7D 6H 5D 4S 3H 2D AC"}),
    ({'transfer': 'strict'}, "won",
     {"row0": "JC", "row1": "9H", "row2": "7H", "row3": "TC", "row4": "6D", "row5": "4S", "row6": "2H", "row7": "AS",
      "stock": "QS QD AS 3D 3C 4C 5H JS KC KD", "waste": "AH 2D 8H",
      "foundation0": "AC 2C 3S 4H 5H 6S 7C 8S 9C TC JD QC KS AD 2S 3H 4D 5S 6C 7C 8D 9D TS JC QS KH "
                     "AH 2S 3D 4D 5C 6H 7D 8H 9S TH",
      "foundation1": "KH QD JS TH 9C 8S 7D 6S 5D",
      "foundation2": "KD QH JD TS 9D 8C 7S 6D 5C 4S 3C 2H",
      "foundation3": "KS QC JH TD 9S 8C 7H 6H 5S 4C 3H 2D AC",
      "foundation4": "KC QH JH TD 9H 8D 7S 6C 5D 4H 3S 2C AD"}),
]


@pytest.mark.parametrize("case", HARD, ids=[f"{i}-{c[1]}" for i, c in enumerate(HARD)])
def test_larger_positions_agree_with_the_search(case):
    changed, verdict, piles = case
    params = {**DEFAULTS, **changed}
    game, rules = make_game(GAME, **params), Rules(**params)
    state = game.state_from_piles(piles)
    assert sorted(c for cards in engine_piles(game, state).values() for c in cards) == list(range(N_CARDS))
    found, _ = search(rules, Position(engine_piles(game, state)))
    assert found == verdict
    if verdict == "lost":
        assert engine_search(game, state) == "lost"
    result = solve(game, state, budget=BUDGET)
    assert result.verdict == verdict, result
    if verdict == "won":
        assert_won_line(game, rules, state, result.moves)


# --------------------------------------------------------------------------------------
# Real deals
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("deal_number", [1, 3, 5, 7])
def test_default_deals_are_won(deal_number):
    game, rules = make_game(GAME), Rules()
    state = game.initial_state(deal_number)
    assert engine_piles(game, state) == deal(deal_number)  # PySolFC's deal, re-implemented
    result = solve(game, deal_number, budget=2_000_000)
    assert (result.verdict, result.reason, result.information) == ("won", "won", "thoughtful"), result
    assert_won_line(game, rules, state, result.moves)
    by_state = solve(game, state, budget=2_000_000)
    assert (by_state.verdict, by_state.moves) == (result.verdict, result.moves)
