"""Bridgemate ``.BWS`` databases: the real ACBL club file read with access-parser (checked
against mdbtools when it is installed), put together with its hand-record PBN by ``pbntool
score``, damaged files as findings (mutated bytes, hypothesis), and the missing extra."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbntool.formats import Format, detect_format
from pbntool.formats.bws import iter_records, sniff_bws
from pbntool.model import Board
from pbntool.records import Record
from tests.conftest import CORPUS
from tests.test_cli import pbntool_run

pytest.importorskip("access_parser")

FOLDER = CORPUS / "club" / "bridge-craftwork__Bridge-Parsers" / "tests" / "fixtures" / "input"
BWS = FOLDER / "1768880456-bJwUQdVmhY@260119M.BWS"
TWIN = FOLDER / "1768880456-bJwUQdVmhY@260119HandRecord.pbn"

pytestmark = pytest.mark.skipif(not BWS.is_file(), reason="club corpus not present")


def read(data: bytes) -> list[Record]:
    return list(iter_records(io.BytesIO(data), "x.BWS"))


@pytest.fixture(scope="module")
def sample() -> list[Record]:
    return read(BWS.read_bytes())


def rows(board: Board) -> list[dict[str, str]]:
    (table,) = [table for table in board.tables if table.name == "ScoreTable"]
    names = [column.name for column in table.columns]
    return [dict(zip(names, row, strict=True)) for row in table.rows]


def test_sample_gives_27_boards_with_every_result(sample: list[Record]) -> None:
    assert [d.code for record in sample for d in record.diagnostics] == []
    boards = [record.board for record in sample if record.board is not None]
    assert [board.number for board in boards] == list(range(1, 28))
    assert sum(len(rows(board)) for board in boards) == 297
    assert all(board.deal is None for board in boards)  # its HandRecord table is empty
    first = rows(boards[0])[0]
    assert first["PairId_NS"] == "1" and first["PairId_EW"] == "1"
    assert first["Contract"] == "3NT" and first["Declarer"] == "E"
    assert first["Result"] == "11" and first["Score_NS"] == "-460"
    assert first["Names_NS"] == '"Wayne Vondera & David Silberman"'
    assert boards[0].tag("Date") == "2026.01.19" and boards[0].tag("Vulnerable") == "None"
    # Every board is its own game (a binary file has no lines: placed at a result row).
    assert len({record.line for record in sample}) == 27


@pytest.mark.skipif(shutil.which("mdb-export") is None, reason="mdbtools not installed")
def test_results_agree_with_mdbtools(sample: list[Record]) -> None:
    export = subprocess.run(
        ["mdb-export", str(BWS), "ReceivedData"], capture_output=True, text=True, check=True
    )
    expected = {}
    for row in csv.DictReader(io.StringIO(export.stdout)):
        contract = row["Contract"].replace(" ", "").upper().replace("NT", "N")
        key = (int(row["Board"]), row["PairNS"], row["PairEW"])
        expected[key] = (contract.replace("N", "NT") if contract != "PASS" else "Pass", row)
    found = {}
    for record in sample:
        assert record.board is not None and record.board.number is not None
        for cells in rows(record.board):
            found[record.board.number, cells["PairId_NS"], cells["PairId_EW"]] = cells
    assert set(found) == set(expected)
    for key, (contract, row) in expected.items():
        cells = found[key]
        assert cells["Contract"].replace("NT", "N") == contract.replace("NT", "N"), key
        if contract != "Pass":
            assert cells["Declarer"] == row["NS/EW"], key
            level = int(contract[0])
            over = 0 if row["Result"] == "=" else int(row["Result"])
            assert int(cells["Result"]) == level + 6 + over, key


def test_score_with_the_twin_hand_record_gives_each_board_its_deal_and_results(
    tmp_path: Path,
) -> None:
    out = tmp_path / "scored.pbn"
    run = pbntool_run("score", TWIN, BWS, "--method", "mp", "--format", "pbn", "-o", out)
    assert run.code == 0, run.err
    from pbntool.formats.pbn import iter_records as pbn_records

    scored = [r.board for r in pbn_records(out.open("rb"), out.name) if r.board is not None]
    twins = [board for board in scored if board.deal is not None]
    assert len(twins) == 36
    for board in twins[:27]:
        table = next(t for t in board.tables if t.name == "ScoreTable")
        assert len(table.rows) == 11, board.number  # the 11 tables' results of that board
    standings = next(t for t in twins[0].tables if t.name == "TotalScoreTable")
    assert len(standings.rows) == 22  # a two-winner Mitchell: 11 NS and 11 EW pairs


def test_sniffer_and_detection() -> None:
    head = BWS.read_bytes()[:4096]
    assert sniff_bws(head, "x.bws") == 100
    assert detect_format(head, "anything") is Format.BWS
    assert sniff_bws(b"\x00\x01\x00\x00Standard ACE DB\x00", "") == 100
    assert sniff_bws(b"[Event", "x.pbn") == 0


@pytest.mark.parametrize(
    ("data", "detail"),
    [
        (b"\x00\x01\x00\x00Standard Jet DB\x00" + b"\x00" * 100, "truncated"),
        (b"not access at all", "not a Microsoft Access"),
    ],
)
def test_broken_files_are_one_finding(data: bytes, detail: str) -> None:
    (record,) = read(data)
    (finding,) = record.diagnostics
    assert finding.code == "BWS002" and detail in finding.message


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
@given(
    st.lists(st.tuples(st.integers(0, 1124351), st.integers(0, 255)), min_size=1, max_size=40),
    st.sampled_from([None, 2048 * 100, 2048 * 300, 2048 * 500]),
)
def test_mutated_bytes_never_raise(changes: list[tuple[int, int]], cut: int | None) -> None:
    data = bytearray(_sample_bytes())
    for offset, value in changes:
        data[offset] = value
    if cut is not None:
        del data[cut:]
    for record in read(bytes(data)):
        for diagnostic in record.diagnostics:
            assert diagnostic.code in ("BWS002", "BWS003"), diagnostic
            assert diagnostic.line is not None and diagnostic.line >= 1


def _sample_bytes() -> bytes:
    return BWS.read_bytes()


def test_cli_validate_and_convert_a_bws(tmp_path: Path) -> None:
    run = pbntool_run("validate", BWS)
    assert run.code == 0, run.err
    assert "27 boards" in run.err
    converted = pbntool_run("convert", BWS, "--to", "pbn")
    assert converted.code == 0 and converted.text.count("[ScoreTable ") == 27
    forced = pbntool_run("validate", "--from", "bws", BWS)
    assert forced.code == 0, forced.err
    refused = pbntool_run("convert", TWIN, "--to", "bws")
    assert refused.code == 2  # read only: not a --to choice
    broken = tmp_path / "broken.bws"
    broken.write_bytes(BWS.read_bytes()[:5000])
    found = pbntool_run("validate", broken)
    assert found.code == 1 and "error BWS002" in found.text


def test_without_the_extra_a_bws_is_one_clear_finding_and_exit_2() -> None:
    # access_parser made unimportable: what a user without pbntool[bws] gets.
    program = (
        "import sys; sys.modules['access_parser'] = None; "
        "sys.argv = ['pbntool', 'validate', sys.argv[1]]; "
        "from pbntool.cli import main; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, str(BWS)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "BWS001" in done.stdout and "pip install 'pbntool[bws]'" in done.stdout
