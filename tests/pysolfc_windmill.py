"""An independent re-implementation of PySolFC's Windmill (id 30) deal, of simlab's documented
variants (John Welford's rules, the reversed "alternate variation") and a rules oracle, for
``tests/test_rules_windmill.py`` and ``tests/test_windmill_mirror.py``.

Written from the rules (docs: /work/notes/windmill-spec.md, shared/rules.md sections 0 and 10)
and PySolFC's source (shlomif/PySolFC, read with ``git show``, nothing copied); it uses no simlab
code, so it can disagree with simlab.

PySolFC, what the deal re-implementation follows
-------------------------------------------------
- ``pysollib/pysolrandom.py`` ``construct_random``: ``0 <= g < 32000`` gives ``LCRandom31(g)``,
  every other number ``MTRandom(g)`` (so 32000 is MT, unlike pysol_cards' own ``shuffle``).
- ``pysollib/game/__init__.py`` ``Game.createCards``: for each deck, suits C,S,H,D, ranks A..K:
  ``id = 52 * deck + 13 * suit + rank - 1``. ``Game.shuffle``: ``ms_rearrange`` only for
  ``LCRandom31`` (and pysol_cards' ``ms_rearrange`` leaves any list that is not 52 cards long
  alone: nothing for 104 cards), ``random.reset()``, ``random.shuffle(cards)`` (pysol_cards
  ``RandomBase.shuffle``: n = len-1 .. 1, j = randint(0, n), swap), then ``_shuffleHook``; the
  LAST card of the list is the talon's top and is dealt first.
- ``pysollib/games/windmill.py`` ``Windmill._shuffleHook``: the card with id 0 (AC of deck 0) is
  taken out and put at the end (the talon's top). ``startGame``: ``dealRow(rows=(foundations[0],))``
  (the AC to the centre), ``dealRow()`` (one card to each of the 8 rows in order), ``dealCards()``
  (one card to the waste). ``fillStack``: an empty waste takes a card from the talon
  (``talon.dealCards``), an empty row takes the waste's top (``waste.moveMove(1, row)``, whose own
  ``fillStack`` then refills the waste).
- Foundations: ``Windmill_Foundation`` (an ``RK_FoundationStack``): the centre
  ``mod=13, min_cards=1, max_cards=52`` (base ace, up by rank in any suit, wrapping; its last card
  never leaves: ``basicCanMoveCards`` refuses to leave fewer than ``min_cards``), the 4 king piles
  ``base_rank=KING, dir=-1`` (``max_cards=13`` by default). ``basicAcceptsCards`` takes a card
  from any other stack, so foundation -> foundation moves are legal.

simlab's variants (windmill-spec.md) are encoded in ``Rules`` and ``legal_moves``/``play`` below.
Piles are lists of card ids, bottom -> top.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from pysolfc_fans import Lcg, Mt  # PySolFC's two generators, written once for the tests

RANKS = "A23456789TJQK"
SUITS = "CSHD"
N_CARDS = 104
CENTRE = "foundation0"
KING_PILES = ("foundation1", "foundation2", "foundation3", "foundation4")
FOUNDATIONS = (CENTRE, *KING_PILES)
TURN = ("stock", "waste")
PASS = ("waste", "stock")
TRANSFERS = ("free", "strict", "none", "welford")


def card_name(card: int) -> str:
    return RANKS[card % 13] + SUITS[(card // 13) % 4]


def names(piles: dict[str, list[int]]) -> dict[str, list[str]]:
    return {name: [card_name(c) for c in cards] for name, cards in piles.items()}


def mirror(card: int) -> int:
    """The same card (deck, suit) with rank r turned into 14 - r."""
    return card - card % 13 + (12 - card % 13)


# --------------------------------------------------------------------------------------
# The shuffle (shared/rules.md section 0), with the generators of tests/pysolfc_fans.py
# --------------------------------------------------------------------------------------
def shuffled_talon(g: int) -> list[int]:
    """PySolFC's two-deck shuffle of game ``g`` before the hook (card ids; the last is the top)."""
    rng = Lcg(g) if g < 32000 else Mt(g)
    cards = list(range(N_CARDS))  # no ms_rearrange: 104 cards
    for n in range(len(cards) - 1, 0, -1):
        j = rng.randint(n)
        cards[n], cards[j] = cards[j], cards[n]
    return cards


def ace_to_top(talon: list[int]) -> list[int]:
    """Windmill._shuffleHook: card id 0 last (the talon's top), the others in order."""
    return [c for c in talon if c != 0] + [0]


def welford_talon(g: int) -> list[int]:
    """The spec's Welford talon: the shuffled list split stably into pack one (deck 0) and pack two
    (deck 1), pack one on top (the list's end), then the hook."""
    talon = shuffled_talon(g)
    return ace_to_top([c for c in talon if c >= 52] + [c for c in talon if c < 52])


def deal(g: int, *, welford: bool = False, reversed_: bool = False) -> dict[str, list[int]]:
    """The deal of game ``g``: every pile name -> card ids, bottom -> top."""
    n_sails = 4 if welford else 8
    talon = welford_talon(g) if welford else ace_to_top(shuffled_talon(g))
    piles = empty_piles(n_sails)
    piles[CENTRE].append(talon.pop())
    for _ in range(2 if welford else 1):
        for i in range(n_sails):
            piles[f"row{i}"].append(talon.pop())
    piles["waste"].append(talon.pop())
    piles["stock"] = talon
    if reversed_:
        piles = {name: [mirror(c) for c in cards] for name, cards in piles.items()}
    return piles


def empty_piles(n_sails: int) -> dict[str, list[int]]:
    piles: dict[str, list[int]] = {f"row{i}": [] for i in range(n_sails)}
    piles["stock"] = []
    piles["waste"] = []
    piles.update({name: [] for name in FOUNDATIONS})
    return piles


def pile_names(welford: bool) -> list[str]:
    return list(empty_piles(4 if welford else 8))


# --------------------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    transfer: str = "free"
    centre_to_king: bool = True
    redeals: int = 0
    welford: bool = False
    reversed: bool = False

    @classmethod
    def of(cls, **params) -> Rules:
        """The values in force: welford's defaults unless given explicitly."""
        if params.get("welford"):
            params = {"transfer": "welford", "centre_to_king": False, "redeals": 1, **params}
        return cls(**params)

    def params(self) -> dict:
        return {"transfer": self.transfer, "centre_to_king": self.centre_to_king, "redeals": self.redeals,
                "welford": self.welford, "reversed": self.reversed}

    @property
    def sails(self) -> list[str]:
        return [f"row{i}" for i in range(4 if self.welford else 8)]

    def rank(self, card: int) -> int:
        """The rank the rules see: 1..13, mirrored (14 - r) in reversed Windmill."""
        r = card % 13 + 1
        return 14 - r if self.reversed else r


@dataclass
class Position:
    """Piles (name -> card ids) and the counters the rules need."""

    piles: dict[str, list[int]]
    passes: int = 0
    borrowed: bool = False  # strict: the last card that went onto the centre came from a king pile

    def copy(self) -> Position:
        return replace(self, piles={n: list(c) for n, c in self.piles.items()})


def centre_takes(rules: Rules, pos: Position, card: int) -> bool:
    centre = pos.piles[CENTRE]
    if not centre or len(centre) >= 52:
        return False
    if rules.welford and len(centre) >= 12 and len(pos.piles["stock"]) > 52 and pos.passes == 0:
        return False  # the first-queen limit
    return rules.rank(card) == rules.rank(centre[-1]) % 13 + 1


def king_pile_takes(rules: Rules, pile: list[int], card: int) -> bool:
    if not pile:
        return rules.rank(card) == 13
    return len(pile) < 13 and rules.rank(card) == rules.rank(pile[-1]) - 1


def legal_moves(rules: Rules, pos: Position) -> set[tuple[str, str]]:
    """Every legal move of ``pos`` as (source, destination) pile names."""
    piles = pos.piles
    found: set[tuple[str, str]] = set()
    for source in [*rules.sails, "waste"]:
        if piles[source]:
            card = piles[source][-1]
            if centre_takes(rules, pos, card):
                found.add((source, CENTRE))
            found |= {(source, k) for k in KING_PILES if king_pile_takes(rules, piles[k], card)}
    if rules.centre_to_king and len(piles[CENTRE]) > 1:
        card = piles[CENTRE][-1]
        found |= {(CENTRE, k) for k in KING_PILES if king_pile_takes(rules, piles[k], card)}
    sail_fits = any((s, CENTRE) in found for s in rules.sails)
    for source in KING_PILES:
        pile = piles[source]
        if not pile or rules.transfer == "none":
            continue
        card = pile[-1]
        to_centre = centre_takes(rules, pos, card)
        if rules.transfer == "strict":
            to_centre = to_centre and not pos.borrowed
        if rules.transfer == "welford":
            to_centre = to_centre and len(pile) not in (1, 13) and not sail_fits
        if to_centre:
            found.add((source, CENTRE))
        if rules.transfer == "free":
            found |= {(source, k) for k in KING_PILES if k != source and king_pile_takes(rules, piles[k], card)}
    if piles["stock"]:
        found.add(TURN)
    elif piles["waste"] and pos.passes < rules.redeals:
        found.add(PASS)
    return found


def refill(rules: Rules, piles: dict[str, list[int]]) -> None:
    """PySolFC's fillStack, to a fixed point: an empty sail takes the waste's top, an empty waste
    the stock's top (sails first, row0 first). Never under Welford's rules."""
    if rules.welford:
        return
    changed = True
    while changed:
        changed = False
        for sail in rules.sails:
            if not piles[sail] and piles["waste"]:
                piles[sail].append(piles["waste"].pop())
                changed = True
        if not piles["waste"] and piles["stock"]:
            piles["waste"].append(piles["stock"].pop())
            changed = True


def play(rules: Rules, pos: Position, move: tuple[str, str]) -> Position:
    """The position after ``move`` (``pos`` is left alone); the move must be legal."""
    assert move in legal_moves(rules, pos), (move, names(pos.piles))
    after = pos.copy()
    piles = after.piles
    source, destination = move
    if move == TURN:
        if rules.welford:
            for sail in rules.sails:  # gaps first: row0 first, each sail bottom up
                while len(piles[sail]) < 2 and piles["stock"]:
                    piles[sail].append(piles["stock"].pop())
        if piles["stock"]:
            piles["waste"].append(piles["stock"].pop())
    elif move == PASS:
        piles["stock"] = piles["waste"][::-1]
        piles["waste"] = []
        after.passes += 1
    else:
        piles[destination].append(piles[source].pop())
        if destination == CENTRE:
            after.borrowed = source in KING_PILES
    refill(rules, piles)
    return after


def cards_home(pos: Position) -> int:
    return sum(len(pos.piles[f]) for f in FOUNDATIONS)


# --------------------------------------------------------------------------------------
# Random walks of a simlab game against the oracle
# --------------------------------------------------------------------------------------
def engine_piles(game, state) -> dict[str, list[int]]:
    return {name: game.pile_cards(state, name) for name in game.pile_names}


def walk(game, rules: Rules, g: int, *, steps: int, seed: int, turn_weight: float = 0.15) -> dict[str, int]:
    """Play seeded random legal moves of ``game`` from deal ``g``, comparing after every move the
    legal-move set and the piles (card ids) with the oracle. Returns counts of what was played."""
    chooser = random.Random(seed * 1_000_003 + g)
    state = game.initial_state(g)
    pos = Position(deal(g, welford=rules.welford, reversed_=rules.reversed))
    assert engine_piles(game, state) == pos.piles, g
    counts = {"moves": 0, "turns": 0, "passes": 0, "transfers": 0, "centre_to_king": 0}
    for step in range(steps):
        offered = [tuple(m) for m in game.legal_moves(state)]
        expected = legal_moves(rules, pos)
        where = f"{game!r} deal {g} seed {seed} step {step}"
        assert len(offered) == len(set(offered)), (where, offered)
        assert set(offered) == expected, (where, names(pos.piles), pos.passes, pos.borrowed,
                                          "extra", set(offered) - expected, "missing", expected - set(offered))
        home = cards_home(pos)
        assert game.cards_home(state) == home, where
        assert game.is_won(state) == (home == N_CARDS), where
        if not expected:
            break
        choices = sorted(expected)
        plays = [m for m in choices if m not in (TURN, PASS)]
        if plays and (chooser.random() > turn_weight or not ({TURN, PASS} & expected)):
            # prefer foundation transfers now and then so that they get exercised
            special = [m for m in plays if m[0] in FOUNDATIONS]
            move = chooser.choice(special if special and chooser.random() < 0.5 else plays)
        else:
            move = TURN if TURN in expected else PASS
        state = game.apply(state, move)
        pos = play(rules, pos, move)
        counts["moves"] += 1
        counts["turns"] += move == TURN
        counts["passes"] += move == PASS
        counts["transfers"] += move[0] in KING_PILES
        counts["centre_to_king"] += move[0] == CENTRE
        assert engine_piles(game, state) == pos.piles, (where, move, names(pos.piles))
    return counts
