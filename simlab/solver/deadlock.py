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

A face-down stock with a waste whose cards leave only for a foundation, with
Windmill's foundations (every rule set: ``stock_lost``), gets a relaxation of
its own. Cards never leave the foundations for any other pile, and the rules read
ranks only, so the foundations are their heights: a centre of c cards (up from
its ace, wrapping) takes rank c mod 13, a king pile of k cards (down from a
king) takes rank 12 - k. A card moves between the centre and a king pile only
where they *meet*, 13 dividing c + k (the centre's top is one below the pile's),
and then either way, so they still meet. The relaxation keeps a set of
possible centre heights and one of possible king pile heights (any pile),
closed under such transfers, and a *pool* of cards that may be played: the
sails, the stock and the waste's top (the whole waste when a pass is left).
It plays every pool card whose rank some possible height takes, adding the
height one more to its set (and, a rank once played, every later copy); each
card played releases the next card of the waste, top first, into the pool;
until nothing changes. A card never played proves the position lost.

Argument (an over-approximation of every line): by induction over the line's
events, the real centre height and every real king pile height are in the
sets, every card gone home from the pool was played, and at least as many
waste cards were released as have left the waste. A transfer moves a meeting
pair one step (in the sets by closure; between two king piles it only swaps
heights both in the set). A card going home goes onto a height that takes its
rank, in the set, so the relaxation played it and added the new height. A
waste card leaves the waste only when a card goes home (from the waste's top
itself, or from a sail that the waste's top then refills): at most one per
card home, each counted by a play. Turning the stock changes no foundation and
releases no waste card. A win sends every card home, so every card is played.
The relaxation ignores which pile has which height, the guards and the
centre's cap, and lets every copy of a played rank play, so it only errs
towards "not lost". (Releasing a waste card for a stock card played is part of
the over-approximation: a turned card going home from a sail pulls one too.)
The search asks it only once the stock is empty: before, the stock's cards in
the pool almost always let every card play, and the test costs about as much
as a position. The search plan chooses it only for Windmill's foundations
(``windmill_foundations``), which it reads as heights.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.compiled import allocation_free, allocation_free_inlined
from simlab.engine.layout import (
    COUNTER_DRAWS,
    COUNTER_RECYCLES,
    COUNTER_REDEALS,
    COUNTER_SLOTS,
    DIR_UP,
    EMPTY_FILL,
    FILL_KINGS,
    FIRST_CELL,
    FIRST_FOUNDATION,
    FIRST_RESERVE,
    MOVE_BASE,
    N_PILES,
    OFFSET_BASE,
    P_BASE,
    P_BUILD,
    P_LIMIT,
    P_WRAP,
    STOCK_PILE,
    WASTE_PILE,
)

# Which relaxation a search consults (``simlab.solver.plan.loss_relaxation`` chooses).
RELAXATION_NONE = 0
RELAXATION_CASTLE = 1  # ``castle_lost``: building down regardless of suit
RELAXATION_SAME_SUIT = 2  # ``same_suit_lost``, while no redeal or draw is ahead
RELAXATION_STOCK = 3  # ``stock_lost``: a stock and a waste whose cards only go home (Windmill)


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
    if relaxation == RELAXATION_STOCK:
        # only once the stock is empty: before, its cards in the pool almost always let every card play,
        # and the test costs about as much as a position
        return kernel.height(rules, state, rules[STOCK_PILE]) == 0 and stock_lost(rules, state, scratch)
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


@allocation_free_inlined
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



RANKS = 13


@allocation_free
def windmill_foundations(rules):
    """Whether the foundations are Windmill's (the first builds up from the ace
    with wrap, keeping its first card; the others build down from the king
    without wrap): ``stock_lost`` reads them as heights, so the search plan
    (``simlab.solver.plan.loss_relaxation``) chooses ``RELAXATION_STOCK`` only then."""
    first = rules[FIRST_FOUNDATION]
    if not (kernel.spec(rules, first, P_BUILD) & DIR_UP and kernel.spec(rules, first, P_WRAP) == 1
            and kernel.spec(rules, first, P_BASE) == 0):
        return False
    for pile in range(first + 1, rules[N_PILES]):
        if kernel.spec(rules, pile, P_BUILD) & DIR_UP or kernel.spec(rules, pile, P_WRAP) == 1:
            return False
        if kernel.spec(rules, pile, P_BASE) != RANKS - 1 or kernel.spec(rules, pile, P_LIMIT) != RANKS:
            return False
    return True


@allocation_free
def slide(centre, kings, centre_limit):
    """Close the possible centre heights ``centre`` and king pile heights
    ``kings`` (bit sets) under transfers (``stock_lost``): a centre of c cards
    and a king pile of k meet when c + k is a multiple of 13 (the centre's top
    is one below the pile's), and then a card may go either way."""
    changed = True
    while changed:
        changed = False
        for c in range(1, centre_limit + 1):
            if not (centre >> c) & 1:
                continue
            for k in range(RANKS + 1):
                if not (kings >> k) & 1 or (c + k) % RANKS != 0:
                    continue
                if c < centre_limit and k >= 1:  # the pile's top onto the centre
                    if not (centre >> (c + 1)) & 1 or not (kings >> (k - 1)) & 1:
                        centre |= np.int64(1) << (c + 1)
                        kings |= np.int64(1) << (k - 1)
                        changed = True
                if c >= 2 and k < RANKS:  # the centre's top onto the pile
                    if not (centre >> (c - 1)) & 1 or not (kings >> (k + 1)) & 1:
                        centre |= np.int64(1) << (c - 1)
                        kings |= np.int64(1) << (k + 1)
                        changed = True
    return centre, kings


@allocation_free
def stock_lost(rules, state, pool):
    """The relaxation for a stock and a waste whose cards only go home, with
    Windmill's foundations (module docstring): True when some card could never
    be played. ``pool`` (scratch, at least 13) counts per rank the cards in the
    pool not yet played."""
    first = rules[FIRST_FOUNDATION]
    centre_limit = kernel.spec(rules, first, P_LIMIT)
    centre = np.int64(1) << kernel.height(rules, state, first)
    kings = np.int64(0)
    for pile in range(first + 1, rules[N_PILES]):
        kings |= np.int64(1) << kernel.height(rules, state, pile)
    for rank in range(RANKS):
        pool[rank] = 0
    waste = rules[WASTE_PILE]
    for pile in range(first):
        if pile != waste:
            for index in range(kernel.height(rules, state, pile)):
                pool[kernel.card_at(rules, state, pile, index) % RANKS] += 1
    waste_left = kernel.height(rules, state, waste)  # cards of the waste not yet in the pool, from the top down
    if rules[COUNTER_SLOTS] > 0 and kernel.counter(rules, state, COUNTER_RECYCLES) > 0:
        for index in range(waste_left):  # a pass is left: the whole waste comes round again
            pool[kernel.card_at(rules, state, waste, index) % RANKS] += 1
        waste_left = 0
    elif waste_left > 0:
        waste_left -= 1
        pool[kernel.card_at(rules, state, waste, waste_left) % RANKS] += 1
    played = np.int64(0)  # ranks played (every copy in the pool, now and later)
    changed = True
    while changed:
        changed = False
        centre, kings = slide(centre, kings, centre_limit)
        released = 0
        for c in range(1, centre_limit):  # a centre of c cards takes rank c % 13
            rank = c % RANKS
            if (centre >> c) & 1 and pool[rank] + ((played >> rank) & 1) > 0:
                released += pool[rank]
                pool[rank] = 0
                played |= np.int64(1) << rank
                if not (centre >> (c + 1)) & 1:
                    centre |= np.int64(1) << (c + 1)
                    changed = True
        for k in range(RANKS):  # a king pile of k cards takes rank 12 - k
            rank = RANKS - 1 - k
            if (kings >> k) & 1 and pool[rank] + ((played >> rank) & 1) > 0:
                released += pool[rank]
                pool[rank] = 0
                played |= np.int64(1) << rank
                if not (kings >> (k + 1)) & 1:
                    kings |= np.int64(1) << (k + 1)
                    changed = True
        while released > 0 and waste_left > 0:
            waste_left -= 1
            released -= 1
            pool[kernel.card_at(rules, state, waste, waste_left) % RANKS] += 1
            changed = True
    if waste_left > 0:
        return True
    for rank in range(RANKS):
        if pool[rank] > 0:
            return True
    return False
