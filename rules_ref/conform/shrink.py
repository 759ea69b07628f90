"""Shrinking every divergence class to a minimal example, the budget shared between them.

After the search, each class (:mod:`~rules_ref.findings.classes`) gets a minimal game that
still shows *that* class when played alone against the adapter: the position
just before the divergent action and that action, when the adapter starts from
positions; otherwise the game cut to the start of the deal in which it
diverged, then with actions left out as long as the class still shows; then
the switches of its ruleset are set back to their defaults, one at a time, as
long as it still shows, the recorded actions drawn again where the plainer
rules no longer allow them (:func:`.rebuild.redrawn`: a 3-card pass for a
4-card one), and its start is made the first deal at zero totals where
it still shows. That is the plainest game: the default ruleset, or as few
changed switches as the difference needs, at the adapter's most common
player count, in the first deal it can show in and in as few actions as it
can (:func:`~rules_ref.findings.classes.plainness`). The search keeps the
plainest occurrence at each player count; shrinking starts from the one at
the adapter's most common count (:func:`common_players`: the count it
declares nearest the default table of 8 players) and, unless that ends in
the default ruleset, from the plainest occurrence anywhere too, keeping
the plainer example. A difference at the start of a game alone is tried
at the plainest table first: the most common count, the first deal of a
game at zero totals, dealt from seed 0.

Where the example is still not the plainest (another count, switches
changed, a later deal), the failing game is rebuilt rather than edited: a
few directed games (:class:`.rebuild.Rebuild`) at the most common count,
under the default ruleset, then under the example's own ruleset, from a
first deal at zero totals, each aimed at a condition of the class's rule,
look for the same class; what they find is shrunk as above, and the plainer
example is kept. Every candidate is checked by playing it
(:class:`Checker`, one adapter process for all checks). The classes take
turns, one check each (round robin), until every class is done or
``--shrink-seconds`` is spent; every class gets its first check whatever the budget, so
what a run reports does not depend on the machine's speed (a run that must
report the same examples on every machine gives a budget its checks never reach).
The search's own games, counts and verdict are settled before and stay as they were.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action, DealCards
from ..cards import parse_card
from ..deal import deal_allowed
from ..errors import RulesRefError, SetupError
from ..findings.classes import (
    Finding,
    changed_switches,
    plainness,
    start_deal,
    start_totals,
)
from ..findings.error_causes import blamed_on, keys_of
from ..findings.failure import Failure, FoundFailure, Stats
from ..jsonio.serialize import action_from_json, ruleset_from_json
from ..protocol.client import AdapterProcess
from ..protocol.handshake import Supports
from ..protocol.messages import AdapterFault
from ..protocol.start import dealt_start, position_start_json, requested_state, seeded_start
from ..ruleset import DEFAULT, Ruleset
from ..state import GameState
from .aims import focus_keys
from .choosers import RulesetDrawer
from .conversation import MAX_DEALS_PER_GAME, position_record
from .outcome import Config, Outcome
from .rebuild import Rebuild, fits, play_rebuild, redrawn
from .rerun import play_game
from .session import Session

#: At most this many checks for one class (a rebuilt game is one check).
MAX_CHECKS_PER_CLASS = 240
#: At most this many directed games for one class at one setting and first deal.
REBUILD_GAMES = 8

#: A game to check: its start and its actions.
Candidate = tuple[dict[str, Any], list[dict[str, Any]]]
#: What a class's shrinker asks the checker: a game to play, or a directed game to draw.
Check = Candidate | Rebuild


class Checker:
    """Plays candidate games against one adapter process (started again after a fault)."""

    def __init__(self, config: Config, drawer: RulesetDrawer | None = None) -> None:
        self.config = config
        self.proc: AdapterProcess | None = None
        self.checks = 0
        #: The rulesets of the adapter's handshake, for the directed games (:meth:`rebuilt`).
        self.drawer = drawer

    def _adapter(self) -> AdapterProcess:
        if self.proc is None or not self.proc.alive():
            self.close()
            self.proc = self.config.open_adapter()
            self.proc.hello(self.config.versions)
        return self.proc

    def can(self, capability: str) -> bool:
        try:
            return self._adapter().can(capability)
        except AdapterFault:
            return False

    def first_failure(self, start: dict[str, Any], actions: list[dict[str, Any]]
                      ) -> Failure | None:
        """The first failure of a game played alone (None: it agrees, or cannot be played)."""
        self.checks += 1
        try:
            parsed: list[Action] = [action_from_json(a) for a in actions]
            # a start that is no game of the rules (a switch set back) is no candidate;
            # a table the rules refuse is one (the session judges its start)
            requested_state(start)
        except SetupError:
            pass
        except RulesRefError:
            return None
        try:
            proc = self._adapter()
        except AdapterFault:
            return None
        session = Session(proc, Stats(), check_every=1, position=position_record,
                          batch=self.config.batch)
        try:
            play_game(session, start, parsed)
        except FoundFailure as found:
            return found.failure
        except AdapterFault as fault:
            failure = session.fault_failure(fault)
            self.close()
            return failure
        finally:
            session.abandon()
        return None

    def check(self, check: Check) -> Failure | None:
        """The failure a check finds: a game played alone, or a directed game's (None: none)."""
        if isinstance(check, Rebuild):
            return self.rebuilt(check)
        return self.first_failure(*check)

    def rebuilt(self, request: Rebuild) -> Failure | None:
        """The first divergence of ``request``'s class in its directed game (None: none)."""
        self.checks += 1
        if self.drawer is None:  # pragma: no cover - a run with classes has a handshake
            return None
        try:
            return play_rebuild(self._adapter(), request, self.drawer, self.config.batch, _keys)
        except AdapterFault:
            self.close()
            return None

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None


def _keys(failure: Failure | None) -> frozenset[str]:
    """The keys of the findings ``failure`` shows (none for no failure)."""
    return frozenset() if failure is None else keys_of(failure)


def _deal_start(failure: Failure) -> Candidate | None:
    """The game from the start of the deal the failure happened in (None: it is the first)."""
    start = failure.start
    try:
        state = requested_state(start)
    except RulesRefError:
        return None
    found: tuple[GameState, DealCards, int] | None = None
    for i, action_json in enumerate(failure.actions[:-1] if failure.failing else
                                    failure.actions):
        try:
            action = action_from_json(action_json)
            before = state
            state, _ = state.apply(action)
        except RulesRefError:
            continue
        if isinstance(action, DealCards):
            found = (before, action, i)
    if found is None:
        return None
    before, deal, i = found
    msg = dealt_start(before.ruleset, deal.hands, deal.extras,
                      deal_number=before.deal_number + 1, dealer=before.dealer_of_next_deal,
                      totals=before.totals)
    return msg, failure.actions[i + 1:]


#: The plainest table: the default game of ``rules-ref play``.
PLAIN_PLAYERS = 8


def common_players(counts: Sequence[int]) -> int | None:
    """The adapter's most common player count, among the ``counts`` the run plays.

    The counts are those the adapter declares (``supports.players`` of its
    ``hello``), or the one ``--players`` asks for: an adapter of one count has
    it, and of several the one nearest :data:`PLAIN_PLAYERS`, the table most
    games are played at, then the smaller (6 to 11: 8; 10 and 11: 10).
    ``None`` when there is none.
    """
    return min(counts, key=lambda n: (abs(n - PLAIN_PLAYERS), n)) if counts else None


def _plain_start(start: dict[str, Any], players: int,
                 constraints: Sequence[str] = ()) -> dict[str, Any] | None:
    """The plainest start of ``start``'s ruleset: ``players`` seats, the first deal of a game
    with zero totals, dealt from seed 0 (None: the ruleset does not play that count, or the
    adapter never makes that deal: it breaks one of its deal ``constraints``)."""
    try:
        msg = seeded_start(players, ruleset_from_json(start.get("ruleset")), 0)
    except RulesRefError:  # pragma: no cover - the counts and rulesets come from the run
        return None
    hands = [[parse_card(c) for c in hand] for hand in msg["hands"]]
    allowed = deal_allowed(hands, [parse_card(c) for c in msg["extras"]], constraints)
    return msg if allowed else None


Shrinker = Generator[Check, Failure | None, None]


@dataclass(frozen=True)
class _Plan:
    """What the shrinking of a run aims at, and within what it stays.

    ``positions``: the adapter starts from positions; ``common``: its most
    common player count; ``rulesets``: the ruleset a run may play (a run of
    one fixed ruleset plays that one alone; otherwise what the adapter
    supports, :meth:`~rules_ref.protocol.handshake.Supports.allows`), so no
    example is under rules the implementation does not claim to play;
    ``rebuild``: how failing games are rebuilt (None: they are not).
    """

    positions: bool
    common: int | None
    rulesets: Callable[[Ruleset], bool] = lambda ruleset: True
    rebuild: _Rebuilding | None = None
    #: The adapter's deal constraints: no example is dealt a deal it never makes.
    deals: tuple[str, ...] = ()

    def plays(self, ruleset: object) -> bool:
        """True if the run may play ``ruleset`` (a ruleset's JSON form)."""
        if not isinstance(ruleset, dict):
            return False
        try:
            return self.rulesets(Ruleset.from_dict(ruleset))
        except RulesRefError:
            return False


def _shrinker(cls: Finding, plan: _Plan) -> Shrinker:
    """The candidates of one class, each sent the failure its check found.

    Shrunk from its plainest occurrence at the adapter's most common count
    ``common`` first; unless that ends in the default ruleset, from its
    plainest occurrence anywhere too, and the plainer example is kept. Then,
    unless it is the plainest game there is, rebuilt at the common count
    (:func:`_rebuilt`, when the plan says how).
    """
    common = plan.common
    plainest = cls.plainest(common)
    at_common = cls.by_players.get(common) if common is not None else None
    bases = [plainest] if at_common in (None, plainest) else [at_common, plainest]
    kept: tuple[Failure, str] | None = None
    for base in bases:
        kept = _plainer_of(kept, (yield from _attempt(cls, base, plan)), common)
        if kept is not None and plainness(kept[0], common)[:2] == (0, 0):
            break  # the default ruleset at the most common count: none is plainer
    if plan.rebuild is not None and common is not None:
        kept = yield from _rebuilt(cls, kept, plan, common, plan.rebuild)
    if kept is not None:
        cls.example, cls.shrunk = kept


def _attempt(cls: Finding, base: Failure, plan: _Plan
             ) -> Generator[Check, Failure | None, tuple[Failure, str] | None]:
    """Shrink ``cls`` from ``base``: the example it ends in and how (None: not reproduced)."""
    cls.example, cls.shrunk = None, ""
    yield from _shrink_from(cls, base, plan)
    return (cls.example, cls.shrunk) if cls.example is not None else None


def _plainer_of(kept: tuple[Failure, str] | None, found: tuple[Failure, str] | None,
                common: int | None) -> tuple[Failure, str] | None:
    """The plainer of two examples (the one kept on a tie)."""
    if found is None:
        return kept
    if kept is None or plainness(found[0], common) < plainness(kept[0], common):
        return found
    return kept


class _Rebuilding:
    """What the directed games of a run share: the seed, the conditions they may aim at."""

    def __init__(self, seed: int, drawer: RulesetDrawer) -> None:
        self.seed = seed
        self.drawer = drawer

    def focuses(self, cls: Finding, players: int, ruleset: Ruleset) -> list[str | None]:
        """No focus, then each condition of the catalogue of the class's rules."""
        rules = dict.fromkeys([r for r in (cls.rule, *cls.rules) if r])
        keys = focus_keys(self.drawer.catalogue((players,), ruleset),
                          self.drawer.scope((players,), ruleset))
        return [None, *[k for k in keys if k.split(": ", 1)[0] in rules]]

    def seed_of(self, cls: Finding, *parts: object) -> int:
        """The seed of one directed game: the run's seed, the class, the game's place."""
        return zlib.crc32(repr((self.seed, cls.key, *parts)).encode())


def _rebuilt(cls: Finding, kept: tuple[Failure, str] | None, plan: _Plan, common: int,
             rebuild: _Rebuilding) -> Generator[Check, Failure | None,
                                                tuple[Failure, str] | None]:
    """``kept``, or a plainer example from directed games at ``common`` players.

    The settings, plainest first: the default ruleset, then the example's
    own (its switches as the shrinking left them). Each game begins at a
    first deal of zero totals and plays several deals; with positions the
    implementation is brought back in step after another class's divergence,
    so the games begin at deal 1; without, the rest of a deal after a
    divergence is played by the reference alone, so they begin at each deal
    up to the one the example shows it in. At most :data:`REBUILD_GAMES` games
    per setting and first deal, fewer once no game there can find a plainer
    example.
    """
    example = kept[0] if kept is not None else cls.plainest(common)
    if _refused(example.start):
        return kept  # a table the rules refuse is the difference itself
    rulesets: list[Ruleset] = []
    for ruleset in (DEFAULT, _ruleset_of(example)):
        fitted = fits(ruleset, common) if ruleset is not None else None
        if fitted is not None and fitted not in rulesets and plan.rulesets(fitted):
            rulesets.append(fitted)
    illegal = example.expected.get("type") == "rejected"
    last = min(plainness(example, common)[2], MAX_DEALS_PER_GAME)
    for ruleset in rulesets:
        changed = len(ruleset.changed())
        focuses = rebuild.focuses(cls, common, ruleset)
        for deal in range(1, 2 if plan.positions else last + 1):
            for game in range(REBUILD_GAMES):
                if kept is not None and plainness(kept[0], common)[:3] <= (changed, 0, deal):
                    break  # no game of this setting can be plainer
                request = Rebuild(cls.key, common, ruleset, deal,
                                  rebuild.seed_of(cls, ruleset.to_dict(), deal, game),
                                  focuses[game % len(focuses)], illegal)
                found = yield request
                if cls.key not in _keys(found):
                    continue
                assert found is not None
                kept = _plainer_of(kept, (yield from _attempt(cls, found, plan)), common)
    return kept


def _refused(start: dict[str, Any]) -> bool:
    """True if the rules refuse the table of ``start``."""
    try:
        requested_state(start)
    except SetupError:
        return True
    except RulesRefError:
        return False
    return False


def _ruleset_of(failure: Failure) -> Ruleset | None:
    """The ruleset of a failure's game (None: it names none the rules know)."""
    ruleset = failure.start.get("ruleset")
    try:
        return Ruleset.from_dict(ruleset) if isinstance(ruleset, dict) else None
    except RulesRefError:
        return None


def _shrink_from(cls: Finding, base: Failure, plan: _Plan) -> Shrinker:
    """Shrink ``cls`` from its occurrence ``base``; the example found is ``cls.example``."""
    positions, common = plan.positions, plan.common
    best: Failure | None = None

    def take(found: Failure | None, how: str) -> bool:
        nonlocal best
        if cls.key not in _keys(found):
            return False
        assert found is not None
        best = found
        # an internal error shown again: its finding's rule first (the trigger's)
        cls.example = blamed_on(found, cls.rule) if found.kind == "error" else found
        cls.shrunk = how
        return True

    if base.failing is not None and base.before_position is not None and positions:
        base = yield from _reset_dealt(cls, base, plan)
        # both kept so by _reset_dealt
        assert base.failing is not None and base.before_position is not None
        msg = position_start_json(base.start["players"], base.start["ruleset"],
                                  base.before_position)
        if take((yield msg, [base.failing]), "position"):
            yield from _plainer(cls, take, plan)
            return
    if base.failing is None and not base.actions and "position" not in base.start:
        plain = _plain_start(base.start, common or base.start.get("players") or PLAIN_PLAYERS,
                             plan.deals)
        if plain is not None and plain != base.start and take((yield plain, []), "start"):
            yield from _plainer(cls, take, plan)
            return
    if not take((yield base.start, base.actions), "as found" if base.actions else "start"):
        cut = _deal_start(base)
        if cut is None or not take((yield cut), "deal"):
            cls.shrunk = "not reproduced alone"
            return
    cut = _deal_start(best) if best is not None else None
    if cut is not None:
        take((yield cut), "deal")
    assert best is not None
    # leave out runs of actions, halving the run each pass, the failing action kept last
    size = max(1, (len(best.actions) - 1) // 2)
    while size >= 1 and best is not None:
        i = 0
        while i < len(best.actions) - 1:
            actions = best.actions[:i] + best.actions[i + size:]
            if not take((yield best.start, actions), "actions"):
                i += size
        size //= 2
    yield from _plainer(cls, take, plan)
    if cls.shrunk == "as found":
        cls.shrunk = "no smaller game shows it"


def _reset_dealt(cls: Finding, base: Failure, plan: _Plan
                 ) -> Generator[Check, Failure | None, Failure]:
    """``base``, or the same deal played with switches set back to their defaults where it
    still shows the class (the recorded actions drawn again, :func:`.rebuild.redrawn`).

    Before a position is taken from it: a position holds what its ruleset made
    of the game (the passes of ``pass_count`` cards), so a switch that shaped
    it cannot be set back in the position itself.
    """
    cut = _deal_start(base) if "position" not in base.start or base.actions else None
    if "position" not in base.start and cut is None:
        cut = (base.start, base.actions)
    if cut is None:
        return base
    start, actions = cut
    default = DEFAULT.to_dict()
    again = True
    while again:
        again = False
        ruleset = start.get("ruleset")
        for name in [k for k in changed_switches(base) if k in default]:
            if not isinstance(ruleset, dict):
                break
            plainer = {**start, "ruleset": {**ruleset, name: default[name]}}
            redrawn_actions = redrawn(start, plainer, actions)
            if redrawn_actions is None or not plan.plays(plainer["ruleset"]):
                continue
            found = yield plainer, redrawn_actions
            if cls.key in _keys(found) and found is not None and found.failing is not None \
                    and found.before_position is not None:
                base, start, actions, again = found, found.start, found.actions, True
                break
    return base


def _plainer(cls: Finding, take: Callable[[Failure | None, str], bool], plan: _Plan
             ) -> Shrinker:
    """Set the example's switches back to their defaults, one at a time, and begin it at the
    first deal and at zero totals, while it still shows.

    The plainest game is the one a reader checks first: the default
    ruleset, or as few switches changed as the difference needs, in the
    first deal it shows in. The actions are drawn again where the plainer
    game no longer allows them (:func:`.rebuild.redrawn`). After each
    change that keeps the class the edits are tried again (zero totals may
    let a target be set back, say).
    """
    default = DEFAULT.to_dict()
    while cls.example is not None:
        best = cls.example
        ruleset = best.start.get("ruleset")
        if not isinstance(ruleset, dict):
            return
        edits = [{**best.start, "ruleset": {**ruleset, name: default[name]}}
                 for name in changed_switches(best) if name in default]
        edits = [e for e in edits if plan.plays(e["ruleset"])]
        for start in [*edits, *_plainer_starts(best.start)]:
            actions = redrawn(best.start, start, best.actions)
            if actions is not None and take((yield start, actions), cls.shrunk or "as found"):
                break
        else:
            return


def _plainer_starts(start: dict[str, Any]) -> list[dict[str, Any]]:
    """``start`` begun at the first deal at zero totals, then at zero totals alone
    (those that differ from it), the plainest first."""
    position = start.get("position")
    head = position if isinstance(position, dict) else start
    totals = start_totals(start)
    zero = [0] * len(totals)
    starts = []
    for changes in ({"deal_number": 1, "totals": zero}, {"totals": zero}):
        changed = {**head, **changes}
        if changed == head or (changes.get("deal_number") and start_deal(start) == 1):
            continue
        starts.append({**start, "position": changed} if head is position else changed)
    return starts


def _played(fixed: Ruleset | None, supports: Supports | None) -> Callable[[Ruleset], bool]:
    """Which rulesets a run plays: ``fixed`` alone, else those ``supports`` allows."""
    if fixed is not None:
        return lambda ruleset: ruleset == fixed
    if supports is None:  # pragma: no cover - a run with classes has a handshake
        return lambda ruleset: True
    return lambda ruleset: not supports.allows(ruleset)


def shrink_classes(config: Config, outcome: Outcome) -> Outcome:
    """Shrink every class of ``outcome`` in turn within the budget; returns ``outcome``."""
    findings = outcome.findings
    if findings is None:
        return outcome
    todo = [c for c in findings.ordered() if c.kind != "fault" and c.example is None]
    supports = outcome.supports
    drawer = RulesetDrawer(supports) if supports is not None else None
    checker = Checker(config, drawer)
    began = time.monotonic()
    try:
        positions = bool(todo) and checker.can("position")
        declared = supports.players if supports is not None else ()
        common = common_players((config.players,) if config.players else declared)
        plan = _Plan(positions, common, _played(config.ruleset, supports),
                     _Rebuilding(config.seed, drawer) if drawer is not None else None,
                     supports.deal_constraints if supports is not None else ())
        active: list[tuple[Finding, Shrinker, Check, int]] = []
        for cls in todo:
            gen = _shrinker(cls, plan)
            active.append((cls, gen, next(gen), 0))
        first_round = True
        while active:
            still = []
            for n, (cls, gen, candidate, checks) in enumerate(active):
                if not first_round and time.monotonic() - began >= config.shrink_budget:
                    still.extend(active[n:])
                    break
                try:
                    following = gen.send(checker.check(candidate))
                except StopIteration:
                    continue
                if checks + 1 < MAX_CHECKS_PER_CLASS:
                    still.append((cls, gen, following, checks + 1))
            first_round = False
            active = still
            if time.monotonic() - began >= config.shrink_budget:
                break
        for _, gen, _, _ in active:
            gen.close()
    finally:
        checker.close()
    for cls in findings.classes.values():
        if cls.example is None:
            cls.example = cls.smallest or cls.first
            cls.shrunk = cls.shrunk or "not shrunk"
        if cls.shrunk == "not reproduced alone" and not cls.example.note:
            cls.example.note = ("played alone, this game does not show the divergence again: "
                                "the implementation may keep state between games")
    return outcome
