"""The fake adapters: the reference adapter with a rule broken, a message refused or a fault.

Each file here (``broken_adapters.py``, ``vector_adapters.py``, …) runs as a script,
``python tests/fakes/FILE NAME``, which serves adapter ``NAME`` on the standard streams; the
tests and the tools start them that way. Started anew for every run, often hundreds of times
a suite, what a script imports is paid on every start: run as a script, it puts the
repository on ``sys.path`` with :mod:`os.path`, not :mod:`pathlib`, which the engine itself
does not import (``tests/test_import_cost.py``).
"""
