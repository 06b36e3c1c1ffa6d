"""First-call time (issue 45): one numba cache per version of the sources that every
process shares (in or out of ``make``), filled once by ``python -m simlab.precompile``
(``make setup``); a command that must compile says once what and roughly how long; a run
on a cache not yet filled says so once, before it starts."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numba
import pytest
from robust_helpers import SEQUENTIAL, config

import simlab
from simlab import compiling, numba_cache

REPO = Path(__file__).resolve().parents[1]


def test_the_cache_folder_is_per_version_of_the_sources(tmp_path: Path) -> None:
    package = tmp_path / "checkout" / "simlab"
    shutil.copytree(REPO / "simlab", package, ignore=shutil.ignore_patterns("__pycache__"))
    (package.parent / "pyproject.toml").write_text("")
    first = numba_cache.cache_folder(package)
    assert first.parent == package.parent / ".numba_cache"
    assert numba_cache.cache_folder(package) == first  # the same sources, the same folder
    with open(package / "engine" / "moves.py", "a") as file:  # an edit to any module
        file.write("\n# edited\n")
    assert numba_cache.cache_folder(package) != first
    (package.parent / "pyproject.toml").unlink()  # an installed package: the user's cache
    assert "simlab/numba" in numba_cache.cache_folder(package).as_posix()


def test_import_simlab_sets_numbas_cache_unless_it_is_set() -> None:
    env = {key: value for key, value in os.environ.items() if key != numba_cache.VARIABLE}
    code = "import simlab, numba, os; print(numba.config.CACHE_DIR); print(os.environ['NUMBA_CACHE_DIR'])"
    shown = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           check=True, cwd=REPO).stdout.split()
    assert shown == [str(numba_cache.cache_folder())] * 2  # numba reads it: every process shares it
    mine = subprocess.run([sys.executable, "-c", code], env={**env, "NUMBA_CACHE_DIR": "/tmp/mine"},
                          capture_output=True, text=True, check=True, cwd=REPO).stdout.split()
    assert mine == ["/tmp/mine"] * 2
    made = subprocess.run(["make", "-s", "-n", "compiled"], env=env, capture_output=True, text=True, cwd=REPO)
    assert made.returncode == 0  # the Makefile names the same folder (it runs simlab/numba_cache.py)
    assert subprocess.run([sys.executable, "simlab/numba_cache.py"], env=env, capture_output=True, text=True,
                          cwd=REPO).stdout.strip() == shown[0]


def test_a_process_says_once_what_compiles() -> None:
    said: list[str] = []

    @numba.njit(cache=False)
    def one(x: int) -> int:
        return x + 1

    @numba.njit(cache=False)
    def two(x: int) -> int:
        return one(x) * 2

    with compiling.compile_clock(announce=said.append) as clock:
        assert two(3) == 8 and one(1.5) == 2.5  # the second: another type, compiled again
    assert said == [__name__] and clock.compilations == 2  # two compilations, said once
    assert compiling.what_compiles("simlab.solver.search") == "the solver (about 90 s of CPU)"
    assert compiling.what_compiles("simlab.policies.greedy").startswith("a player policy")
    assert compiling.what_compiles("somewhere.else") == "its kernels"


def test_the_warm_up_compiles_once_and_then_does_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(numba_cache.VARIABLE, str(tmp_path / "cache"))
    monkeypatch.setattr(compiling, "WARM_UPS", ((["games"],), (["policies"],)))  # cheap commands
    said: list[str] = []
    assert compiling.warm_up(say=said.append) > 0
    assert len(said) == 1 and "once" in said[0]
    assert numba_cache.compiled() and (tmp_path / "cache" / numba_cache.STAMP).is_file()
    monkeypatch.setattr(compiling.subprocess, "Popen", None)  # a second call must start nothing
    assert compiling.warm_up(say=said.append) == 0.0 and len(said) == 1


def test_a_failing_warm_up_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(numba_cache.VARIABLE, str(tmp_path / "cache"))
    monkeypatch.setattr(compiling, "WARM_UPS", ((["solve", "no_such_game", "1"],),))
    with pytest.raises(RuntimeError, match="no_such_game"):
        compiling.warm_up()
    assert not numba_cache.compiled()


@pytest.mark.parametrize("compiled", [False, True])
def test_a_run_says_once_when_its_workers_must_compile_first(
        compiled: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(numba_cache, "compiled", lambda: compiled)
    simlab.run(config(tmp_path / "out", execution=SEQUENTIAL), progress=None)
    err = capsys.readouterr().err
    assert err.count("kernels are not compiled yet") == (0 if compiled else 1)
    assert max(len(line) for line in err.splitlines()) <= 100
