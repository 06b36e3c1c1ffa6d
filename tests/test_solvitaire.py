"""Solvitaire beside simlab in the bench: the deal JSON, the ``--classify`` line, and
the bench without a Solvitaire build. The one test that runs the binary is skipped
unless ``SOLVITAIRE_BIN`` names one."""

from __future__ import annotations

import os

import pytest

import benchmarks.solver as bench
from benchmarks.solvitaire import WallCap, binary, parse_classify, run_solvitaire
from simlab import make_game
from simlab.boards import solvitaire_card, solvitaire_deal
from simlab.errors import SimlabError
from simlab.solver import solve


def _deal(name: str, number: int = 1) -> dict:
    game = make_game(name)
    return solvitaire_deal(game, game.initial_state(number))


def test_cards_are_written_as_solvitaire_reads_them() -> None:
    assert [solvitaire_card(c) for c in ("TD", "AS", "9H", "KC")] == ["10D", "AS", "9H", "KC"]


def test_beleaguered_castle_deal_1_bottom_card_first_with_the_aces_home() -> None:
    # docs/rules.md: row0 JD KD KS QH 8H 6C, row7 5H 2S TS TH QS 6H (pysol_cards)
    deal = _deal("beleaguered_castle")
    piles = deal["tableau piles"]
    assert len(piles) == 8 and all(len(p) == 6 for p in piles)
    assert piles[0] == ["JD", "KD", "KS", "QH", "8H", "6C"]
    assert piles[7] == ["5H", "2S", "10S", "10H", "QS", "6H"]
    assert sorted(deal["foundations"]) == ["AC", "AD", "AH", "AS"]


def test_streets_and_alleys_deal_1_has_no_foundations() -> None:
    deal = _deal("streets_and_alleys")
    assert deal["tableau piles"][0] == ["JD", "KD", "2S", "4C", "3S", "6D", "6S"]
    assert [len(p) for p in deal["tableau piles"]] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert "foundations" not in deal


def test_citadel_deal_1_keeps_the_cards_the_deal_sent_home() -> None:
    # docs/rules.md: rows hold 6, 3, 6, 6, 5, 6, 4, 5 cards; foundation tops 2C 4S 2H 3D
    game = make_game("citadel")
    state = game.initial_state(1)
    deal = solvitaire_deal(game, state)
    assert [len(p) for p in deal["tableau piles"]] == [6, 3, 6, 6, 5, 6, 4, 5]
    assert deal["foundations"] == ["AC", "2C", "AS", "2S", "3S", "4S", "AH", "2H", "AD", "2D", "3D"]
    piles = game.piles(state)
    assert deal["tableau piles"][2] == [solvitaire_card(c) for c in piles["row2"]]
    cards = [c for p in deal["tableau piles"] for c in p] + deal["foundations"]
    assert len(set(cards)) == 52


def test_games_solvitaire_does_not_play_are_refused() -> None:
    with pytest.raises(SimlabError):
        _deal("fortress")


@pytest.mark.parametrize(("line", "verdict"), [
    (", 1, 812, 1203, 0, 3, solved", "won"),
    (", 1, 4012, 9000, 0, 12, unsolvable", "lost"),
    (", 0, 100, 200, 10000, 7, timed-out", "unknown"),
    (", 0, 100, 200, 900, 7, memory-limit-reached", "unknown"),
    (", 0, 100, 200, 900, 7, terminated", "unknown"),
    ("stopped at the CPU backstop, cpu-limit", "unknown"),
])
def test_classify_line_outcomes(line: str, verdict: str) -> None:
    output = "Attempting to solve deal.json...\n" + line + "\n"
    assert parse_classify(output) == (verdict, line.rsplit(", ", 1)[1])


@pytest.mark.parametrize("output", ["", "Error parsing deal file: bad card\n", "x, y\nkilled by signal 9\n"])
def test_classify_anything_else_is_an_error(output: str) -> None:
    assert parse_classify(output)[0] == "error"


def test_wall_cap_is_stretched_by_the_share_of_a_core_the_bench_gets() -> None:
    cap = WallCap(10_000)
    assert cap.timeout_ms() == 10_000  # nothing timed yet
    cap.observe(1.0, 2.0)
    assert cap.timeout_ms() == 20_000
    cap.observe(0.0, 1000.0)  # starved for long: stretched at most tenfold
    assert cap.timeout_ms() == 100_000
    assert cap.cpu_limit_s() == 12
    plain = WallCap(10_000, stretch=False)
    plain.observe(1.0, 4.0)
    assert plain.timeout_ms() == 10_000 and plain.cpu_limit_s() is None


def test_curve_counts_resolved_deals_within_each_cap() -> None:
    verdicts = ["won", "lost", "unknown", "won", "error"]
    cpu = [0.005, 0.05, 0.001, 5.0, 0.001]
    assert bench.resolved_within(verdicts, cpu) == [1, 2, 2, 3]


def test_bench_skips_solvitaire_without_solvitaire_bin(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.delenv("SOLVITAIRE_BIN", raising=False)
    monkeypatch.setattr(bench, "GAMES", ["citadel"])
    monkeypatch.setattr(bench, "USE_FCSOLVE", False)
    monkeypatch.setattr(bench, "RESULTS_DIR", tmp_path)
    row = {"game": "citadel", "deal": 1, "verdict": "won", "reason": "won", "nodes": 10, "cpu_s": 0.01,
           "fcs_verdict": "", "fcs_states": "", "fcs_cpu_s": "",
           "sol_verdict": "", "sol_outcome": "", "sol_cpu_s": "", "sol_wall_s": "", "sol_timeout_ms": "",
           "sol_maxrss_kb": "", "note": ""}

    def fake_bench_game(name, use_fcs, writer, solvitaire=None):
        assert solvitaire is None and not use_fcs
        writer.writerow(row)
        return {"game": name, "rows": [row], "maxrss_kb": 1024}

    monkeypatch.setattr(bench, "bench_game", fake_bench_game)
    monkeypatch.setattr(bench, "compile_in_child", lambda games: None)  # nothing is solved here
    bench.run()
    out = capsys.readouterr().out
    assert "SOLVITAIRE_BIN is not set: Solvitaire's columns are skipped" in out
    assert "Solvitaire won" not in out
    (csv_file,) = tmp_path.iterdir()
    header = csv_file.read_text().splitlines()[0]
    assert header.endswith("sol_verdict,sol_outcome,sol_cpu_s,sol_wall_s,sol_timeout_ms,sol_maxrss_kb,note")


@pytest.mark.skipif(not (binary() and os.access(binary() or "", os.X_OK)),
                    reason="SOLVITAIRE_BIN does not name a Solvitaire binary")
# simlab's verdicts at the default budget
@pytest.mark.parametrize(("name", "number", "verdict"), [
    ("beleaguered_castle", 1, "lost"), ("beleaguered_castle", 2, "won"),
    ("streets_and_alleys", 1, "lost"), ("streets_and_alleys", 4, "won"), ("citadel", 1, "won"),
])
def test_solvitaire_binary_agrees_on_a_deal(name: str, number: int, verdict: str) -> None:
    result = run_solvitaire(binary(), name, _deal(name, number), timeout_ms=10_000)
    assert result.verdict == verdict, result.output
    assert result.seconds >= 0 and result.maxrss_kb > 0


def test_a_contradiction_replays_simlabs_winning_line() -> None:
    game = make_game("citadel")
    state = game.initial_state(1)
    result = solve(game, state)
    assert result.verdict == "won"
    assert "replays to a win under simlab's rules: Solvitaire's 'lost' is the suspect" in \
        bench.solvitaire_note(game, state, result)
    result.moves = result.moves[:-1]
    assert "does NOT replay to a win" in bench.solvitaire_note(game, state, result)


@pytest.mark.skipif(not (binary() and os.access(binary() or "", os.X_OK)),
                    reason="SOLVITAIRE_BIN does not name a Solvitaire binary")
def test_solvitaire_stopped_at_the_cpu_backstop_is_unknown() -> None:
    # Beleaguered Castle deal 51 takes Solvitaire more than a CPU second
    result = run_solvitaire(binary(), "beleaguered_castle", _deal("beleaguered_castle", 51),
                            timeout_ms=100_000, cpu_limit_s=1)
    assert (result.verdict, result.outcome) == ("unknown", "cpu-limit"), result.output
    assert result.seconds < 1.5
