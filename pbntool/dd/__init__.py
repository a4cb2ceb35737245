"""Double-dummy analysis: tables, par, and the PBN tags that carry them (extra ``pbntool[dd]``).

The solver is DDS, through endplay's bindings; only ``pbntool.dd.solver`` imports it, on
first use, and ``SolverUnavailable`` says how to install it.  Per board the work is a pure
function of the deal (``board_job`` then ``TableJob.run``), so it runs in worker processes.

- ``solver``: ``analyse`` (table and par), ``contract_tricks``; ``DDTable``, ``Par``.
- ``tags``: DoubleDummyTricks, OptimumResultTable, OptimumScore and ParContract, written in
  the forms real files use and read back.
- ``check``: ``check_record`` compares a board's stated tags with the solver (DDA codes).
- ``fill``: ``fill_record`` gives the minimal edits that write the tags into a PBN file.
- ``jobs``: ``solve_in_order`` (``-j N`` worker processes, results in input order).
"""

from __future__ import annotations

from pbntool.dd.check import check_record, has_annotations, par_conditions
from pbntool.dd.fill import FillResult, fill_record
from pbntool.dd.jobs import ContractJob, TableJob, solve_in_order
from pbntool.dd.solver import (
    DDAnalysis,
    DDTable,
    Par,
    ParContract,
    SolverError,
    SolverUnavailable,
    analyse,
    contract_tricks,
    load_solver,
)
from pbntool.deals import full_deal_problem, hand_masks
from pbntool.model import Board

__all__ = [
    "ContractJob",
    "DDAnalysis",
    "DDTable",
    "FillResult",
    "Par",
    "ParContract",
    "SolverError",
    "SolverUnavailable",
    "TableJob",
    "analyse",
    "board_job",
    "check_record",
    "contract_tricks",
    "fill_record",
    "has_annotations",
    "load_solver",
    "par_conditions",
    "solve_in_order",
]


def board_job(board: Board) -> TableJob | str:
    """The job that solves a board, or why it cannot be solved (no full deal)."""
    problem = full_deal_problem(board.deal)
    if problem is not None or board.deal is None:
        return problem or "it has no deal"
    masks = hand_masks(board.deal)
    assert masks is not None
    vulnerability, dealer = par_conditions(board)
    return TableJob(masks, vulnerability, dealer)
