"""``simlab solve GAME N [--param k=v] [--budget NODES] [--json]`` and ``simlab solve GAME --explain``."""

from __future__ import annotations

import argparse
import json

from simlab.errors import SimlabError
from simlab.games import make_game
from simlab.params import DEAL_NUMBER, option_type, parse_cli_params
from simlab.solver import SolveResult, plan_for, solve
from simlab.solver.limits import BUDGET, TABLE_BITS


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("solve", help="solve one deal (won / lost / unknown)")
    parser.add_argument("game", metavar="GAME", help="a game from 'simlab games'")
    # the same checks and words as the solver policy's parameters in a config
    parser.add_argument("deal", type=option_type(DEAL_NUMBER), nargs="?", metavar="N",
                        help="PySolFC's game number (not with --explain)")
    parser.add_argument("--param", action="append", default=[], metavar="K=V", help="game parameter")
    parser.add_argument("--budget", type=option_type(BUDGET), default=BUDGET.default,
                        help=f"{BUDGET.doc}: {BUDGET.describe()}")
    parser.add_argument("--table-bits", type=option_type(TABLE_BITS), default=TABLE_BITS.default,
                        help=f"{TABLE_BITS.doc}: {TABLE_BITS.describe()}")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--explain", action="store_true",
                        help="print the game's search plan, one choice a line with its reason, and solve nothing")
    parser.set_defaults(func=run_solve)


def run_solve(args: argparse.Namespace) -> int:
    game = make_game(args.game, **parse_cli_params(args.param))
    if args.explain:
        print("\n".join(plan_for(game).explain()))
        return 0
    if args.deal is None:
        raise SimlabError("give a deal number, or --explain")
    result = solve(game, args.deal, budget=args.budget, table_bits=args.table_bits)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print(f"{game.name} deal {args.deal}: {verdict_sentence(result, args.budget)}")
    if result.information == "thoughtful":
        print(f"thoughtful: {plan_for(game).reason('information')}, which a player cannot: "
              "an upper bound on fair play (README: 'Perfect play as a bracket')")
    if result.moves:
        print(" ".join(str(move) for move in result.moves))
    return 0


# What each way a search ends means, for a person.
ENDINGS = {
    "exhausted": "no win exists; every reachable position was searched",
    "budget": "undecided: the budget of {budget:,} positions ran out",
    "memory": "undecided: the transposition table filled (raise --table-bits)",
}


def verdict_sentence(result: SolveResult, budget: int) -> str:
    """``won in 74 moves (462 positions, 0.071 CPU s)``, ``lost: no win exists (...)``,
    ``unknown: undecided: the budget of ... ran out (...)``; compiling, if any, said apart."""
    effort = f"{result.nodes:,} positions, {result.seconds:.3f} CPU s"
    if result.compile_seconds >= 0.05:
        effort += f"; compiling the kernels took {result.compile_seconds:.1f} CPU s more, once per version"
    if result.verdict == "won":
        return f"won in {len(result.moves)} moves ({effort})"
    return f"{result.verdict}: {ENDINGS[result.reason].format(budget=budget)} ({effort})"
