# Every target sets up (or refreshes) its own virtual environment from pyproject.toml first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CONFIG ?= experiments/default.yaml
# Compiled (numba) kernels are cached in one folder per version of the sources, which
# simlab/numba_cache.py names (and `import simlab` sets, so every command shares it, in or
# out of make): numba checks only the timestamp of the file that holds a function, not of
# the files of the functions it calls, so after an edit to one module a cached caller in
# another would go on running the old code. (-I: the script's own folder, simlab/, is not put
# first on the import path, where one of its modules could stand in for the standard library's.)
export NUMBA_CACHE_DIR := $(shell $(PYTHON) -I simlab/numba_cache.py)

.PHONY: setup experiment test check bench costs clean browser compiled

setup: $(STAMP) compiled

# The kernels of the README's commands, quick.yaml and default.yaml compiled into that folder once
# (about two minutes on 2 cores), so that none of them compiles; a second time within a second.
compiled: $(STAMP)
	$(BIN)/python -m simlab.precompile

# uv installs the same requirements as pip, resolving and downloading in parallel: a fresh
# set-up takes about 30 s instead of 100. Where uv cannot be had (or fails), pip does it.
# --compile-bytecode as pip does: with PYTHONDONTWRITEBYTECODE set, numba alone would
# otherwise take 1.4 s instead of 0.3 to import in every worker and test process.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	( $(BIN)/python -m pip install --quiet uv && \
	  $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e ".[test]" ) || \
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

experiment: $(STAMP) compiled
	$(BIN)/simlab run $(CONFIG)

check: $(STAMP)
	$(BIN)/ruff check .

# Two workers (pytest-xdist): the suite is CPU-bound and the machines have two cores. The kernels
# are compiled first as `compiled` does, but a command of the warm-up that fails (a change that
# breaks it) must not keep the suite from running: its tests then fail, each with its message.
test: $(STAMP) browser
	-$(BIN)/python -m simlab.precompile
	$(BIN)/python -m pytest -q -n 2

# The browser test (tests/test_show_browser.py) drives Debian's headless Chromium: installed here
# when missing, as root with apt-get. It never fails: without a browser that test is skipped, saying so.
APT_INSTALL := DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1
browser:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing chromium and chromium-driver for the browser test (apt-get, about a minute)"; \
	  $(APT_INSTALL) || { apt-get update -qq >/dev/null 2>&1 && $(APT_INSTALL); } || \
	  echo "could not install chromium; the browser test will be skipped"; \
	else \
	  echo "no /usr/bin/chromium: the browser test will be skipped (as root: apt-get install chromium chromium-driver)"; \
	fi

bench: $(STAMP) compiled
	$(BIN)/python -m benchmarks

# The per-deal costs `simlab run` estimates a run from (simlab/experiments/costs.csv): measured on
# experiments/quick.yaml, costs.yaml and costs_windmill.yaml (a few minutes), then added to the table.
costs: $(STAMP) compiled
	$(BIN)/simlab run experiments/quick.yaml --output results/costs_quick
	$(BIN)/simlab run experiments/costs.yaml
	$(BIN)/simlab run experiments/costs_windmill.yaml
	$(BIN)/python -m simlab.experiments.costs results/costs_quick results/costs results/costs_windmill

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache .hypothesis
