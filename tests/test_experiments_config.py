"""Experiment configs: what validates, and a table of mistakes with their messages.

Every mistake must exit with status 2, name the file and key path, say what was
expected and what was found, and leave earlier results in the folder untouched.
"""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from simlab import POLICIES, cli
from simlab.errors import ConfigError
from simlab.experiments import runner
from simlab.experiments.config import config_from_dict, load_config, with_overrides

REPO = Path(__file__).resolve().parents[1]

GOOD: dict[str, Any] = {
    "name": "tiny",
    "root_seed": 1,
    "deals": {"start": 1, "count": 6},
    "games": ["beleaguered_castle", {"name": "citadel", "params": {"deal": "hoyle"}}],
    "policies": [{"name": "random", "params": {"max_moves": 500}}, "greedy"],
    "claims": [{"game": "beleaguered_castle", "policy": "greedy", "win_rate": 0.5, "source": "app"}],
    "execution": {"n_jobs": 1, "chunk_size": 4},
}


def write(folder: Path, data: Any, name: str = "config.yaml") -> Path:
    path = folder / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False))
    return path


def changed(edit: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def apply(config: dict[str, Any]) -> dict[str, Any]:
        config = copy.deepcopy(config)
        edit(config)
        return config
    return apply


def folder_state(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_good_config_resolves_every_default() -> None:
    config = config_from_dict(GOOD, source="good.yaml")
    assert config.deals == (1, 2, 3, 4, 5, 6)
    assert [g.label for g in config.games] == ["beleaguered_castle", "citadel (deal=hoyle)"]
    assert [p.label for p in config.policies] == ["random (max_moves=500)", "greedy"]
    assert config.games[1].params == {"deal": "hoyle"}
    assert config.policies[0].params["max_moves"] == 500
    assert config.policies[1].params == {"max_moves": 2000, "play_on": False}
    assert config.output == Path("results/tiny")
    assert config.execution.backend == "loky"
    assert config.claims[0].win_rate == 0.5


def test_the_resolved_config_loads_back_to_the_same_config(tmp_path: Path) -> None:
    config = config_from_dict(GOOD)
    again = load_config(write(tmp_path, config.to_yaml()))
    assert again.to_dict() == config.to_dict()


def test_explicit_deal_list_and_labels() -> None:
    data = changed(lambda c: c.update(
        deals=[5, 3, 9],
        games=[{"name": "citadel", "label": "citadel_pysol"},
               {"name": "citadel", "label": "citadel_hoyle", "params": {"deal": "hoyle"}}],
        claims=[]))(GOOD)
    config = config_from_dict(data)
    assert config.deals == (5, 3, 9)
    assert [g.label for g in config.games] == ["citadel_pysol", "citadel_hoyle"]


def test_a_user_policy_is_named_module_colon_class() -> None:
    data = changed(lambda c: c.update(policies=[
        {"name": "experiment_helpers:FirstMove", "params": {"delay": 0.0}}], claims=[]))(GOOD)
    config = config_from_dict(data)
    assert config.policies[0].params == {"max_moves": 2000, "delay": 0.0}


def test_shipped_configs_validate() -> None:
    paths = sorted((REPO / "experiments").glob("*.yaml"))
    assert any(p.name == "default.yaml" for p in paths)
    for path in paths:
        text = path.read_text()
        if "solver" in text and "solver" not in POLICIES:
            continue  # the solver policy has not landed in this checkout yet
        load_config(path)


def _edit(path: str, value: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Set ``a.b[0].c`` to ``value`` in a copy of the good config."""
    def edit(config: dict[str, Any]) -> None:
        keys = [int(k) if k.isdigit() else k for k in path.replace("[", ".").replace("]", "").split(".")]
        target = config
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
    return changed(edit)


def _drop(key: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return changed(lambda c: c.pop(key))


# Line numbers count the `output:` line each test inserts after `name:`.
BAD_YAML = "name: tiny\nroot_seed: 1\ndeals: {start: 1, count: 6\ngames: [citadel]\n"
DUPLICATE_KEY = "name: tiny\nroot_seed: 1\ndeals: {start: 1, count: 6}\ndeals: [1]\n"

# (id, how to make the config, expected pieces of the message)
BAD_CONFIGS: list[tuple[str, Any, list[str]]] = [
    ("missing key", _drop("games"), ["the config: the required key 'games' is missing"]),
    ("unknown top key", changed(lambda c: c.update(root_sed=3)),
     ["unknown key 'root_sed'", "Did you mean 'root_seed'?"]),
    ("wrong type", _edit("root_seed", "abc"),
     ["root_seed must be an int in [0, 9223372036854775807]. Got 'abc' (a str)."]),
    ("bool for int", _edit("execution.n_jobs", True), ["execution.n_jobs must be an int >= 1, or -1",
                                                       "Got True (a bool)"]),
    ("negative count", _edit("deals.count", -5), ["deals.count must be an int >= 1. Got -5 (an int)."]),
    ("deal zero in list", _edit("deals", [1, 0]), ["deals[1] must be an int >= 1. Got 0 (an int)."]),
    ("deal listed twice", _edit("deals", [3, 3]), ["deals must list each deal once. Got [3]"]),
    ("unknown deals key", _edit("deals", {"start": 1, "cout": 5}),
     ["deals: unknown key 'cout'", "Did you mean 'count'?"]),
    ("unknown game", _edit("games[0]", "beleagured_castle"),
     ["games[0].name: Unknown game 'beleagured_castle'", "Did you mean 'beleaguered_castle'?"]),
    ("unknown policy", _edit("policies[1]", "gredy"),
     ["policies[1].name: Unknown policy 'gredy'", "Did you mean 'greedy'?"]),
    ("unknown parameter", _edit("policies[0].params", {"max_move": 9}),
     ["policies[0].params: unknown key 'max_move'", "Did you mean 'max_moves'?"]),
    ("parameter out of range", _edit("policies[0].params.max_moves", 0),
     ["policies[0].params.max_moves: The 'max_moves' parameter of policy 'random' must be an int in "
      "[1, 1000000]. Got 0."]),
    ("parameter not a choice", _edit("games[1].params.deal", "hoyel"),
     ["games[1].params.deal: The 'deal' parameter of game 'citadel' must be one of 'pysolfc', 'hoyle'",
      "Got 'hoyel'"]),
    ("params not a mapping", _edit("games[1].params", ["hoyle"]), ["games[1].params must be a mapping"]),
    ("missing user module", _edit("policies[1]", "no_such_module_xyz:Policy"),
     ["policies[1].name: Cannot import module 'no_such_module_xyz'"]),
    ("empty games", _edit("games", []), ["games must be a list of at least 1 item. Got [] (a list)."]),
    ("duplicate label", _edit("games[1]", "beleaguered_castle"),
     ["games[1]: the label 'beleaguered_castle' is already used by games[0]"]),
    ("claim above one", _edit("claims[0].win_rate", 1.5),
     ["claims[0].win_rate must be a number in [0, 1]. Got 1.5 (a float)."]),
    ("claim names a missing policy", _edit("claims[0].policy", "solver"),
     ["claims[0].policy must name a policy of this experiment. Got 'solver' (a str)."]),
    ("claim without source", changed(lambda c: c["claims"][0].pop("source")),
     ["claims[0]: the required key 'source' is missing"]),
    ("misspelled backend", _edit("execution.backend", "lokky"),
     ["execution.backend must be one of loky, threading, sequential, dask. Got 'lokky' (a str).",
      "Did you mean 'loky'?"]),
    ("zero chunk size", _edit("execution.chunk_size", 0), ["execution.chunk_size must be an int >= 1"]),
    ("name is a path", _edit("name", "../escape"), ["name must be a str of letters, digits"]),
    ("not a mapping", "- just\n- a list\n", ["the config must be a mapping. Got ['just', 'a list']"]),
    ("bad YAML syntax", BAD_YAML, ["not valid YAML (line 5, column 6): expected ',' or '}'"]),
    ("duplicate YAML key", DUPLICATE_KEY, ["not valid YAML (line 5, column 1): duplicate key 'deals'"]),
]


@pytest.fixture(scope="module")
def earlier_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output folder holding the results of a good run."""
    folder = tmp_path_factory.mktemp("earlier") / "out"
    config = config_from_dict({**GOOD, "output": str(folder)}, source="good.yaml")
    runner.run_experiment(config, progress=False)
    return folder


def _run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = cli.main(argv)
    return status, capsys.readouterr().err


@pytest.mark.parametrize(("make", "expected"), [case[1:] for case in BAD_CONFIGS],
                         ids=[case[0] for case in BAD_CONFIGS])
def test_bad_config_exits_2_with_its_message_and_writes_nothing(
        make: Any, expected: list[str], earlier_results: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    before = folder_state(earlier_results)
    if isinstance(make, str):
        path = write(tmp_path, make.replace("name: tiny\n", f"name: tiny\noutput: {earlier_results}\n"))
    else:
        path = write(tmp_path, {**make(GOOD), "output": str(earlier_results)})
    status, err = _run_cli(["run", str(path)], capsys)
    assert status == 2
    assert err.startswith(f"error: {path}: ")
    for piece in expected:
        assert piece in err
    assert folder_state(earlier_results) == before


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = _run_cli(["run", str(tmp_path / "nope.yaml")], capsys)
    assert status == 2
    assert "nope.yaml: cannot read the config file" in err


def test_unwritable_output_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    path = write(tmp_path, {**GOOD, "output": str(blocker / "out")})
    status, err = _run_cli(["run", str(path)], capsys)
    assert status == 2
    assert "output must be a folder that can be created" in err
    assert blocker.read_text() == "not a folder"


def test_unreachable_scheduler(tmp_path: Path, earlier_results: Path, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(runner, "SCHEDULER_TIMEOUT", "1s")
    before = folder_state(earlier_results)
    data = {**GOOD, "output": str(earlier_results),
            "execution": {"backend": "dask", "scheduler": "tcp://127.0.0.1:9"}}
    status, err = _run_cli(["run", str(write(tmp_path, data))], capsys)
    assert status == 2
    assert "execution.scheduler must be the address of a running dask scheduler" in err
    assert "tcp://127.0.0.1:9" in err
    assert folder_state(earlier_results) == before


@pytest.mark.parametrize(("argv", "expected"), [
    (["--n-jobs", "0"], "command line: --n-jobs must be an int >= 1, or -1 for every core. Got 0"),
    (["--backend", "dask_"], "command line: --backend must be one of"),
    (["--chunk-size", "-3"], "command line: --chunk-size must be an int >= 1. Got -3"),
])
def test_bad_command_line_overrides(argv: list[str], expected: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, {**GOOD, "output": str(tmp_path / "out")})
    status, err = _run_cli(["run", str(path), *argv], capsys)
    assert status == 2
    assert expected in err
    assert not (tmp_path / "out").exists()


def test_overrides_replace_only_what_is_given() -> None:
    config = config_from_dict(GOOD)
    changed_config = with_overrides(config, n_jobs=2, output="elsewhere")
    assert changed_config.execution.n_jobs == 2
    assert changed_config.execution.chunk_size == 4
    assert changed_config.output == Path("elsewhere")
    with pytest.raises(ConfigError, match="unknown setting 'n_job'"):
        with_overrides(config, n_job=2)


@pytest.mark.parametrize("params, reason", [({"path": "a|b"}, "'|'"), ({f"p{i}": "x" * 20 for i in range(5)}, "100")])
def test_a_default_label_a_label_cannot_be_asks_for_a_label(params: dict[str, Any], reason: str) -> None:
    data = changed(lambda c: c.update(policies=[{"name": "mymodule:MyPolicy", "params": params}], claims=[]))(GOOD)
    with pytest.raises(ConfigError, match=r"policies\[0\]: give it a 'label'") as error:
        config_from_dict(data, import_policies=False)
    assert reason in str(error.value)
    labelled = changed(lambda c: c["policies"][0].update(label="mine"))(data)
    assert config_from_dict(labelled, import_policies=False).policies[0].label == "mine"


def test_every_mistake_of_a_config_is_listed_at_once(earlier_results: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Five mistakes in five places: one run says all of them, each with the file and key
    path, exits 2 and writes nothing; a claim on a misspelt policy is not a mistake of its own."""
    bad = copy.deepcopy(GOOD)
    bad.update(output=str(earlier_results), root_sed=4)
    bad["deals"]["count"] = -5
    bad["policies"][1] = "gredy"
    bad["policies"][0]["params"]["max_moves"] = 0
    bad["claims"][0]["policy"] = "gredy"
    bad["claims"][0]["win_rate"] = 1.5
    bad["execution"].update(backend="lokky", chunk_size=0)
    before = folder_state(earlier_results)
    path = write(tmp_path, bad)
    status, err = _run_cli(["run", str(path)], capsys)
    assert status == 2 and folder_state(earlier_results) == before
    expected = ["the config: unknown key 'root_sed'", "deals.count must be an int >= 1. Got -5",
                "policies[0].params.max_moves: The 'max_moves' parameter", "policies[1].name: Unknown policy 'gredy'",
                "claims[0].win_rate must be a number in [0, 1]. Got 1.5", "execution.backend must be one of",
                "execution.chunk_size must be an int >= 1"]
    assert err.startswith(f"error: {path}: {len(expected)} mistakes:\n")
    lines = err.splitlines()[1:]
    assert len(lines) == len(expected)
    for line, piece in zip(lines, expected):
        assert line.startswith(f"  - {path}: ") and piece in line
    assert "claims[0].policy" not in err  # it may name the policy whose name is wrong


def test_overrides_report_every_mistake_too() -> None:
    config = config_from_dict(GOOD, source="good.yaml")
    with pytest.raises(ConfigError) as error:
        with_overrides(config, n_jobs=0, chunk_size=0)
    assert "2 mistakes" in str(error.value)
    assert "--n-jobs must be an int >= 1" in str(error.value) and "--chunk-size must be an int >= 1" in str(error.value)


def test_root_seed_defaults_to_0_and_is_written_out(tmp_path: Path) -> None:
    data = {key: value for key, value in GOOD.items() if key != "root_seed"}
    config = config_from_dict(data, source="no_seed.yaml")
    assert config.root_seed == 0
    assert config.to_dict()["root_seed"] == 0  # the resolved config (and the manifest) say which seed ran
    explicit = config_from_dict({**data, "root_seed": 0}, source="seed.yaml")
    assert config.to_dict() == explicit.to_dict()  # so its results are the cells of root_seed 0
    from simlab.experiments.report import build_manifest
    assert build_manifest(config, "", "", 0, [])["root_seed"] == 0


def test_the_report_option_keeps_players_only() -> None:
    config = config_from_dict({**GOOD, "report": {"comparisons": "players"}}, source="r.yaml")
    assert config.report.comparisons == "players" and config.to_dict()["report"] == {"comparisons": "players"}
    assert "report" not in config_from_dict(GOOD, source="good.yaml").to_dict()  # an old config reads the same
    with pytest.raises(ConfigError, match=r"report.comparisons must be one of all, players. Got 'player' "
                                          r"\(a str\). Did you mean 'players'\?"):
        config_from_dict({**GOOD, "report": {"comparisons": "player"}}, source="r.yaml")
