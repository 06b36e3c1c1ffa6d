"""Solvitaire (Blake and Gent's solver) as an outside program: run it on one deal, read its verdict.

Solvitaire is not part of simlab (GPL, C++): the bench runs a build of it when
``SOLVITAIRE_BIN`` names the binary (see the README's benchmark part). Each deal
goes to it as a JSON file (``simlab.boards.solvitaire_deal``) with
``--classify --streamliners smart-solvability --timeout MS``: a streamlined search
for a tenth of the time, then the exact search for the whole time, so a verdict is
never wrong and a deal may take up to 1.1 times the cap in wall time.
``--timeout`` is wall-clock time; what the bench compares is the child's CPU
seconds (user + system, from ``os.wait4``).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import tempfile
import threading
from dataclasses import dataclass

# Solvitaire's preset per simlab game. Citadel has none: Streets and Alleys with the
# cards its deal sent home on the foundations is the same game.
PRESETS = {
    "beleaguered_castle": "beleaguered-castle",
    "streets_and_alleys": "streets-and-alleys",
    "citadel": "streets-and-alleys",
}
# the last field of a ``--classify`` line -> simlab's three-valued verdict
OUTCOMES = {
    "solved": "won",
    "unsolvable": "lost",
    "timed-out": "unknown",
    "memory-limit-reached": "unknown",
    "terminated": "unknown",
}
DEFAULT_TIMEOUT_MS = 10_000
GRACE_S = 60.0  # wall time past the cap before the child is killed (a loaded machine)


@dataclass
class SolvitaireResult:
    verdict: str  # won / lost / unknown / error
    outcome: str  # Solvitaire's own word (``solved``, ``timed-out``, ...) or what went wrong
    seconds: float  # CPU (user + system) of the child
    maxrss_kb: int
    output: str


def binary() -> str | None:
    """The Solvitaire binary ``SOLVITAIRE_BIN`` names, or None when it is unset or empty."""
    return os.environ.get("SOLVITAIRE_BIN") or None


def parse_classify(output: str) -> tuple[str, str]:
    """``(verdict, outcome)`` from Solvitaire's ``--classify`` output: the outcome is
    the last comma-separated field of its last non-empty line; ``error`` when that is
    not one Solvitaire prints."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    outcome = lines[-1].rsplit(",", 1)[-1].strip() if lines else ""
    return OUTCOMES.get(outcome, "error"), outcome or "no output"


def _run_timed(command: list[str], limit_s: float) -> tuple[str, resource.struct_rusage]:
    """The output of ``command`` and the child's own resource usage (``os.wait4``,
    which ``subprocess.run`` would not give); killed after ``limit_s`` wall seconds."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    timer = threading.Timer(limit_s, proc.kill)
    timer.start()
    try:
        output = proc.stdout.read()
    finally:
        timer.cancel()
        proc.stdout.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    if proc.returncode < 0:
        output += f"\nkilled by signal {-proc.returncode}"
    return output, usage


def run_solvitaire(program: str, game_name: str, deal: dict, timeout_ms: int = DEFAULT_TIMEOUT_MS
                   ) -> SolvitaireResult:
    """Solvitaire's smart-solvability verdict on ``deal`` (``solvitaire_deal``'s JSON)
    under the preset for ``game_name``, with the child's CPU seconds."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(deal, handle)
        path = handle.name
    command = [program, "--type", PRESETS[game_name], "--classify", "--streamliners", "smart-solvability",
               "--timeout", str(timeout_ms), path]
    try:
        output, usage = _run_timed(command, 1.1 * timeout_ms / 1000 + GRACE_S)
    finally:
        os.unlink(path)
    verdict, outcome = parse_classify(output)
    return SolvitaireResult(verdict, outcome, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, output)
