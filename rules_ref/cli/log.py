"""The game log: what happened in a game, in words a card player reads.

:class:`GameLog` turns the steps of a game (the state before an action,
the action, the state after it and the events it caused) into lines: the
passes with their direction ("to the right", "across"), each trick with the
seat under each card, what cancelled, who won and the points taken, the
pending pile after a void trick, and the scores by seat. The rule that
decided something is named in brackets, as ``(VOID.TRICK)``.

Every line fits in :data:`WIDTH` columns: a longer one goes on under its
own indent (:func:`fit`). The header names the ruleset and, for each switch
it sets apart from the default, what that value means (the words of
``spec/variants.toml``); the points of a collection that holds a 10♦ the
ruleset scores say what the 10♦ counts.

``rules-ref play`` and ``rules-ref show`` write this log. With ``secret_seat``
the log shows only what that seat may see (``VIEW.SEAT``): other seats'
passes and the face-down extras stay hidden until the deal is scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .. import events as ev
from ..actions import Action, DealCards, Pass
from ..cards import CARDS, QUEEN_OF_SPADES, TEN_OF_DIAMONDS, Card, Suit
from ..deal import extras_count, hand_size
from ..pending import extras_join_trick
from ..ruleset import Ruleset
from ..scoring import card_points
from ..state import GameState
from ..tricks import TrickOutcome, seat_at
from ..wording import counted, direction_words, switch_value
from ..wording.tricks import after_void_trick, trick_set_aside, trick_won
from .style import Style, pad, visible_width

INDENT = "  "
COLUMN = 6
#: The widest line of the log: a terminal's 80 columns.
WIDTH = 80


def fit(line: str, width: int = WIDTH) -> list[str]:
    """``line`` in lines of at most ``width`` columns, broken between words.

    The lines after the first are indented 4 columns more than the line itself;
    colour codes take no room (:func:`~rules_ref.cli.style.visible_width`).

    >>> fit("  a b c d e f", 9)
    ['  a b c d', '      e f']
    """
    if visible_width(line) <= width:
        return [line]
    indent = line[:len(line) - len(line.lstrip(" "))]
    more = indent + " " * 4
    out: list[str] = []
    current = indent
    for word in line.split():
        if current.strip() and visible_width(current) + 1 + visible_width(word) > width:
            out.append(current)
            current = more + word
        else:
            current = f"{current} {word}" if current.strip() else current + word
    out.append(current)
    return out


def fitted(lines: Sequence[str]) -> list[str]:
    """Every line of ``lines`` as :func:`fit` breaks it."""
    return [part for line in lines for part in fit(line)]


def ruleset_name(ruleset: Ruleset, asked: str | None = None) -> str:
    """The ruleset as the header names it: the preset asked for, and any preset equal to it."""
    from ..ruleset import presets

    table = presets()
    same = [name for name, rs in table.items()
            if rs == replace(ruleset, target=rs.target) and name != asked]
    if asked is not None:
        return asked
    if same:
        return f"{same[0]} (the default)" if same[0] == next(iter(table)) else same[0]
    return "custom"  # its switches are listed under the header line (changes)


def changes(ruleset: Ruleset, asked: str | None = None) -> list[str]:
    """What ``ruleset`` changes from the default: each switch it sets, and what that means.

    The meanings are those of ``spec/variants.toml`` (a value it does not list
    is named alone); the preset asked for is named with its source's title.
    """
    from .. import registry
    from ..ruleset import presets

    differ = ruleset.changed()
    if not differ:
        return []
    title = registry.preset_titles().get(asked or "")
    equal = [name for name, rs in presets().items() if rs == ruleset and name != asked]
    same = f"; {', '.join(equal)} {'has' if len(equal) == 1 else 'have'} the same values" \
        if equal else ""
    meanings = registry.switch_meanings()
    lines = [f"The preset {asked} reads {title}{same}." if title else "",
             "The ruleset differs from the default in (spec/variants.toml):"]
    for name, set_to in differ.items():
        value = switch_value(set_to)
        meaning = meanings.get(name, {}).get(value)
        lines.append(f"{INDENT}{name} = {value}" + (f": {meaning}" if meaning else ""))
    return [line for line in lines if line]


def seat_rows(rows: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """Aligned rows under a ``seat`` heading: each value in its seat's column."""
    width = max(len(label) for label, _ in rows)
    out = []
    for label, cells in rows:
        out.append(INDENT * 2 + f"{label + ':':<{width + 1}}"
                   + "".join(pad(c, COLUMN) for c in cells))
    return out


class GameLog:
    """Renders the steps of one game as lines of text."""

    def __init__(self, style: Style, secret_seat: int | None = None) -> None:
        self.style = style
        self.secret_seat = secret_seat

    # --- the header -----------------------------------------------------------------------

    def header(self, players: int, ruleset: Ruleset, seed: int | None,
               asked: str | None = None) -> list[str]:
        seed_text = "" if seed is None else f", seed {seed}"
        return fitted([
            f"Cancellation Hearts: {players} players{seed_text}, ruleset "
            f"{ruleset_name(ruleset, asked)}, target {ruleset.target}",
            *changes(ruleset, asked),
            f"Seats 0 to {players - 1}; play goes to the left, from seat 0 to seat 1 "
            "(TURN.ORDER).",
            f"In a trick: {self.style.card(CARDS[7], 'cancelled')} a cancelled card "
            f"(TRICK.CANCEL), {self.style.card(CARDS[12], 'winner')} the winner "
            "(TRICK.WINNER).",
        ])

    # --- one step -------------------------------------------------------------------------

    def step(self, before: GameState, action: Action, after: GameState,
             events: Sequence[ev.Event]) -> list[str]:
        lines: list[str] = []
        for e in events:
            lines.extend(self.event(e, before, action, after))
        return fitted(lines)

    def event(self, e: ev.Event, before: GameState, action: Action,
              after: GameState) -> list[str]:
        s = self.style
        rs = after.ruleset
        if isinstance(e, ev.DealStarted):
            assert isinstance(action, DealCards)
            n = after.players
            extras = extras_count(n)
            if e.pass_offset is None:
                passing = "no passing this deal (PASS.DIRECTION)"
            else:
                passing = (f"each player passes {counted(rs.pass_count, 'card')} "
                           f"{direction_words(e.pass_offset, n)} (PASS.DIRECTION)")
            extra_text = (f"{counted(extras, 'extra card')} face down for the first trick "
                          "(EXTRAS.FIRST_TRICK)" if extras else "no extra cards")
            lines = ["", s.bold(f"Deal {e.deal_number}") +
                     f": seat {e.dealer} deals {hand_size(n)} cards to each player",
                     f"{INDENT}{extra_text}", f"{INDENT}{passing}"]
            if self.secret_seat is not None:
                lines.append(f"{INDENT}your hand (seat {self.secret_seat}): "
                             f"{s.cards(after.hands[self.secret_seat])}")
            return lines
        if isinstance(e, ev.CardsPassed):
            assert isinstance(action, Pass)
            where = direction_words(before.pass_offset, before.players)
            count = counted(len(action.cards), "card")
            if self.secret_seat is not None and e.seat != self.secret_seat:
                return [f"{INDENT}seat {e.seat} passes {count} {where}"]
            return [f"{INDENT}seat {e.seat} passes {count} {where}, to seat {e.to_seat}: "
                    f"{s.cards(action.cards)}"]
        if isinstance(e, ev.PassesExchanged):
            lines = [f"{INDENT}the passes are exchanged (PASS.EXCHANGE)",
                     f"{INDENT}seat {after.leader} makes the opening lead (LEAD.OPENING_LEADER)"]
            me = self.secret_seat
            if me is not None and after.passes and after.pass_offset is not None:
                giver = (me - after.pass_offset) % after.players
                got = after.passes[giver] or ()
                lines.append(f"{INDENT}you receive from seat {giver}: {s.cards(got)}; your hand: "
                             f"{s.cards(after.hands[me])}")
            return lines
        if isinstance(e, ev.TrickWon | ev.TrickSetAside):
            return self.trick(after.tricks[-1], e.trick_number, before, after)
        if isinstance(e, ev.PendingCollected):
            pile = self.pile(e.cards, before)
            return [f"{INDENT * 2}seat {e.seat} also takes the pending pile: {pile} "
                    "(VOID.COLLECT)"]
        if isinstance(e, ev.ExtrasTaken):
            count = counted(len(e.cards), "extra card")
            if self.secret_seat is not None and e.seat != self.secret_seat:
                return [f"{INDENT * 2}seat {e.seat} takes the {count} face down "
                        "(EXTRAS.FIRST_TRICK)"]
            return [f"{INDENT * 2}seat {e.seat} takes the {count} (EXTRAS.FIRST_TRICK): "
                    f"{s.cards(e.cards)}, {self.points(e.cards, rs)}"]
        if isinstance(e, ev.ExtrasPending):
            return []  # said with the void trick: the pile holds the extras too
        if isinstance(e, ev.PendingSettled):
            lines = []
            if e.uncollected:
                lines.append(f"{INDENT}nobody collects the pending pile (VOID.LAST): "
                             f"{self.pile(e.uncollected, before, shown=True)}: "
                             f"{s.cards(e.uncollected)}")
            for seat, cards in e.taken:
                lines.append(f"{INDENT}seat {seat} takes {counted(len(cards), 'card')} left "
                             f"pending, {self.points(cards, rs)} (VOID.LAST)")
            return lines
        if isinstance(e, ev.MoonShot):
            hearts = s.suit(Suit.H, plural=True)
            return [f"{INDENT}seat {e.seat} shot the moon: all 26 {hearts} and "
                    f"both {s.card(QUEEN_OF_SPADES)} (MOON.CONDITION)"]
        if isinstance(e, ev.MoonChosen):
            how = {"subtract": "26 off their own score", "add": "26 added to every other score",
                   "others-52": "52 added to every other score",
                   "others-104": "104 added to every other score"}
            choice = str(e.choice or rs.moon)
            if e.choice is None:
                return [f"{INDENT}the moon scores {how.get(choice, choice)} (MOON.CHOICE)"]
            return [f"{INDENT}seat {e.seat} chooses {how.get(choice, choice)} (MOON.CHOICE)"]
        if isinstance(e, ev.DealScored):
            return self.scores(e.deal_number, e.scores, e.totals)
        if isinstance(e, ev.GameOver):
            return self.game_over(e.totals, e.winners)
        return []

    def scores(self, deal_number: int, scores: Sequence[int],
               totals: Sequence[int]) -> list[str]:
        """A deal's scores and the totals after it, by seat."""
        return [f"{INDENT}Deal {deal_number} scores (SCORE.DEAL):",
                *seat_rows([("seat", [str(i) for i in range(len(totals))]),
                            ("this deal", [str(v) for v in scores]),
                            ("total", [str(v) for v in totals])])]

    def game_over(self, totals: Sequence[int], winners: Sequence[int]) -> list[str]:
        """The end of the game: the final totals and who won."""
        who = ", ".join(f"seat {w}" for w in winners) or "nobody"
        tie = " (tied for lowest)" if len(winners) > 1 else ""
        return ["", self.style.bold("Game over") + " (GAME.END), the final totals:",
                *seat_rows([("seat", [str(i) for i in range(len(totals))]),
                            ("total", [str(t) for t in totals])]),
                f"{'Winner' if len(winners) == 1 else 'Winners'}: {who}{tie} (GAME.WINNER)"]

    # --- tricks and piles ---------------------------------------------------------------

    def trick(self, t: TrickOutcome, number: int, before: GameState,
              after: GameState) -> list[str]:
        s = self.style
        n = after.players
        seats = [seat_at(t.leader, i, n) for i in range(len(t.cards))]
        marks = ["cancelled" if c in t.cancelled
                 else "winner" if t.winner is not None and seat == t.winner else ""
                 for seat, c in zip(seats, t.cards, strict=True)]
        lines = [f"{INDENT}Trick {number}: seat {t.leader} leads {s.suit(t.led_suit, plural=True)} "
                 "(TRICK.LED_SUIT)",
                 *seat_rows([("seat", [str(x) for x in seats]),
                             ("card", [s.card(c, m) for c, m in
                                       zip(t.cards, marks, strict=True)])])]
        if t.cancelled:
            lines.append(f"{INDENT * 2}cancelled: "
                         + ", ".join(f"{s.card(c)} pair" for c in t.cancelled)
                         + " (TRICK.CANCEL)")
        return lines + self.trick_result(t, number, before, after)

    def trick_result(self, t: TrickOutcome, number: int, before: GameState,
                     after: GameState) -> list[str]:
        """Who wins the trick and its points, or that it is set aside and what is pending."""
        s = self.style
        lines: list[str] = []
        taken = self.points(t.cards, after.ruleset)
        if t.winner is not None:
            assert t.winning_card is not None
            won = trick_won(f"seat {t.winner}", s.card(t.winning_card), s.suit(t.led_suit))
            lines.append(f"{INDENT * 2}{won.words} ({won.rule}): {taken}")
            return lines
        joining = before.extras if extras_join_trick(number) else ()
        pile = self.pile(before.pending + t.cards + joining, before)
        extras = (f" (with the {counted(len(joining), 'extra card')}, EXTRAS.FIRST_TRICK)"
                  if joining else "")
        aside = trick_set_aside(s.suit(t.led_suit))
        lines.append(f"{INDENT * 2}{aside.words} ({aside.rule}), {taken}")
        then = after_void_trick(f"seat {t.leader}", last=not after.hands[0])
        lines.append(f"{INDENT * 2}the pending pile now holds {pile}{extras}; {then.words} "
                     f"({then.rule})")
        return lines

    def points(self, cards: Sequence[Card], ruleset: Ruleset) -> str:
        """``N points`` that ``cards`` carry, and what a 10♦ counts when the ruleset scores it."""
        said = counted(card_points(cards, ruleset), "point")
        value = ruleset.ten_of_diamonds_points
        if value and TEN_OF_DIAMONDS in cards:
            said += (f" (each {self.style.card(TEN_OF_DIAMONDS)} counts {value}: "
                     f"ten_of_diamonds_points = {value}, SCORE.CARD_POINTS)")
        return said

    def pile(self, cards: Sequence[Card], before: GameState, shown: bool = False) -> str:
        """``N cards, P points`` of a pending pile; hidden extras are counted, not scored."""
        rs = before.ruleset
        cards = tuple(cards)
        hidden = 0
        if (self.secret_seat is not None and not shown and before.extras
                and (before.pending_has_extras or before.trick_number == 1)):
            hidden = len(before.extras)
            visible = list(cards)
            for c in before.extras:
                if c in visible:
                    visible.remove(c)
            return (f"{counted(len(cards), 'card')} ({hidden} face down), "
                    f"{self.points(visible, rs)} face up")
        return f"{counted(len(cards), 'card')}, {self.points(cards, rs)}"
