"""Reversed Windmill is Windmill with every rank r turned into 14 - r (notes/windmill-spec.md,
"Reversed"; shared/rules.md section 10, Wikipedia's alternate variation): its deal N is Windmill's
deal N with the ranks mirrored, and its rules are Windmill's with the ranks mirrored. So, under the
same other parameters and on the same deals, every policy must play the same game both ways: the
same outcome, the same moves (the same piles named; the cards moved are each other's mirror
images), the same number of moves and the same cards home.

Written from the rules, without reading simlab's implementation; ``tests/pysolfc_windmill.mirror``
is the rank mirror (same deck and suit, rank r -> 14 - r).
"""

from __future__ import annotations

import itertools
import random

import pytest
from pysolfc_windmill import engine_piles, mirror

from simlab import make_game, make_policy, play_deal

GAME = "windmill"
DEALS = (1, 2, 3, 32000)
VARIANTS = [
    {},
    dict(transfer="strict", redeals=1),
    dict(transfer="none", centre_to_king=False, redeals=2),
    dict(transfer="welford", redeals=2),
    dict(welford=True),
    dict(welford=True, transfer="free", centre_to_king=True, redeals=2),
]
POLICIES = [("random", {}), ("greedy", {}), ("heuristic", {}), ("solver", dict(budget=5000)),
            ("round_max", dict(round_budget=5000))]


def mirrored(piles: dict[str, list[int]]) -> dict[str, list[int]]:
    return {name: [mirror(c) for c in cards] for name, cards in piles.items()}


def replay_both(plain, rev, deal, moves) -> None:
    """Every position of ``moves`` played in both games is the other's mirror image."""
    a, b = plain.initial_state(deal), rev.initial_state(deal)
    assert engine_piles(rev, b) == mirrored(engine_piles(plain, a))
    for step, move in enumerate(moves):
        a, b = plain.apply(a, move), rev.apply(b, move)
        assert engine_piles(rev, b) == mirrored(engine_piles(plain, a)), (deal, step, move)


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
@pytest.mark.parametrize(("policy_name", "policy_params"), POLICIES, ids=[p for p, _ in POLICIES])
def test_every_policy_plays_the_same_game_reversed(policy_name, policy_params, variant):
    plain, rev = make_game(GAME, **variant), make_game(GAME, reversed=True, **variant)
    differences = []
    for deal in DEALS:
        a = play_deal(plain, make_policy(policy_name, **policy_params), deal, root_seed=5)
        b = play_deal(rev, make_policy(policy_name, **policy_params), deal, root_seed=5)
        summary_a = (a.verdict, a.end_reason, a.move_count, a.cards_home)
        summary_b = (b.verdict, b.end_reason, b.move_count, b.cards_home)
        if summary_a != summary_b or [tuple(m) for m in a.moves] != [tuple(m) for m in b.moves]:
            first = next((i for i, (x, y) in enumerate(zip(a.moves, b.moves)) if tuple(x) != tuple(y)),
                         min(len(a.moves), len(b.moves)))
            differences.append((deal, summary_a, summary_b, f"first different move at {first}"))
            continue
        replay_both(plain, rev, deal, a.moves)
    assert not differences, differences


@pytest.mark.parametrize(
    "params",
    [dict(transfer=t, centre_to_king=c, redeals=r, welford=w)
     for t, c, r, w in itertools.product(("free", "strict", "none", "welford"), (True, False), (0, 2), (False, True))],
    ids=str,
)
def test_legal_moves_are_the_same_in_the_same_order(params):
    """Along a random walk, both games offer the same moves in the same order (which is what a
    policy choosing by position in the list, like ``random``, sees) and stay mirror images."""
    plain, rev = make_game(GAME, **params), make_game(GAME, reversed=True, **params)
    for deal in (7, 40000):
        chooser = random.Random(deal)
        a, b = plain.initial_state(deal), rev.initial_state(deal)
        for step in range(150):
            moves_a, moves_b = [tuple(m) for m in plain.legal_moves(a)], [tuple(m) for m in rev.legal_moves(b)]
            assert moves_b == moves_a, (deal, step)
            assert rev.cards_home(b) == plain.cards_home(a) and rev.is_won(b) == plain.is_won(a)
            assert rev.piles(rev.observe(b))["stock"] == plain.piles(plain.observe(a))["stock"]
            if not moves_a:
                break
            move = chooser.choice(moves_a)
            a, b = plain.apply(a, move), rev.apply(b, move)
            assert engine_piles(rev, b) == mirrored(engine_piles(plain, a)), (deal, step, move)
