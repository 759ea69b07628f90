"""The allanh engine (allanh-rjw/cancellation-hearts at 25ee2cd) behind the protocol.

The page script runs in Node.js (``host.mjs``, with the DOM stub of ``dom.mjs``); this module
starts it, sends it one command per protocol message, and builds each observation from the
state the page holds. What the page does not do itself, because at its table one person plays
seat 0 and the computer the other seven, is done here and said so:

- passes: the page takes seat 0's three selected cards and chooses the others' itself; here
  every seat's pass is checked as the page checks seat 0's (exactly three cards of the hand,
  no 2♣) and buffered, and at the last one the page's own exchange runs with those cards;
- turn order: the page lets only the seat to play click a card; a play by any other seat is
  refused here, as the page would never offer it.
Everything else (legal cards, tricks, cancellation, hearts broken, scores, the end of the
game and its winners) is read from the page.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from peers.harness.cards import PACKS, TWO_OF_CLUBS, canonical, distinct, holds
from peers.harness.checkout import Pin, extract, read_files, scratch
from peers.harness.host import Host
from peers.harness.protocol import Answer, rejected

PIN = Pin(
    key="allanh",
    repository="allanh-rjw/cancellation-hearts",
    commit="25ee2cd7c47691c6989c493d60841fa6e92f2712",
    env="PEERS_ALLANH",
    files={"app.js": "cd919178de008ce352f04b4a3871d1177e66c7a3e5834f995eb0f3f5b52e4bc5"},
)
HERE = Path(__file__).resolve().parent
PLAYERS = 8
PASS_COUNT = 3
# The page's pass cycle, PASS_CYCLE in app.js: seat offsets by deal, 0 a deal without passing.
CYCLE = ["left", "right", "left-2", "right-2", "left-3", "right-3", "across", "hold"]
TARGETS = [100, 150, 200]  # its "Game target" menu

# What the engine plays, as switch values (spec/variants.toml); the allanh preset must say the
# same (tests/peers/test_presets.py checks it).
PLAYS: dict[str, Any] = {
    "pass_cycle": [CYCLE],
    "pass_forbidden": ["two-of-clubs"],
    "opening_lead": ["two-of-clubs"],
    "first_trick_points": ["forbidden-even-following"],
    "first_trick_two_of_clubs": ["must-play"],
    "hearts_broken_by": ["heart-not-led"],
    "moon": ["others-104"],
    "moon_pair": ["others-26"],
    "target": TARGETS,
}


def build(source: str | None) -> tuple[Path, Path]:
    """The host script and the checked copy of app.js in a scratch folder."""
    files = read_files(PIN, source)
    folder = scratch(
        PIN, *files.values(), (HERE / "host.mjs").read_bytes(), (HERE / "dom.mjs").read_bytes()
    )
    extract(PIN, files, folder)
    for name in ("host.mjs", "dom.mjs"):
        (folder / name).write_bytes((HERE / name).read_bytes())
    return folder / "host.mjs", folder / "engine" / "app.js"


class AllanhEngine:
    """One page, kept for the whole run; a ``start`` replaces its game."""

    def __init__(self, source: str | None, declare: str) -> None:
        host, app = build(source)
        self.declare = declare
        self.name = f"allanh-rjw/cancellation-hearts {PIN.short} (harness, {declare} declaration)"
        self.process = Host(["node", str(host), str(app)])
        self.state: dict[str, Any] = {}
        self.passes: list[list[str] | None] = []
        self.deal_totals: list[int] = []
        self.started = False
        self.undealt = False  # set to a position between deals: no deal scored yet

    # ------------------------------------------------------------------ the host
    def host(self, command: dict[str, Any]) -> bool:
        answer = self.process.call(json.dumps(command))
        self.state = answer["state"]
        return bool(answer["ok"])

    # ------------------------------------------------------------------ hello
    def supports(self) -> dict[str, Any]:
        if self.declare == "default":
            return {"players": [PLAYERS]}
        return {"players": [PLAYERS], "switches": PLAYS}

    def configure(self, ruleset: dict[str, Any]) -> str | None:
        """The page's target for the ruleset, or why it cannot play it."""
        target = ruleset.get("target", 150)
        if target not in TARGETS:
            return f"the page offers targets {TARGETS} only"
        self.target = target
        return None

    # ------------------------------------------------------------------ start
    def start(self, request: dict[str, Any]) -> Answer:
        if request["players"] != PLAYERS:
            return rejected("the page plays 8 players only", "PLAYERS.COUNT")
        why = self.configure(request["ruleset"])
        if why:
            return rejected(why)
        if "position" in request:
            return self.start_position(request["position"])
        if request["extras"]:
            return rejected("8 players have no extras", "DEAL.SIZE")
        self.host(
            {
                "cmd": "new",
                "dealer": request["dealer"],
                "round": request["deal_number"],
                "scores": request["totals"],
                "target": self.target,
                "hands": request["hands"],
            }
        )
        self.begin_deal()
        self.started = True
        return self.observe()

    def start_position(self, position: dict[str, Any]) -> Answer:
        phase = position["phase"]
        if phase == "moon-choice":
            return rejected("the page has no moon choice (others-104)", "MOON.CHOICE")
        hands = [list(h) for h in position["hands"]]
        passes = position["passes"]
        # a pass the page would have refused (pass_) cannot have been made at its table
        if phase == "passing" and any(p is not None and TWO_OF_CLUBS in p for p in passes):
            return rejected("the page refuses to pass the 2♣", "PASS.CARDS")
        if phase == "passing":  # the page's hands before any pass: the cards passed are back
            hands = [canonical(h + (p or [])) for h, p in zip(hands, passes, strict=True)]
        offset = {
            "left": 1,
            "right": -1,
            "left-2": 2,
            "right-2": -2,
            "left-3": 3,
            "right-3": -3,
            "across": 4,
            "hold": 0,
        }[CYCLE[(position["deal_number"] - 1) % len(CYCLE)]]
        leader = position["leader"] if phase == "playing" else 0
        trick = position["trick"]
        self.host(
            {
                "cmd": "set",
                "dealer": position["dealer"],
                "round": position["deal_number"],
                "scores": position["totals"],
                "target": self.target,
                "hands": hands,
                "collected": position["collected"],
                "phase": phase,
                "pass_offset": offset,
                "trick_index": (position["trick_number"] or 1) - 1,
                "leader": leader,
                "current": (leader + len(trick)) % PLAYERS,
                "hearts_broken": position["hearts_broken"],
                "trick": trick,
                "pending": position["pending"],
            }
        )
        self.passes = (
            [list(p) if p is not None else None for p in passes] if phase == "passing" else []
        )
        self.deal_totals = list(position["totals"])
        self.started = True
        self.undealt = phase == "dealing"
        return self.observe()

    def begin_deal(self) -> None:
        self.undealt = False
        self.passes = [None] * PLAYERS if self.state["phase"] == "passing" else []
        self.deal_totals = list(self.state["scores"])

    # ------------------------------------------------------------------ actions
    def phase(self) -> str:
        s = self.state
        if s["game_over"]:
            return "game-over"
        if s["next_round"]:
            return "dealing"
        return "passing" if s["phase"] == "passing" else "playing"

    def act(self, action: dict[str, Any]) -> Answer:
        if not self.started:
            return rejected("no game started", "TURN.ORDER")
        phase, kind = self.phase(), action.get("type")
        if phase == "game-over":
            return rejected("the game is over", "TURN.ORDER")
        expected = {"passing": "pass", "playing": "play", "dealing": "deal"}[phase]
        if kind != expected:
            return rejected(f"a {kind} while {phase}", "TURN.ORDER")
        if kind != "deal" and action.get("seat") not in range(PLAYERS):
            return rejected("no such seat", "TURN.ORDER")
        return {"pass": self.pass_, "play": self.play, "deal": self.deal}[kind](action)

    def pass_(self, action: dict[str, Any]) -> Answer:
        seat, cards = action["seat"], list(action["cards"])
        if self.passes[seat] is not None:
            return rejected("this seat has passed", "PASS.EXCHANGE")
        if len(cards) != PASS_COUNT:
            return rejected("the page passes exactly 3 selected cards", "PASS.CARDS")
        if not holds(self.state["hands"][seat], cards):
            return rejected("a card passed is not in the hand", "PASS.CARDS")
        if TWO_OF_CLUBS in cards:
            return rejected("the page refuses to pass the 2♣", "PASS.CARDS")
        self.passes[seat] = cards
        if all(p is not None for p in self.passes):
            if not self.host({"cmd": "pass", "passes": self.passes}):
                raise RuntimeError("the page did not make the exchange")
            self.passes = []
        return self.observe()

    def play(self, action: dict[str, Any]) -> Answer:
        seat, card = action["seat"], action["card"]
        s = self.state
        if seat != s["current"]:
            return rejected("not this seat's turn", "TURN.ORDER")
        if card not in s["hands"][seat]:
            return rejected("the card is not in the hand", "TURN.ORDER")
        if card not in s["legal"]:
            return rejected("the page does not offer this card", self.refusal_rule(seat, card))
        if not self.host({"cmd": "play", "seat": seat, "card": card}):
            raise RuntimeError(f"the page refused {card}, a card its legalCards offered")
        return self.observe()

    def refusal_rule(self, seat: int, card: str) -> str:
        """The rule a refused card falls under, from the branch of legalCards that refused it."""
        s = self.state
        hand, first = s["hands"][seat], s["trick_number"] == 0
        if first and TWO_OF_CLUBS in hand:
            return "LEAD.OPENING_CARD" if not s["trick"] else "FOLLOW.FIRST_TRICK"
        if not s["trick"]:
            return "LEAD.OPENING_CARD" if first else "LEAD.HEARTS"
        led = s["trick"][0][-1]
        if card[-1] != led and any(c.endswith(led) for c in hand):
            return "FOLLOW.SUIT"
        return "FOLLOW.FIRST_TRICK"

    def deal(self, action: dict[str, Any]) -> Answer:
        hands, extras = action["hands"], action["extras"]
        if len(hands) != PLAYERS or any(len(h) != 13 for h in hands) or extras:
            return rejected("8 hands of 13 cards, no extras", "DEAL.SIZE")
        if Counter(c for h in hands for c in h) != PACKS:
            return rejected("not the two packs", "DECK.CARDS")
        self.host({"cmd": "deal", "hands": hands})
        self.begin_deal()
        return self.observe()

    # ------------------------------------------------------------------ observation
    def winners(self) -> list[int]:
        """The seats the page's closing line names ("Game over. A and B win with N points.")."""
        status = self.state["status"]
        named = status.split("Game over. ", 1)[1].rsplit(" win", 1)[0]
        names = named.split(" and ")
        return sorted(self.state["names"].index(n) for n in names)

    def observe(self) -> Answer:
        s, phase = self.state, self.phase()
        playing, during = phase == "playing", phase in ("passing", "playing")
        over = phase in ("dealing", "game-over")
        # between deals the page has already moved to the next deal's number and dealer
        deal_number = s["round"] - 1 if phase == "dealing" else s["round"]
        dealer = (
            (s["dealer"] - 1) % PLAYERS if phase == "dealing" and not self.undealt else s["dealer"]
        )
        waiting = []
        if phase == "passing":
            waiting = [
                (dealer + k) % PLAYERS
                for k in range(1, PLAYERS + 1)
                if self.passes[(dealer + k) % PLAYERS] is None
            ]
        return {
            "type": "observation",
            "phase": phase,
            "deal_number": deal_number,
            "dealer": dealer,
            "to_act": s["current"] if playing else None,
            "waiting_for": waiting,
            "legal": distinct(s["legal"]) if playing else None,
            "hands": [canonical(h) for h in s["hands"]] if during else None,
            "trick_number": s["trick_number"] + 1 if playing else None,
            "leader": s["leader"] if playing else None,
            "trick": list(s["trick"]) if playing else [],
            "hearts_broken": bool(s["hearts_broken"])
            if phase != "passing" and not self.undealt
            else False,
            "last_trick": self.last_trick() if phase in ("playing", "game-over") else None,
            "pending": canonical(s["pending"]) if playing else [],
            "points": None if self.undealt else list(s["points"]),
            "deal_scores": [a - b for a, b in zip(s["scores"], self.deal_totals, strict=True)]
            if over and not self.undealt
            else None,
            "totals": list(s["scores"]),
            "winners": self.winners() if phase == "game-over" else [],
        }

    def last_trick(self) -> dict[str, Any] | None:
        last = self.state["last_trick"]
        if last is None:
            return None
        number = self.state["trick_number"] if self.phase() == "playing" else 13
        return {
            "number": number,
            "leader": last["leader"],
            "cards": last["cards"],
            "winner": last["winner"],
        }
