"""Which folders a run may write into: never a folder of the user's own.

``simlab run`` writes about fifteen files into its output folder (``report.md``,
``summary.csv``, ...), each replacing a file of that name. So it writes only into

- a folder simlab made: it holds the marker ``MARKER`` (written by every run), the
  results database (a folder of a simlab that wrote no marker; ``health.check_database``
  then refuses a database that is not simlab's, as before), or the manifest of an
  earlier simlab's report; or one holding only files a stopped run leaves (the lock,
  a half-made database); or an empty or new folder;
- inside the results root: ``results/`` of the directory simlab runs from, or the
  folder ``SIMLAB_RESULTS_ROOT`` names; a folder elsewhere only when the user says so
  (``--allow-outside-results``, ``simlab.run(..., allow_outside_results=True)``), so a
  config passed around cannot send files into a folder of the system.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from simlab.errors import ConfigError
from simlab.experiments.lock import LOCK_NAME
from simlab.experiments.report import MANIFEST
from simlab.experiments.schema import DATABASE_NAME

MARKER = ".simlab-results"
MARKER_TEXT = ("This folder holds the results of a simlab experiment (simlab run). simlab writes only into a\n"
               "folder that holds this file, its results.sqlite, or nothing: never into a folder of yours.\n")
RESULTS_ROOT_ENV = "SIMLAB_RESULTS_ROOT"
DEFAULT_RESULTS_ROOT = "results"
ALLOW_OUTSIDE_FLAG = "--allow-outside-results"
MAX_MANIFEST_BYTES = 50_000_000  # an earlier simlab's manifest.json (read to recognise its folder)
_SHOWN = 3  # entries of a refused folder named in the message


def results_root() -> Path:
    """The folder output folders go in: ``SIMLAB_RESULTS_ROOT``, else ``results/`` of the
    directory simlab runs from (absolute, symbolic links resolved)."""
    return Path(os.environ.get(RESULTS_ROOT_ENV) or DEFAULT_RESULTS_ROOT).resolve()


def check_inside_root(output: Path, source: str, root: Path | None = None, allow_outside: bool = False) -> None:
    """Refuse ``output`` outside the results root (``root``, default ``results_root()``)
    unless ``allow_outside``: symbolic links are followed, so ``results/x -> /etc`` is outside.
    The root itself is no output folder: it holds the experiments' folders, not their files."""
    if allow_outside:
        return
    root = Path(root).resolve() if root is not None else results_root()
    resolved = Path(output).resolve()
    if root in resolved.parents:
        return
    raise ConfigError(
        f"{source}: output must be a folder inside the results folder '{root}' (results/ of the directory "
        f"you run from, or the folder {RESULTS_ROOT_ENV} names). Got '{output}', which is "
        f"{'that folder itself' if resolved == root else 'outside it'}. To write there anyway, run again "
        f"with {ALLOW_OUTSIDE_FLAG}.")


def check_simlab_folder(output: Path, source: str) -> None:
    """Refuse an existing ``output`` that holds files and was not made by simlab, so that
    no file of the user's (a ``report.md``, a ``summary.csv``) is overwritten."""
    folder = Path(output)
    if not folder.is_dir():
        return
    try:
        names = sorted(entry.name for entry in folder.iterdir())
    except OSError as error:
        raise ConfigError(f"{source}: output must be a folder simlab can read. Got '{output}': "
                          f"{error.strerror or error}.") from None
    if made_by_simlab(folder, names):
        return
    own = [name for name in names if not _left_by_a_run(name)]
    if not own:
        return
    overwritten = [name for name in ("report.md", "summary.csv", "deals.csv") if name in own]
    shown = ", ".join(own[:_SHOWN]) + (f" and {len(own) - _SHOWN} more" if len(own) > _SHOWN else "")
    risk = (f" A run would overwrite its {' and '.join(overwritten)}." if overwritten else "")
    raise ConfigError(
        f"{source}: output must be a new or empty folder, or one simlab made (it holds {MARKER} or "
        f"{DATABASE_NAME}). Got '{output}', which holds {len(own)} entr{'y' if len(own) == 1 else 'ies'} "
        f"of its own ({shown}) and no sign of simlab.{risk} Nothing was written. Run into another "
        f"folder (output, or --output), or move those files away.")


def made_by_simlab(folder: Path, names: list[str]) -> bool:
    """Whether ``folder`` (holding ``names``) is an output folder of simlab: its marker, its
    database (refused later if not simlab's), or the manifest of an earlier simlab's report."""
    if MARKER in names or DATABASE_NAME in names:
        return True
    return MANIFEST in names and _simlab_manifest(folder / MANIFEST)


def _simlab_manifest(path: Path) -> bool:
    """A ``manifest.json`` that simlab wrote (it names the simlab version and the experiment)."""
    try:
        if path.stat().st_size > MAX_MANIFEST_BYTES:
            return False
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and "simlab_version" in manifest and "experiment" in manifest


def _left_by_a_run(name: str) -> bool:
    """A file a stopped run may leave before it wrote its marker: the lock, a half-made database."""
    return name == LOCK_NAME or name.startswith(DATABASE_NAME)


def mark(folder: Path) -> None:
    """Write the marker into ``folder`` (a run's folder, its database already checked)."""
    path = Path(folder) / MARKER
    if not path.exists():
        path.write_text(MARKER_TEXT, encoding="utf-8")
