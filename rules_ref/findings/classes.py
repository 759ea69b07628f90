"""Findings: every disagreement a run saw, one value per difference.

A *divergence* is one :class:`.failure.Failure` the runner met and played
past. A :class:`Finding` is one difference between the implementation and
the reference, however often it showed: the rule and the switch whose value
decides it there; what differs, in words (what the implementation allows,
forbids or scores that the reference does not, :func:`class_of`); its
facets (:class:`.words.Facet`), the behaviours it showed, each with its
words and an example; its counts and first sighting; its minimal example
and replay file. The key never holds a seat, a deal number, a total or a
field, so the same fault met in many games is one finding. Every report
(text, JSON, Markdown, HTML, ``--merge``) renders the finding's JSON form
(:meth:`Finding.to_json`), and ``--expect`` matches against it: none builds
words of its own. :class:`Findings` counts each finding, keeps its first and
smallest examples for shrinking (:mod:`~rules_ref.conform.shrink`), notes which expectation of
``--expect`` (:mod:`.expect`) covered each occurrence, and merges the
findings of parallel jobs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import RulesRefError
from ..registry import rule as registry_rule
from ..ruleset import Ruleset
from ..wording import counted, switch_value
from ..wording.slips import UNEXPLAINED, error_words
from .alternatives import Alternative, switch_rules
from .expect import Expectation, matching_entry
from .failure import FROM_A_POSITION, REJECTS_A_POSITION, Failure, at_position_start
from .words import Facet, facet_of

#: The words for each kind of action (the ``type`` of an action message).
_ACTION_WORDS = {"play": "play", "pass": "pass", "moon": "moon choice", "deal": "deal"}


def action_kind(failure: Failure) -> str | None:
    """The ``type`` of the failing action (``None``: the start of the game)."""
    action = failure.failing
    kind = action.get("type") if isinstance(action, dict) else None
    return kind if isinstance(kind, str) else None


def _an(kind: str | None, failure: Failure) -> str:
    if kind is None:
        return FROM_A_POSITION if at_position_start(failure.start, None) else \
            "the start of a game"
    word = _ACTION_WORDS.get(kind, kind)
    return f"a {word}"


def _observation_words(rule: str | None) -> str:
    """What differs in an observation, in words true of every facet: the rule's subject.

    One rule's differences in the game are one finding however they show (a
    card allowed here, another forbidden there): its facets say which.
    """
    try:
        title = registry_rule(rule).title if rule else ""
    except (KeyError, RulesRefError):
        title = ""
    if not title:
        return "plays a game that differs from the reference's"
    subject = title[0].lower() + title[1:] if title[1:2].islower() or title[1:2] == " " \
        else title
    return f"differs on {subject}"


def class_of(failure: Failure) -> tuple[str | None, str]:
    """The class of a divergence: (blamed rule ID or ``None``, what differs in words).

    The words are coarse on purpose ("rejects a legal pass", "differs on the
    led suit"), so that one fault met at different tables and cards is one
    finding; its facets (:func:`.words.facet_of`) say what each
    occurrence showed ("rejects a pass that contains 2♣").
    """
    facet = facet_of(failure)
    return _class_of(failure, facet.rule, facet.words)


def _class_of(failure: Failure, rule: str | None, words: str = "") -> tuple[str | None, str]:
    kind = action_kind(failure)
    if failure.kind == "fault":
        what = (failure.fault or {}).get("kind", "fault")
        return None, f"adapter fault ({what}) on {_an(kind, failure)}"
    if failure.kind == "error":
        if words.startswith(error_words("")):  # what triggers it, at a start or a deal
            return rule, words
        return rule, f"reports an internal error on {_an(kind, failure)}"
    actual_type = failure.actual.get("type")
    expected_type = failure.expected.get("type")
    if actual_type == "rejected" and expected_type == "observation":
        if kind is None:
            return rule, (REJECTS_A_POSITION if at_position_start(failure.start, None)
                          else "rejects the start of a game the rules allow")
        return rule, f"rejects a legal {_ACTION_WORDS.get(kind, kind)}"
    if actual_type == "observation" and expected_type == "rejected":
        if kind is None:  # a start the reference refuses (.refused_tables)
            return rule, "accepts a table the rules refuse"
        return rule, f"accepts an illegal {_ACTION_WORDS.get(kind or '', kind or 'action')}"
    if failure.fields or failure.others:
        return rule, _observation_words(rule)
    return rule, failure.summary[:80]


def key_of(rule: str | None, what: str) -> str:
    return f"{rule}: {what}" if rule else what


@dataclass
class Finding:
    """One difference between the implementation and the reference, and what a run saw of it.

    ``what`` is what differs, in words; ``facets`` the behaviours it showed
    (their words the keys), each with its count and first example.
    """

    key: str
    rule: str | None
    rules: list[str]
    what: str
    kind: str
    first: Failure
    first_game: int
    first_seconds: float
    count: int = 0
    games: set[tuple[int, int]] = field(default_factory=set)
    #: The plainest occurrence (fewest changed switches, earliest deal, then fewest actions,
    #: :func:`plainness`): where shrinking starts.
    smallest: Failure | None = None
    #: Occurrences an expectation covered, and the index of the first expectation that did.
    expected_count: int = 0
    expectation: int | None = None
    #: The shrunk minimal example and its replay file (filled in after the search).
    example: Failure | None = None
    replay: str | None = None
    #: How the example was shrunk: "position", "deal", "actions", "start" (the start alone),
    #: "no smaller game shows it", "as found" (the budget ended first), "not reproduced alone".
    shrunk: str = ""
    facets: dict[str, Facet] = field(default_factory=dict)
    #: The smallest occurrence at each player count, for shrinking toward the adapter's most
    #: common count (:meth:`plainest`).
    by_players: dict[int, Failure] = field(default_factory=dict)
    #: Of internal errors: the facts of their moment every occurrence holds
    #: (:func:`.triggers.step_facts`, by name), from which :mod:`.error_causes` names the
    #: trigger; ``None`` for other findings and before the first occurrence.
    facts: frozenset[str] | None = None

    @property
    def expected(self) -> bool:
        return self.count > 0 and self.expected_count == self.count

    @property
    def switch(self) -> str | None:
        """The switch whose value decides the rule where it differs (its first facet's)."""
        return next((f.switch for f in self.facets.values() if f.switch), None)

    def keep_smallest(self, failure: Failure) -> None:
        """Keep ``failure`` if it is the plainest occurrence so far, overall and at its count."""
        if self.smallest is None or plainness(failure) < plainness(self.smallest):
            self.smallest = failure
        players = players_of(failure)
        if players is not None:
            seen = self.by_players.get(players)
            if seen is None or plainness(failure) < plainness(seen):
                self.by_players[players] = failure

    def plainest(self, common: int | None = None) -> Failure:
        """The occurrence shrinking starts from: the plainest game, at ``common`` players
        (the adapter's most common count) where the ruleset is as plain there."""
        found = [self.smallest or self.first, *self.by_players.values()]
        return min(found, key=lambda f: plainness(f, common))

    def add(self, facet: Facet, failure: Failure, game: tuple[int, int] | None = None) -> None:
        seen = self.facets.get(facet.words)
        if seen is None:
            seen = self.facets[facet.words] = facet
            seen.example = failure
        seen.count += 1
        if game is not None:
            seen.games.add(game)

    def take(self, facet: Facet, words: str, switch: str | None) -> None:
        """File ``facet`` of another finding here, as the alternative ``words`` says it."""
        moved = replace(facet, words=words, rule=self.rule, switch=switch, explanation=words,
                        games=set(facet.games))
        seen = self.facets.get(words)
        if seen is None:
            self.facets[words] = moved
        else:
            seen.count += moved.count
            seen.games |= moved.games
        self.count += facet.count
        self.games |= facet.games
        if isinstance(facet.example, Failure):
            self.keep_smallest(facet.example)

    def drop(self, facet: Facet) -> None:
        """Take ``facet`` out of this finding (filed under another): its occurrences, and
        the games only it was met in."""
        del self.facets[facet.words]
        self.count -= facet.count
        rest = list(self.facets.values())
        if all(f.games for f in rest):
            self.games = set().union(*(f.games for f in rest))
        examples = [f.example for f in rest if isinstance(f.example, Failure)]
        if examples and (self.smallest is facet.example or self.first is facet.example):
            self.smallest = min(examples, key=plainness)
            self.by_players = {}
            for failure in examples:
                self.keep_smallest(failure)
            if self.first is facet.example:
                self.first = examples[0]

    def to_json(self) -> dict[str, Any]:
        """The finding as every report renders it (``classes``, spec/protocol.md)."""
        example = self.example or self.smallest or self.first
        out: dict[str, Any] = {
            "key": self.key, "rule": self.rule, "rules": self.rules, "what": self.what,
            "kind": self.kind, "switch": self.switch,
            "facets": [{**f.to_json(), "example": f.example.to_json()
                        if isinstance(f.example, Failure) else None}
                       for f in self.facets.values()],
            "expected": self.expected,
            "expectation": self.expectation if self.expected else None,
            "count": self.count, "games": len(self.games),
            "expected_count": self.expected_count,
            "first_seen": {"game": self.first_game, "seconds": round(self.first_seconds, 3)},
            "example": example.to_json(), "setting": setting_words(example.start),
            "replay": self.replay, "shrunk": self.shrunk or "not shrunk",
        }
        out["words"] = finding_lines(out)
        return out


def players_of(failure: Failure) -> int | None:
    """The player count of a failure's game (None: its start names none)."""
    players = failure.start.get("players") if isinstance(failure.start, dict) else None
    return players if type(players) is int else None


def start_deal(start: dict[str, Any]) -> int:
    """The number of the deal a ``start`` request begins in (1 when it names none)."""
    position = start.get("position")
    number = (position if isinstance(position, dict) else start).get("deal_number")
    return number if type(number) is int else 1


def start_totals(start: dict[str, Any]) -> list[Any]:
    """The totals a ``start`` request begins with (none named: none)."""
    position = start.get("position")
    totals = (position if isinstance(position, dict) else start).get("totals")
    return totals if isinstance(totals, list) else []


def changed_switches(failure: Failure) -> list[str]:
    """The switches of a failure's ruleset that differ from the default, in the ruleset's order."""
    ruleset = failure.start.get("ruleset") if isinstance(failure.start, dict) else None
    if not isinstance(ruleset, dict):
        return []
    return list(Ruleset.changed_in(ruleset))


def plainness(failure: Failure, common: int | None = None) -> tuple[int, int, int, int, int]:
    """How plain a failure's game is, plainest first (:func:`start_plainness`)."""
    return start_plainness(failure.start, failure.actions, common)


def start_plainness(start: dict[str, Any], actions: list[dict[str, Any]],
                    common: int | None = None) -> tuple[int, int, int, int, int]:
    """How plain the game of ``start`` and ``actions`` is, plainest first: switches changed
    from the default, a player count other than ``common`` (the adapter's most common
    count), the number of the deal it ends in (a game begun at deal 6 is five deals from the
    plainest), its actions, totals other than zero at its start."""
    if not isinstance(start, dict):
        start = {}
    ruleset = start.get("ruleset")
    changed = len(Ruleset.changed_in(ruleset)) if isinstance(ruleset, dict) else 0
    players = start.get("players")
    other_count = int(common is not None and players != common)
    deals = sum(1 for a in actions if isinstance(a, dict) and a.get("type") == "deal")
    scored = int(any(t != 0 for t in start_totals(start)))
    return changed, other_count, start_deal(start) + deals, len(actions), scored


def ruleset_words(ruleset: object) -> str:
    """A game's ruleset in plain words: "default rules", or the switches changed from them
    ("default rules except pass_count = 4")."""
    if not isinstance(ruleset, dict):
        return "rules not named"
    changed = [f"{k} = {switch_value(v)}" for k, v in Ruleset.changed_in(ruleset).items()]
    return "default rules except " + ", ".join(changed) if changed else "default rules"


def setting_words(start: dict[str, Any]) -> str:
    """Where a game begins, in plain words: its table, its rules, its deal, its totals when
    not zero ("8 players, default rules, deal 2")."""
    players = start.get("players")
    words = [f"{players} players" if type(players) is int else "no player count named",
             ruleset_words(start.get("ruleset")), f"deal {start_deal(start)}"]
    totals = start_totals(start)
    if any(t != 0 for t in totals):
        words.append("totals " + ", ".join(map(str, totals)))
    return ", ".join(words)


def switch_words(finding: dict[str, Any]) -> str:
    """The switch that decides a finding's rule there, with the reference's value ("" if none)."""
    switch = finding.get("switch")
    if not switch:
        return ""
    example = finding.get("example") if isinstance(finding.get("example"), dict) else {}
    start = example.get("start") if isinstance(example, dict) else None
    ruleset = start.get("ruleset") if isinstance(start, dict) else None
    value = ruleset.get(switch) if isinstance(ruleset, dict) else None
    here = f" (here {switch_value(value)})" if value is not None else ""
    return f"decided by the switch {switch}{here}: rules-ref rules {finding.get('rule')}"


def facet_lines(finding: dict[str, Any]) -> list[str]:
    """What each facet of a finding showed: its words, how often, its seat-and-card sentence,
    and what the implementation does, as the alternative that gives its answer says it
    (or that none does: the rule is then read from the fields that differ)."""
    facets = [f for f in finding.get("facets") or [] if isinstance(f, dict)]
    lines: list[str] = []
    for f in facets:
        words = str(f.get("words", ""))
        explained = explanation_words(finding, f)
        if len(facets) == 1 and words == finding.get("what") and not f.get("detail") and (
                not explained):
            continue  # the finding's own words say it all
        count = f.get("count", 0)
        lines.append(words + (f" ({counted(count, 'time')})" if len(facets) > 1 else ""))
        if f.get("detail"):
            lines.append(f"  {f['detail']}")
        if explained and explained != f"the implementation {words}":
            lines.append(f"  {explained}")
        if f.get("switch") and not _one_switch(finding):
            lines.append(f"  {switch_words({**finding, 'switch': f['switch']})}")
    return lines


def _one_switch(finding: dict[str, Any]) -> bool:
    """Do the facets of a finding that name a switch all name the same one (the finding's)?"""
    facets = [f for f in finding.get("facets") or [] if isinstance(f, dict)]
    return len({f.get("switch") for f in facets if f.get("switch")}) <= 1


def explanation_words(finding: dict[str, Any], facet: dict[str, Any]) -> str:
    """What the implementation does in one facet of a disagreement: the words of the
    alternative that gives its answer, ``UNEXPLAINED`` where none does ("" for a fault or
    an error, and for a summary written before facets said it)."""
    if finding.get("kind") != "disagreement" or facet.get("explanation") is None:
        return ""
    said = facet.get("explanation")
    return f"the implementation {said}" if said else UNEXPLAINED


def finding_lines(finding: dict[str, Any]) -> list[str]:
    """The words of a finding, as every report gives them (text, Markdown, HTML, --merge).

    Its rule and what differs, each facet with its words, and the switch
    whose value decides the rule there; built from the finding's JSON form
    (:meth:`Finding.to_json`), never from words of the report's own.
    """
    lines = [str(finding.get("key", ""))]
    lines += [f"  {line}" for line in facet_lines(finding)]
    switch = switch_words(finding) if _one_switch(finding) else ""
    if switch:
        lines.append(f"  {switch}")
    return lines


class Findings:
    """Every finding a run (or a job) saw, in the order first seen."""

    def __init__(self, expectations: tuple[Expectation, ...] = ()) -> None:
        self.expectations = expectations
        self.classes: dict[str, Finding] = {}
        #: How many occurrences each expectation covered.
        self.matched: list[int] = [0] * len(expectations)

    def __len__(self) -> int:
        return sum(c.count for c in self.classes.values())

    def record(self, failure: Failure, game: int, seconds: float, job: int = 0) -> None:
        facet = facet_of(failure)
        rule, what = _class_of(failure, facet.rule, facet.words)
        key = key_of(rule, what)
        if failure.kind == "error" and facet.facts:
            # one finding per moment's facts until the run names the trigger (.error_causes)
            key = f"{key} [{' '.join(sorted(facet.facts))}]"
        cls = self.classes.get(key)
        if cls is None:
            earlier = self._earlier_cause(facet)
            if earlier is not None:
                cls, facet = earlier
                rule, key = cls.rule, cls.key
        if cls is None:
            cls = Finding(key, rule, list(failure.rules), what, failure.kind,
                          failure, game, seconds, smallest=failure)
            self.classes[key] = cls
        cls.count += 1
        cls.games.add((job, game))
        if failure.kind == "error":
            cls.facts = facet.facts if cls.facts is None else cls.facts & facet.facts
        cls.add(facet, failure, (job, game))
        cls.keep_smallest(failure)
        index = matching_entry(self.expectations, rule, what, facet,
                               failure.fields + failure.others)
        if index is not None:
            cls.expected_count += 1
            self.matched[index] += 1
            if cls.expectation is None:
                cls.expectation = index

    def _earlier_cause(self, facet: Facet) -> tuple[Finding, Facet] | None:
        """A finding already seen whose cause also gives this facet's answer, and the facet
        as that cause says it; None if none.

        One cause, one finding: an answer that two alternatives give alike (a trick
        nobody wins kept by its leader at a deal's end, which hands the leader what
        ``last_trick_void = leader`` would) is filed under the one the run has already
        seen another answer of, not as a finding of its own.
        """
        for alt in facet.alternatives:
            if alt.words == facet.explanation:
                continue
            for cls in self.classes.values():
                if any(f.explanation == alt.words for f in cls.facets.values()):
                    switch = alt.switch if alt.switch and cls.rule in switch_rules(
                        alt.switch) else None
                    return cls, replace(facet, words=alt.words, rule=cls.rule, switch=switch,
                                        explanation=alt.words)
        return None

    def fold(self) -> None:
        """One cause, one finding, whatever order the run met them in: a facet of a
        finding whose answer another alternative also gives, one a finding met in as
        many games or more was named by, is filed under that finding (as that cause
        says it); a finding left with no facet is gone.

        A trick nobody wins that its leader keeps is also a pair of the leader's card
        that does not cancel; a cancelled pair of hearts scored nothing is also each
        heart scored at nothing: where the run has seen that pair stand, or that heart
        scored at nothing, elsewhere, the answer is one more of that finding's. The
        facets met in fewest games are filed first.
        """
        facets = sorted(((f, cls) for cls in self.classes.values() for f in cls.facets.values()),
                        key=lambda fc: (len(fc[0].games), fc[0].count))
        for facet, cls in facets:
            if cls.key not in self.classes or cls.kind != "disagreement":
                continue
            found = self._cause_elsewhere(cls, facet)
            if found is None:
                continue
            into, alt = found
            switch = alt.switch if alt.switch and into.rule in switch_rules(alt.switch) else None
            into.take(facet, alt.words, switch)
            into.expected_count += min(cls.expected_count, facet.count)
            cls.expected_count -= min(cls.expected_count, facet.count)
            cls.drop(facet)
            if not cls.facets:
                del self.classes[cls.key]

    def _cause_elsewhere(self, cls: Finding, facet: Facet) -> tuple[Finding, Alternative] | None:
        """Another finding, met in as many games as ``facet`` or more, one of whose facets
        an alternative of its own rule explains that also gives ``facet``'s answer; and
        that alternative as ``facet`` found it. None if none."""
        for into in self.classes.values():
            if into is cls or into.kind != "disagreement" or into.expected != cls.expected:
                continue
            causes = [a for f in into.facets.values() if f is not facet and f.explanation
                      for a in f.alternatives if a.rule == into.rule]
            if len(into.games) < len(facet.games):
                continue
            alt = next((a for a in facet.alternatives if a.words != facet.explanation
                        and any(a.same_cause(c) for c in causes)), None)
            if alt is not None:
                return into, alt
        return None

    def ordered(self) -> list[Finding]:
        """The findings, the unexpected first; in each group the one met in most games first.

        A single fault shows as one main finding and, now and then, a symptom
        the attribution reads another way: the finding met in the most games
        (then the most often, then the first seen) leads. Findings one cause gives
        are one first (:meth:`fold`).
        """
        self.fold()
        return sorted(self.classes.values(),
                      key=lambda c: (c.expected, -len(c.games), -c.count, c.first_seconds))

    def adopt(self, finding: Finding) -> None:
        """Add ``finding`` (made after the search), each facet matched against the
        expectations."""
        self.classes[finding.key] = finding
        for facet in finding.facets.values():
            index = matching_entry(self.expectations, finding.rule, finding.what, facet, [])
            if index is not None:
                finding.expected_count += facet.count
                self.matched[index] += facet.count
                if finding.expectation is None:
                    finding.expectation = index

    def unexpected(self) -> list[Finding]:
        return [c for c in self.ordered() if not c.expected]

    def not_seen(self) -> list[tuple[int, Expectation]]:
        return [(i, e) for i, e in enumerate(self.expectations) if not self.matched[i]]

    # --- between processes (--jobs) ---

    def to_json(self) -> dict[str, Any]:
        """Every finding with its first and smallest examples, for another process to merge."""
        return {"matched": self.matched, "classes": [
            {"key": c.key, "rule": c.rule, "rules": c.rules, "what": c.what, "kind": c.kind,
             "first": c.first.to_json(), "first_game": c.first_game,
             "first_seconds": c.first_seconds, "count": c.count,
             "games": sorted(c.games), "smallest": (c.smallest or c.first).to_json(),
             "expected_count": c.expected_count, "expectation": c.expectation,
             "by_players": [f.to_json() for f in c.by_players.values()],
             "facts": None if c.facts is None else sorted(c.facts),
             "facets": [{**f.to_json(), "rule": f.rule, "example": f.example.to_json(),
                         "games": sorted(f.games)}
                        for f in c.facets.values()]}
            for c in self.classes.values()]}

    def merge_json(self, data: dict[str, Any], job: int) -> None:
        """Add the findings of job ``job`` (:meth:`Findings.to_json`) to these."""
        for i, n in enumerate(data.get("matched", [])[:len(self.matched)]):
            self.matched[i] += n
        for d in data.get("classes", []):
            first = Failure.from_json(d["first"])
            smallest = Failure.from_json(d["smallest"])
            games = {(job, int(g[1])) for g in d["games"]}
            cls = self.classes.get(d["key"])
            if cls is None:
                cls = self.classes[d["key"]] = Finding(
                    d["key"], d["rule"], list(d["rules"]), d["what"], d["kind"], first,
                    d["first_game"], d["first_seconds"], d["count"], games, smallest,
                    d["expected_count"], d["expectation"])
            else:
                cls.count += d["count"]
                cls.games |= games
                cls.expected_count += d["expected_count"]
                if cls.expectation is None:
                    cls.expectation = d["expectation"]
                if d["first_seconds"] < cls.first_seconds:
                    cls.first, cls.first_game, cls.first_seconds = (first, d["first_game"],
                                                                    d["first_seconds"])
                cls.keep_smallest(smallest)
            for other in d.get("by_players", []):
                cls.keep_smallest(Failure.from_json(other))
            if d.get("facts") is not None:
                facts = frozenset(d["facts"])
                cls.facts = facts if cls.facts is None else cls.facts & facts
            for f in d.get("facets", []):
                seen = cls.facets.get(f["words"])
                facet_games = {(job, int(g[1])) for g in f.get("games", ())}
                if seen is None:
                    example = Failure.from_json(f["example"])
                    cls.facets[f["words"]] = Facet(
                        f["words"], f["detail"], f["rule"], f["switch"], f["step"],
                        tuple(f["cards"]), f["count"], example, f.get("explanation"),
                        facet_of(example).alternatives if d["kind"] == "disagreement"
                        else (), games=facet_games)
                else:
                    seen.count += f["count"]
                    seen.games |= facet_games
