"""The adapter protocol (``spec/protocol.md``), both sides of the wire.

The runner's side, which drives an implementation under test:

* :mod:`.pipe`: the adapter process, one JSON line each way, the evidence, the end;
* :mod:`.client`: :class:`AdapterProcess`, the conversation over the pipe
  (the handshake, one request at a time, the batches of version 2);
* :mod:`.in_process`: :class:`InProcessAdapter`, the same conversation with an
  adapter object in this process;
* :mod:`.messages`: what an adapter sends, checked (the pure half, raising
  :class:`AdapterFault`);
* :mod:`.handshake`: the ``hello`` answer and what it declares it supports;
* :mod:`.observation`: what is compared after every action (:func:`observe`).

Both sides: :mod:`.start`, the ``start`` request, written (:func:`dealt_start`,
:func:`seeded_start`, :func:`position_start`, :func:`position_start_json`) and read
into the state it asks for (:func:`checked_start`, :func:`start_state`,
:func:`position_state`, :func:`requested_state`).

The reference's side: :mod:`.reference_adapter`, the reference engine behind the
protocol, is a program of its own (``rules-ref adapter``); it is not imported here.
"""

from __future__ import annotations

from .client import AdapterProcess, Connect
from .handshake import Supports, check_hello, parse_supports, switch_values, unsupported_switches
from .in_process import Answerer, InProcessAdapter, in_process
from .messages import AdapterFault
from .observation import (
    PROTOCOL_NAME,
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    observation_problems,
    observe,
)
from .pipe import DEFAULT_TIMEOUT, AdapterPipe
from .start import (
    checked_start,
    dealt_start,
    position_start,
    position_start_json,
    position_state,
    requested_state,
    seeded_start,
    start_state,
)

__all__ = ["DEFAULT_TIMEOUT", "PROTOCOL_NAME", "PROTOCOL_VERSION", "PROTOCOL_VERSIONS",
           "AdapterFault", "AdapterPipe", "AdapterProcess", "Answerer", "Connect",
           "InProcessAdapter", "Supports", "check_hello", "checked_start", "dealt_start",
           "in_process", "observation_problems", "observe", "parse_supports", "position_start",
           "position_start_json", "position_state", "requested_state", "seeded_start",
           "start_state", "switch_values", "unsupported_switches"]
