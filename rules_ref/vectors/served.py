"""Cases built for the values a correct engine of one ruleset would leave untested.

A correct engine of a single non-default value of ``spec/variants.toml``
(:func:`.shares.single_values`, protocol version 1, no positions) must be able
to pass ``rules-ref vectors run``: every value it declares that some case tests
must be tested by a case it is sent. The hand-built cases stand on the
default rules and the presets; rebuilt routes (:mod:`.route`) and re-scored
figures (:mod:`.rescore`) carry most of them to another ruleset, but not a
case whose game that value changes (a moon dealt under the default opening
lead, say, is another game under a 2♣ opening lead).

:func:`complete` closes that gap: for each such engine and each value its run
would leave untested, it builds a case of the same scenario under the
engine's own ruleset (:data:`BUILDERS`: a deal played out at a player count,
a moon, two seats sharing every point, a pass of the 2♣), and repeats until
no engine's run leaves a value untested that a builder can serve. Each built
case states the value it was built for in its id
(``moon/choice-subtract-for-opening-lead-two-of-clubs-p8``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..actions import MoonChoice
from ..cards import TWO_OF_CLUBS
from ..passing import pass_direction, pass_offset, passable
from ..ruleset import Ruleset
from .endings import end_case, moon_deal, played
from .files import PROTOCOL_KINDS, Case
from .kinds.moon import shared_points
from .kinds.passing import passing_case
from .position_forms import with_position_forms
from .proof import with_proofs
from .requirements import with_analysis
from .running import coverage
from .scenario import seeded, texts
from .shares import correct_run, engine, label, single_values

Json = Any
#: Builds a case for an engine (its ruleset, its changes from the defaults) that tests a
#: value (the second argument) of a switch; ``None`` when it cannot.
Builder = Callable[[Ruleset, Json, dict[str, Json]], "tuple[str, Case] | None"]

#: How many rounds :func:`complete` builds at most: the cases of one round can leave values
#: of other engines untested (a case an engine is not sent still holds a value).
ROUNDS = 3


def slug(changes: dict[str, Json]) -> str:
    """The engine's values as an id's words: ``opening-lead-two-of-clubs``."""
    return "-".join(f"{k}-{'-'.join(map(str, v)) if isinstance(v, list) else v}"
                    for k, v in changes.items()).replace("_", "-").lower()


def _players(ruleset: Ruleset, n: Json, changes: dict[str, Json]) -> tuple[str, Case] | None:
    """A seeded deal of ``n`` players played out by the built-in player."""
    sc = played(int(n), ruleset, 300 + int(n))
    return "scoring", end_case(sc, "scoring", f"ordinary-for-{slug(changes)}-p{n}",
                               f"Under {label(changes)}, an ordinary {n}-player deal played "
                               "to its end.",
                               ["SCORE.CARD_POINTS", "SCORE.DEAL", "EXTRAS.FIRST_TRICK"])


def _moon(ruleset: Ruleset, value: Json, changes: dict[str, Json]) -> tuple[str, Case] | None:
    """Seat 1 takes every trick (:func:`.endings.moon_deal`) and, when it may, chooses."""
    choice = MoonChoice.SUBTRACT if value == "choice-26" else None
    words = f"chooses {choice}" if choice else f"scores as moon {value} says"
    return "moon", end_case(moon_deal(ruleset), "moon",
                            f"{'choice-subtract' if choice else 'moon'}-for-{slug(changes)}-p8",
                            f"Under {label(changes)}, seat 1 collects every heart and both QS "
                            f"and {words}.", ["MOON.CONDITION", "MOON.CHOICE", "SCORE.DEAL"],
                            moon=choice)


def _moon_pair(ruleset: Ruleset, value: Json, changes: dict[str, Json],
               ) -> tuple[str, Case] | None:
    """Seats 1 and 2 collect every point between them (:func:`.kinds.moon.shared_points`)."""
    return "scoring", end_case(shared_points(ruleset), "scoring",
                               f"two-seats-all-points-for-{slug(changes)}-p8",
                               f"Under {label(changes)}, seats 1 and 2 collect every heart "
                               "and both QS between them.",
                               ["MOON.CONDITION", "SCORE.CARD_POINTS", "SCORE.DEAL"])


def _pass_forbidden(ruleset: Ruleset, value: Json, changes: dict[str, Json],
                    ) -> tuple[str, Case] | None:
    """The first deal that passes, in which a seat holding a 2♣ passes it when it may."""
    deal = next((d for d in range(1, len(ruleset.pass_cycle) + 1)
                 if pass_offset(pass_direction(d, ruleset), 6) is not None), None)
    if deal is None:
        return None
    sc = seeded(6, ruleset, 310, deal_number=deal)
    seat = next(s for s, hand in enumerate(sc.state.hands) if TWO_OF_CLUBS in hand)
    may = passable(sc.state.hands[seat], ruleset)
    others = [c for c in may if c != TWO_OF_CLUBS]
    take = [TWO_OF_CLUBS, *others[:ruleset.pass_count - 1]] if TWO_OF_CLUBS in may \
        else others[:ruleset.pass_count]
    return "passing", passing_case(
        f"two-of-clubs-for-{slug(changes)}-p6", f"Under {label(changes)}, seat {seat} passes "
        f"{' '.join(texts(take))} in deal {deal}.", sc,
        ("PASS.CARDS", "PASS.DIRECTION", "PASS.EXCHANGE"), take={seat: " ".join(texts(take))})


#: Each switch (or ``"players"``, a player count) -> what builds a case that tests a value of
#: it under an engine's ruleset.
BUILDERS: dict[str, Builder] = {
    "players": _players,
    "moon": _moon,
    "moon_pair": _moon_pair,
    "pass_forbidden": _pass_forbidden,
}


def build(switch: str, value: Json, changes: dict[str, Json]) -> tuple[str, Case] | None:
    """A case (and its kind) that tests ``switch`` at ``value`` (``"players"``: a player count)
    under the ruleset of ``changes``; ``None`` when no builder serves the switch."""
    builder = BUILDERS.get(switch)
    return None if builder is None else builder(Ruleset.from_dict(changes), value, changes)


def complete(files: dict[str, list[Case]]) -> dict[str, list[Case]]:
    """``files`` (kind -> its analysed cases, position-start forms included) with the cases
    built for what a correct engine of each single value would leave untested.

    The built cases come after each kind's own, in the order the engines and
    their values are listed; each is proven, analysed and has its position-start form.
    """
    out = {kind: list(cases) for kind, cases in files.items()}
    tried: set[str] = set()
    for _ in range(ROUNDS):
        pairs = [(kind, case) for kind, cases in out.items() if kind in PROTOCOL_KINDS
                 for case in cases]
        built: list[tuple[str, Case]] = []
        for changes in single_values():
            result = correct_run(pairs, engine(Ruleset.from_dict(changes), 1))
            for switch, value in coverage(result).untested:
                key = f"{label(changes)}/{switch}/{value}"
                if key in tried:
                    continue
                tried.add(key)
                made = build(switch, value, changes)
                if made is not None:
                    built.append(made)
        if not built:
            break
        for kind in dict.fromkeys(k for k, _ in built):
            new = [c for k, c in built if k == kind]
            out[kind] = [*out[kind], *with_analysis(kind, with_proofs(
                kind, with_position_forms(kind, new)))]
    return out

