"""Mutation testing of the reference engine, and of the conformance kit's power.

Standard library only; drives the project through its test suite, its
``rules-ref`` commands and its module files, never through its internals.
``python -m tools.mutation mutate``, ``python -m tools.mutation kit-power`` and
``python -m tools.mutation composites`` (``make mutate``, ``make kit-power``,
``make kit-power-composites``: the kit against engines with several faults at once).
The composites' card and phase faults are the one exception to "never through its
internals": they replace engine functions, in the adapter's process only
(:mod:`tools.mutation.faults`).
"""
