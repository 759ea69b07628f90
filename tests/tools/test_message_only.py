"""Which mutants change only an error message's words (``tools/mutation/message_only.py``).

Each source is one small function; the test lists, for every mutant the
operators make of it, whether it is judged message-only, by the text it
replaces.
"""

from __future__ import annotations

from tools.mutation.message_only import message_only
from tools.mutation.operators import mutants

#: A shortened value read only in messages, a guard that only shortens it, a list of
#: problems read for its truth and its words, and a rule passed beside the message.
SOURCE = '''\
def check(text, limit):
    shown = text if len(text) <= 20 else text[:20] + "…"
    if len(shown) > 30:
        shown = shown[:30]
    problems = []
    if len(text) > limit:
        problems.append(f"{shown} is longer than {limit + 1}")
    if problems:
        raise ValueError("bad: " + "; ".join(problems), "RULE.X")
    return len(text) - 1
'''


def _judged(src: str) -> list[tuple[int, str, bool]]:
    return [(m.line, m.description, message_only(m, src)) for m in mutants(src, "m.py")]


def test_the_words_of_messages_are_message_only_and_the_checks_are_not() -> None:
    assert _judged(SOURCE) == [
        (2, 'len(text) <= 20 -> len(text) < 20', True),
        (2, '20 -> 21', True), (2, '20 -> 19', True),
        (2, 'text[:20] + "…" -> text[:20] - \'…\'', True),
        (2, '20 -> 21', True), (2, '20 -> 19', True),
        (3, 'len(shown) > 30 -> len(shown) >= 30', True),
        (3, '30 -> 31', True), (3, '30 -> 29', True),
        # a whole statement replaced: a name never assigned, a raise that no longer happens
        (4, 'shown = shown[:30] -> pass', False),
        (4, '30 -> 31', True), (4, '30 -> 29', True),
        # what decides whether it raises, or what it returns, is never message-only
        (6, 'len(text) > limit -> len(text) >= limit', False),
        (7, 'problems.append(f"{shown} is longer than {limit + 1}") -> pass', False),
        (9, 'raise ValueError("bad: " + "; ".join(problems), "RULE.X") -> pass', False),
        (9, '"bad: " + "; ".join(problems) -> \'bad: \' - \'; \'.join(problems)', True),
        (10, 'len(text) - 1 -> len(text) + 1', False),
        (10, '1 -> 2', False), (10, '1 -> 0', False),
    ]


def test_a_violation_s_rule_is_not_its_words() -> None:
    src = ('def f(seat, rule):\n'
           '    raise IllegalAction((Violation(rule + "", "seat " + str(seat + 1)),))\n')
    assert _judged(src) == [
        (2, 'rule + "" -> rule - \'\'', False),
        (2, '"seat " + str(seat + 1) -> \'seat \' - str(seat + 1)', True),
        (2, 'seat + 1 -> seat - 1', True), (2, '1 -> 2', True), (2, '1 -> 0', True),
    ]
