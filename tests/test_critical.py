"""Critical decisions along a won line (``simlab.solver.critical``), from hand-built
positions to the ``deals.csv`` columns of an experiment."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

import simlab
from simlab import make_game
from simlab.engine.game import Game, Move, State
from simlab.engine.layout import Layout
from simlab.experiments.frames import typed_deals
from simlab.experiments.rebuild import rebuild
from simlab.experiments.recover import recover
from simlab.experiments.schema import DATABASE_NAME
from simlab.experiments.store import ResultStore
from simlab.solver import critical as critical_module
from simlab.solver import solve
from simlab.solver.critical import CriticalDecisions, critical_decisions, probe_table_bits
from simlab.solver.replay import replays_to_win
from simlab.solver.result import SolveResult


class TinyCastle(Game):
    """Beleaguered Castle's rules on three rows: small enough to search by hand."""

    name = "tiny_castle"
    title = "Tiny Castle (test fixture)"

    def layout(self) -> Layout:
        return Layout(rows=3, max_dealt=6)

    def deal_piles(self, deal_number: int) -> dict[str, list[int]]:
        raise NotImplementedError("positions are drawn")


def full(suit: str, up_to: str = "K") -> str:
    ranks = "A23456789TJQK"
    return " ".join(rank + suit for rank in ranks[: ranks.index(up_to) + 1])


# Hearts and diamonds home, clubs and spades to the 9; three rows, none empty:
#   row0: KS JC
#   row1: QC JS TC TS QS
#   row2: KC
# Two legal moves. QS onto KC (row1->row2) frees TS, TC, JS and everything follows.
# JC onto QS (row0->row1) leaves KS, JC and KC on top with no empty row: no move, lost.
TRAP = {"foundation0": full("C", "9"), "foundation1": full("S", "9"), "foundation2": full("H"),
        "foundation3": full("D"), "row0": "KS JC", "row1": "QC JS TC TS QS", "row2": "KC"}
WINNING_LINE = [Move(*pair.split("->")) for pair in (
    "row1->row2", "row1->foundation1", "row1->foundation0", "row1->foundation1", "row0->foundation0",
    "row1->foundation0", "row2->foundation1", "row0->foundation1", "row2->foundation0")]


@pytest.fixture(scope="module")
def tiny() -> Game:
    return TinyCastle()


@pytest.fixture(scope="module")
def trap(tiny: Game) -> State:
    return tiny.state_from_piles(TRAP)


def winnable(game: Game, state: State, seen: set[int] | None = None) -> bool:
    """An oracle apart from the solver: plain depth-first search over ``Game.apply``."""
    seen = set() if seen is None else seen
    if game.is_won(state):
        return True
    key = game.position_hash(state)
    if key in seen:
        return False
    seen.add(key)
    return any(winnable(game, game.apply(state, move), seen) for move in game.legal_moves(state))


def oracle(game: Game, start: State, line: list[Move]) -> tuple[int, tuple[int, ...]]:
    """(positions with a choice, critical indices) of ``line`` by exhaustive search."""
    positions, critical, state = 0, [], start
    for index, move in enumerate(line):
        others = [m for m in game.legal_moves(state) if m != move]
        if others:
            positions += 1
            if not all(winnable(game, game.apply(state, m)) for m in others):
                critical.append(index)
        state = game.apply(state, move)
    return positions, tuple(critical)


def test_the_trap_is_as_drawn(tiny: Game, trap: State) -> None:
    assert set(tiny.legal_moves(trap)) == {Move("row0", "row1"), Move("row1", "row2")}
    assert not winnable(tiny, tiny.apply(trap, Move("row0", "row1")))
    assert tiny.legal_moves(tiny.apply(trap, Move("row0", "row1"))) == []
    assert replays_to_win(tiny, trap, WINNING_LINE)


def test_a_move_that_loses_makes_the_position_critical(tiny: Game, trap: State) -> None:
    found = critical_decisions(tiny, trap, WINNING_LINE, probe_budget=10_000)
    positions, critical_at = oracle(tiny, trap, WINNING_LINE)
    assert critical_at[0] == 0  # JC onto QS loses
    assert (found.positions, found.critical_at) == (positions, critical_at)
    assert found.critical == len(critical_at) and found.undecided == 0
    assert found.share == pytest.approx(len(critical_at) / positions)
    assert found.information == "open"
    assert 1 <= found.probes and found.nodes >= found.probes


def test_the_solvers_own_line_agrees_with_the_oracle(tiny: Game, trap: State) -> None:
    line = solve(tiny, trap).moves
    found = critical_decisions(tiny, trap, line, probe_budget=10_000)
    assert (found.positions, found.critical_at) == oracle(tiny, trap, line)


# Clubs and spades to the 9 again:
#   row0: TS KS JC TC
#   row1: JS QS
#   row2: KC QC
# TC home is the only legal move (no jack or king on top, no empty row).
FORCED = {**TRAP, "row0": "TS KS JC TC", "row1": "JS QS", "row2": "KC QC"}


def test_a_position_without_a_choice_is_not_counted(tiny: Game) -> None:
    start = tiny.state_from_piles(FORCED)
    assert tiny.legal_moves(start) == [Move("row0", "foundation0")]
    line = solve(tiny, start).moves
    found = critical_decisions(tiny, start, line, probe_budget=10_000)
    assert (found.positions, found.critical_at) == oracle(tiny, start, line)
    assert found.positions < len(line) and 0 not in found.critical_at


def drawn_positions(game: Game, count: int) -> list[State]:
    """Winnable Tiny Castle positions of the clubs and spades from the 8 up, dealt
    into three rows by a seeded shuffle (the same every run)."""
    rng = random.Random(22)
    cards = [rank + suit for suit in "CS" for rank in "89TJQK"]
    positions = []
    while len(positions) < count:
        rng.shuffle(cards)
        first, second = sorted(rng.sample(range(1, len(cards)), 2))
        rows = (cards[:first], cards[first:second], cards[second:])
        state = game.state_from_piles({**TRAP, "foundation0": full("C", "7"), "foundation1": full("S", "7"),
                                       **{f"row{i}": " ".join(row) for i, row in enumerate(rows)}})
        if winnable(game, state):
            positions.append(state)
    return positions


def test_drawn_positions_agree_with_the_oracle(tiny: Game) -> None:
    critical = 0
    for start in drawn_positions(tiny, 12):
        line = solve(tiny, start).moves
        found = critical_decisions(tiny, start, line, probe_budget=10_000)
        assert (found.positions, found.critical_at) == oracle(tiny, start, line)
        assert found.undecided == 0
        critical += found.critical
    assert critical > 0


def test_unknown_alternatives_are_never_counted_as_losing(tiny: Game, trap: State,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    def out_of_budget(game, state, budget, table_bits):
        return SolveResult("unknown", "budget", budget, 0.0)

    monkeypatch.setattr(critical_module, "solve", out_of_budget)
    found = critical_decisions(tiny, trap, WINNING_LINE, probe_budget=5)
    assert found.critical == 0 and found.critical_at == ()
    assert 0 < found.undecided <= found.positions  # position 0 at least: its losing move stayed unknown
    assert found.share == 0.0


def test_a_tiny_budget_leaves_real_deals_undecided_never_lost() -> None:
    game = make_game("citadel")
    start = game.initial_state(2)
    line = solve(game, start, budget=2_000_000).moves
    tiny_budget = critical_decisions(game, start, line, probe_budget=3)
    ample = critical_decisions(game, start, line, probe_budget=20_000)
    assert tiny_budget.positions == ample.positions
    assert tiny_budget.undecided > ample.undecided
    # A "lost" is a proof: whatever a tiny budget proves, an ample one proves too.
    assert set(tiny_budget.critical_at) <= set(ample.critical_at)
    assert tiny_budget.critical < ample.critical


def test_a_line_that_does_not_replay_raises(tiny: Game, trap: State) -> None:
    broken = WINNING_LINE[:3] + [Move("row2", "row0")] + WINNING_LINE[4:]
    with pytest.raises(ValueError, match="move 3 "):
        critical_decisions(tiny, trap, broken, probe_budget=100)
    with pytest.raises(ValueError, match="move 0 "):
        critical_decisions(tiny, trap, [Move("row7", "row0")], probe_budget=100)
    with pytest.raises(ValueError, match="does not end in a win"):
        critical_decisions(tiny, trap, WINNING_LINE[:-1], probe_budget=100)
    with pytest.raises(ValueError, match="probe_budget"):
        critical_decisions(tiny, trap, WINNING_LINE, probe_budget=0)


def test_the_share_of_nothing_is_zero() -> None:
    assert CriticalDecisions(0, 0, 0, (), 0, 0).share == 0.0
    assert CriticalDecisions(4, 1, 2, (3,), 5, 50).share == 0.25


def test_probes_get_a_table_that_fits_their_budget() -> None:
    assert probe_table_bits(1) == 10
    assert 0.75 * 2 ** probe_table_bits(10_000) > 10_000
    assert probe_table_bits(10_000) == 14
    assert probe_table_bits(10**12) == 25


def test_thoughtful_games_label_their_count() -> None:
    game = make_game("castle_of_indolence")
    for deal in range(1, 30):
        result = solve(game, deal, budget=200_000)
        if result.won:
            found = critical_decisions(game, game.initial_state(deal), result.moves, probe_budget=500)
            assert found.information == "thoughtful"
            return
    pytest.skip("no Castle of Indolence deal won within the budget")


# ----- the solver policy and the experiments layer ---------------------------------------
CRITICAL_COLUMNS = ["critical_decisions", "decision_positions", "critical_share", "critical_undecided"]


def run_small(folder: Path) -> pd.DataFrame:
    config = {
        "name": "critical", "root_seed": 3, "deals": {"start": 1, "count": 6}, "games": ["citadel"],
        "policies": [{"name": "solver", "label": "solver", "params": {"budget": 300_000, "probe_budget": 2_000}},
                     "greedy"],
        "execution": {"n_jobs": 1, "chunk_size": 3}, "output": str(folder),
    }
    return simlab.run(config, progress=False)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    folder = tmp_path_factory.mktemp("critical") / "out"
    return folder, run_small(folder)


def test_the_solver_policy_counts_critical_decisions_of_won_deals(small_run) -> None:
    folder, frame = small_run
    assert list(frame.columns[-4:]) == CRITICAL_COLUMNS
    solver, greedy = frame[frame["policy"] == "solver"], frame[frame["policy"] == "greedy"]
    won = solver[solver["verdict"] == "won"]
    assert len(won) >= 3
    assert won["critical_decisions"].notna().all() and won["decision_positions"].gt(0).all()
    assert (won["critical_decisions"] <= won["decision_positions"]).all()
    assert won["critical_share"].tolist() == pytest.approx(
        (won["critical_decisions"] / won["decision_positions"]).tolist())
    assert solver[solver["verdict"] != "won"][CRITICAL_COLUMNS].isna().all().all()
    assert greedy[CRITICAL_COLUMNS].isna().all().all()
    # the count is the library's on the solver's line
    game = make_game("citadel")
    deal = int(won["deal"].iloc[0])
    line = solve(game, deal, budget=300_000).moves
    found = critical_decisions(game, game.initial_state(deal), line, probe_budget=2_000)
    row = won.iloc[0]
    assert (row["critical_decisions"], row["decision_positions"], row["critical_undecided"]) == (
        found.critical, found.positions, found.undecided)


def test_deals_csv_report_and_figure_carry_them(small_run) -> None:
    folder, frame = small_run
    on_disk = typed_deals(pd.read_csv(folder / "deals.csv", keep_default_na=False))
    pd.testing.assert_frame_equal(on_disk[CRITICAL_COLUMNS], frame[CRITICAL_COLUMNS])
    assert (folder / "critical_decisions.png").exists()
    report = (folder / "report.md").read_text()
    assert "## Critical decisions" in report and "critical_decisions.png" in report


def test_recover_keeps_the_counts(small_run, tmp_path: Path) -> None:
    folder, frame = small_run
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("deals.csv", "config.resolved.yaml", DATABASE_NAME):
        (copy / name).write_bytes((folder / name).read_bytes())
    recover(copy)
    rebuilt = rebuild(copy)["deals"]
    played = frame[frame["verdict"] != "error"].reset_index(drop=True)
    pd.testing.assert_frame_equal(rebuilt[CRITICAL_COLUMNS].reset_index(drop=True), played[CRITICAL_COLUMNS])


def test_a_database_made_before_the_columns_reads_them_as_not_computed(tmp_path: Path) -> None:
    # the first store's schema (cells, deals, sessions), before the optional columns existed
    with sqlite3.connect(tmp_path / DATABASE_NAME) as db:
        db.execute("CREATE TABLE cells (cell TEXT PRIMARY KEY, identity TEXT NOT NULL)")
        db.execute("CREATE TABLE sessions (started TEXT NOT NULL, finished TEXT, status TEXT NOT NULL, "
                   "planned INTEGER NOT NULL, played INTEGER NOT NULL DEFAULT 0)")
        db.execute("CREATE TABLE deals (cell TEXT NOT NULL, deal INTEGER NOT NULL, verdict TEXT NOT NULL, "
                   "end_reason TEXT NOT NULL, moves INTEGER NOT NULL, cards_home INTEGER NOT NULL, "
                   "nodes INTEGER NOT NULL, cpu_seconds REAL NOT NULL, error TEXT NOT NULL, "
                   "traceback TEXT NOT NULL, PRIMARY KEY (cell, deal))")
        db.execute("INSERT INTO deals VALUES ('c', 1, 'won', 'won', 90, 52, 7, 0.1, '', '')")
    db.close()
    with ResultStore(tmp_path) as store:
        rows = store.rows(["c"])
        store.add_rows([{"cell": "c", "deal": 2, "verdict": "won", "end_reason": "won", "moves": 9,
                         "cards_home": 52, "nodes": 3, "cpu_seconds": 0.1, "error": "", "traceback": "",
                         "critical_decisions": 2, "decision_positions": 8, "critical_undecided": 0}])
        both = store.rows(["c"])
    assert rows["critical_decisions"].isna().all()
    assert both.sort_values("deal")["decision_positions"].tolist()[1] == 8
