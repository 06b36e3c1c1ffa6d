"""simlab's modules import one another without a cycle.

The graph is read from the source with ``ast``: an edge A -> B for every
``import`` in module A that names simlab module B. Imports inside functions
count too (moving an import into a function hides a cycle; it does not remove
it); those under ``if TYPE_CHECKING:`` do not (they never run). An import names
the most specific module it loads: ``from simlab.experiments import store`` is an
edge to ``simlab.experiments.store``, ``from simlab.policies import make_policy``
one to the package ``simlab.policies``. The parent packages Python initialises on
the way are not edges: every module would otherwise reach ``simlab/__init__.py``,
which imports the public API from every layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import simlab

PACKAGE_DIR = Path(simlab.__file__).resolve().parent


def module_files() -> dict[str, Path]:
    """Every simlab module by dotted name (a package by its own name)."""
    modules = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = ("simlab",) + path.relative_to(PACKAGE_DIR).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, type_only: bool = False) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree`` that runs, at any depth; with ``type_only``,
    those under ``if TYPE_CHECKING:`` too."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test) and not type_only:
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of ``name`` that is a simlab module, if any."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in modules:
            return prefix
    return None


def _targets(node: ast.Import | ast.ImportFrom, module: str, modules: dict[str, Path]) -> list[str]:
    """The simlab modules one import statement in ``module`` names."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: from the package of ``module``
            package = module if modules[module].name == "__init__.py" else module.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if base else package
        names = [f"{base}.{alias.name}" for alias in node.names]
    return sorted({target for name in names if (target := _known(name, modules)) is not None})


def import_graph(type_only: bool = False) -> dict[str, dict[str, int]]:
    """For each simlab module: the simlab modules it imports, with the line of the first import
    (with ``type_only``, counting the imports under ``if TYPE_CHECKING:`` too)."""
    modules = module_files()
    graph: dict[str, dict[str, int]] = {}
    for module, path in modules.items():
        edges: dict[str, int] = {}
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), type_only):
            for target in _targets(node, module, modules):
                if target != module:
                    edges[target] = min(edges.get(target, node.lineno), node.lineno)
        graph[module] = edges
    return graph


def find_cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (first == last), or None."""
    state: dict[str, str] = {}  # "open" while on the current path, then "done"
    for root in sorted(graph):
        if root in state:
            continue
        path, branches = [root], [iter(sorted(graph[root]))]
        state[root] = "open"
        while branches:
            target = next(branches[-1], None)
            if target is None:
                state[path.pop()] = "done"
                branches.pop()
            elif state.get(target) == "open":
                return path[path.index(target):] + [target]
            elif target not in state:
                state[target] = "open"
                path.append(target)
                branches.append(iter(sorted(graph[target])))
    return None


def describe(cycle: list[str], graph: dict[str, dict[str, int]]) -> str:
    modules = module_files()
    steps = [f"  {a} imports {b} ({modules[a].relative_to(PACKAGE_DIR.parent)}:{graph[a][b]})"
             for a, b in zip(cycle, cycle[1:])]
    return "simlab's imports have a cycle:\n" + "\n".join(steps)


def test_import_graph_is_acyclic() -> None:
    graph = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, describe(cycle, graph)


def test_the_engine_has_no_import_cycle_even_for_types() -> None:
    """Within the engine not even an import made for type hints alone closes a circle: a
    module that needs another's types for its hints does not also serve that module."""
    graph = import_graph(type_only=True)
    engine = {module: {target: line for target, line in edges.items() if target.startswith("simlab.engine")}
              for module, edges in graph.items() if module.startswith("simlab.engine")}
    cycle = find_cycle(engine)
    assert cycle is None, describe(cycle, engine)


def test_graph_sees_function_level_imports() -> None:
    """The reader finds an import inside a function and skips one under TYPE_CHECKING."""
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import simlab.cards\n"
                     "def f():\n    from simlab import games\n")
    modules = module_files()
    found = [t for node in _imports(tree) for t in _targets(node, "simlab.cli", modules)]
    assert found == ["simlab.games"]
    found = sorted(t for node in _imports(tree, type_only=True) for t in _targets(node, "simlab.cli", modules))
    assert found == ["simlab.cards", "simlab.games"]


def test_find_cycle() -> None:
    assert find_cycle({"a": {"b": 1}, "b": {"c": 1}, "c": {}}) is None
    assert find_cycle({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}}) == ["a", "b", "c", "a"]
