"""The basic subcommands: ``games``, ``policies``, ``deal`` and ``play``."""

from __future__ import annotations

import argparse
import json
import re
import textwrap
from typing import Any, Mapping

from simlab.boards import deal_json, fcs_board
from simlab.engine.game import Game
from simlab.engine.notation import describe_line, numbered
from simlab.engine.table_text import walkthrough
from simlab.games import GAMES, make_game
from simlab.params import DEAL_NUMBER, ROOT_SEED, Param, option_type, parse_cli_params
from simlab.play import play_deal
from simlab.policies import POLICIES, PlayRecord, make_policy
from simlab.policies.catalog import refuse_unplayable, warn_unused

DEAL_FORMATS = ("text", "json", "fcs")


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Add ``games``, ``policies``, ``deal`` and ``play`` to the ``simlab`` parser."""
    games = subparsers.add_parser("games", help="list the games with their parameters")
    games.set_defaults(func=games_command)
    policies = subparsers.add_parser("policies", help="list the policies with their parameters")
    policies.set_defaults(func=policies_command)
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


def games_command(args: argparse.Namespace) -> int:
    """List every game: name, title, PySolFC id and parameters."""
    for name in GAMES.names():
        cls = GAMES.get(name)
        pysol = f"PySolFC id {cls.pysol_id}" if cls.pysol_id is not None else "not in PySolFC"
        print(f"{name}: {cls.title} ({pysol})")
        _print_parameters(cls.parameters)
    return 0


def policies_command(args: argparse.Namespace) -> int:
    """List every policy: name, summary and parameters (``max_moves`` included)."""
    for name in POLICIES.names():
        cls = POLICIES.get(name)
        print(textwrap.fill(f"{name}: {summary(cls.__doc__)}", width=100, subsequent_indent="    "))
        _print_parameters(cls.all_parameters())
    return 0


def summary(doc: str | None) -> str:
    """A class docstring's first paragraph as one plain line: reST literals (````x````) shown
    as ``x``, pointers to the module's docstring left out (a reader of the list has none)."""
    paragraph = " ".join((doc or "").strip().split("\n\n")[0].split())
    return plain(re.sub(r" \((see )?(the )?module doc(string)?\)", "", paragraph))


def _print_parameters(parameters: Mapping[str, Param]) -> None:
    if not parameters:
        print("    (no parameters)")
    for key, param in parameters.items():
        line = f"{key}={param.default!r}  ({param.describe()}) {plain(param.doc)}"
        print(textwrap.fill(line, width=100, initial_indent="    ", subsequent_indent="        "))


def plain(text: str) -> str:
    """reST literals (````x````) as ``x``."""
    return re.sub(r"``(.+?)``", r"\1", text)


def deal_command(args: argparse.Namespace) -> int:
    """Print one deal as text, JSON or a Freecell Solver board."""
    game = make_game(args.game, **parse_cli_params(args.param))
    if args.format == "json":
        print(json.dumps(deal_json(game, args.deal)))
    elif args.format == "fcs":
        print(fcs_board(game, game.initial_state(args.deal)))
    else:
        print(f"{game.name} deal {args.deal}")
        print(game.render(game.initial_state(args.deal), reveal=args.reveal))
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


# Why a play ended, for a person (``PlayRecord.end_reason``).
END_WORDS = {
    "no_moves": "no legal move left",
    "gave_up": "legal moves left, none the policy would make",
    "repeat": "a position came back",
    "move_cap": "the move cap ran out",
    "exhausted": "the search proved no win is left",
    "budget": "the search's budget ran out",
    "memory": "the search's table filled",
}


def outcome(record: PlayRecord) -> str:
    """``won``, or the verdict with why play ended: ``lost (gave_up: legal moves left, ...)``."""
    if record.end_reason == record.verdict:
        return record.verdict
    words = END_WORDS.get(record.end_reason)
    return f"{record.verdict} ({record.end_reason}{': ' + words if words else ''})"


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
