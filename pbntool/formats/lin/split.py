"""Cutting a LIN input into slices for ``-j`` (the splitter of LIN's spec).

A LIN file is decoded here (so encoding notes are found exactly as the whole-file read finds
them) and cut at the start of a line whose first pair is ``qx|``, ``md|`` or ``pn|`` (after a
``qx`` only before ``qx|``), once about ``slice_chars()`` characters were gathered, as long as
no segment header pair (``vg rs pw mp bn``) may have appeared; a slice carries its text as
the decoded chunks the whole-file read lexes (the first and last cut), and starts at the
right offset and line, so positions need no shifting.  Each slice reads its text from a new
table and ends its last table as the next slice's first pair would; whether that pair really
would have (the lexer had no pair open, the table was finished, no names pending, the rooms
state as the next slice assumes) is checked before the slice's result is written: a slice's
result waits for the next one (``Planned.hold``, ``LinChain``), and a cut that was not clean
makes this process read the input from the held slice to its end, dropping later slices.
Handviewer links, a file with a header in its first slices and a small file are one unit.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from pbntool.formats import Format
from pbntool.formats.lin.reader import SliceEnd, lin_text
from pbntool.formats.split import (
    SMALLEST_SLICE_SHARE,
    Planned,
    Work,
    WorkOutcome,
    constant,
    slice_chars,
)
from pbntool.records import Record
from pbntool.text.inputs import Input
from pbntool.text.source import DecodedText, EncodingEvent, encoding_record
from pbntool.text.spooled import SpooledInput, spool_input

__all__ = ["LinChain", "plan", "read_unit"]


def plan(source: Input, stream: BinaryIO, head: bytes, local: bool) -> Iterator[Planned]:
    """Slices cut before a line that starts a table (see ``LinChain``)."""
    return _plan_lin(source, stream, local)


def read_unit(work: Work, outcome: WorkOutcome) -> Iterator[Record]:
    """The records of a slice (``lin``) or of the rest of an input (``lin_rest``)."""
    return _read_lin(work, outcome)


def _read_lin(work: Work, outcome: WorkOutcome) -> Iterator[Record]:
    from pbntool.formats.lin.reader import SliceEnd, SliceStart, iter_lin_rest, iter_lin_slice

    end = outcome.lin = SliceEnd()
    start = work.lin or SliceStart()
    if work.kind == "lin":
        yield from iter_lin_slice(work.texts, work.name, work.offset, work.first_line, start, end)
        return
    seen_room = start.seen_room
    if work.path:
        with open(work.path, "rb") as stream:
            text = lin_text(stream)
            yield from iter_lin_rest(text, work.name, work.offset, work.first_line, seen_room, end)
    else:
        text = lin_text(io.BytesIO(work.data or b""))
        yield from iter_lin_rest(text, work.name, work.offset, work.first_line, seen_room, end)


@dataclass
class LinChain:
    """The slices of one LIN input, as the main process follows them.

    A slice's result is held until the next slice is back (``Planned.hold``); then the cut
    between them is known clean (``SliceEnd.clean``: the pair that starts the next slice
    ends the last table of this one, from the state a new slice starts from) and the held
    result is written.  If a cut is not clean, the input is read in this process from the
    start of the held slice to its end (``rest``), and every later slice of it is dropped.
    Encoding events that no table of a slice was reported after wait in ``carried`` for the
    next table that ends, as in the whole-file read."""

    name: str
    path: str | None
    data: bytes | None
    failed: bool = False
    carried: list[EncodingEvent] = field(default_factory=list)
    keep: SpooledInput | None = None
    """The copy on disk that ``path`` is, for an input with no path (removed with the chain)."""

    def rest(self, work: Work | None) -> Work:
        """From the start of ``work`` (a slice) to the end of the input, in one unit."""
        assert work is not None
        return Work(self.name, "lin_rest", Format.LIN, path=self.path, data=self.data,
                    offset=work.offset, first_line=work.first_line, lin=work.lin,
                    weight=work.weight)  # fmt: skip

    def placed(self, end: SliceEnd | None, last: bool) -> tuple[list[Record], list[Record]]:
        """The event records to write before and after a slice's own output."""

        leftover = list(end.leftover) if end is not None else []
        before: list[EncodingEvent] = []
        if end is not None and end.fed:
            before, self.carried = self.carried, leftover
        else:
            self.carried = self.carried + leftover
        after: list[EncodingEvent] = []
        if last:
            after, self.carried = self.carried, []
        return (
            [encoding_record(event, self.name) for event in before],
            [encoding_record(event, self.name) for event in after],
        )


_LIN_CUT = re.compile(r"^(qx|md|pn)\|", re.M)
"""A line whose first pair may end the table before it (lower case only: be conservative)."""


_LIN_HEADER = re.compile(r"(?<![a-z])(?:vg|rs|pw|mp|bn)\s*(?:\||\Z)", re.I)
"""A segment header pair may be here (or its pipe in the next chunk): cut no more."""


_LIN_HEADER_HINT = re.compile(r"(?:vg|rs|pw|mp|bn)\s*(?:\||\Z)")
"""What ``_LIN_HEADER`` needs in the lower-cased text (with the long s, U+017F, which it
takes for an ``s``, made ``s``): looked for first, many times faster than the case-blind
expression."""


_LIN_ROOM = re.compile(r"qx", re.I)


_LONG_S = "\u017f"
"""The one character other than ``s`` and ``S`` that a case-blind ``s`` matches (no other
letter of the header tags has one)."""


def _header_and_room(chunk: str, before: str) -> tuple[bool, int | None]:
    """Whether a ``_LIN_HEADER`` may be in a chunk, and where its first ``_LIN_ROOM`` is
    (negative: it began in ``before``, the end of the previous chunk, which is given when the
    chunk goes on a line: a long line comes in pieces, and a piece may cut a tag in two)."""
    text = before + chunk
    lowered = text.lower()
    if _LONG_S in lowered:
        lowered = lowered.replace(_LONG_S, "s")
    header = _LIN_HEADER_HINT.search(lowered) is not None and _LIN_HEADER.search(text) is not None
    room = None if "qx" not in lowered else _LIN_ROOM.search(text)
    return header, None if room is None else room.start() - len(before)


_CARRIED_TAIL = 3
"""How much of a chunk that ends inside a line is looked at again with the next one: a tag's
first letter and the character before it (``_LIN_HEADER``'s look-behind)."""


def _next_cut(
    chunk: str, start: int, stop: int, first: bool, room: bool, first_room: int | None
) -> re.Match[str] | None:
    """The first line from ``start`` (before ``stop``) that a slice may start with: not at
    the chunk's start when that is not a line's (``first``: the file's start, or a piece of a
    long line), after a qx only a qx, and its pair closed in the chunk (the lexer carries an
    open one)."""
    for match in _LIN_CUT.finditer(chunk, start, stop):
        at = match.start()
        if at == 0 and first:
            continue
        after_room = room or (first_room is not None and first_room < at)
        if match.group(1) != "qx" and after_room:
            continue  # after a qx only qx ends a table
        if chunk.find("|", at + 3) >= 0:
            return match
    return None


WHOLE_LIN_SLICES = 8
"""A LIN input not cut within this many slices' worth of text is read as one unit."""


LIN_SLICE_SHARE = SMALLEST_SLICE_SHARE
"""LIN slices are this many times smaller than ``slice_chars()``: their text is held in this
process until their result is back (a local file's other units are read by the workers
themselves), and a quarter keeps the units in flight within a few MiB."""


def _plan_lin(source: Input, stream: BinaryIO, local: bool) -> Iterator[Planned]:
    """Slices of a LIN file cut at line starts (see ``LinChain``); handviewer links, a file
    with a segment header before its first cut and a small file are one unit."""
    name = source.name
    limit = max(1, slice_chars() // LIN_SLICE_SHARE)
    path = str(source.path) if local and source.path is not None else None
    size_known = source.size
    data: bytes | None = None
    failure: OSError | None = None
    spooled: SpooledInput | None = None
    if path is None:
        # A large input with no path is read from a copy on disk (by the workers, and again
        # after an unclean cut), not from bytes held here: bounded memory whatever its size.
        kept, failure = spool_input(stream, to_disk=local)
        if isinstance(kept, SpooledInput):
            spooled, path, size_known = kept, kept.path, kept.size
            stream = open(path, "rb")  # noqa: SIM115 -- closed below, after the planning
        else:
            data, size_known = kept, len(kept)

    def whole() -> Planned:
        if spooled is not None:  # the unit holds the copy until it is done
            copy = spooled
            return Planned(name, lambda: Work(name, "path", Format.LIN, path=copy.path,
                                              weight=copy.size))  # fmt: skip
        if path is not None:
            weight = size_known or 0
            return Planned(name, lambda: Work(name, "path", Format.LIN, path=path, weight=weight))
        held = data or b""
        return Planned(name, lambda: Work(name, "bytes", Format.LIN, data=held, weight=len(held)))

    try:
        if size_known is not None and size_known <= limit:
            yield whole()
        else:
            text = lin_text(stream if data is None else io.BytesIO(data))
            chain = LinChain(name, path, data, keep=spooled)
            yield from _lin_slices(name, text, chain, limit, whole)
    finally:
        if spooled is not None:
            stream.close()
    if failure is not None:
        raise failure


def _lin_slices(
    name: str, text: DecodedText, chain: LinChain, limit: int, whole: Callable[[], Planned]
) -> Iterator[Planned]:
    from pbntool.formats.lin.reader import SliceStart, looks_like_links

    pieces: list[str] = []
    size = 0
    offset, first_line, seen_room = 0, 1, False
    position, line = 0, 1  # where the current chunk starts
    header = room = False
    cuts = events = 0

    def unit(next_tag: str | None, next_line: int | None) -> Planned:
        nonlocal events
        upto = len(text.events)
        if next_line is not None:
            upto = events
            while upto < len(text.events) and text.events[upto].line < next_line:
                upto += 1
        start = SliceStart(seen_room, next_tag, tuple(text.events[events:upto]))
        events = upto
        work = Work(name, "lin", Format.LIN, texts=tuple(pieces), offset=offset,
                    first_line=first_line, lin=start, weight=size)  # fmt: skip
        return Planned(name, lambda: work, chain=chain, hold=next_tag is not None)

    before = ""  # the end of the previous chunk when it ended inside a line
    for index, chunk in enumerate(text):
        if chain.failed:
            return  # the rest of the input is read in this process
        if index == 0 and looks_like_links(chunk):
            yield whole()
            return
        begin = 0
        if not header:
            header, first_room = _header_and_room(chunk, before)
            # No cut in the chunk of the header either: the header's record is placed at the
            # start of the chunk the whole-file read lexes it in.
            stop = 0 if header else len(chunk)
            counted, lines = 0, line  # lines: the line at offset ``counted`` of the chunk
            while True:
                # A slice holds at least ``limit`` characters: look for a cut from there on.
                cursor = begin + max(0, limit - size)
                match = _next_cut(chunk, cursor, stop, index == 0 or bool(before), room,
                                  first_room)  # fmt: skip
                if match is None:
                    break
                at, tag = match.start(), match.group(1)
                pieces.append(chunk[begin:at])
                size += at - begin
                lines += chunk.count("\n", counted, at)
                counted = at
                next_line = lines
                yield unit(tag, next_line)
                cuts += 1
                pieces, size, begin = [], 0, at
                offset, first_line, seen_room = position + at, next_line, tag == "qx"
            room = room or first_room is not None
            if header and not cuts:
                yield whole()
                return
            if header:
                # From the slice in progress to the end: one unit that reads the input again
                # (from its path, or the bytes already held) rather than text gathered here.
                start = SliceStart(seen_room)
                rest = Work(
                    name,
                    "lin_rest",
                    Format.LIN,
                    path=chain.path,
                    data=chain.data,
                    offset=offset,
                    first_line=first_line,
                    lin=start,
                    weight=size,
                )
                yield Planned(name, constant(rest), chain=chain)
                return
        pieces.append(chunk[begin:] if begin else chunk)
        size += len(chunk) - begin
        position += len(chunk)
        line += chunk.count("\n")
        before = "" if chunk.endswith("\n") else chunk[-_CARRIED_TAIL:]
        if not cuts and size > WHOLE_LIN_SLICES * limit and chain.path is not None:
            yield whole()  # nothing to cut at: the worker reads the file itself
            return
    if not cuts:
        yield whole()
        return
    yield unit(None, None)
