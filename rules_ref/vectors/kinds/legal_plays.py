"""Legal-play vectors: the legal cards of the seat to act, every other card offered and rejected."""

from __future__ import annotations

from collections.abc import Sequence

from ...actions import Pass, Play
from ...ruleset import DEFAULT, Ruleset, preset
from ..files import Case
from ..scenario import Scenario, build, cards, fill_hands
from ..versions import version_presets

#: What the kind's file holds (its ``description``).
TEXT = (
    "The legal cards of the seat to act in a position; every other card it holds is "
    "offered and must be rejected.")


def legal_case(sc: Scenario, slug: str, description: str, rules: Sequence[str],
               offer: int = 99) -> Case:
    """Check ``to_act`` and ``legal``, then offer each forbidden card and expect a rejection."""
    sc.check(("phase", "to_act", "trick_number", "leader", "trick", "hearts_broken", "legal"))
    st = sc.state
    seat = st.to_act
    assert seat is not None
    forbidden: dict[str, str] = {}
    for c in dict.fromkeys(st.hands[seat]):
        if c not in st.legal_plays() and len(forbidden) < offer:
            forbidden[str(c)] = sc.reject(Play(seat, c))[0]
    return sc.case("legal-plays", slug, description, rules, {"forbidden": forbidden})


def generate() -> list[Case]:
    """Every case of the kind."""
    out: list[Case] = []
    d = DEFAULT
    sc = build(6, d, {1: "2C 3C QS AH KH 9D"}, seed=31)
    out.append(legal_case(sc, "opening-no-points-p6", "The opening lead may not be a heart or a "
                          "QS while the hand holds another card.", ["LEAD.OPENING_CARD"]))
    sc = build(6, d, {1: "QS QS AH AH KH KH QH QH JH JH 10H 10H 9H 9H 8H 8H 7H"}, seed=32)
    out.append(legal_case(sc, "opening-only-points-p6", "An opening leader holding only hearts "
                          "and QS may lead any card.", ["LEAD.OPENING_CARD"]))
    hub = preset("hubpages")
    sc = build(6, hub, {1: "10D 2C AH QS 5D"}, seed=33)
    out.append(legal_case(sc, "opening-no-scoring-10d-hubpages", "Under left-of-dealer-no-"
                          "scoring with a scoring 10D, the 10D may not open either.",
                          ["LEAD.OPENING_CARD", "SCORE.CARD_POINTS"]))
    noscore = Ruleset.from_dict({"opening_lead": "left-of-dealer-no-scoring"})
    sc = build(7, noscore, {1: "10D 2C AH QS"}, seed=34)
    out.append(legal_case(sc, "opening-no-scoring-10d-zero-p7", "Under left-of-dealer-no-"
                          "scoring with ten_of_diamonds_points 0, the 10D is not a scoring card "
                          "and may open.", ["LEAD.OPENING_CARD"]))
    sc = build(6, hub, {1: "QS QS 10D 10D AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"}, seed=35)
    out.append(legal_case(sc, "opening-only-scoring-hubpages", "Under left-of-dealer-no-"
                          "scoring, a hand of scoring cards only may lead any card.",
                          ["LEAD.OPENING_CARD"]))
    lcg = version_presets(1)["lovecardgames"]  # its four-step cycle, as first published
    sc = build(6, lcg, {3: "2C", 5: "2C"}, seed=36)
    out.append(legal_case(sc, "two-of-clubs-leader-p6", "Under two-of-clubs, the first seat "
                          "from the dealer's left holding a 2C leads it.",
                          ["LEAD.OPENING_LEADER", "LEAD.OPENING_CARD"]))
    sc = build(7, lcg, {}, extras="2C 2C 3C 4C 5C 6C", seed=37)
    out.append(legal_case(sc, "two-of-clubs-in-extras-p7", "Under two-of-clubs with both 2C "
                          "among the extras, the dealer's left leads under the default "
                          "restriction.", ["LEAD.OPENING_LEADER", "LEAD.OPENING_CARD"]))
    hearts14 = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH"
    sc = build(6, d, {1: f"5C QS QS {hearts14}", 2: "5C", 3: "7C", 4: "7C", 5: "9C",
                      0: "9C"}, seed=38)
    sc.play("5C", "5C", "7C", "7C", "9C", "9C")
    out.append(legal_case(sc, "after-void-trick1-queen-only-p6", "After a void trick 1 its "
                          "leader leads again under LEAD.HEARTS: with only hearts and QS and "
                          "hearts unbroken, only a QS.",
                          ["VOID.LEADER", "LEAD.HEARTS", "VOID.TRICK"]))
    trick1 = {1: "3C", 2: "4C", 3: "5C", 4: "6C", 5: "7C"}
    sc = build(6, d, {**trick1, 0: "AC QS AH KH 2D"}, seed=39)
    sc.play("3C", "4C", "5C", "6C", "7C", "AC")
    out.append(legal_case(sc, "lead-hearts-unbroken-p6", "Hearts unbroken: a heart may not be "
                          "led from a hand holding other cards; a QS may.",
                          ["LEAD.HEARTS", "TRICK.NEXT_LEADER"]))
    sc = build(6, d, {**trick1, 0: "AC " + "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H KH QH JH"},
               seed=40)
    sc.play("3C", "4C", "5C", "6C", "7C", "AC")
    out.append(legal_case(sc, "lead-hearts-only-hearts-p6", "Hearts unbroken, but the leader "
                          "holds only hearts: hearts may be led.", ["LEAD.HEARTS"]))
    q_trick = {1: "3C", 2: "4C", 3: "QS", 4: "6C", 5: "7C", 0: "AC AH KH 2D"}
    sc = build(6, d, q_trick, voids={3: "C"}, seed=41)
    sc.play("3C", "4C", "QS", "6C", "7C", "AC")
    out.append(legal_case(sc, "broken-by-queen-p6", "A QS discarded to a trick breaks hearts: "
                          "hearts may be led.", ["HEARTS.BROKEN", "LEAD.HEARTS"]))
    heart_only = Ruleset.from_dict({"hearts_broken_by": "heart"})
    sc = build(6, heart_only, q_trick, voids={3: "C"}, seed=41)
    sc.play("3C", "4C", "QS", "6C", "7C", "AC")
    out.append(legal_case(sc, "not-broken-by-queen-heart-p6", "Under hearts_broken_by heart, "
                          "a QS does not break hearts.", ["HEARTS.BROKEN", "LEAD.HEARTS"]))
    discard = Ruleset.from_dict({"hearts_broken_by": "heart-discard"})
    sc = build(7, discard, {1: "3C", 2: "4C", 3: "2H", 4: "6C", 5: "7C", 6: "8C",
                            0: "AC AH KH 2D"}, voids={3: "C"}, seed=42)
    sc.play("3C", "4C", "2H", "6C", "7C", "8C", "AC")
    out.append(legal_case(sc, "broken-by-discard-heart-discard-p7", "Under hearts_broken_by "
                          "heart-discard, a heart discarded to a club trick breaks hearts.",
                          ["HEARTS.BROKEN", "LEAD.HEARTS"]))
    led = {1: "AH AH KH KH QH QH JH JH 10H 10H 9H 9H 8H 8H 7H QS QS", 2: "2H", 3: "3H",
           4: "4H", 5: "5H", 0: "6H"}
    for rs, slug, desc in (
            (discard, "not-broken-by-led-heart-heart-discard-p6",
             "Under hearts_broken_by heart-discard, hearts led and followed do not break "
             "hearts: the leader of only hearts and QS must lead a QS."),
            (d, "broken-by-led-heart-p6", "Hearts led and followed break hearts (default): "
             "the leader may lead anything.")):
        sc = build(6, rs, led, seed=43)
        sc.play("AH", "2H", "3H", "4H", "5H", "6H")
        out.append(legal_case(sc, slug, desc, ["HEARTS.BROKEN", "LEAD.HEARTS",
                                               "LEAD.OPENING_CARD"]))
    mensa = preset("mensa")
    sc = build(6, mensa, {**trick1, 0: "AC QS AH KH 2D"}, seed=39)
    sc.play("3C", "4C", "5C", "6C", "7C", "AC")
    out.append(legal_case(sc, "lead-hearts-not-needed-mensa", "Under hearts_broken_by "
                          "not-needed a heart may be led at any time.",
                          ["LEAD.HEARTS", "HEARTS.BROKEN"]))
    sc = build(6, mensa, {1: "2C 3C QS AH KH 9D"}, seed=31)
    out.append(legal_case(sc, "opening-not-needed-mensa", "Under hearts_broken_by not-needed "
                          "the opening lead keeps its own restriction.",
                          ["LEAD.OPENING_CARD"]))
    sc = build(6, d, {1: "5C AH KH 3D", 2: "5C", 3: "2H", 4: "2H", 5: "9D", 0: "JD"},
               voids={3: "C", 4: "C", 5: "C", 0: "C"}, seed=44)
    sc.play("5C", "5C", "2H", "2H", "9D", "JD")
    out.append(legal_case(sc, "broken-by-cancelled-heart-p6", "Hearts cancelled in a void "
                          "trick still break hearts.",
                          ["HEARTS.BROKEN", "LEAD.HEARTS", "TRICK.CANCEL", "VOID.LEADER"]))
    sc = build(6, d, {1: "9D", 2: "9D 2D KD AS QS 3H"}, seed=45)
    sc.play("9D")
    out.append(legal_case(sc, "follow-suit-p6", "Holding the led suit, only that suit may be "
                          "played, including a card identical to the lead.", ["FOLLOW.SUIT"]))
    sc = build(8, d, {1: "9D", 2: "QS AH 2C 3S"}, voids={2: "D"}, seed=46)
    sc.play("9D")
    out.append(legal_case(sc, "follow-void-any-p8", "Without the led suit any card may be "
                          "played, point cards included on trick 1 (default).",
                          ["FOLLOW.SUIT", "FOLLOW.FIRST_TRICK"]))
    sc = build(9, d, {1: "9D", 2: "9D", 3: "2D 3C AH"}, seed=47)
    sc.play("9D", "9D")
    out.append(legal_case(sc, "led-suit-after-cancel-p9", "The led card is cancelled, but its "
                          "suit stays the led suit: diamonds must still be followed.",
                          ["TRICK.LED_SUIT", "FOLLOW.SUIT", "TRICK.CANCEL"]))
    sc = build(8, d, {1: "9D", 2: "9D", 3: "AC", 4: "2D 3C KC"}, voids={3: "D"}, seed=51)
    sc.play("9D", "9D", "AC")
    out.append(legal_case(sc, "led-suit-after-cancel-and-discard-p8", "The led card is "
                          "cancelled and a club is discarded: diamonds stay the led suit and "
                          "must be followed.",
                          ["TRICK.LED_SUIT", "FOLLOW.SUIT", "TRICK.CANCEL"]))
    tpl = preset("hearts-template")
    sc = build(6, tpl, {1: "2C 2C", 2: "QS AH 3D 4S"}, voids={2: "C"}, seed=48)
    sc.play("2C")
    out.append(legal_case(sc, "first-trick-forbidden-template", "Under first_trick_points "
                          "forbidden, no heart or QS may be discarded on trick 1.",
                          ["FOLLOW.FIRST_TRICK", "FOLLOW.SUIT", "LEAD.OPENING_LEADER"]))
    sc = build(6, tpl, {1: "2C 2C", 2: "QS QS AH AH KH KH QH QH JH JH 10H 10H 9H 9H 8H 8H 7H"},
               seed=49)
    sc.play("2C")
    out.append(legal_case(sc, "first-trick-forbidden-only-points-template", "Under "
                          "first_trick_points forbidden, a hand of only hearts and QS may "
                          "discard any of them on trick 1.", ["FOLLOW.FIRST_TRICK"]))
    sc = build(6, tpl, {1: "2C 2C", 2: "3D QS AH 4D", 3: "4C", 4: "5C", 5: "6C",
                        0: "AC KC"}, voids={2: "C"}, seed=50)
    sc.play("2C", "4D", "4C", "5C", "6C", "AC", "KC", "2C")
    out.append(legal_case(sc, "first-trick-forbidden-trick2-template", "Under "
                          "first_trick_points forbidden, trick 2 carries no restriction.",
                          ["FOLLOW.FIRST_TRICK"]))
    out.extend(_even_following_cases())
    out.extend(two_of_clubs_cases())
    out.extend(_two_of_clubs_dealt_cases())
    must = Ruleset.from_dict({"pass_cycle": ["hold"], "hearts_broken_by": "heart-not-led"})
    sc = build(6, must, {1: "3C 7S", 2: "AC 2H 2H 3H 3H 4H 4H 5H 5H 6H 6H 7H 7H 8H 8H 9H 9H",
                         3: "2C AH KH 8D", 4: "4C 8S", 5: "5C 8S", 0: "6C 7S"},
               voids={4: "H", 5: "H", 0: "H", 1: "H"}, seed=52)
    sc.play("3C", "AC", "2C", "4C", "5C", "6C", "2H", "AH", "8S", "8S", "7S", "7S")
    out.append(legal_case(sc, "heart-not-led-follow-breaks-p6", "Under hearts_broken_by "
                          "heart-not-led, a heart led from a hand of only hearts does not break "
                          "hearts, but the heart that follows it does: the next leader may "
                          "lead a heart.", ["HEARTS.BROKEN", "LEAD.HEARTS"]))
    return out


def two_of_clubs_cases() -> list[Case]:
    """Trick 1 under first_trick_two_of_clubs must-play."""
    out = []
    must = Ruleset.from_dict({"pass_cycle": ["hold"], "first_trick_two_of_clubs": "must-play"})
    sc = build(6, must, {1: "5D", 2: "2C 9D"}, seed=53)
    sc.play("5D")
    out.append(legal_case(sc, "first-trick-two-of-clubs-over-suit-p6", "Under "
                          "first_trick_two_of_clubs must-play, a seat holding a 2C plays it to "
                          "trick 1 although it could follow diamonds.",
                          ["FOLLOW.FIRST_TRICK", "FOLLOW.SUIT"]))
    sc = build(7, must, {1: "5D", 2: "2C 2C 9D"}, seed=54)
    sc.play("5D")
    out.append(legal_case(sc, "first-trick-both-two-of-clubs-p7", "Under "
                          "first_trick_two_of_clubs must-play, a seat holding both 2C plays one "
                          "of them to trick 1.", ["FOLLOW.FIRST_TRICK"]))
    sc = build(8, preset("allanh"), {1: "2C 5C", 2: "3C", 3: "2C 9C"}, seed=55)
    sc.play("2C", "3C")
    out.append(legal_case(sc, "first-trick-two-of-clubs-allanh-p8", "Under the allanh preset "
                          "the first 2C holder leads it, and the other 2C holder must play its "
                          "2C, not another club: the two cancel.",
                          ["FOLLOW.FIRST_TRICK", "LEAD.OPENING_LEADER"]))
    free = Ruleset.from_dict({"pass_cycle": ["hold"]})
    sc = build(6, free, {1: "5D", 2: "2C 9D"}, seed=53)
    sc.play("5D")
    out.append(legal_case(sc, "first-trick-two-of-clubs-free-p6", "Under "
                          "first_trick_two_of_clubs free, a 2C holder follows diamonds on trick "
                          "1 like any other seat.", ["FOLLOW.FIRST_TRICK", "FOLLOW.SUIT"]))
    return out


def _even_following_cases() -> list[Case]:
    """Trick 1 under first_trick_points = forbidden-even-following (FOLLOW.FIRST_TRICK)."""
    out: list[Case] = []
    even = Ruleset.from_dict({"first_trick_points": "forbidden-even-following",
                              "pass_cycle": ["hold"]})
    sc = build(6, even, {1: "5S 3D", 2: "QS 7S 4D"}, seed=143)
    sc.play("5S")
    out.append(legal_case(sc, "first-trick-even-following-p6", "Under first_trick_points "
                          "forbidden-even-following, a seat following a spade lead to trick 1 "
                          "with QS and another spade must play the other spade.",
                          ["FOLLOW.FIRST_TRICK", "FOLLOW.SUIT"]))
    sc = build(6, even, {1: "5S 3D", 2: "QS 2C 3C 4C 5C 6C 7C 8C 9C 2D 3D 4D 5D 6D 7D 8D 9D"},
               seed=144)
    sc.play("5S")
    out.append(legal_case(sc, "first-trick-even-following-only-queen-p6", "Under "
                          "first_trick_points forbidden-even-following, a seat whose only spade "
                          "is the QS follows a spade lead to trick 1 with it.",
                          ["FOLLOW.FIRST_TRICK", "FOLLOW.SUIT"]))
    return out


def _two_of_clubs_dealt_cases() -> list[Case]:
    """The opening lead under two-of-clubs-dealt (LEAD.OPENING_LEADER, LEAD.OPENING_CARD)."""
    out: list[Case] = []
    dealt = Ruleset.from_dict({"opening_lead": "two-of-clubs-dealt", "pass_cycle": ["hold"]})
    sc = build(7, dealt, {0: "2C", 5: "2C"}, dealer=3, seed=141)
    out.append(legal_case(sc, "two-of-clubs-dealt-dealers-left-p7", "Under two-of-clubs-dealt "
                          "the first seat dealt a 2C looking clockwise from the dealer's left "
                          "leads it (seat 5 with dealer 3, not seat 0).",
                          ["LEAD.OPENING_LEADER", "LEAD.OPENING_CARD"]))
    passing = Ruleset.from_dict({"opening_lead": "two-of-clubs-dealt"})
    pre, ex = fill_hands(6, {1: "2C 5D 6D QS AH 3S", 4: "2C"}, seed=142)
    sc = Scenario(6, passing, pre, ex)
    for i in range(6):  # deal 1 passes left; seat 1 passes its 2C to seat 2
        seat = (1 + i) % 6
        given = cards("2C 5D 6D") if seat == 1 else pre[seat][-3:]
        sc.pre(Pass(seat, tuple(sorted(given))))
    out.append(legal_case(sc, "two-of-clubs-dealt-passed-p6", "Under two-of-clubs-dealt the "
                          "first seat from the dealer's left dealt a 2C leads although it passed "
                          "it: with no 2C left it may lead any card but a heart or a QS.",
                          ["LEAD.OPENING_LEADER", "LEAD.OPENING_CARD", "PASS.EXCHANGE"]))
    return out
