"""Observations: what the adapter protocol compares after every action.

:func:`observe` computes, from a reference state, the observation an
implementation must report (``spec/protocol.md``, message ``observation``).
The reference adapter sends it; the runners compare it field by field.
:func:`observation_problems` checks the shape of an observation received
from an implementation: a wrong shape is an adapter fault, not a rules
disagreement.
"""

from __future__ import annotations

from typing import Any

from ..cards import CARDS, Card
from ..deal import MAX_PLAYERS, hand_size
from ..state import GameState
from ..state_parts import IN_DEAL, PLAYING, SCORED, Phase
from ..tricks import TrickOutcome
from ..wording import json_brief

PROTOCOL_NAME = "cancellation-hearts-adapter"
#: The newest protocol version, and every version the runner speaks.
PROTOCOL_VERSION = 2
PROTOCOL_VERSIONS = (1, 2)

#: The fields of an observation, in the order they are compared.
FIELDS = ("phase", "deal_number", "dealer", "to_act", "waiting_for", "legal", "hands",
          "trick_number", "leader", "trick", "hearts_broken", "last_trick", "pending",
          "points", "deal_scores", "totals", "winners")

#: The values of ``phase``.
PHASES = tuple(str(p) for p in Phase)

#: Every card in canonical notation, indexed by the card's canonical index.
CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)
_CARD_SET = frozenset(CARD_TEXT)
#: What a legal list may hold: cards, or the moon choices.
_LEGAL_SET = _CARD_SET | {"subtract", "add"}
_LAST_TRICK_KEYS = frozenset(("number", "leader", "cards", "winner"))


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [CARD_TEXT[c] for c in cards]


def _last_number(state: GameState) -> int:
    """The number of the deal's most recent complete trick.

    While playing, the trick before the current one; after the last trick
    (moon choice, game over), the deal's last trick. A game started from a
    position records no earlier tricks, so the number comes from the trick
    count, not from the tricks recorded.
    """
    if state.phase is Phase.PLAYING:
        return state.trick_number - 1
    return hand_size(state.players)


def _last_trick_of(state: GameState, last: TrickOutcome) -> dict[str, Any]:
    """The ``last_trick`` field of ``state``, whose most recent complete trick is ``last``."""
    return {"number": _last_number(state), "leader": last.leader, "cards": _texts(last.cards),
            "winner": last.winner}


def _pending(state: GameState) -> list[str]:
    """The ``pending`` field of ``state`` in a deal: the cards set aside, in canonical order."""
    return [CARD_TEXT[c] for c in sorted(state.pending)]


def _points(state: GameState) -> list[int] | None:
    """The ``points`` field of ``state``: each seat's card points, once a deal has begun."""
    return list(state.current_points()) if state.collected else None


def _frame(state: GameState) -> dict[str, Any]:
    """Every field of the observation of ``state`` that its parts and its phase decide.

    The fields of the state's own (the seat to act, the seats waiting, the
    legal cards, the hands, the trick) are left at their value outside a
    deal, for :func:`_fill_own`; the order of the fields is :data:`FIELDS`'s.
    """
    phase = state.phase
    playing = phase is PLAYING
    game = state.game
    last = state.tricks[-1] if state.tricks and phase is not Phase.DEALING else None
    if phase in SCORED and game.deal_results:
        deal_scores: list[int] | None = list(game.deal_results[-1].scores)
    else:
        deal_scores = None
    return {
        "phase": phase.value,
        "deal_number": state.deal_number,
        "dealer": state.dealer,
        "to_act": None,
        "waiting_for": [],
        "legal": None,
        "hands": None,
        "trick_number": state.trick_number if playing else None,
        "leader": state.leader if playing else None,
        "trick": [],
        "hearts_broken": state.hearts_broken,
        "last_trick": None if last is None else _last_trick_of(state, last),
        "pending": _pending(state) if phase in IN_DEAL else [],
        "points": _points(state),
        "deal_scores": deal_scores,
        "totals": list(game.totals),
        "winners": list(game.winners),
    }


def _fill_own(obs: dict[str, Any], state: GameState,
              known: tuple[tuple[tuple[Card, ...], ...], list[list[str]]] | None = None
              ) -> list[int]:
    """Fill in ``obs`` the fields of ``state``'s own: the seat to act or the seats waiting,
    the legal cards, the hands and the trick; return the seats whose hand it wrote again.

    ``known``: hands and their text lists, one for one; a hand of ``state``
    that is one of them (the same object) takes its text list (shared,
    read-only).
    """
    phase = state.phase
    if phase is PLAYING:
        obs["to_act"] = state.to_act
        obs["legal"] = _texts(state.legal_plays())
        obs["trick"] = _texts(state.trick)
    elif phase is Phase.PASSING:
        obs["waiting_for"] = list(state.waiting_for)
    else:
        obs["to_act"] = state.to_act
        if phase is Phase.MOON_CHOICE:
            obs["legal"] = [str(a.choice) for a in state.legal_actions()]  # type: ignore[union-attr]
    if phase not in IN_DEAL:
        return []
    hands = state.hands
    if known is None or len(known[0]) != len(hands):
        obs["hands"] = [_texts(h) for h in hands]
        return list(range(len(hands)))
    old, texts = known
    written = [seat for seat, hand in enumerate(hands) if hand is not old[seat]]
    if written:
        texts = texts.copy()
        for seat in written:
            texts[seat] = _texts(hands[seat])
    obs["hands"] = texts
    return written


def observe(state: GameState) -> dict[str, Any]:
    """The observation of ``state``, as JSON data (``spec/protocol.md``).

    Made whole from the state; :func:`observe_change` makes the next one from
    it, after a step.
    """
    obs = _frame(state)
    _fill_own(obs, state)
    return obs


#: Each seat as the text a changes answer's ``hands`` names it by.
_SEAT_TEXT = tuple(str(seat) for seat in range(MAX_PLAYERS))
#: The fields of an observation read from the state's own fields (:func:`_fill_own`).
_OWN_FIELDS = ("to_act", "waiting_for", "legal", "hands", "trick")


def observe_change(previous: dict[str, Any], before: GameState, after: GameState
                   ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The observation of ``after``, one step after ``before``, whose observation is
    ``previous`` (:func:`observe`'s, or this function's), and the fields of its
    ``changes`` answer (:func:`changes_between`). Equal to ``observe(after)`` and
    ``changes_between(previous, observe(after))``.

    Most steps change a few fields. A card played that leaves a trick to play
    (most steps) is made from what a play can change (:func:`_played`). A pass
    before the last leaves the state's game and deal parts, its phase and its
    pending pile as they were, and with them every field they decide
    (:func:`_frame`), which are kept from ``previous``: only the fields of the
    state's own are made again, and of the hands only those that changed.
    Any other step is made whole and compared. The lists kept are shared
    with ``previous``, read-only.
    """
    if after.phase is PLAYING and before.phase is PLAYING and after.game is before.game:
        return _played(previous, before, after)
    texts = previous["hands"]
    if not (after.game is before.game and after.deal is before.deal
            and after.phase is before.phase and after.pending is before.pending):
        obs = _frame(after)
        _fill_own(obs, after, None if texts is None else (before.hands, texts))
        return obs, changes_between(previous, obs)
    obs = previous.copy()
    written = _fill_own(obs, after, None if texts is None else (before.hands, texts))
    changes = {}
    for name in _OWN_FIELDS:
        value = obs[name]
        if value is not previous[name] and value != previous[name]:
            changes[name] = value
    if "hands" in changes:
        hands = obs["hands"]
        changes["hands"] = {_SEAT_TEXT[seat]: hands[seat] for seat in written
                            if hands[seat] != texts[seat]}
    return obs, changes


def _played(previous: dict[str, Any], before: GameState, after: GameState
            ) -> tuple[dict[str, Any], dict[str, Any]]:
    """:func:`observe_change` of a card played that leaves a trick to play, the step most
    steps are: a copy of ``previous`` (and of its list of hands) made the observation of
    ``after`` by :func:`_play_into`."""
    obs = previous.copy()
    obs["hands"] = previous["hands"].copy()
    return obs, _play_into(obs, before, after)


def _play_into(obs: dict[str, Any], before: GameState, after: GameState) -> dict[str, Any]:
    """Make ``obs``, the observation of ``before``, that of ``after``, a card played that
    leaves a trick to play, in place; return the fields of its ``changes`` answer.

    Such a play changes the trick, the hand of the seat that played it (the
    seat to act before it) and no other, and with the seat to act, maybe its
    legal cards. When it ends a trick (the deal's part of the state is
    another) it may change as well what the deal's tricks decide: the trick's
    number and leader, the last trick, the cards set aside, the points, and
    whether hearts are broken; the game's part and the phase stay. Each field
    is compared as the state holds it (the cards, not their text) where it
    can be, and made as text only when it changed. Each field changed gets a
    new value (the list of hands, one new hand): no list of ``obs`` is changed
    but that one, which must be its own.
    """
    changes: dict[str, Any] = {}
    if after.deal is not before.deal:
        tricks = after.tricks
        for name, value in (("trick_number", after.trick_number), ("leader", after.leader),
                            ("hearts_broken", after.hearts_broken),
                            ("last_trick", _last_trick_of(after, tricks[-1]) if tricks else None),
                            ("pending", obs["pending"] if after.pending is before.pending
                             else _pending(after)),
                            ("points", _points(after))):
            if value != obs[name]:
                obs[name] = changes[name] = value
    mover = obs["to_act"]
    seat = after.to_act
    if seat != mover:
        obs["to_act"] = changes["to_act"] = seat
    legal = after.legal_plays()
    if legal != before.legal_plays():
        obs["legal"] = changes["legal"] = _texts(legal)
    # the card played: the trick's last, or the last of the trick it ended
    trick = after.trick
    card = CARD_TEXT[trick[-1] if trick else after.tricks[-1].cards[-1]]
    if trick:  # the card joined the trick: its text joins the trick's
        obs["trick"] = changes["trick"] = [*obs["trick"], card]
    elif before.trick:
        obs["trick"] = changes["trick"] = []
    # the hand that played it, as the one before without one copy of it
    hands = obs["hands"]
    hand = hands[mover] = hands[mover].copy()
    hand.remove(card)
    changes["hands"] = {_SEAT_TEXT[mover]: hand}
    return changes


def advance(obs: dict[str, Any], before: GameState, after: GameState) -> dict[str, Any]:
    """Make ``obs``, the observation of ``before``, that of ``after``, one step later, in
    place; return the fields of the step's ``changes`` answer (:func:`changes_between`).

    For a caller that keeps one observation, the latest, and reads none of
    those before it (the runner's reference, whose answers are compared
    with the changes): a card play is made in ``obs`` itself
    (:func:`_play_into`), where :func:`observe_change` makes a copy. ``obs``
    and its list of hands must be the caller's own: the lists of the
    changes are new, or shared with ``obs`` and never changed after.
    """
    if after.phase is PLAYING and before.phase is PLAYING and after.game is before.game:
        return _play_into(obs, before, after)
    new, changes = observe_change(obs, before, after)
    obs.clear()
    obs.update(owned_copy(new))
    return changes


def owned_copy(obs: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``obs`` with a list of hands of its own, which :func:`advance` may change
    without changing ``obs`` (the other lists are never changed, only replaced)."""
    hands = obs["hands"]
    return dict(obs) if hands is None else {**obs, "hands": list(hands)}


def changes_between(previous: dict[str, Any], obs: dict[str, Any]) -> dict[str, Any]:
    """The fields of the ``changes`` answer (``spec/protocol.md``) that makes ``obs`` of
    ``previous``: each field whose value differs, ``hands`` as an object from the seats
    (as text) whose hand differs to their hands (``type`` aside).

    A field ``obs`` shares with ``previous`` (:func:`observe_change` keeps the lists of
    the fields it did not make again) is the same object: no need to compare it.
    """
    out: dict[str, Any] = {}
    for name, value in obs.items():
        old = previous.get(name)
        if value is old or value == old or name == "type":
            continue
        if name == "hands" and type(value) is list and type(old) is list \
                and len(value) == len(old):
            out[name] = {str(seat): hand for seat, hand in enumerate(value)
                         if hand is not old[seat] and hand != old[seat]}
        else:
            out[name] = value
    return out


# --- shape checks -----------------------------------------------------------------------------


def _is_int(x: object) -> bool:
    return type(x) is int


# The list checks run on every answer an adapter sends, so they ask C, not Python, to
# look at each item: the set of the items' types, and a superset test (an unhashable
# item, which no card text is, raises TypeError).
_ONLY_INT = frozenset((int,))
_ONLY_STR = frozenset((str,))


def _int_list(x: object) -> bool:
    return type(x) is list and _ONLY_INT.issuperset(map(type, x))


def _texts_in(x: object, allowed: frozenset[str]) -> bool:
    """``x`` is a list of strings, each one of ``allowed``."""
    if type(x) is not list:
        return False
    try:
        return allowed.issuperset(x) and _ONLY_STR.issuperset(map(type, x))
    except TypeError:
        return False


def _card_list(x: object) -> bool:
    return _texts_in(x, _CARD_SET)


def _opt(check: Any) -> Any:
    return lambda x: x is None or check(x)


def _last_trick(x: object) -> bool:
    if x is None:
        return True
    return (type(x) is dict and x.keys() == _LAST_TRICK_KEYS and _is_int(x["number"])
            and _is_int(x["leader"]) and _card_list(x["cards"])
            and (x["winner"] is None or _is_int(x["winner"])))


def _legal(x: object) -> bool:
    return x is None or _texts_in(x, _LEGAL_SET)


def _hands(x: object) -> bool:
    return x is None or (type(x) is list and all(_card_list(h) for h in x))


_CHECKS: dict[str, tuple[Any, str]] = {
    "phase": (lambda x: x in PHASES, "one of " + ", ".join(PHASES)),
    "deal_number": (_is_int, "an integer"),
    "dealer": (_is_int, "an integer"),
    "to_act": (_opt(_is_int), "an integer or null"),
    "waiting_for": (_int_list, "a list of integers"),
    "legal": (_legal, "null or a list of cards in canonical notation (or moon options)"),
    "hands": (_hands, "null or a list of hands, each a list of cards in canonical notation"),
    "trick_number": (_opt(_is_int), "an integer or null"),
    "leader": (_opt(_is_int), "an integer or null"),
    "trick": (_card_list, "a list of cards in canonical notation"),
    "hearts_broken": (lambda x: type(x) is bool, "true or false"),
    "last_trick": (_last_trick, 'null or {"number", "leader", "cards", "winner"}'),
    "pending": (_card_list, "a list of cards in canonical notation"),
    "points": (_opt(_int_list), "null or a list of integers"),
    "deal_scores": (_opt(_int_list), "null or a list of integers"),
    "totals": (_int_list, "a list of integers"),
    "winners": (_int_list, "a list of integers"),
}


def observation_problems(obs: dict[str, Any]) -> list[str]:
    """What is wrong with the shape of an observation (without ``id`` and ``type``).

    Empty when every field of ``spec/protocol.md`` is present with a value of
    the right type and nothing else is there. Values are not judged: that
    is the comparison with the reference.
    """
    missing = [f for f in FIELDS if f not in obs]
    return ([f"missing field(s) {', '.join(missing)}"] if missing else []) + _fields_problems(obs)


def _fields_problems(fields: dict[str, Any]) -> list[str]:
    """What is wrong with the fields present: unknown ones, and values of the wrong type."""
    problems = []
    unknown = sorted(str(k) for k in fields if k not in _CHECKS)
    if unknown:
        problems.append("unknown field(s) " + ", ".join(unknown))
    for name, (check, expected) in _CHECKS.items():
        if name in fields and not check(fields[name]):
            problems.append(f"{name} must be {expected}, got {json_brief(fields[name], 80)}")
    return problems


#: The fields of integers (or null) and of lists of integers (or null), beside
#: ``hearts_broken`` (true or false) and ``last_trick``'s numbers: the only places where
#: a value can equal one of another kind (``1 == true``, ``0 == false`` in Python).
_INTEGER_FIELDS = ("deal_number", "dealer", "to_act", "trick_number", "leader")
_INTEGER_LIST_FIELDS = ("waiting_for", "points", "deal_scores", "totals", "winners")


def problems_of_equal(obs: dict[str, Any]) -> list[str]:
    """:func:`observation_problems` of an observation equal (``==``) to a well-formed one.

    Equal JSON values have the same kinds, the same keys and the same texts,
    except where a number equals true or false. So only the integers and
    ``hearts_broken`` can be wrong, and they are looked at first (a fifth of
    the time of every check, at 8 players); when one is wrong, the words are
    :func:`observation_problems`'s own.
    """
    return observation_problems(obs) if _kind_swapped(obs) else []


def changes_problems_of_equal(changes: dict[str, Any]) -> list[str]:
    """:func:`changes_problems` of the fields of a ``changes`` answer equal (``==``) to
    well-formed ones: as :func:`problems_of_equal`, only the integers and true or false of
    the fields present are looked at."""
    return changes_problems(changes) if _kind_swapped(changes) else []


def _kind_swapped(fields: dict[str, Any]) -> bool:
    """True if a field present in ``fields`` holds a value of another kind than its own that
    equals one of its own: a number where true or false belongs, or the reverse."""
    for name in _INTEGER_FIELDS:
        value = fields.get(name)
        if value is not None and type(value) is not int:
            return True
    for name in _INTEGER_LIST_FIELDS:
        value = fields.get(name)
        if value is not None and not _ONLY_INT.issuperset(map(type, value)):
            return True
    last = fields.get("last_trick")
    return type(fields.get("hearts_broken", False)) is not bool or (last is not None and not (
        type(last["number"]) is int and type(last["leader"]) is int
        and (last["winner"] is None or type(last["winner"]) is int)))


def changes_problems(changes: dict[str, Any]) -> list[str]:
    """What is wrong with the shape of the fields of a ``changes`` answer (without ``id``,
    ``type`` and ``index``): as :func:`observation_problems`'s, of the fields it holds, its
    ``hands`` an object from seats to hands or the whole list."""
    fields = changes
    hands = changes.get("hands")
    if type(hands) is dict:
        fields = {**changes, "hands": list(hands.values())}
    return _fields_problems(fields)
