"""The check that a rejected action changed nothing is made only on a game in step.

When the implementation refused the position it was offered after a divergence, the
reference plays on alone (spec/protocol.md, "Divergence classes"): the implementation
never saw the actions since, so its observation is not compared with the reference's.
"""

from __future__ import annotations

import pytest

from rules_ref.conform.session import Session
from rules_ref.findings.failure import Stats
from rules_ref.players.game import game_steps


class _Observed(Exception):
    pass


class _Proc:
    """An adapter that declares every capability; an ``observe`` sent to it is recorded."""

    def can(self, capability: str) -> bool:
        return True

    def observe(self) -> dict[str, object]:
        raise _Observed


def _session(adrift: bool) -> Session:
    session = Session(_Proc(), Stats(), batch=0, on_divergence=lambda failure: None)  # type: ignore[arg-type]
    session.state = next(iter(game_steps(6, 1)))[2]
    session._adrift = adrift
    return session


def test_no_observe_is_sent_while_the_implementation_is_out_of_step() -> None:
    _session(adrift=True).check_unchanged()


def test_an_observe_is_sent_when_it_is_in_step() -> None:
    with pytest.raises(_Observed):
        _session(adrift=False).check_unchanged()
