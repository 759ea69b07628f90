"""What marks a replay file of ``rules-ref conform``: its ``format`` and ``version``, and the
most actions it may hold.

:mod:`rules_ref.conform.rerun` writes replay files and :mod:`rules_ref.findings.replay`
reads them; ``rules-ref show`` and the site tell one from a game record by its
``format``, without importing the findings.
"""

REPLAY_FORMAT = "cancellation-hearts-conform-replay"
REPLAY_VERSION = 1
#: At most this many actions in a replay file (a conformance game has a few hundred).
MAX_REPLAY_ACTIONS = 10_000
