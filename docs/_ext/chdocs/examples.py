"""Worked examples drawn from the reference engine at build time.

``.. trick:: 10S 9H 9H 10S KS 3S`` resolves one trick with
:func:`rules_ref.tricks.resolve_trick` (the function ``rules-ref trick`` and
the game state use) and draws it. ``.. deal-scenario:: NAME`` plays a whole
deal of :mod:`chdocs.scenarios` through :meth:`rules_ref.GameState.apply`
and draws the tricks, the pending pile and who collects it from the
engine's events. A picture is never drawn from anything but the engine's
answer, and an ``:expect:`` option (or a scenario's claims) that disagrees
with the engine is a build warning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from docutils import nodes  # type: ignore[import-untyped]
from docutils.parsers.rst import directives  # type: ignore[import-untyped]
from sphinx import addnodes
from sphinx.builders import Builder
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

from rules_ref.cards import Card, parse_cards, penalty_points
from rules_ref.errors import RulesRefError
from rules_ref.tricks import resolve_trick

from . import context
from .cases import CASES, Row, Table
from .domain import ChDomain, reading_order, resolved_link, xref
from .pages import folded, linkify
from .render import card_back, cards_inline, outcome_lines, para, rule, text, trick_row
from .scenarios import NO_PASSING, SCENARIOS, ScenarioError, Story, TrickStep, check, play
from .spec import format_value

T = TypeVar("T")

logger = logging.getLogger(__name__)


class example_index(nodes.General, nodes.Element):  # type: ignore[misc]
    """Placeholder: the list of every worked example, filled in once every page is read."""


def _register(directive: SphinxDirective, name: str, title: str, rules: Sequence[str]
              ) -> str:
    domain = directive.env.get_domain("ch")
    assert isinstance(domain, ChDomain)
    return domain.note_object("example", name, directive.env.docname, title, tuple(rules),
                              directive.lineno)


def _example_box(directive: SphinxDirective, name: str, title: str, rules: Sequence[str],
                 kind: str) -> nodes.container:
    """The box of one drawn example (a trick, a deal, a case): its anchor noted in the domain,
    its title, then what the directive's own content says."""
    directive.env.note_reread()
    node_id = _register(directive, name, title, rules)
    box = nodes.container(ids=[node_id], classes=["ch-example", f"ch-{kind}-example"])
    box += _heading(title, node_id)
    if directive.content:
        directive.state.nested_parse(directive.content, directive.content_offset, box)
    return box


def _chosen(directive: SphinxDirective, table: Mapping[str, T], what: str) -> tuple[str, T]:
    """The directive's argument and what ``table`` holds under it (an error if nothing)."""
    name = directive.arguments[0]
    found = table.get(name)
    if found is None:
        raise directive.error(f"unknown {what} {name!r}; known: {', '.join(table)}")
    return name, found


def _warn(directive: SphinxDirective, what: str, problems: Iterable[str]) -> None:
    """A build warning for each problem the engine found with an example."""
    for problem in problems:
        logger.warning("%s: %s", what, problem, location=directive.get_location(),
                       type="chdocs", subtype="example")


def _heading(title: str, name: str) -> nodes.paragraph:
    p = nodes.paragraph(classes=["ch-example-title"])
    p += nodes.strong(title, title)
    p += nodes.reference("", "¶", refid=name, classes=["headerlink"], reftitle="Link to this "
                         "example")
    return p


class TrickDirective(SphinxDirective):
    """``.. trick:: CARD…``: one trick, in play order, resolved by the engine and drawn."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = {  # noqa: RUF012 (docutils reads this class attribute)
        "name": directives.unchanged_required,
        "title": directives.unchanged_required,
        "leader": directives.nonnegative_int,
        "players": directives.positive_int,
        "names": directives.unchanged_required,
        "rules": directives.unchanged_required,
        "expect": directives.unchanged_required,
        "unlisted": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        try:
            cards = parse_cards(self.arguments[0])
        except RulesRefError as exc:
            raise self.error(f"trick: {exc}") from None
        twice = [str(c) for c, k in Counter(cards).items() if k > 2]
        if twice or not 1 <= len(cards) <= 11:
            raise self.error("trick: 1 to 11 cards, each at most twice (DECK.CARDS)")
        leader = self.options.get("leader", 0)
        players = self.options.get("players", max(len(cards), leader + 1))
        names = self.options["names"].split() if "names" in self.options else None
        if names is not None and len(names) != len(cards):
            raise self.error(f"trick: {len(names)} names for {len(cards)} cards")
        outcome = resolve_trick(cards, leader, players)
        seats = [(leader + i) % players for i in range(len(cards))]
        position = None if outcome.winner is None else seats.index(outcome.winner)
        self._check_expectation(cards, position, seats)
        rules = [*(["TRICK.CANCEL"] if outcome.cancelled else []),
                 "VOID.TRICK" if outcome.void else "TRICK.WINNER",
                 *self.options.get("rules", "").split()]
        if cards[0] in outcome.cancelled:
            rules.append("TRICK.LED_SUIT")
        rules = [] if "unlisted" in self.options else list(dict.fromkeys(rules))
        title = self.options.get("title", " ".join(c.pretty for c in cards))
        name = self.options.get("name") or "trick-" + "-".join(str(c) for c in cards).lower()
        drawn: dict[str, tuple[str, int, int]] = self.env.temp_data.get(TRICKS_KEY) or {}
        drawn[name] = (" ".join(map(str, cards)), leader, players)
        self.env.temp_data[TRICKS_KEY] = drawn
        box = _example_box(self, name, title, rules, "trick")
        box += trick_row(cards, seats, outcome.cancelled, position, names)
        box += outcome_lines(cards, seats, outcome.led_suit, outcome.cancelled, position, names)
        if len(cards) < 6:
            box += para(f"Only {len(cards)} cards: a real trick has one card per player, 6 to "
                        "11 (", rule("PLAYERS.COUNT"), "). The engine resolves it all the "
                        "same.", classes=["ch-note"])
        return [box]

    def _check_expectation(self, cards: Sequence[Card], position: int | None,
                           seats: Sequence[int]) -> None:
        expected = self.options.get("expect")
        if expected is None:
            return
        got = "void" if position is None else f"winner {cards[position]} seat {seats[position]}"
        words = expected.split()
        ok = (words == ["void"] and got == "void") or (
            words[:1] == ["winner"] and got != "void" and all(w.upper() in got.upper().split()
                                                               for w in words[1:]))
        if not ok:
            logger.warning("trick %s: the page expects %r but the engine says %r",
                           self.arguments[0], expected, got, location=self.get_location(),
                           type="chdocs", subtype="example")


#: env.temp_data key: the tricks drawn so far on the page being read, by name
TRICKS_KEY = "chdocs_tricks"


class TrickDoctestDirective(SphinxDirective):
    """``.. trick-doctest:: NAME``: a doctest of the trick drawn as NAME on the same page.

    Its first line resolves that trick with the cards, the leader and the player count the
    drawing used (``t = resolve_trick(...)``); the content is the rest of the doctest,
    questions and the answers the page expects, run by the doctest builder. The drawing
    and its doctest cannot then deal the same cards to different seats.
    """

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        tricks: dict[str, tuple[str, int, int]] = self.env.temp_data.get(TRICKS_KEY) or {}
        drawn = tricks.get(name)
        if drawn is None:
            raise self.error(f"trick-doctest: no trick named {name!r} is drawn above it on "
                             "this page")
        cards, leader, players = drawn
        code = "\n".join([f">>> t = resolve_trick(parse_cards({cards!r}), leader={leader}, "
                          f"players={players})", *self.content])
        node = nodes.literal_block(code, code, testnodetype="doctest", groups=["default"],
                                   language="pycon", options={})
        self.set_source_info(node)
        return [node]


def _pending_line(step: TrickStep, extras: tuple[Card, ...]) -> nodes.paragraph | None:
    pile = step.pending_after
    if step.void and not pile:
        return None  # the deal ended: its ending says what stayed pending
    if step.void:
        extra = ""
        if step.extras_pending:
            extra = f", the {len(step.extras_pending)} extras included ("
        p = para(f"Pending pile now: {len(pile)} cards, {penalty_points(pile)} points{extra}",
                 classes=["ch-pending"])
        if step.extras_pending:
            p += rule("EXTRAS.FIRST_TRICK")
            p += nodes.Text(")")
        hidden = extras if step.extras_in_pile else ()
        p += nodes.Text(": ")
        p += cards_inline(_face_up(pile, hidden))
        if hidden:
            p += nodes.Text(" ")
            p += card_back(len(hidden))
        return p
    parts: list[str | nodes.Node] = []
    if step.collected:
        among = ", the extras among them" if step.collected_extras else ""
        parts += [f"Seat {step.winner} also collects the {len(step.collected)} pending cards"
                  f"{among} ({penalty_points(step.collected)} points) (",
                  rule("VOID.COLLECT"), "). "]
    if step.extras_taken:
        parts += [f"Seat {step.winner} also takes the {len(step.extras_taken)} extras (",
                  rule("EXTRAS.FIRST_TRICK"), ") ", card_back(len(step.extras_taken)),
                  f" face down: nobody sees them, not even seat {step.winner}, until the deal "
                  "is scored (", rule("VIEW.SEAT"), "). "]
    return para(*parts, classes=["ch-pending"]) if parts else None


def _face_up(pile: tuple[Card, ...], hidden: tuple[Card, ...]) -> tuple[Card, ...]:
    """The pile less the extras in it, which stay face down (VIEW.SEAT)."""
    rest = list(pile)
    for c in hidden:
        rest.remove(c)
    return tuple(rest)


def _step_summary(step: TrickStep) -> str:
    if step.void:
        return f"Trick {step.number} · seat {step.leader} leads · void"
    assert step.winning_card is not None
    return (f"Trick {step.number} · seat {step.leader} leads · seat {step.winner} wins with "
            f"{step.winning_card.pretty}")


def story_nodes(story: Story) -> list[nodes.Node]:
    """The whole deal: setup, hands, every trick (focus tricks in full), the scoring."""
    sc = story.scenario
    out: list[nodes.Node] = []
    n_extras = len(story.extras)
    out.append(para(
        f"{sc.players} players · dealer seat {story.dealer} · seat {story.opening_leader} "
        "makes the opening lead (", rule("LEAD.OPENING_LEADER"), ") · no passing in this "
        "deal (", xref("switch", "pass_cycle"), " = hold) · "
        f"{n_extras or 'no'} extra card{'s' if n_extras != 1 else ''}"
        f"{' face down' if n_extras else ''} (", rule("DEAL.SIZE"), ")", classes=["ch-setup"]))
    base, rules = NO_PASSING.to_dict(), sc.ruleset.to_dict()
    for name in (n for n in rules if rules[n] != base[n]):
        out[-1] += text(" · ", xref("switch", name), f" = {format_value(rules[name])}")
    hands = nodes.container(classes=["ch-hands"])
    hands += para(nodes.strong("", "The hands dealt"), classes=["ch-hands-title"])
    for seat, hand in enumerate(story.hands):
        line = nodes.paragraph(classes=["ch-hand"])
        line += nodes.inline(f"seat {seat}", f"seat {seat}", classes=["ch-seat"])
        line += cards_inline(hand)
        hands += line
    if story.extras:
        line = nodes.paragraph(classes=["ch-hand"])
        line += nodes.inline("extras", "extras", classes=["ch-seat"])
        line += card_back(n_extras)
        line += nodes.inline("", "face down")
        hands += line
        hands += para("No seat sees the extras until the deal is scored (", rule("VIEW.SEAT"),
                      "); they are turned face up at the end of the deal.",
                      classes=["ch-note"])
    out.append(hands)
    for step in story.steps:
        full = step.number in sc.focus
        box = nodes.container(classes=["ch-step", "ch-focus" if full else "ch-quiet",
                                       *(["ch-void"] if step.void else [])])
        box += para(nodes.strong("", _step_summary(step)), classes=["ch-step-title"])
        if full and step.position:
            # folded: the position text runs to several lines, before the trick it sets up
            box.extend(folded(_position_line(step.position), "The position before this trick"))
        if step.pending_before and full:
            box += para(f"Pending before this trick: {len(step.pending_before)} cards, "
                        f"{penalty_points(step.pending_before)} points.", classes=["ch-pending"])
        position = None if step.winner is None else step.seats.index(step.winner)
        box += trick_row(step.cards, step.seats, step.cancelled, position, small=not full)
        if full:
            box += outcome_lines(step.cards, step.seats, step.led_suit, step.cancelled,
                                 position, last=step is story.steps[-1])
        if step.hearts_broken and full:
            seat, broken_by = step.hearts_broken
            box += para(f"Seat {seat}'s {broken_by.pretty} breaks hearts (",
                        rule("HEARTS.BROKEN"), ").", classes=["ch-pending"])
        pending = _pending_line(step, story.extras)
        if pending is not None:
            box += pending
        out.append(box)
    out.append(_ending(story))
    return out


def _position_line(position: str) -> nodes.paragraph:
    """The moment before a trick as a position text, to copy into a bug report or a test."""
    link = addnodes.pending_xref("", refdomain="std", reftype="doc",
                                 reftarget="/implementers/position", refexplicit=True,
                                 refwarn=True)
    link += nodes.inline("", "position")
    line = para("The ", link, " before this trick (draw it with ",
                nodes.literal("", "rules-ref position"), ", or start an implementation "
                "there): ", classes=["ch-position"])
    line += nodes.literal(position, position)
    return line


def _ending(story: Story) -> nodes.container:
    box = nodes.container(classes=["ch-step", "ch-ending"])
    box += para(nodes.strong("", "End of the deal"), classes=["ch-step-title"])
    if story.uncollected:
        box += para(f"{len(story.uncollected)} cards are still pending: nobody collects them "
                    f"and their {penalty_points(story.uncollected)} points score for nobody (",
                    rule("VOID.LAST"), "): ", cards_inline(story.uncollected), ".",
                    classes=["ch-pending"])
        box += para(f"Points scored in this deal: {sum(story.card_points)} of 52 (",
                    rule("SCORE.DEAL"), ").")
    for seat, cards in story.settled:
        box += para("Under ", xref("switch", "last_trick_void"),
                    f" = {story.scenario.ruleset.last_trick_void}, seat {seat} takes "
                    f"{len(cards)} of the cards still pending, {penalty_points(cards)} points (",
                    rule("VOID.LAST"), "): ", cards_inline(cards), ".", classes=["ch-pending"])
    if story.moon_shooter is not None:
        choice: list[str | nodes.Node] = (
            [f"The shooter chooses “{story.moon_choice}” ("] if story.moon_choice else
            ["Under ", xref("switch", "moon"), f" = {story.scenario.ruleset.moon} there is no "
             "choice to make ("])
        box += para(f"Seat {story.moon_shooter} collected all 26 hearts and both Q♠: a moon (",
                    rule("MOON.CONDITION"), "). ", *choice, rule("MOON.CHOICE"), ").")
    if story.extras:
        taken = (f"seat {story.extras_to} took them" if story.extras_to is not None
                 else "nobody collected them")
        box += para(f"The extras, turned face up for every seat now that the deal is scored "
                    f"({taken}; ", rule("VIEW.SEAT"), "): ", cards_inline(story.extras), ".",
                    classes=["ch-pending"])
    before = story.scenario.totals
    heads = ["Seat", "Card points", "Deal score",
             *(["Total before", "Total after"] if before else [])]
    table = nodes.table(classes=["ch-scores"])
    group = nodes.tgroup(cols=len(heads))
    table += group
    for _ in heads:
        group += nodes.colspec(colwidth=20)
    head = nodes.thead()
    group += head
    body = nodes.tbody()
    group += body
    head += _row(heads)
    for seat, (points, score) in enumerate(zip(story.card_points, story.scores, strict=True)):
        extra = [str(before[seat]), str(story.totals[seat])] if before else []
        body += _row([str(seat), str(points), str(score), *extra])
    box += table
    if story.state.winners:
        target = story.scenario.ruleset.target
        reached = [str(s) for s, t in enumerate(story.totals) if t >= target]
        low = min(story.totals)
        won = story.state.winners
        box += para(f"Seat{'s' if len(reached) > 1 else ''} {', '.join(reached)} now "
                    f"{'have' if len(reached) > 1 else 'has'} a total of at least {target}, the "
                    "target: the game ends (", rule("GAME.END"), f"). The lowest total is {low}"
                    + (f", shared by seats {' and '.join(map(str, won))}: they all win ("
                       if len(won) > 1 else f": seat {won[0]} wins (")
                    , rule("GAME.WINNER"), ").", classes=["ch-pending"])
    elif before:
        box += para("No total has reached the target: the next deal begins (",
                    rule("GAME.END"), ").")
    return box


def _row(cells: Sequence[str]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += para(cell)
        row += entry
    return row


class DealScenarioDirective(SphinxDirective):
    """``.. deal-scenario:: NAME``: a whole deal of :mod:`chdocs.scenarios`, played and drawn."""

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        name, scenario = _chosen(self, SCENARIOS, "scenario")
        try:
            story = play(scenario)
        except (ScenarioError, RulesRefError) as exc:
            raise self.error(str(exc)) from None
        _warn(self, f"scenario {name}", check(story))
        box = _example_box(self, name, scenario.title, scenario.rules, "deal")
        for child in story_nodes(story):
            box += child
        return [box]


class RuleCaseDirective(SphinxDirective):
    """``.. rule-case:: NAME``: a position, a pass or a table of :mod:`chdocs.cases`, drawn."""

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        name, build = _chosen(self, CASES, "case")
        try:
            case = build()
        except RulesRefError as exc:
            raise self.error(f"case {name}: {exc}") from None
        _warn(self, f"case {name}", case.problems)
        spec = context.spec(self.env)
        box = _example_box(self, name, case.title, case.rules, "case")
        for part in case.parts:
            if isinstance(part, str):
                box += para(*linkify(part, spec))
            elif isinstance(part, Row):
                line = nodes.paragraph(classes=["ch-hand"])
                line += nodes.inline(part.label, part.label, classes=["ch-seat"])
                line += cards_inline(part.cards)
                if part.hidden:
                    line += nodes.Text(" ")
                    line += card_back(part.hidden)
                    line += nodes.inline("", " face down")
                if part.text:
                    words = nodes.inline(classes=["ch-row-text"])
                    words += linkify(part.text, spec)
                    line += words
                box += line
            else:
                box += _table(part)
        return [box]


def _table(part: Table) -> nodes.table:
    table = nodes.table(classes=["ch-case-table"])
    group = nodes.tgroup(cols=len(part.head))
    table += group
    for _ in part.head:
        group += nodes.colspec(colwidth=10)
    head = nodes.thead()
    group += head
    head += _row(list(part.head))
    body = nodes.tbody()
    group += body
    for cells in part.rows:
        body += _row(list(cells))
    return table


#: page metadata key set on the page that holds the example index
EXAMPLE_INDEX_KEY = "chdocs-example-index"


class ExampleIndexDirective(SphinxDirective):
    """``.. example-index::``: every worked example of the site, with the rules it shows.

    A site with an example index must show every rule in force in some
    example (the build warns for each rule none shows).
    """

    def run(self) -> list[nodes.Node]:
        self.env.metadata[self.env.docname][EXAMPLE_INDEX_KEY] = True
        return [example_index()]


def fill_example_index(doctree: nodes.document, domain: ChDomain, fromdocname: str,
                       builder: Builder) -> None:
    order = reading_order(domain.env)
    for node in list(doctree.findall(example_index)):
        items = nodes.bullet_list(classes=["ch-example-index"])
        listed = [(name, e) for name, e in domain.entries("example") if e.rules]
        for _name, entry in sorted(listed, key=lambda x: (order.get(x[1].docname, len(order)),
                                                          x[1].line)):
            li = nodes.list_item()
            p = nodes.paragraph()
            inner = nodes.inline(entry.title, entry.title)
            p += make_refnode(builder, fromdocname, entry.docname, entry.anchor, inner,
                              entry.title)
            p += nodes.Text(" — ")
            for i, rule_id in enumerate(entry.rules):
                if i:
                    p += nodes.Text(", ")
                p += resolved_link(domain, builder, fromdocname, "rule", rule_id)
            li += p
            items += li
        node.replace_self(items)
