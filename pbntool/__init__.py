"""pbntool: read, validate against the Laws, rescore and convert contract bridge records.

The library API in a few lines::

    import pbntool

    for record in pbntool.read("event.pbn"):          # streamed, one game at a time
        for finding in pbntool.validate(record):     # reader findings + Laws checks
            print(finding)                            # file:line:col: severity CODE message

    result = pbntool.pbn.parse(text, validate=True)  # lenient: boards + diagnostics
    boards = pbntool.pbn.loads(text)                  # strict: raises DiagnosticError
    boards = pbntool.lin.parse(lin_text).boards       # LIN: the same model
    pbntool.write(boards, "json")                     # or "pbn", "lin", "xml"
    pbntool.jsonio.iter_records(stream, "in.jsonl")    # JSON and XML read back losslessly
    pbntool.xmlio.iter_records(stream, "in.xml")

    query = pbntool.query.compile_query('level == 7 and made')   # select's --where
    query.matches(record)
    pbntool.dd.analyse(masks, vulnerability, dealer)  # double dummy (extra pbntool[dd])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from pbntool import dd, dedupe, event, lin, pbn, query, rules, scoring, stats
from pbntool.archives import Limits
from pbntool.batch import Batch, BatchOptions
from pbntool.diagnostics import CATALOGUE, Code, Diagnostic, DiagnosticError, Severity
from pbntool.formats import read_input
from pbntool.inputs import Input, Selection, iter_inputs
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
    "Batch",
    "BatchOptions",
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
    "Input",
    "Limits",
    "Note",
    "ParseResult",
    "Play",
    "Rank",
    "Record",
    "Result",
    "Score",
    "Seat",
    "SectionEnd",
    "Selection",
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
    "event",
    "iter_inputs",
    "jsonio",
    "lin",
    "pbn",
    "query",
    "read",
    "rules",
    "schemas",
    "scoring",
    "stats",
    "validate",
    "write",
    "xmlio",
]

_LAZY_MODULES = frozenset({"jsonio", "schemas", "xmlio"})
"""Imported on first use, so that reading PBN never pays for importing lxml."""


def __getattr__(name: str) -> object:
    if name in _LAZY_MODULES:
        import importlib

        return importlib.import_module(f"pbntool.{name}")
    raise AttributeError(f"module 'pbntool' has no attribute {name!r}")


def read(path: str | Path) -> Iterator[Record]:
    """Stream the records of a file of any format (detected from its content); never raises
    on bad input (it becomes diagnostics)."""
    yield from read_input(Input(str(path), Path(path)))


def validate(record: Record) -> tuple[Diagnostic, ...]:
    """A record's reader findings plus the Laws checks, in source order."""
    return validate_record(record)


def write(boards: Iterable[Board], format: str = "pbn") -> str:
    """Boards as canonical PBN (export format), LIN, JSON lines or XML (``format`` is one of
    ``pbntool.formats.Format``'s values).  What a format cannot carry is dropped; use
    ``pbntool.writers.open_writer`` to get the losses board by board."""
    import io

    from pbntool.formats import Format
    from pbntool.writers import open_writer

    try:
        form = Format(format)
    except ValueError:
        expected = ", ".join(repr(f.value) for f in Format)
        raise ValueError(f"unknown format {format!r}; expected one of {expected}") from None
    out = io.StringIO()
    writer = open_writer(form, out)
    for board in boards:
        writer.write(board)
    writer.close()
    return out.getvalue()
