"""Work units: an input, or a slice of a large input cut at game boundaries, as picklable data.

The main process *plans* (``plan_input``): it reads each input once, cheaply, and cuts it into
``Work`` — a PBN input into runs of games (the reader's own splitter finds them, so every line
number stays right), a JSON Lines input into runs of lines, any other input whole.  A worker
*runs* a unit (``read_work``) into records, which a task renders; records never travel.

PBN games are not independent: inheritance (``#``, ``##``), the version and export escape
lines and pending commentary carry from one game to the next (``FileContext``).  A slice is
started from the best guess of that state known when it is sent (``Carry``) and records what
it read of it; when its turn comes to be written, the guess is checked against the true state
that the slices before it left.  A wrong guess (rare: the first slices of a file, or a value
inherited from a game in another slice that changed) reruns the slice from the true state,
so the output is exactly that of reading the file from start to end, whatever ``-j`` is.  An
input whose guesses keep failing is read slice after slice (each from the true state).

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

A format gets split when it provides a splitter here; one without (XML for now) is read as
one unit.  What a splitter must guarantee: cuts only where the format's reader has nothing in
flight, positions (line numbers) of every record right in each slice, and — if the reader
carries state from record to record — a way to start from it and check it, as for PBN.
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from pbntool.diagnostics import INT001, SRC007, Diagnostic
from pbntool.formats import (
    Format,
    detect_format,
    read_failure,
    read_input,
    reader_for,
    refused_content,
)
from pbntool.formats.pbn import GamePiece, Piece, iter_pieces, read_pieces
from pbntool.formats.pbn.decode import FileContext
from pbntool.formats.pbn.reader import GameBlock
from pbntool.model import Comment, CommentKind
from pbntool.records import Locator, Record
from pbntool.text.inputs import Input, replay
from pbntool.text.source import DecodedText, EncodingEvent

if TYPE_CHECKING:
    from pbntool.formats.lin.reader import SliceEnd, SliceStart

__all__ = [
    "SLICE_CHARS",
    "Carry",
    "Planned",
    "Work",
    "plan_input",
    "read_work",
]

SLICE_CHARS = 1 << 20
"""About this much text per slice: enough work to hide the cost of sending it (~0.1 s).
``PBNTOOL_SLICE_CHARS`` overrides it (a tuning knob; the tests use tiny slices)."""
RERUNS_BEFORE_CHAINING = 2
"""After this many wrong guesses in one input, its slices wait for the true state."""
SNIFF_BYTES = 1 << 16


@dataclass(frozen=True, slots=True)
class Carry:
    """What one PBN game passes to the next (the part of ``FileContext`` that changes)."""

    version: tuple[int, int] | None = None
    export: bool = False
    last_values: dict[str, str] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)
    pending: tuple[Comment, ...] = ()
    lf_reported: bool = False

    def agrees(self, true: Carry, reads: dict[str, str | None]) -> bool:
        """Whether a slice started from this guess read what it would have read from ``true``."""
        return (
            self.version == true.version
            and self.export == true.export
            and self.lf_reported == true.lf_reported
            and self.pending == true.pending
            and self.defaults == true.defaults
            and all(true.last_values.get(name) == value for name, value in reads.items())
        )

    def then(self, end: Carry) -> Carry:
        """The state after a slice that started from this one and left ``end`` (whose
        ``last_values`` holds only the values the slice wrote)."""
        return dataclasses.replace(end, last_values={**self.last_values, **end.last_values})


class _Recording(dict[str, str]):
    """``last_values`` that notes which names a slice read before writing them itself."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__(values)
        self.written: set[str] = set()
        self.reads: dict[str, str | None] = {}

    def _note(self, key: str) -> None:
        if key not in self.written and key not in self.reads:
            self.reads[key] = dict.get(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        self._note(key)
        return dict.get(self, key, default)

    def __getitem__(self, key: str) -> str:
        self._note(key)
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self._note(key)
        return dict.__contains__(self, key)

    def __setitem__(self, key: str, value: str) -> None:
        self.written.add(key)
        dict.__setitem__(self, key, value)

    def update(self, *args: Any, **kwargs: Any) -> None:
        values = dict(*args, **kwargs)
        self.written.update(values)
        dict.update(self, values)

    def delta(self) -> dict[str, str]:
        return {name: dict.__getitem__(self, name) for name in self.written}


PieceData = tuple[Any, ...]
"""A piece as plain tuples (cheap to pickle): ``("g", text, first_line, braces, lf_only)`` or
``("e", encoding, line, from_bom)``."""


def _pack(piece: Piece) -> PieceData:
    if isinstance(piece, GamePiece):
        block = piece.block
        return ("g", block.text, block.first_line, block.unclosed_braces, piece.lf_only)
    return ("e", piece.encoding, piece.line, piece.from_bom)


def _unpack(data: PieceData) -> Piece:
    if data[0] == "g":
        return GamePiece(GameBlock(data[1], data[2], data[3]), data[4])
    return EncodingEvent(data[1], data[2], data[3])


@dataclass(frozen=True, slots=True)
class Work:
    """One unit of work as data (sent to worker processes or Dask workers).

    ``kind``: ``path`` (a local file the worker reads itself), ``bytes`` (a whole input),
    ``pbn`` (consecutive PBN pieces and the ``Carry`` they start from), ``lines`` (consecutive
    JSON lines from ``first_line``), ``lin`` (a slice of decoded LIN text at ``offset`` and
    ``first_line``, with its ``SliceStart``), ``lin_rest`` (a LIN input from ``offset`` to its
    end, read again from ``path`` or ``data``), ``record`` (one record made by the planner).
    """

    name: str
    kind: str
    form: Format | None = None
    path: str | None = None
    data: bytes | None = None
    pieces: tuple[PieceData, ...] = ()
    carry: Carry | None = None
    first_line: int = 1
    record: Record | None = None
    weight: int = 0
    """Bytes of input (for scheduling and progress)."""
    texts: tuple[str, ...] = ()
    """A LIN slice: its decoded text, cut where the whole-file read cuts it into chunks."""
    offset: int = 0
    """Where a LIN slice starts in the decoded text."""
    lin: SliceStart | None = None


@dataclass(slots=True)
class WorkOutcome:
    """What reading a unit left besides its records: a PBN slice's end state and reads, a
    LIN slice's end."""

    carry: Carry | None = None
    reads: dict[str, str | None] = field(default_factory=dict)
    lin: SliceEnd | None = None


def read_work(work: Work, outcome: WorkOutcome) -> Iterator[Record]:
    """The records of a unit, in order (run in a worker); fills ``outcome`` when done."""
    if work.kind == "record":
        assert work.record is not None
        yield work.record
    elif work.kind == "pbn":
        yield from _read_pbn_slice(work, outcome)
    elif work.kind == "lines":
        yield from _read_lines(work)
    elif work.kind in ("lin", "lin_rest"):
        yield from _read_lin(work, outcome)
    elif work.kind == "path":
        assert work.path is not None
        yield from read_input(Input(work.name, Path(work.path)), work.form)
    else:
        data = work.data or b""
        source = Input(work.name, None, opener=lambda: io.BytesIO(data))
        yield from read_input(source, work.form)


def _read_pbn_slice(work: Work, outcome: WorkOutcome) -> Iterator[Record]:
    carry = work.carry or Carry()
    values = _Recording(carry.last_values)
    context = FileContext(
        work.name,
        version=carry.version,
        export=carry.export,
        last_values=values,
        defaults=dict(carry.defaults),
        pending_commentary=list(carry.pending),
        lf_reported=carry.lf_reported,
    )
    yield from read_pieces((_unpack(piece) for piece in work.pieces), context)
    outcome.carry = Carry(
        context.version,
        context.export,
        values.delta(),
        dict(context.defaults),
        tuple(context.pending_commentary),
        context.lf_reported,
    )
    outcome.reads = values.reads


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
            text = DecodedText(stream)
            yield from iter_lin_rest(text, work.name, work.offset, work.first_line, seen_room, end)
    else:
        text = DecodedText(io.BytesIO(work.data or b""))
        yield from iter_lin_rest(text, work.name, work.offset, work.first_line, seen_room, end)


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


# --- planning (main process) --------------------------------------------------------------------


def failure_record(name: str, diagnostic: Diagnostic, line: int | None = None) -> Record:
    """A record of one finding about a whole input, as ``read_input`` makes it."""
    column = None if line is None else 1
    placed = Diagnostic(
        diagnostic.code, diagnostic.severity, diagnostic.message, name, line, column
    )
    return Record(None, (placed,), name, line or 0)


@dataclass
class _Tracker:
    """The true PBN state after the last slice of an input that was written (main process)."""

    true: Carry = field(default_factory=Carry)
    guess: Carry | None = None
    """A better guess than ``true`` for slices sent before the first one is back."""
    reruns: int = 0
    settled: int = 0
    planned: int = 0


@dataclass
class Planned:
    """A unit as the main process holds it: how to make its ``Work`` when it is sent, and how
    to check its result when its turn comes."""

    name: str
    make: Callable[[], Work]
    barrier: bool = False
    """Send only when every unit before it is written (it needs their true end state)."""
    tracker: _Tracker | None = None
    work: Work | None = None
    source: Input | None = None
    """The input this unit belongs to (set by the batch)."""
    chain: LinChain | None = None
    """The slices of one LIN input (see ``LinChain``)."""
    hold: bool = False
    """Write the result only once the next unit of ``chain`` is back (the cut is checked)."""

    def prepare(self) -> Work:
        self.work = self.make()
        return self.work

    def check(self, outcome: WorkOutcome) -> Work | None:
        """None when the result stands; else the work to run again from the true state."""
        tracker, work = self.tracker, self.work
        if tracker is None or work is None or work.carry is None or outcome.carry is None:
            return None
        if work.carry.agrees(tracker.true, outcome.reads):
            tracker.true = tracker.true.then(outcome.carry)
            tracker.settled += 1
            return None
        tracker.reruns += 1
        self.work = dataclasses.replace(work, carry=tracker.true)
        return self.work

    def rerun_done(self, outcome: WorkOutcome) -> None:
        assert self.tracker is not None and outcome.carry is not None
        self.tracker.true = self.tracker.true.then(outcome.carry)
        self.tracker.settled += 1


def _done(name: str, record: Record) -> Planned:
    work = Work(name, "record", record=record)
    return Planned(name, lambda: work)


def plan_input(source: Input, form: Format | None, local: bool) -> Iterator[Planned]:
    """The units of one input, in order; reads the input (and must finish before the next
    input is asked for).  ``local``: workers can open local files themselves."""
    name = source.name
    if source.problem is not None:
        yield _done(name, Record(None, (source.problem,), name, 0))
        return
    try:
        stream = source.open()
    except OSError as error:
        yield _done(name, failure_record(name, read_failure(error)))
        return
    try:
        yield from _plan_stream(source, stream, form, local)
        stopped = source.failure()
        if stopped is not None:
            yield _done(name, Record(None, (stopped,), name, 0))
    finally:
        if source.path is not None or source.opener is not None:
            stream.close()


def _plan_stream(
    source: Input, stream: BinaryIO, form: Format | None, local: bool
) -> Iterator[Planned]:
    name = source.name
    try:
        head = stream.read(SNIFF_BYTES)
    except OSError as error:
        yield _done(name, failure_record(name, read_failure(error)))
        return
    refused = None if form is not None else refused_content(head, name)
    form = form or detect_format(head, name)
    again = replay(head, stream)
    if form is None or refused is not None:
        yield _done(name, failure_record(name, refused or SRC007.at(), line=1))
    elif form is Format.PBN:
        yield from _guarded(name, _plan_pbn(name, again, head))
    elif form is Format.JSON and _json_lines(head):
        yield from _guarded(name, _plan_lines(name, again))
    elif form is Format.LIN:
        yield from _guarded(name, _plan_lin(source, again, local))
    elif local and source.path is not None:
        weight = source.size or 0
        yield Planned(name, lambda: Work(name, "path", form, path=str(source.path), weight=weight))
    else:
        yield from _guarded(name, _plan_bytes(name, again, form))


def _guarded(name: str, planned: Iterator[Planned]) -> Iterator[Planned]:
    """Units until the input fails to read; then one unit with the failure."""
    try:
        yield from planned
    except OSError as error:
        yield _done(name, failure_record(name, read_failure(error)))
    except Exception as error:  # a bug of ours must cost one input, not the batch
        detail = traceback.format_exception_only(error)[-1].strip()
        diagnostic = INT001.at(skipped="the rest of this input", error=detail)
        yield _done(name, failure_record(name, diagnostic))


def _plan_bytes(name: str, stream: BinaryIO, form: Format) -> Iterator[Planned]:
    chunks: list[bytes] = []
    failure: OSError | None = None
    try:
        while chunk := stream.read(1 << 20):
            chunks.append(chunk)
    except OSError as error:
        failure = error
    data = b"".join(chunks)
    if data or failure is None:
        yield Planned(name, lambda: Work(name, "bytes", form, data=data, weight=len(data)))
    if failure is not None:
        raise failure


def _head_guess(head: bytes) -> Carry | None:
    """Version and export state from the escape lines that open a file (a guess only)."""
    text = head[:4096].decode("utf-8", errors="replace").lstrip("\ufeff")
    escapes = []
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("["):
            break
        if stripped.startswith("%"):
            escapes.append(Comment(stripped[1:], CommentKind.ESCAPE))
    if not escapes:
        return None
    context = FileContext("")
    context.note_escape_lines(escapes)
    return Carry(context.version, context.export)


def slice_chars() -> int:
    """The slice size in force (see ``SLICE_CHARS``)."""
    value = os.environ.get("PBNTOOL_SLICE_CHARS", "")
    return int(value) if value.isdigit() and int(value) > 0 else SLICE_CHARS


def _plan_pbn(name: str, stream: BinaryIO, head: bytes) -> Iterator[Planned]:
    limit = slice_chars()
    tracker = _Tracker(guess=_head_guess(head))
    batch: list[PieceData] = []
    size = 0
    lf_seen = False
    pieces = iter_pieces(stream, name)
    while True:
        try:
            piece = next(pieces, None)
        except Exception:
            if batch:  # what was read before the failure is still read
                yield _pbn_unit(name, tuple(batch), size, tracker, lf_seen)
            raise
        if piece is None:
            break
        batch.append(_pack(piece))
        if isinstance(piece, GamePiece):
            size += len(piece.block.text)
            lf_seen = lf_seen or piece.lf_only
        if size >= limit:
            yield _pbn_unit(name, tuple(batch), size, tracker, lf_seen)
            batch, size = [], 0
    if batch or not tracker.planned:
        yield _pbn_unit(name, tuple(batch), size, tracker, lf_seen)


def _pbn_unit(
    name: str, pieces: tuple[PieceData, ...], size: int, tracker: _Tracker, lf_seen: bool
) -> Planned:
    first = tracker.planned == 0
    tracker.planned += 1

    def make() -> Work:
        if first:
            carry = Carry()
        elif tracker.settled or tracker.guess is None:
            carry = tracker.true
        else:
            guess = tracker.guess
            carry = dataclasses.replace(guess, lf_reported=guess.export and lf_seen)
        return Work(name, "pbn", Format.PBN, pieces=pieces, carry=carry, weight=size)

    chained = tracker.reruns >= RERUNS_BEFORE_CHAINING
    return Planned(name, make, barrier=chained and not first, tracker=tracker)


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
    limit = slice_chars()
    lines: list[bytes] = []
    size, first_line = 0, 1
    previous_closed = False
    for line_number, line in enumerate(stream, start=1):
        opens = line.lstrip()[:1] == b"{"
        if size >= limit and previous_closed and opens:
            yield _lines_unit(name, b"".join(lines), first_line)
            lines, size, first_line = [], 0, line_number
        lines.append(line)
        size += len(line)
        previous_closed = line.rstrip()[-1:] == b"}"
    if lines or first_line == 1:
        yield _lines_unit(name, b"".join(lines), first_line)


def _lines_unit(name: str, data: bytes, first_line: int) -> Planned:
    work = Work(name, "lines", Format.JSON, data=data, first_line=first_line, weight=len(data))
    return Planned(name, lambda: work)


# --- LIN: slices cut before a line that starts a table ------------------------------------------


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

    def rest(self, work: Work | None) -> Work:
        """From the start of ``work`` (a slice) to the end of the input, in one unit."""
        assert work is not None
        return Work(self.name, "lin_rest", Format.LIN, path=self.path, data=self.data,
                    offset=work.offset, first_line=work.first_line, lin=work.lin,
                    weight=work.weight)  # fmt: skip

    def placed(self, end: SliceEnd | None, last: bool) -> tuple[list[Record], list[Record]]:
        """The event records to write before and after a slice's own output."""
        from pbntool.formats.lin.reader import encoding_record

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
_LIN_ROOM = re.compile(r"qx", re.I)
WHOLE_LIN_SLICES = 8
"""A LIN input not cut within this many slices' worth of text is read as one unit."""
LIN_SLICE_SHARE = 4
"""LIN slices are this many times smaller than ``slice_chars()``: their text is held in this
process until their result is back (a local file's other units are read by the workers
themselves), and a quarter keeps the units in flight within a few MiB."""


def _plan_lin(source: Input, stream: BinaryIO, local: bool) -> Iterator[Planned]:
    """Slices of a LIN file cut at line starts (see ``LinChain``); handviewer links, a file
    with a segment header before its first cut and a small file are one unit."""
    name = source.name
    limit = max(1, slice_chars() // LIN_SLICE_SHARE)
    path = str(source.path) if local and source.path is not None else None
    data: bytes | None = None
    failure: OSError | None = None
    if path is None:
        chunks: list[bytes] = []
        try:
            while chunk := stream.read(1 << 20):
                chunks.append(chunk)
        except OSError as error:
            failure = error
        data = b"".join(chunks)

    def whole() -> Planned:
        if path is not None:
            weight = source.size or 0
            return Planned(name, lambda: Work(name, "path", Format.LIN, path=path, weight=weight))
        held = data or b""
        return Planned(name, lambda: Work(name, "bytes", Format.LIN, data=held, weight=len(held)))

    size_known = len(data) if data is not None else source.size
    if (data is not None and not data) or (size_known is not None and size_known <= limit):
        yield whole()
    else:
        yield from _lin_slices(name, DecodedText(stream if data is None else io.BytesIO(data)),
                               LinChain(name, path, data), limit, whole)  # fmt: skip
    if failure is not None:
        raise failure


def _constant(work: Work) -> Callable[[], Work]:
    return lambda: work


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

    for index, chunk in enumerate(text):
        if chain.failed:
            return  # the rest of the input is read in this process
        if index == 0 and looks_like_links(chunk):
            yield whole()
            return
        begin = 0
        if not header:
            found = _LIN_HEADER.search(chunk)
            header = found is not None
            # No cut in the chunk of the header either: the header's record is placed at the
            # start of the chunk the whole-file read lexes it in.
            stop = 0 if found is not None else len(chunk)
            first_room = _LIN_ROOM.search(chunk)
            counted, lines = 0, line  # lines: the line at offset ``counted`` of the chunk
            for match in _LIN_CUT.finditer(chunk, 0, stop):
                at, tag = match.start(), match.group(1)
                if size + at - begin < limit or (at == 0 and index == 0):
                    continue
                if tag != "qx" and (room or (first_room is not None and first_room.start() < at)):
                    continue  # after a qx only qx ends a table
                if chunk.find("|", at + 3) < 0:
                    continue  # the pair must close in this chunk (the lexer carries an open one)
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
                yield Planned(name, _constant(rest), chain=chain)
                return
        pieces.append(chunk[begin:] if begin else chunk)
        size += len(chunk) - begin
        position += len(chunk)
        line += chunk.count("\n")
        if not cuts and size > WHOLE_LIN_SLICES * limit and chain.path is not None:
            yield whole()  # nothing to cut at: the worker reads the file itself
            return
    if not cuts:
        yield whole()
        return
    yield unit(None, None)
