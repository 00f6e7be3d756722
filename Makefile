# Two commands for a fresh machine: `make run` and `make test` (CI's: the suite without the tests
# marked slow); `make test-all` runs every test, the slow ones and the exhaustive sweeps too.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Test processes at once (pytest-xdist workers, and the processes compiling the numba kernels).
JOBS   ?= 2

.PHONY: run serve test test-all lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The packages are installed by uv, which pip puts in the venv first: uv fetches and unpacks them
# in parallel (about 3 s, where pip alone took 15 on the 2-core machine). pip alone when uv cannot
# be had or cannot reach the index (an index set for pip only; UV_INDEX_URL sets uv's).
# Neither byte-compiles here: compileall does it on every core (the same .pyc files pip would
# write one at a time). As with pip, a file that does not compile (a package's sample of another
# Python's syntax) is no error: it is left to the interpreter.
INSTALL = { $(BIN)/python -m pip install --quiet uv \
	&& $(BIN)/uv pip install --quiet --python $(BIN)/python $(1); } \
	|| $(BIN)/python -m pip install --quiet --no-compile $(1)
COMPILE = $(BIN)/python -m compileall -q -j 0 \
	"$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" \
	>/dev/null || true

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(call INSTALL,-e .)
	$(COMPILE)
	touch $@

# No compileall for the tests: their targets write byte code (below), so each module the suite
# imports is compiled once, by the first process that imports it, and the many the suite never
# imports (IPython's, Jedi's, fontTools', the packages' own tests...) are not compiled at all.
$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(call INSTALL,-e '.[test]')
	touch $(VENV)/.installed $(VENV)/.installed-web $@

$(VENV)/.installed-web: pyproject.toml | $(BIN)/python
	$(call INSTALL,-e '.[web]')
	$(COMPILE)
	touch $(VENV)/.installed $@

# crib warmup compiles the numba kernels the commands use (about half a minute on 2 cores, once;
# a progress bar).
run: $(VENV)/.installed-web
	$(BIN)/crib warmup
	$(BIN)/crib keep 5H 5S 6D JC QS KH --dealer

# The analyzer in the browser, on this machine only: http://127.0.0.1:8000 (crib serve --help).
serve: $(VENV)/.installed-web
	$(BIN)/crib serve

# The suite starts some 400 Python processes. With PYTHONDONTWRITEBYTECODE set (as in many
# containers) each would compile the package's own sources again: the tests write their .pyc.
test test-all: export PYTHONDONTWRITEBYTECODE =

# The numba kernels are compiled into their cache first, JOBS at once (tests/compile_kernels.py),
# so that no two test workers compile the same kernel; then the suite runs on JOBS workers,
# without the tests marked slow (the wheel's install, the notebooks, the compiles from an empty
# cache, the long seeded runs, the repeats of a face's whole game at other levels and forms...).
# That is what CI runs, within 10 minutes of a clean clone on 2 cores.
test: $(VENV)/.installed-test
	$(BIN)/ruff check analyzer tests
	$(BIN)/python tests/compile_kernels.py --jobs $(JOBS)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadgroup -m "not slow"

# Every test: the slow ones, and the oracles' exhaustive sweeps over every rank pattern (about
# twice make test's time). Run it before a change lands.
test-all: $(VENV)/.installed-test
	$(BIN)/ruff check analyzer tests
	$(BIN)/python tests/compile_kernels.py --jobs $(JOBS)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadgroup --exhaustive

lint: $(VENV)/.installed-test
	$(BIN)/ruff check analyzer tests

bench: $(VENV)/.installed
	$(BIN)/crib bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
