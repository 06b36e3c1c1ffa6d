"""Stopping always works: Ctrl-C or SIGTERM during a long compiled search stops
``simlab solve`` and a ``backend: sequential`` run within seconds, with status 130 / 143 and
its message, never a segfault or an error row; a signal while the config is checked (a user's
policy module whose import never returns) says that nothing ran. And the slices the solver
runs in never change a result."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from run_helpers import ENV, REPO, config, default_interrupt, stored_rows, write_config

from simlab.games import make_game
from simlab.solver import portfolio, solve
from simlab.solver.best_first import best_first_search, stock_best_first_search
from simlab.solver.plan import plan_for
from simlab.solver.search import depth_first_search

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")
SIGNALS = [(signal.SIGINT, 130, "Interrupted"), (signal.SIGTERM, 143, "Terminated (SIGTERM)")]
# Windmill deal 2 is undecided after millions of positions (minutes at 10-20 microseconds each).
LONG_SEARCH = ["windmill", "2", "--budget", "100000000"]
STOP_WITHIN = 10.0  # seconds from the signal to the exit, generous for a loaded machine (about 1 s idle)
# A child that loads the compiled searches first (a tiny solve), says so, then runs the command:
# the signal then lands in the search, not in the imports.
DRIVER = """
import sys
from simlab.games import make_game
from simlab.solver import solve
solve(make_game(sys.argv[1]), 2, budget=3000)
print("searching", flush=True)
from simlab.cli import main
sys.exit(main(sys.argv[2:]))
"""


def start_searching(game: str, *argv: str, cwd: Path = REPO) -> subprocess.Popen[str]:
    """``simlab argv...`` in a fresh process that has loaded ``game``'s searches, once it says
    so (its first line)."""
    process = subprocess.Popen([sys.executable, "-c", DRIVER, game, *argv], cwd=cwd, env=ENV,
                               start_new_session=True, preexec_fn=default_interrupt,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    assert process.stdout.readline() == "searching\n", process.communicate()
    return process


def stopped(process: subprocess.Popen[str], signum: int, after: float) -> tuple[int, str, float]:
    """Send ``signum`` ``after`` seconds from now; (status, stderr, seconds until it exited)."""
    time.sleep(after)
    os.kill(process.pid, signum)
    sent = time.monotonic()
    _, err = process.communicate(timeout=120)
    return process.returncode, err, time.monotonic() - sent


@pytest.mark.parametrize(("signum", "status", "word"), SIGNALS)
def test_a_signal_stops_a_long_compiled_solve_at_once(signum: int, status: int, word: str) -> None:
    process = start_searching("windmill", "solve", *LONG_SEARCH)
    code, err, seconds = stopped(process, signum, after=1.5)
    assert code == status, err
    assert err.strip().splitlines()[0] == f"{word}. simlab solve stopped; it saves nothing, so run it again " \
                                          "to start over.", err
    assert seconds < STOP_WITHIN, (seconds, err)


@pytest.mark.parametrize("command", ["hint", "show"])
def test_ctrl_c_stops_a_long_hint_and_a_page_of_verdicts_at_once(tmp_path: Path, command: str) -> None:
    """``simlab hint`` and ``simlab show --verdicts`` search like ``solve``, and stop like it."""
    page = tmp_path / "page.html"
    argv = {"hint": ["hint", *LONG_SEARCH],
            "show": ["show", "windmill", "2", "--policy", "greedy", "--verdicts", "--verdict-budget", "100000000",
                     "--html", str(page)]}[command]
    process = start_searching("windmill", *argv)
    # show: greedy's line first (about a second), then the verdict of its first position, minutes
    code, err, seconds = stopped(process, signal.SIGINT, after=1.5 if command == "hint" else 3.0)
    assert code == 130, err
    assert err.strip().splitlines()[0] == f"Interrupted. simlab {command} stopped; it saves nothing, so run it " \
                                          "again to start over.", err
    assert seconds < STOP_WITHIN, (seconds, err)
    assert not page.exists()


@pytest.mark.parametrize(("signum", "status", "word"), SIGNALS)
def test_a_signal_stops_a_sequential_run_mid_search_without_an_error_row(
        tmp_path: Path, signum: int, status: int, word: str) -> None:
    output = tmp_path / "out"
    # deal 1 is won within 2,000 positions, deal 2 runs for minutes: the signal lands in deal 2
    data = config(output, games=["windmill"], deals=[1, 2],
                  policies=[{"name": "solver", "params": {"budget": 100_000_000}}],
                  execution={"backend": "sequential", "chunk_size": 1})
    path = write_config(tmp_path / "long.yaml", data)
    process = start_searching("windmill", "run", str(path), "--no-progress")
    deadline = time.monotonic() + 120
    while not stored_rows(output) and time.monotonic() < deadline:
        time.sleep(0.1)
    code, err, seconds = stopped(process, signum, after=1.5)
    assert code == status, err
    assert f"{word}. Every finished deal is saved in {output}/" in err
    assert "Traceback" not in err and "SystemError" not in err
    assert [row[:2] for row in stored_rows(output)] == [(1, "won")]  # no error row for deal 2
    assert seconds < STOP_WITHIN, (seconds, err)


def test_ctrl_c_while_a_policy_module_imports_for_ever_says_nothing_ran(tmp_path: Path) -> None:
    signum, status, word = SIGNALS[0]  # SIGTERM takes the same path (sigterm_as_interrupt)
    marker = tmp_path / "importing"
    (tmp_path / "hangs_on_import.py").write_text(
        f"import pathlib, time\npathlib.Path({str(marker)!r}).touch()\nwhile True:\n    time.sleep(0.1)\n")
    output = tmp_path / "out"
    path = write_config(tmp_path / "hang.yaml", config(output, policies=["hangs_on_import:Player"]))
    process = subprocess.Popen([sys.executable, "-m", "simlab.cli", "run", str(path), "--no-progress"],
                               cwd=tmp_path, env={**ENV, "PYTHONPATH": f"{tmp_path}:{ENV['PYTHONPATH']}"},
                               start_new_session=True, preexec_fn=default_interrupt,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    code, err, seconds = stopped(process, signum, after=0.3)
    assert code == status, err
    assert err.strip() == f"{word} while checking {path}: nothing ran and nothing was written.", err
    assert not output.exists()
    assert seconds < STOP_WITHIN


@pytest.fixture
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pause every 97 positions, so a search of a few thousand pauses dozens of times."""
    monkeypatch.setattr(portfolio, "SLICE", 97)


@pytest.mark.parametrize(("name", "deal"), [("beleaguered_castle", 186), ("streets_and_alleys", 4), ("windmill", 3),
                                            ("la_belle_lucie", 2)])
def test_slices_never_change_a_restart(small_slices: None, name: str, deal: int) -> None:
    """Each restart (runs 1-4 take every strategy of the plan's) run in slices against the same
    search compiled whole."""
    game = make_game(name)
    plan = plan_for(game)
    start = game.initial_state(deal)
    paused = 0  # runs that went past a slice
    for run in (1, 2, 3, 4):
        strategy = plan.restart_strategies[(run - 1) % len(plan.restart_strategies)]
        seed = 0 if run == 1 else run
        fixed = (game.rules, plan.array, start.array.copy())
        if strategy == "best_first":
            whole = best_first_search(*fixed, plan.zobrist, 3000, 20, portfolio.PROMISE_WEIGHTS, seed)
        elif strategy == "stock_best_first":
            whole = stock_best_first_search(*fixed, start.chance, plan.zobrist, 3000, 20,
                                            portfolio.STOCK_PROMISE_WEIGHTS, seed)
        else:
            whole = depth_first_search(*fixed, start.chance, plan.zobrist, 3000, 20,
                                       portfolio.DEPTH_FIRST_ORDERS[strategy], run)
        sliced = portfolio.restart(game, plan, start.array, start.chance, run, 3000, 20)
        assert (int(sliced[0]), int(sliced[1])) == (int(whole[0]), int(whole[1])), strategy
        assert sliced[2].tolist() == whole[2].tolist(), strategy
        paused += int(whole[1]) > 97
    assert paused  # the test can fail: some run paused


def test_slices_never_change_a_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("beleaguered_castle")
    results = []
    for size in (portfolio.SLICE, 97):
        monkeypatch.setattr(portfolio, "SLICE", size)
        results.append([solve(game, deal, budget=20_000) for deal in (1, 3, 186)])
    assert [(r.verdict, r.nodes, r.moves) for r in results[0]] == [(r.verdict, r.nodes, r.moves) for r in results[1]]
