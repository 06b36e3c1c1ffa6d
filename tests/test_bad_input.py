"""Every bad input gets one clean message naming the file, the key and what was
expected, exit status 2, and leaves the output folder exactly as it was."""

from __future__ import annotations

import socket
import threading
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import yaml
from run_helpers import SEQUENTIAL, config, folder_state, simlab, write_config

from simlab import cli
from simlab.experiments import runner
from simlab.experiments.config import config_from_dict, load_config

EARLIER = {"name": "robust", "root_seed": 3}


@pytest.fixture(scope="module")
def earlier_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding an earlier run's results, which no bad run may touch."""
    folder = tmp_path_factory.mktemp("earlier")
    output = folder / "out"
    data = config(output, execution=SEQUENTIAL)
    assert cli.main(["run", str(write_config(folder / "ok.yaml", data)), "--no-progress"]) == 0
    return output


def run_in_process(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    status = cli.main(["run", str(path), "--no-progress", *extra])
    return status, capsys.readouterr().err


def yaml_text(output: Path, **lines: str) -> str:
    """A config as YAML text, with some top-level lines replaced verbatim."""
    base = {"name": "robust", "root_seed": "3", "deals": "{start: 1, count: 6}", "games": "[citadel]",
            "policies": "[random]", "execution": "{n_jobs: 1, chunk_size: 3}", "output": str(output)}
    base.update(lines)
    return "".join(f"{key}: {value}\n" for key, value in base.items())


BOMB = ('a: &a ["x","x","x","x","x","x","x","x","x"]\n'
        + "".join(f'{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n'
                  for p, c in zip("abcdefgh", "bcdefghi")))

CASES: list[tuple[str, Callable[[Path], Any], list[str]]] = [
    ("huge deal count", lambda out: config(out, deals={"start": 1, "count": 10_000_000_000_000}),
     ["deals.count must be an int in [1, 1000000]", "Got 10000000000000"]),
    ("deal number 2**63", lambda out: config(out, deals=[5, 2**63]),
     ["deals[1] must be an int in [1, 9223372036854775807]", "Got 9223372036854775808"]),
    ("deal range past 2**63", lambda out: config(out, deals={"start": 2**63 - 2, "count": 5}),
     ["deals must end at deal 9223372036854775807 (2**63 - 1) at most"]),
    ("300-character name", lambda out: config(out, name="x" * 300),
     ["name must be a str of letters, digits, '_', '.' and '-', at most 100 characters long", "Got 'xxxxxxxx"]),
    ("name with a newline", lambda out: config(out, name="bad\n"),
     ["name must be a str of letters, digits", "Got 'bad\\n' (a str)"]),
    ("output with a newline", lambda out: {**config(out), "output": f"{out}\nx"},
     ["output must be a folder path without control characters"]),
    ("NaN weight", lambda out: config(out, policies=[{"name": "heuristic", "params": {"foundation": float("nan")}}]),
     ["policies[0].params.foundation: The 'foundation' parameter of policy 'heuristic' must be a finite",
      "Got nan"]),
    ("infinite weight",
     lambda out: config(out, policies=[{"name": "heuristic", "params": {"foundation": float("inf")}}]),
     ["policies[0].params.foundation", "must be a finite", "Got inf"]),
    ("max_moves 10**9", lambda out: config(out, policies=[{"name": "random", "params": {"max_moves": 10**9}}]),
     ["policies[0].params.max_moves", "must be an int in [1, 1000000]", "Got 1000000000"]),
    ("scheduler that is no address",
     lambda out: config(out, execution={"backend": "dask", "scheduler": "not an address"}),
     ["execution.scheduler must be the address of a dask scheduler, such as tcp://10.0.0.5:8786",
      "Got 'not an address'"]),
    ("scheduler with a local backend", lambda out: config(out, execution={"scheduler": "tcp://127.0.0.1:8786"}),
     ["execution.scheduler is used only by the dask backend", "backend 'loky'"]),
    ("not a Policy", lambda out: config(out, policies=["collections:OrderedDict"]),
     ["policies[0].name: Policy 'collections:OrderedDict' must name a subclass of simlab.Policy",
      "'OrderedDict' of module 'collections' is a class, but not a Policy"]),
    ("sys.exit at import", lambda out: config(out, policies=["exits_at_import:Anything"]),
     ["policies[0].name: importing policy 'exits_at_import:Anything' failed: the module called sys.exit(3)"]),
    ("deal_timeout of zero", lambda out: config(out, execution={"deal_timeout": 0}),
     ["execution.deal_timeout must be a number of seconds > 0, or null for no limit. Got 0"]),
    ("alias bomb", lambda out: yaml_text(out) + BOMB,
     ["the config must expand to at most 100,000 values", "alias bomb"]),
    ("huge file", lambda out: yaml_text(out, description='"' + "x" * 1_100_000 + '"'),
     ["the config file must be at most 1,000,000 bytes"]),
    # issue 44: bidirectional controls in a label or a claim reached the CSV tables
    ("label with a right-to-left override",
     lambda out: config(out, games=[{"name": "citadel", "label": "cit\u202eadel"}]),
     ["games[0].label must be a str without invisible formatting characters (they reorder or hide text in the "
      "tables). Got U+202E RIGHT-TO-LEFT OVERRIDE at character 4 of 'cit\\u202eadel'."]),
    ("policy label with a left-to-right mark",
     lambda out: config(out, policies=[{"name": "random", "label": "\u200erandom"}]),
     ["policies[0].label must be a str without invisible formatting characters", "U+200E LEFT-TO-RIGHT MARK"]),
    ("claim source with an isolate", lambda out: config(out, claims=[
        {"game": "citadel", "policy": "random", "win_rate": 0.5, "source": "a \u2066paper\u2069"}]),
     ["claims[0].source must be a str without invisible formatting characters", "U+2066 LEFT-TO-RIGHT ISOLATE"]),
]


@pytest.mark.parametrize(("make", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_bad_input_exits_2_names_file_and_key_and_writes_nothing(
        make: Callable[[Path], Any], expected: list[str], earlier_results: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "exits_at_import.py").write_text("import sys\nsys.exit(3)\n")
    before = folder_state(earlier_results)
    path = write_config(tmp_path / "bad.yaml", make(earlier_results))
    status, err = run_in_process(path, capsys)
    assert status == 2, err
    assert err.startswith(f"error: {path}: ")
    for piece in expected:
        assert piece in err
    assert "Traceback" not in err
    assert folder_state(earlier_results) == before


def test_a_bad_deal_timeout_on_the_command_line(earlier_results: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    before = folder_state(earlier_results)
    path = write_config(tmp_path / "ok.yaml", config(earlier_results))
    status, err = run_in_process(path, capsys, "--deal-timeout", "-1")
    assert status == 2
    assert "error: command line: --deal-timeout must be a number of seconds > 0, or null for no limit. Got -1.0" in err
    assert folder_state(earlier_results) == before


@pytest.mark.parametrize(("encoding", "expected"), [
    ("latin-1", "must be UTF-8 text. Got byte 0xe9 on line 2, which is not UTF-8"),
    ("utf-16", "must be UTF-8 text. Got UTF-16"),
])
def test_a_file_not_in_utf8(encoding: str, expected: str, earlier_results: Path, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    before = folder_state(earlier_results)
    path = tmp_path / "bad.yaml"
    path.write_bytes(yaml_text(earlier_results).replace("\n", "\ndescription: Café\n", 1).encode(encoding))
    status, err = run_in_process(path, capsys)
    assert status == 2 and err.startswith(f"error: {path}: the config file ") and expected in err, err
    assert folder_state(earlier_results) == before


def test_yaml_merge_keys_work(tmp_path: Path) -> None:
    text = yaml_text(tmp_path / "out", policies=(
        "\n  - {name: random, params: &capped {max_moves: 300}}"
        "\n  - {name: greedy, params: {<<: *capped, max_moves: 200}}"
        "\n  - {name: heuristic, params: {<<: *capped}}"))
    config = load_config(write_config(tmp_path / "merge.yaml", text))
    assert [p.params["max_moves"] for p in config.policies] == [300, 200, 300]  # explicit keys win


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP port that accepts connections and never says a word (not a dask scheduler)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted: list[socket.socket] = []
    thread = threading.Thread(target=lambda: accepted.append(server.accept()[0]), daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    for connection in accepted:
        connection.close()
    server.close()


def test_a_scheduler_that_does_not_answer(silent_server: str, earlier_results: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(runner, "SCHEDULER_TIMEOUT", "2s")
    before = folder_state(earlier_results)
    path = write_config(tmp_path / "bad.yaml", config(earlier_results, execution={
        "backend": "dask", "scheduler": silent_server}))
    status, err = run_in_process(path, capsys)
    assert status == 2, err
    assert f"execution.scheduler must be the address of a running dask scheduler. Got '{silent_server}'" in err
    assert "no dask scheduler answered within 2s" in err
    assert folder_state(earlier_results) == before


def test_the_real_command_refuses_an_alias_bomb_quickly(tmp_path: Path) -> None:
    path = write_config(tmp_path / "bomb.yaml", yaml_text(tmp_path / "out") + BOMB)
    result = simlab("run", str(path), timeout=60)
    assert result.returncode == 2
    assert f"error: {path}: the config must expand to at most 100,000 values" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_parameter_that_changes_nothing_is_warned_once_in_one_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44: fan_empty_row for the heuristic on a game without fans, samples for the
    thoughtful solver were accepted silently. Set to another value than its default, a
    parameter that has no effect on any game of the config is warned of (the result stays
    as it was: the parameter is part of the cell); by the config and the command line alike."""
    from simlab.errors import UnusedParameterWarning

    data = config(tmp_path / "out", policies=[{"name": "heuristic", "params": {"fan_empty_row": 1.0}},
                                              {"name": "solver", "params": {"samples": 4, "budget": 1000}}])
    path = write_config(tmp_path / "x.yaml", data)
    with pytest.warns(UnusedParameterWarning) as caught:
        load_config(path)
    assert [str(w.message) for w in caught] == [
        f"{path}: policies[0].params.fan_empty_row: fan_empty_row=1.0 has no effect on game 'citadel': game "
        "'citadel' has no fans (an emptied row takes any card there), so empty_row counts instead. Remove it, "
        "or play a game it applies to.",
        f"{path}: policies[1].params.samples: samples=4 has no effect on game 'citadel': it is used only in mode "
        "'fair'. Remove it, or play a game it applies to."]
    assert cli.main(["play", "citadel", "5", "--policy", "heuristic", "--policy-param", "fan_same_suit=2"]) == 0
    assert ("warning: --policy-param fan_same_suit: fan_same_suit=2.0 has no effect on game 'citadel'"
            in capsys.readouterr().err)
    quiet = [  # a game it applies to, a default value, the fair solver where cards are hidden
        config(tmp_path / "q", games=["citadel", "fan"],
               policies=[{"name": "heuristic", "params": {"fan_empty_row": 1.0}}]),
        config(tmp_path / "q", policies=[{"name": "solver", "params": {"samples": 16}}]),
        config(tmp_path / "q", games=["windmill"],
               policies=[{"name": "solver", "params": {"mode": "fair", "samples": 2, "completion_budget": 10}}]),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnusedParameterWarning)
        for quiet_data in quiet:
            loaded = load_config(write_config(tmp_path / "q.yaml", quiet_data))
            config_from_dict(loaded.to_dict(), import_policies=False)  # a stored config read back: no warning
        config_from_dict(yaml.safe_load(path.read_text()), import_policies=False)  # the warned one, read back
