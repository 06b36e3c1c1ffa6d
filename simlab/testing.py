"""``check_game``: the conformance suite every registered game passes.

It plays seeded random walks from a few deals and checks, at every position on
the way, the properties the policies, the solver and the experiments rely on:

- no card is lost or duplicated (each of the game's cards is in exactly one pile);
- every legal move applies, and undoing it (``simlab.engine.moves.unplay``)
  restores the state bit for bit; ``Game.apply`` leaves its input untouched;
- the hash kept move by move (``simlab.engine.incremental``, card moves) agrees
  with a fresh ``position_hash``;
- observations leak nothing: hidden slots read ``HIDDEN``, shuffling the hidden
  cards among themselves changes no observation, and a player's view has the
  same legal moves as the full state;
- replaying a move list gives the same positions every time, through the
  compiled kernels and through ``Game.apply``;
- the game, its states and its observations survive pickling.

A failure raises ``AssertionError`` naming the game, the deal, the move and the
property.
"""

from __future__ import annotations

import pickle
from collections import Counter

import numpy as np

from simlab.engine import kernel, moves
from simlab.engine.game import Game, State
from simlab.engine.incremental import apply_move_tracked, start_tracking, undo_move_tracked
from simlab.engine.layout import CAPACITY, HAS_SPECIAL, MOVE_CARD, N_PILES, P_VISIBLE, VISIBLE_ALL, VISIBLE_NONE


def check_game(game: Game, deals: tuple[int, ...] = (1, 2, 3), walk: int = 150, seed: int = 0) -> None:
    """Run the conformance checks on ``game`` (module docstring) from each of
    ``deals``, along a random walk of at most ``walk`` moves."""
    _check_pickling(game, game.initial_state(deals[0]))
    for deal in deals:
        rng = np.random.default_rng([seed, deal])
        state = game.initial_state(deal)
        played: list[int] = []
        for _ in range(walk):
            where = f"{game.name} deal {deal} after {len(played)} moves"
            _check_position(game, state, where, rng)
            codes = game.legal_move_codes(state)
            if len(codes) == 0:
                break
            code = int(codes[rng.integers(len(codes))])
            state = game.apply(state, game.move_from_code(code))
            played.append(code)
        _check_replay(game, deal, played)


def _check_position(game: Game, state: State, where: str, rng: np.random.Generator) -> None:
    _check_cards(game, state, where)
    _check_observation(game, state, where, rng)
    for code in game.legal_move_codes(state):
        _check_move(game, state, int(code), f"{where}, move {game.move_from_code(int(code))}")


def _check_cards(game: Game, state: State, where: str) -> None:
    held = Counter(card for name in game.pile_names for card in game.pile_cards(state, name))
    expected = Counter(range(game.table.n_cards))
    assert held == expected, f"{where}: cards lost {sorted(expected - held)}, duplicated {sorted(held - expected)}"


def _check_move(game: Game, state: State, code: int, where: str) -> None:
    rules = game.rules
    before = state.array.copy()
    after = game.apply(state, game.move_from_code(code))
    assert np.array_equal(state.array, before), f"{where}: Game.apply changed its input"
    _check_cards(game, after, where)
    array, record = state.array.copy(), np.empty_like(state.array)
    moves.play(rules, array, code, state.chance, record)
    assert np.array_equal(array, after.array), f"{where}: the kernel and Game.apply disagree"
    moves.unplay(rules, array, code, record)
    assert np.array_equal(array, before), f"{where}: undo does not restore the state bit for bit"
    if rules[HAS_SPECIAL] == 0 and kernel.move_kind(code) == MOVE_CARD:
        _check_tracked_hash(game, state, code, after, where)


def _check_tracked_hash(game: Game, state: State, code: int, after: State, where: str) -> None:
    rules = game.rules
    array = state.array.copy()
    pile_hashes = np.zeros(rules[N_PILES], dtype=np.uint64)
    card_piles = np.zeros(kernel.MAX_CARDS, dtype=np.int64)
    total = start_tracking(rules, array, kernel.ZOBRIST, pile_hashes, card_piles)
    assert total == kernel.position_hash(rules, array, kernel.ZOBRIST), f"{where}: start hash differs"
    total = apply_move_tracked(rules, array, code, kernel.ZOBRIST, pile_hashes, card_piles, np.uint64(total))
    fresh = kernel.position_hash(rules, after.array, kernel.ZOBRIST)
    assert total == fresh, f"{where}: the hash kept move by move differs from a fresh one"
    back = undo_move_tracked(rules, array, code, kernel.ZOBRIST, pile_hashes, card_piles, np.uint64(total))
    assert back == kernel.position_hash(rules, state.array, kernel.ZOBRIST), f"{where}: undone hash differs"


def _hidden_slots(game: Game, state: State) -> list[int]:
    """Array indices of the cards a player cannot see."""
    rules, capacity = game.rules, int(game.rules[CAPACITY])
    slots = []
    for pile, name in enumerate(game.pile_names):
        visible = kernel.spec(rules, pile, P_VISIBLE)
        if visible == VISIBLE_ALL:
            continue
        count = len(game.pile_cards(state, name)) - (0 if visible == VISIBLE_NONE else 1)
        slots += [pile * capacity + index for index in range(count)]
    return slots


def _check_observation(game: Game, state: State, where: str, rng: np.random.Generator) -> None:
    view = game.observe(state)
    slots = _hidden_slots(game, state)
    shown = np.delete(view.array, slots)
    assert np.array_equal(shown, np.delete(state.array, slots)), f"{where}: a visible card is not shown"
    assert all(view.array[slot] == moves.HIDDEN for slot in slots), f"{where}: a hidden card is shown"
    if len(slots) > 1:
        shuffled = state.array.copy()
        shuffled[slots] = rng.permutation(shuffled[slots])
        other = game.observe(State(shuffled, state.chance))
        assert other == view, f"{where}: the observation depends on where hidden cards are"
    assert sorted(game.legal_move_codes(view)) == sorted(game.legal_move_codes(state)), (
        f"{where}: a player's view has other legal moves than the position"
    )


def _check_replay(game: Game, deal: int, played: list[int]) -> None:
    runs = []
    for _ in range(2):
        state = game.initial_state(deal)
        array, record = state.array.copy(), np.empty_like(state.array)
        positions = [array.copy()]
        for code in played:
            moves.play(game.rules, array, code, state.chance, record)
            positions.append(array.copy())
        runs.append(positions)
    assert all(np.array_equal(a, b) for a, b in zip(*runs)), f"{game.name} deal {deal}: replay differs"
    state = game.initial_state(deal)
    for code, expected in zip(played, runs[0][1:]):
        state = game.apply(state, game.move_from_code(code))
        assert np.array_equal(state.array, expected), f"{game.name} deal {deal}: Game.apply replay differs"


def _check_pickling(game: Game, state: State) -> None:
    copy = pickle.loads(pickle.dumps(game))
    assert np.array_equal(copy.rules, game.rules), f"{game.name}: rules differ after pickling"
    assert pickle.loads(pickle.dumps(state)) == state, f"{game.name}: a state differs after pickling"
    view = game.observe(state)
    assert pickle.loads(pickle.dumps(view)) == view, f"{game.name}: an observation differs after pickling"


# --- the search plans' golden file: ``python -m simlab.testing plans [--write]`` ---------------
#
# Every registered game's search plan (``simlab.solver.plan``), and those of the rule sets
# ``benchmarks/compare_commits.py`` plays, in words: ``tests/golden/search_plans.txt``
# pins them (``tests/test_search_plans.py``), so a change to any plan shows as a reviewed
# diff. After a change that alters a plan on purpose: ``python -m simlab.testing plans --write``.

GOLDEN_PLANS = "tests/golden/search_plans.txt"  # in a checkout, from its root
# The rule sets beyond each game's defaults whose plans the golden file pins (the commit
# comparison's; ``tests/test_search_plans.py`` checks that it plays no other).
PLAN_RULE_SETS: tuple[tuple[str, dict], ...] = (
    ("citadel", {"deal": "hoyle"}),
    ("chessboard", {"tableau_wrap": False}),
    ("fan", {"deal": "round_robin", "foundation_return": True}),
    ("la_belle_lucie", {"draw": True}),
    ("trefoil", {"draw": True}),
    ("fan", {"foundation_return": False}),
    ("la_belle_lucie", {"foundation_return": True}),
    ("trefoil", {"foundation_return": True}),
    ("windmill", {"reversed": True}),
    ("windmill", {"transfer": "strict"}),
    ("windmill", {"transfer": "none"}),
    ("windmill", {"centre_to_king": False}),
    ("windmill", {"redeals": 1}),
    ("windmill", {"redeals": 2}),
    ("windmill", {"welford": True}),
)


def all_plans() -> list:
    """The ``SearchPlan`` of every registered game with its defaults (by name), then of
    each of ``PLAN_RULE_SETS`` not seen yet, in that order."""
    # imported here: ``check_game`` and ``check_policy`` need neither the registry nor the solver
    from simlab.games import GAMES, make_game  # noqa: PLC0415
    from simlab.solver.plan import plan_for  # noqa: PLC0415

    plans = {}
    for name, params in [(name, {}) for name in sorted(GAMES)] + list(PLAN_RULE_SETS):
        plan = plan_for(make_game(name, **params))
        plans.setdefault(plan.game, plan)
    return list(plans.values())


def plans_text() -> str:
    """The golden file's text: each plan's ``explain`` lines, a blank line after each."""
    return "".join("\n".join(plan.explain()) + "\n\n" for plan in all_plans())


def main(argv: list[str] | None = None) -> int:
    """``python -m simlab.testing plans``: print every plan (``all_plans``); with
    ``--write``, write them to the golden file (``GOLDEN_PLANS``, or the path given)."""
    import argparse  # noqa: PLC0415  (only the command needs it)
    import sys  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    parser = argparse.ArgumentParser(prog="python -m simlab.testing", description="simlab's test helpers")
    commands = parser.add_subparsers(dest="command", required=True)
    plans = commands.add_parser("plans", help="the search plan of every game, as pinned in " + GOLDEN_PLANS)
    plans.add_argument("--write", nargs="?", const=GOLDEN_PLANS, metavar="PATH", type=Path,
                       help=f"write them to the golden file (default {GOLDEN_PLANS}) instead of printing")
    args = parser.parse_args(argv)
    text = plans_text()
    if args.write is None:
        sys.stdout.write(text)
        return 0
    path = Path(args.write)
    if not path.parent.is_dir():
        parser.exit(2, f"python -m simlab.testing: {path.parent} is not a folder: run from the checkout's root "
                       "or give the golden file's path\n")
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
