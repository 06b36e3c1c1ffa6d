"""First-call time (issue 45): one numba cache per version of the sources that every
process shares (in or out of ``make``), filled once by ``python -m simlab.precompile``
(``make setup``); a command that must compile says once what and roughly how long; a run
on a cache not yet filled says so once, before it starts."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numba
import pytest
from run_helpers import SEQUENTIAL, config

import simlab
from simlab import compiling, numba_cache

REPO = Path(__file__).resolve().parents[1]


def test_the_cache_folder_is_per_version_of_the_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user_cache"))  # the user's cache: not the real one
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
    first = subprocess.run([sys.executable, "-c", code.replace("import simlab, numba", "import numba, simlab")],
                           env=env, capture_output=True, text=True, check=True, cwd=REPO).stdout.split()
    assert first == shown  # numba imported first (a notebook) reads it too
    mine = subprocess.run([sys.executable, "-c", code], env={**env, "NUMBA_CACHE_DIR": "/tmp/mine"},
                          capture_output=True, text=True, check=True, cwd=REPO).stdout.split()
    assert mine == ["/tmp/mine"] * 2
    assert subprocess.run([sys.executable, "simlab/numba_cache.py"], env=env, capture_output=True, text=True,
                          cwd=REPO).stdout.strip() == shown[0]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_the_makefile_exports_the_folder_import_simlab_sets() -> None:
    """What ``make`` exports to every target is what ``import simlab`` computes, whichever
    Python the Makefile runs its script with (``PYTHON``: the system's, not the venv's)."""
    env = {key: value for key, value in os.environ.items() if key != numba_cache.VARIABLE}
    pythons = {sys.executable, *filter(None, [shutil.which("python3")])}
    for python in sorted(pythons):
        made = subprocess.run(["make", "-s", f"PYTHON={python}", "--eval",
                               "print-cache: ; @echo $(NUMBA_CACHE_DIR)", "print-cache"],
                              env=env, capture_output=True, text=True, cwd=REPO, check=True)
        assert made.stdout.strip() == str(numba_cache.cache_folder()), python


def test_a_cache_folder_that_cannot_be_written_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """numba, given a folder it cannot write, caches beside the sources instead (not per
    version): the first folder that can be written is chosen, still one per version."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user_cache"))
    package = tmp_path / "checkout" / "simlab"
    shutil.copytree(REPO / "simlab", package, ignore=shutil.ignore_patterns("__pycache__"))
    (package.parent / "pyproject.toml").write_text("")
    (package.parent / ".numba_cache").write_text("a file, not a folder")  # cannot be written into
    chosen = numba_cache.cache_folder(package)
    assert chosen == tmp_path / "user_cache" / "simlab" / "numba" / numba_cache.source_checksum(package)
    assert chosen == numba_cache.cache_folders(package)[1] and chosen.is_dir()
    assert chosen.name == numba_cache.source_checksum(package)


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
    assert numba_cache.compiled() and numba_cache.stamp().parent == tmp_path / "cache"
    monkeypatch.setattr(compiling.subprocess, "Popen", None)  # a second call must start nothing
    assert compiling.warm_up(say=said.append) == 0.0 and len(said) == 1


def test_a_stamp_counts_for_its_own_version_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder set in NUMBA_CACHE_DIR holds every version's kernels: after an edit to the
    sources the earlier version's stamp must not pass for this one's."""
    monkeypatch.setenv(numba_cache.VARIABLE, str(tmp_path / "cache"))
    monkeypatch.setattr(compiling, "WARM_UPS", ((["games"],),))
    assert compiling.warm_up() > 0 and numba_cache.compiled()
    monkeypatch.setattr(numba_cache, "source_checksum", lambda package=None: "0edited0")
    assert not numba_cache.compiled()


def test_a_cache_that_cannot_be_written_is_said_before_compiling(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv(numba_cache.VARIABLE, str(tmp_path / "file" / "cache"))
    monkeypatch.setattr(compiling.subprocess, "Popen", None)  # nothing may start
    with pytest.raises(RuntimeError, match="cannot be written: set NUMBA_CACHE_DIR"):
        compiling.warm_up()


def test_a_second_warm_up_waits_for_the_first_and_compiles_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two warm-ups of one cache at once (make setup beside make test): the second waits
    for the first's lock, then finds the kernels compiled and starts no process."""
    fcntl = pytest.importorskip("fcntl")
    monkeypatch.setenv(numba_cache.VARIABLE, str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    monkeypatch.setattr(compiling.subprocess, "Popen", None)
    said: list[str] = []
    with open(tmp_path / "cache" / compiling.WARM_UP_LOCK, "a") as first:  # the first warm-up, compiling
        fcntl.flock(first, fcntl.LOCK_EX)
        with ThreadPoolExecutor(1) as pool:
            second = pool.submit(compiling.warm_up, said.append)
            for _ in range(200):
                if said:
                    break
                time.sleep(0.01)
            assert said == ["simlab: another process is compiling the kernels into this cache; waiting for it..."]
            assert not second.done()
            numba_cache.stamp().write_text("compiled\n")  # the first one finishes
            fcntl.flock(first, fcntl.LOCK_UN)
            assert second.result(timeout=10) == 0.0
    assert len(said) == 1


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


def test_the_warm_up_plays_every_cell_of_the_quick_and_default_configs() -> None:
    """numba compiles a kernel again for each game layout, so ``make setup`` spares
    ``make experiment`` and the quick tour their compiling only if it plays their games with
    their policies: every cell of quick.yaml and default.yaml is among the warm-up's commands."""
    warmed = {(argv[1], "solver" if argv[0] == "solve" else argv[argv.index("--policy") + 1])
              for group in compiling.WARM_UPS for argv in group}
    for name in ("quick.yaml", "default.yaml"):
        experiment = simlab.load_config(REPO / "experiments" / name)
        cells = {(game.name, policy.name) for game in experiment.games for policy in experiment.policies}
        assert cells <= warmed, (name, sorted(cells - warmed))
