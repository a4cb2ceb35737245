"""Minimal edits of a PBN file: replace a tag's value or a table, insert tags; every other
byte of the file stays as it was (encoding, line ends, spacing, comments, escape lines).

An ``Edit`` is a span of the file given as 1-based (line, column) positions in the decoded
text, the way the reader reports positions; ``GameSpans`` finds the spans of one game from
the reader's ``SourceMap``; ``apply_edits`` turns positions back into byte offsets, line by
line with the decoding the reader used for that line (UTF-8, else Windows-1252, else
Latin-1; UTF-16 files are decoded whole), and writes the new bytes.  A ``"\\n"`` in an
edit's text becomes the line end of the line it is inserted in.

``dd --fill`` is the user here; a general minimal-edit writer (``fix``) could share
``Edit``, ``apply_edits`` and the span finders.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pbntool.formats.pbn.decode import SourceMap
from pbntool.formats.pbn.reader import RawTag
from pbntool.formats.pbn.tags import SECTION_TAGS
from pbntool.text.source import line_codec

__all__ = ["Edit", "GameSpans", "Insertion", "apply_edits"]


@dataclass(frozen=True, slots=True, order=True)
class Edit:
    """Replace the text from (``line``, ``column``) up to, not including, (``end_line``,
    ``end_column``) with ``text``; an insertion when the two positions are equal."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


_STRING_BODY = re.compile(r'(?:[^"\\\n]|\\.)*')
_WORD = re.compile(r"\S+")
# Commentary that follows a game's last tag on later lines (kept before inserted tags).
_TRAILING_COMMENTARY = re.compile(r"(?:\n[ \t]*(?:\{[^}]*\}|;[^\n]*|%[^\n]*)[^\n\[]*)*")


@dataclass(frozen=True, slots=True)
class Insertion:
    """Where inserted tags go: ``offset`` in the game, the text to put before and after
    them, and whether more of the game follows (then the last inserted tag must not be a
    section, or what follows would be read as its data)."""

    offset: int
    before: str
    after: str
    followed: bool


class GameSpans:
    """Spans (text offsets in the game) of the parts of one game that edits touch."""

    def __init__(self, source: SourceMap) -> None:
        self.source = source
        self.text = source.block.text

    def tag(self, name: str) -> RawTag | None:
        return self.source.tags.get(name)

    def value_span(self, name: str) -> tuple[int, int] | None:
        """The text between the quotes of a tag's value."""
        raw = self.tag(name)
        if raw is None:
            return None
        start = raw.value_offset
        match = _STRING_BODY.match(self.text, start)
        end = match.end() if match else start
        return start, end

    def section_span(self, name: str) -> tuple[int, int, list[str]] | None:
        """From a section's ``[`` to the end of its last element, with the source text of
        any commentary written between its elements (a replacement must keep it)."""
        raw = self.tag(name)
        if raw is None:
            return None
        value = self.value_span(name)
        close = self.text.find("]", value[1] if value else raw.value_offset)
        end = close + 1 if close >= 0 else raw.value_offset
        comments: list[tuple[int, str]] = []
        for kind, piece, offset, _comment in raw.data or []:
            if kind == "comment":
                comments.append((offset, _comment_text(self.text, offset)))
            elif kind == "string":
                end = max(end, offset + len(piece))
            else:
                words = list(_WORD.finditer(piece))
                if words:
                    end = max(end, offset + words[-1].end())
        return raw.offset, end, [text for offset, text in comments if offset < end]

    def element_offsets(self, name: str) -> list[int]:
        """The offset of every element of a section's data, in order."""
        raw = self.tag(name)
        offsets: list[int] = []
        for kind, piece, offset, _comment in (raw.data or []) if raw is not None else []:
            if kind == "data":
                offsets.extend(offset + word.start() for word in _WORD.finditer(piece))
            elif kind == "string":
                offsets.append(offset)
        return offsets

    def insertion(self) -> Insertion:
        """Where new tags go.

        Before the game's first section (Auction, Play, a table, a note, an unknown
        section), on lines of their own; in a game with no section, after its last tag and
        the commentary that follows it.
        """
        sections = [
            raw
            for raw in self.source.tags.values()
            if raw.name in SECTION_TAGS or raw.name == "Note" or raw.data is not None
        ]
        if sections:
            first = min(sections, key=lambda raw: raw.offset)
            line_start = self.text.rfind("\n", 0, first.offset) + 1
            if self.text[line_start : first.offset].strip():
                return Insertion(first.offset, "", "\n", False)  # shares a line with a tag
            return Insertion(line_start, "", "\n", False)  # a tag follows: nothing to guard
        last = max(self.source.tags.values(), key=lambda raw: raw.offset)
        line_end = self.text.find("\n", last.offset)
        line_end = len(self.text) if line_end < 0 else line_end
        trailing = _TRAILING_COMMENTARY.match(self.text, line_end)
        end = trailing.end() if trailing else line_end
        return Insertion(end, "\n", "", bool(self.text[end:].strip()))

    def edit(self, start: int, end: int, text: str) -> Edit:
        line, column = self.source.position(start)
        end_line, end_column = self.source.position(end)
        return Edit(line, column, end_line, end_column, text)


def _comment_text(text: str, offset: int) -> str:
    """The source text of the comment starting at ``offset`` (``{...}`` or ``;...``)."""
    if text.startswith("{", offset):
        close = text.find("}", offset)
        return text[offset : close + 1 if close >= 0 else len(text)]
    end = text.find("\n", offset)
    return text[offset : len(text) if end < 0 else end]


# --- applying edits to the bytes -----------------------------------------------------------------

_LINE_END = re.compile(rb"\r\n|\r|\n")
_TEXT_LINE_END = re.compile(r"\r\n|\r|\n")


def apply_edits(data: bytes, edits: Iterable[Edit]) -> bytes:
    """The file ``data`` with ``edits`` applied (they must not overlap)."""
    ordered = sorted(edits)
    if not ordered:
        return data
    for head, encoding in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(head):
            text = data[len(head) :].decode(encoding, errors="replace")
            return head + _apply_text(text, ordered).encode(encoding)
    sniffed = _utf16_without_bom(data)
    if sniffed is not None:
        return _apply_text(data.decode(sniffed, errors="replace"), ordered).encode(sniffed)
    return _apply_bytes(data, ordered)


def _utf16_without_bom(data: bytes) -> str | None:
    head = data[:4]
    if len(head) == 4 and head[1] == 0 and head[3] == 0 and head[0] and head[2]:
        return "utf-16-le"
    if len(head) == 4 and head[0] == 0 and head[2] == 0 and head[1] and head[3]:
        return "utf-16-be"
    return None


def _apply_bytes(data: bytes, edits: Sequence[Edit]) -> bytes:
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    lines = _byte_lines(data, bom)
    first = _first_end(lines)
    default_end = "\r\n" if first is None else data[first[0] : first[1]].decode("ascii")
    out: list[bytes] = []
    cursor = 0
    for edit in edits:
        start = _byte_offset(data, lines, edit.line, edit.column)
        end = _byte_offset(data, lines, edit.end_line, edit.end_column)
        line_end = _line_end(data, lines, edit.line) or default_end
        codec = _line_codec(data, lines, edit.line)
        out += [data[cursor:start], edit.text.replace("\n", line_end).encode(codec, "replace")]
        cursor = end
    out.append(data[cursor:])
    return b"".join(out)


def _apply_text(text: str, edits: Sequence[Edit]) -> str:
    lines = _text_lines(text)
    first = _first_end(lines)
    default_end = "\r\n" if first is None else text[first[0] : first[1]]
    out: list[str] = []
    cursor = 0
    for edit in edits:
        start = lines[edit.line - 1][0] + edit.column - 1
        end = lines[edit.end_line - 1][0] + edit.end_column - 1
        _start, line_stop, line_end = lines[edit.line - 1]
        ending = text[line_stop:line_end] or default_end
        out += [text[cursor:start], edit.text.replace("\n", ending)]
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


Lines = list[tuple[int, int, int]]
"""(start, end of the content, end with the line end) of every line."""


def _byte_lines(data: bytes, first: int) -> Lines:
    return _spans([(m.start(), m.end()) for m in _LINE_END.finditer(data, first)], first, len(data))


def _text_lines(text: str) -> Lines:
    return _spans([(m.start(), m.end()) for m in _TEXT_LINE_END.finditer(text)], 0, len(text))


def _spans(ends: list[tuple[int, int]], first: int, size: int) -> Lines:
    spans = []
    start = first
    for stop, end in ends:
        spans.append((start, stop, end))
        start = end
    spans.append((start, size, size))
    return spans


def _first_end(lines: Lines) -> tuple[int, int] | None:
    """The span of the first line end of a file (None when it has a single line)."""
    for _start, stop, end in lines:
        if end > stop:
            return stop, end
    return None


def _line_codec(data: bytes, lines: Lines, line: int) -> str:
    start, stop, _end = lines[line - 1]
    return line_codec(data[start:stop])


def _byte_offset(data: bytes, lines: Lines, line: int, column: int) -> int:
    """The byte offset of a (line, column) position, decoding the line as the reader did."""
    start, stop, end = lines[line - 1]
    codec = _line_codec(data, lines, line)
    text = data[start:stop].decode(codec)
    if column - 1 > len(text):  # the position of the line end (or past it, at the end)
        return min(end, start + len(data[start:end]))
    return start + len(text[: column - 1].encode(codec))


def _line_end(data: bytes, lines: Lines, line: int) -> str:
    _start, stop, end = lines[line - 1]
    return data[stop:end].decode("ascii")
