"""The search plan of every registered game and of every rule set the commit
comparison plays, in words: the golden file ``tests/golden/search_plans.txt``.

    python -m benchmarks.search_plans                 # print them
    python -m benchmarks.search_plans --write tests/golden/search_plans.txt

A change to a plan then shows as a diff of that file, reviewed with the change.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.compare_commits import cases
from simlab.games import GAMES, make_game
from simlab.solver.plan import SearchPlan, plan_for

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "search_plans.txt"


def all_plans() -> list[SearchPlan]:
    """Every registered game with its defaults, then each rule set of
    ``benchmarks.compare_commits.cases()`` not seen yet, in that order."""
    rule_sets = [(name, {}) for name in sorted(GAMES)]
    rule_sets += [(case["game"], case["params"]) for case in cases().values()]
    plans: dict[str, SearchPlan] = {}
    for name, params in rule_sets:
        plan = plan_for(make_game(name, **params))
        plans.setdefault(plan.game, plan)
    return list(plans.values())


def golden_text() -> str:
    """The golden file's text: each plan's ``explain`` lines, a blank line after each."""
    return "".join("\n".join(plan.explain()) + "\n\n" for plan in all_plans())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", metavar="PATH", type=Path, help="write the golden file here")
    args = parser.parse_args(argv)
    text = golden_text()
    if args.write:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
