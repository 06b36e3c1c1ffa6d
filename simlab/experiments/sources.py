"""The user's code behind a policy: its module and every user module it imports, hashed.

A user policy's results depend on its own module and on the helper modules of the
user's it imports (a sibling ``helpers.py``, a package of their own), so the cell key
(``config.code_of``) hashes all of them. A *user module* is one loaded from a file
outside the Python installation (the standard library, ``site-packages``, the
interpreter's prefixes) and outside simlab itself. The imports are read from each
module's source (``import x``, ``from x import y``, relative ones, at any depth, in
functions too), so a module imported only inside a function counts as well; they are
found on ``sys.path`` without being run.
"""

from __future__ import annotations

import ast
import hashlib
import site
import sys
import sysconfig
from functools import lru_cache
from importlib.machinery import ModuleSpec, PathFinder
from importlib.util import resolve_name
from pathlib import Path

SIMLAB_DIR = Path(__file__).resolve().parents[1]  # simlab's own package folder, never hashed
DIGEST_CHARS = 16  # of the sha256 hex digest, as the cell key has always kept


def source_digest(module_name: str) -> str | None:
    """A hash of the module ``module_name`` and of every user module it imports, recursively.

    A module that imports no user module hashes as its own file's bytes alone (so such
    a policy keeps the key it always had). None if the module has no readable file.
    """
    files = user_dependencies(module_name)
    if module_name not in files:
        return None
    try:
        digests = {name: hashlib.sha256(path.read_bytes()).hexdigest() for name, path in files.items()}
    except OSError:
        return None
    if len(digests) == 1:
        return digests[module_name][:DIGEST_CHARS]
    text = "\n".join(f"{name} {digest}" for name, digest in sorted(digests.items()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


def user_dependencies(module_name: str) -> dict[str, Path]:
    """Module name -> file of ``module_name`` and of every user module it imports, recursively
    (the module itself only if it is a user module)."""
    found: dict[str, Path] = {}
    todo = [module_name]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        path = _file_of(name)
        if path is None or not is_user_file(path):
            continue
        found[name] = path
        todo.extend(_imports(path, name))
    return found


def is_user_file(path: Path) -> bool:
    """True for a file outside the Python installation and outside simlab."""
    resolved = path.resolve()
    return not any(resolved.is_relative_to(root) for root in _installation())


@lru_cache(maxsize=1)
def _installation() -> tuple[Path, ...]:
    """Folders of the Python installation (prefixes, standard library, site-packages) and simlab's."""
    paths = set(sysconfig.get_paths().values()) | {sys.prefix, sys.base_prefix, sys.exec_prefix,
                                                    sys.base_exec_prefix}
    paths |= set(getattr(site, "getsitepackages", list)())
    paths.add(site.getusersitepackages() if site.ENABLE_USER_SITE else sys.prefix)
    paths.add(str(SIMLAB_DIR))
    return tuple(Path(p).resolve() for p in paths if p)


def _file_of(name: str) -> Path | None:
    """The file module ``name`` is (or would be) loaded from, found without importing it."""
    module = sys.modules.get(name)
    if module is not None:
        file = getattr(module, "__file__", None)
        return Path(file) if file else None
    spec = _spec(name)
    return Path(spec.origin) if spec is not None and spec.has_location and spec.origin else None


def _spec(name: str) -> ModuleSpec | None:
    """Where ``name`` would be found on ``sys.path`` (its packages searched, not imported)."""
    parent, _, last = name.rpartition(".")
    if not parent:
        return _find(name, None)
    module = sys.modules.get(parent)
    locations = getattr(module, "__path__", None) if module is not None else None
    if locations is None:
        parent_spec = _spec(parent)
        locations = parent_spec.submodule_search_locations if parent_spec is not None else None
    return _find(last, list(locations)) if locations is not None else None


def _find(name: str, path: list[str] | None) -> ModuleSpec | None:
    try:
        return PathFinder.find_spec(name, path)
    except (ImportError, ValueError):
        return None


def _imports(path: Path, name: str) -> list[str]:
    """The modules the source at ``path`` (module ``name``) imports, by absolute name; for
    ``from x import y`` both ``x`` and ``x.y`` (``y`` may be a submodule)."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (OSError, SyntaxError, ValueError):
        return []
    package = name if path.name.startswith("__init__.") else name.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            try:
                base = resolve_name("." * node.level + (node.module or ""), package) if node.level \
                    else node.module or ""
            except (ImportError, ValueError):
                continue
            names += [base] + [f"{base}.{alias.name}" for alias in node.names if alias.name != "*"]
    # a dotted module also runs its packages' __init__ code
    return [prefix for full in names for prefix in _prefixes(full)]


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1) if parts[0]]
