"""Cutting a JSON Lines input into runs of lines for ``-j`` (the splitter of JSON's spec);
a JSON array (or UTF-16 text) is not cut."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator
from typing import Any, BinaryIO

from pbntool.diagnostics import JSN009
from pbntool.formats import Format, read_input, reader_for
from pbntool.formats.split import (
    Planned,
    Work,
    WorkOutcome,
    done,
    failure_record,
    slice_limit,
)
from pbntool.records import Locator, Record
from pbntool.text.inputs import Input
from pbntool.text.source import max_record_chars

__all__ = ["plan", "read_unit"]


def plan(source: Input, stream: BinaryIO, head: bytes, local: bool) -> Iterator[Planned] | None:
    """Runs of lines (None for an input that is not JSON Lines: it is read whole)."""
    return _plan_lines(source.name, stream) if _json_lines(head) else None


def read_unit(work: Work, outcome: WorkOutcome) -> Iterator[Record]:
    """The records of a run of lines, placed at their lines in the file."""
    return _read_lines(work)


class _Shifted:
    """A locator of a slice, with line numbers moved to where the slice starts in the file."""

    def __init__(self, inner: Locator, lines: int) -> None:
        self._inner = inner
        self._lines = lines

    def offset(self, path: Any) -> int | None:
        return self._inner.offset(path)

    def position(self, offset: int) -> tuple[int, int]:
        line, column = self._inner.position(offset)
        return line + self._lines, column


def _shift(record: Record, lines: int) -> Record:
    if not lines:
        return record
    diagnostics = tuple(
        d if not d.line else dataclasses.replace(d, line=d.line + lines) for d in record.diagnostics
    )
    locator = None if record.locator is None else _Shifted(record.locator, lines)
    line = record.line + lines if record.line else record.line
    return Record(record.board, diagnostics, record.file, line, locator)


def _read_lines(work: Work) -> Iterator[Record]:
    data = work.data or b""
    source = Input(work.name, None, opener=lambda: io.BytesIO(data))
    for record in read_input(source, Format.JSON):
        yield _shift(record, work.first_line - 1)


def _json_lines(head: bytes) -> bool:
    """JSON Lines (one object per line) can be cut between lines; an array cannot."""
    if b"\x00" in head[:4]:
        return False  # UTF-16: lines cannot be cut in bytes
    return head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{" and _json_reader_present()


def _json_reader_present() -> bool:
    try:
        reader_for(Format.JSON)
    except (ImportError, AttributeError):
        return False
    return True


def _plan_lines(name: str, stream: BinaryIO) -> Iterator[Planned]:
    """Runs of lines, cut only between a line ending with ``}`` and one starting with ``{``
    (outside any JSON value whatever the reader accepts)."""
    limit = slice_limit(0)
    longest = max_record_chars()
    lines: list[bytes] = []
    size, first_line, planned = 0, 1, 0
    previous_closed = False
    for line_number, line in enumerate(_bounded_lines(stream, longest), start=1):
        if line is None:
            # A line too long to hold: the runs around it, and one finding for it (the
            # reader of a whole file gives the same JSN009).
            if lines:
                yield _lines_unit(name, b"".join(lines), first_line)
            detail = f"longer than {longest} characters (--max-record-size)"
            yield done(name, failure_record(name, JSN009.at(detail=detail), line_number))
            lines, size, first_line, previous_closed = [], 0, line_number + 1, True
            continue
        opens = line.lstrip()[:1] == b"{"
        if size >= limit and previous_closed and opens:
            yield _lines_unit(name, b"".join(lines), first_line)
            planned += size
            limit = slice_limit(planned)
            lines, size, first_line = [], 0, line_number
        lines.append(line)
        size += len(line)
        previous_closed = line.rstrip()[-1:] == b"}"
    if lines or first_line == 1:
        yield _lines_unit(name, b"".join(lines), first_line)


def _bounded_lines(stream: BinaryIO, longest: int) -> Iterator[bytes | None]:
    """The lines of ``stream`` with their line ends; None for a line longer than ``longest``
    bytes, which is read in pieces and dropped (never held whole)."""
    while True:
        line = stream.readline(longest + 1)
        if not line:
            return
        if len(line) <= longest or line.endswith(b"\n"):
            yield line
            continue
        while line and not line.endswith(b"\n"):
            line = stream.readline(1 << 20)
        yield None


def _lines_unit(name: str, data: bytes, first_line: int) -> Planned:
    work = Work(name, "lines", Format.JSON, data=data, first_line=first_line, weight=len(data))
    return Planned(name, lambda: work)
