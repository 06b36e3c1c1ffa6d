"""Progress a user can watch when the output is not a terminal: plain log lines with deals
done, rate, ETA and running win rates; on a terminal a live bar with rate and ETA, and cell
bars that show the unknown count. The ETA says "estimating" until the first chunk has ended."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from run_helpers import SEQUENTIAL, config, simlab, write_config

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


class FakeTerminal(io.StringIO):
    """A stream that says it is a terminal, as stderr does in a shell."""

    def isatty(self) -> bool:
        return True


def watched(tmp_path: Path, stream: io.StringIO, monkeypatch: pytest.MonkeyPatch,
            workers: int = 1) -> tuple[Any, list[float]]:
    """A ``Progress`` of 12 deals (one cell, chunks of 3) writing to ``stream``, its clock
    ``clock[0]`` seconds (set by the test)."""
    from simlab.experiments.cells import cells_of
    from simlab.experiments.config import config_from_dict
    from simlab.experiments.runner import plan
    from simlab.experiments.store import ResultStore

    clock = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    setup = config_from_dict(config(tmp_path / "out", deals={"start": 1, "count": 12}), source="p.yaml")
    cells = cells_of(setup)
    store = ResultStore(tmp_path)
    for cell in cells:
        store.add_cell(cell.key, cell.identity(setup.root_seed))
    watcher = progress.Progress(setup, cells, store, plan(setup, cells, store), enabled=None, stream=stream,
                                workers=workers)
    store.close()
    return watcher, clock


def chunk(watcher: Any, clock: list[float], at: float, cell: str) -> None:
    clock[0] = at
    watcher.update([{"cell": cell, "verdict": "lost"} for _ in range(3)])


def play_out(watcher: Any, clock: list[float]) -> list[str]:
    """The first chunk ends after 20 s (workers starting, compiling), then one every 2 s:
    the stream's text after each chunk."""
    cell = next(iter(watcher.counts))
    texts = []
    for at in (20.0, 22.0, 24.0, 26.0):
        chunk(watcher, clock, at, cell)
        texts.append(watcher.stream.getvalue())
    watcher.close()
    return texts


def test_a_terminal_gets_one_live_bar_with_rate_and_eta(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    watcher, clock = watched(tmp_path, FakeTerminal(), monkeypatch)
    assert not watcher.logging and watcher.overall.disable is False  # a bar, not log lines
    texts = play_out(watcher, clock)
    assert "\r" in texts[-1] and not re.search(r"^\[\d\d:\d\d:\d\d\]", texts[-1], re.MULTILINE)
    # the run's bar as drawn, in order: (deals done, what follows the elapsed time)
    drawn = re.findall(r"\rdeals: +\d+%\|[# ]*\| (\d+)/12 \[\d\d:\d\d(?:, ([^\]]*))?\]", texts[-1])
    assert drawn[1] == ("0", progress.STARTING)  # before any deal ended
    # the first chunk took 20 s (workers starting, compiling): no basis for an ETA; then 3 deals in 2 s
    assert drawn[2:] == [("3", "ETA estimating"), ("6", "1.5 deals/s, ETA 0:00:04"),
                         ("9", "1.5 deals/s, ETA 0:00:02"), ("12", "1.5 deals/s, ETA 0:00:00")]
    assert all(len(re.findall(r"\rdeals:", text)) > len(re.findall(r"\rdeals:", earlier))
               for earlier, text in zip(texts, texts[1:]))  # redrawn live, after every chunk


def test_a_log_gets_timestamped_lines_that_estimate_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "LOG_SECONDS", 0.0)  # a line per chunk
    watcher, clock = watched(tmp_path, io.StringIO(), monkeypatch)
    assert watcher.logging and watcher.overall.disable is True
    text = play_out(watcher, clock)[-1]
    assert "\r" not in text
    lines = [line for line in text.splitlines() if re.match(r"^\[\d\d:\d\d:\d\d\] ", line)]
    assert lines[0].endswith("3/12 deals (25%), 0.1 deals/s, ETA estimating")  # 3 in 20 s: no basis yet
    assert lines[1].endswith("6/12 deals (50%), 1.5 deals/s, ETA 0:00:04")  # 3 in the 2 s since
    assert lines[-1].endswith("12/12 deals (100%), 1.5 deals/s, ETA 0:00:00")


def test_with_two_workers_the_eta_waits_for_the_first_chunk_of_each(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers start (and compile) together, so their first chunks end together, 20 s
    in: the second of them is no basis for a rate (3 deals in 0.5 s would promise the rest
    in 1 s); the rate counts from it, at the workers' pace of 3 deals a second between them."""
    monkeypatch.setattr(progress, "LOG_SECONDS", 0.0)  # a line per chunk
    watcher, clock = watched(tmp_path, io.StringIO(), monkeypatch, workers=2)
    cell = next(iter(watcher.counts))
    for at in (20.0, 20.5, 21.5, 22.5):
        chunk(watcher, clock, at, cell)
    watcher.close()
    lines = [line for line in watcher.stream.getvalue().splitlines() if re.match(r"^\[\d\d:\d\d:\d\d\] ", line)]
    assert lines[0].endswith("3/12 deals (25%), 0.1 deals/s, ETA estimating")
    assert lines[1].endswith("6/12 deals (50%), 0.3 deals/s, ETA estimating")  # the other worker's first chunk
    assert lines[2].endswith("9/12 deals (75%), 3.0 deals/s, ETA 0:00:01")
