"""The one minimal-edit engine: edit a file's text, keeping every byte outside the edits.

``fix`` and ``dd --fill`` both write through it (the PBN placement of their edits is
``pbntool.formats.pbn.edit``).

The input is read in *segments* of whole lines, about a megabyte each.  A segment no edit
touches is copied byte for byte, never decoded.  In a segment an edit touches, each physical
line (the bytes up to and including a line feed, the ``\\n`` code unit in UTF-16) is
decoded with the codec the reader used for it (the file's UTF-16, else UTF-8 when it is
valid, else Windows-1252, else Latin-1) and checked to encode back to the very same bytes;
a line with an edit is encoded with that codec again, every other line is copied.
So line ends (CRLF, LF, CR, mixed), byte-order marks, encodings, a DOS end-of-file mark and
text outside any game all stay as they were.

Lines are numbered as the reader numbers them (CRLF, LF and a lone CR each end a line, the
BOM is not part of line 1) and columns count characters from 1, so a position the reader
reports is a position here.

Edits are given in file order, one *group* at a time; a group (the edits of one change) is
applied entirely or not at all.  Before accepting a group the editor reads ahead to the
lines it touches and checks that each one holds the text the edit expects there; only
segments before the group are written out, so memory holds about two segments.  A ``"\n"``
in the text of a replacement or an insertion becomes the line end of its line.
"""

from __future__ import annotations

import bisect
import codecs
import itertools
import re
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import BinaryIO

from pbntool.text.source import line_codec, sniff_utf16

__all__ = ["Edit", "EditKind", "LineEditor", "Refusal"]

CHUNK_SIZE = 1 << 20
_EOL = re.compile(r"\r\n|\r|\n")
_DEFAULT_ENDING = "\n"


class EditKind(Enum):
    """What an edit does at its line and column."""

    REPLACE = "replace"
    """Replace ``expect`` at the column with ``text``."""
    INSERT = "insert"
    """Insert ``text`` at the column, where the line holds ``expect``."""
    LINE_BEFORE = "line before"
    """Insert a line ``text`` before the line, whose start is ``expect``; it ends like the line
    above it (like the line itself on line 1)."""
    LINE_AFTER = "line after"
    """Insert a line ``text`` after the line, which must be exactly ``expect``; it ends like
    that line (at the end of a file with no final line end, the file still has none)."""
    DELETE_LINE = "delete line"
    """Remove the line, which must be exactly ``expect``, with its line end."""


@dataclass(frozen=True, slots=True)
class Edit:
    """One change to the text at a reader position (1-based line and column)."""

    kind: EditKind
    line: int
    column: int
    expect: str
    text: str
    order: int = 0
    """Among line insertions at one place, and insertions at one column, the lower first."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a group of edits was not applied."""

    reason: str


@dataclass(slots=True)
class _Physical:
    """Bytes of whole lines read with one codec (a whole segment, or one line feed's worth
    when the segment mixes encodings), and the reader lines in them."""

    data: bytes
    codec: str
    lines: list[tuple[str, str]] | None
    """``(text, ending)`` of each line; None when the bytes do not decode and encode back to
    themselves (then nothing on these lines may be edited)."""
    first_line: int


@dataclass(slots=True)
class _Segment:
    """A run of whole lines of the input (about a chunk), decoded only when edited."""

    data: bytes
    first_line: int
    line_count: int
    utf16: str | None
    edits: dict[int, list[Edit]] = field(default_factory=dict)
    """The accepted edits, by line."""
    _physical: list[_Physical] | None = None
    _starts: list[int] | None = None

    @property
    def last_line(self) -> int:
        return self.first_line + self.line_count - 1

    def physical(self) -> list[_Physical]:
        """The segment's bytes as physical lines, each decoded as the reader decodes it."""
        if self._physical is None:
            self._physical = _split_physical(self.data, self.first_line, self.utf16)
            self._starts = [physical.first_line for physical in self._physical]
        return self._physical

    def locate(self, number: int) -> tuple[_Physical, int] | None:
        """The physical line holding reader line ``number`` and the line's index in it."""
        physicals = self.physical()
        assert self._starts is not None
        index = bisect.bisect_right(self._starts, number) - 1
        if index < 0:
            return None
        physical = physicals[index]
        count = len(physical.lines) if physical.lines is not None else 1
        if number >= physical.first_line + count:
            return None
        return physical, number - physical.first_line

    def last_ending(self) -> str:
        """How the segment's last line ends (``""`` at the end of a file without one)."""
        codec = self.utf16 or "latin-1"
        for ending in ("\r\n", "\n", "\r"):
            if self.data.endswith(ending.encode(codec)):
                return ending
        return ""


def _split_physical(data: bytes, first_line: int, utf16: str | None) -> list[_Physical]:
    """The segment as one unit when it decodes as a whole (UTF-8, or the file's UTF-16) and
    encodes back to itself; else line by line, each with the reader's codec for it."""
    whole = utf16 or "utf-8"
    lines = _decode_lines(data, whole)
    if lines is not None:
        return [_Physical(data, whole, lines, first_line)]
    feed = "\n".encode(utf16) if utf16 else b"\n"
    found: list[_Physical] = []
    line = first_line
    for raw in _physical_lines(data, feed, utf16 is not None):
        codec = utf16 or line_codec(raw)
        lines = _decode_lines(raw, codec)
        found.append(_Physical(raw, codec, lines, line))
        line += len(lines) if lines is not None else _line_count(raw, utf16)
    return found


def _physical_lines(data: bytes, feed: bytes, aligned: bool) -> Iterator[bytes]:
    start = 0
    while start < len(data):
        end = _find_feed(data, feed, start, aligned)
        if end < 0:
            yield data[start:]
            return
        yield data[start:end]
        start = end


def _find_feed(data: bytes, feed: bytes, start: int, aligned: bool) -> int:
    """The end (after it) of the first line feed from ``start``, or -1; in UTF-16 only a
    feed on a code-unit boundary counts."""
    position = data.find(feed, start)
    while position >= 0 and aligned and (position - start) % 2:
        position = data.find(feed, position + 1)
    return -1 if position < 0 else position + len(feed)


def _decode_lines(data: bytes, codec: str) -> list[tuple[str, str]] | None:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    if text.encode(codec) != data:
        return None
    lines: list[tuple[str, str]] = []
    start = 0
    for match in _EOL.finditer(text):
        lines.append((text[start : match.start()], match.group()))
        start = match.end()
    if start < len(text) or not lines:
        lines.append((text[start:], ""))
    return lines


def _line_count(data: bytes, utf16: str | None) -> int:
    """Reader lines in some whole lines of the input: line ends, plus a last line without
    one (UTF-16 is decoded for this, with replacements, as the reader decodes it)."""
    if utf16:
        text = data.decode(utf16, errors="replace")
        ends = text.count("\n") + text.count("\r") - text.count("\r\n")
        return ends + (0 if text.endswith(("\n", "\r")) else 1)
    ends = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    return ends + (0 if data.endswith((b"\n", b"\r")) else 1)


class _Segments:
    """The input as segments of whole lines, about a chunk each."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        head = stream.read(4)
        self.utf16 = sniff_utf16(head)
        bom = b""
        if self.utf16 is not None:
            if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
                bom = head[:2]
        elif head.startswith(codecs.BOM_UTF8):
            bom = codecs.BOM_UTF8
        self.prefix = bom
        self._pending = head[len(bom) :]
        self._next_line = 1
        self._feed = "\n".encode(self.utf16) if self.utf16 else b"\n"

    def __iter__(self) -> Iterator[_Segment]:
        # The unfinished line in pieces, joined once when it ends: a line of many chunks
        # costs linear time.  Only the new chunk (and the byte before it, where a UTF-16
        # line feed may start) is searched for the line's end.
        parts = [self._pending] if self._pending else []
        size = len(self._pending)
        while True:
            chunk = self._stream.read(CHUNK_SIZE)
            if not chunk:
                if parts:
                    yield self._segment(b"".join(parts))
                return
            before = parts[-1][-1:] if parts and len(self._feed) > 1 else b""
            found = self._last_feed_end(before + chunk, size - len(before))
            if found < 0:
                parts.append(chunk)
                size += len(chunk)
                continue
            cut = found - size  # in the chunk
            yield self._segment(b"".join([*parts, chunk[:cut]]))
            rest = chunk[cut:]
            parts, size = ([rest] if rest else []), len(rest)

    def _last_feed_end(self, data: bytes, offset: int) -> int:
        """Where the last whole line in ``data`` ends, counted from the start of the pending
        text (``data`` starts ``offset`` bytes into it); -1 when no line ends in ``data``."""
        position = data.rfind(self._feed)
        while position >= 0 and self.utf16 and (offset + position) % 2:
            position = data.rfind(self._feed, 0, position)
        return -1 if position < 0 else offset + position + len(self._feed)

    def _segment(self, data: bytes) -> _Segment:
        segment = _Segment(data, self._next_line, _line_count(data, self.utf16), self.utf16)
        self._next_line += segment.line_count
        return segment


class LineEditor:
    """Copies an input to an output, applying groups of edits given in file order.

    ``out`` None checks and counts edits without writing anything (a dry run).
    """

    def __init__(self, stream: BinaryIO, out: BinaryIO | None) -> None:
        self._segments = _Segments(stream)
        self._source = iter(self._segments)
        self._out = out
        self._buffer: deque[_Segment] = deque()
        self._exhausted = False
        self._previous_ending = ""
        self.applied = 0
        """Groups applied so far."""
        self._write(self._segments.prefix)

    def apply(self, group: Sequence[Edit]) -> Refusal | None:
        """Apply every edit of the group, or none of them (the refusal says why)."""
        if not group:
            return None
        first = min(edit.line for edit in group)
        last = max(edit.line for edit in group)
        self._flush_before(first)
        if self._buffer and first < self._buffer[0].first_line:
            return Refusal("the edit comes after text already written (a bug in pbntool)")
        self._read_through(last)
        placed: list[tuple[_Segment, Edit]] = []
        for edit in group:
            segment = self._segment_of(edit.line)
            if segment is None:
                return Refusal(f"line {edit.line} is not in the file as it was read")
            problem = _check(segment, edit)
            if problem is not None:
                return Refusal(problem)
            placed.append((segment, edit))
        overlap = _overlap([edit for _, edit in placed] + self._accepted_on(placed))
        if overlap:
            return Refusal(overlap)
        for segment, edit in placed:
            segment.edits.setdefault(edit.line, []).append(edit)
        self.applied += 1
        return None

    def finish(self) -> None:
        """Write the rest of the input."""
        while self._buffer:
            self._write_segment(self._buffer.popleft())
        for segment in self._source:
            self._write_segment(segment)

    @staticmethod
    def _accepted_on(placed: list[tuple[_Segment, Edit]]) -> list[Edit]:
        """Edits accepted earlier on the lines the new ones touch."""
        lines = {(id(segment), edit.line): segment for segment, edit in placed}
        return [
            edit for (_, line), segment in lines.items() for edit in segment.edits.get(line, [])
        ]

    def _flush_before(self, line: int) -> None:
        while self._buffer and self._buffer[0].last_line < line:
            self._write_segment(self._buffer.popleft())
        while not self._buffer and not self._exhausted:
            segment = self._next_segment()
            if segment is None:
                return
            if segment.last_line < line:
                self._write_segment(segment)
            else:
                self._buffer.append(segment)

    def _read_through(self, line: int) -> None:
        while not self._exhausted and (not self._buffer or self._buffer[-1].last_line < line):
            segment = self._next_segment()
            if segment is None:
                return
            self._buffer.append(segment)

    def _next_segment(self) -> _Segment | None:
        segment = next(self._source, None)
        if segment is None:
            self._exhausted = True
        return segment

    def _segment_of(self, line: int) -> _Segment | None:
        for segment in self._buffer:
            if segment.first_line <= line <= segment.last_line:
                return segment
        return None

    def _write_segment(self, segment: _Segment) -> None:
        if not segment.edits:
            self._write(segment.data)
            self._previous_ending = segment.last_ending() or self._previous_ending
            return
        by_line = segment.edits
        for physical in segment.physical():
            lines = physical.lines
            count = len(lines) if lines is not None else 1
            numbers = range(physical.first_line, physical.first_line + count)
            if lines is None or not any(number in by_line for number in numbers):
                self._write(physical.data)
                if lines is not None and lines[-1][1]:
                    self._previous_ending = lines[-1][1]
                continue
            parts: list[str] = []
            for number, (text, ending) in zip(numbers, lines, strict=True):
                edits = by_line.get(number)
                parts.append(
                    text + ending if edits is None else self._edited_line(text, ending, edits)
                )
                self._previous_ending = ending or self._previous_ending
            self._write("".join(parts).encode(physical.codec))

    def _edited_line(self, text: str, ending: str, edits: list[Edit]) -> str:
        above = self._previous_ending or ending or _DEFAULT_ENDING
        if any(edit.kind is EditKind.DELETE_LINE for edit in edits):
            return ""
        inline = [e for e in edits if e.kind in (EditKind.REPLACE, EditKind.INSERT)]
        # Right to left, so earlier columns stay valid; among insertions at one column the
        # last in order goes in first, so they end up in order.
        for edit in sorted(inline, key=lambda e: (e.column, e.order), reverse=True):
            start = edit.column - 1
            removed = len(edit.expect) if edit.kind is EditKind.REPLACE else 0
            new = edit.text.replace("\n", ending or above)
            text = text[:start] + new + text[start + removed :]
        before = sorted((e for e in edits if e.kind is EditKind.LINE_BEFORE), key=_by_order)
        after = sorted((e for e in edits if e.kind is EditKind.LINE_AFTER), key=_by_order)
        out = "".join(edit.text + above for edit in before) + text
        if not after:
            return out + ending
        if ending:
            return out + ending + "".join(edit.text + ending for edit in after)
        # The last line of a file with no final line end: the file keeps having none.
        return out + "".join(above + edit.text for edit in after)

    def _write(self, data: bytes) -> None:
        if self._out is not None and data:
            self._out.write(data)


def _by_order(edit: Edit) -> int:
    return edit.order


def _check(segment: _Segment, edit: Edit) -> str | None:
    """Why the edit cannot be made in this segment, or None."""
    found = segment.locate(edit.line)
    if found is None:
        return f"line {edit.line} is not in the file as it was read"
    physical, index = found
    if physical.lines is None:
        return f"line {edit.line} does not decode and encode back to the same bytes"
    text, _ = physical.lines[index]
    try:
        edit.text.encode(physical.codec)
    except UnicodeEncodeError:
        return f"the new text cannot be written in the {physical.codec} of line {edit.line}"
    if edit.kind in (EditKind.LINE_AFTER, EditKind.DELETE_LINE):
        matches = text == edit.expect
    else:
        start = edit.column - 1
        matches = start >= 0 and text[start : start + len(edit.expect)] == edit.expect
    if not matches:
        return f"line {edit.line} does not hold the text the reader saw there"
    return None


def _overlap(edits: list[Edit]) -> str | None:
    """Two replacements of overlapping text on one line cannot both be made, nor a change to
    a line that is deleted."""
    deleted = {edit.line for edit in edits if edit.kind is EditKind.DELETE_LINE}
    for edit in edits:
        if edit.line in deleted and edit.kind is not EditKind.DELETE_LINE:
            return f"a change to line {edit.line}, which another change removes"
    spans: dict[int, list[tuple[int, int]]] = {}
    for edit in edits:
        if edit.kind is EditKind.REPLACE:
            spans.setdefault(edit.line, []).append(
                (edit.column, edit.column + max(len(edit.expect), 1))
            )
    for line, found in spans.items():
        found.sort()
        for (_, end), (start, _) in itertools.pairwise(found):
            if start < end:
                return f"two changes overlap on line {line}"
    return None
