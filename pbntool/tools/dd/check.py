"""``dd --check``: the double-dummy tags a board states, compared with the solver's answer.

Each disagreement is a located diagnostic: a wrong DoubleDummyTricks digit (DDA001, at the
value), a wrong OptimumResultTable row (DDA002, at the row), an OptimumScore that is not
par (DDA003), a ParContract that does not score par double dummy (DDA004).  A value that
cannot be read is DDA005; par that cannot be computed (no vulnerability or dealer) DDA007.
"""

from __future__ import annotations

from pbntool.diagnostics import DDA001, DDA002, DDA003, DDA004, DDA005, DDA007, Diagnostic
from pbntool.formats.pbn.edit import GameSpans
from pbntool.formats.pbn.fast import source_map
from pbntool.model import Board, Contract, Seat, Strain, Table, Vulnerability
from pbntool.records import Record
from pbntool.scoring import board_dealer, board_vulnerability, score_ns
from pbntool.tools.dd.solver import DDAnalysis, DDTable, Par
from pbntool.tools.dd.tags import (
    StatedContract,
    read_double_dummy_tricks,
    read_optimum_score,
    read_par_contract,
    read_result_row,
)

__all__ = ["check_record", "has_annotations", "par_conditions", "stated_tags"]

_UNKNOWN = ("", "?", "-")
_MAX_CELLS = 6


def par_conditions(board: Board) -> tuple[Vulnerability | None, Seat | None]:
    """The vulnerability and dealer par is computed with: as stated, else by board number."""
    vulnerability, dealer = board.vulnerability, board.dealer
    number = board.number
    if number is not None and number >= 1:
        vulnerability = board_vulnerability(number) if vulnerability is None else vulnerability
        dealer = board_dealer(number) if dealer is None else dealer
    return vulnerability, dealer


def stated_tags(board: Board) -> list[str]:
    """Which double-dummy tags the board carries (with a value that says something)."""
    names = [
        name
        for name in ("DoubleDummyTricks", "OptimumScore", "ParContract")
        if (board.tag(name) or "").strip() not in _UNKNOWN
    ]
    if _result_table(board) is not None:
        names.append("OptimumResultTable")
    return names


def has_annotations(board: Board) -> bool:
    """True when the board already carries any double-dummy tag (``--fill`` skips it)."""
    return any(
        board.tag(name) is not None
        for name in ("DoubleDummyTricks", "OptimumScore", "ParContract", "OptimumResultTable")
    )


def _result_table(board: Board) -> Table | None:
    return next((table for table in board.tables if table.name == "OptimumResultTable"), None)


def check_record(record: Record, analysis: DDAnalysis) -> list[Diagnostic]:
    """Every disagreement between the board's double-dummy tags and ``analysis``."""
    board = record.board
    if board is None:
        return []
    found: list[Diagnostic] = []
    found += _check_tricks(board, analysis.table)
    found += _check_result_table(record, board, analysis.table)
    needs_par = [
        n for n in ("OptimumScore", "ParContract") if (board.tag(n) or "").strip() not in _UNKNOWN
    ]
    if needs_par and analysis.par is None:
        found.append(_no_par(board, needs_par, "checked"))
    elif analysis.par is not None:
        found += _check_optimum_score(board, analysis.par)
        found += _check_par_contract(board, analysis.table, analysis.par)
    return [record.locate(diagnostic) for diagnostic in found]


def _no_par(board: Board, names: list[str], done: str) -> Diagnostic:
    vulnerability, dealer = par_conditions(board)
    missing = " and ".join(
        word
        for word, known in (("vulnerability", vulnerability), ("dealer", dealer))
        if known is None
    )
    return DDA007.at(("tag", names[0]), names=" and ".join(names), done=done, missing=missing)


def _check_tricks(board: Board, table: DDTable) -> list[Diagnostic]:
    value = board.tag("DoubleDummyTricks")
    if value is None or value.strip() in _UNKNOWN:
        return []
    where = ("tag_value", "DoubleDummyTricks")
    try:
        cells = read_double_dummy_tricks(value)
    except ValueError as error:
        return [DDA005.at(where, name="DoubleDummyTricks", value=f'"{value}"', reason=str(error))]
    wrong = [
        f"{seat.letter} {strain.letter} {stated} (solver {table[seat, strain]})"
        for (seat, strain), stated in cells.items()
        if stated != table[seat, strain]
    ]
    if not wrong:
        return []
    shown = ", ".join(wrong[:_MAX_CELLS]) + (
        f" and {len(wrong) - _MAX_CELLS} more" if len(wrong) > _MAX_CELLS else ""
    )
    return [DDA001.at(where, value=f'"{value}"', cells=shown)]


def _check_result_table(record: Record, board: Board, table: DDTable) -> list[Diagnostic]:
    stated = _result_table(board)
    if stated is None or (not stated.rows and not stated.leftover):
        return []
    where = ("table", stated.name)
    columns = {column.name: index for index, column in enumerate(stated.columns)}
    missing = [name for name in ("Declarer", "Denomination", "Result") if name not in columns]
    if missing:
        reason = f"the header has no {', '.join(missing)} column"
        return [
            DDA005.at(where, name="OptimumResultTable", value=f'"{stated.header}"', reason=reason)
        ]
    offsets = _row_offsets(record, len(stated.columns))
    found: list[Diagnostic] = []
    for index, row in enumerate(stated.rows):
        row_where = ("offset", offsets[index]) if index < len(offsets) else where
        try:
            seat, strain, tricks = read_result_row(row, columns)
        except ValueError as error:
            found.append(
                DDA005.at(
                    row_where, name="OptimumResultTable row", value=" ".join(row), reason=str(error)
                )
            )
            continue
        if tricks is not None and tricks != table[seat, strain]:
            found.append(
                DDA002.at(
                    row_where,
                    seat=seat.letter,
                    strain=strain.letter,
                    stated=tricks,
                    computed=table[seat, strain],
                )
            )
    return found


def _row_offsets(record: Record, width: int) -> list[int]:
    """The offset of each row's first element in a PBN game (none for other formats)."""
    source = source_map(record.locator)
    if source is None or width < 1:
        return []
    elements = GameSpans(source).element_offsets("OptimumResultTable")
    return elements[::width]


def _check_optimum_score(board: Board, par: Par) -> list[Diagnostic]:
    value = board.tag("OptimumScore")
    if value is None or value.strip() in _UNKNOWN:
        return []
    where = ("tag_value", "OptimumScore")
    try:
        stated = read_optimum_score(value)
    except ValueError as error:
        return [DDA005.at(where, name="OptimumScore", value=f'"{value}"', reason=str(error))]
    if stated == par.score_ns:
        return []
    return [DDA003.at(where, value=value, par=_par_score(par), contracts=_par_text(par))]


def _check_par_contract(board: Board, table: DDTable, par: Par) -> list[Diagnostic]:
    value = board.tag("ParContract")
    if value is None or value.strip() in _UNKNOWN:
        return []
    where = ("tag_value", "ParContract")
    try:
        stated = read_par_contract(value)
    except ValueError as error:
        return [DDA005.at(where, name="ParContract", value=f'"{value}"', reason=str(error))]
    vulnerability = par_conditions(board)[0] or Vulnerability.NONE
    found = []
    for contract in stated:
        score = _stated_score(contract, table, vulnerability)
        if score != par.score_ns or not _margin_agrees(contract, table):
            found.append(
                DDA004.at(
                    where,
                    item=f'"{contract.text}"',
                    score=f"{score:+d}",
                    par=_par_score(par),
                    contracts=_par_text(par),
                )
            )
    return found


def _declarer_seats(declarers: str) -> list[Seat]:
    if declarers in ("NS", "EW"):
        return [Seat.from_letter(letter) for letter in declarers]
    return [Seat.from_letter(declarers)]


def _best_tricks(contract: StatedContract, table: DDTable) -> tuple[Seat, int]:
    """The declarer (of the stated side or seat) who takes the most tricks, and how many."""
    assert contract.strain is not None
    strain: Strain = contract.strain
    return max(
        ((seat, table[seat, strain]) for seat in _declarer_seats(contract.declarers)),
        key=lambda item: item[1],
    )


def _stated_score(contract: StatedContract, table: DDTable, vulnerability: Vulnerability) -> int:
    """North-South's score of the stated contract played double dummy (0 for Pass)."""
    if contract.level == 0 or contract.strain is None:
        return 0
    seat, tricks = _best_tricks(contract, table)
    return score_ns(
        Contract(contract.level, contract.strain, contract.doubling), seat, vulnerability, tricks
    )


def _margin_agrees(contract: StatedContract, table: DDTable) -> bool:
    if contract.margin is None or contract.level == 0:
        return True
    return _best_tricks(contract, table)[1] - contract.level - 6 == contract.margin


def _par_score(par: Par) -> str:
    return f"NS {par.score_ns:+d}" if par.score_ns else "0"


def _par_text(par: Par) -> str:
    if par.passed_out:
        return "pass it out"
    return ", ".join(str(contract) for contract in par.contracts)
