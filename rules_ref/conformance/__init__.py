"""The conformance kit: adapter protocol, vectors, the differential runner.

The modules here that drive Hypothesis (the strategies and ``conform``)
need the ``conform`` extra; the rest, like the core package, use only the
standard library.
"""
