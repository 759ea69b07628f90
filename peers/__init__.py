"""Harnesses that put the public Cancellation Hearts engines behind the adapter protocol.

Each engine has a folder of its own (``allanh/``, ``crcowan/``) with its README, its adapter
glue and its expectations file; ``harness/`` holds what they share: the protocol loop, the
checkout of an engine supplied by the user, and the card order. ``run.py`` is ``make peers``.
No engine's code is part of this folder: each harness reads the engine from a checkout the
user supplies, checks it against the pinned commit, and builds it in a scratch folder.
"""
