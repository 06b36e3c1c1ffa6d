"""The layers: engine (rules) < solver (a search library) < policies (every player)
< experiments < cli (the command line, on top of them all); nothing imports upward, and
every player is discovered in ``simlab.policies``.

Read from the sources' own import statements (``ast``, every one, in a function
too), so a test fails on the import itself, not on what it happens to break.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from simlab import POLICIES

PACKAGE = Path(__file__).resolve().parent.parent / "simlab"

# What each layer must not import: the layers above it.
FORBIDDEN = {
    "engine": ("simlab.games", "simlab.solver", "simlab.policies", "simlab.experiments", "simlab.cli"),
    "games": ("simlab.solver", "simlab.policies", "simlab.experiments", "simlab.cli"),
    "solver": ("simlab.policies", "simlab.experiments", "simlab.cli"),
    "policies": ("simlab.experiments", "simlab.cli"),
    "experiments": ("simlab.cli",),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path) -> set[str]:
    """Every module an import statement of ``path`` names (``from a import b``: ``a`` and ``a.b``)."""
    names: set[str] = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = absolute(package, node.level, node.module) if node.level else node.module
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def absolute(package: str, level: int, module: str | None) -> str:
    """The module a relative import (``level`` dots) in ``package`` names."""
    parts = package.split(".")[: len(package.split(".")) - level + 1]
    return ".".join(parts + ([module] if module else []))


def layer_modules(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_layer_imports_a_layer_above_it(layer):
    upward = {
        module_name(path): sorted(name for name in imported_names(path)
                                  if any(name == above or name.startswith(above + ".") for above in FORBIDDEN[layer]))
        for path in layer_modules(layer)
    }
    assert {module: names for module, names in upward.items() if names} == {}


def test_only_the_command_line_imports_the_command_line():
    """``simlab.cli`` is the top: no module outside it (``simlab/*.py`` included) imports it."""
    outside = [path for path in sorted(PACKAGE.rglob("*.py")) if (PACKAGE / "cli") not in path.parents]
    upward = {module_name(path): sorted(name for name in imported_names(path)
                                        if name == "simlab.cli" or name.startswith("simlab.cli."))
              for path in outside}
    assert {module: names for module, names in upward.items() if names} == {}


@pytest.mark.parametrize("layer", ["engine", "games", "solver", "policies"])
def test_no_function_level_imports(layer):
    """Imports sit at the top of a module (none of these layers has an optional dependency)."""
    found = []
    for path in layer_modules(layer):
        for function in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found += [f"{module_name(path)}.{function.name}" for node in ast.walk(function)
                          if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert found == []


def test_every_built_in_policy_lives_in_the_policies_package():
    assert {"greedy", "heuristic", "random", "round_max", "solver"} <= set(POLICIES.names())
    elsewhere = {name: POLICIES.get(name).__module__ for name in POLICIES.names()
                 if not POLICIES.get(name).__module__.startswith("simlab.policies.")}
    assert elsewhere == {}


def test_policies_are_discovered_not_imported_for_their_side_effects():
    """Neither ``simlab`` nor ``simlab.policies`` names a policy module: the package finds them."""
    for init in (PACKAGE / "__init__.py", PACKAGE / "policies" / "__init__.py"):
        names = imported_names(init)
        policy_modules = {module_name(path) for path in layer_modules("policies")} - {"simlab.policies"}
        assert names & policy_modules <= {"simlab.policies.base", "simlab.policies.catalog", "simlab.policies.record"}


FIRST_IMPORT = """
import importlib, sys
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "simlab" or m.startswith("simlab.")]:
        del sys.modules[loaded]
    importlib.import_module(name)  # first, in a fresh simlab: a cycle shows as an ImportError
    from simlab.policies import make_policy
    make_policy("solver"), make_policy("round_max")
print("ok")
"""


def test_each_solver_and_policy_module_imports_first_without_a_cycle():
    """Whichever module of the solver or the policies a program imports first,
    the import succeeds and every policy is registered (in one process, simlab
    unloaded before each)."""
    names = [module_name(path) for layer in ("solver", "policies") for path in layer_modules(layer)]
    result = subprocess.run([sys.executable, "-c", FIRST_IMPORT, *names], capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
