"""Windmill: three cases pinned.

1. Under Welford's rules a turn fills the gaps row 0 first, so the sails'
   order changes the future: a solver that hashed them as interchangeable
   merged a won position with a lost one and said "lost".
2. The built-in policies borrow a foundation card only to play a card home
   with it: a transfer that lets no new card home (or only swaps two king
   piles) used to end random's games as a repeat after a few moves.
3. The borrowed-card counter exists only where the strict rule needs it: the
   other games' states (and so their hashes and the solver's node counts) are
   as before it.
"""

from __future__ import annotations

from simlab import make_game, make_policy, play_deal, solve
from simlab.engine.layout import COUNTER_REDEALS, COUNTER_SLOTS, N_COUNTERS, OFFSET_COUNTERS, STATE_SIZE

RANKS = "A23456789TJQK"


def run(text: str, suit: str) -> list[str]:
    return [rank + suit for rank in text]


def welford_position(game):
    piles = {
        "foundation0": run(RANKS, "C") + run(RANKS, "S") + run(RANKS, "H") + run("A234567", "D"),
        "foundation1": run(RANKS[::-1], "C"), "foundation2": run(RANKS[::-1], "S"),
        "foundation3": run(RANKS[::-1], "H"), "foundation4": run("KQJT", "D"),
        "row0": ["8D"], "row1": ["8D"], "row2": ["6D", "9D"], "row3": ["3D", "4D"],
        "stock": ["JD", "2D", "9D", "QD", "5D", "AD", "KD", "7D", "TD"],  # bottom -> top
    }
    return game.state_from_piles(piles)


# A line found by hand (the reviewer's), checked through the rules engine below.
WELFORD_WIN = [("row1", "foundation0")] + [("stock", "waste")] * 6 + [("waste", "stock")] + [("stock", "waste")] * 4 + [
    ("waste", "foundation4"), ("row2", "foundation0"), ("row0", "foundation0"), ("row0", "foundation4"),
    ("stock", "waste"), ("row0", "foundation0"), ("waste", "foundation0"), ("row1", "foundation0"),
    ("row1", "foundation4"), ("row2", "foundation4"), ("waste", "foundation4"), ("row3", "foundation4"),
    ("row3", "foundation4"), ("row0", "foundation4"), ("waste", "foundation4")]


def test_welford_sail_order_is_part_of_a_position():
    game = make_game("windmill", welford=True)
    start = welford_position(game)
    state = start
    for move in WELFORD_WIN:
        state = game.apply(state, move)
    assert game.is_won(state)
    result = solve(game, start, budget=200_000)
    assert result.verdict == "won"
    state = start
    for move in result.moves:
        state = game.apply(state, move)
    assert game.is_won(state)
    # the same sails in another order are another position
    other = dict(game.piles(start), row0=["3D", "4D"], row3=["8D"])
    assert game.position_hash(start) != game.position_hash(game.state_from_piles(other))


def test_random_policy_plays_windmill_on():
    game = make_game("windmill")
    lengths = [play_deal(game, make_policy("random"), deal, root_seed=0).move_count for deal in range(1, 11)]
    assert min(lengths) >= 30, lengths  # before the fix most games ended as a repeat after 2-4 moves


def test_only_strict_games_keep_the_borrowed_counter():
    for name, params in (("la_belle_lucie", {}), ("trefoil", {}), ("windmill", {}), ("windmill", {"welford": True})):
        assert make_game(name, **params).rules[COUNTER_SLOTS] == N_COUNTERS - 1, (name, params)
    assert make_game("windmill", transfer="strict").rules[COUNTER_SLOTS] == N_COUNTERS
    assert make_game("beleaguered_castle").rules[COUNTER_SLOTS] == 0
    lucie = make_game("la_belle_lucie")
    array = lucie.initial_state(1).array
    assert array.shape == (lucie.rules[STATE_SIZE],)
    assert array[lucie.rules[OFFSET_COUNTERS] + COUNTER_REDEALS] == 2  # both redeals left
