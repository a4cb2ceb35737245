"""Double-dummy analysis: tables, par, and the PBN tags that carry them (extra ``pbntool[dd]``).

The solver is DDS, through endplay's bindings; only ``pbntool.tools.dd.solver`` imports it, on
first use, and ``SolverUnavailable`` says how to install it.  Per board the work is a pure
function of the deal (``board_job`` then ``TableJob.run``), so it runs in worker processes.

- ``boards``: records to jobs (``table_jobs``, ``contract_jobs``) and back (``analysis_of``).
- ``solver``: ``analyse`` (table and par), ``contract_tricks``; ``DDTable``, ``Par``.
- ``tags``: DoubleDummyTricks, OptimumResultTable, OptimumScore and ParContract, written in
  the forms real files use and read back.
- ``check``: ``check_record`` compares a board's stated tags with the solver (DDA codes).
- ``fill``: ``fill_record`` gives the minimal edits that write the tags into a PBN game;
  ``PbnFiller`` fills a whole file.
- ``jobs``: ``solve_in_order`` (batches on DDS's own ``-j N`` threads, results in input order).
"""

from __future__ import annotations

from pbntool.tools.dd.boards import analysis_of, board_job, contract_jobs, table_jobs
from pbntool.tools.dd.check import check_record, has_annotations, par_conditions
from pbntool.tools.dd.fill import FillResult, PbnFiller, fill_record
from pbntool.tools.dd.jobs import ContractJob, TableJob, solve_in_order
from pbntool.tools.dd.solver import (
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

__all__ = [
    "ContractJob",
    "DDAnalysis",
    "DDTable",
    "FillResult",
    "Par",
    "ParContract",
    "PbnFiller",
    "SolverError",
    "SolverUnavailable",
    "TableJob",
    "analyse",
    "analysis_of",
    "board_job",
    "check_record",
    "contract_jobs",
    "contract_tricks",
    "fill_record",
    "has_annotations",
    "load_solver",
    "par_conditions",
    "solve_in_order",
    "table_jobs",
]
