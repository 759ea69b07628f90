"""Drawing cards and tricks as docutils nodes (styled by ``_static/cards.css``).

Only layout lives here: which card won, which cancelled and what is pending
always comes from the engine's answer passed in.
"""

from __future__ import annotations

from collections.abc import Sequence

from docutils import nodes  # type: ignore[import-untyped]

from rules_ref.cards import Card, Suit, penalty_points
from rules_ref.wording.tricks import after_void_trick, trick_set_aside, trick_won

from .domain import xref

RED_SUITS = (Suit.H, Suit.D)
SUIT_NAMES = {Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts", Suit.S: "spades"}
PAIR_MARKS = "①②③④⑤"


def text(*parts: str | nodes.Node) -> list[nodes.Node]:
    """Mixed strings and nodes as a node list."""
    return [nodes.Text(p) if isinstance(p, str) else p for p in parts]


def para(*parts: str | nodes.Node, classes: Sequence[str] = ()) -> nodes.paragraph:
    p = nodes.paragraph("", "", classes=list(classes))
    p += text(*parts)
    return p


def field(name: str, body: nodes.Node) -> nodes.field:
    """A field of a field list: ``name``, then ``body``."""
    item = nodes.field()
    item += nodes.field_name(name, name)
    fbody = nodes.field_body()
    fbody += body
    item += fbody
    return item


def rule(rule_id: str) -> nodes.Node:
    return xref("rule", rule_id)


def card(c: Card, classes: Sequence[str] = ()) -> nodes.inline:
    """One card face: rank and suit symbol, red for hearts and diamonds."""
    colour = "ch-red" if c.suit in RED_SUITS else "ch-black"
    node = nodes.inline("", "", classes=["ch-card", colour, *classes])
    node += nodes.inline(c.pretty[:-1], c.pretty[:-1], classes=["ch-rank"])
    node += nodes.inline(c.suit.symbol, c.suit.symbol, classes=["ch-suit"])
    return node


def card_back(count: int) -> nodes.inline:
    """``count`` cards face down, drawn small as one card back."""
    row = nodes.inline("", "", classes=["ch-cards", "ch-small"])
    node = nodes.inline("", "", classes=["ch-card", "ch-back"])
    node += nodes.inline("", f"×{count}", classes=["ch-rank"])
    row += node
    return row


def cards_inline(cards: Sequence[Card], small: bool = True) -> nodes.inline:
    """A run of small cards, for hands, piles and summaries."""
    row = nodes.inline("", "", classes=["ch-cards", "ch-small" if small else "ch-large"])
    for c in cards:
        row += card(c)
    return row


def pair_marks(cards: Sequence[Card], cancelled: Sequence[Card]) -> list[str]:
    """For each card, the mark of its cancelled pair (①, ②, …), or "" if it is uncancelled."""
    order: dict[Card, str] = {}
    for c in cards:
        if c in cancelled and c not in order:
            order[c] = PAIR_MARKS[len(order) % len(PAIR_MARKS)]
    return [order.get(c, "") for c in cards]


def trick_row(cards: Sequence[Card], seats: Sequence[int], cancelled: Sequence[Card],
              winner_position: int | None, names: Sequence[str] | None = None,
              small: bool = False) -> nodes.container:
    """A trick drawn as a row of cards, in play order, each with its seat and what it did."""
    row = nodes.container(classes=["ch-trick", "ch-small" if small else "ch-large"])
    marks = pair_marks(cards, cancelled)
    for position, (c, seat, mark) in enumerate(zip(cards, seats, marks, strict=True)):
        classes = ["ch-slot"]
        if mark:
            classes.append("ch-cancelled")
        if position == winner_position:
            classes.append("ch-winner")
        slot = nodes.container(classes=classes)
        who = names[position] if names else f"seat {seat}"
        slot += nodes.inline(who, who, classes=["ch-seat"])
        slot += card(c)
        holder = nodes.inline("", "", classes=["ch-tags"])
        if position == 0:
            holder += nodes.inline("led", "led", classes=["ch-tag", "ch-tag-led"])
        if mark:
            tag = nodes.inline("", mark, classes=["ch-tag", "ch-tag-cancelled"])
            tag += nodes.inline(" cancelled", " cancelled", classes=["ch-tag-word"])
            holder += tag
        if position == winner_position:
            holder += nodes.inline("wins", "wins", classes=["ch-tag", "ch-tag-wins"])
        slot += holder
        row += slot
    return row


def outcome_lines(cards: Sequence[Card], seats: Sequence[int], led: Suit,
                  cancelled: Sequence[Card], winner_position: int | None,
                  names: Sequence[str] | None = None, last: bool = False
                  ) -> nodes.bullet_list:
    """What the engine decided about a trick, each point with the rule that decides it.

    ``last``: the trick is the last of its deal (then a void trick's leader does not lead
    again: the deal is over).
    """
    def who(position: int) -> str:
        return names[position] if names else f"seat {seats[position]}"

    items = nodes.bullet_list(classes=["ch-outcome"])

    def item(*parts: str | nodes.Node) -> None:
        li = nodes.list_item()
        li += para(*parts)
        items.append(li)

    item(f"Led suit: {led.symbol} {SUIT_NAMES[led]}, set by the first card, {who(0)}'s "
         f"{cards[0].pretty} (", rule("TRICK.LED_SUIT"), ").")
    if cancelled:
        marks = dict(zip(cards, pair_marks(cards, cancelled), strict=True))
        pairs = " and ".join(f"the two {c.pretty} ({marks[c]})"
                             for c in sorted(cancelled, key=cards.index))
        item(f"Cancelled: {pairs} (", rule("TRICK.CANCEL"), ").")
    else:
        item("Cancelled: none; no card was played twice (", rule("TRICK.CANCEL"), ").")
    if winner_position is None:
        aside, then = trick_set_aside(led.symbol), after_void_trick(who(0), last)
        item(f"Void: {aside.words} (", rule(aside.rule), f"), and {then.words} (",
             rule(then.rule), ").")
    else:
        won = trick_won(who(winner_position), cards[winner_position].pretty, led.symbol)
        item(f"Who takes it: {won.words} (", rule(won.rule), ").")
    points = penalty_points(tuple(cards))
    if points:
        item(f"Points in the trick: {points}, cancelled cards included (",
             rule("SCORE.CARD_POINTS"), ").")
    return items
