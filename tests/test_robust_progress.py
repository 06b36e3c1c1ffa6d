"""Progress a user can watch when the output is not a terminal: plain log lines with deals
done, rate, ETA and running win rates; cell bars on a terminal show the unknown count."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from robust_helpers import SEQUENTIAL, config, simlab, write_config

import simlab as api
from simlab.experiments import progress

LINE = re.compile(r"^\[\d\d:\d\d:\d\d\] (\d+)/(\d+) deals \(\d+%\), [\d.]+ deals/s, ETA [\d:]+[^\n]*$", re.MULTILINE)
RATES = re.compile(r"^  win rates: citadel / random +[\d.]+%", re.MULTILINE)


def test_a_run_piped_to_a_log_prints_plain_progress_lines(tmp_path: Path) -> None:
    path = write_config(tmp_path / "log.yaml", config(tmp_path / "out"))
    result = simlab("run", str(path))  # stderr is a pipe, as under `| tee log`, CI or nohup
    assert result.returncode == 0, result.stderr
    lines = LINE.findall(result.stderr)
    assert lines and lines[-1] == ("6", "6")  # the last line: every deal done
    assert "\r" not in result.stderr  # no bar redrawn in place
    # the cells' rates: a short run lists them once, at the end, under the last progress line
    assert len(RATES.findall(result.stderr)) == 1
    assert RATES.search(result.stderr).start() > result.stderr.rindex("6/6 deals")
    assert max(len(line) for line in result.stderr.splitlines()) <= progress.LOG_WIDTH


def test_lines_come_every_few_seconds_with_running_rates(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "LOG_SECONDS", 0.0)  # a line per chunk
    monkeypatch.setattr(progress, "RATES_SECONDS", 0.0)  # and the rates under each
    data = config(tmp_path / "out", deals={"start": 1, "count": 9},
                  policies=["random", {"name": "experiment_helpers:FakeSolver", "label": "fake"}],
                  execution=SEQUENTIAL)
    api.run(data, progress=None)
    err = capsys.readouterr().err
    done = [int(d) for d, _ in LINE.findall(err)]
    assert done[:-1] == sorted(done[:-1]) and done[-1] == 18 and len(done) >= 6
    assert len(RATES.findall(err)) >= len(done)
    assert re.search(r"citadel / fake +[\d.]+%, \d+ unknown", err)
    # the short line counts the unknowns of every cell
    unknown = [int(n) for n in re.findall(r"ETA [\d:]+, (\d+) unknown$", err, re.MULTILINE)]
    assert unknown and unknown == sorted(unknown)


def test_rates_break_between_cells_only() -> None:
    cells = [f"game{i} (deal=hoyle) / heuristic (dig=0.0) {i}.0%" for i in range(7)]
    lines = progress.packed(cells, "  win rates: ", "    ", width=60)
    assert all(len(line) <= 60 for line in lines) and len(lines) > 2
    assert " ".join(line.strip() for line in lines) == "win rates: " + "; ".join(cells)
    assert all(line.rstrip().endswith(";") for line in lines[:-1])


def test_terminal_cell_bars_show_unknowns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = config(tmp_path / "out", policies=[{"name": "experiment_helpers:FakeSolver", "label": "fake"}],
                  execution=SEQUENTIAL)
    api.run(data, progress=True)
    assert re.search(r"citadel / fake .* win +[\d.]+%, \d+ unknown", capsys.readouterr().err)


def test_before_the_first_deal_the_log_says_it_is_starting() -> None:
    import io
    import time

    line = progress.Progress.__new__(progress.Progress)  # only what log_line reads
    line.stream, line.done, line.total, line.failed, line.counts = io.StringIO(), 0, 8, 0, {}
    line.started = line.last_line = line.last_rates = time.monotonic()
    line.log_line()
    text = line.stream.getvalue()
    assert text.rstrip().endswith(f"0/8 deals, {progress.STARTING}") and "ETA" not in text
    assert len(text.rstrip()) <= progress.LOG_WIDTH
