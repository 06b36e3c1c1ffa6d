"""The search plan of every game (``simlab.solver.plan``): pinned in a golden
file, so that a change to any game's plan shows as a reviewed diff; every choice
it holds is read by the searches, which make it nowhere else."""

from __future__ import annotations

import dataclasses
import difflib
import re
from pathlib import Path

import numpy as np
import pytest

from simlab.cli import main
from simlab.engine import kernel
from simlab.engine.incremental import start_tracking
from simlab.engine.layout import (
    FIRST_FOUNDATION,
    MOVE_BASE,
    MOVE_CARD,
    N_CARDS,
    N_PILES,
    P_BASE,
    P_WRAP,
    PILE_FIELDS,
    PILE_TABLE,
)
from simlab.games import GAMES, make_game
from simlab.solver import lookahead as lookahead_module
from simlab.solver import plan as plan_module
from simlab.solver.autoplay import AUTOPLAY_DOWN_ANY_SUIT, AUTOPLAY_NONE
from simlab.solver.deadlock import RELAXATION_NONE, RELAXATION_STOCK, provably_lost, windmill_foundations
from simlab.solver.plan import (
    LOOKAHEAD_CARD_MOVES,
    LOOKAHEAD_EVERY_MOVE,
    PLAN_AUTOPLAY,
    PLAN_LENGTH,
    PLAN_RELAXATION,
    PLAN_RETURNS,
    PLAN_SNAPSHOTS,
    PLAN_STUCK,
    SearchPlan,
    loss_relaxation,
    plan_for,
)
from simlab.solver.search import MAX_BRANCHING, ORDER_PLAIN, new_workspace, ordered_moves
from simlab.testing import GOLDEN_PLANS, PLAN_RULE_SETS, all_plans, plans_text

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / GOLDEN_PLANS
REGENERATE = "python -m simlab.testing plans --write"
# The fields the compiled searches read from ``SearchPlan.array``, by slot.
SLOTS = {"autoplay": PLAN_AUTOPLAY, "snapshot_every_move": PLAN_SNAPSHOTS, "relaxation": PLAN_RELAXATION,
         "stuck": PLAN_STUCK, "returns_pruned": PLAN_RETURNS}
# What ``SearchPlan.explain`` (``simlab solve GAME --explain``) prints about the plan, not a choice.
DESCRIPTIONS = {"game", "reasons"}


def test_every_plan_is_the_golden_one():
    expected = GOLDEN.read_text(encoding="utf-8")
    actual = plans_text()
    diff = "".join(difflib.unified_diff(
        expected.splitlines(keepends=True), actual.splitlines(keepends=True), "golden", "now"))
    assert actual == expected, f"a search plan changed; if on purpose, review and regenerate: {REGENERATE}\n{diff}"


def test_a_game_whose_card_moves_refill_makes_no_automatic_play():
    plans = all_plans()
    assert any(plan.snapshot_every_move for plan in plans)
    for plan in plans:
        assert not plan.snapshot_every_move or plan.autoplay == AUTOPLAY_NONE, plan.game
    plan = plan_for(make_game("windmill"))
    with pytest.raises(ValueError, match="refill"):
        dataclasses.replace(plan, autoplay=AUTOPLAY_DOWN_ANY_SUIT)


def test_explain_prints_the_plan_and_solves_nothing(capsys):
    assert main(["solve", "windmill", "--explain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == plan_for(make_game("windmill")).explain()
    assert "no automatic plays, best-first, snapshots, rank-only hashing, stock relaxation" in lines[0]
    assert any(line.startswith("  restarts: stock_best_first, jittered_depth_first (") for line in lines)


def test_solve_without_a_deal_or_explain_is_a_usage_error(capsys):
    assert main(["solve", "windmill"]) == 2
    assert "--explain" in capsys.readouterr().err


def test_the_golden_file_holds_every_rule_set_the_commit_comparison_plays():
    from benchmarks.compare_commits import cases  # (the benchmarks are not part of simlab)

    pinned = {plan.game for plan in all_plans()}
    played = {repr(make_game(case["game"], **case["params"])) for case in cases().values()}
    assert played <= pinned, f"add these rule sets to simlab.testing.PLAN_RULE_SETS: {sorted(played - pinned)}"
    extra = {repr(make_game(name, **params)) for name, params in PLAN_RULE_SETS} - played
    assert not extra, f"simlab.testing.PLAN_RULE_SETS holds rule sets the comparison does not play: {extra}"


def test_the_plans_command_writes_the_golden_file(tmp_path, capsys):
    from simlab.testing import main as testing_main

    target = tmp_path / "plans.txt"
    assert testing_main(["plans", "--write", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == plans_text()
    assert testing_main(["plans"]) == 0
    assert capsys.readouterr().out.endswith(plans_text())


def simlab_sources() -> str:
    """Every source of the package but ``plan.py``, where the plan is made."""
    sources = sorted((ROOT / "simlab").rglob("*.py"))
    return "\n".join(path.read_text(encoding="utf-8") for path in sources if path.name != "plan.py"
                     or path.parent.name != "solver")


def test_every_plan_field_has_a_reader_outside_the_plan():
    """A plan field nobody reads describes a choice made elsewhere: each is read as
    ``plan.FIELD`` (or ``plan_for(game).FIELD``) by some search or player, or, for the
    compiled searches, by its ``PLAN_*`` slot of ``SearchPlan.array``."""
    sources = simlab_sources()
    unread = []
    for field in dataclasses.fields(SearchPlan):
        if field.name in DESCRIPTIONS:
            continue
        if field.name in SLOTS:
            read = re.search(rf"\[{name_of_slot(SLOTS[field.name])}\]", sources)
        else:
            read = re.search(rf"\bplan(?:_for\([^()]*\))?\.{field.name}\b", sources)
        if not read:
            unread.append(field.name)
    assert not unread, f"SearchPlan fields no search reads (make the choice there, or delete them): {unread}"
    assert re.search(r"\bplan(?:_for\([^()]*\))?\.explain\(\)", sources), "nothing prints the plan"


def name_of_slot(slot: int) -> str:
    names = [name for name in dir(plan_module) if name.startswith("PLAN_") and getattr(plan_module, name) == slot
             and name != "PLAN_LENGTH"]
    assert len(names) == 1, names
    return names[0]


def test_every_slot_of_the_array_holds_its_field_and_is_read():
    sources = simlab_sources()
    assert sorted(SLOTS.values()) == list(range(PLAN_LENGTH))
    for plan in all_plans():
        for field, slot in SLOTS.items():
            assert plan.array[slot] == int(getattr(plan, field)), (plan.game, field)
    for slot in SLOTS.values():
        assert re.search(rf"\[{name_of_slot(slot)}\]", sources), name_of_slot(slot)


def test_the_searches_hash_with_the_plans_keys():
    """Hashing by rank only is the plan's choice of keys, nowhere else: the engine
    offers both tables and no function choosing between them."""
    assert not hasattr(kernel, "search_zobrist") and not hasattr(kernel, "check_zobrist")
    for plan in all_plans():
        assert (plan.zobrist is kernel.RANK_ZOBRIST) == (plan.check_zobrist is kernel.RANK_CHECK_ZOBRIST)
        assert plan.zobrist is (kernel.RANK_ZOBRIST if plan.ranks_only else kernel.ZOBRIST)
    assert plan_for(make_game("windmill")).ranks_only and not plan_for(make_game("fan")).ranks_only


def test_explain_never_announces_a_relaxation_that_cannot_run():
    """For every game and rule set of the golden file, the relaxation the plan names is
    the one the search consults, and its argument's conditions hold: the stock
    relaxation reads Windmill's foundations as heights, so the plan chooses it only
    for them (``provably_lost`` no longer checks them per position)."""
    plans = {plan.game: plan for plan in all_plans()}
    games = [make_game(name) for name in sorted(GAMES)] + [make_game(name, **params) for name, params in
                                                           PLAN_RULE_SETS]
    stock = 0
    for game in games:
        plan = plans[repr(game)]
        assert plan.relaxation == plan.array[PLAN_RELAXATION] == loss_relaxation(game.rules)[0]
        if plan.relaxation == RELAXATION_STOCK:
            stock += 1
            assert windmill_foundations(game.rules), plan.game
    assert stock >= 8


def test_the_stock_relaxation_is_not_chosen_for_other_foundations():
    """Windmill's rules with a centre that does not wrap: the stock relaxation's argument
    reads heights it no longer has, so the plan chooses none (it used to choose the stock
    relaxation, which then never ran: ``--explain`` announced it all the same)."""
    rules = make_game("windmill").rules.copy()
    assert loss_relaxation(rules)[0] == RELAXATION_STOCK
    rules[PILE_TABLE + rules[FIRST_FOUNDATION] * PILE_FIELDS + P_WRAP] = 0
    assert not windmill_foundations(rules)
    assert loss_relaxation(rules)[0] == RELAXATION_NONE
    rules = make_game("windmill").rules.copy()
    rules[PILE_TABLE + (rules[FIRST_FOUNDATION] + 1) * PILE_FIELDS + P_BASE] = 0
    assert loss_relaxation(rules)[0] == RELAXATION_NONE


def test_the_stock_relaxation_runs_where_the_plan_chooses_it():
    """The search consults the relaxation as the plan names it: on Windmill positions
    with an empty stock, some are proved lost."""
    game = make_game("windmill")
    relaxation = plan_for(game).relaxation
    generator = np.random.default_rng(0)
    proved = 0
    for deal in range(1, 9):
        state = game.initial_state(deal)
        for _ in range(300):
            if provably_lost(game.rules, state.array, relaxation):
                proved += 1
                break
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, moves[generator.integers(len(moves))])
    assert proved >= 1


@pytest.mark.parametrize("choice", [LOOKAHEAD_CARD_MOVES, LOOKAHEAD_EVERY_MOVE])
def test_the_lookahead_player_searches_as_the_plan_says(monkeypatch, choice):
    """``simlab.solver.lookahead.lookahead`` runs the search the plan names, not one
    picked from the rules: with the plan's choice replaced, the other search runs."""
    game = make_game("beleaguered_castle")
    plan = dataclasses.replace(plan_for(game), lookahead=choice)
    called = []

    def spy(name):
        def search(*args):
            called.append(name)
            return 0, 1, np.empty(0, dtype=np.int32), 0
        return search

    monkeypatch.setattr(lookahead_module, "plan_for", lambda _game: plan)
    monkeypatch.setattr(lookahead_module, "card_lookahead", spy(LOOKAHEAD_CARD_MOVES))
    monkeypatch.setattr(lookahead_module, "plain_best_first", spy(LOOKAHEAD_EVERY_MOVE))
    state = game.initial_state(1)
    lookahead_module.lookahead(game, state.array, state.chance, 100, 16, np.empty(0, dtype=np.uint64))
    assert called == [choice]
    windmill, castle = plan_for(make_game("windmill")), plan_for(game)
    assert (windmill.lookahead, castle.lookahead) == (LOOKAHEAD_EVERY_MOVE, LOOKAHEAD_CARD_MOVES)


def test_pruning_rule_5_follows_the_plan():
    """A foundation's card back on a row is searched or left out as the plan's
    ``returns_pruned`` says, with no redeal ahead: Fan with foundation returns prunes
    them (rows build down in suit); a workspace told otherwise keeps them."""
    game = make_game("fan", foundation_return=True)
    plan = plan_for(game)
    assert plan.returns_pruned and plan.array[PLAN_RETURNS] == 1
    assert not plan_for(make_game("beleaguered_castle")).returns_pruned
    rules = game.rules
    generator = np.random.default_rng(1)
    found = 0
    for deal in range(1, 6):
        state = game.initial_state(deal)
        for _ in range(80):
            kept = {flag: searched_moves(game, state, flag) for flag in (0, 1)}
            returns = {code for code in kept[0] if code // MOVE_BASE >= rules[FIRST_FOUNDATION]
                       and code % MOVE_BASE < rules[FIRST_FOUNDATION]}
            assert kept[1] == kept[0] - returns
            found += bool(returns)
            moves = game.legal_moves(state)
            home = [move for move in moves if move[1].startswith("foundation")]
            if not moves:
                break
            state = game.apply(state, home[0] if home and generator.random() < 0.7
                               else moves[generator.integers(len(moves))])
    assert found >= 5


def searched_moves(game, state, returns_pruned: int) -> set[int]:
    """The card moves ``ordered_moves`` keeps in ``state`` with pruning rule 5 as ``returns_pruned`` says."""
    rules, array = game.rules, state.array.copy()
    pile_hashes = np.empty(rules[N_PILES], dtype=np.uint64)
    card_piles = np.empty(rules[N_CARDS], dtype=np.int64)
    key = np.uint64(start_tracking(rules, array, kernel.ZOBRIST, pile_hashes, card_piles))
    out = np.empty(MAX_BRANCHING, dtype=np.int32)
    count = ordered_moves(rules, array, -1, new_workspace(rules, returns_pruned), out, 0, ORDER_PLAIN, 0, key,
                          card_piles)
    return {int(code) for code in out[:count] if kernel.move_kind(int(code)) == MOVE_CARD}


KEY_TABLES = {"ZOBRIST", "RANK_ZOBRIST", "CHECK_ZOBRIST", "RANK_CHECK_ZOBRIST"}


def key_tables_named(path: Path) -> list[str]:
    """Where ``path`` names one of the kernel's key tables in code (``kernel.ZOBRIST``, or
    imported by name), docstrings and comments aside."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Attribute) and node.attr in KEY_TABLES and isinstance(node.value, ast.Name)
                and node.value.id == "kernel"):
            found.append(f"{path.name}:{node.lineno}: kernel.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module == "simlab.engine.kernel":
            found += [f"{path.name}:{node.lineno}: {alias.name}" for alias in node.names if alias.name in KEY_TABLES]
    return found


def test_no_search_picks_its_hash_keys_outside_the_plan():
    """Every search of ``simlab.solver`` hashes with keys the plan hands it (``zobrist``,
    ``check_zobrist``, ``streamlined_zobrist``, ``rounds_zobrist``): none names a key table
    of the kernel itself, so the plan is the one place the keys are chosen."""
    named = [hit for path in sorted((ROOT / "simlab" / "solver").glob("*.py")) if path.name != "plan.py"
             for hit in key_tables_named(path)]
    assert named == [], f"searches choosing their own hash keys: {named}"
    castle, windmill, lucie = (plan_for(make_game(name)) for name in ("beleaguered_castle", "windmill",
                                                                       "la_belle_lucie"))
    assert castle.streamlined_zobrist is kernel.RANK_ZOBRIST and castle.zobrist is kernel.ZOBRIST
    assert windmill.rounds_zobrist is kernel.ZOBRIST and windmill.zobrist is kernel.RANK_ZOBRIST
    assert lucie.rounds_zobrist is lucie.zobrist is kernel.ZOBRIST
