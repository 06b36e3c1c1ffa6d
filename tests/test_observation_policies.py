"""No hidden card reaches a policy: in Castle of Indolence, two deals that differ
only in the squared cards under the reserve tops look the same to a player, so
every policy that sees only what a player sees must make the same moves in both
for as long as the two games still look the same. A policy that peeked under a
reserve top would, sooner or later, choose differently before anything showed."""

from __future__ import annotations

import numpy as np
import pytest
from user_policy_example import FoundationFirst

from simlab import make_game, make_policy
from simlab.engine.game import State
from simlab.engine.layout import CAPACITY, OFFSET_HEIGHTS
from simlab.play import deal_rng
from simlab.policies.base import Policy

GAME = make_game("castle_of_indolence")


def twin(state: State, seed: int) -> State:
    """``state`` with the cards under each reserve top shuffled among all of them."""
    rules, array = GAME.rules, state.array.copy()
    capacity, heights = int(rules[CAPACITY]), int(rules[OFFSET_HEIGHTS])
    slots = [GAME.pile_index[name] * capacity + i
             for name in GAME.pile_names if name.startswith("reserve")
             for i in range(int(array[heights + GAME.pile_index[name]]) - 1)]
    array[slots] = np.random.default_rng(seed).permutation(array[slots])
    return State(array)


def same_looking_prefix(moves_a, state_a: State, state_b: State) -> int:
    """How many of ``moves_a``, played in both games, are decided while every
    observation so far is the same in both."""
    for index, move in enumerate(moves_a):
        if GAME.observe(state_a) != GAME.observe(state_b):
            return index
        state_a, state_b = GAME.apply(state_a, move), GAME.apply(state_b, move)
    return len(moves_a)


class Peeker(Policy):
    """A deliberately cheating policy (the test's own control): prefers moving the
    reserve whose SECOND card is lowest, which only the full state shows."""

    name = "peeker"

    def play(self, game, state, rng):  # reads the state, as a cheat would
        self._state = state
        return super().play(game, state, rng)

    def choose(self, game, observation, moves, rng):
        cards = {m: game.pile_cards(self._state, m.source) for m in moves}
        return min(moves, key=lambda m: cards[m][-2] % 13 if len(cards[m]) > 1 else 99)


def play(policy: Policy, state: State, deal: int):
    return policy.play(GAME, state, deal_rng(deal, 0, "observation-test")).moves


@pytest.mark.parametrize("policy", [make_policy("random"), make_policy("greedy"), make_policy("heuristic"),
                                    make_policy("tap", random_tap=0.3), make_policy("greedy", play_on=True),
                                    FoundationFirst(give_up=False, max_moves=300)], ids=str)
@pytest.mark.parametrize("deal", [1, 2, 3, 40000])
def test_policies_decide_only_on_what_a_player_sees(policy, deal):
    state = GAME.initial_state(deal)
    other = twin(state, deal)
    assert other != state and GAME.observe(other) == GAME.observe(state)
    moves_a, moves_b = play(policy, state, deal), play(policy, other, deal)
    shared = same_looking_prefix(moves_a, state, other)
    assert shared >= 1
    assert moves_b[:shared] == moves_a[:shared]


def test_the_check_catches_a_policy_that_peeks():
    """The control: the same comparison fails for a policy that reads hidden cards."""
    caught = 0
    for deal in range(1, 11):
        state = GAME.initial_state(deal)
        other = twin(state, deal)
        peeker = Peeker(max_moves=50)
        moves_a = peeker.play(GAME, state, deal_rng(deal, 0, "t")).moves
        moves_b = peeker.play(GAME, other, deal_rng(deal, 0, "t")).moves
        shared = same_looking_prefix(moves_a, state, other)
        caught += moves_b[:shared] != moves_a[:shared]
    assert caught > 0
