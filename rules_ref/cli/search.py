"""Finding rules by words: statements, titles and the common names of ``spec/glossary.toml``.

:func:`search` ranks rules for a query such as ``black maria`` or
``pending pile``: a common name (or alias) leads to the rules the glossary
lists for it, first; then rules whose title, ID or statement hold the
words. :func:`similar_ids` ranks rule IDs by their likeness to a mistyped
one, for "did you mean" hints.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .. import registry

_WORD = re.compile(r"[\w♠♥♦♣]+")
#: Words too common to count as a match on their own (the site's search reads them too).
STOPWORDS = frozenset({"a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in",
                        "is", "it", "of", "on", "or", "the", "to", "with"})


def words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


def _phrase(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


@dataclass(frozen=True, slots=True)
class Hit:
    rule: registry.Rule
    score: float
    why: str  # what matched, for people


def _word_in(word: str, haystack: list[str]) -> bool:
    """A query word matches a word of the text it starts (``cancel`` matches ``cancelled``)."""
    return any(h.startswith(word) or (len(h) >= 4 and word.startswith(h)) for h in haystack)


def search(query: str) -> list[Hit]:
    """The rules matching ``query``, best first; empty when nothing matches."""
    reg = registry.load()
    phrase = _phrase(query)
    tokens = words(query) or phrase.split()
    if not tokens:
        return []
    # a rule's rank: first its best common-name match, then how well its own text matches
    named: dict[str, float] = {}
    text: dict[str, float] = {}
    reasons: dict[str, str] = {}

    def add(rule_id: str, score: float, why: str) -> None:
        if why.startswith("common name"):
            if named.get(rule_id, 0.0) < score:
                named[rule_id] = score
                reasons[rule_id] = why
        else:
            text[rule_id] = score
            reasons.setdefault(rule_id, why)

    for term in registry.glossary():
        names = (term.term, *term.aliases)
        exact = [n for n in names if _phrase(n) == phrase]
        if exact:
            strength = 100.0
        else:
            name_words = [w for n in names for w in words(n)]
            if not all(_word_in(t, name_words) for t in tokens):
                continue
            strength = 60.0
        for rank, rule_id in enumerate(term.rules):
            add(rule_id, strength - rank, f"common name: {term.term}")

    for rule in reg.rules:
        title = words(rule.title)
        ident = words(rule.id.replace(".", " ").replace("_", " "))
        statement = words(rule.statement)
        matched = [t for t in tokens if _word_in(t, title + ident + statement)]
        if len(matched) < len(tokens):
            continue
        score = 10.0 * len(matched)
        if phrase and phrase in _phrase(rule.title):
            score += 40
            why = "title"
        elif all(_word_in(t, title + ident) for t in tokens):
            score += 25
            why = "title"
        else:
            why = "statement"
        if phrase and phrase in _phrase(rule.statement):
            score += 15
        score += sum(1 for t in tokens for s in statement if s.startswith(t)) * 0.5
        add(rule.id, score, why)

    order = {r.id: i for i, r in enumerate(reg.rules)}
    by_id = reg.by_id()
    found = set(named) | set(text)
    ranked = sorted(found, key=lambda i: (-named.get(i, 0.0), -text.get(i, 0.0), order[i]))
    return [Hit(by_id[i], named.get(i, 0.0) + text.get(i, 0.0), reasons[i]) for i in ranked]


def similar_ids(text: str, limit: int = 3) -> list[str]:
    """Rule IDs most like ``text`` (a mistyped ID), most similar first."""
    wanted = text.strip().upper()
    ids = registry.rule_ids()

    def likeness(rule_id: str) -> float:
        whole = difflib.SequenceMatcher(None, wanted, rule_id).ratio()
        group, _, name = rule_id.partition(".")
        w_group, _, w_name = wanted.partition(".")
        part = difflib.SequenceMatcher(None, w_name or w_group, name).ratio()
        same_group = 0.15 if w_group == group else 0.0
        return max(whole, part) + same_group

    ranked = sorted(ids, key=lambda i: -likeness(i))
    return [i for i in ranked if likeness(i) >= 0.5][:limit]
