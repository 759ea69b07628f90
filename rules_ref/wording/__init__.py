"""Words every message shares: counted nouns ("1 card", "2 cards", never
"2 card(s)"), a pass direction, a switch value, the kind of a JSON value, and bad input
quoted back.

Every message a person reads that counts something goes through :func:`counted`,
names the way a pass goes with :func:`direction_words`, writes a switch's value
with :func:`switch_value`, says what kind of value it got with :func:`json_kind`,
and quotes a value back with :func:`brief` (what an adapter wrote, as JSON, with
:func:`json_brief`), so the engine, the checks, the findings and the command line
say it the same way.

The package holds the other words every reader shares:

* :mod:`~rules_ref.wording.suggest`: did you mean, for a mistyped name of a closed set;
* :mod:`~rules_ref.wording.tricks`: what a trick decided and what follows it, as the
  play log and the site's drawn tricks say it;
* :mod:`~rules_ref.wording.slips`: what an implementation does when it plays a rule
  otherwise (a common slip, another value of a switch), and the deals that trigger its
  internal errors, as the findings say it.
"""

from __future__ import annotations

#: Nouns whose plural is not the noun with an "s".
_IRREGULAR = {"match": "matches", "pass": "passes", "class": "classes"}


def plural(noun: str, n: int) -> str:
    """*noun* as it reads after the number *n*.

    >>> plural("card", 1), plural("card", 2), plural("pass", 0)
    ('card', 'cards', 'passes')
    """
    if n == 1:
        return noun
    head, _, last = noun.rpartition(" ")
    word = _IRREGULAR.get(last, last + "s")
    return f"{head} {word}" if head else word


def counted(n: int, noun: str) -> str:
    """The number and the noun that agrees with it.

    >>> counted(1, "set-aside trick"), counted(8, "card"), counted(0, "violation")
    ('1 set-aside trick', '8 cards', '0 violations')
    """
    return f"{n} {plural(noun, n)}"


def direction_words(offset: int | None, players: int) -> str:
    """Where a pass goes, as a player says it (``PASS.DIRECTION``).

    ``offset`` is the number of seats to the left the pass travels (the
    receiver is seat + offset, mod ``players``), ``None`` when nobody passes.
    One seat either way is "to the left" or "to the right" and half the table
    at an even count is "across", the names of ``spec/variants.toml``; any
    other offset is counted the shorter way round the table: "2 seats to the
    right" (``right-2``), never "5 seats to the left", at 7 players. At an odd
    count no seat is opposite, and the two seats nearest to it are equally far
    each way: the one ``across`` names (⌊n/2⌋ seats to the left) is "across (3
    seats to the left)" at 7 players, and the other is "3 seats to the right".

    >>> [direction_words(k, 8) for k in (1, 2, 4, 5, 7)]
    ['to the left', '2 seats to the left', 'across', '3 seats to the right', 'to the right']
    >>> direction_words(3, 7), direction_words(4, 7), direction_words(None, 7)
    ('across (3 seats to the left)', '3 seats to the right', 'nowhere')
    """
    if offset is None:
        return "nowhere"
    offset %= players
    if offset == 0:
        return "to the passer itself"
    if offset == 1:
        return "to the left"
    if offset == players - 1:
        return "to the right"
    if offset == players // 2:
        return "across" if players % 2 == 0 else f"across ({counted(offset, 'seat')} to the left)"
    if offset < players - offset:
        return f"{counted(offset, 'seat')} to the left"
    return f"{counted(players - offset, 'seat')} to the right"


def switch_value(value: object) -> str:
    """A switch value as ``spec/variants.toml`` writes it: a list of steps joined by commas,
    anything else as its text (an enum's value, a number).

    >>> switch_value(["left", "right"]), switch_value(-10), switch_value("two-of-clubs")
    ('left,right', '-10', 'two-of-clubs')
    """
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def json_kind(value: object) -> str:
    """What a JSON value is, as a message says what it got instead: "a list", "null".

    >>> json_kind([]), json_kind(None), json_kind("x"), json_kind(True), json_kind(2.5)
    ('a list', 'null', 'a string', 'a boolean', 'a number')
    """
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def json_syntax(message: str) -> str:
    """A syntax error of ``json`` (``JSONDecodeError.msg``), ready for its place.

    json ends some messages in "at" where the place would follow, so every message that
    adds its own place ("at line 1 column 12") takes the error's words from here.

    >>> json_syntax("Unterminated string starting at"), json_syntax("Expecting value")
    ('Unterminated string starting', 'Expecting value')
    """
    return message.removesuffix(" at")


def json_brief(value: object, limit: int = 40) -> str:
    """A JSON value as JSON text cut to ``limit`` characters, as a message quotes back what an
    adapter wrote (its type's name when it is no JSON value).

    >>> json_brief("left"), json_brief([1, None]), json_brief("x" * 50, 10)
    ('"left"', '[1, null]', '"xxxxxxxxx…')
    """
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):  # no JSON value, or nested too deeply
        text = type(value).__name__
    return text if len(text) <= limit else text[:limit] + "…"


def brief(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, as a message quotes bad input back.

    >>> brief("x" * 50)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"
    """
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # a value nested too deeply, an integer too long
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "…"


__all__ = ["brief", "counted", "direction_words", "json_brief", "json_kind", "json_syntax",
           "plural", "switch_value"]
