"""Reading JSON records, streamed: JSON Lines, pretty-printed records, or one array of them.

The input is cut into *segments*: runs of whole lines that hold whole top-level values (one
line each in JSON Lines; the lines of one record when it is pretty-printed, as ``jq .``
writes; the elements of a top-level array, ``[`` and ``]`` aside).  Cutting only counts
brackets outside strings, so a broken record costs its own lines: the next segment starts
fresh.  An object that is never closed ends where a line starts with ``{`` in column 1 (the
next record of a JSON Lines file), so that it cannot swallow the rest of the file.

Each value is decoded with the standard library's C decoder; only when a diagnostic needs a
position is the record walked again, in Python, to find the offset of the value it is about.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from pbntool.diagnostics import (
    JSN001,
    JSN002,
    JSN003,
    JSN004,
    JSN005,
    JSN006,
    JSN007,
    JSN008,
    JSN009,
    JSN010,
    Diagnostic,
    Path,
)
from pbntool.formats.interchange.fromdict import Dialect, JsonPath, ModelDecoder, describe
from pbntool.formats.interchange.paths import model_path
from pbntool.formats.interchange.summary import board_from_summary
from pbntool.formats.interchange.vocabulary import SCHEMA_ID
from pbntool.model import Board
from pbntool.records import Record, place
from pbntool.text.source import (
    DEFAULT_MAX_RECORD_CHARS,
    MAX_RECORD_ENV,
    DecodedText,
    LineIndex,
    LongLine,
    encoding_record,
    max_record_chars,
)

__all__ = [
    "MAX_RECORD_CHARS",
    "MAX_RECORD_ENV",
    "RECORD_KEYS",
    "iter_records",
    "json_path_text",
    "max_record_chars",
]

MAX_RECORD_CHARS = DEFAULT_MAX_RECORD_CHARS
"""The default record limit (``--max-record-size``): a record longer than this (16 Mi
characters by default), or a line longer than this in bytes, is skipped, never held."""

RECORD_KEYS = frozenset(
    [
        "schema",
        "file",
        "board",
        "dealer",
        "vulnerable",
        "deal",
        "auction",
        "declarer",
        "contract",
        "result",
        "play",
        "play_order_complete",
        "tricks",
        "claimed",
        "score",
        "notes",
        "commentary",
        "tags",
        "players",
        "event",
        "room",
        "alerts",
        "claim",
        "model",
    ]
)
"""The keys a record may have.  ``schema`` and ``model`` are read; the rest is derived from the
model, and read only from a record that has no model (``pbntool.formats.interchange.summary``)."""


def json_path_text(path: JsonPath) -> str:
    """``model.auction.calls[3]``: a path as a message names it."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    if len(text) > 80:
        text = text[:40] + "..." + text[-37:]
    return text or "the record"


JSON_DIALECT = Dialect("json", JSN003, JSN004, JSN005, JSN006, JSN007, json_path_text)

# Strings (complete or not) and brackets: what the segmenter counts.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


# --- segments --------------------------------------------------------------------------------


@dataclass(slots=True)
class Segment:
    """Whole lines of the input holding whole values (or one oversized record, skipped)."""

    first_line: int
    text: str
    oversized: bool = False


@dataclass(slots=True)
class _Cutter:
    """Where segments end: bracket depth at each line end, outside strings."""

    depth: int = 0
    array: bool = False
    """The top-level value is an array: its elements are segments of their own."""
    lines: list[str] = field(default_factory=list)
    first_line: int = 0
    size: int = 0
    oversized: bool = False
    limit: int = MAX_RECORD_CHARS

    def take(self, number: int, line: str) -> Segment | None:
        """Add a line; returns the segment it completes, if any."""
        if not self.lines and not self.oversized:
            if not line.strip():
                return None
            self.first_line = number
        self._add(line)
        without_strings = _STRING.sub("", line)
        if '"' in without_strings:  # a string that does not end on its line: not JSON
            return self.cut(reset=True)
        if self.depth == 0 and not self.array:
            self.array = without_strings.lstrip().startswith("[")
        self.depth += without_strings.count("{") + without_strings.count("[")
        self.depth -= without_strings.count("}") + without_strings.count("]")
        if self.depth <= 0:
            self.depth, self.array = 0, False
            return self.cut()
        if self.array and self.depth == 1:
            return self.cut()
        return None

    def starts_record(self, line: str) -> bool:
        """A line that opens a new JSON Lines record while an object is still open."""
        return bool(self.lines) and not self.array and line.startswith("{") and self.depth > 0

    def _add(self, line: str) -> None:
        self.size += len(line)
        if self.size > self.limit:
            self.oversized = True
            self.lines.clear()
        if not self.oversized:
            self.lines.append(line)

    def cut(self, reset: bool = False) -> Segment | None:
        """The segment so far (None if empty)."""
        if reset:
            self.depth = 1 if self.array else 0
        if not self.lines and not self.oversized:
            return None
        segment = Segment(self.first_line, "".join(self.lines), self.oversized)
        self.lines, self.size, self.oversized = [], 0, False
        return segment


def iter_segments(lines: Iterable[str], limit: int = MAX_RECORD_CHARS) -> Iterator[Segment]:
    """Cut lines (each with its line end, but maybe the last) into segments; a ``LongLine``
    (a line too long to hold) is an oversized segment of its own."""
    cutter = _Cutter(limit=limit)
    for number, line in enumerate(lines, 1):
        if isinstance(line, LongLine):
            broken = cutter.cut(reset=True)
            if broken is not None:
                yield broken
            cutter.depth, cutter.array = 0, False
            yield Segment(number, "", oversized=True)
            continue
        if cutter.starts_record(line):
            broken = cutter.cut(reset=True)
            if broken is not None:
                yield broken
            cutter.depth = 0
        segment = cutter.take(number, line)
        if segment is not None:
            yield segment
    last = cutter.cut()
    if last is not None:
        yield last


# --- records ------------------------------------------------------------------------------------


def iter_records(stream: BinaryIO, name: str = "<stdin>") -> Iterator[Record]:
    """Read JSON records from a byte stream, one ``Record`` per record, in input order.

    Never raises on bad input: text that is not JSON, a value that is not a record, and any
    value the record format does not allow become diagnostics with their line and column.
    """
    limit = max_record_chars()
    text = DecodedText(stream, max_line=limit)
    reader = _Reader(name, limit=limit)
    reported = 0
    for segment in iter_segments(_normalised_lines(text), limit):
        while reported < len(text.events) and text.events[reported].line <= segment.first_line:
            yield encoding_record(text.events[reported], name)
            reported += 1
        yield from reader.segment(segment)
    for event in text.events[reported:]:
        yield encoding_record(event, name)
    yield from reader.finish()


def _normalised_lines(text: DecodedText) -> Iterator[str]:
    """Lines with their ``\n``.  Not ``splitlines()``: that also splits at U+2028, U+0085 ...,
    which JSON allows raw inside strings."""
    for chunk in text:
        if isinstance(chunk, LongLine):
            yield chunk
            continue
        lines = chunk.split("\n")
        for line in lines[:-1]:
            yield line + "\n"
        if lines[-1]:
            yield lines[-1]


@dataclass
class _Reader:
    """The state that lasts across segments: the file name and whether an array is open."""

    name: str
    in_array: bool = False
    last: tuple[int, int] = (1, 1)
    limit: int = MAX_RECORD_CHARS

    def segment(self, segment: Segment) -> Iterator[Record]:
        """The records of one segment; a JSON error skips the rest of the segment."""
        lines = _Lines(segment)
        if segment.oversized:
            detail = f"longer than {self.limit} characters (--max-record-size)"
            yield self._failure(lines, 0, JSN009.at(detail=detail))
            return
        source, position = segment.text, 0
        while True:
            position = _WHITESPACE.match(source, position).end()  # type: ignore[union-attr]
            if position >= len(source):
                break
            self.last = lines.position(position)
            char = source[position]
            if self.in_array and char in ",]":
                self.in_array = char == ","
                position += 1
                continue
            if not self.in_array and char == "[":
                self.in_array = True
                position += 1
                continue
            try:
                value, end = _DECODER.raw_decode(source, position)
            except json.JSONDecodeError as error:
                yield self._failure(lines, error.pos, JSN001.at(detail=error.msg))
                return
            except RecursionError:  # the C decoder's guard: nesting deeper than Python's limit
                yield self._failure(lines, position, JSN009.at(detail="nested too deeply"))
                return
            except ValueError as error:  # e.g. an integer of more than 4300 digits
                yield self._failure(lines, position, JSN001.at(detail=str(error)))
                return
            yield self._record(value, lines, position, end)
            position = end

    def finish(self) -> Iterator[Record]:
        """A record for an array still open at the end of the input."""
        if self.in_array:
            found = JSN001.at(detail="the top-level array has no closing ]")
            line, column = self.last
            placed = Diagnostic(found.code, found.severity, found.message, self.name, line, column)
            yield Record(None, (placed,), self.name, line)

    def _failure(self, lines: _Lines, offset: int, diagnostic: Diagnostic) -> Record:
        text = lines.segment.text
        if offset >= len(text) and text.endswith("\n"):
            offset = len(text) - 1  # the end of the record's last line, not the next line
        line, column = lines.position(offset)
        placed = Diagnostic(
            diagnostic.code, diagnostic.severity, diagnostic.message, self.name, line, column
        )
        return Record(None, (placed,), self.name, line)

    def _record(self, value: object, lines: _Lines, start: int, end: int) -> Record:
        locator = JsonLocator(lines, start)
        line = lines.position(start)[0]
        if not isinstance(value, dict):
            found = JSN002.at(("json",), found=describe(value))
            return Record(None, (place(found, self.name, line, locator, None),), self.name, line)
        try:
            problems = _surrogates(value, lines.segment.text[start:end])
        except RecursionError:  # a deep record with an unpaired surrogate somewhere
            found = JSN009.at(("json",), detail="nested too deeply")
            return Record(None, (place(found, self.name, line, locator, None),), self.name, line)
        board, more = read_record(value)
        problems.extend(more)
        locator.board = board
        number = board.number if board is not None else None
        placed = sorted(
            (place(d, self.name, line, locator, number) for d in problems),
            key=lambda d: (d.line or 0, d.column or 0),
        )
        return Record(board, tuple(placed), self.name, line, locator)


def read_record(value: dict[str, object]) -> tuple[Board | None, list[Diagnostic]]:
    """The board of one decoded JSON record, with the problems found (paths not placed)."""
    decoder = ModelDecoder(JSON_DIALECT)
    schema = value.get("schema")
    if schema is not None and schema != SCHEMA_ID:
        decoder.found.append(
            JSN008.at(("json", "schema"), found=describe(schema), expected=SCHEMA_ID)
        )
    for key in value:
        if key not in RECORD_KEYS:
            decoder.found.append(JSN005.at(("json", key), key=describe(key), where="the record"))
    if "model" not in value:
        board, found = board_from_summary(value)
        return board, [*decoder.found, *found]
    board = decoder.board(value["model"], ("model",))
    return board, decoder.found


# --- unpaired surrogates ----------------------------------------------------------------------


def _surrogates(value: dict[str, object], text: str) -> list[Diagnostic]:
    """Replace unpaired surrogates (``"\\ud800"``) in place; a warning for each string of the
    model that had one."""
    if "\\u" not in text or _SURROGATE_ESCAPE.search(text) is None:
        return []
    found: list[Diagnostic] = []
    _fix_strings(value, (), found)
    return found


def _fix_strings(value: object, path: JsonPath, found: list[Diagnostic]) -> object:
    if isinstance(value, str):
        # The C decoder joins every escaped pair, so a surrogate left in a string is unpaired.
        bad = [char for char in value if "\ud800" <= char <= "\udfff"]
        if not bad:
            return value
        escape = f"\\u{ord(bad[0]):04x}"
        if path[:1] == ("model",):  # the rest of the record is not read back
            found.append(JSN010.at(("json", *path), where=json_path_text(path), escape=escape))
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in value)
    if isinstance(value, dict):
        fixed = {}
        for key, item in value.items():
            fixed[_fix_strings(key, path, found)] = _fix_strings(item, (*path, key), found)
        value.clear()
        value.update(fixed)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            value[index] = _fix_strings(item, (*path, index), found)
    return value


# --- positions ---------------------------------------------------------------------------------


class _Lines:
    """Line and column of an offset in a segment."""

    def __init__(self, segment: Segment) -> None:
        self.segment = segment
        self._lines = LineIndex(segment.text, segment.first_line)

    def position(self, offset: int) -> tuple[int, int]:
        return self._lines.position(offset)


@dataclass
class JsonLocator:
    """Places a diagnostic's path (a JSON path, or a model path of the Laws checks)."""

    lines: _Lines
    start: int
    board: Board | None = None

    def offset(self, path: Path | None) -> int | None:
        steps = self.steps(path)
        if steps is None:
            return None
        return _find(self.lines.segment.text, self.start, steps)

    def position(self, offset: int) -> tuple[int, int]:
        return self.lines.position(offset)

    def steps(self, path: Path | None) -> JsonPath | None:
        """The JSON path of a diagnostic path, within the record."""
        if path and path[0] == "json":
            return tuple(path[1:])
        model = model_path(path, self.board)
        return None if model is None else ("model", *model)


def _find(text: str, start: int, steps: JsonPath) -> int:
    """The offset of the value at ``steps`` from the value at ``start`` (as deep as found)."""
    position = _skip_blank(text, start)
    for step in steps:
        found = _member(text, position, step)
        if found is None:
            break
        position = found
    return position


def _skip_blank(text: str, position: int) -> int:
    return _WHITESPACE.match(text, position).end()  # type: ignore[union-attr]


def _member(text: str, position: int, step: str | int) -> int | None:
    """The offset of member ``step`` of the object or array at ``position``."""
    opener = text[position : position + 1]
    if (opener, isinstance(step, str)) not in (("{", True), ("[", False)):
        return None
    closer = "}" if opener == "{" else "]"
    position = _skip_blank(text, position + 1)
    index = 0
    try:
        while position < len(text) and text[position] != closer:
            if opener == "{":
                key, position = json.decoder.scanstring(text, position + 1)  # type: ignore[attr-defined]
                position = _skip_blank(text, _skip_blank(text, position) + 1)  # the colon
                if key == step:
                    return position
            elif index == step:
                return position
            position = _skip_blank(text, _DECODER.raw_decode(text, position)[1])
            if text[position : position + 1] == ",":
                position = _skip_blank(text, position + 1)
            index += 1
    except (ValueError, RecursionError):
        return None
    return None
