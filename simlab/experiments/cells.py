"""Planning the cells of an experiment: which (game, policy) pairs it plays and their keys.

A *cell* is one game with its resolved parameters, version and code, one
policy with its resolved parameters, version and code (``Component.code``: the
source of a user policy's module, the simlab version for a built-in), and the
root seed. Its key is a hash of exactly these, so results of different
parameters or code never mix; labels and execution settings are not part of it.

A ladder's extra tries of a stochastic rung (``ExperimentConfig.ladder``) are cells
of their own (``try_cells``): try ``t`` of a cell is keyed by the cell's key and
``t``, so the per-deal table keeps one row per policy and deal (its first try, the
ordinary play) and a folder without a ladder reads as before.

This is the module that builds games and policies to plan: whether a rung is
stochastic (``try_cells``) and what a cell's policy knew (``information_label``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any, Iterable

from simlab.experiments.config import Component, ExperimentConfig
from simlab.games import make_game
from simlab.policies.catalog import make_policy

# What the policy of a cell knew (``information_label``): every table says which it shows.
# ``relaxation``: not a player but an upper bound on every fair player (``Policy.bound``).
OPEN, THOUGHTFUL, FAIR, RELAXATION = "open", "thoughtful", "fair", "relaxation"


def cell_identity(game: Component, policy: Component, root_seed: int) -> dict[str, Any]:
    """Everything a cell's results depend on, and nothing else."""
    return {
        "game": {"name": game.name, "version": game.version, "params": game.params, "code": game.code},
        "policy": {"name": policy.name, "version": policy.version, "params": policy.params,
                   "code": policy.code},
        "root_seed": root_seed,
    }


def cell_key(game: Component, policy: Component, root_seed: int) -> str:
    """A stable hash of the cell's identity (the same in every process and run)."""
    return _hash(cell_identity(game, policy, root_seed))


def legacy_cell_key(game: Component, policy: Component, root_seed: int) -> str:
    """The key simlab 0.1 gave the cell (its identity had no ``code``), for reading old folders."""
    identity = cell_identity(game, policy, root_seed)
    for part in ("game", "policy"):
        del identity[part]["code"]
    return _hash(identity)


def _hash(identity: dict[str, Any]) -> str:
    text = json.dumps(identity, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


@dataclass(frozen=True)
class Cell:
    """One game x policy pair of the experiment and its database key.

    ``information`` is the stored ``information_label`` of a cell read back from
    the database (empty: compute it). ``attempt`` is 0 for an ordinary cell and
    ``t`` >= 1 for a ladder's extra try ``t`` of a stochastic rung (``try_cells``).
    """

    key: str
    game: Component
    policy: Component
    information: str = ""
    attempt: int = 0

    def identity(self, root_seed: int) -> dict[str, Any]:
        """What the database records for the cell (``cells`` table)."""
        identity = cell_identity(self.game, self.policy, root_seed)
        return {**identity, "try": self.attempt} if self.attempt else identity


def cells_of(config: ExperimentConfig) -> list[Cell]:
    """Every (game, policy) cell, games first then policies, in config order."""
    return [Cell(cell_key(g, p, config.root_seed), g, p) for g in config.games for p in config.policies]


def try_key(key: str, attempt: int) -> str:
    """The key of extra try ``attempt`` (>= 1) of the cell ``key``."""
    return _hash({"cell": key, "try": attempt})


def try_cells(config: ExperimentConfig, cells: list[Cell], stochastic_only: bool = True) -> list[Cell]:
    """The extra tries (2nd to ``ladder.tries``-th) of each stochastic rung's cell.

    ``stochastic_only=False`` takes every rung (for reading back what is stored
    without building a user's policy: a deterministic rung simply has no rows).
    """
    ladder = config.ladder
    if ladder is None or ladder.tries == 1:
        return []
    extra = []
    for cell in cells:
        if cell.policy.label not in ladder.rungs:
            continue
        game = make_game(cell.game.name, **cell.game.params)
        if stochastic_only and not make_policy(cell.policy.name, **cell.policy.params).is_stochastic(game):
            continue
        for attempt in range(1, ladder.tries):
            label = f"{cell.policy.label} (try {attempt + 1})"
            extra.append(Cell(try_key(cell.key, attempt), cell.game, replace(cell.policy, label=label),
                              cell.information, attempt))
    return extra



def readable_cells(config: ExperimentConfig, known: Iterable[str]) -> list[Cell]:
    """``config``'s cells, each under the key its rows are stored with: the current key, or
    the legacy one of a folder written by simlab 0.1 (so ``simlab report`` still reads it)."""
    known = set(known)
    cells = []
    for cell in cells_of(config):
        legacy = legacy_cell_key(cell.game, cell.policy, config.root_seed)
        cells.append(Cell(legacy, cell.game, cell.policy) if cell.key not in known and legacy in known
                     else cell)
    return cells


def cell_records(config: ExperimentConfig, cells: list[Cell]) -> list[dict[str, Any]]:
    """The cells as the ``configs`` table keeps them: key, labels, what the policy saw, identity."""
    return [{"key": c.key, "game": c.game.label, "policy": c.policy.label,
             "information": c.information or information_label(c),
             "identity": cell_identity(c.game, c.policy, config.root_seed)} for c in cells]


def stored_cells(config: ExperimentConfig, records: list[dict[str, Any]]) -> list[Cell]:
    """``config``'s cells with the keys and information the database recorded for them."""
    by_labels = {(r["game"], r["policy"]): r for r in records}
    cells = []
    for game in config.games:
        for policy in config.policies:
            record = by_labels[(game.label, policy.label)]
            cells.append(Cell(record["key"], game, policy, record["information"]))
    return cells



def information_label(cell: Cell) -> str:
    """``open`` when the game hides nothing (every player sees every card and
    no shuffle is to come); otherwise ``thoughtful`` for a policy that sees the
    hidden cards and future shuffles (the solver: an upper bound on any real
    player) and ``fair`` for one that sees only what a player sees; ``relaxation``
    for a policy that bounds every fair player instead of playing (``Policy.bound``)."""
    policy = make_policy(cell.policy.name, **cell.policy.params)
    if policy.bound:  # even where it does not apply (nothing hidden): never read as a player
        return RELAXATION
    game = make_game(cell.game.name, **cell.game.params)
    if not (game.has_hidden_cards or game.has_chance):
        return OPEN
    return THOUGHTFUL if policy.sees_everything else FAIR

