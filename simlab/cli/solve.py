"""``simlab solve GAME N [--param k=v] [--budget NODES] [--shorten] [--show [--reveal]] [--json]``,
``simlab solve GAME --explain`` and ``simlab hint GAME N [--moves FILE] [--budget NODES]
[--table-bits B] [--json]``."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from simlab.cli.words import ENDINGS, thoughtful_note
from simlab.engine.game import Game, Move, State
from simlab.engine.notation import describe_line, numbered
from simlab.engine.table_text import walkthrough
from simlab.errors import SimlabError
from simlab.games import make_game
from simlab.move_files import read_moves, replay_moves
from simlab.params import DEAL_NUMBER, option_type, parse_cli_params
from simlab.solver import SolveResult, plan_for, solve
from simlab.solver.hint import Hint, hint
from simlab.solver.limits import BUDGET, TABLE_BITS, table_bits_for
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
    _add_hint_parser(subparsers)


def _add_hint_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hint", help="the solver's verdict and best move from a position (a deal after some moves)",
        description="From deal N after the moves of --moves FILE (none: the deal as dealt): whether a "
        "win is still possible, by the solver within --budget positions, and the first move of a "
        "winning line.")
    parser.add_argument("game", metavar="GAME", help="a game from 'simlab games'")
    parser.add_argument("deal", type=option_type(DEAL_NUMBER), metavar="N", help="PySolFC's game number")
    parser.add_argument("--param", action="append", default=[], metavar="K=V", help="game parameter")
    parser.add_argument("--moves", metavar="FILE", type=Path,
                        help="the moves made so far: SOURCE->DESTINATION separated by spaces or newlines, "
                        "the text 'simlab play' / 'simlab solve' print, or their JSON (as 'simlab show --moves')")
    parser.add_argument("--budget", type=option_type(BUDGET), default=BUDGET.default,
                        help=f"{BUDGET.doc}: {BUDGET.describe()}")
    parser.add_argument("--table-bits", type=option_type(TABLE_BITS), default=None,
                        help=f"{TABLE_BITS.doc}: {TABLE_BITS.describe()}; default: the smallest that holds "
                        "--budget positions, at most the default")
    parser.add_argument("--json", action="store_true", help="print the hint as JSON")
    parser.set_defaults(func=run_hint)


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


def verdict_sentence(result: SolveResult, budget: int) -> str:
    """``won in 74 moves (462 positions, 0.071 CPU s)``, ``lost: no win exists (...)``,
    ``unknown: undecided: the budget of ... ran out (...)``; compiling, if any, said apart."""
    effort = f"{result.nodes:,} positions, {result.seconds:.3f} CPU s"
    if result.compile_seconds >= 0.05:
        effort += f"; compiling the kernels took {result.compile_seconds:.1f} CPU s more, once per version"
    if result.verdict == "won":
        return f"won in {len(result.moves)} moves ({effort})"
    return f"{result.verdict}: {ENDINGS[result.reason].format(budget=budget)} ({effort})"


def run_hint(args: argparse.Namespace) -> int:
    """Replay the moves file, then print the solver's verdict and best move from there."""
    game = make_game(args.game, **parse_cli_params(args.param))
    moves = read_moves(args.moves) if args.moves is not None else []
    source = f"moves file {str(args.moves)!r}" if args.moves is not None else "no moves"
    state = replay_moves(game, game.initial_state(args.deal), moves, source)[-1]
    bits = table_bits_for(args.budget) if args.table_bits is None else args.table_bits
    found = hint(game, state, budget=args.budget, table_bits=bits)
    if args.json:
        print(json.dumps(hint_json(game, args.deal, len(moves), state, found, (args.budget, bits))))
        return 0
    where = f"after {len(moves)} move{'' if len(moves) == 1 else 's'}" if moves else "as dealt"
    print(f"{game.name} deal {args.deal} {where}: {hint_sentence(found, args.budget)}")
    if found.result.information == "thoughtful":
        print(f"{thoughtful_note(game)} (README: 'Perfect play as a bracket')")
    print(f"best move: {best_move_text(game, state, found)}")
    return 0


def hint_sentence(found: Hint, budget: int) -> str:
    """``won: a win is still possible, in 73 moves (38 positions, ...)``, ``lost: no win exists ...``."""
    result = found.result
    effort = f"{result.nodes:,} positions, {result.seconds:.3f} CPU s"
    if found.verdict == "won":
        if not found.moves_to_win:
            return "won: the game is won"
        return f"won: a win is still possible, in {found.moves_to_win} moves ({effort})"
    return f"{found.verdict}: {ENDINGS[result.reason].format(budget=budget)} ({effort})"


def best_move_text(game: Game, state: State, found: Hint) -> str:
    """The best move with its card (``9S row5 -> row7``), or why there is none."""
    if found.best_move is not None:
        return describe_line(game, state, [found.best_move])[0]
    if found.verdict == "won":
        return "none: the game is won"
    if found.verdict == "lost":
        return "none: no move leads to a win"
    if found.result.reason == "memory":
        return "none found before the table filled (raise --table-bits)"
    return "none found within the budget (raise --budget)"


def hint_json(game: Game, deal: int, after: int, state: State, found: Hint, limits: tuple[int, int]) -> dict:
    """The hint as ``simlab hint --json`` prints it; ``limits``: the budget and table bits searched with."""
    best, (budget, table_bits) = found.best_move, limits
    return {
        "game": game.name, "params": dict(game.params), "deal": deal, "after_moves": after,
        "verdict": found.verdict, "reason": found.result.reason,
        "best_move": [best.source, best.destination] if best is not None else None,
        "best_move_named": describe_line(game, state, [best])[0] if best is not None else None,
        "moves_to_win": found.moves_to_win, "information": found.result.information,
        "budget": budget, "table_bits": table_bits, "nodes": found.result.nodes,
        "seconds": round(found.result.seconds, 6),
    }
