"""Bounded by default: a worker that outgrows ``execution.worker_memory`` costs only
its deal (an error row ``memory``), a leak never fails a later deal, ``deal_timeout`` below
what the pool can keep is refused, and a user policy's cell key covers the modules of the
user's it imports (a built-in's key never changes)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pandas as pd
import pytest
from run_helpers import SEQUENTIAL, config, folder_state, run_here, simlab, stored_rows, write_config

from simlab.experiments.cells import cells_of
from simlab.experiments.config import config_from_dict
from simlab.experiments.pool import AUTO_FLOOR_MIB, MIB, memory_cap
from simlab.experiments.sources import source_digest, user_dependencies

LEAKY = '''\
"""A user policy that leaks: on a ``rate`` share of deals (the deal's generator decides) it keeps
memory for ever, ``keep`` MiB, or with ``keep`` 0 without end (a runaway)."""

from simlab import Policy
from simlab.params import Param

KEPT = []  # never emptied: what a leaking deal keeps stays in its worker


class Leaky(Policy):
    """The first legal move; a leaking deal first keeps its memory."""

    parameters = {"rate": Param(float, 0.5, "share of leaking deals", low=0.0, high=1.0),
                  "keep": Param(int, 0, "MiB a leaking deal keeps; 0: without end", low=0)}

    def play(self, game, state, rng):
        self.leaking = rng.random() < self.params["rate"]
        return super().play(game, state, rng)

    def choose(self, game, observation, moves, rng):
        kept = 0
        while self.leaking and (self.params["keep"] == 0 or kept < self.params["keep"]):
            KEPT.append(bytearray(b"\\x01") * (16 << 20))  # touched, so resident
            kept += 16
            if kept > 8192:  # the test's safety net: never hold more than 8 GiB
                break
        self.leaking = False
        return moves[0]
'''
CAP_MIB = 640  # a loaded worker holds 200-300 MiB of it
LEAKING = {2, 3}  # with rate 0.5 and root seed 3, deals 2 and 3 of deals 1-4 leak (one after the other)


def deals_of(output: Path) -> pd.DataFrame:
    return pd.read_csv(output / "deals.csv", keep_default_na=False)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX worker processes")
def test_an_overgrown_deal_is_a_memory_row_and_a_leak_never_fails_a_later_deal(tmp_path: Path) -> None:
    (tmp_path / "leaky.py").write_text(LEAKY)
    output = tmp_path / "out"
    data = config(output, deals={"start": 1, "count": 4}, policies=[
        {"name": "leaky:Leaky", "label": "runaway"},
        # 300 MiB per leaking deal: one fits under the cap, two in one worker would not.
        {"name": "leaky:Leaky", "label": "keeps", "params": {"keep": 300}}],
        execution={"n_jobs": 1, "chunk_size": 4, "worker_memory": CAP_MIB})
    path = write_config(tmp_path / "leak.yaml", data)
    result = simlab("run", str(path), "--no-progress", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "Traceback (most recent call last)" not in result.stderr
    frame = deals_of(output)
    runaway, keeps = frame[frame["policy"] == "runaway"], frame[frame["policy"] == "keeps"]
    failed = runaway[runaway["verdict"] == "error"]
    assert set(failed["deal"]) == LEAKING
    assert failed["end_reason"].eq("memory").all()
    assert failed["error"].str.contains(f"grew past execution.worker_memory ({CAP_MIB} MiB", regex=False).all()
    # the deals after a runaway one, in the same chunk, play as ever: each in a fresh worker
    assert runaway[~runaway["deal"].isin(LEAKING)]["verdict"].isin(["won", "lost"]).all()
    # what a leaking deal kept never fails a later one: the worker retires between deals
    assert keeps["verdict"].isin(["won", "lost"]).all(), keeps[["deal", "verdict", "error"]]
    assert (keeps.set_index("deal")["moves"] == runaway.set_index("deal")["moves"]).loc[[1, 4]].all()
    assert "runaway / deal 2: memory: Memory: the worker grew past" in result.stderr
    # a rerun retries the failed deals only, as it does a timeout's or a dead worker's
    before = len(stored_rows(output))
    again = simlab("run", str(path), "--no-progress", cwd=tmp_path)
    assert again.returncode == 1, again.stderr
    assert "Played 2 deal(s)" in again.stdout
    assert len(stored_rows(output)) == before


@pytest.mark.parametrize(("execution", "message"), [
    ({"deal_timeout": 0.0001}, "execution.deal_timeout must be at least 1 s, or null for no limit (a running "
                               "deal is looked at 4 to 10 times a second"),
    ({"deal_timeout": 0.5}, "Got 0.5 (a float)."),
    ({"worker_memory": 100}, "execution.worker_memory must be a memory size of at least 512 MiB (a number "
                             "of MiB, or a str such as '2 GB'), 'auto' (a share of this machine's memory) or "
                             "null for no limit. Got 100 (an int)."),
    ({"worker_memory": "lots"}, "Got 'lots' (a str)."),
    ({"worker_memory": True}, "Got True (a bool)."),
    ({"worker_memory": "0.25 GB"}, "Got '0.25 GB' (a str)."),
])
def test_bounds_the_pool_cannot_keep_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 execution: dict, message: str) -> None:
    output = tmp_path / "out"
    path = write_config(tmp_path / "bad.yaml", config(output, execution={**SEQUENTIAL, **execution}))
    status, _, err = run_here(path, capsys)
    assert status == 2
    assert err.startswith(f"error: {path}: execution.") and message in err
    assert not output.exists()


def test_worker_memory_values_and_the_automatic_cap() -> None:
    def memory(value: object) -> object:
        return config_from_dict(config(Path("out"), execution={"worker_memory": value})).execution.worker_memory

    assert config_from_dict(config(Path("out"))).execution.worker_memory == "auto"
    assert [memory(v) for v in (600, "2 GB", "1536MiB", None)] == [600.0, 2048.0, 1536.0, None]
    assert config_from_dict(config(Path("out"), execution={"deal_timeout": 1})).execution.deal_timeout == 1.0
    assert memory_cap(None, 2) is None and memory_cap(600.0, 2) == 600 * MIB
    one, eight = memory_cap("auto", 1), memory_cap("auto", 8)
    assert one >= eight >= min(one, AUTO_FLOOR_MIB * MIB)  # more workers, a smaller share each


HELPER = "def pick(moves):\n    return moves[0]  # VERSION\n"
WITH_HELPER = '''\
from helper_moves import pick

from simlab import Policy


class WithHelper(Policy):
    """Whatever the user's helper module picks."""

    def choose(self, game, observation, moves, rng):
        return pick(moves)
'''


def test_editing_a_helper_module_of_a_user_policy_replays_its_deals(tmp_path: Path) -> None:
    (tmp_path / "helper_moves.py").write_text(HELPER)
    (tmp_path / "with_helper.py").write_text(WITH_HELPER)
    output = tmp_path / "out"
    path = write_config(tmp_path / "mine.yaml", config(
        output, deals={"start": 1, "count": 4}, execution=SEQUENTIAL,
        policies=["random", {"name": "with_helper:WithHelper", "label": "mine"}]))
    assert simlab("run", str(path), "--no-progress", cwd=tmp_path).returncode == 0
    (tmp_path / "helper_moves.py").write_text(HELPER.replace("moves[0]  # VERSION", "moves[-1]  # VERSION 2"))
    result = simlab("run", str(path), "--no-progress", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Played 4 deal(s)" in result.stdout
    assert "plays citadel / mine from the start: its module's source changed" in result.stderr
    assert "keeps citadel / random: 4 deal(s) stored" in result.stderr
    unchanged = simlab("run", str(path), "--no-progress", cwd=tmp_path)
    assert unchanged.returncode == 0 and "Played 0 deal(s)" in unchanged.stdout, unchanged.stderr


def test_the_code_hash_follows_the_users_imports_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "mypkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "policy.py").write_text("import numpy\nfrom . import tools\n\ndef f():\n    import lonely\n")
    (package / "tools.py").write_text("from .deep import x\nimport json\n")
    (package / "deep.py").write_text("x = 1\n")
    (tmp_path / "lonely.py").write_text("y = 2\n")
    (tmp_path / "alone.py").write_text("import os\nimport simlab\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = user_dependencies("mypkg.policy")
    assert set(found) == {"mypkg", "mypkg.policy", "mypkg.tools", "mypkg.deep", "lonely"}
    before = source_digest("mypkg.policy")
    (package / "deep.py").write_text("x = 2\n")
    assert source_digest("mypkg.policy") != before
    # a module that imports none of the user's hashes as its own bytes: the key it always had
    assert source_digest("alone") == hashlib.sha256((tmp_path / "alone.py").read_bytes()).hexdigest()[:16]
    assert folder_state(tmp_path)  # nothing above imported or wrote anything
    assert "mypkg" not in sys.modules and "lonely" not in sys.modules


# Cell keys of built-in policies, as every earlier simlab 0.1.0 stored them: existing results must
# keep their keys (a new simlab version changes them on purpose; then update these).
PINNED_KEYS = {
    ("citadel", "random"): "8109137ebb06a68475ea7927",
    ("citadel", "solver"): "482d523d2f8be8d1bea2f466",
    ("citadel", "greedy (play_on=True)"): "2ab70afbc373e668b1aff5f5",
    ("la_belle_lucie", "solver"): "4bd39ed574939c8f97806528",
}


def test_built_in_cell_keys_do_not_change() -> None:
    data = {"name": "k", "root_seed": 0, "deals": [1], "games": ["citadel", "la_belle_lucie"],
            "policies": ["random", "solver", {"name": "greedy", "params": {"play_on": True}}]}
    keys = {(c.game.label, c.policy.label): c.key for c in cells_of(config_from_dict(data))}
    assert {k: keys[k] for k in PINNED_KEYS} == PINNED_KEYS


def test_the_command_line_sets_worker_memory_as_the_config_does() -> None:
    from simlab.errors import ConfigError
    from simlab.experiments.config import with_overrides

    base = config_from_dict(config(Path("out")))

    def given(text: str) -> object:
        return with_overrides(base, worker_memory=text).execution.worker_memory

    assert [given(t) for t in ("none", "2 GB", "1536", "auto")] == [None, 2048.0, 1536.0, "auto"]
    with pytest.raises(ConfigError, match=r"--worker-memory must be a memory size of at least 512 MiB"):
        given("100")
