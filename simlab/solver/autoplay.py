"""Safe automatic foundation plays: the only pruning of foundation moves the solver does.

A play is *safe* when the position after it is at least as good as the position
before it: every line of play from the old position can be followed from the new
one. The argument, shared by every rule here: let ``c`` be the card played home
and ``H`` the set of cards that, in the old line, get built on ``c`` (or on cards
of ``H``). Follow the old line move by move; a move of a card of ``H`` is
replaced by playing that card home (or by nothing if it is home already), every
other move is made unchanged. This stays legal as long as each card of ``H`` can
go home at the moment the old line puts it on ``c``. Piles in the new line hold
the same cards minus those of ``H``, so tops, empty rows and free cells are the
same or better, and the new line wins whenever the old one does. Each rule below
only states why the cards of ``H`` can always go home. Which rule a game gets
(``AUTOPLAY_*``) is derived from its pile specs by ``simlab.solver.plan.automatic_plays``.
"""

from __future__ import annotations

from simlab.engine import kernel
from simlab.engine.compiled import allocation_free, allocation_free_inlined
from simlab.engine.layout import (
    COUNTER_REDEALS,
    COUNTER_SLOTS,
    FIRST_FOUNDATION,
    FOUNDATION_CHOSEN_BASE,
    FOUNDATION_MODE,
    MOVE_BASE,
    N_PILES,
)

# Which foundation plays are made automatically (``simlab.solver.plan.automatic_plays``
# derives the kind from a game's pile specs).
AUTOPLAY_NONE = 0
AUTOPLAY_DOWN_ANY_SUIT = 1  # ``safe_down_any_suit``
AUTOPLAY_SAME_SUIT = 2  # ``safe_same_suit``
# Not a safe rule but a streamliner (Blake and Gent's "auto-foundations"): every
# card a foundation accepts goes home at once. A search under it may miss every
# win, so its exhausting proves nothing; ``simlab.solver.portfolio`` runs it
# only to find wins, whose lines replay under the full rules.
AUTOPLAY_EVERY = 3


@allocation_free
def safe_down_any_suit(rules, state, card):
    """Building down regardless of suit, one deck (Castle family).

    Rule: a card of rank r may go home when every foundation already holds rank
    r-1 (or, for an ace, always). Argument: the only cards that can be built on
    ``c`` have rank r-1, and all four of them are already home, so ``H`` is
    empty. (Aces: nothing is ever built on an ace.)

    The weaker rule "at most two above the lowest foundation" (Solvitaire's) is
    safe here too by the same argument: a rank r-1 card built on ``c`` can go
    straight home, since every foundation holds r-2, and nothing can be built
    on it, since all rank r-2 cards are home (a test checks a position where the
    r-3 variant fails and r-2 does not). It changed no verdict and no count on
    Beleaguered Castle deals 1-200, so the stricter rule, which nobody disputes,
    is kept; the solver issue lists the weaker one as a known trap.
    """
    rank = card % 13
    for pile in range(rules[FIRST_FOUNDATION], rules[N_PILES]):
        if kernel.height(rules, state, pile) < rank:
            return False
    return True


@allocation_free
def safe_same_suit(rules, state, card):
    """Building up or down in suit (Fortress, Chessboard), one deck.

    Rule (foundations from a fixed base, Fortress): a card that its foundation
    accepts may always go home. Argument: cards built on ``c`` are of its suit,
    one rank away. The one below is home already; the one above goes home right
    after ``c``, and so on: in the old line ``H`` is a run c+1, c+2, ... of c's
    suit, each of which can go home when it is put on the run.
    Chosen, wrapping base (Chessboard): the same, but only once the foundation
    of ``c``'s suit holds a card. The first card of a suit (the base rank) is
    NOT played automatically: the card one below it (wrapping) is the last card
    of that suit to go home, and ``c`` may be needed to hold it; and the choice
    of base is a decision of the player that the search must make.
    """
    if rules[FOUNDATION_MODE] == FOUNDATION_CHOSEN_BASE:
        foundation = rules[FIRST_FOUNDATION] + (card // 13) % 4
        return kernel.height(rules, state, foundation) > 0
    return True


@allocation_free
def shuffles_ahead(rules, state):
    """Whether a redeal is still to come. Then no foundation play is safe: a
    redeal gathers the fans with the cards they hold, so a card left in a fan
    changes every later shuffle (the search, which knows the deal's shuffles,
    may need to keep it there), and a play home must be searched as a choice."""
    return rules[COUNTER_SLOTS] > 0 and kernel.counter(rules, state, COUNTER_REDEALS) > 0


@allocation_free
def is_safe(rules, state, card, autoplay):
    """Whether playing ``card`` home (already known to be legal) is safe under
    the rule ``autoplay`` (``AUTOPLAY_*``, the game's search plan's)."""
    return not shuffles_ahead(rules, state) and safe_within_round(rules, state, card, autoplay)


@allocation_free
def safe_within_round(rules, state, card, autoplay):
    """``is_safe`` for a search that ends at the next redeal (``simlab.solver.rounds``):
    the rule ``autoplay``, whatever shuffles lie ahead."""
    if autoplay == AUTOPLAY_DOWN_ANY_SUIT:
        return safe_down_any_suit(rules, state, card)
    if autoplay == AUTOPLAY_SAME_SUIT:
        return safe_same_suit(rules, state, card)
    return autoplay == AUTOPLAY_EVERY


@allocation_free
def lowest_foundation(rules, state):
    """How many cards the emptiest foundation holds."""
    lowest = 13
    for pile in range(rules[FIRST_FOUNDATION], rules[N_PILES]):
        lowest = min(lowest, kernel.height(rules, state, pile))
    return lowest


@allocation_free_inlined
def safe_foundation(rules, state, card, autoplay):
    """The foundation that ``card`` (were it a top card) would be played onto
    automatically under the rule ``autoplay``, or -1."""
    for foundation in range(rules[FIRST_FOUNDATION], rules[N_PILES]):
        if kernel.foundation_accepts(rules, state, foundation, card):
            return foundation if is_safe(rules, state, card, autoplay) else -1
    return -1


@allocation_free
def next_safe_play(rules, state, autoplay):
    """A safe foundation play available now under the rule ``autoplay``, or -1."""
    # Building down regardless of suit: only ranks up to the lowest foundation's
    # height can be safe; checking that first skips most cards cheaply.
    if shuffles_ahead(rules, state):
        return -1
    highest_safe_rank = lowest_foundation(rules, state) if autoplay == AUTOPLAY_DOWN_ANY_SUIT else 12
    for source in range(rules[FIRST_FOUNDATION]):
        card = kernel.top_card(rules, state, source)
        if card < 0 or card % 13 > highest_safe_rank:
            continue
        foundation = safe_foundation(rules, state, card, autoplay)
        if foundation >= 0:
            return source * MOVE_BASE + foundation
    return -1
