"""Refuse what makes no sense, before anything runs: each bad input exits with
status 2 and one message in the house grammar (naming the file or option, the key and
what was expected) before anything is played or written, and the command line checks as
the config does, with the same words."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml
from experiment_helpers import tables_without_timing
from numba import njit
from run_helpers import SEQUENTIAL, config, folder_state, run_here, simlab, write_config

import simlab.policies.solver_policy as solver_policy
from simlab import cli
from simlab import run as run_api
from simlab.errors import ConfigError, ParameterError
from simlab.experiments.config import MAX_CONFIG_DEPTH, config_from_dict, load_config, with_overrides
from simlab.experiments.folders import MARKER, RESULTS_ROOT_ENV
from simlab.experiments.history import config_changes
from simlab.experiments.worker import error_row
from simlab.games import GAMES, make_game
from simlab.params import INT64_MAX, Param, resolve_params
from simlab.policies import POLICIES, make_policy
from simlab.policies.catalog import UnplayableError, refuse_unplayable


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """``simlab argv...`` in this process (argument checks only: nothing is played)."""
    status = cli.main(list(argv))
    return status, capsys.readouterr().err


# ----- a policy that cannot play a game: one hook, asked by the config and the command line -----
def test_every_policy_can_play_every_game_but_round_max_windmill() -> None:
    """The table of what cannot be played (default parameters): only round_max on Windmill,
    in every rule set (it never turns the stock)."""
    refused = set()
    for game_name in GAMES.names():
        variants = [{}] + ([{"redeals": 2}, {"welford": True}] if game_name == "windmill" else [])
        for params in variants:
            game = make_game(game_name, **params)
            for policy_name in POLICIES.names():
                for policy_params in ({}, {"mode": "fair"}) if policy_name == "solver" else ({},):
                    if make_policy(policy_name, **policy_params).cannot_play(game):
                        refused.add((policy_name, game_name))
    assert refused == {("round_max", "windmill")}


def test_a_config_with_round_max_on_windmill_is_refused(tmp_path: Path) -> None:
    data = config(tmp_path / "out", games=["citadel", "windmill"], policies=["random", "round_max"])
    with pytest.raises(ConfigError) as caught:
        config_from_dict(data, source="x.yaml")
    assert str(caught.value).startswith("x.yaml: policies[1] and games[1]: policy 'round_max' cannot play "
                                        "game 'windmill': round_max never turns a face-down stock")
    assert str(caught.value).endswith("Remove one of them from this config.")


def test_the_fair_solver_on_a_game_it_refuses_at_play_time(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    """No registered game both hides cards and shuffles at a redeal; pretend Windmill did
    (``plays_by_sampling`` false): the hook refuses what ``play`` would raise on every deal."""
    monkeypatch.setattr(solver_policy, "plays_by_sampling", lambda game: False)
    windmill = make_game("windmill")
    assert make_policy("solver", mode="thoughtful").cannot_play(windmill) is None
    with pytest.raises(UnplayableError, match="policy 'solver' cannot play game 'windmill': mode 'fair' cannot"):
        refuse_unplayable(make_policy("solver", mode="fair"), windmill)
    data = config(tmp_path / "out", games=["windmill"],
                  policies=[{"name": "solver", "label": "fair", "params": {"mode": "fair"}}])
    with pytest.raises(ConfigError, match="x.yaml: policies.0. and games.0.: policy 'fair' cannot play game"):
        config_from_dict(data, source="x.yaml")


def test_play_refuses_round_max_on_windmill() -> None:
    played = simlab("play", "windmill", "1", "--policy", "round_max")
    assert played.returncode == 2 and played.stdout == ""
    assert played.stderr.startswith("simlab play: error: policy 'round_max' cannot play game 'windmill': ")


def test_run_refuses_round_max_on_windmill(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out"
    path = write_config(tmp_path / "x.yaml", config(output, games=["windmill"], policies=["round_max"]))
    status, _, err = run_here(path, capsys)
    assert status == 2 and not output.exists()
    assert "x.yaml: policies[0] and games[0]: policy 'round_max' cannot play game 'windmill'" in err


# ----- integers compiled code cannot take ---------------------------------------------------------
def test_int_parameters_are_bounded_by_int64() -> None:
    budget = Param(int, 1, "positions", low=1)
    assert resolve_params("policy 'p'", {"b": budget}, {"b": INT64_MAX}) == {"b": INT64_MAX}
    for value in (2**63, 2**64, "18446744073709551616"):
        with pytest.raises(ParameterError, match=r"must be an int in \[1, 9223372036854775807\]"):
            resolve_params("policy 'p'", {"b": budget}, {"b": value})
    with pytest.raises(ParameterError, match="must be a float"):  # float(10**400) overflows
        resolve_params("policy 'p'", {"w": Param(float, 1.0, "weight")}, {"w": 10**400})


def test_a_config_with_an_int_too_large_for_compiled_code(tmp_path: Path) -> None:
    data = config(tmp_path / "out", policies=[{"name": "round_max", "params": {"round_budget": 2**64}}])
    with pytest.raises(ConfigError, match=r"policies\[0\]\.params\.round_budget: The 'round_budget' parameter "
                                          r"of policy 'round_max' must be an int in \[1, 9223372036854775807\]"):
        config_from_dict(data, source="x.yaml")


@njit(cache=False)
def _takes_an_int(value):
    return value + 1


def test_a_repeated_failure_says_its_cause_once() -> None:
    """Numba raises the same cached TypingError object again, appending its hint each time:
    the error rows of deals 1..3 held 1, 2, 3 copies; now one each."""
    messages = []
    for deal in (1, 2, 3):
        try:
            _takes_an_int(2**64)
        except Exception as error:  # noqa: BLE001
            messages.append(error_row("cell", deal, error, 0.0)["error"])
    assert len(messages) == 3 and len(set(messages)) == 1
    assert messages[0].count("This error may have been caused") == 1


# ----- YAML and the output folder: status 2, never a traceback ------------------------------------
def test_yaml_nested_deeper_than_allowed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """2 KB nested 1,000 deep was a RecursionError (status 70); 60 deep is refused by the
    depth check itself, naming the line."""
    text = (f"name: x\nroot_seed: 0\ndeals: [1]\ngames: [citadel]\npolicies: [random]\n"
            f"output: {tmp_path / 'out'}\ndescription: " + "[" * 1000 + "]" * 1000 + "\n")
    with pytest.raises(ConfigError, match=f"deep.yaml: the config must nest lists and mappings at most "
                                          f"{MAX_CONFIG_DEPTH} levels deep"):
        load_config(write_config(tmp_path / "deep.yaml", text))
    shallow = text.replace("[" * 1000 + "]" * 1000, "[" * 60 + "]" * 60)
    status, _, err = run_here(write_config(tmp_path / "deep60.yaml", shallow), capsys)
    assert status == 2 and "at most 50 levels deep. Got a deeper one (line 7)" in err
    assert not (tmp_path / "out").exists()


def test_a_list_as_a_mapping_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "name: x\nroot_seed: 0\ndeals: [1]\ngames: [citadel]\npolicies: [random]\n? [a, b]\n: 1\n"
    status, _, err = run_here(write_config(tmp_path / "key.yaml", text), capsys)
    assert status == 2
    assert "key.yaml: not valid YAML (line 6, column 3): a key must be a name, not a list." in err


def test_an_output_folder_that_cannot_be_created(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_config(tmp_path / "x.yaml", config(Path("/proc/simlab_refuse_test"), execution=SEQUENTIAL))
    status, _, err = run_here(path, capsys, "--allow-outside-results")  # past the results-root check
    assert status == 2
    assert "x.yaml: output must be a folder that can be created and written. Got '/proc/simlab_refuse_test'" in err


# ----- output folders simlab did not make (issue 44) ------------------------------------------------
def test_a_folder_of_the_users_own_is_refused_and_left_as_it_was(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder holding a user's report.md and summary.csv: status 2, the file, the key and
    what was expected named, not one byte of it changed (they were overwritten, status 0)."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "report.md").write_text("# my own notes\n")
    (mine / "summary.csv").write_text("my,own\n1,2\n")
    before = folder_state(mine)
    path = write_config(tmp_path / "x.yaml", config(mine, execution=SEQUENTIAL))
    status, _, err = run_here(path, capsys)
    assert status == 2
    assert (f"x.yaml: output must be a new or empty folder, or one simlab made (it holds .simlab-results "
            f"or results.sqlite). Got '{mine}', which holds 2 entries of its own (report.md, summary.csv) "
            "and no sign of simlab. A run would overwrite its report.md and summary.csv. Nothing was "
            "written.") in err
    assert folder_state(mine) == before and sorted(p.name for p in mine.iterdir()) == ["report.md", "summary.csv"]


def test_simlabs_own_folders_resume_new_and_old(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder simlab made resumes: with its marker, with only its database (a simlab that
    wrote no marker), with only an earlier report (its database moved away, as the message
    on a damaged one advises), with only a stopped run's lock; an empty folder is taken."""
    out = tmp_path / "out"
    path = write_config(tmp_path / "x.yaml", config(out, execution=SEQUENTIAL))
    assert run_here(path, capsys)[0] == 0
    assert (out / MARKER).is_file()
    summary = tables_without_timing(out)["summary"]
    assert run_here(path, capsys)[0] == 0  # resumed: nothing to play
    (out / MARKER).unlink()
    assert run_here(path, capsys)[0] == 0 and (out / MARKER).is_file()  # an older simlab's folder
    (out / MARKER).unlink()
    (out / "results.sqlite").rename(tmp_path / "moved.sqlite")
    assert run_here(path, capsys)[0] == 0
    pd.testing.assert_frame_equal(tables_without_timing(out)["summary"], summary)
    for leftover in ("empty", "locked"):
        folder = tmp_path / leftover
        folder.mkdir()
        if leftover == "locked":
            (folder / "simlab.lock").write_text("pid 1 started 2026-01-01T00:00:00+00:00\n")
        other = write_config(tmp_path / f"{leftover}.yaml", config(folder, execution=SEQUENTIAL))
        assert run_here(other, capsys)[0] == 0
        pd.testing.assert_frame_equal(tables_without_timing(folder)["summary"], summary)


def test_a_folder_outside_the_results_root_needs_the_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """results/ of the directory simlab runs from is the results root (SIMLAB_RESULTS_ROOT
    moves it): a folder outside it, also through a symbolic link, is refused with status 2
    before anything is made, unless --allow-outside-results says so."""
    monkeypatch.delenv(RESULTS_ROOT_ENV)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    inside = write_config(tmp_path / "inside.yaml", config(Path("results/robust"), execution=SEQUENTIAL))
    assert run_here(inside, capsys)[0] == 0 and (work / "results/robust/report.md").is_file()
    elsewhere = tmp_path / "elsewhere"
    (work / "results" / "link").symlink_to(elsewhere, target_is_directory=True)
    for output in (elsewhere / "x", Path("results/link/x"), Path("../x")):
        path = write_config(tmp_path / "out.yaml", config(output, execution=SEQUENTIAL))
        status, _, err = run_here(path, capsys)
        assert status == 2
        assert (f"out.yaml: output must be a folder inside the results folder '{work / 'results'}' "
                f"(results/ of the directory you run from, or the folder SIMLAB_RESULTS_ROOT names). Got "
                f"'{output}', which is outside it. To write there anyway, run again with "
                "--allow-outside-results.") in err
        assert not elsewhere.exists() and not (tmp_path / "x").exists()
    status, _, _ = run_here(path, capsys, "--allow-outside-results")
    assert status == 0 and (tmp_path / "x" / "report.md").is_file()
    # the root itself holds the experiments' folders: no run writes its files among them
    status, _, err = run_here(write_config(tmp_path / "root.yaml", config(Path("results"), execution=SEQUENTIAL)),
                              capsys)
    assert status == 2 and "Got 'results', which is that folder itself." in err
    assert sorted(p.name for p in (work / "results").iterdir()) == ["link", "robust"]
    monkeypatch.setenv(RESULTS_ROOT_ENV, str(tmp_path))
    assert run_here(write_config(tmp_path / "env.yaml", config(elsewhere / "y", execution=SEQUENTIAL)),
                    capsys)[0] == 0


# ----- the command line checks as the config does --------------------------------------------------
INT64 = "an int in [1, 9223372036854775807]"


@pytest.mark.parametrize(("argv", "expected"), [
    (["solve", "citadel", "5", "--budget", "0"], f"argument --budget: must be {INT64}. Got '0'."),
    (["solve", "citadel", "5", "--budget", "-1"], f"argument --budget: must be {INT64}."),
    (["solve", "citadel", "5", "--budget", str(10**20)], f"argument --budget: must be {INT64}."),
    (["solve", "citadel", "5", "--table-bits", "0"], "argument --table-bits: must be an int in [10, 30]. Got '0'."),
    (["solve", "citadel", "5", "--table-bits", "-1"], "argument --table-bits: must be an int in [10, 30]."),
    (["solve", "citadel", "5", "--table-bits", "64"], "argument --table-bits: must be an int in [10, 30]."),
    (["solve", "citadel", "5", "--table-bits", "34"], "argument --table-bits: must be an int in [10, 30]. Got '34'."),
    (["solve", "citadel", "0"], "argument N: must be an int in [1, 9223372036854775807]. Got '0'."),
    (["solve", "citadel", "-5"], "argument N: must be an int in [1, 9223372036854775807]. Got '-5'."),
    (["solve", "citadel", str(2**63)], "argument N: must be an int in [1, 9223372036854775807]."),
    (["deal", "citadel", str(2**63)], "argument N: must be an int in [1, 9223372036854775807]."),
    (["play", "citadel", "1", "--policy", "random", "--seed", "-1"],
     "argument --seed: must be an int in [0, 9223372036854775807]. Got '-1'."),
])
def test_bad_numbers_on_the_command_line(argv: list[str], expected: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    status, err = run_cli(capsys, *argv)
    assert status == 2 and expected in err


def test_the_config_and_the_command_line_use_the_same_words(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match=r"x.yaml: root_seed must be an int in \[0, 9223372036854775807\]. "
                                          r"Got -1 \(an int\)."):
        config_from_dict(config(tmp_path, root_seed=-1), source="x.yaml")
    with pytest.raises(ConfigError, match=r"policies\[0\]\.params\.table_bits: The 'table_bits' parameter of "
                                          r"policy 'solver' must be an int in \[10, 30\]. Got 34."):
        config_from_dict(config(tmp_path, policies=[{"name": "solver", "params": {"table_bits": 34}}]))
    status, err = run_cli(capsys, "play", "citadel", "1", "--policy", "solver", "--policy-param", "table_bits=34")
    assert status == 2 and "The 'table_bits' parameter of policy 'solver' must be an int in [10, 30]. Got '34'." in err


def test_a_policy_module_that_exits_or_raises_at_import(tmp_path: Path) -> None:
    (tmp_path / "importexit.py").write_text("import sys\nsys.exit(0)\n")
    (tmp_path / "importraise.py").write_text("raise RuntimeError('broken at import')\n")
    exited = simlab("play", "citadel", "1", "--policy", "importexit:X", cwd=tmp_path)
    assert exited.returncode == 2 and exited.stdout == ""
    assert exited.stderr.startswith("simlab play: error: importing policy 'importexit:X' failed: the module "
                                    "called sys.exit(0) while being imported.")
    raised = simlab("play", "citadel", "1", "--policy", "importraise:X", cwd=tmp_path)
    assert raised.returncode == 2 and "Traceback" not in raised.stderr
    assert raised.stderr.strip() == ("simlab play: error: importing policy 'importraise:X' failed: "
                                     "RuntimeError: broken at import")


def test_a_misspelt_class_of_a_policy_module(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = run_cli(capsys, "play", "citadel", "1", "--policy", "simlab.policies.greedy:GreedyPolicyy")
    assert status == 2 and "has no such class 'GreedyPolicyy'. Did you mean 'GreedyPolicy'?" in err


def test_run_overrides_are_checked_as_config_keys(tmp_path: Path) -> None:
    base = config_from_dict(config(tmp_path / "out"), source="x.yaml")
    with pytest.raises(ConfigError, match="command line: --output must be a folder path without control"):
        with_overrides(base, output=f"{tmp_path}/a\nb")
    assert with_overrides(base, deal_timeout="none").execution.deal_timeout is None
    assert with_overrides(base, deal_timeout="12").execution.deal_timeout == 12.0
    with pytest.raises(ConfigError, match="command line: --deal-timeout must be a number of seconds > 0, or "
                                          "null for no limit. Got 'soon' .a str.."):
        with_overrides(base, deal_timeout="soon")


def test_a_label_with_a_newline(tmp_path: Path) -> None:
    data = config(tmp_path / "out", policies=[{"name": "random", "label": "ran\ndom"}])
    with pytest.raises(ConfigError, match=r"policies\[0\]\.label must be a str without control characters or "
                                          r"'\|'.*Got 'ran\\ndom' \(a str\)."):
        config_from_dict(data, source="x.yaml")
    data["policies"] = [{"name": "random", "label": "a|b"}]
    with pytest.raises(ConfigError, match="policies.0..label must be a str without control characters"):
        config_from_dict(data, source="x.yaml")


def test_run_with_deal_timeout_none_from_the_command_line(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out"
    path = write_config(tmp_path / "x.yaml", config(output, deals=[1], execution=SEQUENTIAL))
    status, _, err = run_here(path, capsys, "--deal-timeout", "none")
    assert status == 0, err
    assert yaml.safe_load((output / "config.resolved.yaml").read_text())["execution"]["deal_timeout"] is None


# ----- smaller: what a rerun says changed; where a setting came from -------------------------------
def test_a_longer_games_list_shows_the_game_added() -> None:
    old = {"games": [{"label": "citadel", "name": "citadel", "params": {"deal": "pysolfc"}},
                     {"label": "citadel_hoyle", "name": "citadel", "params": {"deal": "hoyle"}}]}
    new = {"games": old["games"] + [{"label": "fortress", "name": "fortress", "params": {}}]}
    assert config_changes(old, new) == ['games[2]: added ({"label": "fortress", "name": "fortress", "params": {}})']
    assert config_changes(new, old) == ['games[2]: removed (was {"label": "fortress", "name": "fortress", '
                                        '"params": {}})']
    long_old, long_new = {"description": "x" * 80 + "one"}, {"description": "x" * 80 + "two"}
    line = config_changes(long_old, long_new)[0]
    assert "one" in line and "two" in line


def test_a_scheduler_set_in_the_yaml_is_named_as_the_yaml_key(tmp_path: Path) -> None:
    data = config(tmp_path / "out", execution={"backend": "dask", "scheduler": "tcp://127.0.0.1:8786"})
    base = config_from_dict(data, source="x.yaml")
    with pytest.raises(ConfigError) as caught:
        with_overrides(base, backend="loky")
    assert str(caught.value).startswith("command line: execution.scheduler (set in x.yaml) is used only by the "
                                        "dask backend. Got a scheduler with backend 'loky'")


def test_the_python_api_takes_the_flag_for_a_folder_outside_the_results_root(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """simlab.run refuses a folder outside the results root as the command does, and
    allow_outside_results=True lets it write there, as --allow-outside-results does."""
    monkeypatch.setenv(RESULTS_ROOT_ENV, str(tmp_path / "results"))
    outside = tmp_path / "elsewhere"
    data = config(outside, execution=SEQUENTIAL)
    with pytest.raises(ConfigError, match=f"Got '{outside}', which is outside it. To write there anyway, run "
                                          "again with --allow-outside-results"):
        run_api(data, progress=False)
    assert not outside.exists()
    assert len(run_api(data, progress=False, allow_outside_results=True)) == 6
    assert (outside / "report.md").is_file()


ASKING_POLICY = """
from simlab import Policy


class Unsure(Policy):
    \"\"\"The first legal move; but asked about itself, it raises.\"\"\"

    def choose(self, game, observation, moves, rng):
        return moves[0]

    def unused_parameters(self, game):
        raise RuntimeError("UNUSED")

    def proves_losses(self, game):
        raise RuntimeError("PROVES")
"""


def test_a_user_policy_that_raises_when_asked_about_itself_is_a_config_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user's unused_parameters or proves_losses that raises: status 2 naming the key and
    the question (it was a traceback, status 70, 'a bug in simlab')."""
    (tmp_path / "asking_policy.py").write_text(ASKING_POLICY)
    monkeypatch.syspath_prepend(str(tmp_path))
    unsure = {"name": "asking_policy:Unsure", "label": "unsure"}
    with pytest.raises(ConfigError) as error:
        config_from_dict(config(tmp_path / "out", policies=[unsure]), source="x.yaml")
    assert str(error.value) == ("x.yaml: policies[0]: asking policy 'unsure' which of its parameters it uses "
                                "failed: RuntimeError: UNUSED")
    monkeypatch.setattr("asking_policy.Unsure.unused_parameters", lambda self, game: {})
    with pytest.raises(ConfigError) as error:
        config_from_dict(config(tmp_path / "out", policies=["random", unsure],
                                ladder={"rungs": ["random"], "perfect": "unsure"}), source="x.yaml")
    assert str(error.value) == ("x.yaml: ladder.perfect: asking policy 'unsure' whether it proves its losses on "
                                "game 'citadel' failed: RuntimeError: PROVES")
