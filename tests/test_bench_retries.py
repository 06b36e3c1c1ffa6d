"""The solver bench's retries (``SIMLAB_BENCH_RETRY_BUDGET``): deals left unknown are
solved again at a larger budget, their CPU added to the mean, beside Blake and Gent's figures."""

from __future__ import annotations

import csv

import pytest

import benchmarks.solver as bench


def bench_rows(game: str, verdicts: list[str], cpu_s: float) -> list[dict]:
    """Rows as ``bench_game`` writes them (the columns the retries read), deals from 1."""
    return [{"game": game, "deal": deal, "verdict": verdict, "cpu_s": cpu_s}
            for deal, verdict in enumerate(verdicts, start=1)]


@pytest.fixture
def retries_here(monkeypatch):
    """Retries at 200,000 positions in 2**20 slots, in this process (the child process
    is only there to keep its memory apart), with the moonshot's CPU bound out of reach
    of any machine's speed, so that only the unresolved share decides it."""
    monkeypatch.setattr(bench, "RETRY_BUDGET", 200_000)
    monkeypatch.setattr(bench, "RETRY_TABLE_BITS", 20)
    monkeypatch.setattr(bench, "BLAKE_GENT", {"beleaguered_castle": (1_361 / 2_000_000, 1e6)})
    monkeypatch.setattr(bench, "retry_in_child",
                        lambda name, deals: bench.retry_deals(name, deals, bench.RETRY_BUDGET, bench.RETRY_TABLE_BITS))


def test_a_deal_left_unknown_is_solved_again_and_its_cpu_counted(retries_here, tmp_path, capsys) -> None:
    rows = bench_rows("beleaguered_castle", ["lost", "unknown", "won", "won"], 0.01)  # deal 2 is won
    path = tmp_path / "retries.csv"
    path.touch()
    bench.retry(rows, path)
    (retried,) = list(csv.DictReader(path.open()))
    assert (retried["deal"], retried["verdict"], retried["reason"], retried["budget"], retried["table_bits"]) == (
        "2", "won", "won", "200000", "20")
    assert int(retried["nodes"]) >= 1 and retried["check_nodes"] == "0"
    out = capsys.readouterr().out
    assert "retried  1 unknown deals at 200,000 positions (2**20 slots): won 1  lost 0  unknown 0" in out
    mean = (4 * 0.01 + float(retried["cpu_s"])) / 4
    assert "with the retries: unresolved 0 of 4, 0.000% (95% 0.000-" in out
    assert f"mean {mean:.3f} CPU-s per deal" in out
    assert "Blake and Gent 0.068% unresolved" in out and ": met" in out
    bench.retry(rows, path)  # a second game's retries: rows added, no second header
    assert [line.split(",")[1] for line in path.read_text().splitlines()] == ["deal", "2", "2"]


def test_nothing_is_retried_when_no_deal_was_left_unknown(retries_here, tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(bench, "retry_in_child", lambda name, deals: pytest.fail("nothing to retry"))
    path = tmp_path / "retries.csv"
    path.touch()
    bench.retry(bench_rows("beleaguered_castle", ["won", "lost"], 0.01), path)
    assert "retried  nothing: no deal was left unknown" in capsys.readouterr().out
    assert path.read_text() == ""


def test_a_retry_that_fails_is_reported_and_costs_only_its_game(retries_here, tmp_path, capsys, monkeypatch) -> None:
    def died(name, deals):
        raise MemoryError("no room for the table")

    monkeypatch.setattr(bench, "retry_in_child", died)
    path = tmp_path / "retries.csv"
    path.touch()
    bench.retry(bench_rows("beleaguered_castle", ["unknown", "won"], 0.01), path)  # returns, does not raise
    assert "retried  FAILED (MemoryError: no room for the table): deals [1] were not solved again" in (
        capsys.readouterr().out)


def test_the_moonshot_is_missed_when_too_many_deals_stay_unknown_or_cost_too_much(capsys) -> None:
    rows = bench_rows("streets_and_alleys", ["won"] * 997 + ["unknown"] * 3, 0.1)
    still = [{"deal": 998 + i, "verdict": v, "cpu_s": 100.0} for i, v in enumerate(["won", "lost", "unknown"])]
    bench._retry_summary(rows, still, 0)
    out = capsys.readouterr().out
    # 1 of 1000 unknown (0.1%, under 0.232%), mean (100 + 300) / 1000 = 0.400 CPU-s, under 2.9
    assert "unresolved 1 of 1000, 0.100%" in out and "mean 0.400 CPU-s per deal" in out and ": met" in out
    few = bench_rows("streets_and_alleys", ["won"] * 397 + ["unknown"] * 3, 0.1)
    bench._retry_summary(few, still, 0)  # 1 of 400 still unknown: 0.25%, over Blake and Gent's 0.232%
    assert "unresolved 1 of 400, 0.250%" in (out := capsys.readouterr().out) and ": MISSED" in out
    costly = [dict(r, cpu_s=1000.0) for r in still[:2]] + still[2:]
    bench._retry_summary(rows, costly, 0)  # mean (100 + 2100) / 1000 = 2.2, under 2.9
    assert "mean 2.200 CPU-s" in (out := capsys.readouterr().out) and ": met" in out
    bench._retry_summary(rows, [dict(r, cpu_s=1000.0) for r in still], 0)  # mean 3.1, over 2.9
    assert "mean 3.100 CPU-s" in (out := capsys.readouterr().out) and ": MISSED" in out


def test_a_game_without_published_figures_gets_no_moonshot_line(capsys) -> None:
    bench._retry_summary(bench_rows("citadel", ["unknown"], 0.1), [{"deal": 1, "verdict": "lost", "cpu_s": 1.0}], 0)
    out = capsys.readouterr().out
    assert "unresolved 0 of 1" in out and "Blake and Gent" not in out


def test_a_retry_budget_not_above_the_default_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(bench, "RETRY_BUDGET", bench.DEFAULT_BUDGET)
    with pytest.raises(SystemExit, match="SIMLAB_BENCH_RETRY_BUDGET=32000000: expected 0 .* or more than"):
        bench.check_retry_budget()
    monkeypatch.setattr(bench, "RETRY_BUDGET", 0)
    bench.check_retry_budget()  # no retries: nothing to refuse
