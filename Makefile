# Every target sets up (or refreshes) its own virtual environment from pyproject.toml first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CONFIG ?= experiments/default.yaml
# Compiled (numba) kernels are cached here and reused by every later process of the run.
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache

.PHONY: setup experiment test bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

experiment: $(STAMP)
	$(BIN)/simlab run $(CONFIG)

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache .hypothesis
