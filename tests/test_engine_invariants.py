"""Engine invariants, property-tested over EVERY registered game (games added later included).

From a deal drawn by hypothesis, a random playout (moves chosen by hypothesis) checks at
every step that no card is lost or duplicated, that every legal move applies, that
``apply`` never mutates its input, that ``is_won`` means "every card is on a
foundation", that dead ends and wins are handled, and that games and states survive
pickling with a stable ``position_hash``.

A pile counts as a foundation when its name starts with ``foundation`` (the naming
convention of ``Game.pile_names``).
"""

from __future__ import annotations

import pickle
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simlab import GAMES, make_game
from simlab.engine import State
from simlab.engine.game import REDEAL
from simlab.errors import IllegalMoveError

RANKS = "A23456789TJQK"
SUITS = "CSHD"
ONE_PACK = Counter(r + s for s in SUITS for r in RANKS)
GAME_NAMES = GAMES.names()
MAX_PLAYOUT = 150

# Both branches of the PySolFC generator: LCG below 32000, Mersenne Twister above.
deal_numbers = st.one_of(
    st.integers(min_value=1, max_value=31999),
    st.integers(min_value=32001, max_value=10**20),
)

PLAYOUT_SETTINGS = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def card_multiset(game, state) -> Counter:
    return Counter(card for cards in game.piles(state).values() for card in cards)


def foundation_count(game, state) -> int:
    return sum(len(cards) for name, cards in game.piles(state).items() if name.startswith("foundation"))


def snapshot(game, state):
    return state.array.tobytes(), game.piles(state)


def check_position(game, state, pack: Counter) -> list:
    """Every per-position invariant; returns the legal moves."""
    # no card lost or duplicated
    assert card_multiset(game, state) == pack
    # every pile of the game is reported
    assert list(game.piles(state)) == list(game.pile_names)

    legal = game.legal_moves(state)
    codes = game.legal_move_codes(state)
    assert len(codes) == len(legal)
    assert len(set(legal)) == len(legal), f"duplicate moves: {legal}"
    for move in legal:
        assert game.move_from_code(game.move_code(move)) == move
        if tuple(move) == REDEAL:
            continue
        source, destination = move
        pile = source.split("[")[0]  # a draw names the card's index: row3[1]
        assert pile in game.pile_names and destination in game.pile_names
        assert pile != destination
        assert game.piles(state)[pile], f"move {source}->{destination} from an empty pile"

    # won exactly when every card is on a foundation
    total = sum(pack.values())
    home = foundation_count(game, state)
    assert game.cards_home(state) == home
    assert game.is_won(state) == (home == total)
    if game.is_won(state):
        assert legal == [], "a won position should leave nothing to play"

    # every legal move applies, and apply never touches its input
    before = snapshot(game, state)
    before_hash = game.position_hash(state)
    for move in legal:
        after = game.apply(state, move)
        assert isinstance(after, State)
        assert snapshot(game, state) == before
        assert card_multiset(game, after) == pack
    assert game.position_hash(state) == before_hash

    # hash stable for equal states
    twin = State(state.array.copy(), state.chance)
    assert twin == state
    assert game.position_hash(twin) == before_hash
    return legal


def check_dead_end(game, state):
    """A position without legal moves: every move attempt raises and leaves the state alone."""
    assert len(game.legal_move_codes(state)) == 0
    before = snapshot(game, state)
    for source in game.pile_names:
        for destination in game.pile_names:
            with pytest.raises(IllegalMoveError):
                game.apply(state, (source, destination))
    assert snapshot(game, state) == before


def choose_move(data, legal):
    """A hypothesis-chosen move; foundation moves are usually preferred so playouts end."""
    home = [m for m in legal if m[1].startswith("foundation")]
    if home and data.draw(st.integers(0, 9), label="bias") < 9:
        return data.draw(st.sampled_from(home), label="home move")
    return data.draw(st.sampled_from(legal), label="move")


@pytest.mark.parametrize("game_name", GAME_NAMES, ids=GAME_NAMES)
@PLAYOUT_SETTINGS
@given(deal=deal_numbers, data=st.data())
def test_random_playout_invariants(game_name, deal, data):
    game = make_game(game_name)
    state = game.initial_state(deal)
    pack = card_multiset(game, state)
    # the deal holds whole packs: every one of the 52 cards the same number of times
    decks = sum(pack.values()) // 52
    assert decks >= 1
    assert pack == Counter({card: decks for card in ONE_PACK})

    for _ in range(MAX_PLAYOUT):
        legal = check_position(game, state, pack)
        if not legal:  # a dead end or a win
            check_dead_end(game, state)
            break
        state = game.apply(state, choose_move(data, legal))
    else:
        check_position(game, state, pack)


@pytest.mark.parametrize("game_name", GAME_NAMES, ids=GAME_NAMES)
def test_playouts_reach_an_end(game_name):
    """Seeded playouts (cards home first) until no move is left; ends are handled.
    Moves between foundations (Windmill's transfers, which can go back and
    forth for ever) are rare, so that the playouts end."""
    import random

    game = make_game(game_name)
    rng = random.Random(game_name)
    ends = 0
    for deal in range(1, 41):
        state = game.initial_state(deal)
        pack = card_multiset(game, state)
        for _ in range(1000):
            legal = game.legal_moves(state)
            if not legal:
                ends += 1
                check_position(game, state, pack)
                check_dead_end(game, state)
                assert game.is_won(state) == (game.cards_home(state) == sum(pack.values()))
                break
            home = [m for m in legal if m[1].startswith("foundation") and not m[0].startswith("foundation")]
            others = [m for m in legal if not m[0].startswith("foundation")] or legal
            state = game.apply(state, rng.choice(home) if home and rng.random() < 0.9 else rng.choice(
                legal if rng.random() < 0.1 else others))
    assert ends > 0, "no playout ended; the dead-end checks never ran"


@pytest.mark.parametrize("game_name", GAME_NAMES, ids=GAME_NAMES)
@settings(max_examples=8, deadline=None, derandomize=True)
@given(deal=deal_numbers, data=st.data())
def test_pickle_round_trip(game_name, deal, data):
    game = make_game(game_name)
    state = game.initial_state(deal)
    for _ in range(data.draw(st.integers(0, 15), label="steps")):
        legal = game.legal_moves(state)
        if not legal:
            break
        state = game.apply(state, data.draw(st.sampled_from(legal), label="move"))

    game2 = pickle.loads(pickle.dumps(game))
    state2 = pickle.loads(pickle.dumps(state))
    assert state2 == state
    assert state2.array.tobytes() == state.array.tobytes()
    assert game2.name == game.name and game2.params == game.params
    assert game2.pile_names == game.pile_names
    assert game2.piles(state2) == game.piles(state)
    assert game2.legal_moves(state2) == game.legal_moves(state)
    assert game2.position_hash(state2) == game.position_hash(state)
    assert game2.is_won(state2) == game.is_won(state)
    assert game2.cards_home(state2) == game.cards_home(state)
    assert game2.initial_state(deal) == game.initial_state(deal)
    for move in game.legal_moves(state):
        assert game2.apply(state2, move) == game.apply(state, move)


@pytest.mark.parametrize("game_name", GAME_NAMES, ids=GAME_NAMES)
@settings(max_examples=10, deadline=None, derandomize=True)
@given(deal=deal_numbers)
def test_position_hash_is_stable_for_equal_states(game_name, deal):
    game = make_game(game_name)
    first, second = game.initial_state(deal), game.initial_state(deal)
    assert first == second and hash(first) == hash(second)
    assert game.position_hash(first) == game.position_hash(second)
    assert game.position_hash(first) == game.position_hash(first)
    # reaching the same position by a move and its reverse gives the same hash
    for move in game.legal_moves(first):
        after = game.apply(first, move)
        back = (move[1], move[0])
        if back in game.legal_moves(after):
            restored = game.apply(after, back)
            if restored == first:
                assert game.position_hash(restored) == game.position_hash(first)
