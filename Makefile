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

pytest: $(STAMP)
	$(BIN)/pytest

docs: $(STAMP)
	$(BIN)/sphinx-build -W -n --keep-going -q -b html docs docs/_build/html

doctest: $(STAMP)
	$(BIN)/sphinx-build -W -n --keep-going -q -b doctest docs docs/_build/doctest

test: lint typecheck pytest docs doctest

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) docs/_build .mypy_cache .ruff_cache .pytest_cache .hypothesis

# Mutation testing (not part of `make test` or CI; reports in docs/reports/).
#   make mutate      the test suite against every mutant of the engine's rule modules,
#                    state.py and view.py: docs/reports/mutation.{md,json}
#   make kit-power   rules-ref vectors run and conform against every mutant of the rule
#                    modules behind the reference adapter: docs/reports/kit-power.{md,json}
# Options through MUTATE_ARGS, e.g. make mutate MUTATE_ARGS="--limit 40 --modules tricks".
MUTATE_ARGS ?=
.PHONY: mutate kit-power

mutate: $(STAMP)
	$(BIN)/python -m tools.mutation mutate $(MUTATE_ARGS)

kit-power: $(STAMP)
	$(BIN)/python -m tools.mutation kit-power $(MUTATE_ARGS)
