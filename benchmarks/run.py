"""Benchmarks: speed and memory figures of the reference engine and the conformance kit.

    .venv/bin/python benchmarks/run.py [--quick] [--with-tests] [--json] [--only SECTIONS]
    make bench [ONLY=SECTIONS]

``--only`` (``ONLY=`` for make) runs only the sections named, comma-separated, of
engine, speed-layer (the engine with and without its generated copiers), openspiel
(it needs engine), memory, conform, jobs, vectors and tests;
``--only conform`` takes the conform rows alone, so that several runs can be taken
quickly.

Prints one table, with the load average of the machine at its start and end
(and, in the conform rows, over their runs): the rates of a shared machine are
read beside it. Every figure is the median of repeated runs, with the
spread (min-max) beside it, and the table says which Python and machine it
ran on. Nothing here is a pass/fail test: machines are noisy, so the
figures are read, compared with the targets, and kept in the closing notes.

The OpenSpiel anchor runs when an interpreter that imports ``pyspiel`` is
found: ``$OPENSPIEL_PYTHON``, else ``.venv-bench/bin/python`` (created by
``python3 -m venv .venv-bench && .venv-bench/bin/pip install open_spiel==2.0.2``).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_ref import DealCards, GameState, Pass, Play, Ruleset, seeded_deal  # noqa: E402
from rules_ref.players.game import play_game  # noqa: E402
from rules_ref.records.record import record_from_state  # noqa: E402
from rules_ref.state_parts import Phase  # noqa: E402

Row = tuple[str, str, str]


def median_spread(values: list[float], fmt: str = "{:,.0f}") -> str:
    med = statistics.median(values)
    if len(values) == 1:
        return fmt.format(med)
    return f"{fmt.format(med)}  ({fmt.format(min(values))}-{fmt.format(max(values))})"


# --- engine throughput -------------------------------------------------------------------

def playout_deals(players: int, deals: int, seed: int,
                  timed: bool) -> tuple[int, float, float, float]:
    """Random legal playouts of whole deals (passing included) through the public API.

    Returns (card plays, seconds in legal_plays, seconds in apply, total
    seconds). With ``timed`` false the loop takes no timings inside, so its
    total is the honest throughput; with ``timed`` true it splits the cost
    of a card play between computing the legal plays and applying one.
    """
    rng = random.Random(seed)
    ruleset = Ruleset()
    plays = 0
    t_legal = t_apply = 0.0
    clock = time.perf_counter
    start = clock()
    for k in range(deals):
        state = GameState.start(players, ruleset)
        d = seeded_deal(seed * 1000 + k, players, 1, 0)
        state, _ = state.apply(DealCards(d.hands, d.extras))
        for seat in state.waiting_for:
            state, _ = state.apply(Pass(seat, tuple(rng.sample(state.hands[seat], 3))))
        while state.phase is Phase.PLAYING:
            if timed:
                t0 = clock()
                options = state.legal_plays()
                t1 = clock()
                state, _ = state.apply(Play(state.to_act or 0, rng.choice(options)))
                t_legal += t1 - t0
                t_apply += clock() - t1
            else:
                state, _ = state.apply(Play(state.to_act or 0, rng.choice(state.legal_plays())))
            plays += 1
        if state.phase is Phase.MOON_CHOICE:
            state, _ = state.apply(state.legal_actions()[0])
    return plays, t_legal, t_apply, clock() - start


def engine(repeats: int, deals: int) -> tuple[list[Row], dict[str, Any]]:
    rows: list[Row] = []
    data: dict[str, Any] = {}
    for players in range(6, 12):
        playout_deals(players, 5, 99, False)  # warm-up
        runs = [playout_deals(players, deals, r, False) for r in range(repeats)]
        split = [playout_deals(players, deals, r, True) for r in range(repeats)]
        us_play = [r[3] / r[0] * 1e6 for r in runs]
        data[players] = {
            "plays_per_s": [r[0] / r[3] for r in runs],
            "deals_per_s": [deals / r[3] for r in runs],
            "us_per_play": us_play,
            "us_legal": [r[1] / r[0] * 1e6 for r in split],
            "us_apply": [r[2] / r[0] * 1e6 for r in split],
            "us_per_deal": [r[3] / deals * 1e6 for r in runs],
        }
        d = data[players]
        rows.append((f"engine {players}p: card plays/s", median_spread(d["plays_per_s"]), ""))
        rows.append((f"engine {players}p: deals/s", median_spread(d["deals_per_s"]), ""))
        rows.append((f"engine {players}p: us per card play, all in",
                     median_spread(us_play, "{:.2f}"),
                     f"legal {statistics.median(d['us_legal']):.2f} / "
                     f"apply {statistics.median(d['us_apply']):.2f}"))
    base = statistics.median(data[6]["us_per_deal"])
    growth = ", ".join(f"{n}p x{statistics.median(data[n]['us_per_deal']) / base:.2f}"
                       for n in range(6, 12))
    rows.append(("engine: cost per deal relative to 6 players", "", growth))
    return rows, data


# --- what the engine's speed layer buys --------------------------------------------------

@contextlib.contextmanager
def replace_copies() -> Iterator[None]:
    """The engine copying states and parts with :func:`dataclasses.replace`, while the
    block runs (restored after), instead of the copiers that
    :func:`rules_ref.state_parts.copier` generates. The rules played are the same."""
    from rules_ref import state as state_module
    from rules_ref import transitions

    saved = (GameState.__dict__["_with_own"], GameState.__dict__["_after_play"],
             transitions.copy_deal, transitions.copy_game, state_module.copy_deal,
             state_module.copy_game)

    def replaced(obj: Any, **changes: Any) -> Any:
        return dataclasses.replace(obj, **changes)

    def with_own(state: GameState, **changes: Any) -> GameState:
        return dataclasses.replace(state, legal_cache=None, **changes)

    def after_play(state: GameState, hands: Any, trick: Any, deal: Any, history: Any
                   ) -> GameState:
        return dataclasses.replace(state, hands=hands, trick=trick, deal=deal, history=history,
                                   legal_cache=None)

    try:
        GameState._with_own = with_own  # type: ignore[assignment]
        GameState._after_play = after_play  # type: ignore[assignment]
        transitions.copy_deal = transitions.copy_game = replaced
        state_module.copy_deal = state_module.copy_game = replaced
        yield
    finally:
        (GameState._with_own, GameState._after_play, transitions.copy_deal,  # type: ignore[misc]
         transitions.copy_game, state_module.copy_deal, state_module.copy_game) = saved


def speed_layer(repeats: int, deals: int, players: int = 8) -> tuple[list[Row], dict[str, Any]]:
    """The engine's cost per card play with its generated copiers and with
    :func:`dataclasses.replace` instead (:func:`replace_copies`).

    Interleaved runs of the same playouts (:func:`playout_deals`), so that both
    see the same machine; :func:`rules_ref.state_parts.copier` cites this row.
    """
    us: dict[str, list[float]] = {"generated copiers": [], "dataclasses.replace": []}
    playout_deals(players, 5, 99, False)  # warm-up
    for r in range(repeats):
        us["generated copiers"].append(_us_per_play(players, deals, r))
        with replace_copies():
            us["dataclasses.replace"].append(_us_per_play(players, deals, r))
    ratio = statistics.median(us["dataclasses.replace"]) / statistics.median(
        us["generated copiers"])
    rows: list[Row] = [(f"engine {players}p: us per card play, generated copiers | "
                        "dataclasses.replace", " | ".join(median_spread(v, "{:.2f}")
                                                           for v in us.values()),
                        f"x{ratio:.2f} without the generated copiers (state_parts.copier)")]
    return rows, {"players": players, "us_per_play": us, "ratio": ratio}


def _us_per_play(players: int, deals: int, seed: int) -> float:
    plays, _, _, seconds = playout_deals(players, deals, seed, False)
    return seconds / plays * 1e6


# --- the OpenSpiel anchor ---------------------------------------------------------------

def openspiel_python() -> str | None:
    candidates = [os.environ.get("OPENSPIEL_PYTHON", ""), str(ROOT / ".venv-bench/bin/python")]
    for c in candidates:
        if c and Path(c).exists():
            return c
    return None


def openspiel(repeats: int, engine_data: dict[str, Any]) -> tuple[list[Row], dict[str, Any]]:
    py = openspiel_python()
    if py is None:
        return [("OpenSpiel hearts anchor", "not available",
                 "create .venv-bench (see benchmarks/run.py docstring)")], {}
    out = subprocess.run([py, str(ROOT / "benchmarks/openspiel_anchor.py"), "500",
                          str(repeats)], capture_output=True, text=True, timeout=600)
    try:
        data: dict[str, Any] = json.loads(out.stdout)
    except json.JSONDecodeError:
        return [("OpenSpiel hearts anchor", "failed", out.stderr.strip()[-200:])], {}
    if not data.get("available"):
        return [("OpenSpiel hearts anchor", "not available", f"{py} cannot import pyspiel")], {}
    ours = statistics.median(engine_data[8]["us_per_play"])
    theirs = statistics.median(data["us_per_action"])
    rows = [
        (f"OpenSpiel {data['version']} hearts: actions/s", median_spread(
            data["actions_per_second"]), "4 players, 1 deck, Python loop"),
        ("OpenSpiel hearts: us per action", median_spread(data["us_per_action"], "{:.2f}"), ""),
        ("ratio: our us per card play (8p) / OpenSpiel us per action", f"{ours / theirs:.2f}",
         "target <= 3"),
    ]
    return rows, data


# --- memory -----------------------------------------------------------------------------

def deep_size(obj: object) -> int:
    """Bytes held by ``obj`` and everything it references, each object counted once."""
    seen: set[int] = set()
    stack = [obj]
    total = 0
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, type):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, list | tuple | set | frozenset):
            stack.extend(o)
        elif hasattr(o, "__slots__") or hasattr(o, "__dict__"):
            stack.extend(gc.get_referents(o))
    return total


def memory() -> tuple[list[Row], dict[str, Any]]:
    final = play_game(8, 1)
    state = GameState.start(8)
    for action in final.actions:
        state, _ = state.apply(action)
        if state.phase is Phase.PLAYING and state.trick_number == 7 and len(state.trick) == 3:
            break
    mid_history = state.history
    mid = deep_size(state)
    object.__setattr__(state, "history", None)
    mid_no_log = deep_size(state)
    object.__setattr__(state, "history", mid_history)
    record = record_from_state(final, 1)
    text = json.dumps(record, separators=(",", ":"))
    rows = [
        ("memory: mid-deal state (8p, deal 1 trick 7)", f"{mid:,} B",
         f"{mid_no_log:,} B without the action log"),
        ("memory: final state of a whole game", f"{deep_size(final):,} B",
         f"{len(final.actions)} actions, {len(final.deal_results)} deals"),
        ("memory: game record (compact JSON text)", f"{len(text):,} B",
         f"{deep_size(record):,} B as Python objects"),
    ]
    return rows, {"mid_state": mid, "mid_state_no_log": mid_no_log, "record_json": len(text)}


# --- the conformance kit ----------------------------------------------------------------

def cli(args: list[str], timeout: float = 900) -> tuple[int, str, str, float]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "rules_ref", *args], capture_output=True,
                         text=True, timeout=timeout, cwd=ROOT)
    return out.returncode, out.stdout, out.stderr, time.perf_counter() - start


ADAPTER = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]


def cli_cpu(args: list[str]) -> tuple[int, str, str, float]:
    """``cli``, with the processor time of the command and the adapter it ran (seconds).

    Processor time, unlike the summary's wall clock, does not grow when other
    work shares the machine: deals per processor second is the rate on one
    free core (start-up of both processes included).
    """
    import resource

    def used() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    before = used()
    code, out, err, _ = cli(args)
    return code, out, err, used() - before


#: The parts of a search's time, by the innermost Python code running: the reference engine
#: and its observations; the protocol (the pipe, the messages, JSON, its depth measured); the
#: adapter (the runner blocked on it: reading its answer, or writing the request that wakes
#: it); the rest is the search (the conversation, the choices, the tally, the judging).
_ENGINE_FILES = frozenset(
    f"{name}.py" for name in ("actions", "cards", "deal", "events", "following", "game_end",
                              "leading", "passing", "pending", "ruleset", "scoring", "state",
                              "state_parts", "state_reading", "transitions", "tricks"))
_PROTOCOL_FILES = frozenset(("pipe.py", "client.py", "messages.py"))


def _part_of(frame: Any) -> str:
    """The part of a search the innermost Python frame of a sample belongs to (code made at
    run time, a dataclass's ``__init__`` or the engine's copiers, is its caller's)."""
    while frame.f_code.co_filename == "<string>" and frame.f_back is not None:
        frame = frame.f_back
    code = frame.f_code
    path = code.co_filename
    name = path.rsplit("/", 1)[-1]
    if name == "pipe.py" and code.co_name in ("_read_line", "_write"):
        return "adapter"
    if "/rules_ref/protocol/" in path:
        if name == "observation.py":
            return "reference"
        if name in _PROTOCOL_FILES:
            return "protocol"
    if "/json/" in path or path.endswith("/rules_ref/jsonio/nesting.py"):
        return "protocol"
    if name in _ENGINE_FILES and os.path.dirname(path).endswith("rules_ref"):
        return "reference"
    return "search"


#: The runs of a conform search sampled for the split of processor time (seeds 1, 2, ...).
SHARE_RUNS = 5


def conform_shares(players: int, examples: int, runs: int = SHARE_RUNS) -> dict[str, Any]:
    """Where a conform search's time goes (protocol version 2), read by sampling.

    Each search is run in this process (the runner's imports, the adapter's
    start and the handshake come before it), and each sample is put in the
    part its innermost Python frame belongs to (:func:`_part_of`). Sampling
    leaves every call at its own cost, where a profiler that hooks every
    call adds to each (cProfile about doubled the search's share).

    ``wall``: the shares of the runner's time in one search (seed 1), sampled
    every 0.3 ms of wall time, the adapter's part being the time the runner
    waited for the adapter. ``processor``: the shares of the processor time
    of both processes over ``runs`` searches (seeds 1 to ``runs``), the
    runner's split by its samples of processor time and the adapter's
    whole, so that the kit's cost (search and reference) is set beside the
    implementation's. The processor clock is sampled at the kernel's tick (4
    ms at 250 Hz, however short the interval asked), about 350 samples a
    search: one search alone splits it within 1.5 points either way, hence
    several, pooled. ``kit_error``: the standard error of the kit's share
    that the pooled samples leave; ``samples``: their number.
    """
    import resource
    import signal

    from rules_ref.conform.outcome import Config
    from rules_ref.conform.runner import Runner

    def sampled(clock: int, sig: int, run: Callable[[], object]) -> tuple[dict[str, int], float]:
        counts = dict.fromkeys(("adapter", "protocol", "reference", "search"), 0)

        def sample(_: int, frame: Any) -> None:
            if frame is not None:
                counts[_part_of(frame)] += 1

        old = signal.signal(sig, sample)
        began = time.process_time()
        signal.setitimer(clock, 0.0003, 0.0003)
        try:
            run()
        finally:
            signal.setitimer(clock, 0, 0)
            signal.signal(sig, old)
        return counts, time.process_time() - began

    def search(players: int, seed: int) -> Callable[[], object]:
        config = Config(command=[*ADAPTER, "--protocol", "2"], examples=examples,
                        max_seconds=300, seed=seed, players=players)
        runner = Runner(config)
        runner.connect()

        def run() -> object:
            try:
                return runner.search()
            finally:
                runner.close()
        return run

    def children() -> float:
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        return used.ru_utime + used.ru_stime

    wall, _ = sampled(signal.ITIMER_REAL, signal.SIGALRM, search(players, 1))
    cpu = dict.fromkeys(wall, 0)
    runner_cpu = adapter_cpu = 0.0
    for seed in range(1, runs + 1):
        adapter_before = children()
        counts, used = sampled(signal.ITIMER_PROF, signal.SIGPROF, search(players, seed))
        adapter_cpu += children() - adapter_before
        runner_cpu += used
        for part, n in counts.items():
            cpu[part] += n
    total = sum(wall.values()) or 1
    own = sum(cpu.values()) or 1
    both = runner_cpu + adapter_cpu
    processor = {part: runner_cpu * cpu[part] / own / both for part in cpu if part != "adapter"}
    processor = {"adapter": (adapter_cpu + runner_cpu * cpu["adapter"] / own) / both,
                 **processor}
    kit = (cpu["search"] + cpu["reference"]) / own  # of the runner's samples
    return {"wall": {part: n / total for part, n in wall.items()}, "processor": processor,
            "kit_error": runner_cpu / both * (kit * (1 - kit) / own) ** 0.5, "samples": own,
            "runs": runs}


#: The protocol versions compared; the reference adapter is forced to each with --protocol.
PROTOCOLS = (1, 2)


def conform(repeats: int, examples: int) -> tuple[list[Row], dict[str, Any]]:
    """Conform against the reference adapter, protocol version 1 and 2 side by side.

    Each run of ``examples`` games is followed by a run of one game, whose
    summary time is the run's start-up: the adapter started and its
    handshake, and the tables offered before the games. The steady rate
    takes that start-up (the median of the runs of one game) off the
    summary's time, so that a constant paid once per run does not weigh on
    a rate of games; the rate the summary reports, start-up included, is
    given beside it.
    """
    rows: list[Row] = []
    data: dict[str, Any] = {}
    for players in (6, 8, 11):
        runs: dict[int, list[dict[str, Any]]] = {v: [] for v in PROTOCOLS}
        starts: dict[int, list[dict[str, Any]]] = {v: [] for v in PROTOCOLS}
        for r in range(repeats):
            for version in PROTOCOLS:  # interleaved, so that both see the same machine
                for games, into in ((examples, runs), (1, starts)):
                    args = ["conform", "--json", "--players", str(players), "--examples",
                            str(games), "--seed", str(r), "--max-seconds", "300", "--",
                            *ADAPTER, "--protocol", str(version)]
                    start = time.perf_counter()
                    code, out, err, cpu = cli_cpu(args)
                    wall = time.perf_counter() - start
                    if code != 0:
                        return [(f"conform {players}p v{version}", "failed",
                                 (err or out).strip()[-200:])], data
                    into[version].append({**json.loads(out), "cpu_seconds": cpu,
                                          "wall_seconds": wall,
                                          "load_average": os.getloadavg()[0]})
        shares = conform_shares(players, examples)
        every = [r["load_average"] for v in PROTOCOLS for r in runs[v]]
        loads = f"{min(every):.1f}-{max(every):.1f}"
        startup = {v: statistics.median(s["seconds"] for s in starts[v]) for v in PROTOCOLS}
        command = {v: statistics.median(s["wall_seconds"] for s in starts[v]) for v in PROTOCOLS}

        def steady(run: dict[str, Any], key: str, taken_off: float) -> float:
            return float(run[key]) / max(1e-9, float(run["seconds"]) - taken_off)

        data[players] = {"runs": {f"v{v}": runs[v] for v in PROTOCOLS},
                         "startup_runs": {f"v{v}": starts[v] for v in PROTOCOLS},
                         "startup_seconds": {f"v{v}": startup[v] for v in PROTOCOLS},
                         "time_shares": shares}
        for what, key in (("deals/s", "deals"), ("actions compared/s", "actions_compared")):
            rows.append((f"conform {players}p: {what} in steady state, protocol v1 | v2",
                         " | ".join(median_spread([steady(r, key, startup[v]) for r in runs[v]])
                                    for v in PROTOCOLS),
                         f"{examples} games a run, its start-up (below) taken off; reference "
                         f"adapter, one process, 1 job; load average {loads}" if key == "deals"
                         else ""))
        rows.append((f"conform {players}p: deals/s start-up included, v1 | v2", " | ".join(
            median_spread([r["deals"] / r["seconds"] for r in runs[v]]) for v in PROTOCOLS),
            "the rate the summary reports (deals_per_second)"))
        rows.append((f"conform {players}p: start-up of a run (s), v1 | v2", " | ".join(
            median_spread([s["seconds"] for s in starts[v]], "{:.2f}") for v in PROTOCOLS),
            "in the summary's time: the adapter's start and handshake, the tables offered "
            "before the games (a run of one game); the whole command of one game: "
            + " | ".join(f"{command[v]:.2f}" for v in PROTOCOLS) + " s, its imports included"))
        rows.append((f"conform {players}p: deals per processor second, v1 | v2", " | ".join(
            median_spread([r["deals"] / r["cpu_seconds"] for r in runs[v]]) for v in PROTOCOLS),
            "runner + adapter, start-up included: the rate on one free core"))
        # v2 also starts one game in four again from a position (one more answer each)
        same = all(
            a[k] == (b[k] - b.get("position_starts", 0) if k == "actions_compared" else b[k])
            for a, b in zip(runs[1], runs[2], strict=True)
            for k in ("verdict", "games", "deals", "actions_compared", "illegal_offered"))
        rows.append((f"conform {players}p: where the runner's time goes (v2)", "", ", ".join(
            f"{k} {v:.0%}" for k, v in shares["wall"].items()) + " (sampled run, start-up "
            "apart); v1 and v2 " + ("played the same games" if same
                                     else "PLAYED DIFFERENT GAMES")))
        kit = shares["processor"]["search"] + shares["processor"]["reference"]
        rows.append((f"conform {players}p: where the processor time goes, runner and adapter",
                     f"{kit:.1%}", f"search and reference together (target < 50%), "
                     f"±{shares['kit_error']:.1%} ({shares['runs']} runs pooled, "
                     f"{shares['samples']:,} samples): " + ", ".join(
                         f"{k} {v:.0%}" for k, v in shares["processor"].items())))
    return rows, data


#: The job counts compared (``rules-ref conform --jobs N``).
JOBS = (1, 2)


def conform_jobs(repeats: int, examples: int, players: int = 8) -> tuple[list[Row], dict[str, Any]]:
    """Conform's speed-up from ``--jobs``: the same budget of games at 1 and 2 jobs.

    Deals per second of the whole search, as the summary measures it (wall
    clock, every job's start-up included), and of the whole command. Each
    job runs its own adapter, so 2 jobs use 4 processes: on 2 cores the
    ideal is below 2x, and on a busy machine the figure says so.
    """
    runs: dict[int, list[dict[str, Any]]] = {j: [] for j in JOBS}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    for r in range(repeats):
        for jobs in JOBS:  # interleaved, so that both see the same machine
            code, out, err, wall = cli(["conform", "--json", "--players", str(players),
                                        "--examples", str(examples), "--seed", str(r),
                                        "--jobs", str(jobs), "--max-seconds", "300", "--",
                                        *ADAPTER])
            if code != 0:
                return [(f"conform --jobs {jobs}", "failed", (err or out).strip()[-200:])], {}
            runs[jobs].append({**json.loads(out), "wall_seconds": wall})
    search = {j: [x["deals"] / x["seconds"] for x in runs[j]] for j in JOBS}
    command = {j: [x["deals"] / x["wall_seconds"] for x in runs[j]] for j in JOBS}
    speedup = statistics.median(search[2]) / statistics.median(search[1])
    whole = statistics.median(command[2]) / statistics.median(command[1])
    cores = os.cpu_count() or 1
    rows: list[Row] = [
        (f"conform {players}p: deals/s at --jobs 1 | 2", " | ".join(
            median_spread(search[j], "{:,.1f}") for j in JOBS),
         f"reference adapter, {examples} games each, search time (job start-up included)"),
        (f"conform {players}p: --jobs 2 speed-up", f"{speedup:.2f}x",
         f"whole command {whole:.2f}x; {cores} core(s), load average {load:.1f} at the start; "
         "each job has its own adapter, so 2 jobs run 4 processes (ideal 2x only with 4 free "
         "cores)"),
    ]
    return rows, {"players": players, "examples": examples, "runs": {
        f"jobs {j}": runs[j] for j in JOBS}, "speedup": speedup, "speedup_command": whole,
        "load_average": load}


def vectors(repeats: int) -> tuple[list[Row], dict[str, Any]]:
    times = []
    for _ in range(repeats):
        code, out, err, seconds = cli(["vectors", "run", "--", *ADAPTER])
        if code != 0:
            return [("vectors: replay through the reference adapter", "failed",
                     (err or out).strip()[-200:])], {}
        times.append(seconds)
    total = [line for line in out.splitlines() if "passed" in line][-1:]
    return [("vectors: full suite through the reference adapter (s)",
             median_spread(times, "{:.2f}"), f"{total[0] if total else ''}; target < 5 s")], \
        {"seconds": times}


def test_suite() -> tuple[list[Row], dict[str, Any]]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                         capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "RULES_REF_HYPOTHESIS_PROFILE": "ci"})
    seconds = time.perf_counter() - start
    last = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else "?"
    return [("test suite, ci profile (s)", f"{seconds:.1f}", last)], {"seconds": seconds}


# --- main -------------------------------------------------------------------------------

def machine() -> str:
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"Python {platform.python_version()} ({platform.python_implementation()}), "
            f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, {cpu}")


#: The sections of the table, in the order they run, by the name ``--only`` takes.
SECTIONS = ("engine", "speed-layer", "openspiel", "memory", "conform", "jobs", "vectors", "tests")


def load_average() -> str:
    """The machine's load average over 1, 5 and 15 minutes, as text."""
    if not hasattr(os, "getloadavg"):
        return "not known"
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def sections_asked(text: str | None, with_tests: bool) -> list[str]:
    """The sections to run: those of ``--only`` (comma-separated), else all but the tests."""
    if text is None:
        return [s for s in SECTIONS if s != "tests" or with_tests]
    asked = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in asked if s not in SECTIONS]
    if unknown or not asked:
        raise SystemExit(f"run.py: --only takes sections among {', '.join(SECTIONS)}, "
                         f"comma-separated (got {text!r})")
    return [s for s in SECTIONS if s in asked]


def compile_package() -> None:
    """Write the package's bytecode before anything is timed.

    An installed package has its bytecode (pip writes it); a checkout where
    PYTHONDONTWRITEBYTECODE is set has none, and every process a conform row
    starts (the runner and the adapter) would compile each module it imports
    again: on this machine that doubled a run's start-up (0.48 s against
    0.24 s inside the summary's time, 8 players, a run of one game).
    """
    import compileall

    compileall.compile_dir(str(ROOT / "rules_ref"), quiet=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, for a smoke run")
    parser.add_argument("--with-tests", action="store_true",
                        help="also time the whole test suite (ci profile)")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument("--only", metavar="SECTIONS",
                        help=f"run only these sections, comma-separated: {', '.join(SECTIONS)}")
    args = parser.parse_args()
    wanted = sections_asked(args.only, args.with_tests)
    compile_package()
    repeats = 3 if args.quick else 7
    load_before = load_average()
    engine_data: dict[str, Any] = {}

    def engine_section() -> tuple[list[Row], dict[str, Any]]:
        rows, data = engine(repeats, 40 if args.quick else 150)
        engine_data.update(data)
        return rows, data

    def openspiel_section() -> tuple[list[Row], dict[str, Any]]:
        if not engine_data:
            return [("OpenSpiel hearts anchor", "not run", "it needs the engine section")], {}
        return openspiel(repeats, engine_data)

    run: dict[str, Callable[[], tuple[list[Row], dict[str, Any]]]] = {
        "engine": engine_section,
        "speed-layer": lambda: speed_layer(repeats, 40 if args.quick else 150),
        "openspiel": openspiel_section,
        "memory": memory,
        "conform": lambda: conform(3 if args.quick else 5, 100 if args.quick else 300),
        "jobs": lambda: conform_jobs(3 if args.quick else 5, 40 if args.quick else 120),
        "vectors": lambda: vectors(3 if args.quick else 5),
        "tests": test_suite,
    }
    table: list[Row] = []
    raw: dict[str, Any] = {"machine": machine(), "load_average_start": load_before}
    for name in wanted:
        rows, data = run[name]()
        table.extend(rows)
        raw[name] = data
    raw["load_average_end"] = load_average()
    if args.json:
        print(json.dumps(raw, indent=1, default=str))
        return 0
    print(f"# {machine()}")
    print(f"# load average (1, 5, 15 min): {load_before} at the start, "
          f"{raw['load_average_end']} at the end")
    print(f"# medians of {repeats} runs, (min-max) beside them\n")
    width = max(len(r[0]) for r in table)
    vwidth = max(len(r[1]) for r in table)
    for label, value, note in table:
        print(f"{label:<{width}}  {value:>{vwidth}}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
