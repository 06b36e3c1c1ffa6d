"""``simlab show GAME N --html FILE``: one deal played, written as a page to step through.

The moves come from one of three places: ``--policy P`` plays the deal as
``simlab play`` does; ``--moves FILE`` reads them (``simlab.move_files``); with
neither, the solver plays (at its default budget, as ``simlab solve``), and a deal
it does not win is shown as dealt. Every position is computed by replaying the
moves through the rules engine (``simlab.html_view``). With ``--verdicts`` the solver
judges every position of the line as the page is written (``simlab.solver.hint``, at
most ``--verdict-budget`` positions each): still winnable, with its best move, lost or
unknown.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from simlab.cli.words import ENDINGS, outcome, thoughtful_note
from simlab.engine.game import Game, Move, State
from simlab.engine.notation import describe_line
from simlab.errors import SimlabError
from simlab.games import make_game
from simlab.html_view import ShowHeader, page_data, page_html, pile_cards
from simlab.move_files import read_moves, replay_moves
from simlab.params import DEAL_NUMBER, ROOT_SEED, Param, option_type, parse_cli_params
from simlab.play import play_deal
from simlab.policies import make_policy
from simlab.policies.catalog import refuse_unplayable, warn_unused
from simlab.policies.record import NO_MOVES, stop_reason
from simlab.solver import plan_for, solve
from simlab.solver.hint import hints_along
from simlab.solver.limits import BUDGET

# Positions the solver searches at most per position judged with --verdicts: a page of a few
# hundred positions is written in seconds, and small deals' positions are decided far below it.
VERDICT_BUDGET = Param(int, 100_000, "most positions the solver searches per position judged", low=1)


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Add ``show`` to the ``simlab`` parser."""
    parser = subparsers.add_parser(
        "show", help="write one deal played as an HTML page to step through",
        description="Write deal N of a game, played by a policy, by the solver (the default) or "
        "from a file of moves, as one self-contained HTML page: the layout drawn as cards, "
        "step forward and back with the buttons or the arrow keys, the moves beside it.",
    )
    parser.add_argument("game", metavar="GAME", help="a game from 'simlab games'")
    parser.add_argument("deal", metavar="N", type=option_type(DEAL_NUMBER), help="PySolFC's game number (1 or more)")
    parser.add_argument("--param", action="append", default=[], metavar="K=V", help="a game parameter")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--policy", metavar="NAME", help="let this policy play (as 'simlab play')")
    source.add_argument("--moves", metavar="FILE", type=Path,
                        help="replay these moves: SOURCE->DESTINATION separated by spaces or newlines, "
                        "or the JSON of 'simlab play --json' / 'simlab solve --json'")
    parser.add_argument("--policy-param", action="append", default=[], metavar="K=V",
                        help="a policy parameter (with --policy)")
    parser.add_argument("--seed", type=option_type(ROOT_SEED), default=0,
                        help=f"root seed of the policy's randomness (with --policy): {ROOT_SEED.describe()}")
    parser.add_argument("--html", metavar="FILE", type=Path, required=True, help="the page to write")
    parser.add_argument("--verdicts", action="store_true",
                        help="show at each position whether a win is still possible, and the solver's best "
                        "move there (judged as the page is written)")
    parser.add_argument("--verdict-budget", type=option_type(VERDICT_BUDGET), default=None, metavar="NODES",
                        help=f"with --verdicts: {VERDICT_BUDGET.doc}: {VERDICT_BUDGET.describe()}")
    parser.set_defaults(func=show_command)


def show_command(args: argparse.Namespace) -> int:
    """Play or read the moves, replay them and write the page."""
    if args.policy is None and (args.policy_param or args.seed):
        raise SimlabError("--policy-param and --seed go with --policy")
    if args.verdict_budget is not None and not args.verdicts:  # any value given, the default's too
        raise SimlabError("--verdict-budget goes with --verdicts")
    game = make_game(args.game, **parse_cli_params(args.param))
    start = game.initial_state(args.deal)
    if args.moves is not None:
        moves = read_moves(args.moves)
        states = replay_moves(game, start, moves, f"moves file {str(args.moves)!r}")
        header = ShowHeader(f"moves file {args.moves.name}", _verdict_of(game, states[-1]))
    else:
        moves, header = _policy_moves(game, args) if args.policy is not None else _solver_moves(game, args.deal)
        states = replay_moves(game, start, moves, header.source)
    data = page_data(game, args.deal, moves, [pile_cards(game, state) for state in states], header)
    if args.verdicts:
        budget = VERDICT_BUDGET.default if args.verdict_budget is None else args.verdict_budget
        data["verdicts"] = position_verdicts(game, states, budget)
        data["notes"].append(["verdicts", verdicts_note(game, budget)])
    html = page_html(data)
    try:
        args.html.write_text(html, encoding="utf-8")
    except OSError as error:
        raise SimlabError(f"cannot write the page --html {str(args.html)!r}: {error}") from None
    print(f"{game.name} deal {args.deal}: {header.verdict}, {len(moves)} moves ({header.source}); "
          f"wrote {args.html}")
    return 0


def position_verdicts(game: Game, states: list[State], budget: int) -> list[dict]:
    """The solver's verdict at each position (``simlab.solver.hint``): ``verdict`` (won: a
    win is still possible; lost; unknown within ``budget``), ``best`` (the first move of a
    winning line, with its card) and ``moves_to_win``."""
    return [{"verdict": found.verdict, "moves_to_win": found.moves_to_win,
             "best": describe_line(game, state, [found.best_move])[0] if found.best_move is not None else None}
            for state, found in zip(states, hints_along(game, states, budget))]


def verdicts_note(game: Game, budget: int) -> str:
    """What the page's verdicts are, for its header."""
    note = f"the solver's verdict at each position, at most {budget:,} positions searched each"
    return note + (f"; {thoughtful_note(game)}" if plan_for(game).information == "thoughtful" else "")


def _policy_moves(game: Game, args: argparse.Namespace) -> tuple[list[Move], ShowHeader]:
    policy = make_policy(args.policy, **parse_cli_params(args.policy_param))
    refuse_unplayable(policy, game)  # as `simlab play` does, before anything is played
    warn_unused(policy, [(game, game.name)], "--policy-param ")
    record = play_deal(game, policy, args.deal, root_seed=args.seed)
    params = ", ".join(f"{key}={value}" for key, value in policy.params.items())
    header = ShowHeader(f"policy {args.policy}, seed {args.seed}", outcome(record),
                        [("policy parameters", params or "none")])
    return list(record.moves), header


def _solver_moves(game: Game, deal: int) -> tuple[list[Move], ShowHeader]:
    result = solve(game, deal)
    notes = [("information", thoughtful_note(game))] if result.information != "open" else []
    if not result.won:
        notes.append(("note", "the solver found no win, so the page shows the deal only"))
    ending = "" if result.won else f" ({ENDINGS[result.reason].format(budget=BUDGET.default)})"
    header = ShowHeader(f"the solver (budget {BUDGET.default:,} positions), {result.nodes:,} positions searched",
                        result.verdict + ending, notes)
    return list(result.moves), header


def _verdict_of(game: Game, state: State) -> str:
    """How a line read from a file ends: won, no legal move left, or not finished."""
    if game.is_won(state):
        return "won"
    home = f"{game.cards_home(state)} of {game.table.n_cards} cards home"
    return f"lost (no_moves), {home}" if stop_reason(game, state) == NO_MOVES else f"not finished, {home}"
