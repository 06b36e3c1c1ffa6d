"""The solver hands large freed blocks back to the system (``simlab.solver.heap``)."""

import platform

import pytest

from simlab.solver.heap import return_large_blocks

GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not GLIBC, reason="mallopt's mapping threshold is glibc's")
def test_threshold_is_set_on_glibc(monkeypatch):
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    assert return_large_blocks() is True


def test_the_environment_wins(monkeypatch):
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "131072")
    assert return_large_blocks() is False
