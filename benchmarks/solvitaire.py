"""Solvitaire (Blake and Gent's solver) as an outside program: run it on one deal, read its verdict.

Solvitaire is not part of simlab (GPL, C++): the bench runs a build of it when
``SOLVITAIRE_BIN`` names the binary (docs/design.md, "Beside Solvitaire", says how to build it). Each deal
goes to it as a JSON file (``simlab.boards.solvitaire_deal``) with
``--classify --streamliners smart-solvability --timeout MS``: a streamlined search
for a tenth of the time, then the exact search for the whole time, so a verdict is
never wrong and a deal may take up to 1.1 times the cap in wall time.
``--timeout`` is wall-clock time; what the bench compares is the child's CPU
seconds (user + system, from ``os.wait4``). On a shared machine a 10 s wall cap
buys only a share of 10 CPU-s (5.4 CPU-s on Beleaguered Castle deal 51 at a load
of 10 on 2 cores), so ``WallCap`` stretches the wall cap by the CPU share the bench
has been getting, for a cap of about 10 CPU-s as on an idle machine.
"""

from __future__ import annotations

import json
import math
import os
import resource
import signal
import subprocess
import tempfile
import threading
import time
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
    "cpu-limit": "unknown",  # stopped by the bench's CPU backstop (``run_timed``), not by Solvitaire
}
DEFAULT_TIMEOUT_MS = 10_000
GRACE_S = 60.0  # wall time past the cap before the child is killed (a loaded machine)
SHARE_WINDOW_S = 30.0  # the CPU share is measured over about this much recent wall time
MIN_SHARE = 0.1  # the wall cap is stretched at most tenfold


@dataclass
class SolvitaireResult:
    verdict: str  # won / lost / unknown / error
    outcome: str  # Solvitaire's own word (``solved``, ``timed-out``, ...) or what went wrong
    seconds: float  # CPU (user + system) of the child
    maxrss_kb: int
    output: str
    wall_s: float = 0.0


@dataclass
class WallCap:
    """Solvitaire's ``--timeout`` (wall ms) for a cap of ``cpu_ms`` CPU milliseconds:
    ``cpu_ms`` divided by the share of a core the bench has been getting lately
    (decayed sums of CPU and wall seconds, fed by every timed piece of work);
    with ``stretch`` off, ``cpu_ms`` itself, a plain wall cap."""

    cpu_ms: int = DEFAULT_TIMEOUT_MS
    stretch: bool = True
    cpu_s: float = 0.0
    wall_s: float = 0.0

    def share(self) -> float:
        """The recent share of a core, between ``MIN_SHARE`` and 1 (1 before anything was timed)."""
        if self.wall_s <= 0:
            return 1.0
        return min(1.0, max(MIN_SHARE, self.cpu_s / self.wall_s))

    def timeout_ms(self) -> int:
        return round(self.cpu_ms / self.share()) if self.stretch else self.cpu_ms

    def cpu_limit_s(self) -> int | None:
        """A CPU backstop for when the share rises during a run: the streamlined tenth and
        the exact search in full, rounded up, plus a second; None for a plain wall cap."""
        return math.ceil(1.1 * self.cpu_ms / 1000) + 1 if self.stretch else None

    def observe(self, cpu_s: float, wall_s: float) -> None:
        """Count ``cpu_s`` CPU seconds spent in ``wall_s`` wall seconds of single-threaded work."""
        decay = math.exp(-wall_s / SHARE_WINDOW_S)
        self.cpu_s = self.cpu_s * decay + cpu_s
        self.wall_s = self.wall_s * decay + wall_s


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


def _cpu_backstop(cpu_s: int) -> None:
    """In the child: SIGXCPU after ``cpu_s`` CPU seconds (SIGKILL one later)."""
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))


def run_timed(command: list[str], limit_s: float, cpu_limit_s: int | None = None
               ) -> tuple[str, resource.struct_rusage]:
    """The output of ``command`` and the child's own resource usage (``os.wait4``,
    which ``subprocess.run`` would not give); killed after ``limit_s`` wall seconds,
    or ``cpu_limit_s`` CPU seconds (then its last line says ``cpu-limit``)."""
    backstop = None if cpu_limit_s is None else (lambda: _cpu_backstop(cpu_limit_s))
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=backstop)
    timer = threading.Timer(limit_s, proc.kill)
    timer.start()
    try:
        output = proc.stdout.read()
    finally:
        timer.cancel()
        proc.stdout.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    at_limit = cpu_limit_s is not None and usage.ru_utime + usage.ru_stime >= cpu_limit_s - 0.1
    if proc.returncode == -signal.SIGXCPU or (proc.returncode == -signal.SIGKILL and at_limit):
        output += "\nstopped at the CPU backstop, cpu-limit"
    elif proc.returncode < 0:
        output += f"\nkilled by signal {-proc.returncode}"
    return output, usage


def run_solvitaire(program: str, game_name: str, deal: dict, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                   cpu_limit_s: int | None = None) -> SolvitaireResult:
    """Solvitaire's smart-solvability verdict on ``deal`` (``solvitaire_deal``'s JSON)
    under the preset for ``game_name``, with the child's CPU seconds; stopped (``unknown``,
    ``cpu-limit``) after ``cpu_limit_s`` CPU seconds when that is given."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(deal, handle)
        path = handle.name
    command = [program, "--type", PRESETS[game_name], "--classify", "--streamliners", "smart-solvability",
               "--timeout", str(timeout_ms), path]
    start = time.monotonic()
    try:
        output, usage = run_timed(command, 1.1 * timeout_ms / 1000 + GRACE_S, cpu_limit_s)
    finally:
        os.unlink(path)
    wall = time.monotonic() - start
    verdict, outcome = parse_classify(output)
    return SolvitaireResult(verdict, outcome, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, output, wall)
