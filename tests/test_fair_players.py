"""The fair players of issue 14 (solver mode=fair, round_max, random, greedy, heuristic) on La
Belle Lucie, Trefoil and Fan, written from the issue, docs/rules.md s.9 and the policies'
documented contracts (``help()``), without reading their implementation.

- Never peek: two States with the SAME array but different chance tapes (the deal's real tape,
  another deal's tape of the same generator, a fabricated tape of that format) are the same
  position to a player; a fair policy given the same rng seed must make the same moves up to
  and including its first redeal (then the layouts differ). The thoughtful solver, which may
  peek, is shown to differ on some deal, so the check can fail.
- Records: moves replay through ``game.apply`` from the real start, a "won" record ends won,
  ``cards_home`` matches; round_max's first round reaches the most cards home that an
  exhaustive search of the round (every move but a redeal) can reach; fair players are
  deterministic for a seed; a deal a fair player wins is never "lost" for the thoughtful solver.
- random/greedy/heuristic redeal (and draw) only when no card move is left, and stop "stuck"
  only with no legal move left (La Belle Lucie / Trefoil: greedy's documented exclusions, a card
  that already sits where it belongs or a move back to a seen position, never apply there, since
  a card only moves onto its one successor or home).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simlab import make_game, solve
from simlab.deals import chance_tape
from simlab.policies.catalog import make_policy

REDEAL = ("redeal", "rows")
TAPE_LENGTH = 102
RANKS = "A23456789TJQK"
SUITS = "CSHD"

FAIR = {
    "round_max": {"round_budget": 20_000},
    "fair_solver": {"mode": "fair", "samples": 2, "sample_budget": 500, "budget": 5_000},
    "random": {},
    "greedy": {},
    "heuristic": {},
    "tap": {},
}


def policy(label):
    return make_policy("solver" if label == "fair_solver" else label, **FAIR[label])


def play(label, game, state, seed=7, **params):
    if label == "thoughtful":
        return make_policy("solver", mode="thoughtful", budget=50_000).play(game, state, np.random.default_rng(seed))
    chosen = make_policy("solver" if label == "fair_solver" else label, **{**FAIR[label], **params})
    return chosen.play(game, state, np.random.default_rng(seed))


def through_first_redeal(moves):
    out = []
    for move in moves:
        out.append(tuple(move))
        if tuple(move) == REDEAL:
            break
    return out


def is_draw(move):
    return "[" in move[0]


def fabricated_tape(like, seed):
    """A tape in ``like``'s format: element 0 names the generator, then raw 15-bit LCG values or
    Mersenne-Twister random() values."""
    rnd = np.random.default_rng(seed)
    tape = np.empty_like(like)
    tape[0] = like[0]
    if like[0] == 0.0:
        tape[1:] = rnd.integers(0, 32768, size=len(like) - 1)
    else:
        tape[1:] = rnd.random(len(like) - 1)
    return tape


def other_tapes(deal, state):
    other = deal + 1000 if deal < 31000 else deal + 1
    yield dataclasses.replace(state, chance=chance_tape(other, 1, len(state.chance) - 1))
    yield dataclasses.replace(state, chance=fabricated_tape(state.chance, deal))


def replay(game, state, moves):
    """Replay through game.apply, checking each move is legal; the list of states."""
    states = [state]
    for i, move in enumerate(moves):
        assert tuple(move) in {tuple(m) for m in game.legal_moves(state)}, (i, move)
        state = game.apply(state, move)
        states.append(state)
    return states


# --------------------------------------------------------------------------------------
# Never peek
# --------------------------------------------------------------------------------------
CHEAP = ["round_max", "random", "greedy", "heuristic", "tap"]


@pytest.mark.parametrize("label", CHEAP)
def test_cheap_fair_players_never_peek(label):
    # round_max with a smaller round budget (its choice must still not depend on the tape)
    params = {"round_budget": 3_000} if label == "round_max" else {}
    for name, draw in (("la_belle_lucie", False), ("la_belle_lucie", True), ("trefoil", False)):
        game = make_game(name, redeals=2, draw=draw)
        for deal in (1, 2, 3, 4, 6, 8, 40001):
            real = game.initial_state(deal)
            seen = through_first_redeal(play(label, game, real, **params).moves)
            for other in other_tapes(deal, real):
                assert np.array_equal(other.array, real.array)
                got = through_first_redeal(play(label, game, other, **params).moves)
                assert got == seen, (label, name, draw, deal)


@pytest.mark.parametrize(("name", "draw", "deals"), [
    ("la_belle_lucie", False, (3, 9, 11)), ("la_belle_lucie", True, (16, 21, 40002)), ("trefoil", False, (12, 16, 22)),
])
def test_fair_solver_never_peeks(name, draw, deals):
    game = make_game(name, redeals=2, draw=draw)
    redealt = 0
    for deal in deals:
        real = game.initial_state(deal)
        seen = through_first_redeal(play("fair_solver", game, real).moves)
        redealt += REDEAL in seen
        for other in other_tapes(deal, real):
            assert through_first_redeal(play("fair_solver", game, other).moves) == seen, (name, deal)
    assert redealt >= 1  # the first round really ended in a redeal chosen without the tape


def test_fair_solver_never_peeks_after_a_real_redeal():
    game = make_game("la_belle_lucie", redeals=2, draw=True)
    for deal in (3, 21):
        after = game.apply(game.initial_state(deal), REDEAL)
        seen = through_first_redeal(play("fair_solver", game, after).moves)
        for other in other_tapes(deal, after):
            assert through_first_redeal(play("fair_solver", game, other).moves) == seen, deal


@pytest.mark.parametrize("label", CHEAP)
def test_fair_players_never_peek_after_a_real_redeal(label):
    """From the position after the deal's first real redeal (tape partly used, one redeal left):
    the same array with another tape's remaining numbers gives the same moves up to the next redeal."""
    game = make_game("la_belle_lucie", redeals=2, draw=True)
    for deal in (1, 2, 5, 40001):
        after = game.apply(game.initial_state(deal), REDEAL)
        params = {"round_budget": 3_000} if label == "round_max" else {}
        seen = through_first_redeal(play(label, game, after, **params).moves)
        for other in other_tapes(deal, after):
            assert through_first_redeal(play(label, game, other, **params).moves) == seen, (label, deal)


def test_the_check_can_fail_the_thoughtful_solver_peeks():
    game = make_game("la_belle_lucie", redeals=2, draw=False)
    solver = make_policy("solver", mode="thoughtful", budget=50_000)
    assert solver.sees_everything
    assert not any(policy(label).sees_everything for label in FAIR)
    differs = 0
    for deal in (1, 2, 3, 4, 6, 8):
        real = game.initial_state(deal)
        other = next(other_tapes(deal, real))
        a = solver.play(game, real, np.random.default_rng(7))
        b = solver.play(game, other, np.random.default_rng(7))
        differs += through_first_redeal(a.moves) != through_first_redeal(b.moves)
    assert differs >= 1


# --------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("label", [*FAIR, "thoughtful"])
def test_records_replay_from_the_real_start(label):
    games = [make_game("la_belle_lucie"), make_game("trefoil"), make_game("la_belle_lucie", draw=True),
             make_game("fan", deal="round_robin", foundation_return=True)]
    deals = (3, 9, 11) if label == "fair_solver" else (1, 2, 3, 4, 5, 6)
    for game in games:
        for deal in deals:
            start = game.initial_state(deal)
            record = play(label, game, start)
            assert record.verdict in {"won", "lost", "unknown"}
            end = replay(game, start, record.moves)[-1]
            assert game.cards_home(end) == record.cards_home, (label, game, deal)
            assert (record.verdict == "won") == game.is_won(end), (label, game, deal)
            if record.verdict == "won":
                assert record.end_reason == "won"
                # a win a fair player found is a win the thoughtful solver may not call lost
                assert solve(game, start, budget=50_000).verdict != "lost", (label, game, deal)


@pytest.mark.parametrize("label", ["round_max", "fair_solver", "random", "greedy", "heuristic"])
def test_deterministic_for_a_seed(label):
    game = make_game("la_belle_lucie")
    for deal in (3, 11):
        start = game.initial_state(deal)
        a, b = play(label, game, start, seed=3), play(label, game, start, seed=3)
        assert (a.verdict, a.end_reason, a.moves, a.cards_home) == (b.verdict, b.end_reason, b.moves, b.cards_home)


def foundation_text(heights):
    return {f"foundation{s}": " ".join(RANKS[r] + SUITS[s] for r in range(h)) for s, h in enumerate(heights) if h}


def best_home_in_round(game, state, limit=200_000):
    """Exhaustive search of the round: every move but a redeal; the most cards home reachable."""
    best = game.cards_home(state)
    seen = {state.array.tobytes()}
    stack = [state]
    while stack:
        current = stack.pop()
        best = max(best, game.cards_home(current))
        for move in game.legal_moves(current):
            if tuple(move) == REDEAL:
                continue
            after = game.apply(current, move)
            key = after.array.tobytes()
            if key not in seen:
                seen.add(key)
                assert len(seen) < limit
                stack.append(after)
    return best


# Drawn La Belle Lucie / Trefoil positions (fans, foundation heights C S H D, tape's deal)
ROUND_POSITIONS = [
    ("la_belle_lucie", {"row0": "KC QC KS 9D", "row1": "7D QD KD", "row2": "TD", "row3": "JC JD 8D"},
     (10, 12, 13, 6), 5),
    ("la_belle_lucie", {"row0": "6D 4D JD", "row1": "QD 8D 3D", "row2": "9D 7D 5D", "row3": "TD KD", "row4": "KH"},
     (13, 13, 12, 2), 9),
    ("la_belle_lucie", {"row0": "8C 5C TC", "row1": "KC 7C QC", "row2": "3C 4C 9C", "row3": "2C JC 6C"},
     (1, 13, 13, 13), 40001),
    ("la_belle_lucie", {"row0": "KC QC KS", "row1": "KH QH", "row2": "TD QD JH KD", "row3": "QS JD"},
     (11, 11, 10, 9), 617),
    ("trefoil", {"row0": "JC JD TD", "row1": "KC KD", "row2": "QD TC QC"}, (9, 13, 13, 9), 9),
    ("trefoil", {"row0": "QH JS KH", "row1": "JH KC QS", "row2": "9S KS TS TH"}, (12, 8, 9, 13), 617),
]


@pytest.mark.parametrize("position", ROUND_POSITIONS)
@pytest.mark.parametrize(("redeals", "draw"), [(0, False), (0, True), (1, False), (2, True)])
def test_round_max_plays_the_round_with_most_cards_home(position, redeals, draw):
    name, rows, heights, deal = position
    game = make_game(name, redeals=redeals, draw=draw)
    state = dataclasses.replace(game.state_from_piles({**rows, **foundation_text(heights)}),
                                chance=chance_tape(deal, 1, TAPE_LENGTH))
    record = play("round_max", game, state)
    states = replay(game, state, record.moves)
    first = next((i for i, m in enumerate(record.moves) if tuple(m) == REDEAL), len(record.moves))
    assert game.cards_home(states[first]) == best_home_in_round(game, state), (name, redeals, draw, deal)
    if redeals:
        # it redeals while it may (unless the round already won)
        assert first < len(record.moves) or game.is_won(states[-1])
    # every later round too
    for i, move in enumerate(record.moves):
        if tuple(move) == REDEAL:
            later = [j for j in range(i + 1, len(record.moves)) if tuple(record.moves[j]) == REDEAL]
            nxt = later[0] if later else len(record.moves)
            assert game.cards_home(states[nxt]) == best_home_in_round(game, states[i + 1]), (name, i)


@pytest.mark.parametrize("position", ROUND_POSITIONS)
def test_fair_solver_exact_when_nothing_is_unknown(position):
    """With no redeal left the fair solver solves outright: its verdict is the exhaustive one.
    With a redeal left, a win needing no redeal is played."""
    name, rows, heights, deal = position
    piles = {**rows, **foundation_text(heights)}
    for draw in (False, True):
        game = make_game(name, redeals=0, draw=draw)
        state = dataclasses.replace(game.state_from_piles(piles), chance=chance_tape(deal, 1, TAPE_LENGTH))
        best = best_home_in_round(game, state)
        record = play("fair_solver", game, state)
        assert record.verdict == ("won" if best == 52 else "lost"), (name, draw)
        replay(game, state, record.moves)
        for redeals in (1, 2):
            game = make_game(name, redeals=redeals, draw=draw)
            state = dataclasses.replace(game.state_from_piles(piles), chance=chance_tape(deal, 1, TAPE_LENGTH))
            if best_home_in_round(game, state) == 52:
                assert play("fair_solver", game, state).verdict == "won"
                assert play("round_max", game, state).verdict == "won"


# --------------------------------------------------------------------------------------
# random / greedy / heuristic: redeal and draw only when stuck
# --------------------------------------------------------------------------------------
def card_moves(game, state):
    return [tuple(m) for m in game.legal_moves(state) if tuple(m) != REDEAL and not is_draw(tuple(m))]


@pytest.mark.parametrize("label", ["random", "greedy", "heuristic", "tap"])
@pytest.mark.parametrize(("name", "draw"), [("la_belle_lucie", False), ("la_belle_lucie", True),
                                            ("trefoil", False), ("trefoil", True)])
def test_redeal_and_draw_only_when_no_card_move_is_left(label, name, draw):
    game = make_game(name, redeals=2, draw=draw)
    redeals = draws = 0
    for deal in range(1, 16):
        start = game.initial_state(deal)
        record = play(label, game, start, seed=deal)
        states = replay(game, start, record.moves)
        for i, move in enumerate(record.moves):
            move = tuple(move)
            if move == REDEAL or is_draw(move):
                assert card_moves(game, states[i]) == [], (label, name, deal, i, move)
            if is_draw(move):
                assert REDEAL not in {tuple(m) for m in game.legal_moves(states[i])}
            redeals += move == REDEAL
            draws += is_draw(move)
        # these players redeal and draw whenever they may, so they stop only where the rules allow no move
        assert record.end_reason in {"won", "no_moves"}, (label, name, deal, record.end_reason)
        if record.end_reason == "no_moves":
            assert list(game.legal_moves(states[-1])) == [], (label, name, deal)
    assert redeals >= 15
    if draw:
        assert draws >= 1


def canonical(game, state):
    piles = game.piles(state)
    rows = sorted(tuple(cards) for name, cards in piles.items() if name.startswith("row"))
    return tuple(rows), tuple(tuple(piles[f"foundation{i}"]) for i in range(4))


@pytest.mark.parametrize("label", ["random", "greedy", "heuristic", "tap"])
@pytest.mark.parametrize("foundation_return", [False, True])
def test_fan_players_finish_and_replay(label, foundation_return):
    game = make_game("fan", deal="round_robin", foundation_return=foundation_return)
    for deal in range(1, 11):
        start = game.initial_state(deal)
        record = play(label, game, start, seed=deal)
        states = replay(game, start, record.moves)
        # Fan has no redeal: its fans are interchangeable, a repeat is the same fans in any order
        keys = [canonical(game, s) for s in states]
        assert record.end_reason in {"won", "no_moves", "gave_up", "repeat", "move_cap"}
        if record.end_reason == "repeat":
            assert keys[-1] in keys[:-1]
        if record.end_reason == "no_moves":
            assert list(game.legal_moves(states[-1])) == [], (label, deal)
        if record.end_reason == "gave_up":
            assert list(game.legal_moves(states[-1])), (label, deal)
        if record.end_reason == "gave_up" and label not in ("greedy", "tap"):
            # every card move left would bring back a position seen in this game
            for move in game.legal_moves(states[-1]):
                assert canonical(game, game.apply(states[-1], move)) in keys, (label, deal, move)
        assert not any(tuple(m) == REDEAL or is_draw(tuple(m)) for m in record.moves)


def test_the_fair_solver_plays_castle_of_indolence_without_seeing_its_reserves():
    """In Castle of Indolence the thoughtful solver sees the squared reserve cards; fair mode
    samples them (``simlab.solver.sampling``, tested in tests/test_fair_sampling.py) and is
    labelled fair."""
    game = make_game("castle_of_indolence")
    policy = make_policy("solver", mode="fair", samples=2, completion_budget=1_000, max_moves=5)
    assert not policy.sees_everything
    record = policy.play(game, game.initial_state(1), np.random.default_rng(0))
    assert record.verdict in {"lost", "unknown"} and 1 <= len(record.moves) <= 5
