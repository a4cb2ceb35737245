"""pbntool: read, validate against the Laws, rescore and convert contract bridge records.

The library API in a few lines::

    import pbntool

    for record in pbntool.read("event.pbn"):          # streamed, one game at a time
        for finding in pbntool.validate(record):     # reader findings + Laws checks
            print(finding)                            # file:line:col: severity CODE message

    result = pbntool.pbn.parse(text, validate=True)  # lenient: boards + diagnostics
    boards = pbntool.pbn.loads(text)                  # strict: raises DiagnosticError
    pbntool.write(boards, "json")                     # or "pbn"

    query = pbntool.query.compile_query('level == 7 and made')   # select's --where
    query.matches(record)
    pbntool.dd.analyse(masks, vulnerability, dealer)  # double dummy (extra pbntool[dd])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from pbntool import dd, dedupe, pbn, query, rules, scoring, stats
from pbntool.diagnostics import CATALOGUE, Code, Diagnostic, DiagnosticError, Severity
from pbntool.formats import read_input
from pbntool.inputs import Input
from pbntool.model import (
    Action,
    Annotation,
    Auction,
    Bid,
    Board,
    Call,
    Card,
    Comment,
    CommentKind,
    Contract,
    Deal,
    Doubling,
    Hand,
    Note,
    Play,
    Rank,
    Result,
    Score,
    Seat,
    SectionEnd,
    Side,
    Slot,
    Strain,
    Suit,
    Table,
    TableColumn,
    Tag,
    Token,
    Vulnerability,
)
from pbntool.records import ParseResult, Record, validate_record

__version__ = "0.1.0"

__all__ = [
    "CATALOGUE",
    "Action",
    "Annotation",
    "Auction",
    "Bid",
    "Board",
    "Call",
    "Card",
    "Code",
    "Comment",
    "CommentKind",
    "Contract",
    "Deal",
    "Diagnostic",
    "DiagnosticError",
    "Doubling",
    "Hand",
    "Note",
    "ParseResult",
    "Play",
    "Rank",
    "Record",
    "Result",
    "Score",
    "Seat",
    "SectionEnd",
    "Severity",
    "Side",
    "Slot",
    "Strain",
    "Suit",
    "Table",
    "TableColumn",
    "Tag",
    "Token",
    "Vulnerability",
    "__version__",
    "dd",
    "dedupe",
    "pbn",
    "query",
    "read",
    "rules",
    "scoring",
    "stats",
    "validate",
    "write",
]


def read(path: str | Path) -> Iterator[Record]:
    """Stream the records of a file; never raises on bad input (it becomes diagnostics)."""
    yield from read_input(Input(str(path), Path(path)))


def validate(record: Record) -> tuple[Diagnostic, ...]:
    """A record's reader findings plus the Laws checks, in source order."""
    return validate_record(record)


def write(boards: Iterable[Board], format: str = "pbn") -> str:
    """Boards as canonical PBN (export format) or JSON lines."""
    if format == "pbn":
        return pbn.dumps(boards)
    if format == "json":
        from pbntool.jsonio import iter_json_lines

        return "".join(iter_json_lines(boards))
    raise ValueError(f"unknown format {format!r}; expected 'pbn' or 'json'")
