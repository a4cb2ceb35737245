"""Solving boards one at a time or in worker processes, with results in input order.

DDS takes about a tenth of a second per deal, so ``dd -j N`` spreads boards over N processes
(each running DDS single-threaded).  ``solve_in_order`` keeps a bounded window of boards in
flight, so memory stays bounded on big inputs, and yields results in the order the boards
came: the output is the same for every N.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from pbntool.model import Seat, Strain, Vulnerability
from pbntool.tools.dd.solver import (
    DDAnalysis,
    SolverError,
    analyse,
    contract_tricks,
    use_single_thread,
)

__all__ = ["ContractJob", "Outcome", "TableJob", "run_job", "solve_in_order"]


@dataclass(frozen=True, slots=True)
class TableJob:
    """Solve a deal's table and par."""

    masks: tuple[int, int, int, int]
    vulnerability: Vulnerability | None
    dealer: Seat | None

    def run(self) -> DDAnalysis:
        return analyse(self.masks, self.vulnerability, self.dealer)


@dataclass(frozen=True, slots=True)
class ContractJob:
    """The tricks of one strain for some declarers."""

    masks: tuple[int, int, int, int]
    strain: Strain
    declarers: tuple[Seat, ...]

    def run(self) -> tuple[int, ...]:
        return tuple(contract_tricks(self.masks, self.strain, seat) for seat in self.declarers)


Job = TableJob | ContractJob
Outcome = DDAnalysis | tuple[int, ...] | SolverError | None
"""A job's result, the solver's refusal, or None for an item that had no job."""

Key = TypeVar("Key")


def run_job(job: Job) -> DDAnalysis | tuple[int, ...] | SolverError:
    """Run one job; the solver's failure is returned, not raised (it costs one board)."""
    try:
        return job.run()
    except SolverError as error:
        return error


def solve_in_order(
    items: Iterable[tuple[Key, Job | None]], workers: int = 1
) -> Iterator[tuple[Key, Outcome]]:
    """``(key, outcome)`` for each item, in order; items without a job pass through."""
    if workers <= 1:
        for key, job in items:
            yield key, None if job is None else run_job(job)
        return
    window = max(4 * workers, 16)
    pending: deque[tuple[Key, Future[DDAnalysis | tuple[int, ...] | SolverError] | None]] = deque()
    with ProcessPoolExecutor(max_workers=workers, initializer=use_single_thread) as pool:
        for key, job in items:
            pending.append((key, None if job is None else pool.submit(run_job, job)))
            while len(pending) >= window:
                yield _finished(pending.popleft())
        while pending:
            yield _finished(pending.popleft())


def _finished(
    item: tuple[Key, Future[DDAnalysis | tuple[int, ...] | SolverError] | None],
) -> tuple[Key, Outcome]:
    key, future = item
    return key, None if future is None else future.result()
