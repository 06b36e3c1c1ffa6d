"""The solver bench's retries (``SIMLAB_BENCH_RETRY_BUDGET``): deals left unknown are
solved again at a larger budget, their CPU added to the mean, beside Blake and Gent's figures."""

from __future__ import annotations

import csv

import benchmarks.solver as bench


def bench_rows(game: str, verdicts: list[str], cpu_s: float) -> list[dict]:
    """Rows as ``bench_game`` writes them (the columns the retries read), deals from 1."""
    return [{"game": game, "deal": deal, "verdict": verdict, "cpu_s": cpu_s}
            for deal, verdict in enumerate(verdicts, start=1)]


def test_a_deal_left_unknown_is_solved_again_and_its_cpu_counted(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.setattr(bench, "RETRY_BUDGET", 200_000)
    monkeypatch.setattr(bench, "RETRY_TABLE_BITS", 20)
    # in this process: the child process is only there to keep its memory apart
    monkeypatch.setattr(bench, "retry_in_child",
                        lambda name, deals: bench.retry_deals(name, deals, bench.RETRY_BUDGET, bench.RETRY_TABLE_BITS))
    rows = bench_rows("beleaguered_castle", ["lost", "unknown", "won", "won"], 0.01)  # deal 2 is won
    path = tmp_path / "retries.csv"
    path.touch()
    bench.retry(rows, path)
    (retried,) = list(csv.DictReader(path.open()))
    assert (retried["deal"], retried["verdict"], retried["budget"]) == ("2", "won", "200000")
    out = capsys.readouterr().out
    assert "retried  1 unknown deals at 200,000 positions (2**20 slots): won 1  lost 0  unknown 0" in out
    mean = (4 * 0.01 + float(retried["cpu_s"])) / 4
    assert f"with the retries: unresolved 0.000%, mean {mean:.3f} CPU-s per deal" in out
    assert "Blake and Gent 0.068% at 4.9 (moonshot, at most 0.068% under 0.49 CPU-s: met)" in out


def test_the_moonshot_is_missed_when_too_many_deals_stay_unknown_or_cost_too_much(capsys) -> None:
    rows = bench_rows("streets_and_alleys", ["won"] * 997 + ["unknown"] * 3, 0.1)
    still = [{"deal": 998 + i, "verdict": v, "cpu_s": 100.0} for i, v in enumerate(["won", "lost", "unknown"])]
    bench._retry_summary(rows, still, 0)
    out = capsys.readouterr().out
    # 1 of 1000 unknown (0.1%, under 0.232%), mean (100 + 300) / 1000 = 0.400 CPU-s, under 2.9
    assert "unresolved 0.100%, mean 0.400 CPU-s per deal" in out and "met)" in out
    bench._retry_summary(rows[:400], still, 0)  # 1 of 400: 0.25%, over Blake and Gent's 0.232%
    assert "MISSED" in capsys.readouterr().out
    costly = [dict(r, cpu_s=1000.0) for r in still[:2]] + still[2:]
    bench._retry_summary(rows, costly, 0)  # mean (100 + 2100) / 1000 = 2.2, under 2.9
    assert "mean 2.200 CPU-s" in (out := capsys.readouterr().out) and "met)" in out
    bench._retry_summary(rows, [dict(r, cpu_s=1000.0) for r in still], 0)  # mean 3.1, over 2.9
    assert "mean 3.100 CPU-s" in (out := capsys.readouterr().out) and "MISSED" in out
