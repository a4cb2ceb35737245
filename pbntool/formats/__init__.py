"""Formats: which one an input is (by content), and reading any input without stopping the batch.

Every reader has the same shape, ``iter_records(stream, name) -> Iterator[Record]``; it is
looked up in ``READERS`` by format and imported only when first needed, so that reading PBN
never pays for importing lxml.
"""

from __future__ import annotations

import codecs
import importlib
import re
import traceback
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import BinaryIO

from pbntool.diagnostics import INT001, SRC003, SRC007, SRC008, Diagnostic
from pbntool.records import Record
from pbntool.text.inputs import Input, replay

__all__ = [
    "READERS",
    "SUFFIXES",
    "Format",
    "RecordReader",
    "detect_format",
    "open_detected",
    "read_failure",
    "read_input",
    "refused_content",
]


class Format(StrEnum):
    """A file format pbntool reads and writes."""

    PBN = "pbn"
    LIN = "lin"
    JSON = "json"
    XML = "xml"


RecordReader = Callable[[BinaryIO, str], Iterator[Record]]

READERS: dict[Format, str] = {
    Format.PBN: "pbntool.formats.pbn:iter_records",
    Format.LIN: "pbntool.formats.lin:iter_records",
    Format.JSON: "pbntool.formats.json:iter_records",
    Format.XML: "pbntool.formats.xml:iter_records",
}
"""``module:function`` of each format's streaming reader (imported on first use)."""

SUFFIXES: dict[str, Format] = {
    ".pbn": Format.PBN,
    ".lin": Format.LIN,
    ".json": Format.JSON,
    ".jsonl": Format.JSON,
    ".ndjson": Format.JSON,
    ".xml": Format.XML,
}
"""What a file's suffix suggests when its content does not decide."""

SNIFF_BYTES = 1 << 16
"""How much of an input detection looks at."""

_PBN_TAG = re.compile(r'(?m)^[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+"')
_LIN_START = re.compile(r"[A-Za-z]{2}[ \t]*\|")
_LIN_PAIR = re.compile(r"(?:^|\|)[ \t\r\n]*(?:md|mb|pc|pn|qx|vg|sv|ah|rs|st)[ \t]*\|", re.I)
_HANDVIEWER = re.compile(r"(?i)(?:https?://|www\.)\S*[?&](?:lin|linurl)=|handviewer\.html")
_JSON_OBJECT = re.compile(r'\{\s*"[^"\n]{0,64}"\s*:')
_JSON_ARRAY = re.compile(r'\[\s*(?:\{\s*"[^"\n]{0,64}"\s*:|\])')
_XML_START = re.compile(r"<(?:\?xml|[A-Za-z_!])")


def detect_format(head: bytes, name: str = "") -> Format | None:
    """The format of an input from its first bytes (and, to break ties, its name).

    Content decides: ``<`` starts XML, ``{"key":`` JSON, a ``tag|`` pair or a handviewer
    link LIN, a ``[Tag "value"]`` pair PBN.  A suffix (``.pbn .lin .json .jsonl .xml``)
    decides only when the content says nothing (an empty file, a file of comments).
    Returns None when neither does.

    >>> detect_format(b'[Event "x"]')
    <Format.PBN: 'pbn'>
    >>> detect_format(b"pn|a,b,c,d|st||md|3SAK...")
    <Format.LIN: 'lin'>
    """
    text = _head_text(head).lstrip()
    suffix = name[name.rfind(".") :].lower() if "." in name else ""
    found = _detect_text(text)
    if found is Format.JSON and suffix == ".pbn":
        return Format.PBN  # '{"...": ' may just as well open a PBN brace comment
    if found is not None:
        return found
    if suffix in SUFFIXES:
        return SUFFIXES[suffix]
    if not text or text[0] in "%;{":
        return Format.PBN  # nothing but PBN commentary (or nothing at all): PBN with no games
    return None


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
    suffix = name[name.rfind(".") :].lower() if "." in name else ""
    form = SUFFIXES.get(suffix)
    if form not in (Format.PBN, Format.LIN):
        return None
    text = _head_text(head).lstrip()
    if not text or _detect_text(text) is not None:
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


def _head_text(head: bytes) -> str:
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return head.decode("utf-16", errors="replace")
    if len(head) > 1 and head[1] == 0 and head[0] != 0:
        return head.decode("utf-16-le", errors="replace")
    if len(head) > 1 and head[0] == 0 and head[1] != 0:
        return head.decode("utf-16-be", errors="replace")
    return head.removeprefix(codecs.BOM_UTF8).decode("utf-8", errors="replace")


def _detect_text(text: str) -> Format | None:
    if not text:
        return None
    if _XML_START.match(text):
        return Format.XML
    if _JSON_OBJECT.match(text) or _JSON_ARRAY.match(text):
        return Format.JSON
    if text[0] == "[" and _PBN_TAG.match(text):
        return Format.PBN
    if _LIN_START.match(text) or _HANDVIEWER.search(text):
        return Format.LIN
    pbn = _PBN_TAG.search(text)
    lin = _LIN_PAIR.search(text)
    if pbn is not None and (lin is None or pbn.start() < lin.start()):
        return Format.PBN
    if lin is not None:
        return Format.LIN
    return None


def open_detected(stream: BinaryIO, name: str) -> tuple[Format | None, BinaryIO]:
    """Detect the format of ``stream``; returns it with a stream that still starts at byte 0."""
    head = stream.read(SNIFF_BYTES)
    return detect_format(head, name), replay(head, stream)


def reader_for(form: Format) -> RecordReader:
    """The streaming reader of a format."""
    module, _, function = READERS[form].partition(":")
    reader: RecordReader = getattr(importlib.import_module(module), function)
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
