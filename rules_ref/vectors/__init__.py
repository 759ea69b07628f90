"""Conformance vectors: generated from the reference, frozen in ``spec/vectors/``.

A vector file is plain JSON (``spec/schemas/vectors.schema.json``) holding
the cases of one *kind*; ``spec/vectors/README.md`` is the runner contract
that says how to read and apply each kind. Positions are protocol
``start`` messages plus an action prefix, so any implementation can reach
them through the adapter protocol (``spec/protocol.md``);
:mod:`rules_ref.vectors.case_replay` replays them.

The package, one module per responsibility:

* :mod:`.files`: what a vector file is (format, versions, kinds, bounds) and
  loading a directory of them;
* :mod:`.shape`: the shape of a case, checked before it is replayed;
* :mod:`.jsontext`: the canonical, diffable text of a file;
* :mod:`.scenario`: building positions and their steps from the reference;
* :mod:`.endings`: the ends of deals, shared by the kinds that play one out;
* :mod:`.kinds`: one generator module per kind;
* :mod:`.position_forms`: the position-start forms of version 2;
* :mod:`.requirements`: what each case's outcome depends on (``depends_on``),
  proven on the reference, and the values a run may send in place of the case's;
* :mod:`.proof`: each case proven to test what it claims, a fault of a rule it
  cites failing it (``proven_by``), with the faults :mod:`.rule_faults` adds to
  the findings' catalogue;
* :mod:`.route` and :mod:`.rescore`: a case reaching its moment by another
  route, and its figures under other values;
* :mod:`.served`: the cases built for what a correct engine of one value would
  leave untested;
* :mod:`.matrix`: the distinguishing matrix of every switch and its gaps;
* :mod:`.facts`: a case's facts checked against its expectations;
* :mod:`.writing`: the files' documents, written atomically
  (``rules-ref vectors generate``);
* :mod:`.checking`: the self-check (``rules-ref vectors check``);
* :mod:`.running` and :mod:`~rules_ref.vectors.results`: ``rules-ref vectors run`` through an
  adapter process, and its text, JSON and JUnit reports.

The names other code uses are importable from the package itself.
"""

from __future__ import annotations

from .checking import SCHEMA_NEEDS_DEV, CheckReport, check_dir, replay_reference, unit_expected
from .checking import schema_validator as schema_validator
from .endings import last_card, moon_deal
from .files import (
    CONTRACT_VERSION,
    CONTRACT_VERSIONS,
    FORMAT,
    KINDS,
    LATEST,
    MAX_CASE_ACTIONS,
    MAX_CASES_PER_FILE,
    MAX_PERFT_DEPTH,
    PROTOCOL_KINDS,
    UNIT_KINDS,
    VECTORS_VERSION,
    VERSIONS,
    Case,
    VectorFile,
    default_dir,
    iter_cases,
    latest_dir,
    load_dir,
    schema_path,
    version_dir,
)
from .jsontext import dumps
from .shape import check_case, file_problems, require_valid
from .writing import build_files, document, generate

__all__ = [
    "CONTRACT_VERSION", "CONTRACT_VERSIONS", "FORMAT", "KINDS", "LATEST", "MAX_CASES_PER_FILE",
    "MAX_CASE_ACTIONS", "MAX_PERFT_DEPTH", "PROTOCOL_KINDS", "SCHEMA_NEEDS_DEV", "UNIT_KINDS",
    "VECTORS_VERSION", "VERSIONS", "Case", "CheckReport", "VectorFile", "build_files",
    "check_case", "check_dir", "default_dir", "document", "dumps", "file_problems", "generate",
    "iter_cases", "last_card", "latest_dir", "load_dir", "moon_deal", "replay_reference",
    "require_valid", "schema_path", "schema_validator", "unit_expected", "version_dir",
]
