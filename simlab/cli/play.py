"""``simlab deal GAME N`` and ``simlab play GAME N --policy P``: one deal shown, or played by one policy."""

from __future__ import annotations

import argparse
import json
from typing import Any

from simlab.boards import deal_json, fcs_board
from simlab.cli.words import outcome
from simlab.engine.game import Game
from simlab.engine.notation import describe_line, numbered
from simlab.engine.table_text import render_table, walkthrough
from simlab.games import make_game
from simlab.params import DEAL_NUMBER, ROOT_SEED, option_type, parse_cli_params
from simlab.play import play_deal
from simlab.policies import PlayRecord, make_policy
from simlab.policies.catalog import refuse_unplayable, warn_unused

DEAL_FORMATS = ("text", "json", "fcs")


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Add ``deal`` and ``play`` to the ``simlab`` parser."""
    _add_deal_parser(subparsers)
    _add_play_parser(subparsers)


def _add_deal_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "deal",
        help="show the layout of one deal",
        description="Show deal N of a game: the layout PySolFC shows for game number N.",
    )
    _add_game_arguments(parser)
    parser.add_argument(
        "--format", choices=DEAL_FORMATS, default="text",
        help="text: for people; json: every pile bottom to top; fcs: Freecell Solver's board "
        "(solve with 'fc-solve -g beleaguered_castle', adding '--freecells-num 1' for a game "
        "with a free cell)",
    )
    _add_reveal_argument(parser)
    parser.set_defaults(func=deal_command)


def _add_play_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play", help="let a policy play one deal", description="Let a policy play deal N of a game."
    )
    _add_game_arguments(parser)
    parser.add_argument(
        "--policy", required=True, metavar="NAME",
        help="a policy from 'simlab policies', or your own as module:Class",
    )
    parser.add_argument(
        "--policy-param", action="append", default=[], metavar="K=V", help="a policy parameter"
    )
    parser.add_argument("--seed", type=option_type(ROOT_SEED), default=0,
                        help=f"root seed of the policy's randomness: {ROOT_SEED.describe()}")
    parser.add_argument("--show", action="store_true", help="print the layout after every move")
    _add_reveal_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the record as JSON")
    parser.set_defaults(func=play_command)


def _add_reveal_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reveal", action="store_true",
        help="show the cards a player cannot see (face-down stock, squared reserves) in brackets: the solver's view",
    )


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help="a game from 'simlab games'")
    parser.add_argument("deal", metavar="N", type=deal_number, help="PySolFC's game number (1 or more)")
    parser.add_argument(
        "--param", action="append", default=[], metavar="K=V", help="a game parameter"
    )


# argparse type: a PySolFC game number, checked as a config's deal numbers are
deal_number = option_type(DEAL_NUMBER)


# ----- handlers --------------------------------------------------------------------


def deal_command(args: argparse.Namespace) -> int:
    """Print one deal as text, JSON or a Freecell Solver board."""
    game = make_game(args.game, **parse_cli_params(args.param))
    if args.format == "json":
        print(json.dumps(deal_json(game, args.deal)))
    elif args.format == "fcs":
        print(fcs_board(game, game.initial_state(args.deal)))
    else:
        print(f"{game.name} deal {args.deal}")
        print(render_table(game, game.initial_state(args.deal), args.reveal))
    return 0


def play_command(args: argparse.Namespace) -> int:
    """Play one deal with one policy and print the record."""
    game = make_game(args.game, **parse_cli_params(args.param))
    policy = make_policy(args.policy, **parse_cli_params(args.policy_param))
    refuse_unplayable(policy, game)  # as a config would, before anything is played
    warn_unused(policy, [(game, game.name)], "--policy-param ")
    record = play_deal(game, policy, args.deal, root_seed=args.seed)
    if args.json:
        print(json.dumps(_record_json(game, policy.params, args, record)))
        return 0
    print(f"{game.name} deal {args.deal}, policy {args.policy}, seed {args.seed}")
    start = game.initial_state(args.deal)
    if args.show:
        print("\n".join(walkthrough(game, start, record.moves, reveal=args.reveal, full=True)))
        print()
    total = 52 * game.table.decks
    print(f"{outcome(record)} after {record.move_count} moves, {record.cards_home} of {total} cards home")
    if not args.show:
        print("moves:" + ("" if record.moves else " none"))
        for line in numbered(describe_line(game, start, record.moves)):
            print("  " + line)
    return 0


def _record_json(
    game: Game, policy_params: dict[str, Any], args: argparse.Namespace, record: PlayRecord
) -> dict[str, Any]:
    return {
        "game": game.name,
        "params": dict(game.params),
        "deal": args.deal,
        "policy": args.policy,
        "policy_params": dict(policy_params),
        "seed": args.seed,
        "verdict": record.verdict,
        "end_reason": record.end_reason,
        "moves": [str(m) for m in record.moves],
        "moves_named": describe_line(game, game.initial_state(args.deal), record.moves),
        "cards_home": record.cards_home,
        "nodes": record.nodes,
    }
