"""The search plan of every game (``simlab.solver.plan``): pinned in a golden
file, so that a change to any game's plan shows as a reviewed diff."""

from __future__ import annotations

import dataclasses
import difflib

import pytest

from benchmarks.search_plans import GOLDEN, all_plans, golden_text
from simlab.cli import main
from simlab.games import make_game
from simlab.solver.autoplay import AUTOPLAY_DOWN_ANY_SUIT, AUTOPLAY_NONE
from simlab.solver.plan import plan_for

REGENERATE = "python -m benchmarks.search_plans --write tests/golden/search_plans.txt"


def test_every_plan_is_the_golden_one():
    expected = GOLDEN.read_text(encoding="utf-8")
    actual = golden_text()
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
