"""Reading a Bridgemate ``.BWS`` database (Microsoft Access/Jet) as PBN boards.

One board per (section, board number) with every table's result as a ``ScoreTable`` row:
the pairs, the players' names (``PlayerNumbers`` at the start, paired through ``RoundData``),
contract, declarer, lead, tricks and the NS score (computed: a BWS holds none), with the
dealer and vulnerability of the board number.  The deals come from ``HandRecord`` when the
scoring program filled it; otherwise the board has none (``pbntool score x.BWS
x…HandRecord.pbn`` puts them together: the boards of both name no event).

The file is untrusted binary: it is parsed by the pure-Python ``access-parser`` package (the
``bws`` extra) from bytes held in memory (at most ``MAX_BYTES``), and any failure of the
parser on a damaged file is one finding (BWS002), never a traceback.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from pbntool.diagnostics import BWS001, BWS002, BWS003, Diagnostic
from pbntool.formats.pbn.values import decode_deal
from pbntool.formats.pbn.writer import format_deal
from pbntool.formats.usebio.mapping import quote_cell
from pbntool.model import Board, Contract, Deal, Doubling, Seat, Strain, Table, TableColumn, Tag
from pbntool.notation import TRICKS_PER_DEAL
from pbntool.records import Record
from pbntool.scoring import score_ns
from pbntool.scoring.duplicate import board_dealer, board_vulnerability

__all__ = ["MAX_BYTES", "iter_records", "read_tables"]

MAX_BYTES = 256 << 20
"""A BWS is a few MB at most (most of it the club's member list)."""

Columns = dict[str, list[Any]]

_STRAINS = {"C": Strain.CLUBS, "D": Strain.DIAMONDS, "H": Strain.HEARTS, "S": Strain.SPADES}
_STRAINS["NT"] = Strain.NOTRUMP
_STRAINS["N"] = Strain.NOTRUMP
_DOUBLING = {"": Doubling.UNDOUBLED, "X": Doubling.DOUBLED, "XX": Doubling.REDOUBLED}
_CONTRACT = re.compile(r"([1-7])\s*(NT|[CDHSN])\s*(XX|X)?")
_LEAD = re.compile(r"([SHDC])\s*(10|[AKQJT2-9])")
_SEAT_LETTERS = "NESW"
_IGNORED_REMARKS = ("", "wrong direction")
_TABLES = ("Section", "ReceivedData", "RoundData", "PlayerNumbers", "HandRecord", "Session")


class BwsUnavailable(ImportError):
    """The ``bws`` extra (access-parser) is not installed."""


def read_tables(data: bytes, names: tuple[str, ...] = _TABLES) -> dict[str, Columns]:
    """The named tables of an Access database held in ``data`` (absent tables are empty).

    Raises:
        BwsUnavailable: access-parser is not installed.
        Exception: whatever the parser raises on a damaged file (the reader reports it).
    """
    try:
        from access_parser import AccessParser
    except ImportError as error:
        raise BwsUnavailable(str(error)) from error
    for name in ("access_parser", "access_parser.access_parser", "access_parser.utils"):
        logging.getLogger(name).setLevel(logging.CRITICAL)  # it logs every odd page on JET3
    parser = AccessParser.__new__(AccessParser)
    _open(parser, data)
    tables: dict[str, Columns] = {}
    for name in names:
        if name in parser.catalog:
            parsed = parser.parse_table(name)
            tables[name] = {str(key): list(value) for key, value in dict(parsed).items()}
        else:
            tables[name] = {}
    return tables


def _open(parser: Any, data: bytes) -> None:
    """``AccessParser.__init__`` on bytes instead of a path (it would read the file again)."""
    from access_parser.access_parser import categorize_pages

    parser.db_data = data
    parser._parse_file_header(data)
    parser._table_defs, parser._data_pages, parser._all_pages = categorize_pages(
        data, parser.page_size
    )
    parser._tables_with_data = parser._link_tables_to_data()
    parser.catalog = parser._parse_catalog()
    parser.extra_props = parser.parse_msys_table()


def iter_records(stream: BinaryIO, name: str = "<stdin>") -> Iterator[Record]:
    """The boards of a Bridgemate database (see the module docstring)."""
    data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        yield _whole(name, BWS002.at(detail=f"larger than {MAX_BYTES >> 20} MiB"))
        return
    truncated = _truncated(data)
    if truncated is not None:
        yield _whole(name, BWS002.at(detail=truncated))
        return
    try:
        tables = read_tables(data)
    except BwsUnavailable:
        diagnostic = BWS001.at()
        yield Record(None, (_placed(diagnostic, name, None, None),), name, 0)
        return
    except Exception as error:  # a damaged file may fail anywhere in the parser
        yield _whole(name, BWS002.at(detail=_reason(error)))
        return
    if not _rows(tables["ReceivedData"]):
        yield _whole(name, BWS002.at(detail="its ReceivedData table holds no results"))
        return
    try:
        yield from _boards(name, tables)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        yield _whole(name, BWS002.at(detail=_reason(error)))


def _truncated(data: bytes) -> str | None:
    """Why the bytes cannot be a whole Jet database (they are made of whole pages)."""
    if not data.startswith(b"\x00\x01\x00\x00Standard ") or len(data) < 0x15:
        return "not a Microsoft Access (Jet) database"
    page = 2048 if data[0x14] == 0 else 4096
    if len(data) % page:
        return f"truncated ({len(data)} bytes is not a whole number of {page}-byte pages)"
    return None


def _reason(error: Exception) -> str:
    text = " ".join(str(error).split())[:120]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _placed(diagnostic: Diagnostic, name: str, line: int | None, board: int | None) -> Diagnostic:
    column = None if line is None else 1
    return Diagnostic(
        diagnostic.code, diagnostic.severity, diagnostic.message, name, line, column, board
    )


def _whole(name: str, diagnostic: Diagnostic) -> Record:
    return Record(None, (_placed(diagnostic, name, 1, None),), name, 1)


def _rows(table: Columns) -> list[dict[str, Any]]:
    names = list(table)
    count = min((len(table[key]) for key in names), default=0)
    return [{key: table[key][index] for key in names} for index in range(count)]


def _text(value: Any) -> str:
    return "" if value is None else " ".join(str(value).split())


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = _text(value)
    return int(text) if re.fullmatch(r"-?\d+", text) else None


@dataclass
class _Result:
    row: int
    table: int | None
    round: int | None
    cells: dict[str, str]
    problems: list[Diagnostic]


def _boards(name: str, tables: dict[str, Columns]) -> Iterator[Record]:
    letters = {
        _int(row.get("ID")): _text(row.get("Letter")) or "?" for row in _rows(tables["Section"])
    }
    sections = len(letters) > 1
    names = _pair_names(tables)
    deals = _hand_records(tables, letters)
    session = _rows(tables["Session"])
    date = _date(session[0].get("Date")) if session else "?"
    session_name = _text(session[0].get("Name")) if session else ""
    results: dict[tuple[str, int], list[_Result]] = defaultdict(list)
    for index, row in _latest(_rows(tables["ReceivedData"])):
        board = _int(row.get("Board"))
        if board is None or board < 1:
            continue
        letter = letters.get(_int(row.get("Section")), "?")
        results[letter, board].append(_result(name, index, row, board, letter, names))
    for (letter, number), rows in sorted(results.items()):
        deal = deals.get((letter, number))
        tags = [Tag("Event", ""), Tag("Site", ""), Tag("Date", date), Tag("Board", str(number))]
        if sections:
            tags.append(Tag("Section", letter))
        dealer, vulnerability = board_dealer(number), board_vulnerability(number)
        tags += [Tag("Dealer", dealer.letter), Tag("Vulnerable", str(vulnerability))]
        tags.append(Tag("Deal", format_deal(deal, Seat.NORTH) if deal is not None else "?"))
        tags.append(Tag("Scoring", "MP"))
        if session_name:
            tags.append(Tag("BwsSession", session_name))
        model = Board(
            tags=tuple(tags),
            number=number,
            dealer=dealer,
            vulnerability=vulnerability,
            deal=deal,
            tables=(_score_table(rows),),
        )
        problems = tuple(problem for result in rows for problem in result.problems)
        # A binary file has no lines: a board is placed at its first ReceivedData row.
        yield Record(model, problems, name, min(result.row for result in rows))


def _latest(rows: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Rows not erased, the last entered of each (section, table, round, board)."""
    kept: dict[tuple[Any, ...], tuple[tuple[str, str, int], int, dict[str, Any]]] = {}
    for index, row in enumerate(rows, start=1):
        if row.get("Erased") is True:
            continue
        key = tuple(_int(row.get(name)) for name in ("Section", "Table", "Round", "Board"))
        order = (_text(row.get("DateLog")), _text(row.get("TimeLog")), _int(row.get("ID")) or 0)
        if key not in kept or order >= kept[key][0]:
            kept[key] = (order, index, row)
    return sorted((index, row) for _order, index, row in kept.values())


def _pair_names(tables: dict[str, Columns]) -> dict[tuple[int | None, int | None, str], str]:
    """(section, pair number, NS or EW) → the two players' names, from who sat at each table
    when play started (``PlayerNumbers`` round 0) and who sat there in round 1."""
    seated: dict[tuple[int | None, int | None], dict[str, str]] = defaultdict(dict)
    for row in _rows(tables["PlayerNumbers"]):
        if _int(row.get("Round")) not in (0, None):
            continue
        direction = _text(row.get("Direction")).upper()[:1]
        player = _text(row.get("Name")) or _text(row.get("Number"))
        if direction in _SEAT_LETTERS and player:
            seated[_int(row.get("Section")), _int(row.get("Table"))][direction] = player
    names: dict[tuple[int | None, int | None, str], str] = {}
    for row in _rows(tables["RoundData"]):
        if _int(row.get("Round")) != 1:
            continue
        section, table = _int(row.get("Section")), _int(row.get("Table"))
        players = seated.get((section, table), {})
        for side, pair, seats in (("NS", row.get("NSPair"), "NS"), ("EW", row.get("EWPair"), "EW")):
            found = [players[seat] for seat in seats if seat in players]
            if found:
                names[section, _int(pair), side] = " & ".join(found)
    return names


def _hand_records(
    tables: dict[str, Columns], letters: dict[int | None, str]
) -> dict[tuple[str, int], Deal]:
    deals: dict[tuple[str, int], Deal] = {}
    for row in _rows(tables["HandRecord"]):
        board = _int(row.get("Board"))
        if board is None:
            continue
        hands = []
        for seat in ("North", "East", "South", "West"):
            suits = [
                _text(row.get(seat + suit)).upper().replace("10", "T")
                for suit in ("Spades", "Hearts", "Diamonds", "Clubs")
            ]
            hands.append(".".join(suit.replace(" ", "") for suit in suits))
        deal, problems, _offsets = decode_deal("N:" + " ".join(hands))
        if deal is not None and not problems and deal.is_complete:
            deals[letters.get(_int(row.get("Section")), "?"), board] = deal
    return deals


def _date(value: Any) -> str:
    found = re.match(r"(\d{4})-(\d{2})-(\d{2})", _text(value))
    return f"{found.group(1)}.{found.group(2)}.{found.group(3)}" if found else "?"


def _result(
    name: str,
    index: int,
    row: dict[str, Any],
    board: int,
    letter: str,
    names: dict[tuple[int | None, int | None, str], str],
) -> _Result:
    section = _int(row.get("Section"))
    ns, ew = _int(row.get("PairNS")), _int(row.get("PairEW"))
    cells = {
        "PairId_NS": "" if ns is None else str(ns),
        "PairId_EW": "" if ew is None else str(ew),
        "Names_NS": names.get((section, ns, "NS"), ""),
        "Names_EW": names.get((section, ew, "EW"), ""),
    }
    table, round_ = _int(row.get("Table")), _int(row.get("Round"))
    result = _Result(index, table, round_, cells, [])

    def bad(what: str, value: Any, action: str = "the value is left out") -> None:
        detail = f"{what} {_text(value)!r} does not read"
        finding = BWS003.at(
            row=index, table=table, round=round_, board=board, detail=detail, action=action
        )
        result.problems.append(_placed(finding, name, index, board))

    remark = _text(row.get("Remarks"))
    if remark.lower() not in _IGNORED_REMARKS:
        cells.update(Contract="", Declarer="", Result="", Score_NS="", Remarks=remark)
        return result
    text = _text(row.get("Contract")).upper()
    vulnerability = board_vulnerability(board)
    if text in ("PASS", "P", "AP"):
        cells.update(Contract="Pass", Declarer="", Result="", Score_NS="0")
        _lead(row, cells, bad)
        return result
    found = _CONTRACT.fullmatch(text)
    declarer_text = _text(row.get("NS/EW")).upper()
    declarer = (
        Seat.from_letter(declarer_text)
        if declarer_text in _SEAT_LETTERS and declarer_text
        else None
    )
    if found is None:
        bad("the contract", row.get("Contract"), "the row has no result")
        cells.update(Contract="", Declarer="", Result="", Score_NS="")
        return result
    contract = Contract(
        int(found.group(1)), _STRAINS[found.group(2)], _DOUBLING[found.group(3) or ""]
    )
    cells["Contract"] = str(contract)
    if declarer is None:
        bad("the declarer (NS/EW)", row.get("NS/EW"))
    cells["Declarer"] = "" if declarer is None else declarer.letter
    tricks = _tricks(_text(row.get("Result")), contract)
    if tricks is None:
        bad("the result", row.get("Result"))
    cells["Result"] = "" if tricks is None else str(tricks)
    _lead(row, cells, bad)
    if declarer is not None and tricks is not None:
        cells["Score_NS"] = str(score_ns(contract, declarer, vulnerability, tricks))
    else:
        cells["Score_NS"] = ""
    return result


def _lead(row: dict[str, Any], cells: dict[str, str], bad: Any) -> None:
    text = _text(row.get("LeadCard")).upper()
    if not text or text == "SKIP":
        return
    found = _LEAD.fullmatch(text)
    if found is None:
        bad("the lead", row.get("LeadCard"))
        return
    cells["Lead"] = found.group(1) + found.group(2).replace("10", "T")


def _tricks(text: str, contract: Contract) -> int | None:
    assert contract.level is not None
    if text == "=":
        over = 0
    elif re.fullmatch(r"[+-]\d{1,2}", text):
        over = int(text)
    else:
        return None
    tricks = contract.level + 6 + over
    return tricks if 0 <= tricks <= TRICKS_PER_DEAL else None


_SCORE_COLUMNS = (
    "PairId_NS",
    "PairId_EW",
    "Names_NS",
    "Names_EW",
    "Contract",
    "Declarer",
    "Lead",
    "Result",
    "Score_NS",
    "Remarks",
)


def _score_table(rows: list[_Result]) -> Table:
    present = {key for row in rows for key, value in row.cells.items() if value or key == "Result"}
    columns = [
        column
        for column in _SCORE_COLUMNS
        if column in present
        or column in ("PairId_NS", "PairId_EW", "Contract", "Declarer", "Result", "Score_NS")
    ]
    table_columns = tuple(TableColumn(column) for column in columns)
    cells = tuple(tuple(quote_cell(row.cells.get(column)) for column in columns) for row in rows)
    return Table("ScoreTable", ";".join(columns), table_columns, cells)
