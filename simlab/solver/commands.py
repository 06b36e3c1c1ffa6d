"""``simlab solve GAME N [--param k=v] [--budget NODES] [--shorten] [--show [--reveal]] [--json]``
and ``simlab solve GAME --explain``."""

from __future__ import annotations

import argparse
import json
import time

from simlab.engine.game import Game, Move, State
from simlab.engine.notation import describe_line, numbered
from simlab.engine.table_text import walkthrough
from simlab.errors import SimlabError
from simlab.games import make_game
from simlab.params import DEAL_NUMBER, option_type, parse_cli_params
from simlab.solver import SolveResult, plan_for, solve
from simlab.solver.limits import BUDGET, TABLE_BITS
from simlab.solver.replay import replays_to_win
from simlab.solver.shorten import shorten


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
    parser.add_argument("--shorten", action="store_true",
                        help="shorten the winning line (cycles cut, each card's detours merged, shortcuts "
                        "taken; simlab.solver.shorten), replayed to a win before it is printed")
    parser.add_argument("--show", action="store_true",
                        help="print the deal, then after each move the piles it changed")
    parser.add_argument("--reveal", action="store_true",
                        help="with --show: the cards a player cannot see too, in brackets (the solver's view)")
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
    start = game.initial_state(args.deal)
    line, shortening = result.moves, None
    if args.shorten and result.moves:
        line, shortening = _shortened(game, start, result.moves)
    if args.json:
        record = result.to_json()
        if shortening is not None:
            record["moves"] = [[m.source, m.destination] for m in line]
            record["shortened"] = shortening
        record["moves_named"] = describe_line(game, start, line)
        print(json.dumps(record))
        return 0
    print(f"{game.name} deal {args.deal}: {verdict_sentence(result, args.budget)}")
    if result.information == "thoughtful":
        print(f"{thoughtful_note(game)} (README: 'Perfect play as a bracket')")
    if args.shorten and shortening is None:
        print("--shorten: no winning line to shorten")
    if shortening is not None:
        print(f"shortened to {len(line)} moves in {shortening['seconds']:.2f} CPU s; "
              "replayed to a win through the rules engine")
    if args.show:
        print("\n".join(walkthrough(game, start, line, reveal=args.reveal)))
    elif line:
        print("\n".join(numbered(describe_line(game, start, line))))
    return 0


def _shortened(game: Game, start: State, line: list[Move]) -> tuple[list[Move], dict]:
    """The line shortened and replayed to a win, and what to report of it.

    Raises:
        SimlabError: the shortened line does not replay to a win (a bug: every rewrite was replayed)."""
    began = time.process_time()
    shorter = shorten(game, start, line)
    seconds = time.process_time() - began
    if not replays_to_win(game, start, shorter):
        raise SimlabError(f"the shortened line ({len(shorter)} moves) does not replay to a win; "
                          "run without --shorten for the solver's line")
    return shorter, {"from": len(line), "to": len(shorter), "seconds": round(seconds, 6), "replayed_to_win": True}


def thoughtful_note(game: Game) -> str:
    """What a ``thoughtful`` verdict knew that a player cannot, in the search plan's words."""
    return f"thoughtful: {plan_for(game).reason('information')}, which a player cannot: an upper bound on fair play"


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
