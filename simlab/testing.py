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

``check_policy``: the checks every policy passes, built-in or a user's. From a few
deals of each game it plays the policy (with the deal's own generator,
``simlab.play.deal_rng``) and checks that:

- the record replays: every move is legal where it is made (through ``Game.apply``),
  a ``won`` ends won and a replay that wins is recorded ``won``, ``cards_home`` is the
  replay's, ``no_moves`` ends with no legal move, ``gave_up`` with some left and ``repeat``
  on a position seen before;
- the same generator seed gives the same record; another seed too, where the policy
  says it is not stochastic in the game (``Policy.is_stochastic``: a ladder then plays
  it once per deal);
- the global random state changes nothing: numpy's legacy global generator
  (``np.random``) and Python's ``random`` seeded with other values between two plays;
- where the game hides something (cards dealt face down, a redeal's shuffle), the
  policy decides on what a player sees: from a twin deal that looks the same (its
  hidden cards rotated among their places, another shuffle for its redeals) it makes
  the same moves for as long as the two games look the same. A policy that declares
  it reads the whole position (``Policy.sees_everything``: the thoughtful solver, the
  information relaxation) is exempt from this one.

A failure raises ``AssertionError`` naming the policy, the game, the deal and the
property; a policy that cannot play a game (``Policy.cannot_play``) raises
``simlab.policies.catalog.UnplayableError``.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import fields

import numpy as np

from simlab.engine import kernel, moves
from simlab.engine.game import Game, Move, State
from simlab.engine.incremental import apply_move_tracked, start_tracking, undo_move_tracked
from simlab.engine.layout import CAPACITY, HAS_SPECIAL, MOVE_CARD, N_PILES, P_VISIBLE, VISIBLE_ALL, VISIBLE_NONE
from simlab.games import GAMES, make_game
from simlab.play import deal_rng
from simlab.policies.base import Policy
from simlab.policies.catalog import make_policy, refuse_unplayable
from simlab.policies.record import GAVE_UP, NO_MOVES, WON, PlayRecord
from simlab.solver.plan import plan_for

REPEAT = "repeat"  # PlayRecord.end_reason of a position that came back


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


def check_policy(policy: Policy | type[Policy] | str, games: Iterable[Game | str] | Game | str,
                 deals: tuple[int, ...] = (1, 2, 3), seed: int = 0) -> None:
    """Run the policy checks (module docstring) on ``policy`` (a ``Policy``, its class or a registered
    name) in each of ``games`` (``Game`` objects or registered names, or one of them),
    from each of ``deals``, with the generators of root seed ``seed``. It plays each deal three
    to six times: give a policy that searches a small budget."""
    policy = make_policy(policy)
    for game in [games] if isinstance(games, (Game, str)) else games:
        game = make_game(game)
        refuse_unplayable(policy, game)
        for deal in deals:
            _check_policy_deal(policy, game, deal, seed)


def _check_policy_deal(policy: Policy, game: Game, deal: int, seed: int) -> None:
    where = f"policy {_policy_label(policy)}, game {game.name} deal {deal}"
    state = game.initial_state(deal)

    def play(start: State, poison: int, attempt: int = 0) -> PlayRecord:
        with _global_random_state(poison):
            return policy.play(game, start, deal_rng(deal, seed, f"policy:{policy.registered_name}", attempt))

    record = play(state, 1)
    _check_record(game, state, record, where)
    _check_same_record(record, play(state, 1), f"{where}: the same seed gave another record")
    _check_same_record(record, play(state, 2), f"{where}: the record changed with the global random state "
                                               "(np.random or random): the policy reads a global generator, "
                                               "not its rng")
    if not policy.is_stochastic(game):
        _check_same_record(record, play(state, 1, attempt=1), f"{where}: another rng seed gave another "
                                                              "record, but the policy says it is not stochastic "
                                                              "(set its class's stochastic = True)")
    if not policy.sees_everything:  # the thoughtful solver, the relaxation: they say they read everything
        for twin, hidden in _twins(game, state, seed, deal):
            _check_looks_alike(game, state, twin, record, play(twin, 1), f"{where}, {hidden}")


# ----- check_policy's checks --------------------------------------------------------------


def _policy_label(policy: Policy) -> str:
    """The policy's name and the parameters it sets to other values than their defaults."""
    defaults = {key: param.default for key, param in type(policy).all_parameters().items()}
    args = ", ".join(f"{key}={value!r}" for key, value in policy.params.items() if value != defaults.get(key))
    return f"'{policy.registered_name}'" + (f" ({args})" if args else "")


@contextmanager
def _global_random_state(poison: int) -> Iterator[None]:
    """numpy's legacy global generator and Python's ``random`` seeded from ``poison``
    (two different seeds), put back as they were afterwards."""
    # the legacy global state on purpose: it is what a policy must not read
    numpy_state, python_state = np.random.get_state(), random.getstate()  # noqa: NPY002
    np.random.seed(poison)  # noqa: NPY002
    random.seed(poison + 1000)
    try:
        yield
    finally:
        np.random.set_state(numpy_state)  # noqa: NPY002
        random.setstate(python_state)


def _check_record(game: Game, state: State, record: PlayRecord, where: str) -> None:
    """The record's moves replay from ``state`` to the end the record says."""
    seen = set()
    for index, move in enumerate(record.moves):
        legal = {tuple(m) for m in game.legal_moves(state)}
        assert tuple(move) in legal, f"{where}: move {index} {Move(*move)} of the record is not legal there"
        seen.add(game.position_hash(state))
        state = game.apply(state, move)
    won = game.is_won(state)
    assert won == record.won, (f"{where}: the record says {record.verdict} ({record.end_reason}) but its "
                               f"{len(record.moves)} moves {'win' if won else 'do not win'}")
    assert record.cards_home == game.cards_home(state), (
        f"{where}: the record says {record.cards_home} cards home, its moves end with {game.cards_home(state)}")
    left = len(game.legal_move_codes(state))
    assert record.end_reason != NO_MOVES or left == 0, f"{where}: ended '{NO_MOVES}' with {left} legal moves left"
    assert record.end_reason != GAVE_UP or left > 0, f"{where}: ended '{GAVE_UP}' with no legal move left"
    assert (record.end_reason == WON) == record.won, (
        f"{where}: verdict {record.verdict} with end reason {record.end_reason}")
    assert record.end_reason != REPEAT or game.position_hash(state) in seen, (
        f"{where}: ended '{REPEAT}' on a position not seen before")


def _check_same_record(first: PlayRecord, second: PlayRecord, where: str) -> None:
    for field in fields(PlayRecord):
        a, b = getattr(first, field.name), getattr(second, field.name)
        if field.name == "moves":
            assert a == b, f"{where}: {_first_difference(a, b)}"
        else:
            assert repr(a) == repr(b), f"{where}: {field.name} {a!r} then {b!r}"  # repr: nan equals nan


def _first_difference(a: list[Move], b: list[Move]) -> str:
    """Where two move lists part: their lengths, the first index that differs and its moves."""
    index = next((i for i, (x, y) in enumerate(zip(a, b)) if tuple(x) != tuple(y)), min(len(a), len(b)))
    first, second = (str(Move(*moves[index])) if index < len(moves) else "stop" for moves in (a, b))
    return f"{len(a)} moves then {len(b)}, from move {index} on: {first}, then {second}"


def _twins(game: Game, state: State, seed: int, deal: int) -> list[tuple[State, str]]:
    """Deals that look the same as ``state`` to a player, each with what differs: its
    hidden cards rotated among their places; another shuffle for its redeals."""
    twins = []
    slots = _hidden_slots(game, state)
    if len(set(state.array[slots].tolist())) > 1:
        array = state.array.copy()
        array[slots] = np.roll(array[slots], 1)
        twins.append((State(array, state.chance), "its hidden cards rotated"))
    if game.has_chance and len(state.chance) > 2:
        chance = state.chance.copy()
        chance[1:] = deal_rng(deal, seed, "check_policy:twin").permutation(chance[1:])  # element 0 names the generator
        twins.append((State(state.array, chance), "another shuffle for its redeals"))
    return twins


def _check_looks_alike(game: Game, state: State, twin: State, record: PlayRecord, other: PlayRecord,
                       where: str) -> None:
    """The policy made the same decisions in ``state`` and ``twin`` while they looked the same."""
    assert game.observe(state) == game.observe(twin), f"{where}: the twin looks different (a defect of the check)"
    mine, theirs = [Move(*m) for m in record.moves], [Move(*m) for m in other.moves]
    for index in range(max(len(mine), len(theirs)) + 1):
        if game.observe(state) != game.observe(twin):
            return
        ours, its = (moves[index] if index < len(moves) else None for moves in (mine, theirs))
        assert ours == its, (f"{where}: a deal that looks the same to a player got another decision at move "
                             f"{index} ({ours or 'stop'}, then {its or 'stop'}): the policy reads what a player "
                             "cannot see")
        if ours is None:
            return
        state, twin = game.apply(state, ours), game.apply(twin, ours)


# ----- check_game's checks -----------------------------------------------------------------


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
    import argparse  # only the command needs it
    import sys
    from pathlib import Path

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
