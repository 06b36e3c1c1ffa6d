"""``simlab deals GAME``: lists of PySolFC deal numbers that match a filter, each with
its winning line (an "Easy" list for a game to ship).

It is an experiment underneath: a config is built in code and played by the
runner into ``results/deals/<game>/`` (one folder per game and its parameters), so
it resumes, runs in parallel and shows progress like ``simlab run``. Deals are
examined from ``--first`` on in batches (twice as many as still wanted, then
doubling) until ``--count`` deals match or ``--limit`` deals were examined; every
batch reuses what the folder already holds. Each listed line is played again
(the same seed as in the experiment) and replayed through the rules engine
before it is printed.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pandas as pd
from joblib import Parallel, delayed

from simlab.errors import ConfigError
from simlab.experiments.config import ExperimentConfig, config_from_dict
from simlab.experiments.ladder import (
    DEFAULT_LADDER,
    DEFAULT_PERFECT,
    DEFAULT_TRIES,
    PERFECT_ONLY,
    UNKNOWN_LEVEL,
    UNWINNABLE,
    WON,
)
from simlab.experiments.runner import run_experiment
from simlab.games import make_game
from simlab.play import play_deal
from simlab.policies import make_policy
from simlab.registry import did_you_mean
from simlab.solver.replay import replays_to_win

RESULTS = Path("results/deals")
DEFAULT_LIMIT = 10_000  # deals examined at most, by default
FIRST_BATCH = 20  # deals examined at least in the first batch
PERFECT_LABEL = "solver"
LINE_KEYS = ("game", "deal", "difficulty", "won_by", "moves")  # each JSON line's keys, in order
OUT_EXPECTED = "simlab deals: --out must be a file the JSON lines can be written to"
ROOT_SEED = 0


def _label(spec: dict[str, Any]) -> str:
    return str(spec.get("label", spec["name"]))


def default_levels() -> list[str]:
    """The difficulty levels of the default ladder, easiest first."""
    return [*(_label(s) for s in DEFAULT_LADDER), PERFECT_ONLY, UNWINNABLE, UNKNOWN_LEVEL]


@dataclass(frozen=True)
class DealQuery:
    """What ``simlab deals`` looks for.

    Attributes:
        game: a registered game name; ``game_params`` its parameters (``--param``).
        winnable: the solver (default budget) won the deal.
        difficulty: the deal's level on the default ladder (``default_levels``), or None.
        won_by: a policy (name or ``module:Class``, default parameters) that won it, or None.
        first: the first deal examined; count: matching deals wanted; limit: deals examined at most.
    """

    game: str
    first: int
    count: int
    winnable: bool = False
    difficulty: str | None = None
    won_by: str | None = None
    limit: int = DEFAULT_LIMIT
    game_params: dict[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        """Raise ``ConfigError`` for a query that asks for nothing or names an unknown level."""
        if not (self.winnable or self.difficulty or self.won_by):
            raise ConfigError("simlab deals: give at least one of --winnable, --difficulty LEVEL, --won-by POLICY.")
        if self.difficulty is not None and self.difficulty not in default_levels():
            raise ConfigError(f"simlab deals: --difficulty must be a level of the default ladder. Got "
                              f"{self.difficulty!r}.{did_you_mean(self.difficulty, tuple(default_levels()))} "
                              f"Levels: {', '.join(default_levels())}.")
        if self.count < 1 or self.first < 1 or self.limit < 1:
            raise ConfigError("simlab deals: --first, --count and --limit must be ints >= 1.")

    def folder(self, root: Path = RESULTS) -> Path:
        """``root/<game>`` plus its parameters (``citadel_deal-hoyle``)."""
        parts = [self.game] + [f"{k}-{v}" for k, v in sorted(self.game_params.items())]
        return Path(root) / re.sub(r"[^A-Za-z0-9_.-]", "-", "_".join(parts))

    def policies(self) -> list[dict[str, Any]]:
        """The policy specs the experiment plays: the default ladder and the solver as
        needed, and the ``won_by`` policy."""
        specs: list[dict[str, Any]] = []
        if self.difficulty is not None:
            specs += [dict(s) for s in DEFAULT_LADDER]
        if self.winnable or self.difficulty is not None:
            specs.append({**DEFAULT_PERFECT, "label": PERFECT_LABEL})
        if self.won_by is not None and self.won_by not in {_label(s) for s in specs}:
            specs.append({"name": self.won_by, "label": self.won_by.replace(":", ".")})
        return specs

    def won_by_label(self) -> str | None:
        return None if self.won_by is None else next(
            _label(s) for s in self.policies() if s["name"] == self.won_by or _label(s) == self.won_by)

    def config(self, examined: int, root: Path = RESULTS, n_jobs: int | None = None) -> ExperimentConfig:
        """The experiment over deals ``first`` .. ``first + examined - 1``."""
        data: dict[str, Any] = {
            "name": f"deals_{self.game}", "root_seed": ROOT_SEED,
            "description": "simlab deals: the experiment behind a list of deals",
            "deals": {"start": self.first, "count": examined},
            "games": [{"name": self.game, "params": dict(self.game_params)}],
            "policies": self.policies(), "output": str(self.folder(root)),
            "execution": {"n_jobs": n_jobs or -1, "chunk_size": 10},
        }
        if self.difficulty is not None:
            data["ladder"] = {"rungs": [_label(s) for s in DEFAULT_LADDER], "perfect": PERFECT_LABEL,
                              "tries": DEFAULT_TRIES}
        return config_from_dict(data, source="simlab deals")


def matching_deals(frame: pd.DataFrame, query: DealQuery) -> list[dict[str, Any]]:
    """The deals of the per-deal table ``frame`` that match ``query``, in deal order: game,
    deal, difficulty (None unless the ladder ran, i.e. ``--difficulty``) and ``won_by``
    (the list of the policies played that won it, first try)."""
    found = []
    won_by = query.won_by_label()
    for deal, group in frame.groupby("deal", sort=True):
        verdicts = dict(zip(group["policy"], group["verdict"]))
        winners = [policy for policy, verdict in verdicts.items() if verdict == WON]
        difficulty = str(group["difficulty"].iloc[0]) if "difficulty" in group else None
        if query.winnable and verdicts.get(PERFECT_LABEL) != WON:
            continue
        if query.difficulty is not None and difficulty != query.difficulty:
            continue
        if won_by is not None and won_by not in winners:
            continue
        # every line has the same keys (``LINE_KEYS``): a difficulty not computed is None
        found.append({"game": query.game, "deal": int(deal), "difficulty": difficulty, "won_by": winners})
    return found


def line_policy(entry: dict[str, Any], query: DealQuery) -> str | None:
    """Whose winning line a listed deal carries: the ``--won-by`` policy, else the solver,
    else the weakest rung that won it; None when nobody won it."""
    if query.won_by_label() is not None:
        return query.won_by_label()
    if PERFECT_LABEL in entry["won_by"]:
        return PERFECT_LABEL
    return entry["won_by"][0] if entry["won_by"] else None


def winning_line(game: str, game_params: dict[str, Any], spec: dict[str, Any], deal: int) -> list[list[str]]:
    """The policy's line on ``deal``, played again as in the experiment (try 0, its seed),
    checked to replay to a win through the rules engine."""
    board = make_game(game, **game_params)
    policy = make_policy(spec["name"], **spec.get("params", {}))
    record = play_deal(board, policy, deal, ROOT_SEED)
    moves = [[m.source, m.destination] for m in record.moves]
    if record.verdict != WON or not replays_to_win(board, board.initial_state(deal), moves):
        raise RuntimeError(f"{game} deal {deal}: {spec['name']} won it in the experiment but its line "
                           "does not replay to a win (a bug)")
    return moves


def find_deals(query: DealQuery, root: Path = RESULTS, n_jobs: int | None = None,
               progress: bool | None = None) -> Iterator[dict[str, Any]]:
    """The first ``query.count`` matching deals (fewer if ``query.limit`` deals did not
    hold them), each with ``moves``: the winning line (``line_policy``; None if none)."""
    query.check()
    wanted, examined = query.count, min(max(2 * query.count, FIRST_BATCH), query.limit)
    while True:
        outcome = run_experiment(query.config(examined, root, n_jobs), progress=progress, results_root=root)
        found = matching_deals(outcome.frame, query)
        if len(found) >= wanted or examined >= query.limit:
            break
        still = wanted - len(found)
        examined = min(examined + max(2 * still, examined), query.limit)
    found = found[:wanted]
    specs = {_label(s): s for s in query.policies()}
    owners = [line_policy(entry, query) for entry in found]
    jobs = [(query.game, dict(query.config(1, root).games[0].params), specs[owner], entry["deal"])
            for entry, owner in zip(found, owners) if owner is not None]
    lines = iter(Parallel(n_jobs=n_jobs or -1)(delayed(winning_line)(*job) for job in jobs))
    for entry, owner in zip(found, owners):
        yield {**entry, "moves": next(lines) if owner is not None else None}


def check_out(out: Path) -> None:
    """Fail before anything runs if ``--out`` cannot be a file written with the JSON lines:
    a folder, a path whose folder is missing or takes no file.

    Raises:
        ConfigError: naming ``--out``, what was expected and what was found.
    """
    if out.is_dir():
        raise ConfigError(f"{OUT_EXPECTED}. Got '{out}', which is a folder.")
    folder = out.parent
    if not folder.is_dir():
        raise ConfigError(f"{OUT_EXPECTED}. Got '{out}', but its folder '{folder}' does not exist; "
                          f"make it first (mkdir -p {folder}).")
    if not os.access(folder, os.W_OK | os.X_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise ConfigError(f"{OUT_EXPECTED}. Got '{out}', which is not writable.")


def write_lines(entries: Iterator[dict[str, Any]], out: Path | None) -> int:
    """Write JSON lines to ``out`` (or stdout); return how many. A file is written once
    every entry is found, beside it and renamed into place: an interrupted run, or a disk
    that fills while it is written, leaves an earlier ``out`` as it was.

    Raises:
        ConfigError: ``out`` cannot be written (``check_out`` said it could, before the run).
    """
    if out is None:
        written = 0
        for entry in entries:
            print(json.dumps(entry), flush=True)
            written += 1
        return written
    lines = [json.dumps(entry) + "\n" for entry in entries]
    try:
        _replace_file(out, "".join(lines))
    except OSError as error:
        raise ConfigError(f"{OUT_EXPECTED}. Got '{out}': {error.strerror or error}. An earlier file of that "
                          "name is as it was.") from None
    return len(lines)


def _replace_file(out: Path, text: str) -> None:
    """``out`` holding ``text``, whole or not at all: written beside it, then renamed over
    it (a symbolic link's target, so the link stays). What is not a regular file
    (``/dev/stdout``, a pipe) is written to in place."""
    if out.exists() and not out.is_file():
        out.write_text(text, encoding="utf-8")
        return
    out = out.resolve() if out.is_symlink() else out
    partial = out.with_name(f".{out.name}.{os.getpid()}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
