"""LIN pairs to tables: the board-splitting rule, segment headers, and records.

LIN has no board terminator.  The rule (``lin-format.md`` §3), which handles myhands lines,
vugraph files, tourney downloads, the BBO-client order and generated deals alike:

- a table is *started* once it has an ``md``, ``mb``, ``pc`` or ``mc``;
- ``qx`` opens a new table unless the current one is not started (then it names it);
- before the first ``qx``: ``pn`` opens a new table if the current one is started, and
  ``md`` opens one if the current table already has an ``md``;
- once a ``qx`` has been seen only ``qx`` opens tables; a ``pn`` met after the current
  table started waits for the next ``qx``;
- in a file with a ``vg`` header, a ``pn`` before the first ``qx`` is the header's name
  list; ``vg`` starts a new segment, and ``rs``, ``pw``, ``mp``, ``bn`` belong to it.

Tables are decoded one at a time as soon as they end, so memory is bounded by one table.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from pbntool.diagnostics import (
    INT001,
    LIN005,
    LIN006,
    LIN009,
    LIN112,
    LIN114,
    LIN116,
    SRC009,
    Diagnostic,
)
from pbntool.formats.lin.decode import (
    LinSourceMap,
    Segment,
    TableInput,
    decode_line,
    decode_table,
    escape_text,
    one_line,
)
from pbntool.formats.lin.lexer import (
    BoardLine,
    DocumentEnd,
    Item,
    LinkStart,
    Pair,
    Piece,
    Stray,
    iter_items,
    iter_link_items,
    line_pairs,
)
from pbntool.formats.lin.values import read_table_result
from pbntool.model import Board, Comment, CommentKind
from pbntool.records import Record, place
from pbntool.text.source import (
    LINE_PIECE_BYTES,
    DecodedText,
    EncodingEvent,
    encoding_record,
    max_game_chars,
)

__all__ = [
    "CUT_TAGS",
    "SliceEnd",
    "SliceStart",
    "encoding_record",
    "iter_lin_records",
    "iter_lin_rest",
    "iter_lin_slice",
    "lin_text",
    "looks_like_links",
]

_STARTS = frozenset({"md", "mb", "pc", "mc"})
_HEADER = frozenset({"vg", "rs", "pw", "mp", "bn"})
_PLAIN = frozenset({"pc", "mb", "pg", "an", "nt"})
"""Commands that never open a table, the bulk of every file."""


def looks_like_links(text: str) -> bool:
    """True when the text is handviewer links rather than LIN (``…?lin=`` or ``linurl=``)."""
    head = text.lstrip()[:4096].lower()
    return head.startswith(("http://", "https://", "www.")) or (
        ("lin=" in head or "linurl=" in head) and "|" not in head.split("lin=", 1)[0]
    )


def lin_text(stream: BinaryIO) -> DecodedText:
    """A LIN input's decoded text, as every reader of it (the whole-file read, the planner of
    ``-j`` and its slices) must see it: a line over ``LINE_PIECE_BYTES`` comes in pieces, so
    that a file of one line of many megabytes is read in bounded memory (the lexer carries
    what a piece's end may have cut; ``iter_items``)."""
    return DecodedText(stream, piece_bytes=LINE_PIECE_BYTES)


def iter_lin_records(text: DecodedText, name: str, *, fast: bool = True) -> Iterator[Record]:
    """The records of decoded LIN text (a LIN file, or a file of handviewer links).

    ``fast`` False reads every board pair by pair (the fast path's tests compare the two)."""
    chunks = iter(text)
    first = next(chunks, None)
    if first is None:
        yield from _encoding_records(text, name)
        return
    links = looks_like_links(first)
    items: Iterable[Item | LinkStart] = (
        _link_items(first, chunks) if links else iter_items(_prepend(first, chunks), runs=True)
    )
    assembler = _Assembler(name, fast=fast)
    reported = 0
    for item in items:
        for record in assembler.feed(item):
            # Encoding notes are reported before the first table that follows them.
            while reported < len(text.events) and text.events[reported].line <= record.line:
                yield encoding_record(text.events[reported], name)
                reported += 1
            yield record
    yield from assembler.finish()
    for event in text.events[reported:]:
        yield encoding_record(event, name)


# --- slices of a file (``pbntool.run.units``) ---------------------------------------------------

CUT_TAGS = ("qx", "md", "pn")
"""The pairs a slice may start with (at the start of a line): each closes a finished table."""


@dataclass(frozen=True, slots=True)
class SliceStart:
    """What a slice of LIN text starts from (the planner's guess, checked by ``SliceEnd``)."""

    seen_room: bool = False
    next_tag: str | None = None
    """The pair the next slice starts with; None when this slice ends the input."""
    events: tuple[EncodingEvent, ...] = ()
    """The encoding events on this slice's lines."""


@dataclass(slots=True)
class SliceEnd:
    """What reading a slice left: whether the next slice could start afresh (``clean``),
    whether a table was ended by the text (``fed``: the one-file read reports the encoding
    events before such a table), and the events not reported before any table."""

    clean: bool = True
    fed: bool = False
    leftover: tuple[EncodingEvent, ...] = ()


def iter_lin_slice(
    texts: Iterable[str], name: str, offset: int, line: int, start: SliceStart, end: SliceEnd
) -> Iterator[Record]:
    """The records of a slice of decoded LIN text (no handviewer links, no segment header so
    far) that starts at a line start, at ``offset`` and ``line`` of the file; ``texts`` are
    the file's decoded chunks as the whole-file read sees them (the first and last may be
    cut).  If the slice is not the last, its last table is ended as the next slice's first
    pair would end it, and ``end.clean`` says whether that pair would have (else the results
    of this slice and the next must not stand).  Encoding events not reported before a table
    of this slice are left in ``end.leftover`` for the caller to place."""
    events = list(start.events)
    yield from _read_slice(texts, name, offset, line, start, events, 0, end)


def iter_lin_rest(text: DecodedText, name: str, offset: int, line: int, seen_room: bool,
                  end: SliceEnd) -> Iterator[Record]:  # fmt: skip
    """The records of a LIN file from ``offset`` (the start of a slice) to its end, read as
    the whole-file read reads them (its chunks, its events) from the state ``seen_room``."""
    chunks = iter(text)
    position = 0
    first: str | None = None
    for chunk in chunks:
        if position + len(chunk) > offset:
            first = chunk[offset - position :]
            break
        position += len(chunk)
    texts: Iterator[str] = _prepend(first, chunks) if first is not None else iter(())
    reported = sum(1 for event in text.events if event.line < line)
    start = SliceStart(seen_room)
    yield from _read_slice(texts, name, offset, line, start, text.events, reported, end)


def _read_slice(
    texts: Iterable[str],
    name: str,
    offset: int,
    line: int,
    start: SliceStart,
    events: Sequence[EncodingEvent],
    reported: int,
    end: SliceEnd,
) -> Iterator[Record]:
    ending: list[str] = []
    assembler = _Assembler(name, seen_room=start.seen_room)
    for item in iter_items(texts, offset, line, ending, runs=True):
        for record in assembler.feed(item):
            end.fed = True
            while reported < len(events) and events[reported].line <= record.line:
                yield encoding_record(events[reported], name)
                reported += 1
            yield record
    last = start.next_tag is None
    if not last:
        lexed_clean = not ending or ending[-1] not in ("OPEN_PAIR", "JUNK")
        end.clean = lexed_clean and assembler.ends_before(start.next_tag or "")
    for record in assembler.finish():
        if not last:  # the next slice's first pair ends this table in the whole-file read
            end.fed = True
            while reported < len(events) and events[reported].line <= record.line:
                yield encoding_record(events[reported], name)
                reported += 1
        yield record
    end.leftover = tuple(events[reported:])


def _prepend(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest


def _link_items(first: str, rest: Iterator[str]) -> Iterator[Item | LinkStart]:
    line = 1
    for chunk in _whole_lines(_prepend(first, rest)):
        yield from iter_link_items(chunk, line)
        line += chunk.count("\n")


def _whole_lines(chunks: Iterable[str]) -> Iterator[str]:
    """The chunks with the pieces of a long line joined again: a link is read whole."""
    pieces: list[str] = []
    for chunk in chunks:
        if chunk.endswith("\n"):
            yield "".join(pieces) + chunk if pieces else chunk
            pieces = []
        else:
            pieces.append(chunk)
    if pieces:
        yield "".join(pieces)


def _encoding_records(text: DecodedText, name: str) -> Iterator[Record]:
    for event in text.events:
        yield encoding_record(event, name)


@dataclass
class _Current:
    """The table being gathered."""

    items: list[Pair | Stray] = field(default_factory=list)
    started: bool = False
    has_deal: bool = False
    names: Pair | None = None
    size: int = 0
    """Characters of the items so far."""
    oversized: Pair | Stray | None = None
    """The first item of a table over the size limit: its items are dropped as they come."""

    @property
    def empty(self) -> bool:
        """Nothing gathered yet (a table starting now starts from scratch)."""
        return not self.items and self.names is None and self.oversized is None


@dataclass
class _Assembler:
    """Applies the board-splitting rule to the item stream and decodes finished tables."""

    name: str
    segment: Segment | None = None
    seen_room: bool = False
    current: _Current = field(default_factory=_Current)
    pending_names: Pair | None = None
    header_findings: list[Diagnostic] = field(default_factory=list)
    header_pieces: list[Piece] = field(default_factory=list)
    header_start: int = 0
    """Where the first pair with a header finding is: its record is placed there."""
    limit: int = field(default_factory=max_game_chars)
    fast: bool = True
    """Read a board written on one line in the usual order in one step (``decode_line``)."""
    deferred: _FastBoard | None = None
    """A board read in one step, held until the next item shows its table is over (it is
    then recorded as it is) or that it goes on (it is then read again pair by pair)."""

    def _add(self, item: Pair | Stray) -> None:
        """Keep an item of the current table, unless the table outgrew the size limit."""
        current = self.current
        if current.oversized is not None:
            return
        if isinstance(item, Pair):
            current.size += len(item.value) + len(item.tag) + 2
        else:
            current.size += len(item.text)
        if current.size > self.limit:
            current.oversized = current.items[0] if current.items else item
            current.items.clear()
            return
        current.items.append(item)

    def feed(self, item: Item | LinkStart) -> Iterator[Record]:
        if isinstance(item, BoardLine):
            yield from self._line(item)
            return
        if self.deferred is not None:
            yield from self._settle(_ends_a_table(item))
        if type(item) is Pair and item.tag in _PLAIN:
            # The bulk of every file (cards, calls, page breaks): no board boundary here.
            if item.tag != "pg" and item.tag != "an" and item.tag != "nt":
                self.current.started = True
            self._add(item)
            return
        if isinstance(item, LinkStart):
            yield from self._link(item)
            return
        if isinstance(item, DocumentEnd):
            yield from self._close()
            self.seen_room = False
            self.segment = None
            return
        if isinstance(item, Stray):
            self._add(item)
            return
        tag = item.tag
        if tag in _HEADER:
            yield from self._header(item)
        elif tag == "qx":
            if self.current.started:
                yield from self._close()
            self.seen_room = True
            self._take_pending_names()
            self._add(item)
        elif tag == "pn":
            yield from self._names(item)
        else:
            if tag == "md" and self.current.has_deal and not self.seen_room:
                yield from self._close()
            if tag in _STARTS:
                self.current.started = True
                if tag == "md":
                    self.current.has_deal = True
            self._add(item)

    def ends_before(self, tag: str) -> bool:
        """Whether a pair ``tag`` fed now would end the current table (or find none) and
        leave the state a new slice starting with it starts from: no segment, no pending
        names, and ``seen_room`` as ``tag`` implies (True for ``qx``, else False)."""
        if self.deferred is not None:
            return tag in _CLOSERS  # a board read in one step: no segment, no room so far
        if self.segment is not None or self.header_findings or self.pending_names is not None:
            return False
        current = self.current
        empty = not current.items and current.names is None and not current.started
        if tag == "qx":
            return current.started or empty
        if self.seen_room:
            return False
        if tag == "md":
            return current.has_deal or empty
        if tag == "pn":
            return current.started or empty
        return False

    def finish(self) -> Iterator[Record]:
        yield from self._settle(True)
        yield from self._close()
        if self.header_findings:
            yield from self._header_record()

    # --- the fast path: a board on one line -----------------------------------------------

    def _line(self, line: BoardLine) -> Iterator[Record]:
        board = self._fast_board(line)
        if self.deferred is not None:
            # A board read in one step ends where a pn, md or qx comes (no room, no header).
            pairs = None if board is not None else list(line_pairs(line))
            ends = board is not None or bool(pairs and pairs[0].tag in _CLOSERS)
            yield from self._settle(ends)
            if pairs is not None:
                for pair in pairs:
                    yield from self.feed(pair)
                return
        if board is not None and self._fresh():
            # The line's pn ends the table in progress, as it would pair by pair.
            if self.current.started:
                yield from self._close()
            self.deferred = _FastBoard(line, board)
            return
        for pair in line_pairs(line):
            yield from self.feed(pair)

    def _fast_board(self, line: BoardLine) -> Board | None:
        """The board of a line that ``decode_line`` reads in one step, if this is the place
        for one (no segment header, no room so far)."""
        if not self.fast or self.seen_room or self.segment is not None:
            return None
        start, end = line.found.span()
        if end - start > self.limit:
            return None
        return decode_line(line.found)

    def _fresh(self) -> bool:
        """Whether a table that starts with a ``pn`` now starts from scratch: no segment, no
        room, nothing pending, and the table in progress (if any) ends here."""
        if self.seen_room or self.segment is not None or self.pending_names is not None:
            return False
        return not self.header_findings and (self.current.started or self.current.empty)

    def _settle(self, ends: bool) -> Iterator[Record]:
        """The held board: recorded if its table ``ends`` here, else read pair by pair."""
        held = self.deferred
        if held is None:
            return
        self.deferred = None
        if ends:
            yield _fast_record(held, self.name)
            return
        for pair in line_pairs(held.line):
            yield from self.feed(pair)

    # --- the rule, piece by piece ---------------------------------------------------------

    def _names(self, pair: Pair) -> Iterator[Record]:
        if not self.seen_room:
            if self.segment is not None and not self.current.started:
                self._header_names(pair)
                return
            if self.current.started:
                yield from self._close()
            self.current.names = pair
            return
        if self.current.started:
            self.pending_names = pair  # for the table the next qx opens
        else:
            self.current.names = pair

    def _take_pending_names(self) -> None:
        if self.pending_names is not None:
            self.current.names = self.pending_names
            self.pending_names = None

    def _header(self, pair: Pair) -> Iterator[Record]:
        if pair.tag == "vg":
            yield from self._close()
            self.segment = Segment()
            self.seen_room = False
            fields = one_line(pair.value).split(",")
            if len(fields) != 9:
                self._header_finding(LIN114.at(("offset", pair.value_offset), count=len(fields)),
                                     pair)  # fmt: skip
            self.segment.vg = fields
            first = _number(fields[3]) if len(fields) > 3 else None
            if first is not None:
                self.segment.first_board = first
        elif self.segment is None:
            self.segment = Segment()
        segment = self.segment
        segment.header.append(
            Comment(escape_text(pair.tag, one_line(pair.value)), CommentKind.ESCAPE)
        )
        if pair.tag == "rs":
            segment.results = one_line(pair.value).split(",")
            self._check_results(segment, pair)
        elif pair.tag == "pw":
            segment.pair_names = _fill_forward(one_line(pair.value).split(","), 4)
        elif pair.tag == "bn":
            numbers = [_number(text) for text in pair.value.split(",")]
            segment.board_numbers = [number for number in numbers if number is not None]

    def _header_names(self, pair: Pair) -> None:
        assert self.segment is not None
        self.segment.names = one_line(pair.value).split(",")
        text = escape_text(pair.tag, one_line(pair.value))
        self.segment.header.append(Comment(text, CommentKind.ESCAPE))

    def _check_results(self, segment: Segment, pair: Pair) -> None:
        results = segment.results or []
        fields = segment.vg or []
        first = _number(fields[3]) if len(fields) > 4 else None
        last = _number(fields[4]) if len(fields) > 4 else None
        if first is not None and last is not None:
            expected = 2 * (last - first + 1)
            count = len(results) - (1 if results and not results[-1].strip() else 0)
            if expected > 0 and count != expected:
                found = LIN116.at(("offset", pair.value_offset), count=count,
                                  expected=expected, first=first, last=last)  # fmt: skip
                self._header_finding(found, pair)
        position = 0
        first_board = segment.first_board or 1
        for index, entry in enumerate(results):
            if entry.strip() and read_table_result(entry) is None:
                board = first_board + index // 2
                found = LIN112.at(("offset", pair.value_offset + position),
                                  entry=repr(entry), board=board)  # fmt: skip
                self._header_finding(found, pair)
            position += len(entry) + 1

    def _header_finding(self, diagnostic: Diagnostic, pair: Pair) -> None:
        if not self.header_findings:
            self.header_start = pair.offset
        self.header_findings.append(diagnostic)
        if not self.header_pieces or self.header_pieces[-1] is not pair.piece:
            self.header_pieces.append(pair.piece)

    def _link(self, start: LinkStart) -> Iterator[Record]:
        yield from self._close()
        link = start.link
        found: Diagnostic | None = None
        if link.kind == "linurl":
            found = LIN005.at(("offset", start.offset), url=_shorten(link.raw))
        elif not start.piece.text.strip() or "|" not in start.piece.text:
            found = LIN009.at(("offset", start.offset), detail="the lin parameter is empty")
        elif start.encoded_twice:
            found = LIN006.at(("offset", start.offset))
        if found is not None:
            source = LinSourceMap([start.piece], start=start.offset)
            yield _record(None, [found], self.name, source)

    # --- decoding a finished table --------------------------------------------------------

    def _close(self) -> Iterator[Record]:
        if self.header_findings:
            yield from self._header_record()
        current = self.current
        self.current = _Current()
        if current.oversized is not None:
            yield self._oversized(current.oversized)
            return
        if not current.items and current.names is None:
            return
        has_pairs = any(isinstance(item, Pair) for item in current.items)
        if not current.started and not has_pairs and current.names is None:
            yield from self._strays_only(current.items)
            return
        table = TableInput(current.items, self.segment, current.names)
        try:
            board, source, found = decode_table(table)
        except Exception as error:  # a bug of ours must cost one table, not the file
            yield self._internal_error(current, error)
            return
        yield _record(board, found, self.name, source)

    def _strays_only(self, items: list[Pair | Stray]) -> Iterator[Record]:
        """Text that is not LIN at all, between tables: findings with no board."""
        if not items:
            return
        table = TableInput(items, None)
        _, source, found = decode_table(table)
        yield _record(None, found, self.name, source)

    def _header_record(self) -> Iterator[Record]:
        found, pieces = self.header_findings, self.header_pieces
        self.header_findings, self.header_pieces = [], []
        # At the pair, not at the start of the text it came in: that depends on where the
        # reader's chunks start (a piece of a long line, a token carried over).
        source = LinSourceMap(pieces or [Piece("", 0, 1)], start=self.header_start)
        yield _record(None, found, self.name, source)

    def _oversized(self, first: Pair | Stray) -> Record:
        """SRC009 at the start of a table too big to decode (its items were dropped)."""
        source = LinSourceMap([first.piece], start=first.offset)
        found = SRC009.at(("offset", first.offset), what="table", limit=self.limit)
        return _record(None, [found], self.name, source)

    def _internal_error(self, current: _Current, error: Exception) -> Record:
        detail = traceback.format_exception_only(error)[-1].strip()
        first = current.items[0] if current.items else current.names
        pieces = [first.piece] if first is not None else [Piece("", 0, 1)]
        source = LinSourceMap(pieces, start=first.offset if first is not None else 0)
        found = INT001.at(("offset", source.start), skipped="this table", error=detail)
        return _record(None, [found], self.name, source)


_CLOSERS = frozenset({"pn", "md", "qx"})
"""The pairs that end a table that has a deal, when no room has been seen."""


def _ends_a_table(item: Item | LinkStart) -> bool:
    """Whether ``item`` ends a board read in one step (a table with a deal, no room)."""
    if type(item) is Pair:
        return item.tag in _CLOSERS
    return isinstance(item, (DocumentEnd, LinkStart))


@dataclass(frozen=True, slots=True)
class _FastBoard:
    line: BoardLine
    board: Board


def _fast_record(held: _FastBoard, name: str) -> Record:
    """The record of a board read in one step: no finding; its positions are found by
    reading the line again pair by pair, the first time one is asked for."""
    piece = held.line.piece
    line = piece.position(piece.start + held.line.found.start())[0]
    return Record(held.board, (), name, line, _LineSource(held.line, name))


class _LineSource:
    """The source map of a board read in one step: the one the pair-by-pair read makes of
    the same line, made when first needed (most boards have no finding to place)."""

    __slots__ = ("_line", "_map", "_name")

    def __init__(self, line: BoardLine, name: str) -> None:
        self._line, self._name = line, name
        self._map: LinSourceMap | None = None

    def _source(self) -> LinSourceMap:
        if self._map is None:
            assembler = _Assembler(self._name, fast=False)
            records = [r for pair in line_pairs(self._line) for r in assembler.feed(pair)]
            records.extend(assembler.finish())
            source = records[-1].locator
            assert isinstance(source, LinSourceMap)
            self._map = source
        return self._map

    def offset(self, path: tuple[object, ...] | None) -> int | None:
        return self._source().offset(path)

    def position(self, offset: int) -> tuple[int, int]:
        return self._source().position(offset)


_NUMBER = re.compile(r"\s*([0-9]{1,6})\s*")


def _number(text: str) -> int | None:
    """A board number written with ASCII digits (``str.isdigit`` takes ``²`` too)."""
    found = _NUMBER.fullmatch(text)
    return int(found.group(1)) if found else None


def _fill_forward(names: list[str], width: int) -> list[str]:
    """``pw`` names: an empty name means the same player as on the previous board."""
    filled = list(names)
    for index, name in enumerate(filled):
        if not name.strip() and index >= width:
            filled[index] = filled[index - width]
    return filled


def _shorten(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def _record(board: object, found: list[Diagnostic], name: str, source: LinSourceMap) -> Record:
    from pbntool.model import Board

    assert board is None or isinstance(board, Board)
    line = source.position(source.start)[0]
    number = board.number if board is not None else None
    placed = sorted(
        (place(diagnostic, name, line, source, number) for diagnostic in found),
        key=lambda d: (d.line or 0, d.column or 0),
    )
    return Record(board, tuple(placed), name, line, source)
