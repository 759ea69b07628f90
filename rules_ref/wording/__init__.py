"""Words every message shares: counted nouns ("1 card", "2 cards", never
"2 card(s)"), the kind of a JSON value, and bad input quoted back.

Every message a person reads that counts something goes through :func:`counted`,
says what kind of value it got with :func:`json_kind`, and quotes a value
back with :func:`brief`, so the engine, the checks and the command line say
it the same way.

The package holds the other words every reader shares:

* :mod:`~rules_ref.wording.suggest`: did you mean, for a mistyped name of a closed set;
* :mod:`~rules_ref.wording.tricks`: what a trick decided and what follows it, as the
  play log and the site's drawn tricks say it.
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


def json_kind(value: object) -> str:
    """What a JSON value is, as a message says what it got instead: "a list", "null".

    >>> json_kind([]), json_kind(None), json_kind("x"), json_kind(True), json_kind(2.5)
    ('a list', 'null', 'a string', 'a boolean', 'a number')
    """
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


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
