# Everything the project needs, from a fresh machine with Python 3.11:
#   make play   set up, then play a game on the built-in default (8 players, seed 1)
#   make test   set up, then run every check: ruff, mypy --strict, pytest, the docs build
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck pytest docs doctest bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev,docs]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/rules-ref play

lint: $(STAMP)
	$(BIN)/ruff check rules_ref tests benchmarks docs

typecheck: $(STAMP)
	$(BIN)/mypy --strict rules_ref tests
	$(BIN)/mypy --strict docs/_ext

# The suite, measuring branch coverage of rules_ref as it runs: below the floor of
# pyproject.toml ([tool.coverage.report] fail_under) the run fails, so CI enforces it
# without running the suite twice.
COVERAGE := --cov=rules_ref --cov-branch

pytest: $(STAMP)
	$(BIN)/pytest $(COVERAGE) --cov-report=term-missing:skip-covered

# The same run, listing every module and every line and branch missed.
.PHONY: coverage
coverage: $(STAMP)
	$(BIN)/pytest $(COVERAGE) --cov-report=term-missing

docs: $(STAMP)
	$(BIN)/sphinx-build -W -n --keep-going -q -b html docs docs/_build/html

doctest: $(STAMP)
	$(BIN)/sphinx-build -W -n --keep-going -q -b doctest docs docs/_build/doctest

test: lint typecheck pytest docs doctest

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) docs/_build .mypy_cache .ruff_cache .pytest_cache .hypothesis
