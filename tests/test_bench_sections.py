"""The benchmark sections: each exists and runs (a missing one is an error, not a
section skipped), and their figures are ``simlab.experiments.stats``' own."""

from __future__ import annotations

import importlib

import pytest

import benchmarks.__main__ as bench_main
from benchmarks import fair_rounds, ladder, relaxation
from simlab import POLICIES
from simlab.experiments.stats import mcnemar_exact, wilson_interval


def test_every_section_is_a_module_with_run() -> None:
    for name in bench_main.SECTIONS:
        assert callable(importlib.import_module(f"benchmarks.{name}").run), name


def test_a_missing_section_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_main, "SECTIONS", ("no_such_section",))
    with pytest.raises(ModuleNotFoundError):
        bench_main.main(["--only", "no_such_section"])


def test_every_ladder_rung_is_a_registered_policy() -> None:
    assert {policy for _, policy, _, _ in ladder.rungs()} <= set(POLICIES.names())


def test_fair_rounds_p_is_stats_mcnemar(monkeypatch: pytest.MonkeyPatch) -> None:
    first = {deal: deal % 3 == 0 for deal in range(1, 41)}
    second = {deal: deal % 5 == 0 for deal in range(1, 31)}
    b, c, p = fair_rounds.mcnemar(first, second)
    both = range(1, 31)
    assert (b, c) == (sum(first[d] and not second[d] for d in both), sum(second[d] and not first[d] for d in both))
    assert p == mcnemar_exact(b, c)
    assert fair_rounds.mcnemar({1: True}, {1: True}) == (0, 0, mcnemar_exact(0, 0))
    # the test is stats' function itself, not a copy that agrees on these counts
    monkeypatch.setattr(fair_rounds, "mcnemar_exact", lambda only_a, only_b: 0.5)
    assert fair_rounds.mcnemar(first, second) == (b, c, 0.5)


def test_relaxation_interval_is_stats_wilson(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [{"deal": d, "value": 0.5, "cpu": 1.0, "round_max": d <= 7, "round_max cpu": 1.0} for d in range(1, 21)]
    relaxation.summary("trefoil", rows, ["round_max"])
    low, high = wilson_interval(7, 20)
    assert f"7/20 = 35.0% (95% {100 * low:.1f}-{100 * high:.1f})" in capsys.readouterr().out
    # the interval is stats' function itself, not a copy that agrees to a decimal
    monkeypatch.setattr(relaxation, "wilson_interval", lambda wins, n: (0.123, 0.456))
    relaxation.summary("trefoil", rows, ["round_max"])
    assert "(95% 12.3-45.6)" in capsys.readouterr().out
