"""One search plan per game: every choice the solver's searches make for a game, in one place.

``plan_for(game)`` derives a ``SearchPlan`` from the game's pile specs and rules
header once; ``simlab.solver.solve`` hands it to the searches, which read their
choices from it (the compiled ones from ``SearchPlan.array``) and never decide
them from the game again. ``simlab solve GAME --explain`` prints it in words.

The plans of every game of the registry (and of the rule sets the commit
comparison plays) are pinned in ``tests/golden/search_plans.txt``; after a
change that alters a plan on purpose, regenerate it and review the diff::

    python -m simlab.testing plans --write
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from weakref import WeakKeyDictionary

import numpy as np

from simlab.engine import kernel
from simlab.engine.game import Game
from simlab.engine.layout import (
    BASE_CHOSEN,
    BUILD,
    BUILD_DOWN_ANY_SUIT,
    BUILD_DOWN_SAME_SUIT,
    BUILD_NONE,
    DIR_UP,
    EMPTY_FILL,
    FILL_ANY,
    FILL_KINGS,
    FILL_NONE,
    FIRST_CELL,
    FIRST_FOUNDATION,
    FIRST_RESERVE,
    FOUNDATION_BY_SUIT,
    FOUNDATION_MODE,
    FOUNDATION_WRAP,
    HAS_SPECIAL,
    KIND_FOUNDATION,
    KIND_ROW,
    N_CARDS,
    N_RESERVES,
    SOURCE_LIMIT,
    STOCK_PILE,
    SUIT_BITS,
    SUIT_SAME,
    SUITS_MATTER,
    WRAP,
    PileSpec,
)
from simlab.engine.moves import card_moves_irreversible
from simlab.solver.autoplay import AUTOPLAY_DOWN_ANY_SUIT, AUTOPLAY_EVERY, AUTOPLAY_NONE, AUTOPLAY_SAME_SUIT
from simlab.solver.deadlock import (
    RELAXATION_CASTLE,
    RELAXATION_NONE,
    RELAXATION_SAME_SUIT,
    RELAXATION_STOCK,
    windmill_foundations,
)
from simlab.solver.stuck import STUCK_LEVELS

# Slots of ``SearchPlan.array``, the plan as the compiled searches read it.
PLAN_AUTOPLAY = 0  # ``AUTOPLAY_*``: which foundation plays are made automatically
PLAN_SNAPSHOTS = 1  # 1: every move is undone from a snapshot (card moves refill piles or keep a counter)
PLAN_RELAXATION = 2  # ``RELAXATION_*``: the loss proof consulted before expanding a position
PLAN_STUCK = 3  # ``SearchPlan.stuck``: how many foundation plays ``simlab.solver.stuck`` asks for (0: no check)
PLAN_RETURNS = 4  # ``SearchPlan.returns_pruned``: 1: pruning rule 5 (``simlab.solver.search``) applies
PLAN_LENGTH = 5

# The restarts take turns over these strategies (``simlab.solver.portfolio.restart``).
# Measured at 3M nodes on deals 1-1000 (unresolved Beleaguered Castle / Streets
# and Alleys): best-first with jittered guided depth-first 11 / 27, best-first
# with shuffled depth-first 7 / 20, shuffled depth-first alone 8 / 21.
RESTART_STRATEGIES = ("best_first", "shuffled_depth_first")
# Best-first search plays card moves only; a game with other moves (a redeal, a
# draw, a stock) or refills alternates the two seeded depth-first orders instead.
SPECIAL_RESTART_STRATEGIES = ("jittered_depth_first", "shuffled_depth_first")
# A game whose only moves besides card moves are a stock's (turn, recycle) and
# that makes no automatic plays (Windmill) has a best-first search over every
# move of its own (``simlab.solver.best_first.stock_best_first_search``), taking
# turns with jittered depth-first search, and no long depth-first search beside
# them (``SearchPlan.long_search``: it never proved a Windmill deal lost).
# Measured at 100,000 positions on the 35 PySolFC-rule deals of 1-100 that some
# plan left unresolved: stock best-first and jittered depth-first without the
# long search won 20; jittered first, then best-first, 17; best-first alone 16;
# stock best-first and shuffled depth-first beside the long search 18; the old
# plan (jittered and shuffled depth-first beside the long search, 200,000) 5.
STOCK_RESTART_STRATEGIES = ("stock_best_first", "jittered_depth_first")

# The searches of the lookahead player (``simlab.solver.lookahead``): the solver's
# best-first search where every move is a card move, else best-first over every move.
LOOKAHEAD_CARD_MOVES = "card_lookahead"
LOOKAHEAD_EVERY_MOVE = "plain_best_first"

AUTOPLAY_WORDS = {AUTOPLAY_NONE: "no", AUTOPLAY_DOWN_ANY_SUIT: "down-any-suit", AUTOPLAY_SAME_SUIT: "same-suit"}
RELAXATION_WORDS = {
    RELAXATION_NONE: "no", RELAXATION_CASTLE: "Castle", RELAXATION_SAME_SUIT: "same-suit", RELAXATION_STOCK: "stock",
}


@dataclass(frozen=True)
class SearchPlan:
    """Every choice the solver's searches make for one game, each with its reason.

    Args:
        game: the game's name and parameters, as ``repr(game)``.
        snapshot_every_move: every move is undone from a saved position, not in place.
        autoplay: ``AUTOPLAY_*``, derived from the pile specs (``automatic_plays``).
        relaxation: ``RELAXATION_*``, the loss proof the search consults
            (``RELAXATION_NONE`` unless its argument holds for the game).
        returns_pruned: pruning rule 5 (``simlab.solver.search``): a
            foundation's card is tried back on a row only while a redeal is ahead.
        lookahead: the lookahead player's search (``LOOKAHEAD_*``).
        restart_strategies: the strategies the portfolio's restarts take turns over.
        information: "open" (the solver sees what a player sees) or "thoughtful".
        long_search: one long depth-first search runs beside the restarts
            (``simlab.solver.portfolio``); False: the restarts alone.
        streamlined: a streamlined search looks for a win first
            (``simlab.solver.portfolio.streamlined_search``): every foundation
            play automatic, positions hashed by rank only.
        stuck: where the foundations have just changed, the depth-first
            searches check whether a win or this many more foundation plays
            are within reach (``simlab.solver.stuck``); 0: no check.
        reasons: per choice (``CHOICES``), why it is made.
        zobrist: the keys the searches hash positions with: by rank only
            where no rule reads a suit (``ranks_only``), else by card.
        check_zobrist: independent keys of the search that confirms a loss
            (``simlab.solver.portfolio``), by rank only where ``zobrist`` is.
    """

    game: str
    snapshot_every_move: bool
    autoplay: int
    relaxation: int
    returns_pruned: bool
    lookahead: str
    restart_strategies: tuple[str, ...]
    information: str
    reasons: tuple[tuple[str, str], ...]
    zobrist: np.ndarray = field(compare=False, repr=False)
    check_zobrist: np.ndarray = field(compare=False, repr=False)
    long_search: bool = True
    streamlined: bool = False
    stuck: int = 0

    def __post_init__(self) -> None:
        # the automatic plays make no refill and keep no counter: a game whose card moves do has none
        if self.snapshot_every_move and self.autoplay != AUTOPLAY_NONE:
            raise ValueError(f"{self.game}: automatic plays in a game whose card moves refill piles")

    @property
    def ranks_only(self) -> bool:
        """Whether the searches hash positions by rank only (``zobrist``)."""
        return self.zobrist is kernel.RANK_ZOBRIST

    @property
    def best_first(self) -> bool:
        """Whether a best-first search (of card moves, or of every move) is one of the restarts."""
        return any(strategy.endswith("best_first") for strategy in self.restart_strategies)

    @cached_property
    def array(self) -> np.ndarray:
        """The choices the compiled searches read, by ``PLAN_*`` slot."""
        values = np.zeros(PLAN_LENGTH, dtype=np.int64)
        values[PLAN_AUTOPLAY] = self.autoplay
        values[PLAN_SNAPSHOTS] = int(self.snapshot_every_move)
        values[PLAN_RELAXATION] = self.relaxation
        values[PLAN_STUCK] = self.stuck
        values[PLAN_RETURNS] = int(self.returns_pruned)
        return values

    @cached_property
    def streamlined_array(self) -> np.ndarray:
        """``array`` for the streamlined search: every foundation play automatic."""
        values = self.array.copy()
        values[PLAN_AUTOPLAY] = AUTOPLAY_EVERY
        values[PLAN_STUCK] = 0  # its keys are by rank only: they cannot tell the targets apart
        return values

    @property
    def streamlined_zobrist(self) -> np.ndarray:
        """The keys of the streamlined search (``simlab.solver.portfolio.streamlined_search``):
        by rank only in every game, a streamliner (positions alike but for the suits of
        their cards are one), whatever ``zobrist`` is."""
        return kernel.RANK_ZOBRIST

    @property
    def rounds_zobrist(self) -> np.ndarray:
        """The keys of the round searches (``simlab.solver.rounds``, and the information
        relaxation's through them): by card in every game, whatever ``zobrist`` is, since
        a redeal deals the very cards left, so positions alike but for suits go on apart."""
        return kernel.ZOBRIST

    def reason(self, choice: str) -> str:
        return dict(self.reasons)[choice]

    def summary(self) -> str:
        """The plan in one line, e.g. "no automatic plays, no best-first, ..."."""
        return ", ".join((
            f"{AUTOPLAY_WORDS[self.autoplay]} automatic plays",
            "best-first" if self.best_first else "no best-first",
            "snapshots" if self.snapshot_every_move else "undo in place",
            "rank-only hashing" if self.ranks_only else "suit-and-rank hashing",
            f"{RELAXATION_WORDS[self.relaxation]} relaxation",
            *(["a streamlined search first"] if self.streamlined else []),
            *([f"stuck checks up to {self.stuck} plays"] if self.stuck else []),
            self.information,
        ))

    def explain(self) -> list[str]:
        """The plan in words: the game and ``summary``, then one line per choice with its reason."""
        returns = "pruned unless a redeal is ahead" if self.returns_pruned else "never pruned"
        return [
            f"{self.game}: {self.summary()}",
            f"  hashing: {'ranks only' if self.ranks_only else 'suits and ranks'} ({self.reason('hashing')})",
            f"  undo: {'a snapshot per move' if self.snapshot_every_move else 'in place'} ({self.reason('undo')})",
            f"  automatic plays: {AUTOPLAY_WORDS[self.autoplay]} ({self.reason('autoplay')})",
            f"  loss relaxation: {RELAXATION_WORDS[self.relaxation]} ({self.reason('relaxation')})",
            f"  foundation cards back on rows: {returns} ({self.reason('returns')})",
            f"  restarts: {', '.join(self.restart_strategies)} ({self.reason('restarts')})",
            f"  streamlined search first: {'yes' if self.streamlined else 'no'} ({self.reason('streamlined')})",
            f"  stuck checks: {f'up to {self.stuck} plays' if self.stuck else 'no'} ({self.reason('stuck')})",
            f"  lookahead player: {self.lookahead} ({self.reason('lookahead')})",
            f"  information: {self.information} ({self.reason('information')})",
        ]


CHOICES = ("hashing", "undo", "autoplay", "relaxation", "returns", "restarts", "streamlined", "stuck", "lookahead",
           "information")


# One plan per game object: solve, the round searches and the fair players ask
# for it at every search (tens of microseconds each to derive, in their loops).
_PLANS: WeakKeyDictionary[Game, SearchPlan] = WeakKeyDictionary()


def plan_for(game: Game) -> SearchPlan:
    """The search plan of ``game`` (module docstring), derived once per game."""
    plan = _PLANS.get(game)
    if plan is None:
        plan = _PLANS[game] = derive_plan(game)
    return plan


def derive_plan(game: Game) -> SearchPlan:
    """Every choice of ``game``'s search, with its reason."""
    rules = game.rules
    snapshots = bool(card_moves_irreversible(rules))
    autoplay, autoplay_reason = automatic_plays(game)
    relaxation, relaxation_reason = loss_relaxation(rules)
    special = bool(rules[HAS_SPECIAL])
    if autoplay != AUTOPLAY_NONE and game.table.redeals:
        autoplay_reason += "; none while a redeal is ahead (it gathers the cards left in rows)"
    ranks_only = not rules[SUITS_MATTER]
    hidden = "hidden cards" if game.has_hidden_cards else ""
    chance = "shuffles to come" if game.has_chance else ""
    reasons = {
        "hashing": "every rule reads ranks only" if ranks_only else "rules read suits",
        "undo": ("card moves refill piles or keep a counter" if snapshots
                 else "card moves are their own inverse; other moves are undone from a snapshot" if special
                 else "every move is its own inverse"),
        "autoplay": autoplay_reason,
        "relaxation": relaxation_reason,
        "returns": returns_reason(rules),
        "restarts": restarts_reason(game, autoplay),
        "streamlined": streamlined_reason(autoplay),
        "stuck": stuck_reason(rules, relaxation),
        "lookahead": ("a stock, a redeal or a refill: best-first over every move, each on a copy" if special
                      else "every move is a card move: the solver's best-first search"),
        "information": (f"the solver sees {' and '.join(filter(None, (hidden, chance)))}" if hidden or chance
                        else "the solver sees what a player sees"),
    }
    return SearchPlan(
        game=repr(game),
        snapshot_every_move=snapshots,
        autoplay=autoplay,
        relaxation=relaxation,
        returns_pruned=returns_pruned(rules),
        lookahead=LOOKAHEAD_EVERY_MOVE if special else LOOKAHEAD_CARD_MOVES,
        restart_strategies=restart_strategies(game, autoplay),
        information="thoughtful" if game.has_hidden_cards or game.has_chance else "open",
        reasons=tuple(reasons.items()),
        zobrist=kernel.RANK_ZOBRIST if ranks_only else kernel.ZOBRIST,
        check_zobrist=kernel.RANK_CHECK_ZOBRIST if ranks_only else kernel.CHECK_ZOBRIST,
        long_search=not (special and stock_only(game, autoplay)),
        streamlined=autoplay == AUTOPLAY_DOWN_ANY_SUIT,
        stuck=STUCK_LEVELS if checks_stuck(rules, relaxation) else 0,
    )


def foundations_give(rules: np.ndarray) -> bool:
    """Whether a card move may take a foundation's card (``kernel.legal_moves`` takes
    cards from the piles below ``SOURCE_LIMIT`` only)."""
    return bool(rules[SOURCE_LIMIT] > rules[FIRST_FOUNDATION])


def returns_pruned(rules: np.ndarray) -> bool:
    """Whether pruning rule 5 applies (``simlab.solver.search.foundation_card_may_return``
    argues it): a foundation's card may go back to a row, and rows build down in suit."""
    return foundations_give(rules) and bool(rules[BUILD] == BUILD_DOWN_SAME_SUIT)


def returns_reason(rules: np.ndarray) -> str:
    """Why the plan does or does not prune a foundation's card going back to a row."""
    if not foundations_give(rules):
        return "no card leaves a foundation"
    if returns_pruned(rules):
        return ("rows build down in suit: a card back on a row holds only its suit's next lower card, "
                "home as long as it was; a redeal ahead would gather it")
    return "argued only where rows build down in suit"


def checks_stuck(rules: np.ndarray, relaxation: int) -> bool:
    """Whether the depth-first searches check for stuck foundations
    (``SearchPlan.stuck``): ``simlab.solver.stuck`` argues it for the Castle
    relaxation's rules (rows down regardless of suit, any card in a space, one
    deck by suit, no reserve) where card moves are the only moves and no card
    leaves a foundation."""
    return (relaxation == RELAXATION_CASTLE and not rules[HAS_SPECIAL]
            and not foundations_give(rules) and not card_moves_irreversible(rules))


def stuck_reason(rules: np.ndarray, relaxation: int) -> str:
    """Why the plan does or does not check for stuck foundations."""
    if checks_stuck(rules, relaxation):
        return ("moves between rows and cells read ranks only: whether a win or more foundation plays are "
                "within reach is searched by rank, the next cards of each suit apart")
    if relaxation != RELAXATION_CASTLE:
        return "argued only for rows down regardless of suit, one deck by suit"
    return "argued only where card moves are the only moves and no card leaves a foundation"


def streamlined_reason(autoplay: int) -> str:
    """Why the plan does or does not search streamlined first (``SearchPlan.streamlined``)."""
    if autoplay == AUTOPLAY_DOWN_ANY_SUIT:
        return ("rows down regardless of suit: most wins survive playing every card home at once and "
                "hashing by rank only, and the search they leave is small")
    if autoplay == AUTOPLAY_NONE:
        return "no automatic plays to streamline"
    return "building in suit: nearly every foundation play is safe already, and suits decide the builds"


def stock_only(game: Game, autoplay: int) -> bool:
    """Whether ``game``'s moves besides card moves are only a stock's (no redeal,
    no draw) and it makes no automatic plays: ``stock_best_first`` searches it."""
    layout = game.table
    return layout.stock and not layout.redeals and not layout.draws and autoplay == AUTOPLAY_NONE


def restart_strategies(game: Game, autoplay: int) -> tuple[str, ...]:
    """The strategies the portfolio's restarts take turns over (``restarts_reason`` says why)."""
    if not game.rules[HAS_SPECIAL]:
        return RESTART_STRATEGIES
    return STOCK_RESTART_STRATEGIES if stock_only(game, autoplay) else SPECIAL_RESTART_STRATEGIES


def restarts_reason(game: Game, autoplay: int) -> str:
    if not game.rules[HAS_SPECIAL]:
        return "every move is a card move, which best-first plays"
    if stock_only(game, autoplay):
        return ("card moves and the stock's, no automatic plays: best-first over every move and jittered "
                "depth-first take turns, no long depth-first search")
    return "best-first plays card moves only; this game has other moves or refills"


def automatic_plays(game: Game) -> tuple[int, str]:
    """The automatic-play rule (``AUTOPLAY_*``) the pile specs allow, and why.

    Each rule of ``simlab.solver.autoplay`` is argued for a kind of game; this
    finds the kind from the specs, and answers ``AUTOPLAY_NONE`` for any game
    outside every argued kind:
    - card moves that refill a pile or keep a counter: none (the automatic plays
      make no refill and keep no counter, and the argument needs a card move to
      change only its two piles);
    - foundations: there must be four per deck, each building up to 13 cards
      from the ace (or, with building in suit, a chosen base), and no player's
      move takes a card off one unless rows build in suit in one deck;
    - every pile a player builds on builds down regardless of suit without
      wrap, foundations from the ace without wrap: ``AUTOPLAY_DOWN_ANY_SUIT``
      (the only card built on a card of rank r has rank r-1, all home);
    - every pile a player builds on builds in suit, one deck, each foundation
      of one suit, wrapping wherever the rows wrap: ``AUTOPLAY_SAME_SUIT`` (a
      card built on c is its suit's neighbour: the one below is home, the one
      above can follow c home).
    """
    layout = game.table
    if card_moves_irreversible(game.rules):
        return AUTOPLAY_NONE, "card moves refill piles or keep a counter, which automatic plays do not"
    specs = layout.specs
    foundations = [spec for spec in specs if spec.kind == KIND_FOUNDATION]
    builders = [spec for spec in specs if spec.kind != KIND_FOUNDATION and spec.build != BUILD_NONE]
    if not builders or not all(spec.kind == KIND_ROW for spec in builders):
        return AUTOPLAY_NONE, "no rule argued for these piles"
    if len(foundations) != 4 * layout.decks or not all(runs_up_to_king(spec) for spec in foundations):
        return AUTOPLAY_NONE, "foundations are not four runs of 13 up per deck"
    if all(spec.build == BUILD_DOWN_ANY_SUIT and not spec.wrap for spec in builders) and all(
        spec.base == 0 and not spec.wrap and not spec.gives for spec in foundations
    ):
        return AUTOPLAY_DOWN_ANY_SUIT, ("rows build down regardless of suit: a card whose rank below is all home "
                                        "can never hold a card")
    if layout.decks == 1 and all(spec.build & SUIT_BITS == SUIT_SAME for spec in builders) and all(
        spec.suit >= 0 and (spec.wrap or not any(builder.wrap for builder in builders)) for spec in foundations
    ):
        return AUTOPLAY_SAME_SUIT, ("rows build in suit, one deck: the card below is home, the card above can "
                                    "follow it")
    return AUTOPLAY_NONE, "no rule argued for these piles"


def runs_up_to_king(spec: PileSpec) -> bool:
    """Whether a foundation builds up 13 cards from the ace or a chosen base."""
    return spec.build == DIR_UP and spec.limit == 13 and (spec.base in (0, BASE_CHOSEN))


def loss_relaxation(rules: np.ndarray) -> tuple[int, str]:
    """The loss proof (``RELAXATION_*``) argued for these rules, and why
    (``simlab.solver.deadlock``'s docstring gives the arguments)."""
    one_deck_by_suit = (
        rules[FOUNDATION_MODE] == FOUNDATION_BY_SUIT and rules[FOUNDATION_WRAP] == 0 and rules[N_CARDS] == 52
        and rules[N_RESERVES] == 0 and rules[WRAP] == 0
    )
    if one_deck_by_suit and rules[BUILD] == BUILD_DOWN_ANY_SUIT and rules[EMPTY_FILL] == FILL_ANY:
        return RELAXATION_CASTLE, "rows down regardless of suit, any card in a space, one deck by suit"
    if (
        one_deck_by_suit and rules[BUILD] == BUILD_DOWN_SAME_SUIT
        and rules[EMPTY_FILL] in (FILL_KINGS, FILL_NONE) and rules[FIRST_RESERVE] == rules[FIRST_CELL]
        and rules[STOCK_PILE] < 0
    ):
        return RELAXATION_SAME_SUIT, ("fans down in suit, kings or nothing in a space, one deck by suit; "
                                     "only while no redeal or draw is ahead")
    if (
        rules[STOCK_PILE] >= 0 and rules[BUILD] == BUILD_NONE and rules[EMPTY_FILL] == FILL_NONE
        and rules[FIRST_RESERVE] == rules[FIRST_CELL] and rules[N_RESERVES] == 0 and windmill_foundations(rules)
    ):
        return RELAXATION_STOCK, ("a stock and a waste whose cards only go home, Windmill's foundations: the "
                                  "waste's cards come out one per card home, top first, unless a pass is left")
    return RELAXATION_NONE, "no relaxation argued for these rules"
