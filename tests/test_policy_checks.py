"""Every registered policy passes the policy checks (``simlab.testing.check_policy``), and the
checks can fail: a policy that peeks at hidden cards or at a redeal's shuffle, one whose record
does not replay, one that reads a global random generator, one that plays a seed two ways and
one that draws from its rng while saying it is not stochastic are each caught, with the
policy, the game and the deal named."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from user_policy_example import FoundationFirst

from simlab import POLICIES, make_game, make_policy
from simlab.engine.game import Move, Observation
from simlab.engine.moves import HIDDEN
from simlab.policies.base import Policy
from simlab.policies.catalog import UnplayableError
from simlab.policies.record import WON, PlayRecord
from simlab.testing import check_policy

# Open cards; cards dealt face down; a face-down stock; shuffles at a redeal.
GAMES = ("beleaguered_castle", "castle_of_indolence", "windmill", "la_belle_lucie")
# Small budgets for the policies that search (their checks are about honesty, not strength).
CHEAP = {
    "lookahead": {"budget": 100, "max_moves": 60},
    "relaxation_bound": {"samples": 1, "final_samples": 1, "round_budget": 2_000, "final_budget": 2_000},
    "round_max": {"round_budget": 2_000},
    "solver": {"budget": 20_000},
    "solver fair": {"mode": "fair", "samples": 2, "sample_budget": 500, "budget": 5_000,
                    "completion_budget": 300},
}


@pytest.mark.parametrize("label", [*POLICIES.names(), "solver fair"])
def test_every_registered_policy_passes_the_checks(label: str) -> None:
    policy = make_policy(label.split()[0], **CHEAP.get(label, {}))
    games = [name for name in GAMES if policy.cannot_play(make_game(name)) is None]
    assert len(games) >= 3
    check_policy(policy, games, deals=(1, 2))


# ----- the checks can fail ----------------------------------------------------------------


class Peeker(Policy):
    """Chooses by the first card it should not see (the deal's, kept from its start)."""

    name = "peeker"

    def play(self, game, state, rng):  # reads the state, as a cheat would
        self._hidden = state.array[game.observe(state).array == HIDDEN]
        return super().play(game, state, rng)

    def choose(self, game, observation, moves, rng):
        return moves[int(self._hidden[0]) % len(moves)]


class ShufflePeeker(Policy):
    """Chooses by the deal's next redeal shuffle (its chance tape), which no player knows."""

    name = "shuffle_peeker"

    def play(self, game, state, rng):
        self._next = state.chance[1]
        return super().play(game, state, rng)

    def choose(self, game, observation, moves, rng):
        return moves[int(self._next * 7919) % len(moves)]


@pytest.mark.parametrize(("cheat", "game", "what"), [
    (Peeker, "castle_of_indolence", "its hidden cards rotated"), (Peeker, "windmill", "its hidden cards rotated"),
    (ShufflePeeker, "la_belle_lucie", "another shuffle for its redeals")])
def test_a_policy_that_peeks_is_caught(cheat: type[Policy], game: str, what: str) -> None:
    with pytest.raises(AssertionError, match=f"policy '.*{cheat.__name__}', game {game} deal 1, {what}: a deal "
                                             "that looks the same to a player got another decision at move"):
        check_policy(cheat, game, deals=(1,))


class Boaster(Policy):
    """Plays at random and says it won."""

    name = "boaster"

    def choose(self, game, observation, moves, rng):
        return moves[rng.integers(len(moves))]

    def play(self, game, state, rng):
        record = super().play(game, state, rng)
        return PlayRecord(WON, WON, record.moves, record.cards_home)


class Teleporter(Policy):
    """Records a move no rule allows."""

    name = "teleporter"

    def play(self, game, state, rng):
        return PlayRecord("lost", "gave_up", [Move("row0", "row0")], game.cards_home(state))


class NoRepeat(Policy):
    """Says a position came back after one move."""

    name = "no_repeat"

    def play(self, game, state, rng):
        move = game.legal_moves(state)[0]
        return PlayRecord("lost", "repeat", [move], game.cards_home(game.apply(state, move)))


@pytest.mark.parametrize(("cheat", "message"), [(Boaster, "the record says won .* moves do not win"),
                                                (Teleporter, r"move 0 row0->row0 of the record is not legal"),
                                                (NoRepeat, "ended 'repeat' on a position not seen before")])
def test_a_record_that_does_not_replay_is_caught(cheat: type[Policy], message: str) -> None:
    with pytest.raises(AssertionError, match=f"beleaguered_castle deal 1: {message}"):
        check_policy(cheat, ["beleaguered_castle"], deals=(1,))


class GlobalNumpy(Policy):
    name = "global_numpy"

    def choose(self, game, observation, moves, rng):
        return moves[np.random.randint(len(moves))]  # noqa: NPY002  (the defect the check must catch)


class GlobalRandom(Policy):
    name = "global_random"

    def choose(self, game, observation, moves, rng):
        return moves[random.randrange(len(moves))]


@pytest.mark.parametrize("cheat", [GlobalNumpy, GlobalRandom])
def test_a_policy_that_reads_a_global_generator_is_caught(cheat: type[Policy]) -> None:
    with pytest.raises(AssertionError, match="changed with the global random state"):
        check_policy(cheat, "beleaguered_castle", deals=(1,))


class Unannounced(Policy):
    """Draws from its rng but keeps the default ``stochastic = False``: a ladder would play it once."""

    name = "unannounced"

    def choose(self, game, observation, moves, rng):
        return moves[rng.integers(len(moves))]


def test_a_policy_that_draws_from_rng_must_say_it_is_stochastic() -> None:
    with pytest.raises(AssertionError, match="another rng seed gave another record, but the policy says it is "
                                             "not stochastic"):
        check_policy(Unannounced, "beleaguered_castle", deals=(1,))

    class Announced(Unannounced):
        stochastic = True

    check_policy(Announced, "beleaguered_castle", deals=(1,))


class Forgetful(Policy):
    """Carries a counter from deal to deal: the same seed plays another game."""

    name = "forgetful"
    calls = itertools.count()

    def choose(self, game, observation, moves, rng):
        return moves[next(self.calls) % len(moves)]


def test_a_policy_that_plays_one_seed_two_ways_is_caught() -> None:
    with pytest.raises(AssertionError, match="the same seed gave another record"):
        check_policy(Forgetful, "beleaguered_castle", deals=(1,))


def test_the_checks_leave_the_global_random_state_as_it_was() -> None:
    random.seed(5)
    np.random.seed(5)  # noqa: NPY002
    check_policy("random", "beleaguered_castle", deals=(1,))
    assert random.random() == random.Random(5).random()
    assert np.random.random() == np.random.RandomState(5).random()  # noqa: NPY002


def test_a_game_the_policy_cannot_play_is_refused() -> None:
    with pytest.raises(UnplayableError, match="policy 'round_max' cannot play game 'windmill'"):
        check_policy("round_max", ["windmill"], deals=(1,))


def test_a_policy_that_only_sees_what_a_player_sees_passes_where_cards_are_hidden() -> None:
    """The control for the peekers: the same choice made from the observation passes."""

    class Honest(Policy):
        name = "honest"

        def choose(self, game, observation: Observation, moves, rng):
            shown = observation.array[observation.array >= 0]
            return moves[int(shown.sum()) % len(moves)]

    check_policy(Honest, ["castle_of_indolence", "windmill"], deals=(1, 2))


def test_the_example_user_policy_passes_the_checks() -> None:
    """The policy the README tells a user to write (user_policy_example) passes them as a built-in does."""
    check_policy(FoundationFirst, GAMES, deals=(1, 2))
