"""Formats: the registry of every format pbntool reads or writes, and reading any input.

A format is one subpackage (``pbntool/formats/<name>/``) and one ``FormatSpec`` row in
``SPECS``: its reader, writer, fixer and parallel splitter (each ``"module:attribute"``,
imported on first use, so that reading PBN never pays for importing lxml), its suffixes and
its sniffer.  A spec may be read-only (BWS) or write-only (a hand diagram); ``--from`` offers
the formats with a reader, ``--to`` those with a writer.  ``docs/architecture.md`` has the
checklist for adding one.

Every reader has the same shape, ``iter_records(stream, name) -> Iterator[Record]``.
"""

from __future__ import annotations

import functools
import importlib
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import BinaryIO

from pbntool.diagnostics import INT001, SRC003, SRC007, Diagnostic
from pbntool.records import Record
from pbntool.text.inputs import Input, iter_inputs, replay, use_data_suffixes

__all__ = [
    "REGISTRY",
    "SNIFF_BYTES",
    "SPECS",
    "Format",
    "FormatSpec",
    "RecordReader",
    "Sniffer",
    "detect_format",
    "iter_inputs",
    "load",
    "open_detected",
    "read_failure",
    "read_input",
    "readable_formats",
    "reader_for",
    "spec_of",
    "suffix_formats",
    "writable_formats",
]


class Format(StrEnum):
    """A file format pbntool reads or writes (see ``SPECS`` for what each can do)."""

    PBN = "pbn"
    LIN = "lin"
    JSON = "json"
    XML = "xml"
    TEXT = "text"
    HTML = "html"
    PDF = "pdf"


RecordReader = Callable[[BinaryIO, str], Iterator[Record]]
Sniffer = Callable[[bytes, str], int]


@dataclass(frozen=True, slots=True)
class FormatSpec:
    """What one format is: how to read, write, fix and split it, and how to recognise it."""

    format: Format
    title: str
    """How messages and help name it."""
    suffixes: tuple[str, ...]
    """File suffixes, lower case; the first is what ``-o DIR/`` gives its outputs."""
    reader: str | None = None
    """``module:function``: ``iter_records(stream: BinaryIO, name: str)``; None: write-only."""
    writer: str | None = None
    """``module:class`` of a ``BoardWriter`` taking the output stream; None: read-only."""
    binary: bool = False
    """The writer takes a binary stream (``BinaryIO``) instead of a text stream."""
    fixer: str | None = None
    """``module:function`` of ``pbntool fix``'s fixer (see ``pbntool.tools.fix``)."""
    splitter: str | None = None
    """``module`` with ``plan(source, stream, head, local)`` and ``read_unit(work, outcome)``:
    how ``-j`` cuts one input of this format into independent units (None: read whole)."""
    sniff: str | None = None
    """``module:function``, a ``Sniffer``: ``sniff(head bytes, name) -> score`` (0: not this
    format; see ``pbntool.formats.sniffing`` for the scale)."""
    walk_suffixes: tuple[str, ...] | None = None
    """The suffixes picked up when walking a directory or an archive (default: ``suffixes``;
    JSON leaves ``.json`` out, it names too many files that are not boards)."""

    @property
    def output_suffix(self) -> str:
        return self.suffixes[0]

    @property
    def walked(self) -> tuple[str, ...]:
        return self.suffixes if self.walk_suffixes is None else self.walk_suffixes


SPECS: tuple[FormatSpec, ...] = (
    FormatSpec(
        Format.PBN,
        "PBN",
        (".pbn",),
        reader="pbntool.formats.pbn:iter_records",
        writer="pbntool.formats.pbn.writer:PbnWriter",
        fixer="pbntool.tools.fix.pbn:fix_pbn",
        splitter="pbntool.formats.pbn.split",
        sniff="pbntool.formats.sniffing:sniff_pbn",
    ),
    FormatSpec(
        Format.LIN,
        "LIN",
        (".lin",),
        reader="pbntool.formats.lin:iter_records",
        writer="pbntool.formats.lin:LinWriter",
        splitter="pbntool.formats.lin.split",
        sniff="pbntool.formats.sniffing:sniff_lin",
    ),
    FormatSpec(
        Format.JSON,
        "JSON Lines",
        (".jsonl", ".json", ".ndjson"),
        reader="pbntool.formats.json:iter_records",
        writer="pbntool.formats.json:JsonLinesWriter",
        splitter="pbntool.formats.json.split",
        sniff="pbntool.formats.sniffing:sniff_json",
        walk_suffixes=(".jsonl", ".ndjson"),
    ),
    FormatSpec(
        Format.XML,
        "XML",
        (".xml",),
        reader="pbntool.formats.xml:iter_records",
        writer="pbntool.formats.xml:XmlWriter",
        sniff="pbntool.formats.sniffing:sniff_xml",
    ),
    FormatSpec(
        Format.TEXT,
        "hand diagrams (text)",
        (".txt",),
        writer="pbntool.formats.text:TextWriter",
    ),
    FormatSpec(
        Format.HTML,
        "HTML hand records",
        (".html", ".htm"),
        writer="pbntool.formats.html:HtmlWriter",
    ),
    FormatSpec(
        Format.PDF,
        "PDF hand records",
        (".pdf",),
        writer="pbntool.formats.pdf:PdfWriter",
        binary=True,
    ),
)
"""Every format, in the order detection breaks ties and help lists them."""

SNIFF_BYTES = 1 << 16
"""How much of an input detection looks at."""


REGISTRY: dict[Format, FormatSpec] = {spec.format: spec for spec in SPECS}
"""The specs by format: what every lookup reads (a test may put a changed spec here)."""


def spec_of(form: Format) -> FormatSpec:
    """The spec of a format."""
    return REGISTRY[form]


def readable_formats() -> tuple[Format, ...]:
    """Formats with a reader: what ``--from`` offers."""
    return tuple(spec.format for spec in REGISTRY.values() if spec.reader is not None)


def writable_formats() -> tuple[Format, ...]:
    """Formats with a writer: what ``--to`` offers."""
    return tuple(spec.format for spec in REGISTRY.values() if spec.writer is not None)


def suffix_formats() -> dict[str, Format]:
    """Readable formats by the suffixes a directory walk picks up."""
    return {
        suffix: spec.format for spec in SPECS if spec.reader is not None for suffix in spec.walked
    }


use_data_suffixes(frozenset(suffix_formats()))  # what a directory walk picks up


def load(target: str) -> object:
    """The attribute a ``module:attribute`` string names (the module imported now)."""
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


@functools.cache
def _sniffers() -> tuple[tuple[Format, Sniffer], ...]:
    found: list[tuple[Format, Sniffer]] = []
    for spec in SPECS:
        if spec.sniff is not None and spec.reader is not None:
            sniffer = load(spec.sniff)
            assert callable(sniffer)
            found.append((spec.format, sniffer))
    return tuple(found)


def detect_format(head: bytes, name: str = "") -> Format | None:
    """The format of an input from its first bytes (and, to break ties, its name).

    Every readable format's sniffer scores the head; the highest score wins (the first in
    ``SPECS`` on a tie).  Content decides: ``<`` starts XML, ``{"key":`` JSON, a ``tag|``
    pair or a handviewer link LIN, a ``[Tag "value"]`` pair PBN.  A suffix decides only when
    the content says nothing (an empty file, a file of comments).  None when nothing does.

    >>> detect_format(b'[Event "x"]')
    <Format.PBN: 'pbn'>
    >>> detect_format(b"pn|a,b,c,d|st||md|3SAK...")
    <Format.LIN: 'lin'>
    """
    best: Format | None = None
    best_score = 0
    for form, sniffer in _sniffers():
        score = sniffer(head, name)
        if score > best_score:
            best, best_score = form, score
    return best


def open_detected(stream: BinaryIO, name: str) -> tuple[Format | None, BinaryIO]:
    """Detect the format of ``stream``; returns it with a stream that still starts at byte 0."""
    head = stream.read(SNIFF_BYTES)
    return detect_format(head, name), replay(head, stream)


def reader_for(form: Format) -> RecordReader:
    """The streaming reader of a format (``LookupError`` for a write-only format)."""
    target = spec_of(form).reader
    if target is None:
        raise LookupError(f"pbntool cannot read {spec_of(form).title}")
    reader = load(target)
    assert callable(reader)
    return reader


def read_input(source: Input, form: Format | None = None) -> Iterator[Record]:
    """Records of one input, in the given format or the one its content shows.

    Unreadable inputs, inputs of no known format and internal failures become diagnostics.
    """
    if source.problem is not None:
        yield Record(None, (source.problem,), source.name, 0)
        return
    try:
        stream = source.open()
    except OSError as error:
        yield _failure(source.name, read_failure(error))
        return
    try:
        detected, readable = open_detected(stream, source.name)
        form = form or detected
        if form is None:
            yield _failure(source.name, SRC007.at(), line=1)
            return
        yield from reader_for(form)(readable, source.name)
        stopped = source.failure()
        if stopped is not None:
            yield Record(None, (stopped,), source.name, 0)
    except OSError as error:
        yield _failure(source.name, read_failure(error))
    except Exception as error:  # a bug of ours must cost one file, not the batch
        detail = traceback.format_exception_only(error)[-1].strip()
        yield _failure(source.name, INT001.at(skipped="the rest of this input", error=detail))
    finally:
        if source.path is not None:
            stream.close()


def read_failure(error: OSError) -> Diagnostic:
    """What an input that failed while being read gets: the archive's own finding (a bomb, a
    corrupt member) or SRC003."""
    diagnostic = getattr(error, "diagnostic", None)
    if isinstance(diagnostic, Diagnostic):
        return diagnostic
    return SRC003.at(reason=error.strerror or str(error))


def _failure(name: str, diagnostic: Diagnostic, line: int | None = None) -> Record:
    """A record of one finding about a whole input (at its start when ``line`` is given)."""
    column = None if line is None else 1
    placed = Diagnostic(
        diagnostic.code, diagnostic.severity, diagnostic.message, name, line, column
    )
    return Record(None, (placed,), name, line or 0)
