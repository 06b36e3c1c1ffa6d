"""The phrases more than one subcommand prints: why a play ended (``play``, ``show``), how a
search ended (``solve``, ``hint``, ``show``) and what a ``thoughtful`` verdict knew."""

from __future__ import annotations

from simlab.engine.game import Game
from simlab.policies import PlayRecord
from simlab.solver import plan_for

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


# What each way a search ends means, for a person.
ENDINGS = {
    "exhausted": "no win exists; every reachable position was searched",
    "budget": "undecided: the budget of {budget:,} positions ran out",
    "memory": "undecided: the transposition table filled (raise --table-bits)",
}


def thoughtful_note(game: Game) -> str:
    """What a ``thoughtful`` verdict knew that a player cannot, in the search plan's words."""
    return f"thoughtful: {plan_for(game).reason('information')}, which a player cannot: an upper bound on fair play"
