"""The shape of a game record (``spec/schemas/record.schema.json``), checked before its rules.

A trick may carry, beside its cards, the legal cards the recording engine
offered at each of its decisions (``legal``, one list per card, or null
where it is not known), so that an engine stricter than the rules shows.

:func:`check_shape` raises :class:`~rules_ref.errors.InputError` naming the
JSON path of the first field that is missing, unknown, of the wrong type
or too long; :mod:`rules_ref.records.validate` then checks the rules.
"""

from __future__ import annotations

from typing import Any

from ..cards import parse_card
from ..deal import check_player_count
from ..errors import InputError, RulesRefError, SetupError
from ..jsonio.serialize import FORMAT_VERSION, RECORD_FORMAT, check_object
from ..ruleset import Ruleset
from ..wording import json_kind

#: At most this many deals in a record (as many as `rules-ref play` plays before it gives up).
MAX_DEALS = 1000
#: At most this many entries in any other list of a record (cards, hands, passes, tricks,
#: totals): a deal has 104 cards.
MAX_LIST = 104


_TOP = ("format", "version", "players", "ruleset", "first_dealer", "initial_totals",
        "initial_deal", "deals", "winners")
_DEAL = ("deal_number", "dealer", "hands", "extras", "passes", "tricks", "moon")
SCORED = ("card_points", "scores", "totals", "uncollected")


def _int(value: object, path: str, nullable: bool = False) -> None:
    if value is None and nullable:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"{path}: expected an integer{' or null' if nullable else ''}, "
                         f"got {json_kind(value)}")


def _list(value: object, path: str, nullable: bool = False) -> list[Any]:
    if value is None and nullable:
        return []
    if not isinstance(value, list):
        raise InputError(f"{path}: expected a list{' or null' if nullable else ''}, "
                         f"got {json_kind(value)}")
    if len(value) > MAX_LIST:
        raise InputError(f"{path}: {len(value)} entries, more than {MAX_LIST}")
    return value


def _ints(value: object, path: str) -> None:
    for i, v in enumerate(_list(value, path)):
        _int(v, f"{path}[{i}]")


def _cards(value: object, path: str, nullable: bool = False) -> None:
    for i, v in enumerate(_list(value, path, nullable)):
        if not isinstance(v, str):
            raise InputError(f"{path}[{i}]: expected a card such as 'QS', got {json_kind(v)}")
        try:
            parse_card(v)
        except RulesRefError as exc:
            raise InputError(f"{path}[{i}]: {exc}") from None


def allowed_count(players: int, ruleset: Ruleset) -> bool:
    """Is ``players`` a count ``ruleset`` is played with (``PLAYERS.COUNT``)?"""
    try:
        check_player_count(players, ruleset.min_players)
    except SetupError:
        return False
    return True


def check_shape(data: object) -> dict[str, Any]:
    """Check the JSON shape of a record; raise :class:`InputError` naming the JSON path."""
    if isinstance(data, dict) and data.get("format") != RECORD_FORMAT:
        what = (f"its format is {str(data['format'])[:60]!r}" if "format" in data else
                "it has no format")
        raise InputError(f"format: not a game record ({what}; a record has format "
                         f"{RECORD_FORMAT!r}; `rules-ref show` reads replay files and "
                         "positions)")
    top = check_object(data, "record", _TOP, ("seed",))
    if top["format"] != RECORD_FORMAT:
        raise InputError(f"format: expected {RECORD_FORMAT!r}, got {top['format']!r:.60}")
    if top["version"] != FORMAT_VERSION:
        raise InputError(f"version: this validator reads version {FORMAT_VERSION}, "
                         f"got {top['version']!r:.20}")
    for key in ("players", "first_dealer", "initial_deal"):
        _int(top[key], key)
    _int(top.get("seed"), "seed", nullable=True)
    ruleset = Ruleset.from_dict(top["ruleset"], "ruleset")
    _ints(top["initial_totals"], "initial_totals")
    if len(top["initial_totals"]) != top["players"] and allowed_count(top["players"], ruleset):
        # a count the rules refuse is reported as such (PLAYERS.COUNT), not as the totals'
        # length
        raise InputError(f"initial_totals: {len(top['initial_totals'])} totals for "
                         f"{top['players']} players")
    _ints(top["winners"], "winners")
    deals = top["deals"]
    if not isinstance(deals, list):
        raise InputError(f"deals: expected a list, got {json_kind(deals)}")
    if len(deals) > MAX_DEALS:
        raise InputError(f"deals: {len(deals)} deals, more than {MAX_DEALS}")
    for di, deal in enumerate(deals):
        p = f"deals[{di}]"
        d = check_object(deal, p, _DEAL, SCORED)
        _int(d["deal_number"], f"{p}.deal_number")
        _int(d["dealer"], f"{p}.dealer")
        for si, hand in enumerate(_list(d["hands"], f"{p}.hands")):
            _cards(hand, f"{p}.hands[{si}]")
        _cards(d["extras"], f"{p}.extras")
        for si, passed in enumerate(_list(d["passes"], f"{p}.passes", nullable=True)):
            _cards(passed, f"{p}.passes[{si}]", nullable=True)
        for ti, trick in enumerate(_list(d["tricks"], f"{p}.tricks")):
            t = check_object(trick, f"{p}.tricks[{ti}]", ("leader", "cards", "winner"), ("legal",))
            _int(t["leader"], f"{p}.tricks[{ti}].leader")
            _int(t["winner"], f"{p}.tricks[{ti}].winner", nullable=True)
            _cards(t["cards"], f"{p}.tricks[{ti}].cards")
            if "legal" in t:
                offered = _list(t["legal"], f"{p}.tricks[{ti}].legal")
                if len(offered) > len(t["cards"]):
                    raise InputError(f"{p}.tricks[{ti}].legal: {len(offered)} entries for "
                                     f"{len(t['cards'])} cards")
                for ci, cards in enumerate(offered):
                    _cards(cards, f"{p}.tricks[{ti}].legal[{ci}]", nullable=True)
        if d["moon"] is not None:
            m = check_object(d["moon"], f"{p}.moon", ("shooter", "choice"), ("partner",))
            _int(m["shooter"], f"{p}.moon.shooter")
            if "partner" in m:
                _int(m["partner"], f"{p}.moon.partner")
            if m["choice"] not in ("subtract", "add", None):
                raise InputError(f"{p}.moon.choice: expected 'subtract', 'add' or null, "
                                 f"got {m['choice']!r:.40}")
        for key in ("card_points", "scores", "totals"):
            if key in d:
                _ints(d[key], f"{p}.{key}")
        if "uncollected" in d:
            _cards(d["uncollected"], f"{p}.uncollected")
    return top
