"""The solver on Castle of Indolence: two decks, eight foundations regardless of
suit, reserves whose lower cards a player cannot see (so every verdict is
``thoughtful``). Verdicts are cross-checked against the plain reference search
of ``tests/reference_search.py`` (no pruning, no safe plays, its own visited
set) on real deals with the low cards already home."""

from __future__ import annotations

import numpy as np
import pytest
from reference_search import reference_verdict

from simlab import make_game, solve
from simlab.engine.layout import CAPACITY
from simlab.solver.replay import replays_to_win

GAME = make_game("castle_of_indolence")


def home_below(lowest: int) -> dict[str, list[int]]:
    """Eight foundations each holding one card of every rank below ``lowest``."""
    copies = [[c for c in range(104) if c % 13 == rank] for rank in range(lowest)]
    return {f"foundation{i}": [cards[i] for cards in copies] for i in range(8)}


def late_position(deal: int, lowest: int):
    """Deal ``deal`` with every card below rank index ``lowest`` home: foundation
    ``i`` holds one card of each of those ranks (any suits, as the rules allow);
    rows and reserves keep their other cards in dealt order."""
    home = home_below(lowest)
    placed = {card for cards in home.values() for card in cards}
    layout = {name: [c for c in cards if c not in placed] for name, cards in GAME.deal_piles(deal).items()}
    layout.update(home)
    return GAME.state_from_cards(layout)


def test_deal_1_is_won_by_a_line_the_rules_replay_and_labelled_thoughtful():
    result = solve(GAME, 1)
    assert result.verdict == "won" and result.information == "thoughtful"
    assert replays_to_win(GAME, GAME.initial_state(1), result.moves)


def shuffled_position(seed: int, lowest: int, row_cards: int):
    """Every card below rank index ``lowest`` home (one of each rank per
    foundation); the others shuffled, ``row_cards`` to each row and the rest
    round-robin to the reserves."""
    rng = np.random.default_rng(seed)
    layout = home_below(lowest)
    rest = [int(c) for c in rng.permutation([c for c in range(104) if c % 13 >= lowest])]
    for row in range(8):
        layout[f"row{row}"] = [rest.pop() for _ in range(row_cards)]
    for index, card in enumerate(reversed(rest)):
        layout.setdefault(f"reserve{index % 4}", []).append(card)
    return GAME.state_from_cards(layout)


@pytest.mark.parametrize(("lowest", "row_cards"), [(10, 1), (10, 2), (11, 1)])
def test_verdicts_agree_with_the_reference_search(lowest, row_cards):
    compared = 0
    for seed in range(12):
        state = shuffled_position(seed, lowest, row_cards)
        expected = reference_verdict(GAME, state, limit=30_000)
        if expected == "limit":
            continue
        result = solve(GAME, state, budget=200_000)
        assert result.verdict == expected, f"seed {seed}: {result.verdict} != {expected}"
        compared += 1
    assert compared >= 10


def jacks_buried(reserve0: str):
    """Foundations at T; eight queens, one per row; the jacks under kings in the reserves."""
    foundations = {f"foundation{i}": "A 2 3 4 5 6 7 8 9 T".split() for i in range(8)}
    suits = "CSHDCSHD"
    layout = {name: [rank + suits[i] for rank in ranks] for i, (name, ranks) in enumerate(foundations.items())}
    layout.update({f"row{i}": [f"Q{suits[i]}"] for i in range(8)})
    layout.update({"reserve0": reserve0, "reserve1": "JC JS JH JD KH KD",
                   "reserve2": "KC KS", "reserve3": "KH KD"})
    return GAME.state_from_piles(layout)


@pytest.mark.parametrize(("reserve0", "verdict"), [("JC JS JH JD KC KS", "lost"), ("JC JS JH KC KS JD", "won")])
def test_pinned_verdicts_of_both_searches(reserve0, verdict):
    state = jacks_buried(reserve0)
    assert reference_verdict(GAME, state) == verdict
    assert solve(GAME, state).verdict == verdict


def test_the_solver_sees_what_a_player_cannot():
    """Its verdict may depend on the squared reserve cards: two deals that look
    the same to a player can get different verdicts (here, at a small budget,
    different node counts at least)."""
    state = late_position(3, 7)  # a position the streamlined search does not win at once
    array = state.array.copy()
    rng = np.random.default_rng(0)
    capacity = int(GAME.rules[CAPACITY])
    reserve0 = GAME.pile_index["reserve0"] * capacity
    height = len(GAME.pile_cards(state, "reserve0"))
    array[reserve0: reserve0 + height - 1] = rng.permutation(array[reserve0: reserve0 + height - 1])
    from simlab.engine.game import State

    other = State(array)
    assert GAME.observe(other) == GAME.observe(state)
    one, two = solve(GAME, state, budget=50_000), solve(GAME, other, budget=50_000)
    assert (one.verdict, one.nodes) != (two.verdict, two.nodes)
