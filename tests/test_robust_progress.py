"""Progress a user can watch when the output is not a terminal: plain log lines with deals
done, rate, ETA and running win rates; cell bars on a terminal show the unknown count."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from robust_helpers import SEQUENTIAL, config, simlab, write_config

import simlab as api
from simlab.experiments import progress

LINE = re.compile(r"^\[\d\d:\d\d:\d\d\] (\d+)/(\d+) deals \(\d+%\), [\d.]+ deals/s, ETA [\d:]+.* \| "
                  r"win rates: citadel / random +[\d.]+%", re.MULTILINE)


def test_a_run_piped_to_a_log_prints_plain_progress_lines(tmp_path: Path) -> None:
    path = write_config(tmp_path / "log.yaml", config(tmp_path / "out"))
    result = simlab("run", str(path))  # stderr is a pipe, as under `| tee log`, CI or nohup
    assert result.returncode == 0, result.stderr
    lines = LINE.findall(result.stderr)
    assert lines and lines[-1] == ("6", "6")  # the last line: every deal done
    assert "\r" not in result.stderr  # no bar redrawn in place


def test_lines_come_every_few_seconds_with_running_rates(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "LOG_SECONDS", 0.0)  # a line per chunk
    data = config(tmp_path / "out", deals={"start": 1, "count": 9},
                  policies=["random", {"name": "experiment_helpers:FakeSolver", "label": "fake"}],
                  execution=SEQUENTIAL)
    api.run(data, progress=None)
    err = capsys.readouterr().err
    done = [int(d) for d, _ in LINE.findall(err)]
    assert done[:-1] == sorted(done[:-1]) and done[-1] == 18 and len(done) >= 6
    assert re.search(r"citadel / fake +[\d.]+%, \d+ unknown", err)


def test_terminal_cell_bars_show_unknowns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = config(tmp_path / "out", policies=[{"name": "experiment_helpers:FakeSolver", "label": "fake"}],
                  execution=SEQUENTIAL)
    api.run(data, progress=True)
    assert re.search(r"citadel / fake .* win +[\d.]+%, \d+ unknown", capsys.readouterr().err)
