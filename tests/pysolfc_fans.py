"""An independent re-implementation of PySolFC's deals and redeals for the fan games
(La Belle Lucie 901, Trefoil 88, Fan 56), and a rules oracle, shared by
``test_rules_la_belle_lucie.py``, ``test_rules_trefoil.py`` and ``test_rules_fan.py``.

Written from PySolFC's source (shlomif/PySolFC 7a3d146a, read with ``git show``, nothing copied)
and docs/rules.md sections 0 and 9; it uses no simlab code.

- ``pysollib/pysolrandom.py`` ``construct_random``: game numbers ``0 <= g < 32000`` give
  ``pysol_cards.random.LCRandom31(g)``, every other number ``MTRandom(g)`` (so 32000 is MT).
- ``pysollib/game/__init__.py`` ``Game.shuffle``: ``cards = list(self.cards)`` (id order: suits
  C,S,H,D, ranks A..K), ``ms_rearrange`` only if the generator is ``LCRandom31`` (52 cards:
  rank-major, suits C,D,H,S), ``random.reset()``, ``random.shuffle(cards)``, ``_shuffleHook``,
  then the cards are added to the talon in list order: the LAST one is the talon's top and is
  dealt first (``DealRow_StackMethods.dealToStacks`` in ``pysollib/stack.py`` moves
  ``talon.cards[-1]`` to each stack in order).
- pysol_cards (``random_base.RandomBase.shuffle``): for n = len-1 down to 1, j = randint(0, n),
  swap n and j. ``LCRandom31.randint(0, n) = rand15 % (n + 1)`` with
  x <- (214013 x + 2531011) (bits 16-30 of the 33-bit masked state equal the 32-bit LCG's);
  ``MTRandom`` is a ``random.Random(g)`` with ``randint(0, n) = int(random() * (n + 1))``.
- ``pysollib/games/fan.py``: ``Fan.startGame`` (also La Belle Lucie's): 2 x
  ``dealRow(rows=self.s.rows[:17])`` then ``_startAndDealRow()`` (one ``dealRow()`` to all 18).
  ``Trefoil`` (16 rows, ``createGame(rows=(5, 5, 5, 1))``): ``_shuffleHook`` =
  ``_shuffleHookMoveToBottom(cards, lambda c: (c.rank == 0, c.suit))`` (``_shuffleHookMoveSorter``
  in ``game/__init__.py``: the aces are taken out, sorted by (suit, position) and reversed, and put
  in FRONT of the list, i.e. at the talon's bottom: AD AH AS AC then the 48 others), ``startGame``:
  ``_startDealNumRows(2)`` + ``dealRow()`` (3 rounds to the 16 rows) + ``dealRow(rows=foundations)``
  (AC, AS, AH, AD from the talon's top to foundations 0..3).
- ``LaBelleLucie_Talon.dealCards`` (the redeal): ``redealCards1`` moves each non-empty row's cards,
  rows in order, onto the talon (``AMoveMove`` in ``pysollib/move.py`` keeps their order, bottom
  first); ``redealCards2`` is ``Game.shuffleStackMove(talon)`` -> ``AShuffleStackMove.redo``: the
  same Fisher-Yates with ``game.random.randint(0, n)`` on the game's own generator object, which
  was last used by the deal's shuffle (never reset or reseeded in between; the ``setstate`` of the
  saved state is a no-op the first time), then ``nextRoundMove``; ``redealCards3``:
  ``n = min(len(talon), 3 * len(rows))`` and for round i in 0, 1, 2 one card from the talon's top
  to each of rows ``[: (n + i) // 3]``.
"""

from __future__ import annotations

import random

RANKS = "A23456789TJQK"
SUITS = "CSHD"


def card_name(card_id: int) -> str:
    return RANKS[card_id % 13] + SUITS[card_id // 13]


def rank_of(card: str) -> int:
    """1 (ace) .. 13 (king)."""
    return RANKS.index(card[0]) + 1


def suit_of(card: str) -> int:
    return SUITS.index(card[1])


# --------------------------------------------------------------------------------------
# The generator: one object whose stream the deal starts and the redeals continue
# --------------------------------------------------------------------------------------
class Lcg:
    """PySolFC's LCRandom31 for a seed below 32000 (randint(0, n) only)."""

    def __init__(self, seed: int) -> None:
        self.x = seed

    def randint(self, n: int) -> int:
        self.x = (self.x * 214013 + 2531011) % 2**32
        return ((self.x >> 16) & 0x7FFF) % (n + 1)


class Mt:
    """PySolFC's MTRandom (randint(0, n) only)."""

    def __init__(self, seed: int) -> None:
        self.generator = random.Random(seed)

    def randint(self, n: int) -> int:
        return int(self.generator.random() * (n + 1))


def generator(g: int) -> Lcg | Mt:
    return Lcg(g) if g < 32000 else Mt(g)


def fisher_yates(seq: list, rng: Lcg | Mt) -> None:
    for n in range(len(seq) - 1, 0, -1):
        j = rng.randint(n)
        seq[n], seq[j] = seq[j], seq[n]


def shuffled_pack(g: int) -> tuple[list[int], Lcg | Mt]:
    """The shuffled talon (card ids, the LAST one is the top) and the generator, left where the
    deal's shuffle left it."""
    cards = list(range(52))
    rng = generator(g)
    if g < 32000:  # ms_rearrange: rank-major, suits C, D, H, S
        cards = [cards[rank + offset] for rank in range(13) for offset in (0, 39, 26, 13)]
    fisher_yates(cards, rng)
    return cards, rng


def aces_to_bottom(talon: list[int]) -> list[int]:
    """Trefoil's hook: AD AH AS AC at the talon's bottom (list front), the rest in order."""
    aces = sorted((c for c in talon if c % 13 == 0), key=lambda c: c // 13, reverse=True)
    return aces + [c for c in talon if c % 13 != 0]


# --------------------------------------------------------------------------------------
# Deals: pile name -> card texts, bottom to top
# --------------------------------------------------------------------------------------
def _empty(n_rows: int) -> dict[str, list[str]]:
    piles: dict[str, list[str]] = {f"row{i}": [] for i in range(n_rows)}
    piles.update({f"foundation{i}": [] for i in range(4)})
    return piles


def lucie_deal(g: int) -> tuple[dict[str, list[str]], Lcg | Mt]:
    """La Belle Lucie 901 and Fan 56: 2 rounds to rows 0-16, 1 round to rows 0-17."""
    talon, rng = shuffled_pack(g)
    piles = _empty(18)
    for rows in (range(17), range(17), range(18)):
        for i in rows:
            piles[f"row{i}"].append(card_name(talon.pop()))
    assert not talon
    return piles, rng


def trefoil_deal(g: int) -> tuple[dict[str, list[str]], Lcg | Mt]:
    """Trefoil 88: aces to the talon's bottom, 3 rounds to the 16 rows, the aces to foundations 0-3."""
    talon, rng = shuffled_pack(g)
    talon = aces_to_bottom(talon)
    piles = _empty(16)
    for _ in range(3):
        for i in range(16):
            piles[f"row{i}"].append(card_name(talon.pop()))
    for i in range(4):
        piles[f"foundation{i}"].append(card_name(talon.pop()))
    assert not talon
    return piles, rng


def round_robin_deal(g: int) -> dict[str, list[str]]:
    """Blake and Gent's Fan: the same shuffled talon, card k from its top to row k % 18."""
    talon, _ = shuffled_pack(g)
    piles = _empty(18)
    for k, card in enumerate(reversed(talon)):
        piles[f"row{k % 18}"].append(card_name(card))
    return piles


def redeal(piles: dict[str, list[str]], rng: Lcg | Mt, n_rows: int) -> dict[str, list[str]]:
    """LaBelleLucie_Talon.dealCards on ``piles`` (not changed): gather, shuffle with ``rng``
    (continuing its stream), deal in three rounds. Returns the new piles."""
    after = {name: list(cards) for name, cards in piles.items()}
    talon: list[str] = []
    for i in range(n_rows):
        talon += after[f"row{i}"]
        after[f"row{i}"] = []
    fisher_yates(talon, rng)
    n = min(len(talon), 3 * n_rows)
    for round_ in range(3):
        for i in range((n + round_) // 3):
            after[f"row{i}"].append(talon.pop())
    assert not talon
    return after


def fan_sizes_after_redeal(n: int, n_rows: int) -> list[int]:
    """Fans of 3, then one of n % 3 if any, then empty fans."""
    sizes = [3] * (n // 3) + ([n % 3] if n % 3 else [])
    return sizes + [0] * (n_rows - len(sizes))


# --------------------------------------------------------------------------------------
# A rules oracle (docs/rules.md s.9 and PySolFC's stacks), on piles of card texts
# --------------------------------------------------------------------------------------
def accepts(target: list[str], card: str, kings_on_empty: bool) -> bool:
    """SS_RowStack with max_accept=1: down by one in the same suit (no wrap); an empty fan takes
    a king (KingSS_RowStack, Fan) or nothing (base_rank=NO_RANK, La Belle Lucie / Trefoil)."""
    if not target:
        return kings_on_empty and rank_of(card) == 13
    top = target[-1]
    return suit_of(top) == suit_of(card) and rank_of(top) == rank_of(card) + 1


def goes_home(foundation: list[str], index: int, card: str) -> bool:
    """SS_FoundationStack(suit=index): the suit's ace first, then up by one."""
    if suit_of(card) != index:
        return False
    return rank_of(card) == (rank_of(foundation[-1]) + 1 if foundation else 1)


def expected_moves(piles: dict[str, list[str]], *, n_rows: int, kings_on_empty: bool,
                   foundation_return: bool, foundation_keeps: int, redeal_ok: bool,
                   draw_ok: bool) -> set[tuple[str, str]]:
    """Every legal move. ``foundation_keeps``: cards a foundation cannot give up (Trefoil's ace: 1).
    Draw moves onto the drawn card's own fan are left out (see the callers)."""
    rows = [f"row{i}" for i in range(n_rows)]
    found = [f"foundation{i}" for i in range(4)]
    result: set[tuple[str, str]] = set()
    for source in rows:
        if not piles[source]:
            continue
        card = piles[source][-1]
        result |= {(source, f) for i, f in enumerate(found) if goes_home(piles[f], i, card)}
        result |= {(source, r) for r in rows if r != source and accepts(piles[r], card, kings_on_empty)}
    if foundation_return:
        for f in found:
            if len(piles[f]) > foundation_keeps:
                card = piles[f][-1]
                result |= {(f, r) for r in rows if accepts(piles[r], card, kings_on_empty)}
    if redeal_ok and any(piles[r] for r in rows):
        result.add(("redeal", "rows"))
    if draw_ok:
        for source in rows:
            for index, card in enumerate(piles[source][:-1]):
                name = f"{source}[{index}]"
                result |= {(name, f) for i, f in enumerate(found) if goes_home(piles[f], i, card)}
                result |= {(name, r) for r in rows if r != source and accepts(piles[r], card, kings_on_empty)}
    return result


def after_move(piles: dict[str, list[str]], source: str, destination: str) -> dict[str, list[str]]:
    """One card from ``source`` (a pile, or ``rowK[i]`` for the card i from the bottom) onto ``destination``."""
    after = {name: list(cards) for name, cards in piles.items()}
    if "[" in source:
        name, index = source[:-1].split("[")
        card = after[name].pop(int(index))
    else:
        card = after[source].pop()
    after[destination].append(card)
    return after


# --------------------------------------------------------------------------------------
# Random walks of a simlab game against the oracle and the redeal re-implementation
# --------------------------------------------------------------------------------------
REDEAL = ("redeal", "rows")


def is_own_fan_draw(move: tuple[str, str]) -> bool:
    """A draw onto the drawn card's own fan (Hoyle's text does not settle it; never pinned)."""
    return "[" in move[0] and move[0].split("[")[0] == move[1]


def walk_against_oracle(game, deal_fn, g: int, *, n_rows: int, kings_on_empty: bool, foundation_return: bool,
                        foundation_keeps: int, redeals: int, draw_flag: bool, steps: int,
                        seed: int) -> tuple[int, int]:
    """Play random legal moves of ``game`` from deal ``g``; at every position compare the legal
    move set with ``expected_moves`` and every resulting position with ``after_move`` / ``redeal``
    (whose generator continues from ``deal_fn(g)``). Returns (redeals taken, draws taken)."""
    chooser = random.Random(seed * 1_000_003 + g)
    foundations = [f"foundation{i}" for i in range(4)]
    state = game.initial_state(g)
    piles, rng = deal_fn(g)
    assert game.piles(state) == piles, g
    used = drawn = 0
    for step in range(steps):
        offered = [tuple(m) for m in game.legal_moves(state)]
        assert len(offered) == len(set(offered)), offered
        oracle = expected_moves(piles, n_rows=n_rows, kings_on_empty=kings_on_empty,
                                foundation_return=foundation_return, foundation_keeps=foundation_keeps,
                                redeal_ok=used < redeals, draw_ok=draw_flag and used == redeals and not drawn)
        where = f"{game!r} deal {g} seed {seed} step {step}"
        extra = {m for m in offered if not is_own_fan_draw(m)} - oracle
        missing = oracle - set(offered)
        assert not extra and not missing, (where, piles, "extra", extra, "missing", missing)
        home = sum(len(piles[f]) for f in foundations)
        assert game.cards_home(state) == home, where
        assert game.is_won(state) == (home == 52), where
        if not oracle:
            break
        choices = sorted(oracle - {REDEAL})
        if not choices or (REDEAL in oracle and chooser.random() < 0.08):
            move = REDEAL
        else:
            move = chooser.choice(choices)
        state = game.apply(state, move)
        if move == REDEAL:
            piles = redeal(piles, rng, n_rows)
            used += 1
        else:
            piles = after_move(piles, *move)
            drawn += "[" in move[0]
        assert game.piles(state) == piles, (where, move)
    return used, drawn
