"""The results database's modules do one job each: the store stores, ``schema`` lays the
database out, ``health`` checks a file; none of them builds a game or a policy or reads
a config (planning the cells is ``cells``' job, typing the per-deal table ``frames``')."""

from __future__ import annotations

import ast
from pathlib import Path

import simlab

EXPERIMENTS = Path(simlab.__file__).resolve().parent / "experiments"
# What a module that only stores, lays out or checks the database has no use for.
PLANNING = ("simlab.games", "simlab.policies", "simlab.engine", "simlab.solver", "simlab.experiments.config",
            "simlab.experiments.cells", "simlab.experiments.frames", "pandas")


def imported(module: str) -> set[str]:
    """The modules ``simlab/experiments/<module>.py`` imports (anywhere in it)."""
    tree = ast.parse((EXPERIMENTS / f"{module}.py").read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_database_modules_plan_nothing() -> None:
    for module in ("schema", "health"):
        assert not [name for name in imported(module) if name.startswith(PLANNING)], module
    # the store hands rows back as a pandas frame; it builds no game or policy and reads no config
    assert not [name for name in imported("store") if name.startswith(PLANNING) and name != "pandas"]


def test_planning_the_cells_touches_no_database() -> None:
    assert not [name for name in imported("cells") if "sqlite" in name or name.startswith(
        ("simlab.experiments.store", "simlab.experiments.health", "simlab.experiments.schema"))]
