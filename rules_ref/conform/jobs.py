"""Parallel conformance jobs (``--jobs N``): one process per job, and their results merged.

Every job has its own adapter and its own seed (:func:`job_seed`) and
plays for the whole time budget; the divergence classes of all jobs are
merged (:class:`~rules_ref.findings.classes.Findings`) and then shrunk in this process
(:mod:`.shrink`). An adapter fault in one job stops the others, and so does
its first unexpected divergence under ``--first``. Only job 0 offers the
tables the rules refuse (:mod:`.refused_tables`), so that they are offered
once a run and their counts and classes merge as a single run's would.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..errors import InputError, RulesRefError
from ..findings.classes import Findings
from ..findings.failure import COUNTS, Failure, Stats
from ..findings.start_tally import StartTally
from ..protocol.handshake import Supports
from ..protocol.messages import AdapterFault
from .outcome import Config, Outcome
from .runner import Runner, settle_error_classes, settle_start_classes
from .shrink import shrink_classes


def job_seed(seed: int, index: int) -> int:
    """The seed of job ``index`` of a run with ``seed``."""
    return seed * 64 + index


def _job_main(config: Config, index: int, examples: int | None, counters: Any, stop: Any,
              results: Any) -> None:
    import signal

    def on_term(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    base = index * len(COUNTS)

    def progress(stats: Stats, seconds: float) -> None:
        for k, name in enumerate(COUNTS):
            counters[base + k] = getattr(stats, name)

    runner = Runner(config, examples=examples, seed=job_seed(config.seed, index),
                    on_progress=progress, should_stop=stop.is_set, job=index)
    result: dict[str, Any]
    try:
        try:
            supports = runner.connect()
        except AdapterFault as fault:
            result = {"fault": fault.to_json(), "stats": {}}
        else:
            outcome = runner.search()
            if (outcome.failure is not None and outcome.failure.kind == "fault") or (
                    outcome.stopped == "first"):
                stop.set()
            assert outcome.findings is not None
            result = {"stats": {name: getattr(outcome.stats, name) for name in COUNTS},
                      "rare": dict(outcome.stats.rare),
                      "exercise": dict(outcome.stats.exercise),
                      "offers": dict(outcome.stats.offers),
                      "constrained": dict(outcome.stats.constrained),
                      "cleared": dict(outcome.stats.cleared),
                      "starts": outcome.stats.starts.to_json(),
                      "rejected_starts": (outcome.starts or Findings()).to_json(),
                      "failure": None if outcome.failure is None else outcome.failure.to_json(),
                      "notes": outcome.notes, "stopped": outcome.stopped,
                      "examples_run": outcome.examples_run,
                      "divergences": outcome.findings.to_json(),
                      "supports": {"name": supports.name, "players": list(supports.players),
                                   "switches": supports.switches, "version": supports.version,
                                   "capabilities": list(supports.capabilities),
                                   "deal_constraints": list(supports.deal_constraints)}}
    except InputError as exc:
        result = {"error": str(exc), "stats": {}}
    except KeyboardInterrupt:
        result = {"error": "interrupted", "stats": {}}
    finally:
        runner.close()
    # JSON text, so that what crosses between the processes is plain data.
    results.put((index, json.dumps(result, separators=(",", ":"))))


def run_jobs(config: Config, on_progress: Callable[[Stats, float], None] | None = None
             ) -> Outcome:
    """``rules-ref conform --jobs N``: N processes, each with its own adapter and seed slice."""
    import multiprocessing as mp
    import queue as queue_mod

    ctx = mp.get_context("fork")
    jobs = config.jobs
    width = len(COUNTS)
    counters = ctx.Array("q", jobs * width, lock=False)
    stop = ctx.Event()
    results = ctx.Queue()
    started = time.monotonic()
    examples = config.examples
    share: list[int | None] = [
        None if examples is None else max(1, examples // jobs + (1 if i < examples % jobs
                                                                  else 0))
        for i in range(jobs)]
    procs = [ctx.Process(target=_job_main, args=(config, i, share[i], counters, stop,
                                                 results), daemon=True)
             for i in range(jobs)]
    got: dict[int, dict[str, Any]] = {}
    try:
        for p in procs:
            p.start()
        while len(got) < jobs:
            try:
                index, text = results.get(timeout=0.2)
                got[index] = json.loads(text)
            except queue_mod.Empty:
                if not any(p.is_alive() for p in procs) and results.empty():
                    break
            if on_progress is not None:
                total = Stats()
                for i in range(jobs):
                    total.add(Stats(*counters[i * width:(i + 1) * width]))
                on_progress(total, time.monotonic() - started)
        for p in procs:
            p.join(timeout=5)
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)
    outcome = merge_jobs(got, jobs, time.monotonic() - started, config)
    return settle_start_classes(config, shrink_classes(config, settle_error_classes(outcome)))


def merge_jobs(got: dict[int, dict[str, Any]], jobs: int, seconds: float,
               config: Config | None = None) -> Outcome:
    """One outcome from the jobs' results: summed counts, merged classes, the first fault."""
    stats = Stats()
    findings = Findings(config.expect if config is not None else ())
    starts = Findings()
    failures: list[Failure] = []
    notes: list[str] = []
    supports: Supports | None = None
    fault: AdapterFault | None = None
    stopped = ""
    examples_run = 0
    for index in range(jobs):
        result = got.get(index)
        if result is None:
            raise RulesRefError(f"conform job {index} ended without a result")
        if "error" in result:
            raise InputError(result["error"])
        if result.get("fault") is not None:
            f = result["fault"]
            fault = AdapterFault(f["kind"], f["message"], f.get("stdout", []),
                                 f.get("stderr", ""), f.get("exit_status"))
            continue
        stats.add(Stats(**result["stats"], rare=Counter(result.get("rare", {})),
                        exercise=Counter(result.get("exercise", {})),
                        offers=Counter(result.get("offers", {})),
                        constrained=Counter(result.get("constrained", {})),
                        cleared=Counter(result.get("cleared", {})),
                        starts=StartTally.from_json(result.get("starts"))))
        examples_run += result.get("examples_run", 0)
        if result.get("failure") is not None:
            failures.append(Failure.from_json(result["failure"]))
        if result.get("divergences") is not None:
            findings.merge_json(result["divergences"], index)
        if result.get("rejected_starts") is not None:
            starts.merge_json(result["rejected_starts"], index)
        notes.extend(result.get("notes", []))
        # --first in one job stops the others: the run ended for that reason
        mine = result.get("stopped", "")
        stopped = mine if mine == "first" else stopped or mine
        if supports is None and result.get("supports"):
            s = result["supports"]
            supports = Supports(s["name"], tuple(s["players"]), s["switches"],
                                s.get("version", 1), tuple(s.get("capabilities", ())),
                                tuple(s.get("deal_constraints", ())))
    failure = min(failures, key=lambda f: f.size) if failures else None
    return Outcome(stats, seconds, supports, failure, fault, notes[:5], stopped, examples_run,
                   findings, starts)


# --- replay ---------------------------------------------------------------------------------
