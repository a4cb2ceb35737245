"""Where units of work run: in this process, in local worker processes, or on Dask.

Every engine runs the same function, ``run_work(task, work)``, on the same units, and the
driver (``run_ordered``) hands results back strictly in the order the units were planned,
with a bounded number in flight: output is identical whatever the engine or ``-j``, it
streams (the first results are written while later inputs are still being read), and memory
is bounded by the window, never by the size of the input.
"""

from __future__ import annotations

import gc
import os
import signal
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

from pbntool.diagnostics import INT001
from pbntool.formats.split import SLICE_CHARS
from pbntool.run.spool import SpoolDirectory, set_worker_directory, spooled_results
from pbntool.run.tasks import (
    Chunk,
    Entry,
    OutputFormat,
    Task,
    chunks_of,
    finding,
    format_diagnostic,
    render_chunks,
    task_entries,
)
from pbntool.run.units import Planned, Work, WorkOutcome, failure_record, read_work

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.context import BaseContext

    from pbntool.records import Record

T = TypeVar("T")

__all__ = [
    "Engine",
    "GatheringEngine",
    "InlineEngine",
    "ProcessEngine",
    "UnitResult",
    "available_cores",
    "keep_freed_memory",
    "open_engine",
    "run_group",
    "run_ordered",
    "run_sent",
    "run_together",
    "run_work",
]


@dataclass(frozen=True, slots=True)
class UnitResult:
    """A unit's rendered output and, for a PBN slice, the state it left and read."""

    chunks: list[Chunk]
    outcome: WorkOutcome = field(default_factory=WorkOutcome)


def run_work(task: Task, work: Work) -> UnitResult:
    """Read and render one unit (what every engine runs, in whichever process)."""
    outcome = WorkOutcome()
    chunks = render_chunks(task, read_work(work, outcome))
    return UnitResult(chunks, outcome)


def run_together(task: Task, works: Sequence[Work]) -> list[UnitResult]:
    """Read and render consecutive units as one stream of records, so that a task that works
    on runs of records (``dd``: DDS solves 40 deals a call) fills its runs across small
    inputs; a result for each unit, as ``run_work`` gives it."""
    outcomes = [WorkOutcome() for _ in works]
    owners: deque[int] = deque()  # the unit of each record read and not yet rendered

    def records() -> Iterator[Record]:
        for index, (work, outcome) in enumerate(zip(works, outcomes, strict=True)):
            for record in read_work(work, outcome):
                owners.append(index)
                yield record

    entries: list[list[Entry]] = [[] for _ in works]
    for entry in task_entries(task, records()):
        entries[owners.popleft()].append(entry)
    return [
        UnitResult(chunks_of(unit, task.marks), outcome)
        for unit, outcome in zip(entries, outcomes, strict=True)
    ]


class Pending(Protocol):
    """A result on its way (a ``concurrent.futures`` or Dask future)."""

    def done(self) -> bool: ...

    def result(self) -> UnitResult: ...


class Engine(Protocol):
    """Runs units; at most ``window`` of them, and (past one) at most ``window_weight``
    bytes of input, may be in flight at once."""

    window: int
    window_weight: int

    def submit(self, task: Task, work: Work) -> Pending: ...

    def planned_all(self) -> None:
        """No unit will be submitted after this (the engine may rebalance what waits)."""

    def close(self, cancel: bool = False) -> None: ...


UNBOUNDED = 1 << 62
"""A ``window_weight`` that never binds (engines whose window is counted in units only)."""


class _Ready:
    def __init__(self, result: UnitResult) -> None:
        self._result = result

    def done(self) -> bool:
        return True

    def result(self) -> UnitResult:
        return self._result


class InlineEngine:
    """Everything in this process, one unit at a time (``-j 1``)."""

    window = 1
    window_weight = UNBOUNDED

    def submit(self, task: Task, work: Work) -> Pending:
        return _Ready(run_work(task, work))

    def planned_all(self) -> None:
        """Nothing waits."""

    def close(self, cancel: bool = False) -> None:
        """Nothing to stop."""


GATHERED_UNITS = 40
"""At most this many small units run together (forty one-board files: one DDS batch call)."""


class _Gathered:
    """A unit's result once its group has run (it runs when first asked for)."""

    def __init__(self, engine: GatheringEngine) -> None:
        self._engine = engine
        self._result: UnitResult | None = None
        self._error: Exception | None = None

    def settle(self, result: UnitResult | None, error: Exception | None) -> None:
        self._result, self._error = result, error

    def done(self) -> bool:
        return self._result is not None or self._error is not None

    def result(self) -> UnitResult:
        if not self.done():
            self._engine.run_group()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


class GatheringEngine:
    """Everything in this process, as ``InlineEngine``, but units lighter than ``gather``
    bytes are held and run together (``run_together``) up to that weight, or up to
    ``GATHERED_UNITS`` of them.  A unit that weighs ``gather`` or more runs at once, with
    those held before it: the splitters cut slices of about ``gather`` characters, so only
    the last unit of an input is lighter, and the state each slice of a PBN input starts
    from is known before the next one is planned (no slice runs twice)."""

    window = GATHERED_UNITS
    window_weight = UNBOUNDED

    def __init__(self, gather: int) -> None:
        self.gather = gather
        self._group: list[tuple[Task, Work, _Gathered]] = []
        self._weight = 0

    def submit(self, task: Task, work: Work) -> Pending:
        pending = _Gathered(self)
        self._group.append((task, work, pending))
        self._weight += work.weight
        if work.weight >= self.gather or self._weight >= self.gather:
            self.run_group()
        return pending

    def run_group(self) -> None:
        group, self._group, self._weight = self._group, [], 0
        if not group:
            return
        try:
            results = run_together(group[0][0], [work for _, work, _ in group])
        except Exception as error:  # each unit is then run again alone (run_ordered)
            for _, _, pending in group:
                pending.settle(None, error)
            return
        for (_, _, pending), result in zip(group, results, strict=True):
            pending.settle(result, None)

    def planned_all(self) -> None:
        """The last group runs when its first result is asked for."""

    def close(self, cancel: bool = False) -> None:
        self._group, self._weight = [], 0


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _worker_start(spool_directory: str | None = None) -> None:
    """Worker processes collect garbage as the CLI does (reading makes no cycles to find),
    leave Ctrl-C to the main process (it stops the pool and exits 130, where a worker
    interrupted while it waits for work would print a traceback), end on SIGTERM and spool
    their output where the main process said (``pbntool.run.spool``)."""
    set_worker_directory(spool_directory)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the CLI's SIGTERM/SIGHUP handler, which removes the temporary
    # files this process had in flight at the fork (``text.edit.exit_on_signals``): the pool
    # terminates its workers with SIGTERM, and only this process writes outputs.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    keep_freed_memory()


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
"""glibc's ``mallopt`` parameters (malloc.h)."""


def keep_freed_memory() -> bool:
    """In a worker: glibc's malloc serves large blocks (a slice's text, its JSON) from the
    heap and keeps what is freed for the next unit, instead of mapping fresh pages for each
    and returning them.  Measured on 20,000 boards to JSON with ``-j 2``: the workers' page
    faults 42,000 -> 16,000, ``-j 2`` 2% faster (the folder of real files too).  A process
    that runs the whole job alone (``-j 1``) gained nothing from it.  No glibc (musl,
    macOS): nothing to tune (False)."""
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        return False
    # 32 MiB is glibc's largest threshold: larger blocks are still mapped.
    mapped = mallopt(M_MMAP_THRESHOLD, 32 << 20)
    trimmed = mallopt(M_TRIM_THRESHOLD, 128 << 20)
    return bool(mapped and trimmed)


UNITS_IN_FLIGHT_PER_JOB = 256
"""With ``-j N``, at most this many units per worker are in flight (small files, which go
in groups: the weight of what is in flight is the bound that matters)."""


GROUPED_UNIT_WEIGHT = 128 << 10
"""A local file of at most this many bytes is sent to a worker with others (``_Group``)."""

GROUP_WEIGHT = 256 << 10
"""A group is sent once its files weigh this much (about a tenth of a second of work)..."""

GROUP_UNITS = 64
"""... or once it holds this many files."""


def run_group(task: Task, works: Sequence[Work]) -> list[UnitResult | Exception]:
    """``run_work`` for each unit of a group, in a worker; a unit that fails is its
    exception (``run_ordered`` runs that unit again in the main process).  The text goes
    to a spool file when the worker has a spool directory."""
    results: list[UnitResult | Exception] = []
    for work in works:
        try:
            results.append(run_work(task, work))
        except Exception as error:
            results.append(error)
    return spooled_results(results)


def run_sent(task: Task, work: Work) -> UnitResult:
    """``run_work`` in a worker, its text spooled when the worker has a spool directory."""
    return spooled_results([run_work(task, work)])[0]


class _Group:
    """Small units on their way to one worker together: a thousand small files cost a
    worker a thousand round trips through the pool otherwise, a third of a second of idle
    cores in a folder of real files.  Sent as one call, or, cut at the end of the run
    (``ProcessEngine.planned_all``), as several: ``parts`` holds the index of each part's
    first unit and its call."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.works: list[Work] = []
        self.weight = 0
        self.parts: list[tuple[int, Future[list[UnitResult | Exception]]]] = []

    def part_of(self, index: int) -> tuple[int, Future[list[UnitResult | Exception]]] | None:
        """The part (its first index, its call) that holds unit ``index``; None if unsent."""
        for start, future in reversed(self.parts):
            if start <= index:
                return start, future
        return None


class _Member:
    """One unit's result in a group (the group is sent when a result is first asked for,
    if it was not sent before)."""

    def __init__(self, engine: ProcessEngine, group: _Group, index: int) -> None:
        self._engine, self._group, self._index = engine, group, index

    def done(self) -> bool:
        part = self._group.part_of(self._index)
        return part is not None and part[1].done()

    def result(self) -> UnitResult:
        if not self._group.parts:
            self._engine.send_group()
        part = self._group.part_of(self._index)
        assert part is not None
        start, future = part
        outcome = future.result()[self._index - start]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome


TAIL_PART_WEIGHT = 32 << 10
"""At the end of a run, the groups still waiting are cut into parts of a share of what is
left, down to this weight (a few milliseconds of work)."""


INLINE_BUDGET = 256 << 10
"""Bytes of input run in this process before worker processes are started: a small job (one
short file) finishes before workers would have started.  A run over a folder or a list of
files starts them with its first unit instead (``open_engine``'s ``inline``)."""


class ProcessEngine:
    """Local worker processes (``-j N``), started only once there is enough work.
    ``spool``: the workers leave large texts in spool files (the consumer takes
    ``Chunk.spool``, see ``pbntool.run.spool``)."""

    def __init__(self, jobs: int, spool: bool = False, inline_budget: int = INLINE_BUDGET) -> None:
        self.jobs = jobs
        self._spools = spool
        self._spool: SpoolDirectory | None = None
        # Units in flight are bounded by their weight (about two slices per worker), so
        # that many small files can be queued behind a slow one: with five units at most,
        # a large file at the head of the line left the other worker idle, and a folder of
        # small files ran at x1.6 of -j 1 instead of x1.8.
        self.window = UNITS_IN_FLIGHT_PER_JOB * jobs + 1
        self.window_weight = (2 * jobs + 1) * SLICE_CHARS
        self._pool: ProcessPoolExecutor | None = None
        self._budget = inline_budget
        self._group: _Group | None = None
        self._waiting: deque[_Group] = deque(maxlen=self.window)
        """Groups sent, the latest last (the older ones are long taken by a worker)."""

    def submit(self, task: Task, work: Work) -> Pending:
        if self._pool is None:
            if work.kind == "record" or work.weight <= self._budget:
                self._budget -= work.weight
                return _Ready(run_work(task, work))
            self._pool = self._start()
        if work.kind == "path" and work.weight <= GROUPED_UNIT_WEIGHT:
            return self._join_group(task, work)
        self.send_group()  # the units before this one go first
        future: Future[UnitResult] = self._send(run_sent, task, work)
        return future

    def _join_group(self, task: Task, work: Work) -> Pending:
        group = self._group
        if group is None or group.task is not task:
            self.send_group()
            group = self._group = _Group(task)
        member = _Member(self, group, len(group.works))
        group.works.append(work)
        group.weight += work.weight
        if group.weight >= GROUP_WEIGHT or len(group.works) >= GROUP_UNITS:
            self.send_group()
        return member

    def send_group(self) -> None:
        """Send the group being filled, if any."""
        group, self._group = self._group, None
        if group is not None and group.works:
            group.parts = [(0, self._send(run_group, group.task, tuple(group.works)))]
            self._waiting.append(group)

    def planned_all(self) -> None:
        """No unit will follow: the groups no worker has taken yet are sent again cut into
        parts that shrink towards the end (a share of the weight left, guided scheduling),
        so that the workers finish together.  A 64-file group taken last kept one worker
        busy a tenth of a second after the other had finished, in a folder of real files."""
        self.send_group()
        # cancel() fails for a call a worker has taken (running or done): those stay.
        waiting = [
            group for group in self._waiting if len(group.parts) == 1 and group.parts[0][1].cancel()
        ]
        self._waiting.clear()
        left = sum(group.weight for group in waiting)
        for group in waiting:
            group.parts = []
            start = weight = 0
            for index, work in enumerate(group.works):
                weight += work.weight
                share = max(TAIL_PART_WEIGHT, left // (2 * self.jobs))
                if weight >= share or index + 1 == len(group.works):
                    works = tuple(group.works[start : index + 1])
                    group.parts.append((start, self._send(run_group, group.task, works)))
                    left -= weight
                    start, weight = index + 1, 0

    def _send(self, function: Callable[..., T], *arguments: object) -> Future[T]:
        assert self._pool is not None
        try:
            return self._pool.submit(function, *arguments)
        except RuntimeError:  # BrokenProcessPool: a worker died; start new ones
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._start()
            return self._pool.submit(function, *arguments)

    def _start(self) -> ProcessPoolExecutor:
        if self._spools and self._spool is None:
            self._spool = SpoolDirectory()
        return _pool(self.jobs, None if self._spool is None else self._spool.path)

    def close(self, cancel: bool = False) -> None:
        self._group = None
        self._waiting.clear()
        try:
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=cancel)
                self._pool = None
        finally:
            if self._spool is not None:  # after the workers stopped writing to it
                self._spool.close()
                self._spool = None


def _pool(jobs: int, spool_directory: str | None = None) -> ProcessPoolExecutor:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=_start_context(multiprocessing),
        initializer=_worker_start,
        initargs=(spool_directory,),
    )


def _start_context(multiprocessing: ModuleType) -> BaseContext:
    """fork while this process has one thread: a forked worker starts at once, with pbntool
    already imported (a new interpreter takes a third of a second to import it, time in
    which both cores would wait).  With other threads running (a progress bar) fork is
    unsafe, so forkserver: workers forked from a clean process that preloads pbntool."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return cast("BaseContext", multiprocessing.get_context("fork"))
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["pbntool.run.engine", "pbntool.formats.pbn"])
        return cast("BaseContext", context)
    return cast("BaseContext", multiprocessing.get_context("spawn"))


def open_engine(
    name: str,
    jobs: int,
    scheduler: str | None = None,
    gather: int | None = None,
    spool: bool = False,
    inline: bool = True,
) -> Engine:
    """``local`` (inline for one job) or ``dask`` (a cluster at ``scheduler``, or a local one).
    ``gather``: inline, units lighter than this many bytes run together (``GatheringEngine``).
    ``spool``: local workers may spool their texts (``ProcessEngine``).  ``inline``: local
    workers start only once ``INLINE_BUDGET`` bytes have run in this process; False, with
    the first unit (a folder: the first file is no sign of a small run, and running it here
    kept both workers waiting 25 ms at the start of each run over the corpus)."""
    if name == "dask":
        from pbntool.run.dask import DaskEngine

        return DaskEngine(scheduler, jobs)
    if jobs > 1:
        return ProcessEngine(jobs, spool, INLINE_BUDGET if inline else 0)
    return InlineEngine() if gather is None else GatheringEngine(gather)


def run_ordered(
    planned: Iterable[Planned], task: Task, engine: Engine
) -> Iterator[tuple[Planned, UnitResult]]:
    """Results in planned order, at most ``engine.window`` units in flight.

    A PBN slice whose guessed start state proves wrong is run again from the true state
    before it is handed back (see ``pbntool.run.units``).
    """
    pending: deque[tuple[Planned, Pending]] = deque()
    joiner = _Joiner(task)
    weight = 0  # of the units in flight

    def settle() -> Iterator[tuple[Planned, UnitResult]]:
        nonlocal weight
        plan, waiting = pending.popleft()
        weight -= plan.work.weight if plan.work is not None else 0
        try:
            result = waiting.result()
        except Exception as error:  # a worker died or a task failed: this unit, not the batch
            result = _recovered(task, plan, error)
        checked = _checked(plan, result, lambda work: _Ready(_recovered(task, plan, None, work)))
        yield from joiner.take(plan, checked)

    for plan in planned:
        if plan.barrier:
            while pending:
                yield from settle()
        work = plan.prepare()
        pending.append((plan, engine.submit(task, work)))
        weight += work.weight
        while pending and (
            len(pending) >= engine.window
            or (len(pending) > 1 and weight >= engine.window_weight)
            or pending[0][1].done()
        ):
            yield from settle()
    engine.planned_all()
    while pending:
        yield from settle()
    yield from joiner.flush()


def _recovered(
    task: Task, plan: Planned, error: Exception | None, work: Work | None = None
) -> UnitResult:
    """Run a unit in this process (its worker failed); INT001 if it fails here too."""
    chosen = work or plan.work
    assert chosen is not None
    try:
        return run_work(task, chosen)
    except Exception as failure:
        detail = traceback.format_exception_only(failure)[-1].strip()
        if error is not None:
            detail += f" (in a worker: {traceback.format_exception_only(error)[-1].strip()})"
        diagnostic = INT001.at(skipped="a part of this input", error=detail)
        record = failure_record(chosen.name, diagnostic)
        try:
            return UnitResult(render_chunks(task, [record]))
        except Exception:  # the task cannot even render it: say it on stderr
            placed = record.diagnostics[0]
            line = format_diagnostic(placed, OutputFormat.text)
            return UnitResult([Chunk("", line, 1, 0, (finding(placed),), None)])


class _Joiner:
    """Holds a LIN slice's result until the next slice of its input is back, then writes it
    if the cut between them was clean, else reads the input from the held slice's start to
    its end in this process and drops every later slice (see
    ``pbntool.formats.lin.split.LinChain``)."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.held: tuple[Planned, UnitResult] | None = None

    def take(self, plan: Planned, result: UnitResult) -> Iterator[tuple[Planned, UnitResult]]:
        chain = plan.chain
        if self.held is not None and self.held[0].chain is not chain:
            yield from self.flush()  # its input stopped being read (a failure was planned)
        if chain is None:
            yield plan, result
            return
        if chain.failed:
            yield plan, UnitResult([])
            return
        if self.held is not None:
            previous, before = self.held
            self.held = None
            end = before.outcome.lin
            if end is None or not end.clean:
                chain.failed = True
                rest = chain.rest(previous.work)
                yield previous, self._placed(previous, _recovered(self.task, previous, None, rest),
                                             last=True)  # fmt: skip
                yield plan, UnitResult([])
                return
            yield previous, self._placed(previous, before, last=False)
        if plan.hold:
            self.held = (plan, result)
        else:
            yield plan, self._placed(plan, result, last=True)

    def flush(self) -> Iterator[tuple[Planned, UnitResult]]:
        if self.held is not None:
            plan, result = self.held
            self.held = None
            yield plan, self._placed(plan, result, last=True)

    def _placed(self, plan: Planned, result: UnitResult, last: bool) -> UnitResult:
        """The result with the encoding events its input reports around it."""
        assert plan.chain is not None
        before, after = plan.chain.placed(result.outcome.lin, last)
        if not before and not after:
            return result
        chunks = render_chunks(self.task, before) + result.chunks + render_chunks(self.task, after)
        return UnitResult(chunks, result.outcome)


def _checked(plan: Planned, result: UnitResult, submit: Callable[[Work], Pending]) -> UnitResult:
    again = plan.check(result.outcome)
    if again is None:
        return result
    rerun = submit(again).result()
    plan.rerun_done(rerun.outcome)
    return rerun
