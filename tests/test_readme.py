"""The README's examples are run, so they cannot drift from what simlab does.

- Every ```python block runs: a block with ``>>>`` prompts as a doctest (its shown
  results checked, ``...`` eliding), a block that starts ``# NAME.py`` is written to
  that file and imported (the plug-in policy), and the command the README gives for it
  runs.
- Every ``$ simlab ...`` line of a plain ``` block that shows output is run through the
  command line's entry point, and its output is compared with the lines shown: a line
  ``...`` stands for any number of lines, CPU seconds (``0.089 CPU s``) vary between
  machines and runs and are not compared, nor is a first run's note on compiling.
"""

from __future__ import annotations

import doctest
import importlib
import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from simlab import cli
from simlab.experiments.deal_lists import LINE_KEYS

README = Path(__file__).resolve().parent.parent / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
PROMPT = "$ simlab "
ELIDED = "..."
CPU = re.compile(r"\d[\d,]*(\.\d+)? CPU s\b")
COMPILING = re.compile(r"; compiling the kernels took [\d.]+ CPU s more, once per version")
MODULE_HEADER = re.compile(r"^# (\w+)\.py\n")


def blocks(language: str) -> list[str]:
    """The README's fenced blocks of ``language`` ("" for plain ones), in order."""
    return [body for lang, body in FENCE.findall(README.read_text(encoding="utf-8")) if lang == language]


def shown_commands() -> list[tuple[str, list[str]]]:
    """Each ``$ simlab ...`` command of the plain blocks with the output lines shown under it."""
    found: list[tuple[str, list[str]]] = []
    for body in blocks(""):
        found.append(("", []))  # output lines belong to a command of their own block
        for line in body.splitlines():
            if line.startswith(PROMPT):
                found.append((line[2:].split("  #")[0].strip(), []))
            elif found and found[-1][0] and not line.startswith("$"):
                found[-1][1].append(line)
            elif line.startswith("$"):
                found.append(("", []))  # another program's command: not ours to run
    return [(command, lines) for command, lines in found if command and lines]


def normal(line: str) -> str:
    """A line as compared: CPU seconds and the compiling note left out, trailing space stripped."""
    return CPU.sub("<cpu> CPU s", COMPILING.sub("", line)).rstrip()


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``shown`` with each ``...`` line standing for any lines."""
    pattern = "".join(r"(?:[^\n]*\n)*?" if line.strip() == ELIDED else re.escape(normal(line)) + r"\n"
                      for line in shown)
    return re.fullmatch(pattern, "".join(normal(line) + "\n" for line in printed)) is not None


def literal(shown: list[str]) -> list[str]:
    """The lines of ``shown`` compared as they stand (neither ``...`` nor blank)."""
    return [line for line in shown if line.strip() not in ("", ELIDED)]


def run_cli(command: str, capsys: Any) -> tuple[int, str, str]:
    status = cli.main(shlex.split(command)[1:])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_readme_shows_commands_with_their_output() -> None:
    """The checker below reads the tour (not nothing, by a parsing slip)."""
    commands = [command for command, _ in shown_commands()]
    assert "simlab solve citadel 5" in commands and "simlab deal beleaguered_castle 1" in commands
    assert len(commands) >= 6


@pytest.mark.parametrize("command,shown", shown_commands(), ids=[c for c, _ in shown_commands()])
def test_each_output_shown_in_the_readme_is_what_the_command_prints(command: str, shown: list[str], capsys: Any,
                                                                    tmp_path: Path, monkeypatch: Any) -> None:
    assert literal(shown), "an output of nothing but '...' would match anything"
    monkeypatch.chdir(tmp_path)
    status, out, err = run_cli(command, capsys)
    assert status == 0, err
    printed = out.splitlines()
    assert matches(shown, printed), "README shows:\n" + "\n".join(shown) + "\n\nsimlab prints:\n" + out


def test_the_comparison_catches_a_stale_figure_and_a_missing_line() -> None:
    printed = ["citadel deal 5: won in 76 moves (41 positions, 0.160 CPU s; compiling the kernels took "
               "73.0 CPU s more, once per version)", " 1. 9S row5 -> row7", " 2. 7D row5 -> foundation3"]
    assert matches(["citadel deal 5: won in 76 moves (41 positions, 0.089 CPU s)", " ..."], printed)
    assert not matches(["citadel deal 5: won in 74 moves (462 positions, 0.089 CPU s)", " ..."], printed)
    assert not matches(["citadel deal 5: won in 76 moves (41 positions, 0.089 CPU s)"], printed)
    assert not matches(["citadel deal 5: won in 76 moves (41 positions, 0.089 CPU s)", "...", " 1. 9S row5"],
                       printed)
    assert matches(["..."], printed) and not literal(["...", " ..."])  # hence the guard on each output shown


def test_the_misspelt_name_of_the_tour_gets_the_error_the_readme_quotes(capsys: Any) -> None:
    quoted = re.search(r"one line, e\.g\. `(Unknown game '(\w+)'\. Did you mean\s+'\w+'\?)`",
                       README.read_text(encoding="utf-8"))
    assert quoted is not None
    status, _, err = run_cli(f"simlab deal {quoted.group(2)} 1", capsys)
    assert status == 2
    assert " ".join(quoted.group(1).split()) in err and len(err.strip().splitlines()) == 1


def test_every_python_example_of_the_readme_runs(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    """Doctests with their results checked; a module block written and imported, and played
    as the README's command line says."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    sessions = [body for body in blocks("python") if ">>>" in body]
    modules = [body for body in blocks("python") if MODULE_HEADER.match(body)]
    assert len(sessions) >= 3 and modules
    assert len(sessions) + len(modules) == len(blocks("python")), "a python block that no test runs"
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    runner = doctest.DocTestRunner(optionflags=flags)
    globs: dict[str, Any] = {}  # the blocks are one session, as a reader types them
    for number, body in enumerate(sessions):
        test = doctest.DocTestParser().get_doctest(body, globs, f"README python block {number + 1}", str(README), 0)
        runner.run(test, out=sys.stdout.write, clear_globs=False)
        globs = test.globs
    report = capsys.readouterr().out
    assert runner.failures == 0 and runner.tries >= 10, report
    for body in modules:
        name = MODULE_HEADER.match(body).group(1)
        (tmp_path / f"{name}.py").write_text(body, encoding="utf-8")
        importlib.import_module(name)
        commands = [line for block in blocks("") for line in block.splitlines()
                    if line.startswith("simlab ") and f"{name}:" in line]
        assert commands, f"no command of the README plays {name}"
        for command in commands:
            status, out, err = run_cli(command, capsys)
            assert status == 0, err
            assert out.startswith("citadel deal 5, policy my_policies:HomeFirst")


def test_the_shortening_figure_of_the_readme_is_what_solve_shorten_gives(capsys: Any) -> None:
    quoted = re.search(r"Beleaguered Castle deal (\d+): ([\d,]+) moves become ([\d,]+)",
                       README.read_text(encoding="utf-8"))
    assert quoted is not None
    status, out, _ = run_cli(f"simlab solve beleaguered_castle {quoted.group(1)} --shorten --json", capsys)
    shortened = json.loads(out)["shortened"]
    assert status == 0 and shortened["replayed_to_win"]
    assert (shortened["from"], shortened["to"]) == tuple(int(n.replace(",", "")) for n in quoted.group(2, 3))


@pytest.mark.parametrize("command,quoted", [
    ("simlab deal castle_of_indolence 1", "reserve0     [12 face down] 4H"),
    ("simlab deal windmill 1", "stock        94 cards face down"),
])
def test_the_card_table_lines_the_readme_quotes_are_printed(command: str, quoted: str, capsys: Any) -> None:
    assert f"`{quoted}`" in README.read_text(encoding="utf-8")
    status, out, _ = run_cli(command, capsys)
    assert status == 0 and quoted in out.splitlines()


def test_the_keys_of_simlab_deals_lines_are_those_the_readme_lists() -> None:
    """The README's list of keys against ``LINE_KEYS``, which tests/test_ladder_experiments.py
    checks each printed line against."""
    listed = re.search(r"as JSON lines with the keys ((?:`\w+`(?:,\s+|\s+and\s+))+`\w+`)",
                       README.read_text(encoding="utf-8"))
    assert listed is not None
    assert tuple(re.findall(r"`(\w+)`", listed.group(1))) == LINE_KEYS
