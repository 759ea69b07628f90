# Everything the project needs, from a fresh machine with Python 3.11:
#   make play   set up the engine alone (standard library only), then play a game on the
#               built-in default (8 players, seed 1)
#   make test   set up with the dev and docs extras and Pyodide (npm, package-lock.json), then
#               run every check side by side: ruff, mypy --strict, pytest, the docs build
#   make check  the quick check: ruff, mypy --strict and the rule tables (tests/rules)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# the engine and the `rules-ref` command, nothing else (what `make play` and `make peers` need)
PLAY_STAMP := $(VENV)/.installed-play
# the engine with the dev and docs extras (what every check needs)
STAMP := $(VENV)/.installed
# Pyodide, pinned in package-lock.json: the docs build copies it into the site, where the
# pages that ask the engine run it in the browser (docs/_ext/chdocs/ask.py)
NODE_STAMP := node_modules/.installed
PIP := $(BIN)/pip install --quiet --disable-pip-version-check

.PHONY: play test check lint typecheck pytest docs doctest bench clean screenshots peers

$(PLAY_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e .
	touch $(PLAY_STAMP)

$(STAMP): pyproject.toml $(NODE_STAMP)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e '.[dev,docs]'
	touch $(PLAY_STAMP) $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "make: npm is needed to install Pyodide for the" \
	  "site (Node.js 18 or later; Debian: apt-get install npm)"; exit 1; }
	npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $(NODE_STAMP)

play: $(PLAY_STAMP)
	$(BIN)/rules-ref play

# The kit run on the public engines supplied (PEERS_ALLANH, PEERS_CRCOWAN: peers/README.md),
# twice each: docs/reports/implementations.json and .md. No engine supplied: exit status 4.
# It needs the package alone.
peers: $(PLAY_STAMP)
	$(BIN)/python peers/run.py

lint: $(STAMP)
	$(BIN)/ruff check rules_ref tests benchmarks docs tools spec peers

typecheck: $(STAMP)
	$(BIN)/mypy --strict rules_ref tests
	$(BIN)/mypy --strict docs/_ext
	$(BIN)/mypy --strict --explicit-package-bases tools/mutation
	$(BIN)/mypy --strict tools/fingerprint.py

# The suite, measuring branch coverage of rules_ref as it runs: below the floor of
# pyproject.toml ([tool.coverage.report] fail_under) the run fails, so CI enforces it
# without running the suite twice. -n auto: one worker per core (pytest-xdist); the
# coverage of every worker is combined before the floor is checked.
COVERAGE := --cov=rules_ref --cov-branch
PARALLEL := -n auto

pytest: $(STAMP) bytecode
	$(BIN)/pytest $(PARALLEL) $(COVERAGE) --cov-report=term-missing:skip-covered

# The same run, listing every module and every line and branch missed.
.PHONY: coverage
coverage: $(STAMP) bytecode
	$(BIN)/pytest $(PARALLEL) $(COVERAGE) --cov-report=term-missing

# Both builders read the pages into one environment (-d): the second to run reads only
# what changed since the first (nothing, in `make test`), instead of every page again.
SPHINX := $(BIN)/sphinx-build -W -n --keep-going -q -d docs/_build/doctrees
HTML := $(SPHINX) -b html docs docs/_build/html
DOCTEST := $(SPHINX) -b doctest docs docs/_build/doctest

docs: $(STAMP)
	$(HTML)

doctest: $(STAMP)
	$(DOCTEST)

# Every check, side by side (make -j), each one's output shown whole when it ends: the
# suite's workers keep every core busy, and the docs build, the type check and the lint
# take the moments they leave idle (a worker waiting for an adapter's timeout, the last
# worker finishing alone) instead of running after it on one core. The doctests follow
# the docs build, on the pages it read; the suite's bytecode is written (`bytecode`) while
# the others start. Any check failing fails `make test`.
test: $(STAMP)
	$(MAKE) --no-print-directory -j4 --output-sync=target lint typecheck pytest docs-doctest

# The quick check of a first change, one after the other: the lint and the strict type check
# of the engine and its tests, then the rule tables (tests/rules); no docs build, no browser,
# no property tests or conformance runs (`make test` runs those). One process: the tables take
# a few seconds, less than starting a worker per core would.
check: $(STAMP)
	$(BIN)/ruff check rules_ref tests
	$(BIN)/mypy --strict rules_ref tests
	$(BIN)/pytest -q -n 0 -p no:cacheprovider tests/rules

# The package and the tests compiled once, up front: the suite starts several hundred Python
# processes (adapters, command lines), and where PYTHONDONTWRITEBYTECODE is set (as on
# many CI machines) no import writes its bytecode, so each process would compile every
# module it imports again; compileall writes it whatever that variable says. The same
# holds for pytest's rewriting of the test modules' asserts, which it keeps beside their
# bytecode: one collection with the variable cleared writes it (4 s, on one core), where
# each worker of the suite, measuring coverage as it collects, took 8 s to rewrite them.
# A module that does not collect is left for the suite to report, with the other checks.
.PHONY: bytecode
bytecode: $(STAMP)
	$(BIN)/python -m compileall -q rules_ref tests docs/_ext tools benchmarks
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest --collect-only -q -p no:cacheprovider > /dev/null || true

.PHONY: docs-doctest
docs-doctest: $(STAMP)
	$(HTML)
	$(DOCTEST)

# Not part of `make test`: PNGs of the pages of docs/screenshots.py (PAGES), light and
# dark, 1280 and 390 px, of the site `make docs` built, in docs/_build/screenshots,
# the summary printed to PDF and the first search hits (needs Debian's chromium).
screenshots: $(STAMP)
	$(BIN)/python docs/screenshots.py

# ONLY=conform (or sections comma-separated, benchmarks/run.py --only): those rows alone
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py $(if $(ONLY),--only $(ONLY))

clean:
	rm -rf $(VENV) node_modules docs/_build .mypy_cache .ruff_cache .pytest_cache .hypothesis

# Mutation testing (not part of `make test` or CI; reports in docs/reports/).
#   make mutate      the test suite against every mutant of the engine's rule modules,
#                    state.py, state_reading.py and view.py: docs/reports/mutation.{md,json}
#   make kit-power   rules-ref vectors run and conform against every mutant of the rule
#                    modules behind the reference adapter: docs/reports/kit-power.{md,json}
#   make kit-power-composites   conform against engines with k = 1, 2, 3 and 5 faults at
#                    once (operator, switch, card and phase faults): recall, precision and
#                    every-fault-named per k and per kind, docs/reports/kit-power-composites.json
#                    and a section of kit-power.md. Options through COMPOSITE_ARGS, e.g.
#                    COMPOSITE_ARGS="--quick", "--count 10 --k 3 --jobs 1".
# Options through MUTATE_ARGS, e.g. make mutate MUTATE_ARGS="--limit 40 --modules tricks".
MUTATE_ARGS ?=
COMPOSITE_ARGS ?=
.PHONY: mutate kit-power kit-power-composites

mutate: $(STAMP)
	$(BIN)/python -m tools.mutation mutate $(MUTATE_ARGS)

kit-power: $(STAMP)
	$(BIN)/python -m tools.mutation kit-power $(MUTATE_ARGS)

kit-power-composites: $(STAMP)
	$(BIN)/python -m tools.mutation composites $(COMPOSITE_ARGS)

# The kit's fingerprint (tools/fingerprint.py): 34 conform runs without their times, written
# to OUT (default fingerprint.json); with AGAINST=OLD.json, compared run by run (exit 1 if any
# differs). A change meant to leave the search alone must leave it identical.
.PHONY: fingerprint
fingerprint: $(STAMP)
	$(BIN)/python tools/fingerprint.py $(or $(OUT),fingerprint.json) $(if $(AGAINST),--against $(AGAINST))
