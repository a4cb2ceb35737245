"""From records to solver jobs and back: which boards can be solved, and why not.

A record with a full deal becomes a ``TableJob`` (or a ``ContractJob``); after solving,
``analysis_of`` gives its ``DDAnalysis``, or the DDA006 that says why there is none (no full
deal, or the solver refused it).  A record with no deal at all is skipped without a word.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pbntool.deals import full_deal_problem, hand_masks
from pbntool.diagnostics import DDA006, Diagnostic
from pbntool.model import Board, Seat, Strain
from pbntool.records import Record
from pbntool.tools.dd.check import par_conditions
from pbntool.tools.dd.jobs import ContractJob, Job, Outcome, TableJob
from pbntool.tools.dd.solver import DDAnalysis, SolverError

__all__ = ["analysis_of", "board_job", "contract_jobs", "table_jobs"]


def board_job(board: Board) -> TableJob | str:
    """The job that solves a board, or why it cannot be solved (no full deal)."""
    problem = full_deal_problem(board.deal)
    masks = hand_masks(board.deal) if board.deal is not None else None
    if problem is not None or masks is None:
        return problem or "it has no deal"
    vulnerability, dealer = par_conditions(board)
    return TableJob(masks, vulnerability, dealer)


def table_jobs(records: Iterable[Record]) -> Iterator[tuple[Record, Job | None]]:
    """Each record with the job that solves its table and par (None when it has none)."""
    for record in records:
        job = board_job(record.board) if record.board is not None else None
        yield record, None if isinstance(job, str) else job


def contract_jobs(
    records: Iterable[Record], strain: Strain, seats: tuple[Seat, ...]
) -> Iterator[tuple[Record, Job | None]]:
    """Each record with the job that solves one strain for ``seats``."""
    for record in records:
        deal = record.board.deal if record.board is not None else None
        masks = hand_masks(deal) if deal is not None else None
        yield record, None if masks is None else ContractJob(masks, strain, seats)


def analysis_of(record: Record, outcome: Outcome) -> tuple[DDAnalysis | None, list[Diagnostic]]:
    """The record's analysis, or None and the DDA006 saying why it has none."""
    board = record.board
    if board is None:
        return None, []
    if isinstance(outcome, DDAnalysis):
        return outcome, []
    if board.deal is None and (board.tag("Deal") or "").strip() in ("", "?"):
        return None, []  # no deal at all (a results-only record): nothing to analyse
    if isinstance(outcome, SolverError):
        reason = f"the solver failed: {outcome}"
    else:
        reason = full_deal_problem(board.deal) or "it has no deal"
    return None, [record.locate(DDA006.at(("tag", "Deal"), reason=reason))]
