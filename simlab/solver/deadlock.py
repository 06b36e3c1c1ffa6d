"""Cheap proofs that a position is lost: a relaxation the search consults before
expanding a position.

Why: measured on Beleaguered Castle deal 981 (lost), 99.4% of the 9.7 million
positions the search had to visit to prove the loss were rearrangements of
cards already built on a card one rank higher, all with the same 11 cards home
and no empty row: the search shuffles cards between equal targets while some
card below them can never leave. Spotting that once, where it starts, prunes
the whole family of rearrangements.

The relaxation (Castle family: building down regardless of suit, one card at a
time, any card into an empty row or cell, foundations by suit from the ace).
A card *can leave* its place if every card above it can leave, and then it has
somewhere to go:
- home: every lower card of its suit is home or can leave;
- onto a card one rank higher (any suit) that can leave, or that sits in a row
  (not a cell), other than this card's own, with every card above it able to
  leave;
- into a pile (row or cell) other than its own that is empty or whose cards
  can all leave.
The smallest set of cards closed under these rules is computed by repeating
them until nothing changes. If some card is not in it, the position is lost.

Argument (an over-approximation of every line of play): take any line from the
position and the moments at which cards first leave their places, in order. By
induction on that order, each card that leaves is in the set: when it leaves,
the cards above it have left already (they are in the set), and where it goes
was prepared by earlier departures: home needs every lower card of its suit
home, each of which left its place earlier; a card one rank higher is a top
either at its own place (everything above it left earlier) or somewhere it was
moved to (it left earlier); an empty pile was emptied by earlier departures
(or was empty). A win moves every card home, so every card must be in the set.
Once some pile can be emptied, every card can leave (into it, from the top of
each pile down), so the computation stops there with "not lost".
The relaxation ignores that a target holds one card at a time and the order in
which things happen, which is why it only ever errs towards "not lost".

Fans building down in suit (Fan, and La Belle Lucie or Trefoil once no redeal
or draw is ahead) get the same relaxation with their own rules
(``same_suit_lost``): a card's only target is the next higher card of its own
suit, and an empty pile takes only a king (Fan) or nothing (La Belle Lucie),
so an emptiable pile no longer frees every card: a king may leave into a pile
other than its own that is empty or whose cards can all leave. The argument
is the one above, word for word.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.compiled import allocation_free
from simlab.engine.layout import (
    COUNTER_DRAWS,
    COUNTER_REDEALS,
    COUNTER_SLOTS,
    EMPTY_FILL,
    FILL_KINGS,
    FIRST_CELL,
    FIRST_FOUNDATION,
    FIRST_RESERVE,
    MOVE_BASE,
    OFFSET_BASE,
)

# Which relaxation a search consults (``simlab.solver.plan.loss_relaxation`` chooses).
RELAXATION_NONE = 0
RELAXATION_CASTLE = 1  # ``castle_lost``: building down regardless of suit
RELAXATION_SAME_SUIT = 2  # ``same_suit_lost``, while no redeal or draw is ahead


@allocation_free
def new_places_ahead(rules, state):
    """Whether a redeal or a draw is still to come: they would bring new places
    for every card, so ``same_suit_lost`` is argued only once none is."""
    if rules[COUNTER_SLOTS] == 0:
        return False
    return kernel.counter(rules, state, COUNTER_REDEALS) > 0 or kernel.counter(rules, state, COUNTER_DRAWS) > 0


@allocation_free
def only_rearranges(rules, state, move):
    """Whether ``move`` (not yet made) takes a card off a card it builds on and
    puts it on a row's top card: the two tops it changes have the same rank
    before and after, so the search skips the relaxation after such a move
    (measured on deal 981: checking after them too pruned no more positions,
    at 1.3x the time)."""
    source = move // MOVE_BASE
    destination = move % MOVE_BASE
    height = kernel.height(rules, state, source)
    if source >= rules[FIRST_CELL] or destination >= rules[FIRST_CELL] or height < 2:
        return False
    if kernel.height(rules, state, destination) == 0:
        return False
    card = kernel.card_at(rules, state, source, height - 1)
    return kernel.can_build(rules, card, kernel.card_at(rules, state, source, height - 2))


@njit(cache=True)
def provably_lost(rules, state, relaxation):
    """True when the relaxation ``relaxation`` (``RELAXATION_*``, the game's
    search plan's; module docstring) shows the position cannot be won; False
    when it cannot tell, or for ``RELAXATION_NONE``."""
    return provably_lost_using(rules, state, relaxation_scratch(rules), relaxation)


@njit(cache=True)
def relaxation_scratch(rules):
    """Working space for ``provably_lost_using``: a search makes it once."""
    return np.empty(3 * 52 + rules[FIRST_RESERVE], dtype=np.int64)


@allocation_free
def provably_lost_using(rules, state, scratch, relaxation):
    """``provably_lost`` working in ``scratch`` (from ``relaxation_scratch``), so
    that the search's inner loop creates no array."""
    if relaxation == RELAXATION_SAME_SUIT:
        return not new_places_ahead(rules, state) and same_suit_lost(rules, state, scratch)
    return relaxation == RELAXATION_CASTLE and castle_lost(rules, state, scratch)


@allocation_free
def castle_lost(rules, state, scratch):
    """The relaxation for building down regardless of suit (module docstring):
    True when no pile can be emptied."""
    if state[rules[OFFSET_BASE]] != 0:
        return False
    piles = rules[FIRST_RESERVE]  # rows, then cells
    for pile in range(piles):
        if kernel.height(rules, state, pile) == 0:
            return False  # every card has somewhere to go: this pile
    for index in range(scratch.shape[0]):
        scratch[index] = 0
    pile_of = scratch[:52]  # the pile each card is in; -1: home
    place = scratch[52:104]  # its index in that pile
    can_leave = scratch[104:156]  # 1 once the card is known to be able to leave
    staying = scratch[156:]  # per pile: cards not (yet) known to be able to leave
    pile_of[:] = -1
    for pile in range(piles):
        staying[pile] = kernel.height(rules, state, pile)
        for index in range(staying[pile]):
            card = kernel.card_at(rules, state, pile, index)
            pile_of[card] = pile
            place[card] = index
    changed = True
    while changed:
        changed = False
        for pile in range(piles):
            for index in range(kernel.height(rules, state, pile) - 1, -1, -1):
                card = kernel.card_at(rules, state, pile, index)
                if can_leave[card] == 1:
                    continue
                if not has_destination(rules, state, card, pile, pile_of, place, can_leave):
                    break  # nor can any card below it leave, this round
                can_leave[card] = 1
                staying[pile] -= 1
                if staying[pile] == 0:
                    return False  # a pile that can be emptied is somewhere for every card to go
                changed = True
    return True  # no pile can be emptied: the bottom card of each stays


@allocation_free
def has_destination(rules, state, card, pile, pile_of, place, can_leave):
    """Whether ``card`` (every card above it can leave) has somewhere to go, as
    far as the cards known so far to be able to leave tell."""
    # (no pile is empty or known to be emptiable: ``provably_lost`` stops at the first)
    if can_go_home(rules, state, card, can_leave):
        return True
    rank = card % 13
    if rank == 12:
        return False
    for target_suit in range(4):
        target = target_suit * 13 + rank + 1
        target_pile = pile_of[target]
        if target_pile < 0:
            continue
        if can_leave[target] == 1:
            return True
        if target_pile == pile or target_pile >= rules[FIRST_CELL]:
            continue
        if uncoverable(rules, state, target_pile, place[target], can_leave):
            return True
    return False


@allocation_free
def can_go_home(rules, state, card, can_leave):
    """Whether every lower card of ``card``'s suit is home or can leave."""
    suit = card // 13
    for lower in range(kernel.height(rules, state, rules[FIRST_FOUNDATION] + suit), card % 13):
        if can_leave[suit * 13 + lower] == 0:
            return False
    return True


@allocation_free
def uncoverable(rules, state, pile, index, can_leave):
    """Whether every card above position ``index`` of ``pile`` can leave."""
    for above in range(index + 1, kernel.height(rules, state, pile)):
        if can_leave[kernel.card_at(rules, state, pile, above)] == 0:
            return False
    return True


@allocation_free
def same_suit_lost(rules, state, scratch):
    """The relaxation for fans building down in suit (module docstring): True
    when some card of a fan can never leave it."""
    piles = rules[FIRST_CELL]
    for index in range(scratch.shape[0]):
        scratch[index] = 0
    pile_of = scratch[:52]
    place = scratch[52:104]
    can_leave = scratch[104:156]
    staying = scratch[156:]
    pile_of[:] = -1
    stuck = 0  # cards not (yet) known to be able to leave
    for pile in range(piles):
        staying[pile] = kernel.height(rules, state, pile)
        stuck += staying[pile]
        for index in range(staying[pile]):
            card = kernel.card_at(rules, state, pile, index)
            pile_of[card] = pile
            place[card] = index
    changed = True
    while changed and stuck > 0:
        changed = False
        for pile in range(piles):
            for index in range(kernel.height(rules, state, pile) - 1, -1, -1):
                card = kernel.card_at(rules, state, pile, index)
                if can_leave[card] == 1:
                    continue
                if not same_suit_destination(rules, state, card, pile, pile_of, place, can_leave, staying):
                    break  # nor can any card below it leave, this round
                can_leave[card] = 1
                staying[pile] -= 1
                stuck -= 1
                changed = True
    return stuck > 0


@allocation_free
def same_suit_destination(rules, state, card, pile, pile_of, place, can_leave, staying):
    """``has_destination`` for fans building down in suit: home, the next
    higher card of its suit, or (a king, where spaces take kings) a pile other
    than its own that is empty or can be emptied."""
    if can_go_home(rules, state, card, can_leave):
        return True
    rank = card % 13
    if rank == 12:
        if rules[EMPTY_FILL] != FILL_KINGS:
            return False
        for other in range(rules[FIRST_CELL]):
            if other != pile and staying[other] == 0:
                return True
        return False
    target = card + 1
    target_pile = pile_of[target]
    if target_pile < 0:
        return False  # the next higher card is home, so this one is too: not reached
    if can_leave[target] == 1:
        return True
    return target_pile != pile and uncoverable(rules, state, target_pile, place[target], can_leave)
