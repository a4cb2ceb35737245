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
import re
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import BinaryIO

from pbntool.diagnostics import INT001, SRC003, SRC007, SRC008, Diagnostic
from pbntool.formats.sniffing import head_text, name_suffix, text_verdict
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
    "refused_content",
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
    USEBIO = "usebio"
    BWS = "bws"
    DUP = "dup"
    DLM = "dlm"
    BRI = "bri"
    DGE = "dge"
    RBN = "rbn"
    RBX = "rbx"
    CSV = "csv"
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
        Format.USEBIO,
        "USEBIO XML results",
        (".xml",),
        reader="pbntool.formats.usebio.reader:iter_records",
        writer="pbntool.formats.usebio.writer:UsebioWriter",
        sniff="pbntool.formats.usebio.sniff:sniff_usebio",
        walk_suffixes=(),
    ),
    FormatSpec(
        Format.BWS,
        "Bridgemate database (BWS)",
        (".bws",),
        reader="pbntool.formats.bws:iter_records",
        sniff="pbntool.formats.bws.sniff:sniff_bws",
    ),
    FormatSpec(
        Format.TEXT,
        "hand diagrams (text)",
        (".txt",),
        writer="pbntool.formats.text:TextWriter",
    ),
    FormatSpec(
        Format.DUP,
        "DUP (Duplimate)",
        (".dup",),
        reader="pbntool.formats.dup:iter_records",
        writer="pbntool.formats.dup:DupWriter",
        binary=True,
        sniff="pbntool.formats.dup:sniff",
    ),
    FormatSpec(
        Format.DLM,
        "DLM (Duplimate/Dealer4)",
        (".dlm",),
        reader="pbntool.formats.dlm:iter_records",
        writer="pbntool.formats.dlm:DlmWriter",
        sniff="pbntool.formats.dlm:sniff",
    ),
    FormatSpec(
        Format.BRI,
        "BRI",
        (".bri",),
        reader="pbntool.formats.bri:iter_records",
        writer="pbntool.formats.bri:BriWriter",
        binary=True,
        sniff="pbntool.formats.bri:sniff",
    ),
    FormatSpec(
        Format.DGE,
        "DGE",
        (".dge",),
        reader="pbntool.formats.dge:iter_records",
        writer="pbntool.formats.dge:DgeWriter",
        binary=True,
        sniff="pbntool.formats.dge:sniff",
    ),
    FormatSpec(
        Format.RBN,
        "RBN",
        (".rbn",),
        reader="pbntool.formats.rbn:iter_records",
        writer="pbntool.formats.rbn:RbnWriter",
        sniff="pbntool.formats.rbn:sniff",
    ),
    FormatSpec(
        Format.RBX,
        "RBX",
        (".rbx",),
        reader="pbntool.formats.rbn:iter_rbx_records",
        writer="pbntool.formats.rbn:RbxWriter",
        sniff="pbntool.formats.rbn:sniff_rbx",
    ),
    FormatSpec(
        Format.CSV,
        "CSV (one row per result)",
        (".csv",),
        writer="pbntool.formats.csv:CsvWriter",
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


_TAG_START = re.compile(r"(?m)^[ \t]*\[[ \t]*[A-Za-z]")
_BINARY = re.compile(r"[\x00-\x08\x0e-\x19\x1b-\x1f\x7f\ufffd]")
BINARY_SHARE = 0.05
"""Text with more control characters or undecodable bytes than this share is binary data."""


def refused_content(head: bytes, name: str) -> Diagnostic | None:
    """SRC008 when only the name made an input PBN or LIN and its first bytes show it is
    neither: binary data, or a short text (all of it in ``head``) with no tag (PBN) or no
    ``|`` (LIN) at all.

    Real files of few games and much commentary are kept: a PBN file may start with ``%``,
    ``;`` or ``{`` (commentary), and content any format recognises is never refused.
    """
    form = {".pbn": Format.PBN, ".lin": Format.LIN}.get(name_suffix(name))
    if form is None:
        return None
    text = head_text(head)
    if not text or text_verdict(head) is not None:
        return None
    label = form.value.upper()
    if len(_BINARY.findall(text)) > BINARY_SHARE * len(text):
        return SRC008.at(form=label, reason="binary data (control characters, undecodable bytes)")
    if len(head) >= SNIFF_BYTES:
        return None  # text of this size may have its first game further on
    if form is Format.PBN and text[0] not in "%;{" and not _TAG_START.search(text):
        return SRC008.at(form=label, reason='text with no tag pair ([Event "..."])')
    if form is Format.LIN and "|" not in text:
        return SRC008.at(form=label, reason="text with no LIN pair (md|...|)")
    return None


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
        head = stream.read(SNIFF_BYTES)
        refused = None if form is not None else refused_content(head, source.name)
        form = form or detect_format(head, source.name)
        readable = replay(head, stream)
        if form is None or refused is not None:
            yield _failure(source.name, refused or SRC007.at(), line=1)
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
