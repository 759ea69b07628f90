"""What an adapter sends, checked: the pure half of ``spec/protocol.md``.

Every line the adapter writes is decoded by :func:`decode_answer` and every
answer checked by the functions here (:func:`answer_kind`,
:func:`check_rejection`, :func:`check_error`, :func:`batch_answers`; the
handshake's answer by :mod:`.handshake`). They raise
:class:`AdapterFault` without the evidence; :class:`~rules_ref.protocol.client.AdapterProcess`
adds what the adapter printed. No process and no I/O here.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Sequence
from dataclasses import fields
from functools import cache
from typing import Any

from ..errors import RulesRefError
from ..jsonio.nesting import nests_deeper
from ..registry import spec_toml
from ..ruleset import Ruleset
from ..wording import json_brief, json_kind, json_syntax

#: The longest line (one message) the adapter may write, newline excluded.
MAX_LINE_BYTES = 1024 * 1024
EVIDENCE_LINES = 20
EVIDENCE_CHARS = 2000
#: Nesting deeper than this in a message is refused (no message of the protocol needs 5).
MAX_DEPTH = 32

#: The kinds of :class:`AdapterFault`.
FAULT_KINDS = ("start", "exit", "timeout", "too-long", "not-json", "not-utf8", "shape",
               "wrong-id", "unsolicited", "handshake", "batch", "capability", "form")

#: The optional capabilities a version-2 adapter may declare in ``hello``.
CAPABILITIES = ("position", "batch", "observe", "changes", "pipeline")
#: At most this many actions in one ``batch`` request (``spec/protocol.md``).
MAX_BATCH = 256

#: The switches of ``spec/variants.toml``, as the ruleset names them.
SWITCHES = tuple(f.name for f in fields(Ruleset))


@cache
def first_switches() -> tuple[str, ...]:
    """The switches of the protocol's first version: every ``start`` names them.

    Those whose ``protocol`` is 1 in ``spec/variants.toml``, in its order. A
    switch added later is named only to an adapter that declares it in its
    ``hello`` (an adapter that does not know it plays it at its default, the
    only value the runner then asks for). Read when first asked, not when an
    adapter starts.
    """
    return tuple(s["name"] for s in spec_toml("variants.toml")["switch"]
                 if s.get("protocol") == 1)


class AdapterFault(RulesRefError):
    """The adapter broke the protocol (not a rules disagreement).

    ``kind`` is one of :data:`FAULT_KINDS`: ``start`` (the command cannot
    run), ``exit`` (it exited or closed its output instead of answering),
    ``timeout``, ``too-long``, ``not-json``, ``not-utf8``, ``shape`` (valid
    JSON of the wrong shape or type), ``wrong-id`` (an answer to another
    request), ``unsolicited`` (output nobody asked for), ``handshake``,
    ``batch`` (a batch answered with the wrong number of answers, or answers
    out of order) and ``capability`` (a capability declared in ``hello`` but
    not honoured).
    """

    def __init__(self, kind: str, message: str, stdout: Sequence[str] = (),
                 stderr: str = "", exit_status: int | None = None) -> None:
        self.kind = kind
        self.detail = message
        self.stdout = list(stdout)
        self.stderr = stderr
        self.exit_status = exit_status
        #: The vector being run when the fault happened (``rules-ref vectors run``).
        self.case_id: str | None = None
        super().__init__(f"adapter {kind}: {message}")

    def evidence(self, lines: int = EVIDENCE_LINES) -> str:
        """What the adapter printed (its last ``lines`` lines of standard output), for a report."""
        parts = []
        if self.exit_status is not None:
            parts.append(f"exit status: {describe_status(self.exit_status)}")
        if self.stdout and lines > 0:
            parts.append("last stdout lines:\n" + "\n".join(
                f"  {line}" for line in self.stdout[-lines:]))
        if self.stderr:
            parts.append("stderr (tail):\n" + "\n".join(
                f"  {line}" for line in self.stderr.splitlines()))
        return "\n".join(parts) or "(the adapter printed nothing)"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.detail, "exit_status": self.exit_status,
                "stdout": self.stdout, "stderr": self.stderr}


def describe_status(status: int) -> str:
    """An exit status as ``subprocess`` reports it, in words (``killed by signal SIGKILL``)."""
    if status < 0:
        try:
            return f"killed by signal {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return str(status)


def clipped(text: str, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


def evidence_line(raw: bytes | bytearray) -> bytes:
    """A line kept as evidence: its beginning and end, enough for :func:`shown_bytes`."""
    if len(raw) <= 600:
        return bytes(raw)
    return bytes(raw[:300]) + b" ... " + bytes(raw[-300:])


def shown_bytes(raw: bytes | bytearray, limit: int = 300) -> str:
    """Bytes the adapter wrote, as evidence: decoded leniently, control characters escaped.

    A longer line keeps its beginning and its end (where an unknown field or
    a stray character usually is), with the number of bytes left out.
    """
    def text(part: bytes) -> str:
        decoded = part.decode("utf-8", "backslashreplace")
        return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in decoded)

    if len(raw) <= limit:
        return text(bytes(raw))
    head, tail = limit * 2 // 3, limit // 3
    return (f"{text(bytes(raw[:head]))} …({len(raw) - head - tail} bytes)… "
            f"{text(bytes(raw[-tail:]))}")


# --- what the adapter sends: pure checks ------------------------------------------------------


class _NotInteger(ValueError):
    pass


class _NotJson(ValueError):
    pass


def _reject_float(text: str) -> Any:
    raise _NotInteger(f"the number {text[:40]} is not an integer (the protocol has only "
                      "integers)")


def _reject_constant(text: str) -> Any:
    raise _NotJson(f"{text} is not JSON")


_DECODER = json.JSONDecoder(parse_float=_reject_float, parse_constant=_reject_constant)


def decode_answer(raw: bytes, msg_id: int, what: str = "") -> dict[str, Any]:
    """One line the adapter wrote (newline included or not) as the answer to ``msg_id``.

    Raises :class:`AdapterFault` (without evidence) when it is not UTF-8, not
    JSON, not an object, holds a number that is not an integer, nests more
    than :data:`MAX_DEPTH` deep, or carries no ``id`` or another one.
    """
    about = f"message {msg_id}" + (f" ({what})" if what else "")
    if len(raw) > MAX_LINE_BYTES + 1:
        raise AdapterFault("too-long", f"answer to {about} is longer than {MAX_LINE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AdapterFault("not-utf8", f"answer to {about} is not UTF-8 (byte {exc.start}: "
                           f"{raw[exc.start:exc.start + 1]!r})") from None
    if not text or text.isspace():  # as ``not text.strip()``, without copying the line
        raise AdapterFault("not-json", f"answer to {about} is an empty line")
    if nests_deeper(raw, MAX_DEPTH):
        raise AdapterFault("shape", f"answer to {about} nests lists or objects more than "
                           f"{MAX_DEPTH} deep")
    try:
        data = _DECODER.decode(text)
    except _NotInteger as exc:
        raise AdapterFault("shape", f"answer to {about}: {exc}") from None
    except _NotJson as exc:
        raise AdapterFault("not-json", f"answer to {about} is not JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        raise AdapterFault("not-json", f"answer to {about} is not JSON: "
                           f"{json_syntax(exc.msg)} at column {exc.colno}") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise AdapterFault("shape", f"answer to {about}: {clipped(str(exc), 120)}") from None
    if type(data) is not dict:
        raise AdapterFault("shape", f"answer to {about} is not a JSON object but "
                           f"{json_kind(data)}")
    if "id" not in data:
        raise AdapterFault("unsolicited", f"a message without an id instead of the answer to "
                           f"{about}: the adapter may only answer requests")
    answer_id = data["id"]
    if type(answer_id) is not int:
        raise AdapterFault("shape", f"answer to {about}: id must be an integer, got "
                           f"{json_brief(answer_id)}")
    if answer_id != msg_id:
        raise AdapterFault("wrong-id", f"answer to {about} carries id {json_brief(answer_id)}: an "
                           f"answer to another request")
    return data


def answer_kind(answer: dict[str, Any], allowed: Sequence[str], about: str) -> str:
    """The ``type`` of an answer, which must be one of ``allowed`` (else a ``shape`` fault)."""
    kind = answer.get("type")
    if type(kind) is str and kind in allowed:
        return kind
    expected = " or ".join(allowed)
    if kind == "hello":
        found = "a second hello (the handshake is the first message only)"
    elif "type" not in answer:
        found = "a message without a type"
    else:
        found = f"of type {json_brief(kind)}"
    raise AdapterFault("shape", f"the answer to {about} is {found}; expected {expected}")


def rejection_problems(answer: dict[str, Any]) -> list[str]:
    """What is wrong with a ``rejected`` answer (without ``id`` and ``type``)."""
    problems = []
    unknown = sorted(str(k) for k in answer if k not in ("id", "type", "rule", "reason"))
    if unknown:
        problems.append("unknown field(s) " + ", ".join(unknown))
    if type(answer.get("reason")) is not str:
        problems.append("reason must be text" if "reason" in answer else "reason is missing")
    if "rule" in answer and answer["rule"] is not None and type(answer["rule"]) is not str:
        problems.append(f"rule must be a rule ID, got {json_brief(answer['rule'])}")
    return problems


def check_rejection(answer: dict[str, Any], about: str) -> None:
    """Raise a ``shape`` fault when a ``rejected`` answer is malformed."""
    problems = rejection_problems(answer)
    if problems:
        raise AdapterFault("shape", f"the rejected answer to {about}: {'; '.join(problems)} "
                           '(expected {"type": "rejected", "reason": text, "rule": optional '
                           "rule ID})")


def error_problems(answer: dict[str, Any]) -> list[str]:
    """What is wrong with an ``error`` answer (an internal failure of the implementation)."""
    problems = []
    unknown = sorted(str(k) for k in answer if k not in ("id", "type", "message"))
    if unknown:
        problems.append("unknown field(s) " + ", ".join(unknown))
    if type(answer.get("message")) is not str:
        problems.append("message must be text" if "message" in answer
                        else "message is missing")
    return problems


def check_error(answer: dict[str, Any], about: str) -> None:
    """Raise a ``shape`` fault when an ``error`` answer is malformed."""
    problems = error_problems(answer)
    if problems:
        raise AdapterFault("shape", f"the error answer to {about}: {'; '.join(problems)} "
                           '(expected {"type": "error", "message": text})')


def check_answer(answer: dict[str, Any], allowed: Sequence[str], about: str) -> str:
    """The kind of an answer (one of ``allowed``), a rejection or an error checked too."""
    kind = answer_kind(answer, allowed, about)
    if kind == "rejected":
        check_rejection(answer, about)
    elif kind == "error":
        check_error(answer, about)
    return kind


#: The kinds of answer to one action inside a batch (``changes`` with that capability).
BATCH_ITEM_KINDS = ("observation", "rejected", "error")


def expand_changes(previous: dict[str, Any] | None, changes: dict[str, Any],
                   where: str) -> dict[str, Any]:
    """The observation a ``changes`` answer stands for: ``previous`` with the changes made.

    ``changes`` holds the fields that differ from the previous observation
    the adapter sent; ``hands`` may be an object from seat numbers (as text)
    to the new hands of the seats whose hand changed. The result is a whole
    observation (``type`` ``observation``), judged like any other.
    """
    if previous is None:
        raise AdapterFault("shape", f"{where} is a changes answer, but the adapter has sent no "
                           "observation yet to change")
    # One copy and one update (the same fields in the same order as the observation): a
    # changes answer comes with nearly every action.
    full = previous.copy()
    full.pop("id", None)
    full.update(changes)
    seats = changes.get("hands")
    if type(seats) is dict:
        hands = previous.get("hands")
        if type(hands) is not list:
            raise AdapterFault("shape", f"{where}: hands changes seats, but the previous "
                               f"observation has no hands")
        hands = hands.copy()
        for seat, hand in seats.items():
            # isdecimal, not isdigit: "²" is a digit that int() refuses
            if not (type(seat) is str and seat.isdecimal() and int(seat) < len(hands)):
                raise AdapterFault("shape", f"{where}: hands changes seat {json_brief(seat)}, "
                                   f"not a seat of the {len(hands)} hands")
            hands[int(seat)] = hand
        full["hands"] = hands
    full["type"] = "observation"
    return full


def batch_answers(answer: dict[str, Any], count: int, about: str,
                  kinds: Sequence[str] = BATCH_ITEM_KINDS) -> list[dict[str, Any]]:
    """The answers of a ``batch`` answer to ``count`` actions, each checked, in order.

    Each answer is returned without its ``index``.

    Each answer is an object with ``index`` (its action's place in the batch,
    from 0) and a ``type``: ``observation``, ``rejected`` or ``error``. There
    is one answer per action, except that the answers end with the first
    ``error``. A wrong count or an answer out of order is a ``batch`` fault;
    a malformed rejection or error a ``shape`` fault. The observations' own
    fields are left to the caller (:func:`.observation.observation_problems`).
    """
    kind = answer.get("type")
    if kind != "batch":
        if kind in ("observation", "rejected", "error") or "type" not in answer:
            typed = f"of type {json_brief(kind)}" if "type" in answer else "untyped"
            raise AdapterFault("capability", f"the answer to {about} is {typed}, "
                               "not a batch: the adapter declared the capability batch in its "
                               "hello but does not answer batch requests")
        answer_kind(answer, ("batch",), about)
    unknown = sorted(str(k) for k in answer if k not in ("id", "type", "answers"))
    if unknown:
        raise AdapterFault("shape", f"the batch answer to {about}: unknown field(s) "
                           f"{clipped(', '.join(unknown))}")
    items = answer.get("answers")
    if type(items) is not list:
        raise AdapterFault("shape", f"the batch answer to {about}: answers must be a list, got "
                           f"{json_brief(items)}")
    # The answers that need no more checking than their type (an observation, changes) are
    # the common case, one per action: they skip the wording of a fault (``where``) and
    # check_answer, which give them the same verdict.
    quiet = {kind for kind in ("observation", "changes") if kind in kinds}
    for i, item in enumerate(items):
        if type(item) is not dict:
            raise AdapterFault("shape", f"answer {i} of {about} is not a JSON object but "
                               f"{json_kind(item)}")
        index = item.pop("index", None)
        if index != i or type(index) is not int:
            shown = "no index" if index is None else f"index {json_brief(index)}"
            raise AdapterFault("batch", f"answer {i} of {about} carries {shown}: the answers "
                               f"must come in the order of the actions, each with its index "
                               f"(here {i})")
        kind = item.get("type")
        if type(kind) is str and kind in quiet:
            continue
        kind = check_answer(item, kinds, f"answer {i} of {about}")
        if kind == "error" and i + 1 < len(items):
            raise AdapterFault("batch", f"{about}: answer {i} is an error, yet "
                               f"{len(items) - i - 1} answer(s) follow it (the answers end "
                               "with the first error)")
    ended = bool(items) and items[-1].get("type") == "error"
    if len(items) > count or (len(items) < count and not ended):
        raise AdapterFault("batch", f"{about}: {len(items)} answer(s) to {count} action(s) "
                           "(one answer per action, fewer only when the last is an error)")
    return items
