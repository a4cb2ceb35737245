"""What ``pbntool dd`` prints for a board: its table and par, or one contract's tricks."""

from __future__ import annotations

from pbntool.diagnostics import printable
from pbntool.model import Contract, Seat, Strain, Vulnerability
from pbntool.records import Record
from pbntool.scoring import score_ns
from pbntool.tools.dd.solver import DDAnalysis, DDTable, Par
from pbntool.tools.dd.tags import double_dummy_tricks, optimum_score, par_contract

__all__ = ["analysis_dict", "analysis_text", "contract_dict", "contract_text"]

_ROWS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
_COLUMNS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)


def _place(record: Record) -> str:
    board = record.board
    number = "" if board is None or board.number is None else f" board {board.number}"
    return f"{printable(str(record.file))}:{record.line}{number}"


def analysis_text(record: Record, analysis: DDAnalysis) -> str:
    """A heading, the table (declarers down, strains across) and the par line."""
    lines = [_place(record), "      " + "".join(f"{strain.letter:>4}" for strain in _COLUMNS)]
    for seat in _ROWS:
        cells = "".join(f"{analysis.table[seat, strain]:>4}" for strain in _COLUMNS)
        lines.append(f"  {seat.letter}   {cells}")
    lines.append("  par " + _par_line(analysis.par))
    return "\n".join(lines) + "\n"


def _par_line(par: Par | None) -> str:
    if par is None:
        return "unknown (no vulnerability or dealer)"
    if par.passed_out:
        return "0: pass it out"
    contracts = ", ".join(str(contract) for contract in par.contracts)
    return f"NS {par.score_ns:+d}: {contracts}"


def analysis_dict(record: Record, analysis: DDAnalysis) -> dict[str, object]:
    """The JSON form: tricks by declarer and strain, the tag values, par."""
    board = record.board
    return {
        "file": record.file,
        "line": record.line,
        "board": None if board is None else board.number,
        "tricks": _tricks(analysis.table),
        "double_dummy_tricks": double_dummy_tricks(analysis.table),
        "par": None if analysis.par is None else _par_dict(analysis.par),
    }


def _tricks(table: DDTable) -> dict[str, dict[str, int]]:
    return {
        seat.letter: {strain.letter: table[seat, strain] for strain in _COLUMNS} for seat in _ROWS
    }


def _par_dict(par: Par) -> dict[str, object]:
    return {
        "score_ns": par.score_ns,
        "contracts": [
            {
                "contract": contract.contract_text,
                "declarer": contract.declarers,
                "result": contract.margin,
            }
            for contract in par.contracts
        ],
        "optimum_score": optimum_score(par),
        "par_contract": par_contract(par),
        "dds": list(par.dds_text),
    }


def _contract_score(
    contract: Contract, declarer: Seat, tricks: int, vulnerability: Vulnerability | None
) -> int | None:
    if vulnerability is None or not contract.level:
        return None
    return score_ns(contract, declarer, vulnerability, tricks)


def contract_dict(
    record: Record,
    contract: Contract,
    declarer: Seat,
    tricks: int,
    vulnerability: Vulnerability | None,
) -> dict[str, object]:
    """One contract played double dummy: tricks, over- or undertricks, NS score."""
    board = record.board
    return {
        "file": record.file,
        "line": record.line,
        "board": None if board is None else board.number,
        "contract": str(contract),
        "declarer": declarer.letter,
        "tricks": tricks,
        "result": tricks - (contract.level or 0) - 6,
        "score_ns": _contract_score(contract, declarer, tricks, vulnerability),
    }


def contract_text(
    record: Record,
    contract: Contract,
    declarer: Seat,
    tricks: int,
    vulnerability: Vulnerability | None,
) -> str:
    """``file:12 board 1: 4S by S takes 10 tricks (=), NS +620``."""
    margin = tricks - (contract.level or 0) - 6
    result = "=" if margin == 0 else f"{margin:+d}"
    score = _contract_score(contract, declarer, tricks, vulnerability)
    shown = "" if score is None else f", NS {score:+d}"
    line = f"{contract} by {declarer.letter} takes {tricks} tricks ({result}){shown}"
    return f"{_place(record)}: {line}\n"
