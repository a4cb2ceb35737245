"""Edit a file's text in place, keeping every byte outside the edits as it was.

The input is read as *segments*: its bytes up to and including each line feed (the
``\\n`` code unit in UTF-16).  A segment no edit touches is copied byte for byte, never
decoded and re-encoded.  A segment an edit touches is decoded with the codec the reader used
for it (the file's UTF-16, else UTF-8 when it is valid, else Windows-1252, else Latin-1),
checked to encode back to the very same bytes, edited, and encoded with that codec again.
So line ends (CRLF, LF, CR, mixed), byte-order marks, encodings, a DOS end-of-file mark and
text outside any game all stay as they were.

Lines are numbered as the reader numbers them (CRLF, LF and a lone CR each end a line, the
BOM is not part of line 1) and columns count characters from 1, so a position the reader
reports is a position here.

Edits are given in file order, one *group* at a time; a group (the edits of one change) is
applied entirely or not at all.  Before accepting a group the editor reads ahead to the
lines it touches and checks that each one holds the text the edit expects there; only
segments before the group are written out, so memory holds the lines of about one game.
"""

from __future__ import annotations

import codecs
import itertools
import re
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import BinaryIO

from pbntool.source import sniff_utf16

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
class _Segment:
    """Bytes of the input up to and including one line feed (or the end)."""

    data: bytes
    first_line: int
    line_count: int
    codec: str
    edits: list[Edit] = field(default_factory=list)
    _lines: list[tuple[str, str]] | None = None
    _decoded: bool = False

    @property
    def last_line(self) -> int:
        return self.first_line + self.line_count - 1

    def lines(self) -> list[tuple[str, str]] | None:
        """``(text, ending)`` of each line, or None when the bytes do not survive decoding and
        encoding unchanged (then nothing in this segment may be edited)."""
        if not self._decoded:
            self._decoded = True
            self._lines = _decode_lines(self.data, self.codec)
        return self._lines

    def line(self, number: int) -> tuple[str, str] | None:
        lines = self.lines()
        if lines is None:
            return None
        index = number - self.first_line
        return lines[index] if 0 <= index < len(lines) else None

    def encodes(self, text: str) -> bool:
        try:
            text.encode(self.codec)
        except UnicodeEncodeError:
            return False
        return True

    def last_ending(self) -> str:
        """How the segment's last line ends (``""`` at the end of a file without one)."""
        lines = self.lines() if self.codec.startswith("utf-16") else None
        if lines is not None:
            return lines[-1][1] if lines else ""
        data = self.data
        if data.endswith(b"\r\n"):
            return "\r\n"
        if data.endswith(b"\n"):
            return "\n"
        return "\r" if data.endswith(b"\r") else ""


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


def _byte_codec(data: bytes) -> str:
    """The codec the reader decodes a line with: UTF-8 when valid, else Windows-1252, else
    Latin-1 (for the five bytes Windows-1252 leaves undefined)."""
    for codec in ("utf-8", "cp1252"):
        try:
            data.decode(codec)
        except UnicodeDecodeError:
            continue
        return codec
    return "latin-1"


def _byte_line_count(data: bytes) -> int:
    feeds, returns = data.count(b"\n"), data.count(b"\r")
    ends = feeds + returns - data.count(b"\r\n")
    trailing = not data.endswith((b"\n", b"\r"))
    return ends + (1 if trailing else 0)


class _Segments:
    """The input as segments, read in chunks."""

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
        pending = self._pending
        while True:
            chunk = self._stream.read(CHUNK_SIZE)
            pending += chunk
            start = 0
            while True:
                end = self._find_feed(pending, start)
                if end < 0:
                    break
                yield self._segment(pending[start:end])
                start = end
            pending = pending[start:]
            if not chunk:
                if pending:
                    yield self._segment(pending)
                return

    def _find_feed(self, data: bytes, start: int) -> int:
        """The end (after the line feed) of the first segment from ``start``, or -1."""
        feed = self._feed
        position = data.find(feed, start)
        while position >= 0 and self.utf16 and (position - start) % 2:
            position = data.find(feed, position + 1)
        return -1 if position < 0 else position + len(feed)

    def _segment(self, data: bytes) -> _Segment:
        if self.utf16:
            lines = _decode_lines(data, self.utf16)
            # A segment that does not decode cleanly still holds one line feed.
            count = len(lines) if lines is not None else 1
            segment = _Segment(data, self._next_line, count, self.utf16)
            segment._lines, segment._decoded = lines, True
        else:
            segment = _Segment(data, self._next_line, _byte_line_count(data), _byte_codec(data))
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
        overlap = _overlap([edit for _, edit in placed] + self._pending_edits(first, last))
        if overlap:
            return Refusal(overlap)
        for segment, edit in placed:
            segment.edits.append(edit)
        self.applied += 1
        return None

    def finish(self) -> None:
        """Write the rest of the input."""
        while self._buffer:
            self._write_segment(self._buffer.popleft())
        for segment in self._source:
            self._write_segment(segment)

    def _pending_edits(self, first: int, last: int) -> list[Edit]:
        return [
            edit for segment in self._buffer for edit in segment.edits if first <= edit.line <= last
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
            self._previous_ending = segment.last_ending()
            return
        lines = segment.lines()
        assert lines is not None  # checked when the edits were accepted
        parts: list[str] = []
        for index, (text, ending) in enumerate(lines):
            number = segment.first_line + index
            edits = [edit for edit in segment.edits if edit.line == number]
            parts.append(self._edited_line(text, ending, edits))
            self._previous_ending = ending or self._previous_ending
        self._write("".join(parts).encode(segment.codec))

    def _edited_line(self, text: str, ending: str, edits: list[Edit]) -> str:
        inline = [e for e in edits if e.kind in (EditKind.REPLACE, EditKind.INSERT)]
        # Right to left, so earlier columns stay valid; among insertions at one column the
        # last in order goes in first, so they end up in order.
        for edit in sorted(inline, key=lambda e: (e.column, e.order), reverse=True):
            start = edit.column - 1
            removed = len(edit.expect) if edit.kind is EditKind.REPLACE else 0
            text = text[:start] + edit.text + text[start + removed :]
        before = sorted((e for e in edits if e.kind is EditKind.LINE_BEFORE), key=_by_order)
        after = sorted((e for e in edits if e.kind is EditKind.LINE_AFTER), key=_by_order)
        above = self._previous_ending or ending or _DEFAULT_ENDING
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
    if segment.lines() is None:
        return f"line {edit.line} does not decode and encode back to the same bytes"
    found = segment.line(edit.line)
    if found is None:
        return f"line {edit.line} is not in the file as it was read"
    text, _ = found
    if not segment.encodes(edit.text):
        return f"the new text cannot be written in the {segment.codec} of line {edit.line}"
    if edit.kind is EditKind.LINE_AFTER:
        matches = text == edit.expect
    else:
        start = edit.column - 1
        matches = start >= 0 and text[start : start + len(edit.expect)] == edit.expect
    if not matches:
        return f"line {edit.line} does not hold the text the reader saw there"
    return None


def _overlap(edits: list[Edit]) -> str | None:
    """Two replacements of overlapping text on one line cannot both be made."""
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
