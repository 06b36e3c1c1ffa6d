"""The cheap rungs of the ladder: ``tap``, ``greedy`` with ``play_on``, and
``Policy.is_stochastic``. (Every registered policy, these included, plays every
game and replays through the engine in ``test_policies.py``.)"""

from __future__ import annotations

import numpy as np
import pytest

from simlab import GAMES, make_game, make_policy, play_deal
from simlab.play import deal_rng
from simlab.policies.tap import tap_destination

ACES_HOME = {"foundation0": "AC", "foundation1": "AS", "foundation2": "AH", "foundation3": "AD"}
# Beleaguered Castle rows whose tops (KS, KH, ...) take nothing tested here, to fill the rows
# a test wants non-empty: kings build on nothing and nothing of interest builds on them.
KINGS = ("KS", "KH", "KD", "KC")


def castle(piles, game_name="beleaguered_castle", fill_rows=()):
    game = make_game(game_name)
    full = {**ACES_HOME, **piles}
    for row, king in zip(fill_rows, KINGS * 2, strict=False):
        full.setdefault(row, king)
    return game, game.state_from_piles(full)


def tap_to(game, state, pile_name):
    destination = tap_destination(game, state, game.pile_index[pile_name])
    return None if destination is None else game.pile_names[destination]


# ----- where a tapped card goes ---------------------------------------------------------


def test_a_safe_card_goes_home_before_onto_a_row():
    # 2C is safe (every foundation holds an ace); it could also go on 3H.
    game, state = castle({"row0": "QS 2C", "row1": "QD 3H"})
    assert tap_to(game, state, "row0") == "foundation0"


def test_an_unsafe_card_builds_on_a_card_one_higher_of_its_own_suit_first():
    # 3C may go home (2C is there) but is not safe (foundation1..3 hold only aces):
    # it goes on a 4, the clubs one although the hearts one comes first.
    game, state = castle({"foundation0": "AC 2C", "row0": "QS 3C", "row1": "QD 4H", "row2": "QH 4C"})
    assert tap_to(game, state, "row0") == "row2"
    game, state = castle({"foundation0": "AC 2C", "row0": "QS 3C", "row1": "QD 4H"})
    assert tap_to(game, state, "row0") == "row1"


def test_with_no_card_to_build_on_it_goes_to_an_empty_row_then_unsafely_home():
    rows = [f"row{i}" for i in range(8)]
    game, state = castle({"foundation0": "AC 2C", "row0": "QS 3C"}, fill_rows=rows[1:7])
    assert tap_to(game, state, "row0") == "row7"  # the one empty row
    game, state = castle({"foundation0": "AC 2C", "row0": "QS 3C"}, fill_rows=rows[1:])
    assert tap_to(game, state, "row0") == "foundation0"  # the double tap, a last resort


def test_a_free_cell_comes_before_an_empty_row():
    # Siegecraft: Beleaguered Castle plus one free cell.
    rows = [f"row{i}" for i in range(8)]
    game, state = castle({"row0": "QS 7C"}, game_name="siegecraft", fill_rows=rows[1:7])
    assert tap_to(game, state, "row0") == "cell0"
    game, state = castle({"row0": "QS 7C", "cell0": "9D"}, game_name="siegecraft", fill_rows=rows[1:7])
    assert tap_to(game, state, "row0") == "row7"


def test_taps_that_do_nothing():
    rows = [f"row{i}" for i in range(8)]
    game, state = castle({"row0": "7C"}, fill_rows=rows[1:7])  # a lone card, an empty row7
    assert tap_to(game, state, "row0") is None
    assert tap_to(game, state, "row7") is None  # an empty pile
    assert tap_to(game, state, "foundation0") is None  # a foundation
    game, state = castle({"row0": "QS 7C"}, fill_rows=rows[1:])
    assert tap_to(game, state, "row0") is None  # nowhere to go
    with pytest.raises(IndexError):
        tap_destination(game, state, len(game.pile_names))


def app_destination(game, state, row):
    """The app's wording, read literally for Beleaguered Castle (an oracle written apart from
    the policy): a foundation when safe (every foundation holds the rank below), otherwise a
    card one rank higher (of the same suit if there is one), otherwise an empty column, and
    (the double tap) a foundation that is not safe."""
    piles = game.piles(state)
    if not piles[row]:
        return None
    card = piles[row][-1]
    ranks = "A23456789TJQK"
    rank, suit = ranks.index(card[0]), card[1]
    foundations = [f"foundation{i}" for i in range(4)]
    home = next((f for f in foundations if len(piles[f]) == rank and piles[f][0][1] == suit), None)
    if home and all(len(piles[f]) >= rank for f in foundations):
        return home
    higher = [r for r in game.pile_names if r.startswith("row") and r != row and piles[r]
              and ranks.index(piles[r][-1][0]) == rank + 1]
    same = [r for r in higher if piles[r][-1][1] == suit]
    if same or higher:
        return (same or higher)[0]
    empty = [r for r in game.pile_names if r.startswith("row") and not piles[r]]
    if empty and len(piles[row]) > 1:
        return empty[0]
    return home


def test_tap_destination_follows_the_apps_wording_on_drawn_positions():
    game = make_game("beleaguered_castle")
    rng = np.random.default_rng(22)
    checked = 0
    for deal in range(1, 31):
        state = game.initial_state(deal)
        for _ in range(int(rng.integers(0, 40))):  # a random walk from the deal
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, moves[int(rng.integers(len(moves)))])
        for row in (name for name in game.pile_names if name.startswith("row")):
            assert tap_to(game, state, row) == app_destination(game, state, row), (deal, row, game.piles(state))
            checked += 1
    assert checked == 30 * 8


@pytest.mark.parametrize("game_name", GAMES.names())
def test_every_tap_destination_is_a_legal_move(game_name):
    game = make_game(game_name)
    for deal in (1, 2):
        state = game.initial_state(deal)
        legal = set(game.legal_moves(game.observe(state)))
        for pile, name in enumerate(game.pile_names):
            destination = tap_destination(game, state, pile)
            if destination is not None:
                assert (name, game.pile_names[destination]) in legal


# ----- the tap player -------------------------------------------------------------------


def test_the_tap_player_plays_only_taps():
    game = make_game("citadel")
    policy = make_policy("tap")
    for deal in range(1, 6):
        state = game.initial_state(deal)
        for move in play_deal(game, policy, deal).moves:
            assert game.pile_names[tap_destination(game, state, game.pile_index[move.source])] == move.destination
            state = game.apply(state, move)


@pytest.mark.parametrize("game_name", ["beleaguered_castle", "stronghold", "fan", "chessboard"])
def test_tap_and_play_on_never_repeat_a_position(game_name):
    game = make_game(game_name)
    for policy in (make_policy("tap", random_tap=0.5), make_policy("greedy", play_on=True)):
        for deal in range(1, 6):
            states = [game.initial_state(deal)]
            for move in play_deal(game, policy, deal).moves:
                states.append(game.apply(states[-1], move))
            hashes = [game.position_hash(s) for s in states]
            assert len(set(hashes)) == len(hashes), (policy, deal)


def test_random_taps_depend_on_the_seed_and_plain_taps_may_not():
    game = make_game("streets_and_alleys")
    noisy = make_policy("tap", random_tap=0.3)
    plain = make_policy("tap", random_ties=False)
    assert any(play_deal(game, noisy, d, root_seed=0).moves != play_deal(game, noisy, d, root_seed=1).moves
               for d in range(1, 6))
    for deal in range(1, 6):
        assert play_deal(game, plain, deal, root_seed=0) == play_deal(game, plain, deal, root_seed=1)


# ----- greedy play_on ---------------------------------------------------------------------


def test_play_on_keeps_playing_where_greedy_gives_up():
    game = make_game("beleaguered_castle")
    greedy, play_on = make_policy("greedy"), make_policy("greedy", play_on=True)
    longer = 0
    for deal in range(1, 11):
        plain, on = play_deal(game, greedy, deal), play_deal(game, play_on, deal)
        assert on.moves[: plain.move_count] == plain.moves  # the same game up to where greedy gives up
        longer += on.move_count > plain.move_count
    assert longer >= 5


def test_greedy_without_play_on_ignores_the_rng():
    game = make_game("citadel")
    policy = make_policy("greedy")
    state = game.initial_state(3)
    assert policy.play(game, state, deal_rng(3, 0, "a")) == policy.play(game, state, deal_rng(3, 0, "b"))


# ----- which policies are stochastic ------------------------------------------------------


def test_is_stochastic_follows_the_parameters():
    assert make_policy("random").is_stochastic()
    assert not make_policy("greedy").is_stochastic()
    assert make_policy("greedy", play_on=True).is_stochastic()
    assert not make_policy("heuristic").is_stochastic()
    assert make_policy("tap").is_stochastic()  # ties broken at random
    assert not make_policy("tap", random_ties=False).is_stochastic()
    assert make_policy("tap", random_ties=False, random_tap=0.1).is_stochastic()
    assert not make_policy("solver").is_stochastic()
    assert make_policy("solver", mode="fair").is_stochastic()


def test_fair_solver_is_stochastic_only_where_it_samples():
    """Fair mode in an open game is the plain solve: it reads no random number, so a
    ladder must not replay that rung ``tries`` times for identical records."""
    fair = make_policy("solver", mode="fair", budget=3000)
    for name in ("beleaguered_castle", "fortress"):
        game = make_game(name)
        assert not fair.is_stochastic(game), name
        state = game.initial_state(2)
        assert fair.play(game, state, deal_rng(2, 0, "a")) == fair.play(game, state, deal_rng(2, 0, "b"))
    assert fair.is_stochastic(make_game("la_belle_lucie"))  # shuffles of its own at each redeal
    assert fair.is_stochastic(make_game("windmill"))  # samples the face-down stock


# ----- every game, replayed through the engine ------------------------------------------

PLAYERS = [("tap", {"random_tap": 0.2}), ("greedy", {"play_on": True})]


@pytest.mark.parametrize(("policy_name", "params"), PLAYERS)
@pytest.mark.parametrize("game_name", GAMES.names())
def test_the_new_settings_play_every_game(game_name, policy_name, params):
    from test_policies import check_record  # tests/ is on sys.path under pytest

    game = make_game(game_name)
    for deal in (1, 2):
        check_record(game, deal, play_deal(game, make_policy(policy_name, **params), deal, root_seed=7))


# ----- the heuristic's per-family features -------------------------------------------------


def early_take_backs(policy, game, deals):
    """How many times ``policy`` took a card off a foundation although another
    card move led to a position not seen before."""
    early = 0
    for deal in deals:
        state = game.initial_state(deal)
        seen = {game.position_hash(state)}
        for move in play_deal(game, policy, deal).moves:
            if move.source.startswith("foundation"):
                others = [m for m in game.legal_moves(state) if not m.source.startswith("foundation")]
                early += any(game.position_hash(game.apply(state, m)) not in seen for m in others)
            state = game.apply(state, move)
            seen.add(game.position_hash(state))
    return early


def test_the_heuristic_takes_a_card_back_from_a_foundation_only_as_a_last_resort():
    game = make_game("fan")
    deals = range(1, 16)
    assert early_take_backs(make_policy("heuristic"), game, deals) == 0
    assert early_take_backs(make_policy("heuristic", take_back=0.0, fan_empty_row=1200.0), game, deals) > 0


def test_the_heuristic_weighs_windmill_moves_where_greedy_takes_the_first():
    game = make_game("windmill")
    heuristic, greedy = make_policy("heuristic"), make_policy("heuristic", mobility=0.0, centre=0.0)
    # with both weights 0 every move scores alike, and the first (greedy's) is played
    assert all(play_deal(game, greedy, d).moves == play_deal(game, make_policy("greedy"), d).moves
               for d in range(1, 4))
    assert any(play_deal(game, heuristic, d).moves != play_deal(game, greedy, d).moves for d in range(1, 4))
