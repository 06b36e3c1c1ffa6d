"""ruff's configuration bans what the code's ``noqa`` marks say it bans.

A ``# noqa: CODE`` for a rule ruff does not select bans nothing: the mark then
claims an exception to a rule that is not enforced. Every code named in a mark
must be selected in ``pyproject.toml``, and the rules the house style relies on
(no legacy global numpy random: randomness arrives as an argument) are selected.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NOQA = re.compile(r"#\s*noqa:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)")


def selected() -> list[str]:
    """The rule codes and prefixes ruff selects (``[tool.ruff.lint] select``)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["ruff"]["lint"]["select"]


def is_selected(code: str) -> bool:
    return any(code.startswith(prefix) for prefix in selected())


def test_legacy_numpy_random_is_banned() -> None:
    assert is_selected("NPY002")


def test_every_noqa_mark_names_a_selected_rule() -> None:
    unselected = []
    for folder in ("simlab", "tests", "benchmarks"):
        for path in sorted((REPO / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for match in NOQA.finditer(line):
                    codes = [code.strip() for code in match.group(1).split(",")]
                    unselected += [f"{path.relative_to(REPO)}:{number}: {code}"
                                   for code in codes if not is_selected(code)]
    assert unselected == []
