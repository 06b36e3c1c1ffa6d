"""``simlab solve GAME N [--param k=v] [--budget NODES] [--json]``."""

from __future__ import annotations

import argparse
import json

from simlab.games import make_game
from simlab.params import parse_cli_params
from simlab.solver import DEFAULT_BUDGET, DEFAULT_TABLE_BITS, solve


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("solve", help="solve one deal (won / lost / unknown)")
    parser.add_argument("game")
    parser.add_argument("deal", type=int)
    parser.add_argument("--param", action="append", default=[], metavar="K=V", help="game parameter")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="node budget")
    parser.add_argument("--table-bits", type=int, default=DEFAULT_TABLE_BITS)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run_solve)


def run_solve(args: argparse.Namespace) -> int:
    game = make_game(args.game, **parse_cli_params(args.param))
    result = solve(game, args.deal, budget=args.budget, table_bits=args.table_bits)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(f"{game.name} deal {args.deal}: {result.verdict} ({result.reason}), "
              f"{result.nodes} nodes, {result.seconds:.3f} CPU s, {len(result.moves)} moves")
        if result.moves:
            print(" ".join(str(move) for move in result.moves))
    return 0
