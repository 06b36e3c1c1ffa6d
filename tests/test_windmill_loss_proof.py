"""Windmill's loss proof (``simlab.solver.deadlock.stock_lost``, its argument in that module's
docstring) against the independent exhaustive search of ``test_solver_windmill`` (every legal move
of the rules oracle ``tests/pysolfc_windmill.py``, no pruning; ``tests/reference_search.py`` moves
cards with the card kernel only, without refills or turns, so it cannot play Windmill).

- ``model_lost`` below re-states the relaxation in plain Python (sets of possible centre and king
  pile heights, a pool of ranks, the waste released one card per card played), with two switches
  for the unsound variants (the search asks the proof only once the stock is empty):
  ``transfers=False`` reads the foundations as they stand (no card
  moving between them), ``refills=False`` lets a waste card out only when a card that came from
  the waste goes home (as if a sail were never refilled from the waste). The compiled proof must
  equal the sound model on drawn positions.
- Drawn small positions (the other cards home) under several rule sets, the stock often emptied
  into the waste: wherever the proof says lost, the exhaustive search says lost; and it fires.
- Pinned won positions that each unsound variant calls lost (found by random search, then pinned):
  the sound proof does not, the search and the solver win them.
"""

from __future__ import annotations

import random

import pytest
from pysolfc_windmill import Position, Rules, engine_piles
from test_solver_windmill import assert_won_line, random_piles, search

from simlab import make_game, solve
from simlab.solver import plan_for
from simlab.solver.deadlock import RELAXATION_STOCK, provably_lost

RANKS = 13
DEFAULTS = {"transfer": "free", "centre_to_king": True, "redeals": 0, "welford": False, "reversed": False}
WELFORD = {"transfer": "welford", "centre_to_king": False, "welford": True}
RULE_SETS = [
    {}, {"transfer": "strict"}, {"transfer": "none"}, {"centre_to_king": False},
    {**WELFORD, "redeals": 0}, {**WELFORD, "redeals": 1}, {"redeals": 1},
]


def model_lost(piles: dict[str, list[int]], passes_left: bool, transfers: bool = True, refills: bool = True) -> bool:
    """The relaxation of ``stock_lost`` in plain Python (card ids as in ``piles``)."""
    centre = {len(piles["foundation0"])}
    kings = {len(piles[f"foundation{i}"]) for i in range(1, 5)}
    pool, from_waste = [0] * RANKS, [0] * RANKS
    for name, cards in piles.items():
        if name.startswith("row") or name == "stock":
            for card in cards:
                pool[card % RANKS] += 1
    waste = [card % RANKS for card in piles.get("waste", [])]
    if passes_left:
        for rank in waste:
            pool[rank] += 1
        waste = []
    elif waste:
        rank = waste.pop()
        pool[rank] += 1
        from_waste[rank] += 1
    played: set[int] = set()
    changed = True
    while changed:
        changed = False
        while transfers:  # a centre of c cards and a king pile of k meet when 13 divides c + k
            more = {(c + step, k - step) for c in centre for k in kings if (c + k) % RANKS == 0
                    for step in (1, -1) if 1 <= c + step <= 52 and 0 <= k - step <= 13}
            more = {(c, k) for c, k in more if c not in centre or k not in kings}
            if not more:
                break
            centre |= {c for c, _ in more}
            kings |= {k for _, k in more}
        released = 0
        takes = [(c % RANKS, "centre", c) for c in sorted(centre) if c < 52]
        takes += [(RANKS - 1 - k, "king", k) for k in sorted(kings) if k < RANKS]
        for rank, where, height in takes:
            if pool[rank] or rank in played:
                released += pool[rank] if refills else from_waste[rank]
                pool[rank], from_waste[rank] = 0, 0
                played.add(rank)
                grown = centre if where == "centre" else kings
                if height + 1 not in grown:
                    grown.add(height + 1)
                    changed = True
        while released > 0 and waste:
            rank = waste.pop()
            pool[rank] += 1
            from_waste[rank] += 1
            released -= 1
            changed = True
    return bool(waste) or any(pool)


def rules_of(changed: dict) -> dict:
    return {**DEFAULTS, **changed}


def drawn(rnd: random.Random, rules: Rules, empty_stock: bool) -> dict[str, list[int]]:
    """A small position (``random_piles``: 8-16 cards in play); ``empty_stock``: the stock turned
    onto the waste first (where losses happen)."""
    piles = random_piles(rnd, rules, rnd.randint(8, 16))
    if empty_stock:
        piles["waste"] = piles.get("waste", []) + piles.get("stock", [])[::-1]
        piles["stock"] = []
    return piles


def test_windmill_plans_use_the_stock_proof():
    for changed in RULE_SETS:
        assert plan_for(make_game("windmill", **rules_of(changed))).relaxation == RELAXATION_STOCK
    assert plan_for(make_game("beleaguered_castle")).relaxation != RELAXATION_STOCK


@pytest.mark.parametrize("changed", RULE_SETS, ids=[str(i) for i in range(len(RULE_SETS))])
def test_proof_equals_model_and_never_calls_a_won_position_lost(changed):
    params = rules_of(changed)
    game, rules = make_game("windmill", **params), Rules(**params)
    rnd = random.Random(2300 + RULE_SETS.index(changed))
    for attempt in range(120):
        piles = drawn(rnd, rules, empty_stock=attempt % 4 != 0)
        state = game.state_from_cards(piles)
        proved = provably_lost(game.rules, state.array, RELAXATION_STOCK)
        passes_left = bool(params["redeals"])  # nothing drawn has taken a pass yet
        stock_empty = not engine_piles(game, state)["stock"]  # the search asks only then
        assert proved == (stock_empty and model_lost(engine_piles(game, state), passes_left)), (params, piles)
        if proved:  # the exhaustive search must agree (``test_proof_fires_on_drawn_positions``: it does fire)
            found, _ = search(rules, Position(engine_piles(game, state)), limit=20_000)
            assert found == "lost", (params, piles, found)


def test_proof_fires_on_drawn_positions():
    """Not vacuous: with the stock turned and no pass left it proves a share of the losses, each
    one lost by the exhaustive search."""
    fired = 0
    for changed in (RULE_SETS[0], RULE_SETS[4]):
        params = rules_of(changed)
        game, rules = make_game("windmill", **params), Rules(**params)
        rnd = random.Random(5)
        for _ in range(150):
            state = game.state_from_cards(drawn(rnd, rules, empty_stock=True))
            if provably_lost(game.rules, state.array, RELAXATION_STOCK):
                fired += 1
                assert search(rules, Position(engine_piles(game, state)), limit=20_000)[0] == "lost", params
    assert fired >= 20, fired


# Won positions (default rules, stock empty, no pass) that an unsound variant calls lost.
PINS = {
    # Reading the foundations as they stand: the waste's 2S, 8S, 7S wait for a king pile to give
    # its cards to the centre (or take the centre's), which the variant never lets happen.
    "transfers": {"row0": "9H", "row1": "AC", "row2": "JS", "row3": "3C", "row4": "7D", "row5": "KC",
                  "row6": "8C", "row7": "6H", "waste": "QH 4S TH 5C 2D KS",
                  "foundation0": "AC 2C 3H 4D 5D 6D 7C 8H 9S TH JH QH KH AS 2H 3D 4C 5D 6D 7D 8S 9C TD JC "
                                 "QC KD AD 2D 3S 4H 5S 6H 7H 8S 9D TS JD QD KS AH 2S 3S 4D 5H 6S 7H 8H 9D TC "
                                 "JC QS",
                  "foundation1": "KH QC JD TD 9C 8D 7S 6C 5S 4S 3H 2H AD",
                  "foundation2": "KC QD JH TC 9H 8C 7C 6C 5H 4H 3C 2S AH",
                  "foundation3": "KD QS JS TS 9S 8D 7S 6S 5C 4C 3D 2C AS"},
    # Forgetting the refills: a sail card going home pulls the waste's top into the sail, which
    # lets the waste's cards out one by one without any of them going home first.
    "refills": {"row0": "9H", "row1": "4D", "row2": "AD", "row3": "7H", "row4": "KH", "row5": "AH",
                "row6": "QC", "row7": "JH", "waste": "8C 6H 5D TH",
                "foundation0": "AC 2C 3H 4S 5D 6D 7H 8C 9D TD JS QS KD AH 2S 3D 4H 5S 6H 7D 8D 9D TH JC QH "
                               "KS AS 2D 3S 4D 5C 6C 7D 8D 9C TD JD QC KC AD 2H 3C",
                "foundation1": "KC QD JS TC 9S 8H 7S 6S 5H 4S 3D 2S AS",
                "foundation2": "KH QH JH TC 9C 8S 7C 6C 5S 4C 3H 2H AC",
                "foundation3": "KS QS JD TS 9S 8S 7C 6S 5H 4C 3S 2D",
                "foundation4": "KD QD JC TS 9H 8H 7S 6D 5C 4H 3C 2C"},
}


@pytest.mark.parametrize("variant", sorted(PINS))
def test_pinned_positions_an_unsound_variant_loses(variant):
    game, rules = make_game("windmill"), Rules(**DEFAULTS)
    state = game.state_from_piles(PINS[variant])
    piles = engine_piles(game, state)
    assert sorted(card for cards in piles.values() for card in cards) == list(range(104))
    assert model_lost(piles, False, **{variant: False})  # the unsound variant: "lost"
    assert not model_lost(piles, False)
    assert not provably_lost(game.rules, state.array, RELAXATION_STOCK)
    found, line = search(rules, Position(piles))
    assert found == "won"
    assert_won_line(game, rules, state, line)
    result = solve(game, state, budget=100_000)
    assert result.verdict == "won"
    assert_won_line(game, rules, state, result.moves)
