"""pbntool: read, validate against the Laws, rescore and convert contract bridge records.

The library API in a few lines::

    import pbntool

    for record in pbntool.read("event.pbn"):          # streamed, one game at a time
        for finding in pbntool.validate(record):     # reader findings + Laws checks
            print(finding)                            # file:line:col: severity CODE message

    result = pbntool.pbn.parse(text, validate=True)  # lenient: boards + diagnostics
    boards = pbntool.pbn.loads(text)                  # strict: raises DiagnosticError
    boards = pbntool.lin.parse(lin_text).boards       # LIN: the same model
    pbntool.write(boards, "json")                     # or "pbn", "lin", "xml", "text"
    pbntool.jsonio.iter_records(stream, "in.jsonl")   # JSON and XML read back losslessly
    pbntool.xmlio.iter_records(stream, "in.xml")

    query = pbntool.query.compile_query('level == 7 and made')   # select's --where
    query.matches(record)
    pbntool.dd.analyse(masks, vulnerability, dealer)  # double dummy (extra pbntool[dd])

Every name here is imported on first use: ``import pbntool.model`` loads the model alone
(no lark, typer or lxml).  The short module names (``pbntool.pbn``, ``pbntool.event``, ...)
are the rooms of ``docs/architecture.md`` under the names the API has always used.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

# Before any other module of ours: decides whether the compiled modules may load.
from pbntool import _native  # noqa: F401  # isort: skip
from pbntool import _aliases

__version__ = "0.1.0"

_aliases.install()

if TYPE_CHECKING:
    from pbntool import rules, scoring
    from pbntool.diagnostics import CATALOGUE, Code, Diagnostic, DiagnosticError, Severity
    from pbntool.formats import json as jsonio
    from pbntool.formats import lin, pbn
    from pbntool.formats import xml as xmlio
    from pbntool.model import (
        PASSED_OUT,
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
    from pbntool.records import ParseResult, Record
    from pbntool.run.batch import Batch, BatchOptions
    from pbntool.text import schemas
    from pbntool.text.archives import Limits
    from pbntool.text.inputs import Input, Selection, iter_inputs
    from pbntool.tools import dd, dedupe, stats
    from pbntool.tools import score as event
    from pbntool.tools import select as query


_EXPORTS: dict[str, tuple[str, str | None]] = {
    **{
        name: ("pbntool.diagnostics", name)
        for name in ("CATALOGUE", "Code", "Diagnostic", "DiagnosticError", "Severity")
    },
    "ParseResult": ("pbntool.records", "ParseResult"),
    "Record": ("pbntool.records", "Record"),
    "Batch": ("pbntool.run.batch", "Batch"),
    "BatchOptions": ("pbntool.run.batch", "BatchOptions"),
    "Limits": ("pbntool.text.archives", "Limits"),
    "Input": ("pbntool.text.inputs", "Input"),
    "Selection": ("pbntool.text.inputs", "Selection"),
    "iter_inputs": ("pbntool.formats", "iter_inputs"),  # the registry sets what a walk reads
    "rules": ("pbntool.rules", None),
    "scoring": ("pbntool.scoring", None),
    "pbn": ("pbntool.formats.pbn", None),
    "lin": ("pbntool.formats.lin", None),
    "jsonio": ("pbntool.formats.json", None),
    "xmlio": ("pbntool.formats.xml", None),
    "schemas": ("pbntool.text.schemas", None),
    "event": ("pbntool.tools.score", None),
    "query": ("pbntool.tools.select", None),
    "dd": ("pbntool.tools.dd", None),
    "dedupe": ("pbntool.tools.dedupe", None),
    "stats": ("pbntool.tools.stats", None),
}
"""Public name -> (module, attribute); attribute None: the module itself."""

_ROOMS = frozenset({"cli", "dev", "formats", "run", "text", "tools"})
"""The subpackages, reachable as attributes once imported (``pbntool.formats.pbn``)."""

__all__ = [
    "CATALOGUE",
    "PASSED_OUT",
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


def __getattr__(name: str) -> object:
    if name in _EXPORTS:
        module_name, attribute = _EXPORTS[name]
        module = importlib.import_module(module_name)
        value = module if attribute is None else getattr(module, attribute)
        globals()[name] = value  # the next access is a plain attribute
        return value
    if name in _ROOMS:
        return importlib.import_module(f"pbntool.{name}")
    if name in __all__:  # the model's classes (the model imports nothing, so this is cheap)
        from pbntool import model

        if name in model.__all__:
            value = getattr(model, name)
            globals()[name] = value
            return value
    raise AttributeError(f"module 'pbntool' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS, *_ROOMS})


def read(path: str | Path) -> Iterator[Record]:
    """Stream the records of a file of any format (detected from its content); never raises
    on bad input (it becomes diagnostics)."""
    from pbntool.formats import read_input
    from pbntool.text.inputs import Input

    yield from read_input(Input(str(path), Path(path)))


def validate(record: Record) -> tuple[Diagnostic, ...]:
    """A record's reader findings plus the Laws checks, in source order."""
    from pbntool.records import validate_record

    return validate_record(record)


def write(boards: Iterable[Board], format: str = "pbn") -> str:
    """Boards as canonical PBN (export format), LIN, JSON lines or XML (``format`` is one of
    ``pbntool.formats.Format``'s values).  What a format cannot carry is dropped; use
    ``pbntool.formats.writing.open_writer`` to get the losses board by board."""
    import io

    from pbntool.formats import Format
    from pbntool.formats.writing import open_writer

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
