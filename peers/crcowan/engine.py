"""The crcowan engine (crcowan/DoubleDeckCancellationHearts at f201c55) behind the protocol.

``build.py`` compiles the engine's rule files with the harness's ``Host.cs``; this module runs
that program and sends it one command per protocol message. Every decision is the engine's:
a pass is its ``PassCards``, a play its ``PlayCard`` (refused with its own message), the legal
cards those its ``IsValidPlay`` accepts, a trick its ``EvaluateTrick`` and ``CompleteTrick``,
the next hand its ``DealNewHand``. What this module adds, and why:

- seats: the engine has no dealer; its seat 0 is "the player to the left of the dealer" of
  its first hand (its own comment). The engine's seat e is the protocol's seat
  (e + dealer + 1) mod n, where dealer is the dealer of the deal the game starts with, and the
  dealer reported moves one seat left per hand, as the engine's comment "Move Dealer Left"
  intends;
- a deal without passing under the rotation "Standard": the engine still waits for three cards
  from every seat, which it hands back; the harness sends the first three cards of each hand;
- the winners: the engine's back end names none; its front end (frontend/src/App.tsx, "Final
  Standings (Lowest Wins)") sorts the players by score and crowns the first, which this module
  reports as the one winner.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from peers.crcowan.build import PIN, build
from peers.harness.cards import PACKS, canonical, distinct
from peers.harness.host import Host
from peers.harness.protocol import Answer, rejected

STANDARD = ["left", "right", "across", "hold"]  # its passing style "Standard"
TARGETS = [50, 100, 150, 200]  # its "Match Winning Score" menu
PASS_COUNT = 3

# What the engine plays, as switch values (spec/variants.toml); the crcowan preset must say the
# same of its default options (tests/peers/test_presets.py checks it).
PLAYS: dict[str, Any] = {
    "min_players": [5, 6],
    "pass_cycle": [STANDARD, ["hold"]],
    "opening_lead": ["left-of-dealer", "two-of-clubs-dealt"],
    "first_trick_points": ["forbidden-even-following"],
    "hearts_broken_by": ["heart", "not-needed"],
    "target": TARGETS,
}
# The engine's messages, and the rule each refusal falls under (spec/protocol.md, `action`).
REFUSALS = [
    ("already passed", "PASS.EXCHANGE"),
    ("exactly 3", "PASS.CARDS"),
    ("do not own", "PASS.CARDS"),
    ("not currently in the passing phase", "TURN.ORDER"),
    ("not your turn", "TURN.ORDER"),
    ("do not have this card", "TURN.ORDER"),
    ("must lead the 2 of clubs", "LEAD.OPENING_CARD"),
    ("cannot lead penalty cards", "LEAD.OPENING_CARD"),
    ("hearts have not been broken", "LEAD.HEARTS"),
    ("must follow suit", "FOLLOW.SUIT"),
    ("penalty cards on the first trick", "FOLLOW.FIRST_TRICK"),
]


def refusal_rule(message: str) -> str | None:
    low = message.lower()
    return next((rule for words, rule in REFUSALS if words in low), None)


def options(ruleset: dict[str, Any], declare: str) -> tuple[list[str], str | None]:
    """The engine's options (FirstLead, BreakingHearts, PassingStyle, TargetScore) for a ruleset."""
    cycle = ruleset.get("pass_cycle", ["left", "right"])
    target = ruleset.get("target", 150)
    if declare == "default":  # the engine's defaults, the closest it has to the reference's
        cycle = STANDARD
    first = {"left-of-dealer": "DealersLeft", "two-of-clubs-dealt": "2OfClubs"}.get(
        ruleset.get("opening_lead", "left-of-dealer")
    )
    breaking = {"heart": "Standard", "heart-or-queen": "Standard", "not-needed": "Guts"}.get(
        ruleset.get("hearts_broken_by", "heart-or-queen")
    )
    passing = {tuple(STANDARD): "Standard", ("hold",): "None"}.get(tuple(cycle))
    if first is None or breaking is None or passing is None or target not in TARGETS:
        return [], "the engine has no option for this ruleset"
    return [first, breaking, passing, str(target)], None


def cards(items: list[str]) -> str:
    return ",".join(items) if items else "-"


class CrcowanEngine:
    """One host process for the whole run; a ``start`` replaces its game."""

    def __init__(self, source: str | None, declare: str) -> None:
        program = build(source)
        self.declare = declare
        self.name = (
            f"crcowan/DoubleDeckCancellationHearts {PIN.short} (harness, {declare} declaration)"
        )
        self.process = Host(["mono", str(program)])
        self.state: dict[str, Any] = {}
        self.n = self.shift = 0
        self.started = False
        self.undealt = False

    # ------------------------------------------------------------------ the host
    def host(self, *words: str) -> tuple[bool, str]:
        answer = self.process.call(" ".join(words))
        self.state = answer["state"]
        return bool(answer["ok"]), str(answer["message"])

    # seats: engine e is protocol (e + shift) mod n
    def to_engine(self, seat: int) -> int:
        return (seat - self.shift) % self.n

    def to_seat(self, engine_seat: int) -> int:
        return (engine_seat + self.shift) % self.n

    def by_engine(self, per_seat: list[Any]) -> list[Any]:
        """A per-seat list (protocol seat order) in the engine's seat order."""
        return [per_seat[self.to_seat(e)] for e in range(self.n)]

    def by_seat(self, per_engine: list[Any]) -> list[Any]:
        return [per_engine[self.to_engine(p)] for p in range(self.n)]

    # ------------------------------------------------------------------ hello
    def supports(self) -> dict[str, Any]:
        if self.declare == "default":
            return {"players": [6, 7, 8, 9, 10, 11]}
        return {"players": [5, 6, 7, 8, 9, 10, 11], "switches": PLAYS}

    # ------------------------------------------------------------------ start
    def start(self, request: dict[str, Any]) -> Answer:
        opts, why = options(request["ruleset"], self.declare)
        if why:
            return rejected(why)
        refused = self.unreachable(request.get("position"))
        if refused:  # refused before anything changes: the game before stays as it was
            return refused
        # the cycle the engine plays (its passing option), which is not the one told when
        # the hello declares the default
        self.cycle = STANDARD if opts[2] == "Standard" else ["hold"]
        self.n = int(request["players"])
        if "position" in request:
            return self.start_position(request["position"], opts)
        self.shift = (request["dealer"] + 1) % self.n
        self.first_dealer, self.first_deal = request["dealer"], request["deal_number"]
        hands = "/".join(cards(h) for h in self.by_engine(request["hands"]))
        self.host(
            "new",
            str(self.n),
            *opts,
            str(request["deal_number"]),
            ",".join(str(t) for t in self.by_engine(request["totals"])),
            hands,
            cards(request["extras"]),
        )
        self.begin_deal(list(request["totals"]))
        self.started, self.undealt = True, False
        return self.observe()

    @staticmethod
    def unreachable(position: dict[str, Any] | None) -> Answer | None:
        """The refusal of a position the engine cannot be set to (README), or None."""
        phase = position["phase"] if position else None
        if phase == "dealing":
            return rejected(
                "the engine's next hand depends on the last trick of the hand before, "
                "which a position does not hold",
                "DEAL.DEALER",
            )
        if phase == "moon-choice":
            return rejected("the engine has no moon choice", "MOON.CHOICE")
        return None

    def start_position(self, position: dict[str, Any], opts: list[str]) -> Answer:
        phase = position["phase"]
        self.shift = (position["dealer"] + 1) % self.n
        self.first_dealer, self.first_deal = position["dealer"], position["deal_number"]
        extras = position["extras"]["cards"]
        # the engine keeps the extras apart (SetupKitty) until trick 1 is won, also when it is void
        kitty = extras if position["extras"]["place"] in ("face-down", "pending") else []
        pending = list((Counter(position["pending"]) - Counter(kitty)).elements())
        playing = phase == "playing"
        leader = self.to_engine(position["leader"]) if playing else 0
        turn = (leader + len(position["trick"])) % self.n if playing else 0
        passes = position["passes"] if phase == "passing" else [None] * self.n
        self.host(
            "set",
            str(self.n),
            *opts,
            str(position["deal_number"]),
            "Playing" if playing else "Passing",
            str(turn),
            str(leader),
            "1" if position["hearts_broken"] else "0",
            "1" if not playing or position["trick_number"] == 1 else "0",
            ",".join(str(t) for t in self.by_engine(position["totals"])),
            "/".join(cards(h) for h in self.by_engine(position["hands"])),
            cards(position["trick"]),
            cards(pending),
            cards(kitty),
            "/".join(cards(c) for c in self.by_engine(position["collected"])),
            "/".join("*" if p is None else cards(p) for p in self.by_engine(passes)),
        )
        self.deal_totals = list(position["totals"])
        self.tricks_done = (position["trick_number"] - 1) if playing else 0
        self.started, self.undealt = True, False
        return self.observe()

    def begin_deal(self, totals: list[int]) -> None:
        self.deal_totals = totals
        self.tricks_done = 0
        deal = self.state["round"]
        if self.state["phase"] == "Passing" and self.cycle[(deal - 1) % len(self.cycle)] == "hold":
            for e, hand in enumerate(self.state["hands"]):
                self.host("pass", str(e), cards(hand[:PASS_COUNT]))

    # ------------------------------------------------------------------ actions
    def phase(self) -> str:
        return {
            "Passing": "passing",
            "Playing": "playing",
            "TrickPending": "playing",
            "GameOver": "dealing",
            "MatchOver": "game-over",
        }[self.state["phase"]]

    def act(self, action: dict[str, Any]) -> Answer:
        if not self.started:
            return rejected("no game started", "TURN.ORDER")
        kind = action.get("type")
        if kind == "deal":
            return self.deal(action)
        if kind not in ("pass", "play") or action.get("seat") not in range(self.n):
            return rejected(f"the engine takes no {kind} here", "TURN.ORDER")
        seat = str(self.to_engine(action["seat"]))
        if kind == "pass":
            ok, message = self.host("pass", seat, cards(list(action["cards"])))
        else:
            before = self.state
            ok, message = self.host("play", seat, action["card"])
            if (
                ok
                and self.state["last_trick"] is not None
                and before.get("last_trick") != self.state["last_trick"]
            ):
                self.tricks_done += 1
        if not ok:
            return rejected(message, refusal_rule(message))
        return self.observe()

    def deal(self, action: dict[str, Any]) -> Answer:
        if self.phase() != "dealing":
            return rejected("the engine deals only when a hand is over", "TURN.ORDER")
        hands, extras = action["hands"], action["extras"]
        size = 104 // self.n
        if (
            len(hands) != self.n
            or any(len(h) != size for h in hands)
            or len(extras) != 104 - size * self.n
        ):
            return rejected("the engine deals 104 // n cards to each seat", "DEAL.SIZE")
        if Counter(c for h in [*hands, extras] for c in h) != PACKS:
            return rejected("not the two packs", "DECK.CARDS")
        totals = self.observe()["totals"]
        self.host("deal", "/".join(cards(h) for h in self.by_engine(hands)), cards(extras))
        self.begin_deal(totals)
        return self.observe()

    # ------------------------------------------------------------------ observation
    def observe(self) -> Answer:
        s, phase = self.state, self.phase()
        playing, during, over = (
            phase == "playing",
            phase in ("passing", "playing"),
            phase in ("dealing", "game-over"),
        )
        deal = s["round"]
        dealer = (self.first_dealer + deal - self.first_deal) % self.n
        hands = s["hands"]
        if phase == "passing":  # the engine takes a pass out of the hand at once; the rules do not
            hands = [h + (p or []) for h, p in zip(hands, s["passed"], strict=True)]
        waiting = []
        if phase == "passing":
            waiting = [
                (dealer + k) % self.n
                for k in range(1, self.n + 1)
                if s["passed"][self.to_engine((dealer + k) % self.n)] is None
            ]
        scores = self.by_seat(s["scores"])
        points = self.by_seat(s["points"])
        last = s["last_trick"]
        return {
            "type": "observation",
            "phase": phase,
            "deal_number": deal,
            "dealer": dealer,
            "to_act": self.to_seat(s["turn"]) if playing else None,
            "waiting_for": waiting,
            "legal": distinct(s["legal"]) if playing else None,
            "hands": [canonical(h) for h in self.by_seat(hands)] if during else None,
            "trick_number": self.tricks_done + 1 if playing else None,
            "leader": self.to_seat(s["leading"]) if playing else None,
            "trick": list(s["trick"]) if playing else [],
            "hearts_broken": bool(s["hearts_broken"]) if phase != "passing" else False,
            "last_trick": None
            if last is None or phase in ("dealing", "passing")
            else {
                "number": self.tricks_done,
                "leader": self.to_seat(last["leader"]),
                "cards": last["cards"],
                "winner": None if last["winner"] is None else self.to_seat(last["winner"]),
            },
            "pending": canonical(s["cancelled"]) if playing else [],
            "points": points,
            "deal_scores": [a - b for a, b in zip(scores, self.deal_totals, strict=True)]
            if over
            else None,
            "totals": scores if over else list(self.deal_totals),
            "winners": [self.winner(scores)] if phase == "game-over" else [],
        }

    def winner(self, scores: list[int]) -> int:
        """The front end's crowned player: the first of the players sorted by score (stable)."""
        by_engine = sorted(range(self.n), key=lambda e: scores[self.to_seat(e)])
        return self.to_seat(by_engine[0])
