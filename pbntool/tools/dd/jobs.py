"""Solving boards one at a time or in worker processes, with results in input order.

DDS takes about a tenth of a second per deal.  ``solve_in_order`` hands the boards to DDS's
batch entries (``CalcAllTables``: 40 deals a call; ``SolveAllBoardsBin``: 200 boards), which
solve them on DDS's own threads (``dd -j N``: N threads; one process, no pickling).  At most
one batch is held, so memory stays bounded on big inputs, and the results come in the order
the boards came: the output is the same for every N.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from pbntool.model import Seat, Strain, Vulnerability
from pbntool.tools.dd.solver import (
    BOARDS_PER_CALL,
    TABLES_PER_CALL,
    DDAnalysis,
    SolverError,
    analyse,
    analyse_batch,
    contract_tricks,
    contract_tricks_batch,
    use_threads,
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
    """``(key, outcome)`` for each item, in order; items without a job pass through.

    The jobs are gathered into batches (``TABLES_PER_CALL`` tables, or contract boards up to
    ``BOARDS_PER_CALL``) that DDS solves in one call on ``workers`` threads of its own.
    """
    use_threads(workers)
    batch: list[tuple[Key, Job | None]] = []
    tables = boards = 0
    for key, job in items:
        batch.append((key, job))
        tables += isinstance(job, TableJob)
        boards += len(job.declarers) if isinstance(job, ContractJob) else 0
        if tables >= TABLES_PER_CALL or boards > BOARDS_PER_CALL - 4:
            yield from _solve(batch)
            batch, tables, boards = [], 0, 0
    yield from _solve(batch)


def _solve(batch: list[tuple[Key, Job | None]]) -> Iterator[tuple[Key, Outcome]]:
    deals = [
        (job.masks, job.vulnerability, job.dealer) for _, job in batch if isinstance(job, TableJob)
    ]
    analyses = iter(analyse_batch(deals))
    contracts = [
        (job.masks, job.strain, seat)
        for _, job in batch
        if isinstance(job, ContractJob)
        for seat in job.declarers
    ]
    tricks = iter(contract_tricks_batch(contracts))
    for key, job in batch:
        if isinstance(job, TableJob):
            yield key, next(analyses)
        elif isinstance(job, ContractJob):
            found = [next(tricks) for _ in job.declarers]
            failed = [one for one in found if isinstance(one, SolverError)]
            made = tuple(one for one in found if isinstance(one, int))
            yield key, failed[0] if failed else made
        else:
            yield key, None
