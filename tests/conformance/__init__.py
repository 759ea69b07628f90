"""Conformance tests, and the adapters they run against the kit.

Each adapter script here (``broken_adapters.py``, ``vector_adapters.py``, …)
is started anew for every run, often hundreds of times a suite, so what it
imports is paid on every start: run as a script, it puts the repository on
``sys.path`` with :mod:`os.path`, not :mod:`pathlib`, which the engine itself
does not import (``tests/test_import_cost.py``).
"""
