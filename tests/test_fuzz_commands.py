"""``select``, ``dedupe``, ``stats`` and ``dd`` on hostile input: random bytes, PBN-alphabet
text and mutated real files (the strategies of ``test_fuzz``).  No traceback; exit 0 or 1
(or 2 for bytes that start like an archive and are not one, as documented).

``dd`` runs with a stand-in solver (a fixed table): what is fuzzed here is our reading of the
tags, the checks and the edits of ``--fill``, not DDS.  ``--fill`` output must read back
with no error the input did not have.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import examples, invoke_cleanly, mutated_file, pbn_alphabet_text
from typer.testing import CliRunner

from pbntool.diagnostics import Severity
from pbntool.formats.pbn import iter_records
from pbntool.model import Doubling, Seat, Strain, Vulnerability
from pbntool.tools.dd import jobs
from pbntool.tools.dd.solver import DDAnalysis, DDTable, Par, ParContract

COMMANDS = (
    ("select", "--where", 'made or has_error() or shape.N == "4333"', "--to", "json"),
    ("select", "--boards", "1-3", "--limit", "2"),
    ("dedupe", "--rotations", "--format", "json"),
    ("dedupe", "--drop"),
    ("stats", "--format", "json"),
    ("stats",),
    ("dd", "--check"),
    ("dd", "--fill", "--force"),
    ("dd", "--contract", "4S"),
    ("dd", "--format", "json"),
)

_TABLE = DDTable(tuple(tuple((seat + strain) % 14 for strain in range(5)) for seat in range(4)))
_PAR = Par(-100, (ParContract(2, Strain.SPADES, Doubling.DOUBLED, "EW", -1),), ("", "", "", ""))


def _fixed_analysis(
    masks: tuple[int, int, int, int], vulnerability: Vulnerability | None, dealer: Seat | None
) -> DDAnalysis:
    return DDAnalysis(_TABLE, _PAR if vulnerability is not None and dealer is not None else None)


@pytest.fixture(autouse=True)
def stand_in_solver(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(jobs, "analyse", _fixed_analysis)
    monkeypatch.setattr(jobs, "contract_tricks", lambda masks, strain, seat: 9)
    # dd solves in batches now (DDS's CalcAllTables / SolveAllBoardsBin): stand in there too.
    monkeypatch.setattr(
        jobs, "analyse_batch", lambda deals: [_fixed_analysis(*deal) for deal in deals]
    )
    monkeypatch.setattr(jobs, "contract_tricks_batch", lambda boards: [9 for _ in boards])
    monkeypatch.setattr("pbntool.cli.dd.load_solver", lambda: None)
    yield


def _errors(data: bytes) -> int:
    records = iter_records(io.BytesIO(data), "fuzz.pbn")
    return sum(1 for r in records for d in r.diagnostics if d.severity >= Severity.ERROR)


@settings(
    deadline=None,
    max_examples=examples(40),
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(st.one_of(mutated_file(), st.binary(max_size=2000), pbn_alphabet_text.map(str.encode)))
def test_commands_survive_any_input(data: bytes) -> None:
    runner = CliRunner()
    for command in COMMANDS:
        done = invoke_cleanly(runner, command, data)
        if command[:2] == ("dd", "--fill") and data[:2] not in (b"\xff\xfe", b"\xfe\xff"):
            assert _errors(done.stdout_bytes) <= _errors(data), "--fill added an error"
